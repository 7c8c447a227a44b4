/* SPDX-License-Identifier: BSD-2-Clause */
/* The module's PIN prompt (pinask.h): the struct proto_pin that
 * common/auth asks when a key needs its PIN, through the conversation,
 * naming the key, and refusing a reply that is this login's password.
 * Its own file because it is the one place a PIN passes through the
 * module; it is wiped by the caller after use. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <security/pam_modules.h>

#include "args.h"
#include "base/err.h"
#include "base/util.h"
#include "converse.h"
#include "pinask.h"

/* Is answer the password this stack already has (PAM_AUTHTOK)? */
static bool
pinask_is_password(struct call *c, const char *answer)
{
	const void *item = NULL;

	if (pam_get_item(c->pamh, PAM_AUTHTOK, &item) != PAM_SUCCESS ||
	    item == NULL)
		return false;
	return strcmp((const char *)item, answer) == 0;
}

/* The PIN, through the conversation with echo off. dev names the key
 * (printable already: proto_pin). */
static int
pinask_get(void *arg, const char *dev, char *pin, size_t cap)
{
	struct call *c = arg;
	char prompt[320], *answer = NULL;
	size_t n;
	int r;

	if (args_presence(&c->opt))
		snprintf(prompt, sizeof(prompt), PINASK_PROMPT_TOUCH, dev);
	else
		snprintf(prompt, sizeof(prompt), PINASK_PROMPT, dev);
	if ((r = converse_ask(c->pamh, PAM_PROMPT_ECHO_OFF, prompt, &answer)) !=
	    ERR_OK)
		return r;
	n = strlen(answer);
	if (n == 0 || n >= cap) {
		r = n == 0 ? ERR_CANCELLED : ERR_PIN_INVALID;
	} else if (pinask_is_password(c, answer)) {
		debug_err(&c->dbg,
		    "the PIN typed for %s is the login's "
		    "password: not sent to the key",
		    dev);
		(void)converse_show(c->pamh, PAM_ERROR_MSG, PINASK_IS_PASSWORD);
		r = ERR_DENIED;
	} else {
		memcpy(pin, answer, n + 1);
	}
	converse_free(answer); /* wipes it */
	return r;
}

static void
pinask_tell(void *arg, const char *msg)
{
	struct call *c = arg;

	(void)converse_show(c->pamh, PAM_ERROR_MSG, msg);
}

void
pinask_init(struct proto_pin *pin, struct call *c)
{
	memset(pin, 0, sizeof(*pin));
	pin->get = pinask_get;
	pin->tell = pinask_tell;
	pin->arg = c;
	pin->retries_floor = PINASK_RETRIES_FLOOR;
}
