/* SPDX-License-Identifier: BSD-2-Clause */
/* The CTAPHID receive path behind the struct hid_io seam: a scripted
 * device whose reads return the fuzz input cut into reports. ctaphid_open
 * runs INIT, then one exchange chosen by the first byte. The U2F
 * exchanges go through the production path: a transport over the
 * scripted device (xport_open_io), the device layer choosing its protocol
 * (U2F VERSION), then the U2F protocol's register or assertion.
 *
 * Input: op | size | reports...
 *   op bits 0-2  exchange: 0 recv MSG (cap 7609), 1 recv MSG (cap from
 *                the first report byte), 2 PING, 3 U2F VERSION (open a
 *                device), 4 U2F REGISTER, 5 U2F AUTHENTICATE (each after
 *                a VERSION reply), 6 WINK, 7 two receives
 *   op bit 3     echo the host's INIT nonce into INIT replies on the
 *                broadcast channel (else the nonce must be guessed)
 *   op bit 4     when the input is used up, reads fail with ERR_NODEV
 *                (else ERR_TIMEOUT)
 *   op bit 5     AUTHENTICATE: presence required
 *   op bit 6     AUTHENTICATE: probe (check-only) first
 *   size         0: 64-byte reports, else 8 + size % 57
 * The written reports are only checked for their length. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "device/dev.h"
#include "fuzz.h"
#include "proto/u2f/u2f.h"
#include "transport/ctaphid.h"
#include "transport/hid.h"

#define OP_PATCH_NONCE 0x08
#define OP_NODEV_AT_END 0x10
#define OP_PRESENCE 0x20
#define OP_PROBE 0x40
#define NONCE_OFF 7
#define NONCE_LEN 8
#define MS 1000

struct script {
	const uint8_t *data;
	size_t len;
	size_t off;
	size_t report;
	uint8_t op;
	uint8_t nonce[NONCE_LEN];
	int open;
};

static void *
script_open(const char *path, int *err)
{
	void *p = NULL;

	if (sscanf(path, "fuzz:%p", &p) != 1 || p == NULL) {
		*err = ERR_NODEV;
		return NULL;
	}
	((struct script *)p)->open = 1;
	return p;
}

static void
script_close(void *handle)
{
	struct script *s = handle;

	FUZZ_CHECK(s->open);
	s->open = 0;
}

static int
is_init_frame(const uint8_t *r, size_t n)
{
	static const uint8_t bcast[4] = {0xff, 0xff, 0xff, 0xff};

	return n >= NONCE_OFF + NONCE_LEN && memcmp(r, bcast, 4) == 0 &&
	    r[4] == CTAPHID_INIT;
}

static int
script_read(void *handle, uint8_t *buf, size_t cap, int ms)
{
	struct script *s = handle;
	size_t n;

	FUZZ_CHECK(s->open && ms >= 0);
	if (s->off >= s->len)
		return (s->op & OP_NODEV_AT_END) ? ERR_NODEV : ERR_TIMEOUT;
	n = s->len - s->off < s->report ? s->len - s->off : s->report;
	FUZZ_CHECK(cap >= n);
	memcpy(buf, s->data + s->off, n);
	s->off += n;
	if ((s->op & OP_PATCH_NONCE) && is_init_frame(buf, n))
		memcpy(buf + NONCE_OFF, s->nonce, NONCE_LEN);
	return (int)n;
}

static int
script_write(void *handle, const uint8_t *buf, size_t len, int ms)
{
	struct script *s = handle;

	FUZZ_CHECK(s->open && len == s->report && ms >= 0);
	if (is_init_frame(buf, len))
		memcpy(s->nonce, buf + NONCE_OFF, NONCE_LEN);
	return ERR_OK;
}

static const struct hid_io script_io = {
    script_open, script_close, script_read, script_write, NULL};

/* The log sink: lines must be bounded strings. */
static void
log_line(void *arg, const char *line)
{
	(void)arg;
	FUZZ_CHECK(line != NULL && strlen(line) < 512);
}

/* Receive into a heap buffer of exactly cap bytes (ASan sees overruns). */
static int
recv_msg(struct ctaphid *ch, size_t cap)
{
	uint8_t *buf = NULL, ka = 0xff;
	size_t len = 0;
	int r;

	if ((buf = malloc(cap > 0 ? cap : 1)) == NULL)
		return ERR_NOMEM;
	FUZZ_CALL(r, ctaphid_recv(ch, CTAPHID_MSG, buf, cap, &len, MS, &ka));
	if (r == ERR_OK)
		FUZZ_CHECK(len <= cap && len <= CTAPHID_MAX_MSG);
	else
		FUZZ_CHECK(len == 0);
	free(buf);
	return r;
}

