/* SPDX-License-Identifier: BSD-2-Clause */
/* One touch, however many keys: ask every device, cue, wait on all in one
 * poll(2), first verified answer wins, cancel the others. The loop
 * (auth_loop) reads top to bottom: wait for a device that is due
 * (wait.c), step it, apply the rule of which key gets the PIN
 * (auth_pin_rule, the one place it lives), cue. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "base/err.h"
#include "wait.h"

#define AUTH_PIN_MAX 64 /* CTAP2's longest PIN (63) and its NUL */

#define AUTH_DEV_MAX 256 /* a device path, as the PIN's owner */

/* The PIN of one transaction: asked for when a key needs it, for that
 * key only (a PIN typed for one key is a wrong PIN for another, and
 * costs it a try): the same key asking again gets it without a prompt,
 * another key means a new prompt. Wiped at the end. */
struct auth_pin {
	const struct proto_pin *user;
	struct proto_pin wrap;
	char pin[AUTH_PIN_MAX];
	char dev[AUTH_DEV_MAX]; /* the key it was typed for */
	int state;              /* 0 not asked yet, 1 have it, else the error */
	int64_t answered;       /* when the user gave it (util_now_ms) */
	bool fresh;             /* given since the loop last looked */
};

static int
auth_pin_get(void *arg, const char *dev, char *pin, size_t cap)
{
	struct auth_pin *ap = arg;

	if (ap->state == 1 && strcmp(ap->dev, dev) != 0) {
		util_wipe(ap->pin, sizeof(ap->pin));
		ap->state = 0;
	}
	if (ap->state == 0) {
		snprintf(ap->dev, sizeof(ap->dev), "%s", dev);
		ap->state =
		    ap->user->get(ap->user->arg, dev, ap->pin, sizeof(ap->pin));
		if (ap->state == ERR_OK) {
			ap->state = 1;
			ap->answered = util_now_ms();
			ap->fresh = true;
		}
	}
	if (ap->state != 1)
		return ap->state;
	if (strlen(ap->pin) >= cap)
		return ERR_TOO_BIG;
	memcpy(pin, ap->pin, strlen(ap->pin) + 1);
	return ERR_OK;
}

static void
auth_pin_tell(void *arg, const char *msg)
{
	struct auth_pin *ap = arg;

	if (ap->user->tell != NULL)
		ap->user->tell(ap->user->arg, msg);
}

static const struct proto_pin *
auth_pin_init(struct auth_pin *ap, const struct proto_pin *user)
{
	memset(ap, 0, sizeof(*ap));
	if (user == NULL || user->get == NULL)
		return NULL;
	ap->user = user;
	ap->wrap.get = auth_pin_get;
	ap->wrap.tell = auth_pin_tell;
	ap->wrap.arg = ap;
	ap->wrap.retries_floor = user->retries_floor;
	return &ap->wrap;
}

/* The devices of one operation, as its loop (auth_loop) sees them. */
struct auth_set {
	struct dev **devs;
	size_t ndevs;
	bool *active; /* still in the operation */
	const struct log *log;
	const char *fn;             /* "auth_run", "auth_register" */
	struct assertion *as;       /* auth_run's result, or */
	struct reg_result *rr;      /* auth_register's */
	const struct auth_req *req; /* auth_run: the cue; else NULL */
	bool cued;                  /* the cue was given */
	/* what the PIN rule (auth_pin_rule) has seen */
	bool pin_went; /* a key was let through to its PIN unpicked */
	bool picking;  /* the keys at the gate wait for the user's pick */
	bool chosen;   /* the user picked a key: the others are cancelled */
	/* The PIN of the operation (NULL: none) and the time the touch is
	 * given, counted again from the moment the PIN is typed. */
	struct auth_pin *pin;
	int touch_ms;
};

