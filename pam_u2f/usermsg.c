/* SPDX-License-Identifier: BSD-2-Clause */
/* What the user is told when the second factor cannot go on (no
 * credentials, no key, no card, the wrong key, a failed check): short
 * texts from usermsg_text.h, shown as PAM_ERROR_MSG, filled only with
 * what the user may see. Its own file so that every such text and the
 * rule of what it may name sit in one place; nothing here changes the
 * result. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <security/pam_appl.h>

#include "converse.h"
#include "base/err.h"
#include "remote.h"
#include "transport/hidraw_why.h"
#include "usermsg.h"
#include "base/util.h"

#define TELL_PROBE_MS 1000 /* one check-only probe under another origin */
#define TELL_CANDS 3
#define TELL_ORIGIN_MAX (HOST_NAME_MAX + 8)

/* The origins a key may hold the user's credentials for, besides the one
 * in use. */
struct tell_cands {
	char host[TELL_ORIGIN_MAX];
	char shorthost[TELL_ORIGIN_MAX];
	const char *v[TELL_CANDS];
	size_t n;
};

/* Shown to a local client only (remote.h): a remote one that has not
 * authenticated would learn whether the account exists and has a key. */
static void
tell_show(struct call *c, const char *msg)
{
	const char *why = NULL;

	if (remote_client(c->pamh, &why)) {
		debug_msg(
		    &c->dbg, "not told (remote client: %s): %s", why, msg);
		return;
	}
	debug_msg(&c->dbg, "told the user: %s", msg);
	if (converse_show(c->pamh, PAM_ERROR_MSG, msg) != ERR_OK)
		debug_err(&c->dbg, "the message could not be shown");
}

void
tell_no_creds(struct call *c)
{
	char msg[TELL_MAX];

	if (c->opt.authcmd != NULL)
		snprintf(msg, sizeof(msg), TELL_NO_CREDS_CMD, c->user);
	else if (c->opt.sshformat)
		snprintf(
		    msg, sizeof(msg), TELL_NO_CREDS_SSH, c->user, c->uf.path);
	else if (c->uf.user_file)
		snprintf(msg, sizeof(msg), TELL_NO_CREDS_OWN, c->user,
		    c->uf.path, c->user);
	else
		snprintf(
		    msg, sizeof(msg), TELL_NO_CREDS_CENTRAL, c->user, c->user);
	tell_show(c, msg);
}

/* What sysfs and /dev say, when it says something; else 0. */
static int
tell_no_key_why(struct call *c, const struct hidraw_why *why)
{
	char msg[TELL_MAX];

	if (why == NULL || why->kind == HIDRAW_WHY_NONE)
		return 0;
	if (why->kind == HIDRAW_WHY_HIDDEN) {
		debug_err(&c->dbg,
		    "/sys/class/hidraw lists FIDO nodes (%s) "
		    "but /dev has none: a private /dev",
		    why->node);
		tell_show(c, TELL_NO_KEY_HIDDEN);
		return 1;
	}
	snprintf(msg, sizeof(msg), TELL_NO_KEY_DENIED, why->node,
	    hidraw_why_missing(why));
	tell_show(c, msg);
	return 1;
}

void
tell_no_key(struct call *c, int first_err, const struct hidraw_why *why)
{
	if (tell_no_key_why(c, why))
		return;
	switch (first_err) {
	case ERR_PERM:
		tell_show(c, TELL_NO_KEY_PERM);
		break;
	case ERR_TIMEOUT:
	case ERR_PROTO:
	case ERR_IO:
	case ERR_HID_OTHER:
	case ERR_HID_BUSY:
	case ERR_HID_INVALID_CMD:
	case ERR_HID_INVALID_CHANNEL:
		tell_show(c, TELL_NO_KEY_MUTE);
		break;
	default:
		tell_show(c, TELL_NO_KEY);
	}
}

void
tell_no_card(struct call *c, int timeout)
{
	char msg[TELL_MAX];

	snprintf(msg, sizeof(msg), TELL_NO_CARD, timeout);
	tell_show(c, msg);
}

static void
tell_cand_add(struct tell_cands *tc, const struct call *c, const char *o)
{
	size_t i;

	if (o == NULL || strcmp(o, c->opt.origin) == 0)
		return;
	for (i = 0; i < tc->n; i++)
		if (strcmp(tc->v[i], o) == 0)
			return;
	tc->v[tc->n++] = o;
}