/* A U2F operation through the device layer on a device of its own (the
 * channel of the caller stays unused). */
static int
u2f_op(const char *path, const struct script *s, const struct log *lg, int op)
{
	static uint8_t kh[64] = {0x2a, 0x55};
	static uint8_t pk[65] = {0x04};
	struct cred c = {.kh = kh,
	    .kh_len = sizeof(kh),
	    .pk = pk,
	    .pk_len = sizeof(pk),
	    .type = COSE_ES256};
	struct reg_result reg;
	struct assert_req ar;
	struct assertion as;
	struct reg_req rr;
	struct xport *x = NULL;
	struct dev *d = NULL;
	int r;

	memset(&reg, 0, sizeof(reg));
	memset(&as, 0, sizeof(as));
	FUZZ_CALL(r,
	    xport_open_io(&script_io, path, s->report, s->report, lg, MS, &x));
	if (r != ERR_OK)
		return r;
	FUZZ_CALL(r, dev_open_xport(x, lg, MS, &d));
	if (r != ERR_OK || op == 3)
		goto out;
	if (op == 4) {
		memset(&rr, 0, sizeof(rr));
		rr.rp_id = "pam://fuzz";
		rr.type = COSE_ES256;
		FUZZ_CALL(r, dev_register(d, &rr, &reg, MS));
		if (r == ERR_OK)
			FUZZ_CHECK(reg.cred.kh_len >= 1 && reg.cert != NULL);
		reg_result_clear(&reg);
		goto out;
	}
	memset(&ar, 0, sizeof(ar));
	ar.rp_id = "pam://fuzz";
	ar.allow = &c;
	ar.nallow = 1;
	ar.presence = (s->op & OP_PRESENCE) != 0;
	ar.probe = (s->op & OP_PROBE) != 0;
	FUZZ_CALL(r, dev_assert_begin(d, &ar, util_now_ms() + MS));
	if (r == ERR_OK)
		FUZZ_CALL(r, dev_assert_wait(d, &as, MS));
	/* the key is not the one that signed: never a verified answer */
	FUZZ_CHECK(r != ERR_OK);
	assertion_clear(&as);
out:
	dev_close(&d);
	return r;
}

static int
exchange(struct ctaphid *ch, const struct script *s)
{
	static const uint8_t ping[16] = "fuzz ping data!";
	int op = s->op & 7, r;

	switch (op) {
	case 0:
		return recv_msg(ch, CTAPHID_MAX_MSG);
	case 1:
		return recv_msg(ch, s->off < s->len ? s->data[s->off] : 0);
	case 2:
		FUZZ_CALL(r, ctaphid_ping(ch, ping, sizeof(ping), MS));
		return r;
	case 6:
		FUZZ_CALL(r, ctaphid_wink(ch, MS));
		return r;
	case 7:
		if ((r = recv_msg(ch, CTAPHID_MAX_MSG)) != ERR_OK)
			return r;
		return recv_msg(ch, CTAPHID_MAX_MSG);
	default:
		return ERR_INVAL; /* u2f_op, without the channel */
	}
}

static void
pass(void *arg)
{
	struct script s = *(const struct script *)arg;
	struct ctaphid *ch = NULL;
	struct log lg = {log_line, NULL};
	char path[64];
	int r;

	snprintf(path, sizeof(path), "fuzz:%p", (void *)&s);
	if ((s.op & 7) >= 3 && (s.op & 7) <= 5) {
		(void)u2f_op(path, &s, &lg, s.op & 7);
		FUZZ_CHECK(!s.open);
		return;
	}
	FUZZ_CALL(r,
	    ctaphid_open(&script_io, path, s.report, s.report, &lg, MS, &ch));
	if (r != ERR_OK) {
		FUZZ_CHECK(ch == NULL && !s.open);
		return;
	}
	FUZZ_CHECK(ch != NULL && s.open);
	(void)exchange(ch, &s);
	ctaphid_close(&ch);
	FUZZ_CHECK(ch == NULL && !s.open);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct script s;

	if (len < 2)
		return 0;
	memset(&s, 0, sizeof(s));
	s.op = data[0];
	s.report = data[1] == 0
	    ? HID_REPORT_MAX
	    : HID_REPORT_MIN + data[1] % (HID_REPORT_MAX - HID_REPORT_MIN + 1);
	s.data = data + 2;
	s.len = len - 2;
	fuzz_run(pass, &s, data, len);
	return 0;
}
