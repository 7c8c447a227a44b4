/* One touch, however many keys: the authentication both the module and
 * `pamu2fcfg --check` run. */
#ifndef PU_AUTH_H
#define PU_AUTH_H

#include <stdbool.h>
#include <stddef.h>

#include "base/cred.h"
#include "device/dev.h"
#include "base/util.h"

struct auth_req {
	const struct cred *creds;
	size_t ncreds;
	const char *origin; /* rp id for current-format credentials */
	const char *appid;  /* rp id for CRED_APPID credentials */
	bool presence;      /* require the presence flag */
	bool nodetect;      /* skip the check-only probe */
	int timeout_ms;     /* for the touch */
	const struct log *log;
	/* Called once, after the probe found a key holding a credential
	 * and before waiting for the touch (the "cue"). May be NULL. */
	void (*cue)(void *arg);
	void *cue_arg;
};

struct auth_result {
	size_t cred_index; /* which credential signed */
	size_t dev_index;  /* on which device */
	struct assertion assertion;
	size_t presence_requests; /* requests sent that needed a touch */
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

/* Register on whichever of the devices is touched first (the others are
 * cancelled); *dev_index tells which. Waits up to ms. */
int auth_register(struct dev **devs, size_t ndevs, const struct reg_req *req,
    struct reg_result *out, size_t *dev_index, const struct log *lg, int ms);

/* Devices auth_open_all opens at once, each in its own thread. */
#define AUTH_OPEN_BATCH 16
/* Open every discovered device (or the explicit paths, if npaths > 0),
 * AUTH_OPEN_BATCH at a time, each within ms and all before deadline
 * (util_now_ms clock; 0 = none): the devices not reached by then are
 * left (ERR_TIMEOUT noted), so a device that stalls delays neither the
 * others of its batch nor the deadline. Keeps the first max (0 = no
 * limit) that opened, in the order given. Devices that fail to open are
 * skipped with a log line; *first_err keeps the first such error in that
 * order (e.g. ERR_PERM) so a caller can explain an empty result. lg is
 * called from the calling thread only. Caller frees with auth_close_all. */
int auth_open_all(const char *const *paths, size_t npaths, size_t max,
    const struct log *lg, int ms, int64_t deadline, struct dev ***devs,
    size_t *ndevs, int *first_err);
void auth_close_all(struct dev **devs, size_t ndevs);
/* auth_open_all through a chosen transport backend; logs (to lg) which
 * one is in use. libu2f-host discovers devices itself: explicit paths
 * with it are ERR_UNSUPPORTED. */
int auth_open_backend(enum dev_backend b, const char *const *paths,
    size_t npaths, size_t max, const struct log *lg, int ms, int64_t deadline,
    struct dev ***devs, size_t *ndevs, int *first_err);

#endif
