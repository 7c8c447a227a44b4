/* SPDX-License-Identifier: BSD-2-Clause */
/* remote=agent (agentflow.h): the user's OpenSSH FIDO keys from the
 * mapping file's @ssh-sk lines or authcmd='s authorized_keys lines, the
 * agent's socket from SSH_AUTH_SOCK, then ssh/ssh.h's sshauth_run with
 * privileges dropped to the user. Its own file because it is the one
 * course of a login that signs through an agent instead of a device. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <security/pam_appl.h>
#include <security/pam_ext.h>

#include "agentflow.h"
#include "base/err.h"
#include "base/util.h"
#include "cmdsource.h"
#include "converse.h"
#include "mapping/sshline.h"
#include "privdrop.h"
#include "usermsg.h"
#include "userfile.h"

/* The keys of authcmd='s output. */
static int
agentflow_cmd_keys(struct call *c, struct sshpub **keys, size_t *n)
{
	char *out = NULL;
	size_t len = 0, other = 0, bad = 0;
	int r;

	if ((r = cmdsource_output(&c->opt, &c->pw, &c->dbg, &out, &len)) !=
	    ERR_OK)
		return r;
	r = sshline_authorized(out, len, keys, n, &other, &bad);
	util_freezero(out, len);
	if (other > 0)
		debug_msg(&c->dbg,
		    "authcmd output: %zu key(s) of other types skipped", other);
	if (r == ERR_PARSE)
		debug_err(&c->dbg,
		    "authcmd output line %zu is not a usable FIDO key line "
		    "(sk-ecdsa-sha2-nistp256@openssh.com or "
		    "sk-ssh-ed25519@openssh.com, options no-touch-required "
		    "and verify-required only)",
		    bad);
	else if (r == ERR_NOT_FOUND)
		c->what = RETVAL_NO_CREDS;
	else if (r != ERR_OK)
		debug_err(&c->dbg, "authcmd output: %s", err_str(r));
	return r;
}

/* The @ssh-sk lines of the mapping file. */
static int
agentflow_file_keys(struct call *c, struct sshpub **keys, size_t *n)
{
	char *buf = NULL;
	size_t len = 0, bad = 0;
	int r;

	r = userfile_read_whole(&c->opt, &c->pw, &c->dbg, &c->uf, &buf, &len);
	if (r == ERR_NOT_FOUND) {
		c->what = RETVAL_NO_FILE;
		return r;
	}
	if (r != ERR_OK) {
		c->what = RETVAL_MAPFILE;
		return r;
	}
	r = sshline_find(buf, len, c->user, keys, n, &bad);
	util_freezero(buf, len);
	if (r == ERR_NOT_FOUND) {
		debug_msg(&c->dbg, "%s: no " SSHLINE_MARK " line for %s",
		    c->uf.path, c->user);
		c->what = RETVAL_NO_CREDS;
	} else if (r == ERR_PARSE) {
		debug_err(&c->dbg,
		    "%s: line %zu (" SSHLINE_MARK ") is "
		    "malformed",
		    c->uf.path, bad);
		c->what = RETVAL_MAPFILE;
	} else if (r != ERR_OK) {
		debug_err(&c->dbg, "%s: %s", c->uf.path, err_str(r));
		c->what = RETVAL_MAPFILE;
	}
	return r;
}

int
agentflow_keys(struct call *c, struct sshpub **keys, size_t *n)
{
	int r;

	*keys = NULL;
	*n = 0;
	if (c->opt.sshformat) {
		debug_err(&c->dbg,
		    "remote=agent: sshformat names a private "
		    "key file, not the user's public keys");
		return ERR_CONFIG;
	}
	r = c->opt.authcmd != NULL ? agentflow_cmd_keys(c, keys, n)
				   : agentflow_file_keys(c, keys, n);
	if (r == ERR_OK)
		debug_msg(
		    &c->dbg, "%zu OpenSSH FIDO key(s) for %s", *n, c->user);
	return r;
}

