/* One touch, however many keys: probe, cue, wait on all, first wins. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "base/err.h"

#define AUTH_PROBE_MS 3000 /* a check-only probe needs no touch */
#define AUTH_SLICE_MS 20   /* time given to one device per round */

/* Per-device candidates: the credentials this device may hold, in order;
 * `next` is the one being asked for, `active` false once it is out. */
struct auth_slot {
	size_t *cand;
	size_t ncand;
	size_t next;
	int active;
	/* The first device error other than "not mine". */
	int err;
};

static const char *
auth_rp(const struct auth_req *req, const struct cred *c)
{
	return (c->flags & CRED_APPID) ? req->appid : req->origin;
}

static int
auth_check_creds(const struct auth_req *req)
{
	size_t i;

	if (req->ncreds == 0)
		return ERR_NOT_FOUND;
	for (i = 0; i < req->ncreds; i++) {
		const struct cred *c = &req->creds[i];

		if (c->type != COSE_ES256 ||
		    (c->flags &
			(CRED_PIN | CRED_VERIFICATION | CRED_RESIDENT))) {
			log_msg(req->log,
			    "%s: credential %zu needs FIDO2 "
			    "(type, pin, verification or resident key): not "
			    "supported",
			    __func__, i + 1);
			return ERR_UNSUPPORTED;
		}
	}
	return ERR_OK;
}

/* Fill slot with the credentials dev holds (probe), or all of them. */
static int
auth_probe_dev(struct dev *d, const struct auth_req *req, int64_t deadline,
    struct auth_slot *slot)
{
	size_t i;
	int r, ms;

	if ((slot->cand = calloc(req->ncreds, sizeof(size_t))) == NULL)
		return ERR_NOMEM;
	for (i = 0; i < req->ncreds; i++) {
		if (req->nodetect) {
			slot->cand[slot->ncand++] = i;
			continue;
		}
		ms = util_ms_left(deadline);
		r = dev_probe(d, auth_rp(req, &req->creds[i]), &req->creds[i],
		    ms < AUTH_PROBE_MS ? ms : AUTH_PROBE_MS);
		if (r == ERR_OK)
			slot->cand[slot->ncand++] = i;
		else if (r != ERR_WRONG_KH) {
			log_msg(req->log, "%s: %s: probe failed: %s", __func__,
			    dev_path(d), err_str(r));
			slot->ncand = 0;
			slot->err = r;
			return r;
		}
	}
	log_msg(req->log, "%s: %s holds %zu of %zu credentials", __func__,
	    dev_path(d), slot->ncand, req->ncreds);
	return ERR_OK;
}

static int
auth_begin(struct dev *d, const struct auth_req *req, struct auth_slot *slot,
    struct auth_result *res)
{
	struct assert_req ar;
	int r;

	while (slot->next < slot->ncand) {
		memset(&ar, 0, sizeof(ar));
		ar.cred = &req->creds[slot->cand[slot->next]];
		ar.rp_id = auth_rp(req, ar.cred);
		ar.presence = req->presence;
		if ((r = util_random(ar.cdh, sizeof(ar.cdh))) != ERR_OK)
			return r;
		r = dev_assert_begin(d, &ar);
		util_wipe(&ar, sizeof(ar));
		if (r == ERR_OK) {
			slot->active = 1;
			res->presence_requests++;
			return ERR_OK;
		}
		log_msg(
		    req->log, "%s: %s: %s", __func__, dev_path(d), err_str(r));
		if (r != ERR_WRONG_KH && slot->err == ERR_OK)
			slot->err = r;
		slot->next++;
	}
	slot->active = 0;
	return ERR_WRONG_KH;
}

/* One round: give each active device a slice. ERR_OK with a winner,
 * ERR_PENDING to go on, or the last error once no device is left. */
static int
auth_round(struct dev **devs, size_t ndevs, const struct auth_req *req,
    struct auth_slot *slots, struct auth_result *res, int64_t deadline)
{
	size_t i, left = 0;
	int r, last = ERR_WRONG_KH, ms;

	for (i = 0; i < ndevs; i++) {
		if (!slots[i].active)
			continue;
		ms = util_ms_left(deadline);
		r = dev_assert_poll(devs[i], &res->assertion,
		    ms < AUTH_SLICE_MS ? ms : AUTH_SLICE_MS);
		if (r == ERR_OK) {
			res->dev_index = i;
			res->cred_index = slots[i].cand[slots[i].next];
			return ERR_OK;
		}
		if (r == ERR_WRONG_KH && req->nodetect) {
			slots[i].next++;
			r = auth_begin(devs[i], req, &slots[i], res);
		} else if (r != ERR_PENDING) {
			slots[i].active = 0;
			log_msg(req->log, "%s: %s: %s", __func__,
			    dev_path(devs[i]), err_str(r));
		}
		if (r != ERR_PENDING && r != ERR_OK)
			last = r;
		left += slots[i].active ? 1 : 0;
	}
	return left > 0 ? ERR_PENDING : last;
}

