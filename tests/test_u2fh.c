/* The libu2f-host transport (built with --with-libu2f-host) without a
 * device: the real library finds nothing here; a stand-in for it, backed
 * by the software token's APDU engine, checks that every reply goes
 * through the same strict parsers and signature checks as the native
 * transport, and that our work-arounds for libu2f-host hold. */
#include "config.h"

#include <dirent.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <u2f-host.h>

#include "auth.h"
#include "ctaphid.h"
#include "dev.h"
#include "dev_u2fh.h"
#include "err.h"
#include "softtoken/token.h"
#include "test.h"

#define ORIGIN "pam://test-host"
#define OPEN_MS 1000
#define OP_MS 2000

/* The stand-in for libu2f-host: up to 3 device slots, one token. */
struct fake {
	struct token *tok;
	int open_rc;
	bool hang_discover; /* discovery never returns */
	int hang_ins;       /* this INS is never answered (-1: none) */
	unsigned max_index;
	unsigned dead;         /* bit i: slot i failed libu2f-host's INIT */
	int sendrecv_rc;       /* != 0: every sendrecv fails so */
	uint8_t claim_max_ins; /* claim the longest reply libu2f-host
				* lets through for this INS */
	bool bad_version;      /* VERSION answers "U2F_V3" */
	size_t claim_extra;    /* claim a reply this much longer */
	size_t maxlen[4];      /* last *recvlen offered, per INS */
	unsigned done;         /* u2fh_devs_done calls */
	unsigned sends;
};

static struct fake fk;

/* As libu2f-host 1.1.10 with a token that sends KEEPALIVE forever. */
static void
hang(void)
{
	for (;;)
		(void)poll(NULL, 0, 1000);
}

static int
fake_init(void **devs)
{
	*devs = &fk;
	return U2FH_OK;
}

static int
fake_discover(void *devs, unsigned *max_index)
{
	if (devs != &fk)
		return U2FH_TRANSPORT_ERROR;
	if (fk.hang_discover)
		hang();
	if (fk.open_rc != U2FH_OK)
		return fk.open_rc;
	*max_index = fk.max_index;
	return U2FH_OK;
}

static int
fake_alive(void *devs, unsigned index)
{
	return devs == &fk && index <= fk.max_index &&
	    (fk.dead & (1u << index)) == 0;
}

/* What u2fh_sendrecv writes for a reply of d bytes: whole frame
 * payloads, 57 bytes from the init frame, 59 per continuation. */
static size_t
lib_written(size_t d)
{
	return d <= 57 ? 57 : 57 + 59 * ((d - 57 + 58) / 59);
}

/* The longest reply u2fh_sendrecv accepts when offered maxlen. */
static size_t
lib_longest(size_t maxlen)
{
	size_t d = maxlen;

	while (d > 0 && d + d % 64 > maxlen)
		d--;
	return d;
}

/* As u2fh_sendrecv: the length check and the writes of libu2f-host
 * 1.1.10, the reply from the token (or a hostile variant). */
static int
fake_sendrecv(void *devs, unsigned index, uint8_t cmd, const uint8_t *send,
    uint16_t sendlen, uint8_t *recv, size_t *recvlen)
{
	uint8_t rep[TOKEN_REPLY_MAX];
	size_t rlen = 0, maxlen = *recvlen, d;

	fk.sends++;
	if (devs != &fk || !fake_alive(devs, index) || cmd != CTAPHID_MSG ||
	    sendlen < 4)
		return U2FH_TRANSPORT_ERROR;
	if (send[1] < 4)
		fk.maxlen[send[1]] = maxlen;
	if (fk.sendrecv_rc != U2FH_OK)
		return fk.sendrecv_rc;
	if (send[1] == fk.hang_ins)
		hang();
	if (fk.bad_version && send[1] == 0x03) {
		memcpy(rep, "U2F_V3\x90\x00", 8);
		rlen = 8;
	} else if (token_apdu(
		       fk.tok, 0, TOKEN_ANSWER, send, sendlen, rep, &rlen) != 0)
		return U2FH_TRANSPORT_ERROR;
	d = send[1] == fk.claim_max_ins ? lib_longest(maxlen)
					: rlen + fk.claim_extra;
	if (d + d % 64 > maxlen) /* libu2f-host's only check */
		return U2FH_TRANSPORT_ERROR;
	memset(recv, 0xa5, lib_written(d));
	memcpy(recv, rep, rlen < d ? rlen : d);
	*recvlen = d;
	return U2FH_OK;
}