/* SSH_AUTH_SOCK: the PAM environment's, then the process's. */
static const char *
agentflow_sock(struct call *c)
{
	const char *s = pam_getenv(c->pamh, "SSH_AUTH_SOCK");

	if (s == NULL || s[0] == '\0')
		s = getenv("SSH_AUTH_SOCK");
	return s != NULL && s[0] != '\0' ? s : NULL;
}

static void
agentflow_cue(void *arg, const struct sshpub *key)
{
	struct call *c = arg;

	(void)key;
	c->cued = true;
	if (converse_show(c->pamh, PAM_TEXT_INFO, TELL_REMOTE_AGENT_CUE) !=
	    ERR_OK)
		debug_err(&c->dbg, "the cue could not be shown");
}

/* sshauth_run as the user. */
static int
agentflow_sign(struct call *c, const struct sshauth_req *rq,
    const struct sshpub *keys, size_t n, struct sshauth_res *res)
{
	struct privdrop pd;
	int r;

	if ((r = privdrop_drop(&pd, &c->pw)) != ERR_OK) {
		debug_err(&c->dbg, "cannot drop privileges to %s", c->user);
		return r;
	}
	r = sshauth_run(rq, keys, n, res);
	privdrop_restore(&pd); /* or abort() */
	return r;
}

/* The request: user, service, host, UV, deadline, cue, log. */
static void
agentflow_req(struct call *c, const char *sock, char *host, size_t hsize,
    struct sshauth_req *rq)
{
	const void *svc = NULL;

	memset(rq, 0, sizeof(*rq));
	if (gethostname(host, hsize - 1) != 0)
		host[0] = '\0';
	host[hsize - 1] = '\0';
	if (pam_get_item(c->pamh, PAM_SERVICE, &svc) != PAM_SUCCESS)
		svc = NULL;
	rq->sock = sock;
	rq->uid = c->pw.pw_uid;
	rq->user = c->user;
	rq->service = svc != NULL ? svc : "";
	rq->host = host;
	rq->need_uv =
	    c->opt.userverification == 1 || c->opt.pinverification == 1;
	rq->timeout_ms = c->opt.timeout * 1000;
	rq->cue = agentflow_cue;
	rq->cue_arg = c;
	rq->lg = &c->dbg.err;
}

int
agentflow_run(struct call *c)
{
	char host[HOST_NAME_MAX + 1];
	struct sshauth_req rq;
	struct sshauth_res res;
	struct sshpub *keys = NULL;
	const char *sock;
	size_t n = 0;
	int r;

	if ((r = agentflow_keys(c, &keys, &n)) != ERR_OK) {
		if (r == ERR_NOT_FOUND && !c->opt.nouserok && !c->opt.alwaysok)
			tell_remote_no_keys(c);
		return r;
	}
	if ((sock = agentflow_sock(c)) == NULL) {
		debug_err(&c->dbg,
		    "remote=agent: no SSH_AUTH_SOCK (no "
		    "forwarded agent, or sudo did not keep it)");
		tell_remote_no_agent(c);
		sshpub_free_list(keys, n);
		return ERR_NO_KEY;
	}
	agentflow_req(c, sock, host, sizeof(host), &rq);
	debug_msg(&c->dbg, "remote=agent: asking the agent at %s%s", sock,
	    rq.need_uv ? " (user verification required)" : "");
	memset(&res, 0, sizeof(res));
	r = agentflow_sign(c, &rq, keys, n, &res);
	if (r == ERR_OK)
		debug_msg(&c->dbg,
		    "remote=agent: verified: key %zu (%s), flags 0x%02x, "
		    "counter %u",
		    res.key + 1,
		    keys[res.key].comment != NULL ? keys[res.key].comment : "",
		    res.flags, (unsigned)res.counter);
	else
		debug_err(&c->dbg, "remote=agent: %s", err_str(r));
	if (r == ERR_AGENT_NO_KEY || r == ERR_AGENT_REFUSED)
		tell_remote_agent_refused(c);
	sshpub_free_list(keys, n);
	return r;
}