/* The cue, once per touch: at once for U2F keys (they need the touch
 * from the first request on), on the first "user presence needed"
 * keepalive for CTAP2 keys (after a PIN, say, not before; and again
 * after a PIN typed once the user picked a key with a touch). Not for
 * a registration.
 * An error (the conversation failed) stops the operation: the keys are
 * cancelled, never left waiting for a touch no one was asked for. */
static int
auth_cue(struct auth_set *s)
{
	if (s->cued || s->req == NULL)
		return ERR_OK;
	s->cued = true;
	return s->req->cue != NULL ? s->req->cue(s->req->cue_arg) : ERR_OK;
}

/* A PIN was typed since the last look: the touch gets its whole time
 * from now on (the time spent typing is not taken from it), and a cue
 * shown before the PIN (for the touch that picked the key) is shown
 * again when the key next waits for a touch. */
static void
auth_pin_restart(struct auth_set *s, struct wait *w)
{
	int64_t d;

	if (s->pin == NULL || !s->pin->fresh)
		return;
	s->pin->fresh = false;
	s->cued = false;
	d = s->pin->answered + s->touch_ms;
	if (d > w->deadline) {
		w->deadline = d;
		log_msg(s->log, "%s: PIN given: %d ms for the touch from now",
		    s->fn, util_ms_left(d));
	}
}

int
auth_check_creds(const struct cred *creds, size_t n, const struct log *lg)
{
	const char *why;
	size_t i;

	for (i = 0; i < n; i++) {
		if (proto_cred_supported(&creds[i], &why) != ERR_OK) {
			log_msg(lg,
			    "credential %zu cannot be used (%s): refused",
			    i + 1, why);
			return ERR_UNSUPPORTED;
		}
	}
	return ERR_OK;
}

/* Cancel every device still in the operation but keep (SIZE_MAX: all). */
static void
auth_cancel_others(struct auth_set *s, size_t keep)
{
	struct dev *d;
	size_t i;

	for (i = 0; i < s->ndevs; i++) {
		if (i != keep && s->active[i]) {
			d = s->devs[i];
			d->proto->cancel(&d->ctx);
			s->active[i] = false;
		}
	}
}

/* Is the key stopped before asking for its PIN (proto.h's gate; a
 * protocol without a PIN has none)? */
static bool
auth_gated(const struct dev *d)
{
	return d->proto->gated != NULL && d->proto->gated(&d->ctx);
}

/* Which key gets the PIN: the whole rule. A key that needs its PIN stops
 * before asking for it (assert_req.pin_gate) and waits here.
 *  - Once the user picked a key (a touch answering the selection, or the
 *    key's own verification), every other key stops.
 *  - A key alone at the gate, when no key went to its PIN before, asks
 *    for its PIN at once (one prompt, one touch).
 *  - With two or more at the gate, or one after another went, each has
 *    the user pick it with a touch first, and only the picked key asks.
 * A PIN typed goes to the key it was asked for only (auth_pin_get). A
 * key that cannot go on leaves the operation. Run before the wait and
 * after every step that keeps a key in it. */
static void
auth_pin_rule(struct auth_set *s)
{
	struct dev *d;
	size_t i, n = 0;

	for (i = 0; i < s->ndevs && !s->chosen; i++) {
		d = s->devs[i];
		if (s->active[i] && d->proto->chosen != NULL &&
		    d->proto->chosen(&d->ctx)) {
			s->chosen = true;
			log_msg(s->log, "%s: %s: picked; the other keys stop",
			    s->fn, xport_path(d->ctx.x));
			auth_cancel_others(s, i);
		}
	}
	for (i = 0; i < s->ndevs; i++)
		n += s->active[i] && auth_gated(s->devs[i]) ? 1 : 0;
	if (n == 0)
		return;
	if (n >= 2 || s->pin_went)
		s->picking = true;
	for (i = 0; i < s->ndevs; i++) {
		d = s->devs[i];
		if (!s->active[i] || !auth_gated(d))
			continue;
		if (d->proto->ungate(&d->ctx, s->picking && !s->chosen) !=
		    ERR_OK) {
			d->proto->cancel(&d->ctx);
			s->active[i] = false;
		} else if (!s->picking) {
			s->pin_went = true;
		}
	}
}