static void
fake_done(void *devs)
{
	if (devs == &fk)
		fk.done++;
}

static const char *
fake_version(void)
{
	return "fake";
}

static const struct dev_u2fh_lib fake_lib = {
    .init = fake_init,
    .discover = fake_discover,
    .alive = fake_alive,
    .sendrecv = fake_sendrecv,
    .done = fake_done,
    .version = fake_version,
    .xfer_ms = 300,
    .discover_ms = 300,
};

static char statedir[] = "/tmp/test_u2fh.XXXXXX";

/* A fresh stand-in whose token has the given faults; the tokens of one
 * test program share their keys, so a credential registered on one is
 * held by all. */
static void
fake_reset(unsigned faults)
{
	struct token_config cfg;
	char path[sizeof(statedir) + 16];

	token_free(&fk.tok);
	memset(&fk, 0, sizeof(fk));
	memset(&cfg, 0, sizeof(cfg));
	(void)snprintf(path, sizeof(path), "%s/state", statedir);
	fk.hang_ins = -1;
	cfg.presence = TOKEN_PRESENCE_NOW;
	cfg.faults = faults;
	cfg.state_path = path;
	if (token_new(&fk.tok, &cfg) != 0)
		T_FAIL_AT("token_new failed");
}

static int
open_fake(size_t max, struct dev ***devs, size_t *n, int *first)
{
	return dev_u2fh_open_with(
	    &fake_lib, max, NULL, OPEN_MS, 0, devs, n, first);
}

static int
enroll(struct dev *d, const char *origin, struct reg_result *out)
{
	struct reg_req req;

	memset(&req, 0, sizeof(req));
	req.rp_id = origin;
	req.type = COSE_ES256;
	req.presence = true;
	if (util_random(req.cdh, sizeof(req.cdh)) != ERR_OK)
		return ERR_RANDOM;
	return dev_register(d, &req, out, OP_MS);
}

static int
assert_once(struct dev *d, const struct cred *c, struct assertion *out)
{
	struct assert_req req;
	int64_t deadline = util_now_ms() + OP_MS;
	int r;

	memset(&req, 0, sizeof(req));
	req.rp_id = ORIGIN;
	req.cred = c;
	req.presence = true;
	if ((r = util_random(req.cdh, sizeof(req.cdh))) != ERR_OK ||
	    (r = dev_assert_begin(d, &req)) != ERR_OK)
		return r;
	do {
		r = dev_assert_poll(d, out, util_ms_left(deadline));
	} while (r == ERR_PENDING && util_ms_left(deadline) > 0);
	return r;
}

/* Register on a clean token through the stand-in. */
static int
enroll_clean(struct reg_result *reg)
{
	struct dev **devs = NULL;
	size_t n = 0;
	int r;

	fake_reset(0);
	if ((r = open_fake(0, &devs, &n, NULL)) == ERR_OK)
		r = n == 1 ? enroll(devs[0], ORIGIN, reg) : ERR_NODEV;
	auth_close_all(devs, n);
	return r;
}

/* A well-formed credential no device holds. */
static void
dummy_req(struct auth_req *req, struct cred *c, uint8_t kh[32], uint8_t pk[65])
{
	memset(kh, 0x11, 32);
	memset(pk, 0x22, 65);
	pk[0] = 0x04;
	memset(c, 0, sizeof(*c));
	c->kh = kh;
	c->kh_len = 32;
	c->pk = pk;
	c->pk_len = 65;
	c->type = COSE_ES256;
	c->flags = CRED_PRESENCE;
	memset(req, 0, sizeof(*req));
	req->creds = c;
	req->ncreds = 1;
	req->origin = req->appid = ORIGIN;
	req->presence = true;
	req->timeout_ms = 100;
}

static bool
have_hidraw(void)
{
	DIR *dir = opendir("/sys/class/hidraw");
	struct dirent *e;
	bool found = false;

	if (dir == NULL)
		return false;
	while ((e = readdir(dir)) != NULL)
		if (strncmp(e->d_name, "hidraw", 6) == 0)
			found = true;
	closedir(dir);
	return found;
}

