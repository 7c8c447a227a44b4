/* SPDX-License-Identifier: BSD-2-Clause */
/* One touch, however many keys: the authentication both the module and
 * `pamu2fcfg --check` run. */
#ifndef PU_AUTH_H
#define PU_AUTH_H

#include <stdbool.h>
#include <stddef.h>

#include "base/cred.h"
#include "base/util.h"
#include "device/dev.h"
#include "wait.h"

struct auth_req {
	const struct cred *creds;
	size_t ncreds;
	const char *origin;   /* rp id for current-format credentials */
	const char *appid;    /* rp id for CRED_APPID credentials */
	bool presence;        /* require the presence flag */
	bool nodetect;        /* skip the check-only probe */
	int userverification; /* -1 unset, 0, 1 (pam-u2f's arguments) */
	int pinverification;
	/* Asking the user for the PIN (asked at most once per auth_run,
	 * only when a key needs it; wiped after) and telling them about
	 * it. NULL: credentials that need a PIN cannot be used. */
	const struct proto_pin *pin;
	/* For the touch; when a PIN is asked, counted again from the moment
	 * it is typed (the time spent typing it is not taken from it). */
	int timeout_ms;
	const struct log *log;
	/* Called once per touch, after the probe found a key holding a
	 * credential and before waiting for the touch (the "cue"): at once
	 * when a U2F key is asked, else when a CTAP2 key first says it
	 * waits for the user's presence (KEEPALIVE UPNEEDED); a second time
	 * when a PIN typed after a first touch (the user's pick of a key)
	 * is followed by another. May be NULL. An error it
	 * returns (the cue could not be shown) ends auth_run with that
	 * error, every key cancelled. */
	int (*cue)(void *arg);
	void *cue_arg;
	/* hmac-secret salts, one per credential (NULL entries: none), or
	 * NULL (assert_req.hmac_salt): the output comes back in
	 * auth_result.assertion.hmac_secret. */
	const uint8_t *const *hmac_salt;
};

struct auth_result {
	size_t cred_index;          /* which credential signed */
	size_t dev_index;           /* on which device */
	struct assertion assertion; /* owned buffers: auth_result_clear */
	size_t presence_requests;   /* devices asked for a touch */
	struct wait_stats wait;     /* what the wait cost */
};

/* Probe every credential on every device (check-only), then wait for a
 * touch on all devices that hold one; the first verified assertion wins
 * and the others are cancelled. ERR_OK only for a verified assertion.
 * ERR_NO_KEY when there is no device, ERR_WRONG_KH when no device holds
 * any of the credentials, ERR_UNSUPPORTED when a credential needs a
 * protocol we do not speak (never skipped), ERR_TIMEOUT when no touch
 * came in time. With nodetect, every device is asked for every
 * credential in turn with presence enforced, without a probe. */
int auth_run(struct dev **devs, size_t ndevs, const struct auth_req *req,
    struct auth_result *res);

/* Can a protocol we speak use each of the n credentials
 * (proto_cred_supported)? ERR_OK, or ERR_UNSUPPORTED naming the first
 * that cannot, and why, to lg: such a credential is refused, never
 * skipped or downgraded. auth_run asks it first; the module asks it
 * before it opens a device. */
int auth_check_creds(const struct cred *creds, size_t n, const struct log *lg);

/* Free what auth_run left in res (NULL-safe). */
void auth_result_clear(struct auth_result *res);

/* Register on whichever of the devices is touched first (the others are
 * cancelled); *dev_index tells which. Waits up to ms. */
int auth_register(struct dev **devs, size_t ndevs, const struct reg_req *req,
    struct reg_result *out, size_t *dev_index, const struct log *lg, int ms);

#endif
