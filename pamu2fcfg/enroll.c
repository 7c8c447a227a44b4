/* SPDX-License-Identifier: BSD-2-Clause */
/* pamu2fcfg registration: wait for a key, register on the one touched,
 * and (plain mode) print the mapping line. */
#include "config.h"

#include <sys/stat.h>

#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "auth/auth.h"
#include "mapping/authfile.h"
#include "crypto/crypto.h"
#include "base/err.h"
#include "transport/hid.h"
#include "tool.h"

#define OPEN_MS 2000  /* per device: open and CTAPHID INIT */
#define PROBE_MS 2000 /* per probe (no touch needed) */
#define POLL_MS 200   /* between discovery attempts */
#define BUSY_MS 30000 /* how long a busy key may keep us waiting */
#define RETRY_MIN_MS                                                           \
	1000 /* no retry after a timeout this close to                         \
	      * the deadline */

static void
nap(int ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	nanosleep(&ts, NULL);
}

/* 50 to 177 ms, so that waiting clients do not retry in lockstep. */
static int
busy_pause(void)
{
	uint8_t b = 0;

	(void)util_random(&b, 1);
	return 50 + (b >> 1);
}

/* Worth another try: the key was busy, or a transfer timed out well
 * before the deadline. */
static bool
retry(int r, int64_t deadline)
{
	int left = util_ms_left(deadline);

	if (r == ERR_HID_BUSY)
		return left > 0;
	return r == ERR_TIMEOUT && left > RETRY_MIN_MS;
}

/* A countdown on a terminal; one line otherwise. */
static void
countdown(const struct tool_opts *o, int left_ms, int *shown)
{
	int secs = (left_ms + 999) / 1000;

	if (isatty(STDERR_FILENO)) {
		if (secs != *shown)
			fprintf(stderr,
			    "\rpamu2fcfg: insert a security key "
			    "(%d s) ",
			    secs);
	} else if (*shown < 0) {
		tool_msg("no usable security key yet; waiting up to %d s",
		    o->cf.timeout);
	}
	*shown = secs;
}

static void
countdown_end(int shown)
{
	if (shown >= 0 && isatty(STDERR_FILENO))
		fputc('\n', stderr);
}

/* One attempt at opening the keys, as root (asuser.c). */
static int
open_round(const struct tool_opts *o, int64_t deadline, struct dev ***devs,
    size_t *n, int *first_err)
{
	int r;

	*first_err = ERR_OK;
	*devs = NULL;
	*n = 0;
	asuser_leave(o); /* devices are opened as root */
	r = dev_open_backend(o->backend, (const char *const *)o->cf.devices,
	    o->cf.ndevices, 0, tool_dev_log(o), OPEN_MS, deadline, devs, n,
	    first_err);
	if (r == ERR_OK && (r = asuser_enter(o)) != ERR_OK) {
		dev_close_all(*devs, *n);
		*devs = NULL;
		*n = 0;
	}
	return r;
}

/* Open the keys (explicit --device paths or discovered ones), waiting up
 * to the timeout for one to be plugged in; *mute: the last error of a
 * key that was there but did not answer. */
static int
open_wait(const struct tool_opts *o, struct dev ***devs, size_t *n, int *mute)
{
	int64_t deadline = util_now_ms() + (int64_t)o->cf.timeout * 1000;
	int first_err, left, r, shown = -1, round;

	for (round = 0;; round++) {
		r = open_round(o, deadline, devs, n, &first_err);
		if (r != ERR_OK || *n > 0)
			break;
		dev_close_all(*devs, *n);
		*devs = NULL;
		/* The key's own answer, not the deadline's (a round cut
		 * short at the deadline did not ask every device). */
		if (devwhy_mute(first_err) && util_ms_left(deadline) > 0 &&
		    (*mute == ERR_OK || *mute == ERR_TIMEOUT))
			*mute = first_err;
		if (first_err == ERR_PERM || first_err == ERR_FILE_UNSAFE) {
			r = first_err; /* waiting will not help */
			break;
		}
		if (round == 0)
			devwhy_report_ids(o);
		if ((left = util_ms_left(deadline)) == 0) {
			r = ERR_NO_KEY;
			break;
		}
		countdown(o, left, &shown);
		nap(left < POLL_MS ? left : POLL_MS);
	}
	countdown_end(shown);
	return r;
}

