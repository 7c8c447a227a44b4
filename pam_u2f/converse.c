/* SPDX-License-Identifier: BSD-2-Clause */
/* The PAM conversation, one message at a time, failing closed: no
 * conversation function, a failed call or a missing answer is
 * ERR_CANCELLED, never an empty answer (CVE-2021-31924). Its own file so
 * that every prompt and message of the module goes through one place. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <security/pam_appl.h>
#include <security/pam_modules.h>

#include "converse.h"
#include "base/err.h"
#include "base/util.h"

static void
resp_free(struct pam_response *resp)
{
	if (resp == NULL)
		return;
	if (resp->resp != NULL)
		util_freezero(resp->resp, strlen(resp->resp));
	free(resp);
}

static int
converse_one(
    pam_handle_t *pamh, int style, const char *msg, struct pam_response **out)
{
	const struct pam_conv *conv = NULL;
	const void *item = NULL;
	struct pam_message m;
	const struct pam_message *mp = &m;
	struct pam_response *resp = NULL;

	*out = NULL;
	if (pam_get_item(pamh, PAM_CONV, &item) != PAM_SUCCESS || item == NULL)
		return ERR_CANCELLED;
	conv = item;
	if (conv->conv == NULL)
		return ERR_CANCELLED;
	m.msg_style = style;
	m.msg = msg;
	if (conv->conv(1, &mp, &resp, conv->appdata_ptr) != PAM_SUCCESS) {
		resp_free(resp);
		return ERR_CANCELLED;
	}
	*out = resp;
	return ERR_OK;
}

int
converse_ask(pam_handle_t *pamh, int style, const char *msg, char **answer)
{
	struct pam_response *resp = NULL;
	int r;

	*answer = NULL;
	if ((r = converse_one(pamh, style, msg, &resp)) != ERR_OK)
		return r;
	if (resp == NULL || resp->resp == NULL) {
		resp_free(resp);
		return ERR_CANCELLED;
	}
	*answer = resp->resp;
	free(resp);
	return ERR_OK;
}

/* The handle's data under this name is non-NULL while the call is
 * PAM_SILENT (converse_silence). */
#define SILENT_KEY "pam_u2f_silent"

void
converse_silence(pam_handle_t *pamh, bool silent)
{
	/* any non-NULL pointer means silent: the handle itself */
	(void)pam_set_data(
	    pamh, SILENT_KEY, silent ? (void *)pamh : NULL, NULL);
}

bool
converse_silent(pam_handle_t *pamh)
{
	const void *p = NULL;

	return pam_get_data(pamh, SILENT_KEY, &p) == PAM_SUCCESS && p != NULL;
}

int
converse_show_always(pam_handle_t *pamh, int style, const char *msg)
{
	struct pam_response *resp = NULL;
	int r;

	r = converse_one(pamh, style, msg, &resp);
	resp_free(resp);
	return r;
}

int
converse_show(pam_handle_t *pamh, int style, const char *msg)
{
	if (converse_silent(pamh))
		return ERR_OK; /* PAM_SILENT: nothing shown is no failure */
	return converse_show_always(pamh, style, msg);
}

void
converse_free(char *answer)
{
	if (answer != NULL)
		util_freezero(answer, strlen(answer));
}
