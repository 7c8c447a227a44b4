/* SPDX-License-Identifier: BSD-2-Clause */
/* The PAM conversation, one message at a time, failing closed: no
 * conversation function, a failed call or a missing answer is
 * ERR_CANCELLED, never an empty answer (CVE-2021-31924). Its own file so
 * that every prompt and message of the module goes through one place. */
#include "config.h"

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

int
converse_show(pam_handle_t *pamh, int style, const char *msg)
{
	struct pam_response *resp = NULL;
	int r;

	r = converse_one(pamh, style, msg, &resp);
	resp_free(resp);
	return r;
}

void
converse_free(char *answer)
{
	if (answer != NULL)
		util_freezero(answer, strlen(answer));
}