static void
test_backend_names(void)
{
	enum dev_backend b = DEV_BACKEND_NATIVE;

	T_EQ_ERR(dev_backend_parse("libu2f-host", &b), ERR_OK);
	T_EQ_INT(b, DEV_BACKEND_LIBU2FHOST);
	T_EQ_STR(dev_backend_name(b), "libu2f-host");
	T_EQ_ERR(dev_backend_parse("native", &b), ERR_OK);
	T_EQ_INT(b, DEV_BACKEND_NATIVE);
	T_EQ_STR(dev_backend_name(b), "native");
	T_EQ_ERR(dev_backend_parse("libfido2", &b), ERR_CONFIG);
	T_EQ_ERR(dev_backend_parse("", &b), ERR_CONFIG);
	T_TRUE(dev_u2fh_version() != NULL);
}

static void
log_keep(void *arg, const char *line)
{
	char *buf = arg;

	if (strlen(buf) + strlen(line) + 2 < 1024) {
		strcat(buf, line);
		strcat(buf, "\n");
	}
}

/* The real libu2f-host on a host with no hidraw device: an empty set,
 * then a clean "no key"; the log names the backend. */
static void
test_real_library_no_device(void)
{
	char logbuf[1024] = "";
	struct log lg = {log_keep, logbuf};
	struct dev **devs = NULL;
	struct auth_req req;
	struct auth_result res;
	struct cred c;
	uint8_t kh[32], pk[65];
	size_t n = 99;
	int first = 1;

	T_EQ_ERR(auth_open_backend(DEV_BACKEND_LIBU2FHOST, NULL, 0, 0, &lg,
		     OPEN_MS, 0, &devs, &n, &first),
	    ERR_OK);
	T_TRUE(strstr(logbuf, "transport backend: libu2f-host") != NULL);
	if (have_hidraw()) {
		printf("# this host has hidraw devices: not counting them\n");
	} else {
		T_EQ_INT(n, 0);
		T_EQ_ERR(first, ERR_OK);
		dummy_req(&req, &c, kh, pk);
		T_EQ_ERR(auth_run(devs, n, &req, &res), ERR_NO_KEY);
	}
	auth_close_all(devs, n);
}

static void
test_explicit_paths_refused(void)
{
	const char *paths[] = {"/dev/hidraw0"};
	struct dev **devs = NULL;
	size_t n = 0;

	T_EQ_ERR(auth_open_backend(DEV_BACKEND_LIBU2FHOST, paths, 1, 0, NULL,
		     OPEN_MS, 0, &devs, &n, NULL),
	    ERR_UNSUPPORTED);
	T_TRUE(devs == NULL);
	T_EQ_INT(n, 0);
	T_EQ_ERR(auth_open_backend((enum dev_backend)7, NULL, 0, 0, NULL,
		     OPEN_MS, 0, &devs, &n, NULL),
	    ERR_UNSUPPORTED);
}

static void
test_no_device_is_no_key(void)
{
	struct dev **devs = NULL;
	struct auth_req req;
	struct auth_result res;
	struct cred c;
	uint8_t kh[32], pk[65];
	size_t n = 99;
	int first = 1;

	fake_reset(0);
	fk.open_rc = U2FH_NO_U2F_DEVICE;
	T_EQ_ERR(open_fake(0, &devs, &n, &first), ERR_OK);
	T_EQ_INT(n, 0);
	T_EQ_ERR(first, ERR_OK);
	dummy_req(&req, &c, kh, pk);
	T_EQ_ERR(auth_run(devs, n, &req, &res), ERR_NO_KEY);
	auth_close_all(devs, n);
	T_EQ_INT(fk.done, 1); /* the handle is released */
	fk.open_rc = U2FH_TRANSPORT_ERROR;
	T_EQ_ERR(open_fake(0, &devs, &n, &first), ERR_IO);
	T_TRUE(devs == NULL);
	T_EQ_INT(fk.done, 2);
}

