/* SPDX-License-Identifier: BSD-2-Clause */
/* The CTAP2 reply parsers on hostile bytes: GetInfo, GetAssertion,
 * MakeCredential and ClientPIN replies, as a key would send them after
 * the status byte, and authData's extensions map. The first byte picks
 * the parser. Whatever a parser accepts must be canonical CBOR
 * (cbor_check), and every pointer it returns must lie inside the input. */
#include "config.h"

#include <string.h>

#include "base/cbor.h"
#include "base/err.h"
#include "fuzz.h"
#include "proto/ctap2/ctap2.h"

struct input {
	const uint8_t *data;
	size_t len;
};

static void
inside(const struct input *in, const void *p, size_t n)
{
	const uint8_t *q = p;

	if (q == NULL)
		return;
	FUZZ_CHECK(q >= in->data && n <= in->len &&
	    (size_t)(q - in->data) <= in->len - n);
}

static void
parse_info(const struct input *in)
{
	struct ctap2_info info;
	int r = ctap2_parse_info(in->data, in->len, &info);

	FUZZ_CHECK(r == ERR_OK || r == ERR_PROTO || r == ERR_UNSUPPORTED);
	if (r != ERR_OK)
		return;
	FUZZ_CHECK(cbor_check(in->data, in->len) == ERR_OK);
	FUZZ_CHECK(info.npin_protos <= sizeof(info.pin_protos));
	FUZZ_CHECK(info.nalgs <= sizeof(info.algs) / sizeof(info.algs[0]));
	FUZZ_CHECK(info.max_msg <= CTAP2_MSG_MAX);
	FUZZ_CHECK((info.exts &
		       ~(unsigned)(CTAP2_EXT_CRED_PROTECT |
			   CTAP2_EXT_HMAC_SECRET)) == 0);
}

static void
parse_ga(const struct input *in)
{
	struct ctap2_ga_reply g;

	if (ctap2_parse_ga(in->data, in->len, &g) != ERR_OK)
		return;
	FUZZ_CHECK(cbor_check(in->data, in->len) == ERR_OK);
	FUZZ_CHECK(g.authdata != NULL && g.sig != NULL && g.sig_len > 0);
	inside(in, g.cred_id, g.cred_id_len);
	inside(in, g.authdata, g.authdata_len);
	inside(in, g.sig, g.sig_len);
	inside(in, g.user_id, g.user_id_len);
	FUZZ_CHECK(g.ncreds <= CTAP2_RK_MAX);
}

static void
parse_mc(const struct input *in)
{
	struct ctap2_mc_reply m;

	if (ctap2_parse_mc(in->data, in->len, &m) != ERR_OK)
		return;
	FUZZ_CHECK(cbor_check(in->data, in->len) == ERR_OK);
	inside(in, m.fmt, m.fmt_len);
	inside(in, m.authdata, m.authdata_len);
	inside(in, m.attstmt, m.attstmt_len);
	FUZZ_CHECK(cbor_check(m.attstmt, m.attstmt_len) == ERR_OK);
}

static void
parse_cp(const struct input *in)
{
	struct ctap2_cp_reply c;

	if (ctap2_parse_cp(in->data, in->len, &c) != ERR_OK)
		return;
	FUZZ_CHECK(cbor_check(in->data, in->len) == ERR_OK);
	inside(in, c.token_enc, c.token_enc_len);
	FUZZ_CHECK(c.pin_retries >= -1 && c.pin_retries <= 255);
	FUZZ_CHECK(c.uv_retries >= -1 && c.uv_retries <= 255);
}

/* authData's extensions map: credProtect 1-3 or absent (0). */
static void
parse_ext(const struct input *in)
{
	int level = -1;

	if (ctap2_ext_cred_protect(in->data, in->len, &level) != ERR_OK)
		return;
	FUZZ_CHECK(level >= 0 && level <= CTAP2_CRED_PROTECT_MAX);
}

static void
pass(void *arg)
{
	const struct input *all = arg;
	struct input in;

	if (all->len < 1)
		return;
	in.data = all->data + 1;
	in.len = all->len - 1;
	switch (all->data[0] % 5) {
	case 0:
		parse_info(&in);
		break;
	case 1:
		parse_ga(&in);
		break;
	case 2:
		parse_mc(&in);
		break;
	case 3:
		parse_cp(&in);
		break;
	default:
		parse_ext(&in);
		break;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = {data, len};

	fuzz_run(pass, &in, data, len);
	return 0;
}
