/* SPDX-License-Identifier: BSD-2-Clause */
/* The two ES256 implementations (common/crypto/crypto.c through EVP,
 * common/crypto/crypto_direct.c without it) on the same input must give the
 * same answer. Input: a 65-byte point, one length byte, that many message
 * bytes, the rest the DER signature. The seeds hold the FIDO U2F
 * authentication example (a valid signature) and variants of it, so
 * mutations explore the DER and range checks around a real solution of
 * the equation. Also the point checks of both, on the 65-byte point and
 * on its last 64 bytes. */
#include "config.h"

#include <string.h>

#include "crypto/crypto.h"
#include "crypto/crypto_int.h"
#include "base/cred.h"
#include "base/err.h"
#include "fuzz.h"

struct input {
	const uint8_t *data;
	size_t len;
};

static int
known(int r)
{
	return r == ERR_OK || r == ERR_VERIFY || r == ERR_PARSE ||
	    r == ERR_CRYPTO || r == ERR_NOMEM;
}

/* Equal answers, unless an allocation was made to fail in this pass. */
static void
agree(int evp, int direct)
{
	FUZZ_CHECK(known(evp) && known(direct));
	if (failmalloc_injected() == FAILMALLOC_NONE)
		FUZZ_CHECK(evp == direct);
}

static int
direct_verify(const uint8_t *pt, const uint8_t *msg, size_t msg_len,
    const uint8_t *sig, size_t sig_len)
{
#if DIRECT_VERIFY
	return crypto_es256_verify_direct(pt, msg, msg_len, sig, sig_len);
#else
	return crypto_verify(COSE_ES256, pt, 65, msg, msg_len, sig, sig_len);
#endif
}

static int
direct_point(const uint8_t *raw, size_t len, uint8_t out[65])
{
#if DIRECT_VERIFY
	return crypto_p256_point_direct(raw, len, out);
#else
	return crypto_p256_point(raw, len, out);
#endif
}

static void
points(const uint8_t pt[65])
{
	uint8_t a[65], b[65];
	int ra, rb, n;

	for (n = 64; n <= 65; n++) {
		memset(a, 0, sizeof(a));
		memset(b, 0, sizeof(b));
		FUZZ_CALL(ra, crypto_p256_point_evp(pt + 65 - n, (size_t)n, a));
		FUZZ_CALL(rb, direct_point(pt + 65 - n, (size_t)n, b));
		agree(ra, rb);
		if (ra == ERR_OK && rb == ERR_OK)
			FUZZ_CHECK(memcmp(a, b, sizeof(a)) == 0);
	}
}

static void
pass(void *arg)
{
	const struct input *in = arg;
	const uint8_t *pt, *msg, *sig;
	size_t msg_len, sig_len;
	int re, rd;

	if (in->len < 66)
		return;
	pt = in->data;
	msg_len = in->data[65];
	if (msg_len > in->len - 66)
		msg_len = in->len - 66;
	msg = in->data + 66;
	sig = msg + msg_len;
	sig_len = in->len - 66 - msg_len;
	FUZZ_CALL(re, crypto_es256_verify_evp(pt, msg, msg_len, sig, sig_len));
	FUZZ_CALL(rd, direct_verify(pt, msg, msg_len, sig, sig_len));
	agree(re, rd);
	points(pt);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = {data, len};

	fuzz_run(pass, &in, data, len);
	return 0;
}