/* The operation on every device in s, top to bottom: wait for a device
 * that is due, step it, apply the PIN rule, cue. Ends when one wins
 * (ERR_OK, *winner; the others are cancelled), every device is out (the
 * last error; ERR_WRONG_KH if none said more) or at deadline
 * (ERR_TIMEOUT; all are cancelled). stats may be NULL. */
static int
auth_loop(struct auth_set *s, int64_t deadline, size_t *winner,
    struct wait_stats *stats)
{
	struct wait w;
	struct dev *d;
	size_t i;
	int r, last = ERR_WRONG_KH;

	if ((r = wait_init(&w, s->devs, s->ndevs, s->active, deadline,
		 stats)) != ERR_OK) {
		auth_cancel_others(s, SIZE_MAX);
		return r;
	}
	while ((r = wait_run(&w, &i)) == ERR_OK) {
		d = s->devs[i];
		r = s->as != NULL ? d->proto->assert_step(&d->ctx, s->as)
				  : d->proto->reg_step(&d->ctx, s->rr);
		if (r == ERR_OK) {
			*winner = i;
			break;
		}
		if (r != ERR_PENDING) {
			log_msg(s->log, "%s: %s: %s", s->fn,
			    xport_path(d->ctx.x), err_str(r));
			s->active[i] = false;
			last = r;
			continue;
		}
		auth_pin_rule(s);
		auth_pin_restart(s, &w);
		if (d->proto->wants_touch(&d->ctx) &&
		    (r = auth_cue(s)) != ERR_OK)
			break;
	}
	wait_free(&w);
	auth_cancel_others(s, r == ERR_OK ? *winner : SIZE_MAX);
	return r == ERR_WRONG_KH ? last : r;
}

/* Begin on every device: *nactive devices hold a credential; *dev_err
 * keeps the first device error other than "not mine". */
static int
auth_begin_all(struct auth_set *s, const struct assert_req *ar,
    int64_t deadline, size_t *nactive, int *dev_err)
{
	size_t i;
	int r;

	for (i = 0; i < s->ndevs; i++) {
		if ((r = dev_assert_begin(s->devs[i], ar, deadline)) ==
		    ERR_OK) {
			s->active[i] = true;
			(*nactive)++;
			continue;
		}
		if (r == ERR_NOMEM || r == ERR_RANDOM)
			return r;
		if (r != ERR_WRONG_KH) {
			log_msg(s->log, "%s: %s: %s", s->fn,
			    xport_path(s->devs[i]->ctx.x), err_str(r));
			if (*dev_err == ERR_OK)
				*dev_err = r;
		}
	}
	return ERR_OK;
}

/* Does an active key need the touch from the first request on (a U2F
 * key), so that the cue comes now? */
static bool
auth_cue_at_once(const struct auth_set *s)
{
	size_t i;

	for (i = 0; i < s->ndevs; i++)
		if (s->active[i] &&
		    strcmp(s->devs[i]->proto->name, "ctap2") != 0)
			return true;
	return false;
}

static void
auth_assert_req(
    const struct auth_req *req, struct assert_req *ar, struct auth_pin *ap)
{
	memset(ar, 0, sizeof(*ar));
	ar->userverification = req->userverification;
	ar->pinverification = req->pinverification;
	ar->pin_cb = auth_pin_init(ap, req->pin);
	ar->rp_id = req->origin;
	ar->appid = req->appid;
	ar->allow = req->creds;
	ar->nallow = req->ncreds;
	ar->presence = req->presence;
	ar->probe = !req->nodetect;
	ar->pin_gate = true;
	ar->hmac_salt = req->hmac_salt;
}

