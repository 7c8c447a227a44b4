/* One touch, however many keys: ask every device, cue, wait on all in one
 * poll(2), first verified answer wins, cancel the others. */
#include "config.h"

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
		if (ap->state == ERR_OK)
			ap->state = 1;
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

/* What a step of one device needs. */
struct auth_op {
	struct dev **devs;
	const struct log *log;
	struct assertion *as;  /* auth_run */
	struct reg_result *rr; /* auth_register */
	const struct auth_req *req;
	bool cued; /* the cue was given */
	/* the PIN gate (auth_gate) */
	bool *active;
	size_t ndevs;
	bool pin_went; /* a key was let through to its PIN unpicked */
	bool picking;  /* the keys at the gate wait for the user's pick */
	bool chosen;   /* the user picked a key: the others are cancelled */
};

/* The cue, once: at once for U2F keys (they need the touch from the
 * first request on), on the first "user presence needed" keepalive for
 * CTAP2 keys (after a PIN, say, not before). */
static void
auth_cue(struct auth_op *op)
{
	if (op->cued || op->req == NULL)
		return;
	op->cued = true;
	if (op->req->cue != NULL)
		op->req->cue(op->req->cue_arg);
}

static int
auth_check_creds(const struct auth_req *req)
{
	const char *why;
	size_t i;

	if (req->ncreds == 0)
		return ERR_NOT_FOUND;
	for (i = 0; i < req->ncreds; i++) {
		if (proto_cred_supported(&req->creds[i], &why) != ERR_OK) {
			log_msg(req->log,
			    "%s: credential %zu needs FIDO2 (%s): not "
			    "supported",
			    __func__, i + 1, why);
			return ERR_UNSUPPORTED;
		}
	}
	return ERR_OK;
}

/* The user picked device k (a touch answering the selection, or its
 * built-in verification): the others stop. */
static void
auth_picked(struct auth_op *op, size_t k)
{
	size_t i;

	op->chosen = true;
	log_msg(op->log, "%s: %s: picked; the other keys stop", "auth_run",
	    dev_path(op->devs[k]));
	for (i = 0; i < op->ndevs; i++) {
		if (i != k && op->active[i]) {
			dev_cancel(op->devs[i]);
			op->active[i] = false;
		}
	}
}

/* The PIN gate: keys stopped before asking for their PIN go on. One
 * alone asks for its PIN at once (one PIN prompt, one touch); with two
 * or more, or once a key went that way, each has the user pick it with
 * a touch first, and only the picked key asks. */
static void
auth_gate(struct auth_op *op)
{
	size_t i, n = 0;

	for (i = 0; i < op->ndevs; i++)
		if (op->active[i] && dev_gated(op->devs[i]))
			n++;
	if (n == 0)
		return;
	if (n >= 2 || op->pin_went)
		op->picking = true;
	for (i = 0; i < op->ndevs; i++) {
		if (!op->active[i] || !dev_gated(op->devs[i]))
			continue;
		if (dev_ungate(op->devs[i], op->picking && !op->chosen) !=
		    ERR_OK) {
			dev_cancel(op->devs[i]);
			op->active[i] = false;
		} else if (!op->picking) {
			op->pin_went = true;
		}
	}
}

static int
auth_assert_step(void *arg, size_t i)
{
	struct auth_op *op = arg;
	int r;

	if ((r = dev_assert_step(op->devs[i], op->as)) != ERR_OK &&
	    r != ERR_PENDING)
		log_msg(op->log, "%s: %s: %s", "auth_run",
		    dev_path(op->devs[i]), err_str(r));
	if (r != ERR_PENDING)
		return r;
	if (!op->chosen && dev_chosen(op->devs[i]))
		auth_picked(op, i);
	auth_gate(op);
	if (dev_wants_touch(op->devs[i]))
		auth_cue(op);
	return r;
}

static int
auth_reg_step(void *arg, size_t i)
{
	struct auth_op *op = arg;
	int r;

	if ((r = dev_register_step(op->devs[i], op->rr)) != ERR_OK &&
	    r != ERR_PENDING)
		log_msg(op->log, "%s: %s: %s", "auth_register",
		    dev_path(op->devs[i]), err_str(r));
	if (r != ERR_PENDING)
		return r;
	if (!op->chosen && dev_chosen(op->devs[i]))
		auth_picked(op, i);
	auth_gate(op);
	return r;
}

