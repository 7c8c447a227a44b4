/* SPDX-License-Identifier: BSD-2-Clause */
/* Authenticators as operations: a device is a transport (how messages
 * reach it) + a protocol (what they say) + the protocol's state. This
 * layer chooses the protocol when a device opens, gives each operation
 * its deadline, waits on one device, and opens sets of devices. Everything
 * else is the protocol table's (proto.h), called directly through the
 * device: d->proto->assert_step(&d->ctx, out), d->proto->poll_fd(&d->ctx),
 * and the transport's (xport.h): xport_path(d->ctx.x). Callers see
 * operations, never APDUs or CBOR, and can wait on many devices in one
 * poll(2) (auth/wait.h): a step never blocks. */
#ifndef PU_DEV_H
#define PU_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cred.h"
#include "base/util.h"
#include "proto/proto.h"
#include "transport/xport.h"

#define DEV_CDH_LEN PROTO_CDH_LEN

/* An open device: the protocol it speaks (never NULL once open) and that
 * protocol's context, which holds the transport (ctx.x), where it logs
 * and the protocol's own state. Opened by dev_open*, freed by dev_close;
 * its fields are read, never set, outside this layer. */
struct dev {
	const struct proto *proto;
	struct proto_ctx ctx;
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
/* Open a device by path ("/dev/hidrawN" or "unix:/path") and choose its
 * protocol, within ms. */
int dev_open(const struct xport_info *info, const struct log *lg, int ms,
    struct dev **out);
int dev_open_path(
    const char *path, const struct log *lg, int ms, struct dev **out);
/* A device over a transport that is open already (which it then owns,
 * also on failure): choose its protocol within ms. */
int dev_open_xport(
    struct xport *x, const struct log *lg, int ms, struct dev **out);
/* Where the device logs from now on (lg must outlive it). */
void dev_set_log(struct dev *d, const struct log *lg);
void dev_close(struct dev **d);

/* Register a new credential. The split form: begin, then step with
 * d->proto->reg_step (never blocks: ERR_PENDING while waiting for the
 * touch; ERR_OK only for a registration whose attestation signature
 * verified). The operation ends by deadline (util_now_ms clock): no
 * exchange with the device runs past it (xport_set_deadline). */
int dev_register_begin(
    struct dev *d, const struct reg_req *req, int64_t deadline);
/* Begin, then wait up to ms (in poll(2)) for the result. */
int dev_register(
    struct dev *d, const struct reg_req *req, struct reg_result *out, int ms);
/* Does this device hold cred for rp_id? ERR_OK yes, ERR_WRONG_KH no. No
 * touch needed. */
int dev_probe(
    struct dev *d, const char *rp_id, const struct cred *cred, int ms);
/* Ask for an assertion over req->allow (which must outlive the
 * operation); probes finish before deadline, and no exchange with the
 * device runs past it (xport_set_deadline). ERR_WRONG_KH when the device
 * holds none of them. */
int dev_assert_begin(
    struct dev *d, const struct assert_req *req, int64_t deadline);
/* Step the assertion (d->proto->assert_step: ERR_PENDING while waiting
 * for the touch, ERR_OK only for an assertion whose signature verified
 * with the allow-list entry out->cred_index, and with the presence flag
 * if required), sleeping in poll(2) up to ms for the result. */
int dev_assert_wait(struct dev *d, struct assertion *out, int ms);
/* Is any of the devices a key on a reader (PC/SC: "touch or tap")? */
bool dev_any_tap(struct dev *const *devs, size_t n);
/* Does a list of device paths name a reader ("pcsc:NAME")? */
bool dev_paths_tap(const char *const *paths, size_t n);

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
/* Open, through libu2f-host, every U2F device it finds (at most max, 0 =
 * no limit) as dev_open_all does; paths are "libu2f-host:INDEX".
 * ERR_UNSUPPORTED when the backend is not built. */
int dev_u2fh_open_all(size_t max, const struct log *lg, int ms,
    int64_t deadline, struct dev ***devs, size_t *ndevs, int *first_err);
/* The same over a list of transports that is open already (dev_u2fh_open_all
 * and tests): each gets its protocol within ms, all before deadline; the
 * list and every transport in it are consumed. */
int dev_open_xports(struct xport **xs, size_t nxs, const struct log *lg, int ms,
    int64_t deadline, struct dev ***devs, size_t *ndevs, int *first_err);

#endif
