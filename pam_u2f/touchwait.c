/* SPDX-License-Identifier: BSD-2-Clause */
/* The touch: open the keys (with interactive=, waiting and looking for
 * them again), wait for a card on a reader, then run one authentication
 * over all of them (common/auth) with the cue ("touch" or "touch or
 * tap") and the authpending file around the wait. Its own file because
 * it is the module's path to a plugged-in key, beside manual mode. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include <security/pam_appl.h>

#include "auth/auth.h"
#include "converse.h"
#include "base/err.h"
#include "authpending.h"
#include "pinask.h"
#include "usermsg.h"
#include "usermsg_text.h"
#include "touchwait.h"
#include "unseal.h"
#include "transport/hidraw_why.h"
#include "base/util.h"

static void
touch_sleep(int ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		continue;
}

/* Called by auth_run once a key holding a credential is there (or at
 * once with nodetect), before the wait for the touch. A cue the
 * conversation could not show is ERR_CANCELLED: auth_run then stops at
 * once, the keys cancelled (the login fails without a touch). */
static int
touch_cue(void *arg)
{
	struct call *c = arg;
	const char *cue = c->opt.cue_prompt;

	c->waited = true;
	pending_create(c);
	if (c->cued)
		return c->cue_err; /* shown while waiting for a card already */
	c->cued = true;
	/* The default cue says "tap" too when a key is on a reader; a
	 * configured one is shown as it is. */
	if (c->tap && strcmp(cue, CONF_CUE_DEFAULT) == 0)
		cue = CONF_CUE_TAP;
	if (c->opt.cue && converse_show(c->pamh, PAM_TEXT_INFO, cue) != ERR_OK)
		c->cue_err = ERR_CANCELLED;
	return c->cue_err;
}

/* auth_run's cue: the first for the first touch (not shown again if
 * shown while waiting for a card); a later one is for another touch
 * (after a PIN typed once a touch picked the key), shown again. */
static int
touch_cue_auth(void *arg)
{
	struct call *c = arg;

	if (c->auth_cues++ > 0)
		c->cued = false;
	return touch_cue(c);
}

/* devices= names a reader and no key could be opened: wait for a card
 * on one (at once if one is there, else one that comes: arrival), with
 * the cue ("touch or tap") shown, asleep in pcscd until deadline. ERR_OK:
 * a card came, open again. */
static int
touch_wait_card(struct call *c, bool arrival, int64_t deadline)
{
	const char *const *paths = (const char *const *)c->opt.devices;
	int r;

	c->tap = true;
	if ((r = touch_cue(c)) != ERR_OK)
		return r;
	debug_msg(&c->dbg, "no key yet: waiting up to %d ms for a card on %s",
	    util_ms_left(deadline),
	    arrival ? "a reader (another one)" : "a reader");
	r = xport_pcsc_wait_card(
	    paths, c->opt.ndevices, arrival, &c->dbg.log, deadline);
	if (r == ERR_OK)
		debug_msg(&c->dbg, "a card is on a reader");
	else
		debug_err(&c->dbg, "no card on a reader: %s",
		    r == ERR_TIMEOUT ? "none came within the timeout"
				     : err_str(r));
	return r;
}

/* No key could be opened: say why, with what sysfs and /dev tell when
 * the keys are discovered (not for devices= paths, nor libu2f-host).
 * Only when a discovered key failed to open (first_err set): with no
 * FIDO node in sysfs there is nothing to tell, and the usual "no key
 * plugged in" then scans sysfs once, not twice (bench/RESULTS.md,
 * "devices enumerated once"). */
static void
touch_say_no_key(struct call *c, int first_err)
{
	struct hidraw_why why;

	memset(&why, 0, sizeof(why));
	if (first_err != ERR_OK && c->opt.ndevices == 0 &&
	    c->opt.backend == DEV_BACKEND_NATIVE)
		(void)hidraw_why(&why);
	tell_no_key(c, first_err, &why);
}

/* Open the keys; with `interactive`, ask first and wait for one. The
 * timeout starts here (after the question): *deadline ends the opening
 * and then the wait for the touch, however many devices stall. */

static int
touch_devices(
    struct call *c, int64_t *deadline, struct dev ***devs, size_t *ndevs)
{
	const char *const *paths = (const char *const *)c->opt.devices;
	bool card = dev_paths_tap(paths, c->opt.ndevices);
	char *answer = NULL;
	int r, first_err = ERR_OK, left, waits = 0;

