/* SPDX-License-Identifier: BSD-2-Clause */
/* Manual mode's answer checker (common/auth/manual.c): the four lines a user
 * pastes back, which over sshd keyboard-interactive come from the remote
 * side. The challenge and the credential are the FIDO U2F raw message
 * format's authentication example, whose signature is a valid answer
 * (fuzz/manualkat.h), so the success path is reachable and the seeds
 * hold it.
 *
 * Two passes per input: the input as the four lines (presence required,
 * presence and user verification required, nothing required); and the
 * input as raw authdata CBOR and DER signature (split where the first
 * byte says) under the right cdh and rp id, so that mutations reach those
 * parsers. Whatever the input: a known error code, and ERR_OK only for
 * the example's signed values (flags 0x01, counter 1), never when user
 * verification is required (the example's UV flag is clear). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/err.h"
#include "fuzz.h"
#include "manualkat.h"

struct input {
	const uint8_t *data;
	size_t len;
};

static void
check(int r, const struct assertion *as)
{
	FUZZ_CHECK(r == ERR_OK || r == ERR_PARSE || r == ERR_MISMATCH ||
	    r == ERR_VERIFY || r == ERR_NO_PRESENCE || r == ERR_NO_UV ||
	    r == ERR_NOMEM || r == ERR_CRYPTO);
	if (r == ERR_OK)
		FUZZ_CHECK(as->flags == 0x01 && as->counter == 1);
}

static void
as_lines(const struct input *in)
{
	struct assertion as;
	int r;

	memset(&as, 0, sizeof(as));
	FUZZ_CALL(
	    r, manualkat_verify_text(in->data, in->len, &manualkat_up, &as));
	check(r, &as);
	memset(&as, 0, sizeof(as));
	FUZZ_CALL(
	    r, manualkat_verify_text(in->data, in->len, &manualkat_upuv, &as));
	check(r, &as);
	FUZZ_CHECK(r != ERR_OK);
	memset(&as, 0, sizeof(as));
	FUZZ_CALL(
	    r, manualkat_verify_text(in->data, in->len, &manualkat_none, &as));
	check(r, &as);
}

static void
as_raw(const struct input *in)
{
	struct manual_answer a;
	struct assertion as;
	char *c64 = NULL, *ad64 = NULL, *sig64 = NULL;
	size_t cut;
	int r;

	if (in->len < 1)
		return;
	cut = in->data[0] % in->len;
	if (b64_encode(manualkat_cdh, sizeof(manualkat_cdh), &c64) != ERR_OK ||
	    b64_encode(in->data + 1, cut, &ad64) != ERR_OK ||
	    b64_encode(in->data + 1 + cut, in->len - 1 - cut, &sig64) != ERR_OK)
		goto out;
	a.cdh = c64;
	a.rp_id = MANUALKAT_RP;
	a.authdata = ad64;
	a.sig = sig64;
	memset(&as, 0, sizeof(as));
	FUZZ_CALL(r, manualkat_verify(&a, &manualkat_up, &as));
	check(r, &as);
out:
	free(c64);
	free(ad64);
	free(sig64);
}

static void
pass(void *arg)
{
	const struct input *in = arg;

	as_lines(in);
	as_raw(in);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = {data, len};

	fuzz_run(pass, &in, data, len);
	return 0;
}
