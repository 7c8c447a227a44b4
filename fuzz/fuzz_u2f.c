/* SPDX-License-Identifier: BSD-2-Clause */
/* U2F reply parsers: u2f_status on the whole reply, and the REGISTER and
 * AUTHENTICATE body parsers on the input and on the body before its
 * status word. A parse that succeeds must account for every byte. */
#include "config.h"

#include <string.h>

#include "base/err.h"
#include "fuzz.h"
#include "proto/u2f/u2f.h"

struct input {
	const uint8_t *data;
	size_t len;
};

static void
reg(const uint8_t *body, size_t len)
{
	struct u2f_reg r;
	int e;

	memset(&r, 0xa5, sizeof(r));
	FUZZ_CALL(e, u2f_parse_register(body, len, &r));
	FUZZ_CHECK(e == ERR_OK || e == ERR_PROTO || e == ERR_NOMEM);
	if (e != ERR_OK) {
		FUZZ_CHECK(fuzz_is_zero(&r, sizeof(r)));
		return;
	}
	FUZZ_CHECK(r.pubkey[0] == 0x04);
	FUZZ_CHECK(r.kh_len >= 1 && r.kh_len <= U2F_KH_MAX);
	FUZZ_CHECK(r.cert != NULL && r.cert_len > 0);
	FUZZ_CHECK(r.sig_len >= U2F_SIG_MIN && r.sig_len <= U2F_SIG_MAX);
	FUZZ_CHECK(
	    1 + U2F_POINT_LEN + 1 + r.kh_len + r.cert_len + r.sig_len == len);
	FUZZ_CHECK(memcmp(body + len - r.sig_len, r.sig, r.sig_len) == 0);
	u2f_reg_clear(&r);
}

static void
auth(const uint8_t *body, size_t len)
{
	struct u2f_auth a;
	int e;

	memset(&a, 0xa5, sizeof(a));
	FUZZ_CALL(e, u2f_parse_authenticate(body, len, &a));
	FUZZ_CHECK(e == ERR_OK || e == ERR_PROTO);
	if (e != ERR_OK) {
		FUZZ_CHECK(fuzz_is_zero(&a, sizeof(a)));
		return;
	}
	FUZZ_CHECK(a.sig_len >= U2F_SIG_MIN && a.sig_len <= U2F_SIG_MAX);
	FUZZ_CHECK(5 + a.sig_len == len);
	FUZZ_CHECK(a.flags == body[0]);
	FUZZ_CHECK(memcmp(body + 5, a.sig, a.sig_len) == 0);
}

static void
status(const uint8_t *reply, size_t len, size_t *body_len)
{
	uint16_t sw = 0;
	int e;

	*body_len = 0;
	FUZZ_CALL(e, u2f_status(reply, len, body_len, &sw));
	if (len < 2) {
		FUZZ_CHECK(e == ERR_PROTO);
		return;
	}
	FUZZ_CHECK(*body_len == len - 2);
	FUZZ_CHECK(sw == (reply[len - 2] << 8 | reply[len - 1]));
	switch (sw) {
	case U2F_SW_NO_ERROR:
		FUZZ_CHECK(e == ERR_OK);
		break;
	case U2F_SW_CONDITIONS:
		FUZZ_CHECK(e == ERR_PRESENCE);
		break;
	case U2F_SW_WRONG_DATA:
	case U2F_SW_WRONG_DATA_ALT:
		FUZZ_CHECK(e == ERR_WRONG_KH);
		break;
	case U2F_SW_WRONG_LENGTH:
		FUZZ_CHECK(e == ERR_WRONG_LENGTH);
		break;
	case U2F_SW_INS:
		FUZZ_CHECK(e == ERR_INS_NOT_SUPPORTED);
		break;
	default:
		FUZZ_CHECK(e == ERR_SW);
	}
}

static void
pass(void *arg)
{
	const struct input *in = arg;
	size_t body_len = 0;

	status(in->data, in->len, &body_len);
	reg(in->data, in->len);
	auth(in->data, in->len);
	if (in->len >= 2) {
		reg(in->data, body_len);
		auth(in->data, body_len);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = {data, len};

	fuzz_run(pass, &in, data, len);
	return 0;
}
