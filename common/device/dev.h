/* Authenticators as operations: discover, open, register, probe, assert.
 * Callers never see APDUs or CBOR. Each opened device carries a protocol
 * (struct dev_proto): U2F today; CTAP2 slots in beside it later. */
#ifndef PU_DEV_H
#define PU_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cred.h"
#include "transport/ctaphid.h"
#include "transport/hid.h"
#include "base/util.h"

#define DEV_CDH_LEN 32 /* client data hash / U2F challenge */

struct dev;

/* Registration request: rp_id is the origin string ("pam://host"). */
struct reg_req {
	const char *rp_id;
	uint8_t cdh[DEV_CDH_LEN];
	int type;      /* COSE_ES256 */
	bool presence; /* false = -P */
};

/* A registration whose attestation signature has been verified. */
struct reg_result {
	struct cred cred; /* kh, pk (65-byte point), type */
	uint8_t *cert;    /* attestation certificate (DER, owned) */
	size_t cert_len;
};

struct assert_req {
	const char *rp_id; /* origin, or appid for CRED_APPID creds */
	uint8_t cdh[DEV_CDH_LEN];
	const struct cred *cred;
	bool presence; /* require the presence flag */
};

/* A verified assertion. */
struct assertion {
	uint8_t flags;
	uint32_t counter;
};

/* The protocol vtable each device carries (internal to dev*.c, visible so
 * tests can check which protocol was chosen). */
struct dev_proto {
	const char *name; /* "u2f" */
	int (*reg_begin)(struct dev *, const struct reg_req *);
	int (*reg_poll)(struct dev *, struct reg_result *, int ms);
	int (*probe)(
	    struct dev *, const char *rp_id, const struct cred *, int ms);
	int (*assert_begin)(struct dev *, const struct assert_req *);
	int (*assert_poll)(struct dev *, struct assertion *, int ms);
	void (*cancel)(struct dev *);
};

/* Transport backends: how bytes reach the devices. The native one (our
 * CTAPHID over hidraw and unix:) is always built and the default;
 * libu2f-host only with ./configure --with-libu2f-host. */
enum dev_backend { DEV_BACKEND_NATIVE = 0, DEV_BACKEND_LIBU2FHOST };

/* "native" or "libu2f-host": ERR_OK, ERR_UNSUPPORTED for a backend not
 * built in, ERR_CONFIG for any other name. */
int dev_backend_parse(const char *name, enum dev_backend *out);
/* "native", "libu2f-host". */
const char *dev_backend_name(enum dev_backend b);
/* The transport an opened device uses ("native", "libu2f-host"). */
const char *dev_transport_name(const struct dev *d);
/* libu2f-host's run-time version, or NULL when the backend is not built. */
const char *dev_u2fh_version(void);
/* Discover and open, through libu2f-host, every U2F device it finds (at
 * most max, 0 = no limit); paths are "libu2f-host:INDEX". Devices that
 * fail to open are skipped with a log line, *first_err keeping the first
 * error; each within ms, all before deadline (0 = none), as
 * dev_open_all. No device is ERR_OK with *ndevs = 0. ERR_UNSUPPORTED
 * when the backend is not built. */
int dev_u2fh_open_all(size_t max, const struct log *lg, int ms,
    int64_t deadline, struct dev ***devs, size_t *ndevs, int *first_err);

/* Discover FIDO devices through sysfs (hidraw only; unix: is never
 * discovered). An empty list is ERR_OK with *n = 0. */
int dev_discover(struct hid_devinfo **list, size_t *n);
/* Open a device by path ("/dev/hidrawN" or "unix:/path"), allocate a
 * channel, and choose its protocol. */
int dev_open(const struct hid_devinfo *info, const struct log *lg, int ms,
    struct dev **out);
int dev_open_path(
    const char *path, const struct log *lg, int ms, struct dev **out);
/* Where the device logs from now on (lg must outlive it). */
void dev_set_log(struct dev *d, const struct log *lg);
void dev_close(struct dev **d);
const char *dev_path(const struct dev *d);
const char *dev_proto_name(const struct dev *d);

/* Register a new credential; waits up to ms for the touch. The split form
 * (begin, then poll: ERR_PENDING while waiting) lets a caller wait on
 * several devices at once. ERR_OK only for a registration whose
 * attestation signature verified. */
int dev_register(
    struct dev *d, const struct reg_req *req, struct reg_result *out, int ms);
int dev_register_begin(struct dev *d, const struct reg_req *req);
int dev_register_poll(struct dev *d, struct reg_result *out, int ms);
void reg_result_clear(struct reg_result *r);
/* Does this device hold cred for rp_id? ERR_OK yes, ERR_WRONG_KH no. No
 * touch needed. */
int dev_probe(
    struct dev *d, const char *rp_id, const struct cred *cred, int ms);
/* Ask for an assertion, then poll for it: ERR_PENDING while waiting for
 * the touch, ERR_OK only for a reply whose signature verified with
 * req->cred (and with the presence flag, if required). */
int dev_assert_begin(struct dev *d, const struct assert_req *req);
int dev_assert_poll(struct dev *d, struct assertion *out, int ms);
void dev_cancel(struct dev *d);

/* Devices dev_open_all opens at once, each in its own thread. */
#define DEV_OPEN_BATCH 16
/* Open every discovered device (or the explicit paths, if npaths > 0),
 * DEV_OPEN_BATCH at a time, each within ms and all before deadline
 * (util_now_ms clock; 0 = none): the devices not reached by then are
 * left (ERR_TIMEOUT noted), so a device that stalls delays neither the
 * others of its batch nor the deadline. Keeps the first max (0 = no
 * limit) that opened, in the order given. Devices that fail to open are
 * skipped with a log line; *first_err keeps the first such error in that
 * order (e.g. ERR_PERM) so a caller can explain an empty result. lg is
 * called from the calling thread only. Caller frees with dev_close_all. */
int dev_open_all(const char *const *paths, size_t npaths, size_t max,
    const struct log *lg, int ms, int64_t deadline, struct dev ***devs,
    size_t *ndevs, int *first_err);
void dev_close_all(struct dev **devs, size_t ndevs);
/* dev_open_all through a chosen transport backend; logs (to lg) which
 * one is in use. libu2f-host discovers devices itself: explicit paths
 * with it are ERR_UNSUPPORTED. */
int dev_open_backend(enum dev_backend b, const char *const *paths,
    size_t npaths, size_t max, const struct log *lg, int ms, int64_t deadline,
    struct dev ***devs, size_t *ndevs, int *first_err);

#endif