static void
test_register_probe_assert(void)
{
	struct reg_result reg, other;
	struct assertion as;
	struct dev **devs = NULL;
	const uint8_t *cert;
	size_t n = 0, cert_len = 0;

	fake_reset(0);
	T_EQ_ERR(open_fake(0, &devs, &n, NULL), ERR_OK);
	T_EQ_INT(n, 1);
	if (n != 1)
		goto out;
	T_EQ_STR(dev_path(devs[0]), "libu2f-host:0");
	T_EQ_STR(dev_transport_name(devs[0]), "libu2f-host");
	T_EQ_STR(dev_proto_name(devs[0]), "u2f");
	T_EQ_ERR(enroll(devs[0], ORIGIN, &reg), ERR_OK);
	cert = token_attest_cert(fk.tok, &cert_len);
	T_EQ_INT(reg.cert_len, cert_len);
	T_TRUE(reg.cert != NULL && memcmp(reg.cert, cert, cert_len) == 0);
	T_EQ_ERR(dev_probe(devs[0], ORIGIN, &reg.cred, OP_MS), ERR_OK);
	T_EQ_ERR(dev_probe(devs[0], "pam://elsewhere", &reg.cred, OP_MS),
	    ERR_WRONG_KH);
	T_EQ_ERR(assert_once(devs[0], &reg.cred, &as), ERR_OK);
	T_EQ_INT(as.flags & 0x01, 0x01);
	T_EQ_INT(as.counter, token_counter(fk.tok));
	/* A credential of another key pair: the signature must not pass. */
	T_EQ_ERR(enroll(devs[0], ORIGIN, &other), ERR_OK);
	memcpy(other.cred.pk, reg.cred.pk, reg.cred.pk_len);
	T_EQ_ERR(assert_once(devs[0], &other.cred, &as), ERR_VERIFY);
	reg_result_clear(&other);
	reg_result_clear(&reg);
out:
	auth_close_all(devs, n);
	T_EQ_INT(fk.done, 1);
}

/* Each reply may take libu2f-host ~4 s per 64-byte frame: it is only
 * allowed as many bytes as the protocol's longest reply. */
static void
test_reply_sizes_bounded(void)
{
	struct reg_result reg;
	struct assertion as;
	struct dev **devs = NULL;
	size_t n = 0;

	fake_reset(0);
	T_EQ_ERR(open_fake(0, &devs, &n, NULL), ERR_OK);
	if (n != 1) {
		T_EQ_INT(n, 1);
		return;
	}
	T_EQ_ERR(enroll(devs[0], ORIGIN, &reg), ERR_OK);
	T_EQ_ERR(assert_once(devs[0], &reg.cred, &as), ERR_OK);
	/* The protocol's longest reply, plus what libu2f-host's length
	 * check needs to let that through. */
	T_EQ_INT(fk.maxlen[0x03], 64 + 63);              /* VERSION */
	T_EQ_INT(fk.maxlen[0x02], 1 + 4 + 72 + 2 + 63);  /* AUTHENTICATE */
	T_EQ_INT(fk.maxlen[0x01], CTAPHID_MAX_MSG + 63); /* REGISTER */
	reg_result_clear(&reg);
	auth_close_all(devs, n);
}

/* The longest replies libu2f-host lets through, written the way it
 * writes them: the buffers we hand it hold them (ASan checks that in the
 * asan stage), and we refuse them as too long. */
static void
test_library_overrun_contained(void)
{
	struct reg_result reg;
	struct assertion as;
	struct dev **devs = NULL;
	size_t n = 0;
	int first = ERR_OK;

	T_EQ_INT(lib_written(1), 57);
	T_EQ_INT(lib_written(58), 116);
	T_EQ_INT(lib_written(117), 175); /* 58 past: the worst */
	T_EQ_INT(lib_longest(127), 95);
	fake_reset(0);
	T_EQ_ERR(open_fake(0, &devs, &n, NULL), ERR_OK);
	T_EQ_INT(n, 1);
	if (n == 1) {
		T_EQ_ERR(enroll(devs[0], ORIGIN, &reg), ERR_OK);
		fk.claim_max_ins = 0x02;
		T_EQ_ERR(assert_once(devs[0], &reg.cred, &as), ERR_PROTO);
		reg_result_clear(&reg);
		fk.claim_max_ins = 0x01;
		T_EQ_ERR(enroll(devs[0], ORIGIN, &reg), ERR_PROTO);
	}
	auth_close_all(devs, n);
	fake_reset(0);
	fk.claim_max_ins = 0x03;
	T_EQ_ERR(open_fake(0, &devs, &n, &first), ERR_OK);
	T_EQ_INT(n, 0);
	T_EQ_ERR(first, ERR_PROTO);
	auth_close_all(devs, n);
}

/* A length beyond what we accept is refused, not copied. */
static void
test_claimed_length_refused(void)
{
	struct dev **devs = NULL;
	size_t n = 0;
	int first = ERR_OK;

	fake_reset(0);
	fk.claim_extra = 64;
	T_EQ_ERR(open_fake(0, &devs, &n, &first), ERR_OK);
	/* VERSION's reply claims 72 bytes of the 64 allowed. */
	T_EQ_INT(n, 0);
	T_EQ_ERR(first, ERR_PROTO);
	auth_close_all(devs, n);
	T_EQ_INT(fk.done, 1);
}