int
enroll_open(const struct tool_opts *o, struct dev ***devs, size_t *n)
{
	int mute = ERR_OK, r;

	*devs = NULL;
	*n = 0;
	if ((r = devwhy_paths(o)) != ERR_OK)
		return r;
	r = open_wait(o, devs, n, &mute);
	if (r == ERR_NO_KEY && mute != ERR_OK)
		devwhy_say_mute(o, mute);
	else if (r != ERR_OK)
		enroll_explain_open(o, r);
	return r;
}

/* Which discovered nodes we may not open, with their owner and mode: the
 * line an administrator needs to write a udev rule. */
static void
explain_denied(void)
{
	struct xport_info *list = NULL;
	struct group *gr;
	struct passwd *pw;
	struct stat st;
	size_t i, n = 0;

	if (xport_discover(&list, &n) != ERR_OK)
		return;
	for (i = 0; i < n; i++) {
		if (access(list[i].path, R_OK | W_OK) == 0 ||
		    stat(list[i].path, &st) != 0)
			continue;
		pw = getpwuid(st.st_uid);
		gr = getgrgid(st.st_gid);
		tool_msg("%s (%s %s): owner %s, group %s, mode %04o",
		    list[i].path, list[i].manufacturer, list[i].product,
		    pw != NULL ? pw->pw_name : "?",
		    gr != NULL ? gr->gr_name : "?",
		    (unsigned)(st.st_mode & 07777));
	}
	xport_info_free(list, n);
}

/* One sentence a person understands for a failure to find or use a key. */
void
enroll_explain_open(const struct tool_opts *o, int err)
{
	const char *where = o->cf.ndevices == 1 ? o->cf.devices[0] : NULL;

	switch (err) {
	case ERR_PERM:
		if (o->cf.ndevices == 0) {
			explain_denied();
			(void)devwhy_sysfs(o);
		}
		tool_msg(
		    "permission denied opening the security key%s%s; "
		    "add a udev rule that grants you access to /dev/hidraw* "
		    "(e.g. TAG+=\"uaccess\") or join the group owning the "
		    "device (often plugdev)",
		    where ? " " : "", where ? where : "");
		break;
	case ERR_FILE_UNSAFE:
		tool_msg(
		    "refusing %s: a unix: socket is used only when it and "
		    "every directory above it are owned by root or by you, "
		    "and no directory is writable by group or others "
		    "(unless sticky, like /tmp)",
		    where ? where : "the unix: device");
		break;
	case ERR_NO_KEY:
	case ERR_NODEV:
		if (devwhy_sysfs(o))
			break;
		tool_msg("no security key found%s%s (waited %d s)",
		    where ? " at " : "", where ? where : "", o->cf.timeout);
		break;
	case ERR_TIMEOUT:
		tool_msg("touch timed out: the key was not touched within "
			 "%d s",
		    o->cf.timeout);
		break;
	case ERR_UNSUPPORTED:
		tool_msg("the security key cannot do what was asked: -N needs "
			 "a key with a PIN (fido2-token -S sets one), -V one "
			 "with built-in user verification, -r one that keeps "
			 "resident credentials, -c one with credProtect, "
			 "EDDSA and RS256 a FIDO2 key that offers them; a "
			 "U2F-only key makes ES256 credentials only");
		break;
	default:
		tool_msg("%s", err_str(err));
		break;
	}
}

static const char *
product_of(const char *path, struct xport_info *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(list[i].path, path) == 0)
			return list[i].product;
	return NULL;
}

/* -v: what was registered, on which device. */
static void
show_verbose(const struct tool_opts *o, const struct reg_result *res,
    const struct dev *d)
{
	struct xport_info *list = NULL;
	const char *product = NULL;
	char *subject = NULL;
	size_t n = 0;

	tool_msg("origin %s, appid %s", o->cf.origin, o->cf.appid);
	if (crypto_cert_subject(res->cert, res->cert_len, &subject) == ERR_OK)
		tool_msg("attestation subject: %s", subject);
	else
		tool_msg("attestation subject: (unreadable)");
	if (xport_discover(&list, &n) == ERR_OK)
		product = product_of(xport_path(d->ctx.x), list, n);
	tool_msg("device: %s (%s)%s%s", xport_path(d->ctx.x), d->proto->name,
	    product != NULL && *product != '\0' ? " " : "",
	    product != NULL ? product : "");
	xport_info_free(list, n);
	free(subject);
}

