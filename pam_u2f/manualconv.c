/* SPDX-License-Identifier: BSD-2-Clause */
/* Manual mode through the conversation (manualconv.h): the challenges
 * shown, the fido2-assert lines read back and verified by
 * common/auth/manual.c. Its own file because it is the module's one
 * alternative to waiting for a plugged-in key (touchwait.c), and the
 * only place where the user types what a key signed. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <security/pam_appl.h>

#include "base/b64.h"
#include "converse.h"
#include "base/err.h"
#include "auth/manual.h"
#include "manualconv.h"
#include "base/util.h"

#define MANUALCONV_LINES 4

static const char *const manualconv_prompts[MANUALCONV_LINES] = {
    "fido2-assert output, line 1 (client data hash): ",
    "fido2-assert output, line 2 (relying party): ",
    "fido2-assert output, line 3 (authenticator data): ",
    "fido2-assert output, line 4 (signature): ",
};

static const char *
manualconv_rp(const struct call *c, const struct cred *cr)
{
	return (cr->flags & CRED_APPID) ? c->opt.appid : c->opt.origin;
}

/* What credential i asks of an answer: the options a plugged-in key is
 * asked for (the same arguments as touchwait.c gives auth_run, through the
 * same proto_cred_opts). */
static void
manualconv_opts(const struct call *c, size_t i, struct cred_opts *o)
{
	struct assert_req req;

	memset(&req, 0, sizeof(req));
	req.presence = args_presence(&c->opt);
	req.userverification = c->opt.userverification;
	req.pinverification = c->opt.pinverification;
	proto_cred_opts(&req, &c->creds[i], o);
}

/* The fido2-assert flags for credential i (manual_flags). */
static const char *
manualconv_flags(const struct call *c, size_t i)
{
	struct cred_opts o;

	manualconv_opts(c, i, &o);
	return manual_flags(&o);
}

/* Do all credentials need the same flags? */
static bool
manualconv_same_flags(const struct call *c)
{
	size_t i;

	for (i = 1; i < c->ncreds; i++)
		if (strcmp(manualconv_flags(c, i), manualconv_flags(c, 0)) != 0)
			return false;
	return true;
}

/* The intro: the command with the flags the answers need, or, when the
 * credentials differ, a command line before each challenge. */
static int
manualconv_intro(struct call *c, bool same)
{
	char intro[256];
	const char *f = c->ncreds > 0 ? manualconv_flags(c, 0) : "";

	if (!same)
		return converse_show(
		    c->pamh, PAM_TEXT_INFO, MANUALCONV_INTRO_EACH);
	snprintf(intro, sizeof(intro), MANUALCONV_INTRO, *f ? " " : "", f);
	return converse_show(c->pamh, PAM_TEXT_INFO, intro);
}

/* Show the intro and one challenge per credential. */
static int
manualconv_show(struct call *c, const uint8_t (*cdh)[PROTO_CDH_LEN])
{
	char each[128], *chal = NULL;
	const char *f;
	bool same = manualconv_same_flags(c);
	size_t i;
	int r;

	if ((r = manualconv_intro(c, same)) != ERR_OK)
		return r;
	for (i = 0; i < c->ncreds; i++) {
		f = manualconv_flags(c, i);
		snprintf(each, sizeof(each), MANUALCONV_EACH, i + 1,
		    *f ? " " : "", f);
		if (!same &&
		    (r = converse_show(c->pamh, PAM_TEXT_INFO, each)) != ERR_OK)
			return r;
		r = manual_challenge(cdh[i], manualconv_rp(c, &c->creds[i]),
		    &c->creds[i], &chal);
		if (r != ERR_OK)
			return r;
		r = converse_show(c->pamh, PAM_TEXT_INFO, chal);
		free(chal);
		if (r != ERR_OK)
			return r;
	}
	return ERR_OK;
}

/* Verify the answer against the challenge whose cdh it echoes. */
static int
manualconv_check(struct call *c, const uint8_t (*cdh)[PROTO_CDH_LEN],
    const struct manual_answer *a)
{
	struct assertion as;
	struct cred_opts o;
	size_t i;
	int r, last = ERR_MISMATCH;

	for (i = 0; i < c->ncreds; i++) {
		manualconv_opts(c, i, &o);
		r = manual_verify(cdh[i], manualconv_rp(c, &c->creds[i]),
		    &c->creds[i], &o, a, &as);
		if (r == ERR_OK) {
			debug_msg(&c->dbg,
			    "manual: credential %zu verified "
			    "(counter %lu)",
			    i + 1, (unsigned long)as.counter);
			return ERR_OK;
		}
		if (r != ERR_MISMATCH) /* this challenge's answer */
			last = r;
	}
	debug_err(&c->dbg, "manual: answer refused: %s", err_str(last));
	/* A malformed answer is a failed second factor. */
	return last == ERR_NOMEM ? last : ERR_VERIFY;
}

int
manualconv_run(struct call *c)
{
	uint8_t(*cdh)[PROTO_CDH_LEN] = NULL;
	char *line[MANUALCONV_LINES] = {NULL, NULL, NULL, NULL};
	struct manual_answer a;
	size_t i;
	int r;

	if ((cdh = calloc(c->ncreds, sizeof(*cdh))) == NULL)
		return ERR_NOMEM;
	if ((r = util_random(cdh, c->ncreds * sizeof(*cdh))) != ERR_OK ||
	    (r = manualconv_show(c, (const uint8_t(*)[PROTO_CDH_LEN])cdh)) !=
		ERR_OK)
		goto fail;
	for (i = 0; i < MANUALCONV_LINES; i++)
		if ((r = converse_ask(c->pamh, PAM_PROMPT_ECHO_ON,
			 manualconv_prompts[i], &line[i])) != ERR_OK) {
			debug_err(&c->dbg, "manual: no answer");
			goto fail;
		}
	a.cdh = line[0];
	a.rp_id = line[1];
	a.authdata = line[2];
	a.sig = line[3];
	r = manualconv_check(c, (const uint8_t(*)[PROTO_CDH_LEN])cdh, &a);
fail:
	for (i = 0; i < MANUALCONV_LINES; i++)
		converse_free(line[i]);
	util_freezero(cdh, c->ncreds * sizeof(*cdh));
	return r;
}