static void
test_dead_slots_and_refcount(void)
{
	struct dev **devs = NULL;
	size_t n = 0;

	fake_reset(0);
	fk.max_index = 2;
	fk.dead = 1u << 1;
	T_EQ_ERR(open_fake(0, &devs, &n, NULL), ERR_OK);
	T_EQ_INT(n, 2);
	if (n == 2) {
		T_EQ_STR(dev_path(devs[0]), "libu2f-host:0");
		T_EQ_STR(dev_path(devs[1]), "libu2f-host:2");
		dev_close(&devs[0]);
		T_EQ_INT(fk.done, 0); /* devs[1] still uses the handle */
	}
	auth_close_all(devs, n);
	T_EQ_INT(fk.done, 1);
	fake_reset(0);
	fk.max_index = 2;
	T_EQ_ERR(open_fake(2, &devs, &n, NULL), ERR_OK);
	T_EQ_INT(n, 2); /* max honoured */
	auth_close_all(devs, n);
}

static void
test_version_and_transport_errors(void)
{
	struct dev **devs = NULL;
	size_t n = 0;
	int first = ERR_OK;

	fake_reset(0);
	fk.bad_version = true;
	T_EQ_ERR(open_fake(0, &devs, &n, &first), ERR_OK);
	T_EQ_INT(n, 0);
	T_EQ_ERR(first, ERR_PROTO);
	auth_close_all(devs, n);
	fake_reset(0);
	fk.sendrecv_rc = U2FH_TRANSPORT_ERROR;
	T_EQ_ERR(open_fake(0, &devs, &n, &first), ERR_OK);
	T_EQ_INT(n, 0);
	T_EQ_ERR(first, ERR_IO);
	auth_close_all(devs, n);
	T_EQ_ERR(dev_u2fh_err(U2FH_OK), ERR_OK);
	T_EQ_ERR(dev_u2fh_err(U2FH_MEMORY_ERROR), ERR_NOMEM);
	T_EQ_ERR(dev_u2fh_err(U2FH_NO_U2F_DEVICE), ERR_NODEV);
	T_EQ_ERR(dev_u2fh_err(U2FH_TIMEOUT_ERROR), ERR_IO);
	T_EQ_ERR(dev_u2fh_err(U2FH_SIZE_ERROR), ERR_PROTO);
}

/* The token's reply faults through libu2f-host: the same strict parse
 * and verification as the native transport refuse them. */
static int
assert_with_fault(const struct cred *c, unsigned fault)
{
	struct assertion as;
	struct dev **devs = NULL;
	size_t n = 0;
	int r;

	fake_reset(fault);
	if ((r = open_fake(0, &devs, &n, NULL)) == ERR_OK)
		r = n == 1 ? assert_once(devs[0], c, &as) : ERR_NODEV;
	auth_close_all(devs, n);
	return r;
}

static void
test_hostile_replies_refused(void)
{
	struct reg_result reg;
	struct dev **devs = NULL;
	size_t n = 0;

	T_EQ_ERR(enroll_clean(&reg), ERR_OK);
	T_EQ_ERR(assert_with_fault(&reg.cred, 0), ERR_OK);
	T_EQ_ERR(assert_with_fault(&reg.cred, FAULT_BAD_SIG), ERR_PROTO);
	T_EQ_ERR(assert_with_fault(&reg.cred, FAULT_WRONG_SIG), ERR_VERIFY);
	T_EQ_ERR(assert_with_fault(&reg.cred, FAULT_NO_PRESENCE_FLAG),
	    ERR_NO_PRESENCE);
	T_TRUE(assert_with_fault(&reg.cred, FAULT_GARBAGE_REPLY) != ERR_OK);
	reg_result_clear(&reg);
	/* A garbage or forged registration is never accepted. */
	fake_reset(FAULT_GARBAGE_REPLY);
	T_EQ_ERR(open_fake(0, &devs, &n, NULL), ERR_OK);
	if (n == 1)
		T_TRUE(enroll(devs[0], ORIGIN, &reg) != ERR_OK);
	auth_close_all(devs, n);
	fake_reset(FAULT_WRONG_SIG);
	T_EQ_ERR(open_fake(0, &devs, &n, NULL), ERR_OK);
	if (n == 1)
		T_EQ_ERR(enroll(devs[0], ORIGIN, &reg), ERR_VERIFY);
	auth_close_all(devs, n);
}