	if (c->opt.interactive) {
		r = converse_ask(
		    c->pamh, PAM_PROMPT_ECHO_ON, c->opt.prompt, &answer);
		converse_free(answer);
		if (r != ERR_OK) {
			debug_err(&c->dbg, "interactive prompt: no answer");
			return r;
		}
	}
	*deadline = util_now_ms() + (int64_t)c->opt.timeout * 1000;
	for (;;) {
		r = dev_open_backend((enum dev_backend)c->opt.backend, paths,
		    c->opt.ndevices, (size_t)c->opt.max_devices, &c->dbg.log,
		    TOUCH_OPEN_MS, *deadline, devs, ndevs, &first_err);
		if (r != ERR_OK || *ndevs > 0 ||
		    (!card && !c->opt.interactive) ||
		    (left = util_ms_left(*deadline)) == 0)
			break;
		dev_close_all(*devs, *ndevs);
		*devs = NULL;
		if (card) { /* a card came (r = ERR_OK): open again */
			if ((r = touch_wait_card(c, waits++ > 0, *deadline)) !=
			    ERR_OK)
				break;
			continue;
		}
		touch_sleep(
		    left < TOUCH_REDISCOVER_MS ? left : TOUCH_REDISCOVER_MS);
	}
	if (r == ERR_CANCELLED && c->cue_err != ERR_OK)
		return r;
	if (waits > 0 && *ndevs == 0 && r != ERR_NOMEM) {
		tell_no_card(c, c->opt.timeout);
		return ERR_NO_KEY;
	}
	if (r != ERR_OK)
		return r;
	if (*ndevs == 0) {
		debug_err(&c->dbg, "%s%s%s", TOUCH_NO_KEY_MSG,
		    first_err != ERR_OK ? ": " : "",
		    first_err != ERR_OK ? err_str(first_err) : "");
		if (first_err == ERR_FILE_UNSAFE)
			debug_err(&c->dbg, "%s", TOUCH_UNIX_UNSAFE_MSG);
		touch_say_no_key(c, first_err);
		return ERR_NO_KEY;
	}
	debug_msg(&c->dbg, "%zu security key(s) found", *ndevs);
	return ERR_OK;
}

int
touch_run(struct call *c)
{
	struct proto_pin pin;
	struct dev **devs = NULL;
	size_t ndevs = 0;
	struct auth_req req;
	struct auth_result res;
	struct unseal us;
	int64_t deadline = 0;
	int r;

	memset(&us, 0, sizeof(us));
	if ((r = touch_devices(c, &deadline, &devs, &ndevs)) != ERR_OK)
		goto fail;
	unseal_prepare(c, &us);
	pinask_init(&pin, c);
	memset(&req, 0, sizeof(req));
	req.creds = c->creds;
	req.ncreds = c->ncreds;
	req.origin = c->opt.origin;
	req.appid = c->opt.appid;
	req.presence = args_presence(&c->opt);
	req.nodetect = c->opt.nodetect;
	req.userverification = c->opt.userverification;
	req.pinverification = c->opt.pinverification;
	req.pin = &pin;
	req.timeout_ms = util_ms_left(deadline);
	req.log = &c->dbg.log;
	req.cue = touch_cue_auth;
	req.cue_arg = c;
	req.hmac_salt = us.salts;
	c->tap = dev_any_tap(devs, ndevs);
	r = auth_run(devs, ndevs, &req, &res);
	pending_remove(c);
	if (c->cue_err != ERR_OK) {
		debug_err(&c->dbg, "the cue could not be shown");
		r = c->cue_err;
	}
	if (r == ERR_OK) {
		debug_msg(&c->dbg,
		    "credential %zu verified on %s "
		    "(counter %lu)",
		    res.cred_index + 1, xport_path(devs[res.dev_index]->ctx.x),
		    (unsigned long)res.assertion.counter);
		unseal_finish(c, &us, &res);
	} else {
		debug_err(&c->dbg, "authentication failed: %s", err_str(r));
		if (c->cue_err == ERR_OK)
			tell_auth_failed(c, r, devs, ndevs, deadline);
	}
	auth_result_clear(&res);
fail:
	unseal_clear(&us);
	dev_close_all(devs, ndevs);
	return r;
}