static int
auth_wait_assert(struct dev **devs, size_t ndevs, const struct auth_req *req,
    struct auth_result *res, bool *active, int64_t deadline)
{
	struct auth_set s = {devs, ndevs, active, req->log, "auth_run",
	    &res->assertion, NULL, req, false, false, false, false, NULL,
	    req->timeout_ms};
	struct assert_req ar;
	struct auth_pin ap;
	size_t nactive = 0;
	int r, dev_err = ERR_OK;

	auth_assert_req(req, &ar, &ap);
	s.pin = ar.pin_cb != NULL ? &ap : NULL;
	if ((r = util_random(ar.cdh, sizeof(ar.cdh))) != ERR_OK ||
	    (r = auth_begin_all(&s, &ar, deadline, &nactive, &dev_err)) !=
		ERR_OK)
		goto fail;
	res->presence_requests = nactive;
	if (nactive == 0) {
		/* "No key holds it" only if no device failed: a device
		 * that broke or went away is named instead. */
		r = dev_err != ERR_OK ? dev_err : ERR_WRONG_KH;
		goto fail;
	}
	auth_pin_rule(&s);
	if (auth_cue_at_once(&s) && (r = auth_cue(&s)) != ERR_OK) {
		auth_cancel_others(&s, SIZE_MAX);
		goto fail;
	}
	r = auth_loop(&s, deadline, &res->dev_index, &res->wait);
	if (r == ERR_WRONG_KH && dev_err != ERR_OK)
		r = dev_err;
fail:
	util_wipe(&ar, sizeof(ar));
	util_wipe(&ap, sizeof(ap));
	return r;
}

int
auth_run(struct dev **devs, size_t ndevs, const struct auth_req *req,
    struct auth_result *res)
{
	int64_t deadline = util_now_ms() + req->timeout_ms;
	bool *active = NULL;
	int r;

	memset(res, 0, sizeof(*res));
	if (req->ncreds == 0)
		return ERR_NOT_FOUND;
	if ((r = auth_check_creds(req->creds, req->ncreds, req->log)) != ERR_OK)
		return r;
	if (ndevs == 0)
		return ERR_NO_KEY;
	if ((active = calloc(ndevs, sizeof(*active))) == NULL)
		return ERR_NOMEM;
	r = auth_wait_assert(devs, ndevs, req, res, active, deadline);
	if (r == ERR_OK)
		res->cred_index = res->assertion.cred_index;
	free(active);
	log_msg(req->log, "%s: %s", __func__, err_str(r));
	return r;
}

void
auth_result_clear(struct auth_result *res)
{
	if (res != NULL)
		assertion_clear(&res->assertion);
}

int
auth_register(struct dev **devs, size_t ndevs, const struct reg_req *req,
    struct reg_result *out, size_t *dev_index, const struct log *lg, int ms)
{
	struct auth_set s = {devs, ndevs, NULL, lg, __func__, NULL, out, NULL,
	    false, false, false, false, NULL, ms};
	int64_t deadline = util_now_ms() + ms;
	struct reg_req rq = *req;
	size_t i, nactive = 0;
	struct auth_pin ap;
	int r = ERR_NO_KEY;

	if (ndevs == 0)
		return ERR_NO_KEY;
	if ((s.active = calloc(ndevs, sizeof(*s.active))) == NULL)
		return ERR_NOMEM;
	rq.pin_cb = auth_pin_init(&ap, req->pin_cb);
	rq.pin_gate = true;
	s.pin = rq.pin_cb != NULL ? &ap : NULL;
	for (i = 0; i < ndevs; i++) {
		if ((r = dev_register_begin(devs[i], &rq, deadline)) ==
		    ERR_OK) {
			s.active[i] = true;
			nactive++;
		} else
			log_msg(lg, "%s: %s: %s", __func__,
			    xport_path(devs[i]->ctx.x), err_str(r));
	}
	if (nactive > 0) {
		auth_pin_rule(&s);
		r = auth_loop(&s, deadline, dev_index, NULL);
	}
	free(s.active);
	util_wipe(&ap, sizeof(ap));
	return r;
}