/* The line that asks for the touch, into buf: said now, unless -N asks
 * for the PIN first (one key), and said again once a PIN was read
 * (tool_pin.then), so the user never touches before the PIN. */
static void
enroll_say_touch(const struct tool_opts *o, struct dev **devs, size_t n,
    char *buf, size_t cap)
{
	const char *act = dev_any_tap(devs, n) ? "touch or tap" : "touch";

	snprintf(buf, cap, "%s the security key to register it for %s", act,
	    o->user);
	if (!o->pin)
		tool_msg("%s", buf);
	else if (n > 1) /* the user picks a key with a touch, then its PIN */
		tool_msg("%s the security key to register for %s (its PIN is "
			 "asked for next)",
		    act, o->user);
}

/* Register on whichever key is touched first; *cred gets the verified
 * credential with the options the user asked for. */
int
enroll_register(const struct tool_opts *o, struct dev **devs, size_t n,
    const struct cred *excl, size_t nexcl, struct cred *cred, size_t *which_dev)
{
	struct tool_pin tp = {o->pin_stdin, NULL};
	const struct proto_pin pin = {
	    .get = tool_pin_get, .tell = tool_pin_tell, .arg = &tp};
	char touch[160];
	uint8_t user_id[32];
	struct reg_req req;
	struct reg_result res;
	int64_t deadline;
	size_t idx = 0;
	int r;

	memset(&req, 0, sizeof(req));
	memset(&res, 0, sizeof(res));
	req.rp_id = o->cf.origin;
	req.rp_name = o->cf.appid;
	req.type = o->type;
	req.presence = !o->no_presence;
	/* SSSD's passkey: values always ask for the PIN: so does this. */
	req.pin = o->pin || o->passkey;
	req.uv = o->uv;
	req.resident = o->resident;
	req.cred_protect = o->cred_protect;
	req.hmac_secret = o->hmac_secret;
	req.pin_cb = &pin;
	req.exclude = excl; /* a FIDO2 key holding one refuses */
	req.nexclude = nexcl;
	/* pam-u2f's user entity: 32 random bytes, name = displayName */
	req.user.id = user_id;
	req.user.id_len = sizeof(user_id);
	req.user.name = o->user;
	req.user.display_name = o->user;
	if ((r = util_random(req.cdh, sizeof(req.cdh))) != ERR_OK ||
	    (r = util_random(user_id, sizeof(user_id))) != ERR_OK ||
	    (r = tool_policy_ready(o)) != ERR_OK)
		goto fail;
	enroll_say_touch(o, devs, n, touch, sizeof(touch));
	tp.then = touch;
	deadline = util_now_ms() + (int64_t)o->cf.timeout * 1000;
	/* A key serves one client at a time: while it is busy, or while
	 * other clients' traffic stalls ours, try again until the deadline. */
	while ((r = auth_register(devs, n, &req, &res, &idx, o->lg,
		    util_ms_left(deadline))) != ERR_OK &&
	    retry(r, deadline))
		nap(busy_pause());
	if (r != ERR_OK)
		goto fail;
	if (o->verbose && idx < n)
		show_verbose(o, &res, devs[idx]);
	if ((r = tool_policy_enroll(o, &res)) != ERR_OK)
		goto fail;
	res.cred.flags = (o->no_presence ? 0 : CRED_PRESENCE) |
	    (o->uv ? CRED_VERIFICATION : 0) | (o->pin ? CRED_PIN : 0) |
	    (o->resident ? CRED_RESIDENT : 0);
	/* The key finds it by rpId: the line says "*" (a passkey: value
	 * names it all the same). */
	if (o->resident && !o->passkey) {
		free(res.cred.kh);
		res.cred.kh = NULL;
		res.cred.kh_len = 0;
	}
	*cred = res.cred;
	memset(&res.cred, 0, sizeof(res.cred));
	if (which_dev != NULL)
		*which_dev = idx;
	r = ERR_OK;
fail:
	reg_result_clear(&res);
	util_wipe(req.cdh, sizeof(req.cdh));
	return r;
}

