/* SPDX-License-Identifier: BSD-2-Clause */
/* --check: authenticate now, through auth_run (the module's own path),
 * against the user's credentials in the mapping file, or from the
 * configuration's authcmd= (checkcmd.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth/auth.h"
#include "base/err.h"
#include "tool.h"

struct cue_arg {
	const struct tool_opts *o;
	bool tap; /* a key on a reader: "touch or tap" */
};

static int
cue(void *arg)
{
	const struct cue_arg *a = arg;

	tool_msg("%s the security key to authenticate %s",
	    a->tap ? "touch or tap" : "touch", a->o->user);
	return ERR_OK;
}

/* No key holds any of creds: say for which origins (the rp ids asked
 * for: the origin, and the appid for credentials flagged CRED_APPID),
 * the usual cause being a credential registered under another one. */
static void
say_not_held(const struct tool_opts *o, const struct cred *creds, size_t n)
{
	const char *first = NULL, *second = NULL, *rp;
	size_t i;

	for (i = 0; i < n; i++) {
		rp = (creds[i].flags & CRED_APPID) ? o->cf.appid : o->cf.origin;
		if (rp == NULL)
			continue;
		if (first == NULL)
			first = rp;
		else if (strcmp(first, rp) != 0)
			second = rp;
	}
	if (first == NULL)
		first = o->cf.origin;
	tool_msg("no key present holds a credential of %s for origin %s "
		 "(origins tried: %s%s%s); was it registered under another "
		 "origin? (pamu2fcfg -o, origin= in the configuration file)",
	    o->user, first, first, second != NULL ? ", " : "",
	    second != NULL ? second : "");
}

int
check_authenticate(const struct tool_opts *o, const struct cred *creds,
    size_t n, const uint8_t *const *salts, struct auth_result *out)
{
	struct tool_pin tp = {o->pin_stdin, NULL};
	const struct proto_pin pin = {
	    .get = tool_pin_get, .tell = tool_pin_tell, .arg = &tp};
	struct auth_req req;
	struct auth_result res;
	struct dev **devs = NULL;
	struct cue_arg ca = {o, false};
	size_t ndevs = 0;
	int r;

	memset(&req, 0, sizeof(req));
	memset(&res, 0, sizeof(res));
	if ((r = enroll_open(o, &devs, &ndevs)) != ERR_OK)
		goto fail;
	req.creds = creds;
	req.ncreds = n;
	req.origin = o->cf.origin;
	req.appid = o->cf.appid;
	req.presence = !o->no_presence;
	/* -N and -V ask for the PIN / UV whatever the credentials say */
	req.userverification = o->uv ? 1 : -1;
	req.pinverification = o->pin ? 1 : -1;
	req.pin = &pin;
	req.timeout_ms = o->cf.timeout * 1000;
	req.log = o->lg;
	req.cue = cue;
	ca.tap = dev_any_tap(devs, ndevs);
	req.cue_arg = &ca;
	req.hmac_salt = salts;
	r = auth_run(devs, ndevs, &req, &res);
	if (r == ERR_OK)
		printf("ok: credential %zu on %s\n", res.cred_index + 1,
		    res.dev_index < ndevs
			? xport_path(devs[res.dev_index]->ctx.x)
			: "?");
	else if (r == ERR_NO_KEY || r == ERR_WRONG_KH) {
		say_not_held(o, creds, n);
		r = ERR_NOT_FOUND;
	} else if (r == ERR_TIMEOUT)
		enroll_explain_open(o, r);
	else if (r != ERR_OK)
		tool_msg("authentication failed: %s", err_str(r));
	if (r == ERR_OK && out != NULL) {
		*out = res;
		util_wipe(&res, sizeof(res));
	}
	auth_result_clear(&res);
fail:
	dev_close_all(devs, ndevs);
	return r;
}

int
check_run(const struct tool_opts *o)
{
	struct cred *creds = NULL;
	char *path = NULL;
	size_t n = 0;
	int r;

	/* No FILE and the configuration's authcmd=: the module's route. */
	if (o->file == NULL && o->cf.authcmd != NULL)
		r = checkcmd_load(o, &creds, &n);
	else if ((r = manage_path(o, NULL, &path)) == ERR_OK)
		r = manage_load(o, path, &creds, &n);
	if (r != ERR_OK)
		goto fail;
	r = check_authenticate(o, creds, n, NULL, NULL);
	if (r == ERR_OK && fflush(stdout) == EOF)
		r = ERR_IO;
fail:
	cred_free_list(creds, n);
	free(path);
	return tool_exit_for(r);
}
