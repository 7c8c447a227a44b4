/* SPDX-License-Identifier: BSD-2-Clause */
/* The flow of one authentication (one pam_sm_authenticate call, whose
 * state is struct call in callctx.h): arguments, user, credentials (a
 * mapping file, userfile.c, or authcmd=, cmdsource.c), their check,
 * then the touch (touchwait.c) or manual mode (manualconv.c), and the
 * PAM code. Its own file so that the order of a login reads in one
 * place; each step is another file's. */
#include "config.h"

#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <security/pam_ext.h>
#include <security/pam_modules.h>

#include "auth/auth.h"
#include "authflow.h"
#include "cmdsource.h"
#include "conf/conf.h"
#include "crypto/crypto.h"
#include "base/err.h"
#include "manualconv.h"
#include "policyflow.h"
#include "remoteflow.h"
#include "retval.h"
#include "usermsg.h"
#include "touchwait.h"
#include "userfile.h"

#define CALL_PWBUF_MIN 1024
#define CALL_PWBUF_MAX (1024 * 1024)

void
call_init(struct call *c, pam_handle_t *pamh)
{
	memset(c, 0, sizeof(*c));
	c->pamh = pamh;
	debug_open(&c->dbg, pamh, false, NULL);
}

int
call_args(struct call *c, int argc, const char **argv)
{
	int r;

	/* A silent pass to learn debug/debug_file, then the real one, so
	 * that argument errors reach the debug sink too. */
	r = args_parse(&c->opt, argc, argv, NULL);
	debug_close(&c->dbg);
	debug_open(&c->dbg, c->pamh, c->opt.debug, c->opt.debug_file);
	if (r != ERR_OK) {
		args_free(&c->opt);
		r = args_parse(&c->opt, argc, argv, &c->dbg.err);
		if (r == ERR_OK) /* cannot happen, but fail closed */
			r = ERR_CONFIG;
		return r;
	}
	c->args_ok = true;
	debug_msg(&c->dbg, "config file %s: %s",
	    c->opt.conf != NULL ? c->opt.conf : conf_default_path(),
	    c->opt.conf_found ? "read" : "absent, built-in defaults");
	debug_msg(&c->dbg, "origin %s, appid %s, timeout %d s, ES256 checks %s",
	    c->opt.origin, c->opt.appid, c->opt.timeout, crypto_verify_impl());
	return ERR_OK;
}

static int
call_user(struct call *c)
{
	struct passwd *res = NULL;
	size_t size;
	long sz = sysconf(_SC_GETPW_R_SIZE_MAX);
	int e = ERANGE;

	if (pam_get_user(c->pamh, &c->user, NULL) != PAM_SUCCESS ||
	    c->user == NULL || c->user[0] == '\0') {
		debug_err(&c->dbg, "cannot get the user name");
		return ERR_CANCELLED;
	}
	for (size = sz > CALL_PWBUF_MIN ? (size_t)sz : CALL_PWBUF_MIN;
	     size <= CALL_PWBUF_MAX; size *= 2) {
		free(c->pwbuf);
		if ((c->pwbuf = malloc(size)) == NULL)
			return ERR_NOMEM;
		e = getpwnam_r(c->user, &c->pw, c->pwbuf, size, &res);
		if (e != ERANGE)
			break;
	}
	if (res == NULL) {
		debug_err(&c->dbg, "user %s: %s", c->user,
		    e != 0 ? strerror(e) : "unknown");
		return e == 0 || e == ENOENT ? ERR_NOT_FOUND : ERR_SYSTEM;
	}
	if (c->pw.pw_dir == NULL || c->pw.pw_dir[0] != '/') {
		debug_err(
		    &c->dbg, "user %s: no absolute home directory", c->user);
		return ERR_CONFIG;
	}
	return ERR_OK;
}

int
call_authenticate(struct call *c)
{
	const struct remsess_roots roots = REMSESS_ROOTS_HOST;
	int r;
	bool none = false;

	if ((r = call_user(c)) != ERR_OK) {
		if (r == ERR_NOT_FOUND)
			c->what = RETVAL_NO_USER;
		return r;
	}
	if ((r = remoteflow_classify(c, &roots)) != ERR_OK)
		return r;
	if (c->remote && c->opt.remote == CONF_REMOTE_IGNORE) {
		debug_warn(
		    &c->dbg, "remote=ignore: PAM_IGNORE for %s", c->user);
		c->what = RETVAL_REMOTE_IGNORE;
		return ERR_OK;
	}
	if (c->remote && c->opt.remote == CONF_REMOTE_AGENT)
		return (r = policyflow_agent(c)) != ERR_OK
		    ? r
		    : remoteflow_agent(c);
	if (c->opt.authcmd != NULL) {
		r = cmdsource_load(
		    &c->opt, &c->pw, &c->dbg, &c->creds, &c->ncreds, &none);
		c->what = none ? RETVAL_NO_CREDS : RETVAL_OTHER;
	} else
		r = userfile_load(&c->opt, &c->pw, &c->dbg, &c->uf, &c->creds,
		    &c->ncreds, &c->what);
	if (r == ERR_NOT_FOUND &&
	    (c->what == RETVAL_NO_FILE || c->what == RETVAL_NO_CREDS) &&
	    !c->opt.nouserok && !c->opt.alwaysok)
		tell_no_creds(c);
	if (r != ERR_OK)
		return r;
	/* A credential no protocol we speak can use is refused by name,
	 * never skipped, before any device is opened. */
	if ((r = auth_check_creds(c->creds, c->ncreds, &c->dbg.err)) != ERR_OK)
		return r;
	/* attestation = required: only credentials whose stored evidence
	 * meets the policy may be asked for. */
	if ((r = policyflow_check(c)) != ERR_OK)
		return r;
	if (c->remote && c->opt.remote == CONF_REMOTE_FAIL)
		return remoteflow_fail(c);
	if (c->opt.manual)
		return manualconv_run(c);
	return touch_run(c);
}

int
call_result(struct call *c, int err)
{
	int pr = retval_pam(err, c->what, c->opt.nouserok);

	if (pr != PAM_SUCCESS && c->args_ok && c->opt.alwaysok &&
	    err != ERR_SYSTEM) {
		debug_warn(&c->dbg, "alwaysok: success for %s despite: %s",
		    c->user != NULL ? c->user : "(unknown user)",
		    err == ERR_OK ? "nouserok" : err_str(err));
		pr = PAM_SUCCESS;
	} else if (c->opt.alwaysok && pr == PAM_SUCCESS)
		debug_warn(&c->dbg, "alwaysok is set (second factor given)");
	debug_msg(
	    &c->dbg, "result %s: %s", err_name(err), pam_strerror(c->pamh, pr));
	return pr;
}

void
call_free(struct call *c)
{
	cred_free_list(c->creds, c->ncreds);
	c->creds = NULL;
	c->ncreds = 0;
	free(c->pwbuf);
	c->pwbuf = NULL;
	userfile_clear(&c->uf);
	args_free(&c->opt);
	debug_close(&c->dbg);
}
