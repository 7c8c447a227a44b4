/* SPDX-License-Identifier: BSD-2-Clause */
/* The one signature check of a credential's assertion: crypto_verify,
 * with the one switch over the COSE algorithm. ES256 goes to the
 * implementation chosen once per process (crypto_select.c: EVP, or the
 * direct one in a --enable-direct-verify build outside FIPS mode);
 * EdDSA and RS256 to EVP (cosesig.c). Its own file so that a reader
 * looking for "how is a signature checked" finds one place, above both
 * implementations. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crypto.h"
#include "crypto_int.h"
#include "base/cred.h"
#include "base/err.h"
#include "base/util.h"

#define P256_POINT_LEN 65

int
crypto_verify(int alg, const uint8_t *pk, size_t pk_len, const uint8_t *msg,
    size_t msg_len, const uint8_t *sig, size_t sig_len)
{
	const struct crypto_impl *impl;
	uint8_t point[P256_POINT_LEN];
	int r;

	if ((msg == NULL && msg_len > 0) || (sig == NULL && sig_len > 0))
		return ERR_INVAL;
	switch (alg) {
	case COSE_ES256:
		if ((r = crypto_point_form(pk, pk_len, point)) != ERR_OK)
			return r;
		impl = crypto_impl(); /* chosen once per process */
		return impl->es256_verify(point, msg, msg_len, sig, sig_len);
	case COSE_EDDSA:
		return crypto_eddsa_verify(
		    pk, pk_len, msg, msg_len, sig, sig_len);
	case COSE_RS256:
		return crypto_rs256_verify(
		    pk, pk_len, msg, msg_len, sig, sig_len);
	default:
		return ERR_UNSUPPORTED;
	}
}

int
crypto_verify_u2f_auth(const uint8_t point[P256_POINT_LEN],
    const uint8_t app[32], uint8_t flags, uint32_t counter,
    const uint8_t chal[32], const uint8_t *sig, size_t sig_len)
{
	uint8_t msg[32 + 1 + 4 + 32];
	int r;

	if (point == NULL || app == NULL || chal == NULL)
		return ERR_INVAL;
	memcpy(msg, app, 32);
	msg[32] = flags;
	msg[33] = (uint8_t)(counter >> 24);
	msg[34] = (uint8_t)(counter >> 16);
	msg[35] = (uint8_t)(counter >> 8);
	msg[36] = (uint8_t)counter;
	memcpy(msg + 37, chal, 32);
	r = crypto_verify(
	    COSE_ES256, point, P256_POINT_LEN, msg, sizeof(msg), sig, sig_len);
	util_wipe(msg, sizeof(msg));
	return r;
}