/* Cancel what is still going on, except on the winner. */
static void
auth_cancel_rest(
    struct dev **devs, size_t ndevs, const bool *active, int r, size_t winner)
{
	size_t i;

	for (i = 0; i < ndevs; i++)
		if (active[i] && (r != ERR_OK || i != winner))
			dev_cancel(devs[i]);
}

/* Begin on every device: *nactive devices hold a credential; *dev_err
 * keeps the first device error other than "not mine". */
static int
auth_begin_all(struct dev **devs, size_t ndevs, const struct auth_req *req,
    const struct assert_req *ar, int64_t deadline, bool *active,
    size_t *nactive, int *dev_err)
{
	size_t i;
	int r;

	for (i = 0; i < ndevs; i++) {
		if ((r = dev_assert_begin(devs[i], ar, deadline)) == ERR_OK) {
			active[i] = true;
			(*nactive)++;
			continue;
		}
		if (r == ERR_NOMEM || r == ERR_RANDOM)
			return r;
		if (r != ERR_WRONG_KH) {
			log_msg(req->log, "%s: %s: %s", "auth_run",
			    dev_path(devs[i]), err_str(r));
			if (*dev_err == ERR_OK)
				*dev_err = r;
		}
	}
	return ERR_OK;
}

/* Does an active key need the touch from the first request on (a U2F
 * key), so that the cue comes now? */
static bool
auth_cue_at_once(struct dev **devs, size_t ndevs, const bool *active)
{
	size_t i;

	for (i = 0; i < ndevs; i++)
		if (active[i] && strcmp(dev_proto_name(devs[i]), "ctap2") != 0)
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
}

static int
auth_wait_assert(struct dev **devs, size_t ndevs, const struct auth_req *req,
    struct auth_result *res, bool *active, int64_t deadline)
{
	struct auth_op op = {devs, req->log, &res->assertion, NULL, req, false,
	    active, ndevs, false, false, false};
	struct assert_req ar;
	struct auth_pin ap;
	size_t nactive = 0;
	int r, dev_err = ERR_OK;

	auth_assert_req(req, &ar, &ap);
	if ((r = util_random(ar.cdh, sizeof(ar.cdh))) != ERR_OK ||
	    (r = auth_begin_all(devs, ndevs, req, &ar, deadline, active,
		 &nactive, &dev_err)) != ERR_OK)
		goto fail;
	res->presence_requests = nactive;
	if (nactive == 0) {
		/* "No key holds it" only if no device failed: a device
		 * that broke or went away is named instead. */
		r = dev_err != ERR_OK ? dev_err : ERR_WRONG_KH;
		goto fail;
	}
	auth_gate(&op);
	if (auth_cue_at_once(devs, ndevs, active))
		auth_cue(&op);
	r = wait_run(devs, ndevs, active, auth_assert_step, &op, deadline,
	    &res->dev_index, &res->wait);
	auth_cancel_rest(devs, ndevs, active, r, res->dev_index);
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
	if ((r = auth_check_creds(req)) != ERR_OK)
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
	struct auth_op op = {
	    devs, lg, NULL, out, NULL, false, NULL, ndevs, false, false, false};
	int64_t deadline = util_now_ms() + ms;
	struct reg_req rq = *req;
	bool *active = NULL;
	size_t i, nactive = 0;
	struct auth_pin ap;
	int r = ERR_NO_KEY;

	if (ndevs == 0)
		return ERR_NO_KEY;
	if ((active = calloc(ndevs, sizeof(*active))) == NULL)
		return ERR_NOMEM;
	rq.pin_cb = auth_pin_init(&ap, req->pin_cb);
	rq.pin_gate = true;
	op.active = active;
	for (i = 0; i < ndevs; i++) {
		if ((r = dev_register_begin(devs[i], &rq, deadline)) ==
		    ERR_OK) {
			active[i] = true;
			nactive++;
		} else
			log_msg(lg, "%s: %s: %s", __func__, dev_path(devs[i]),
			    err_str(r));
	}
	if (nactive > 0) {
		auth_gate(&op);
		r = wait_run(devs, ndevs, active, auth_reg_step, &op, deadline,
		    dev_index, NULL);
		auth_cancel_rest(devs, ndevs, active, r, *dev_index);
	}
	free(active);
	util_wipe(&ap, sizeof(ap));
	return r;
}