static int
auth_wait(struct dev **devs, size_t ndevs, const struct auth_req *req,
    struct auth_slot *slots, struct auth_result *res, int64_t deadline)
{
	size_t i, held = 0;
	int r = ERR_WRONG_KH;

	for (i = 0; i < ndevs; i++)
		held += slots[i].ncand;
	if (held == 0)
		return ERR_WRONG_KH;
	if (req->cue != NULL)
		req->cue(req->cue_arg);
	for (i = 0; i < ndevs; i++)
		if (slots[i].ncand > 0)
			(void)auth_begin(devs[i], req, &slots[i], res);
	do {
		r = auth_round(devs, ndevs, req, slots, res, deadline);
	} while (r == ERR_PENDING && util_ms_left(deadline) > 0);
	for (i = 0; i < ndevs; i++)
		if (slots[i].active && (r != ERR_OK || i != res->dev_index))
			dev_cancel(devs[i]);
	return r == ERR_PENDING ? ERR_TIMEOUT : r;
}

int
auth_run(struct dev **devs, size_t ndevs, const struct auth_req *req,
    struct auth_result *res)
{
	struct auth_slot *slots = NULL;
	int64_t deadline = util_now_ms() + req->timeout_ms;
	size_t i;
	int r;

	memset(res, 0, sizeof(*res));
	if ((r = auth_check_creds(req)) != ERR_OK)
		return r;
	if (ndevs == 0)
		return ERR_NO_KEY;
	if ((slots = calloc(ndevs, sizeof(*slots))) == NULL)
		return ERR_NOMEM;
	for (i = 0; i < ndevs; i++)
		(void)auth_probe_dev(devs[i], req, deadline, &slots[i]);
	r = auth_wait(devs, ndevs, req, slots, res, deadline);
	/* "No key holds it" only if no device failed: a device that broke
	 * or went away is named instead. */
	for (i = 0; r == ERR_WRONG_KH && i < ndevs; i++)
		if (slots[i].err != ERR_OK)
			r = slots[i].err;
	for (i = 0; i < ndevs; i++)
		free(slots[i].cand);
	free(slots);
	log_msg(req->log, "%s: %s", __func__, err_str(r));
	return r;
}

static int
auth_reg_round(struct dev **devs, size_t ndevs, int *active,
    struct reg_result *out, size_t *dev_index, const struct log *lg,
    int64_t deadline)
{
	size_t i, left = 0;
	int r, last = ERR_NO_KEY, ms;

	for (i = 0; i < ndevs; i++) {
		if (!active[i])
			continue;
		ms = util_ms_left(deadline);
		r = dev_register_poll(
		    devs[i], out, ms < AUTH_SLICE_MS ? ms : AUTH_SLICE_MS);
		if (r == ERR_OK) {
			*dev_index = i;
			active[i] = 0;
			return ERR_OK;
		}
		if (r != ERR_PENDING) {
			log_msg(lg, "%s: %s: %s", __func__, dev_path(devs[i]),
			    err_str(r));
			active[i] = 0;
			last = r;
		}
		left += active[i] ? 1 : 0;
	}
	return left > 0 ? ERR_PENDING : last;
}

int
auth_register(struct dev **devs, size_t ndevs, const struct reg_req *req,
    struct reg_result *out, size_t *dev_index, const struct log *lg, int ms)
{
	int64_t deadline = util_now_ms() + ms;
	int *active = NULL;
	size_t i;
	int r = ERR_NO_KEY;

	if (ndevs == 0)
		return ERR_NO_KEY;
	if ((active = calloc(ndevs, sizeof(*active))) == NULL)
		return ERR_NOMEM;
	for (i = 0; i < ndevs; i++) {
		if ((r = dev_register_begin(devs[i], req)) == ERR_OK)
			active[i] = 1;
		else
			log_msg(lg, "%s: %s: %s", __func__, dev_path(devs[i]),
			    err_str(r));
	}
	do {
		r = auth_reg_round(
		    devs, ndevs, active, out, dev_index, lg, deadline);
	} while (r == ERR_PENDING && util_ms_left(deadline) > 0);
	for (i = 0; i < ndevs; i++)
		if (active[i])
			dev_cancel(devs[i]);
	free(active);
	return r == ERR_PENDING ? ERR_TIMEOUT : r;
}
