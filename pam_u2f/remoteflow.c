/* SPDX-License-Identifier: BSD-2-Clause */
/* remote= in the flow of a call (authflow.c asks): the session's class
 * by the rule of remote.h, and remote=fail's refusal. Its own file so
 * that the remote course of a login reads in one place, apart from the
 * local one. */
#include "config.h"

#include "agentflow.h"
#include "base/err.h"
#include "conf/opts.h"
#include "remote.h"
#include "remoteflow.h"
#include "usermsg.h"

int
remoteflow_classify(struct call *c, const struct remsess_roots *roots)
{
	const char *why = NULL;
	bool trusted = c->opt.remote == CONF_REMOTE_IGNORE;
	int r;

	c->remote = false;
	if (c->opt.remote == CONF_REMOTE_WAIT)
		return ERR_OK;
	r = remote_session(c->pamh, roots, trusted, &c->remote, &why);
	if (r != ERR_OK) {
		c->remote = false;
		debug_err(&c->dbg,
		    "remote=%s: cannot tell whether the "
		    "session is remote (%s): refused",
		    conf_opt_value(CONF_REMOTE, c->opt.remote), why);
		return ERR_SYSTEM;
	}
	debug_msg(&c->dbg, "remote=%s: session %s (%s)",
	    conf_opt_value(CONF_REMOTE, c->opt.remote),
	    c->remote ? "remote" : "local", why);
	return ERR_OK;
}

int
remoteflow_fail(struct call *c)
{
	debug_err(&c->dbg,
	    "remote=fail: %s is in a remote session; no key is looked for",
	    c->user);
	tell_remote_fail(c);
	return ERR_NO_KEY;
}

int
remoteflow_agent(struct call *c)
{
	return agentflow_run(c);
}