/* The split operations as auth_run drives them, with cancel. */
static void
test_auth_run_and_cancel(void)
{
	struct reg_result reg;
	struct auth_req req;
	struct auth_result res;
	struct dev **devs = NULL;
	size_t n = 0;

	T_EQ_ERR(enroll_clean(&reg), ERR_OK);
	fake_reset(0);
	T_EQ_ERR(open_fake(0, &devs, &n, NULL), ERR_OK);
	memset(&req, 0, sizeof(req));
	req.creds = &reg.cred;
	req.ncreds = 1;
	req.origin = req.appid = ORIGIN;
	req.presence = true;
	req.timeout_ms = OP_MS;
	T_EQ_ERR(auth_run(devs, n, &req, &res), ERR_OK);
	T_EQ_INT(res.assertion.counter, token_counter(fk.tok));
	if (n == 1) {
		/* Begin, cancel, begin again: only the second is sent. */
		struct assert_req ar;

		memset(&ar, 0, sizeof(ar));
		ar.rp_id = ORIGIN;
		ar.cred = &reg.cred;
		ar.presence = true;
		T_EQ_ERR(dev_assert_begin(devs[0], &ar), ERR_OK);
		fk.sends = 0;
		dev_cancel(devs[0]);
		T_EQ_INT(fk.sends, 0);
	}
	auth_close_all(devs, n);
	reg_result_clear(&reg);
}

/* libu2f-host waits forever on a token that sends KEEPALIVE frames: the
 * exchange is cut off at our deadline and the device dropped. */
static void
test_endless_keepalive_cut_off(void)
{
	struct reg_result reg;
	struct auth_req req;
	struct auth_result res;
	struct dev **devs = NULL;
	size_t n = 0;
	int64_t t0;
	int first = ERR_OK;

	fake_reset(0);
	fk.hang_ins = 0x03;
	t0 = util_now_ms();
	T_EQ_ERR(open_fake(0, &devs, &n, &first), ERR_OK);
	T_TRUE(util_now_ms() - t0 < 2000);
	T_EQ_INT(n, 0);
	T_EQ_ERR(first, ERR_TIMEOUT);
	auth_close_all(devs, n);
	T_EQ_INT(fk.done, 1);

	T_EQ_ERR(enroll_clean(&reg), ERR_OK);
	fake_reset(0);
	T_EQ_ERR(open_fake(0, &devs, &n, NULL), ERR_OK);
	fk.hang_ins = 0x02;
	memset(&req, 0, sizeof(req));
	req.creds = &reg.cred;
	req.ncreds = 1;
	req.origin = req.appid = ORIGIN;
	req.presence = true;
	req.timeout_ms = 10000;
	t0 = util_now_ms();
	T_TRUE(auth_run(devs, n, &req, &res) != ERR_OK);
	T_TRUE(util_now_ms() - t0 < 3000);
	fk.hang_ins = -1; /* dropped for good, even if it heals */
	if (n == 1)
		T_EQ_ERR(
		    dev_probe(devs[0], ORIGIN, &reg.cred, OP_MS), ERR_NODEV);
	auth_close_all(devs, n);
	reg_result_clear(&reg);

	fake_reset(0);
	fk.hang_discover = true;
	t0 = util_now_ms();
	T_EQ_ERR(open_fake(0, &devs, &n, NULL), ERR_TIMEOUT);
	T_TRUE(util_now_ms() - t0 < 2000);
	T_TRUE(devs == NULL);
	T_EQ_INT(fk.done, 1);
}

static void
test_cleanup(void)
{
	char path[sizeof(statedir) + 16];

	token_free(&fk.tok);
	(void)snprintf(path, sizeof(path), "%s/state", statedir);
	(void)unlink(path);
	T_EQ_INT(rmdir(statedir), 0);
}

static void
test_setup(void)
{
	T_TRUE(mkdtemp(statedir) != NULL);
}

TEST_MAIN(TEST(test_setup), TEST(test_backend_names),
    TEST(test_real_library_no_device), TEST(test_explicit_paths_refused),
    TEST(test_no_device_is_no_key), TEST(test_register_probe_assert),
    TEST(test_reply_sizes_bounded), TEST(test_library_overrun_contained),
    TEST(test_claimed_length_refused), TEST(test_dead_slots_and_refcount),
    TEST(test_version_and_transport_errors), TEST(test_hostile_replies_refused),
    TEST(test_auth_run_and_cancel), TEST(test_endless_keepalive_cut_off),
    TEST(test_cleanup))