/* What is honestly detectable: the appid when it differs from the
 * origin, then pam://HOSTNAME (the default origin, if origin= was set
 * after keys were registered) and pam://SHORTNAME. A host's old name
 * cannot be found: the key does not tell which origin it holds. */
static void
tell_candidates(const struct call *c, struct tell_cands *tc)
{
	char name[HOST_NAME_MAX + 1], *dot;

	memset(tc, 0, sizeof(*tc));
	tell_cand_add(tc, c, c->opt.appid);
	memset(name, 0, sizeof(name));
	if (gethostname(name, sizeof(name) - 1) != 0 || name[0] == '\0')
		return;
	snprintf(tc->host, sizeof(tc->host), "pam://%s", name);
	tell_cand_add(tc, c, tc->host);
	if ((dot = strchr(name, '.')) != NULL) {
		*dot = '\0';
		snprintf(
		    tc->shorthost, sizeof(tc->shorthost), "pam://%s", name);
		tell_cand_add(tc, c, tc->shorthost);
	}
}

/* The first candidate origin under which one of the keys holds one of
 * the user's credentials (check-only probes: no touch), or NULL. */
static const char *
tell_probe(const struct call *c, struct dev **devs, size_t ndevs,
    int64_t deadline, const struct tell_cands *tc)
{
	size_t i, d, k;
	int ms;

	for (i = 0; i < tc->n; i++)
		for (d = 0; d < ndevs; d++)
			for (k = 0; k < c->ncreds; k++) {
				if ((ms = util_ms_left(deadline)) == 0)
					return NULL;
				if (dev_probe(devs[d], tc->v[i], &c->creds[k],
					ms < TELL_PROBE_MS
					    ? ms
					    : TELL_PROBE_MS) == ERR_OK)
					return tc->v[i];
			}
	return NULL;
}

static void
tell_wrong_key(
    struct call *c, struct dev **devs, size_t ndevs, int64_t deadline)
{
	struct tell_cands tc;
	const char *other;
	char msg[TELL_MAX];

	tell_candidates(c, &tc);
	other = tell_probe(c, devs, ndevs, deadline, &tc);
	debug_err(&c->dbg,
	    "no security key holds a credential of %s for origin %s%s%s",
	    c->user, c->opt.origin, other != NULL ? "; one holds one for " : "",
	    other != NULL ? other : "");
	if (other != NULL)
		snprintf(msg, sizeof(msg), TELL_WRONG_KEY_HINT, c->user,
		    c->opt.origin, c->user, other, other);
	else
		snprintf(
		    msg, sizeof(msg), TELL_WRONG_KEY, c->user, c->opt.origin);
	tell_show(c, msg);
}

void
tell_auth_failed(
    struct call *c, int err, struct dev **devs, size_t ndevs, int64_t deadline)
{
	char msg[TELL_MAX];

	if (err == ERR_WRONG_KH)
		tell_wrong_key(c, devs, ndevs, deadline);
	else if (err == ERR_TIMEOUT && !c->waited)
		tell_show(c, TELL_NO_KEY_MUTE); /* at the probe */
	else if (err == ERR_TIMEOUT) {
		snprintf(msg, sizeof(msg), TELL_TIMEOUT, c->opt.timeout);
		tell_show(c, msg);
	} else if (err == ERR_UNSUPPORTED)
		tell_show(c, TELL_CANNOT_MEET);
	else if (err == ERR_NO_UV)
		tell_show(c, TELL_NO_UV);
}

void
tell_remote_fail(struct call *c)
{
	tell_show(c, TELL_REMOTE_FAIL);
}

void
tell_remote_no_agent(struct call *c)
{
	tell_show(c, TELL_REMOTE_NO_AGENT);
}

void
tell_remote_agent_refused(struct call *c)
{
	tell_show(c, TELL_REMOTE_AGENT_REFUSED);
}

void
tell_remote_no_keys(struct call *c)
{
	char msg[TELL_MAX];

	snprintf(msg, sizeof(msg), TELL_REMOTE_NO_KEYS, c->user);
	tell_show(c, msg);
}

void
tell_policy_refused(struct call *c, const char *why)
{
	char msg[TELL_MAX];

	snprintf(msg, sizeof(msg), TELL_POLICY_REFUSED, c->user, why);
	tell_show(c, msg);
}