/* dev_probe, waiting while the key is busy with another client. */
static int
probe(struct dev *d, const char *rp, const struct cred *c)
{
	int64_t deadline = util_now_ms() + BUSY_MS;
	int r;

	while (
	    (r = dev_probe(d, rp, c, PROBE_MS)) != ERR_OK && retry(r, deadline))
		nap(busy_pause());
	return r;
}

/* Does one of the keys already hold one of creds? ERR_OK with *which
 * (0-based) if so, ERR_NOT_FOUND if not. No touch is needed. */
int
enroll_held(const struct tool_opts *o, struct dev **devs, size_t n,
    const struct cred *creds, size_t ncreds, size_t *which)
{
	const char *rp;
	size_t d, i;
	int r;

	for (d = 0; d < n; d++) {
		for (i = 0; i < ncreds; i++) {
			if (creds[i].kh_len == 0)
				continue;
			rp = (creds[i].flags & CRED_APPID) ? o->cf.appid
							   : o->cf.origin;
			r = probe(devs[d], rp, &creds[i]);
			if (r == ERR_OK) {
				*which = i;
				return ERR_OK;
			}
			if (r != ERR_WRONG_KH)
				log_msg(o->lg,
				    "probe of credential %zu on %s: "
				    "%s",
				    i + 1, xport_path(devs[d]->ctx.x),
				    err_str(r));
		}
	}
	return ERR_NOT_FOUND;
}

/* Keys that already hold one of creds leave the list (closed), each
 * named; ERR_OK while some key is left, else ERR_CANCELLED with *which
 * the credential the last one holds. */
int
enroll_exclude(const struct tool_opts *o, struct dev **devs, size_t *n,
    const struct cred *creds, size_t ncreds, size_t *which)
{
	size_t d = 0, w, all = *n;

	while (d < *n) {
		if (enroll_held(o, &devs[d], 1, creds, ncreds, &w) != ERR_OK) {
			d++;
			continue;
		}
		*which = w;
		if (all > 1)
			tool_msg("%s already holds credential %zu of %s: not "
				 "asked",
			    xport_path(devs[d]->ctx.x), w + 1, o->user);
		dev_close(&devs[d]);
		memmove(&devs[d], &devs[d + 1], (*n - d - 1) * sizeof(*devs));
		(*n)--;
	}
	return *n > 0 ? ERR_OK : ERR_CANCELLED;
}

/* The older tool's job: register and print "user:cred" (or ":cred" with
 * -n) with no newline. Nothing reaches stdout unless all went well. */
int
enroll_print(const struct tool_opts *o)
{
	struct dev **devs = NULL;
	struct cred cred;
	char *text = NULL, *line = NULL;
	size_t ndevs = 0;
	int r;

	memset(&cred, 0, sizeof(cred));
	if ((r = enroll_open(o, &devs, &ndevs)) != ERR_OK ||
	    (r = tool_passkey_keys(o, devs, ndevs)) != ERR_OK)
		goto fail;
	if ((r = enroll_register(o, devs, ndevs, NULL, 0, &cred, NULL)) !=
	    ERR_OK) {
		if (!tool_passkey_refused(o, devs, ndevs, r))
			enroll_explain_open(o, r);
		goto fail;
	}
	r = o->passkey ? tool_passkey_value(&cred, &text)
		       : authfile_format_cred(&cred, &text);
	if (r != ERR_OK) {
		tool_msg("cannot format the credential: %s", err_str(r));
		goto fail;
	}
	if (o->ldif)
		r = tool_ldif_change(o->dn,
		    o->attribute != NULL ? o->attribute : TOOL_LDIF_ATTR, text,
		    &line);
	else if (o->passkey) { /* a value for directory tools: a line */
		if (asprintf(&line, "%s\n", text) < 0)
			line = NULL;
	} else if (asprintf(&line, "%s:%s", o->nouser ? "" : o->user, text) < 0)
		line = NULL;
	if (r != ERR_OK) {
		tool_msg("cannot write the LDIF change: %s", err_str(r));
		goto fail;
	}
	if (line == NULL) {
		r = ERR_NOMEM;
		goto fail;
	}
	if (fputs(line, stdout) == EOF || fflush(stdout) == EOF) {
		tool_msg("cannot write the line to standard output");
		r = ERR_IO;
		goto fail;
	}
	r = ERR_OK;
fail:
	free(text);
	free(line);
	cred_clear(&cred);
	dev_close_all(devs, ndevs);
	return tool_exit_for(r);
}
