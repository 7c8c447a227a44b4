/* SPDX-License-Identifier: BSD-2-Clause */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "base/b64.h"
#include "crypto/crypto.h"
#include "base/err.h"
#include "mtsign.h"

struct mt_key {
	EVP_PKEY *pkey;
};

struct mt_key *
mt_key_new(uint8_t point[65])
{
	struct mt_key *k = calloc(1, sizeof(*k));
	size_t n = 0;

	if (k == NULL)
		return NULL;
	k->pkey = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	if (k->pkey == NULL ||
	    EVP_PKEY_get_octet_string_param(
		k->pkey, "encoded-pub-key", point, 65, &n) != 1 ||
	    n != 65) {
		mt_key_free(k);
		return NULL;
	}
	return k;
}

void
mt_key_free(struct mt_key *k)
{
	if (k == NULL)
		return;
	EVP_PKEY_free(k->pkey);
	free(k);
}

static int
mt_sign(struct mt_key *k, const uint8_t *msg, size_t len, uint8_t *sig,
    size_t *siglen)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ok;

	ok = ctx != NULL &&
	    EVP_DigestSignInit(ctx, NULL, EVP_sha256(), NULL, k->pkey) == 1 &&
	    EVP_DigestSign(ctx, sig, siglen, msg, len) == 1;
	EVP_MD_CTX_free(ctx);
	return ok ? ERR_OK : ERR_CRYPTO;
}

int
mt_answer(struct mt_key *k, const uint8_t cdh[32], const char *rp_id,
    const char *sign_rp, uint8_t flags, uint32_t counter, char *lines[4])
{
	uint8_t ad[2 + 37], msg[37 + 32], sig[80];
	size_t siglen = sizeof(sig);
	int r;

	memset(lines, 0, 4 * sizeof(*lines));
	ad[0] = 0x58;
	ad[1] = 37;
	if ((r = crypto_sha256(sign_rp, strlen(sign_rp), ad + 2)) != ERR_OK)
		return r;
	ad[34] = flags;
	ad[35] = (uint8_t)(counter >> 24);
	ad[36] = (uint8_t)(counter >> 16);
	ad[37] = (uint8_t)(counter >> 8);
	ad[38] = (uint8_t)counter;
	memcpy(msg, ad + 2, 37);
	memcpy(msg + 37, cdh, 32);
	if ((r = mt_sign(k, msg, sizeof(msg), sig, &siglen)) != ERR_OK)
		return r;
	if ((r = b64_encode(cdh, 32, &lines[0])) != ERR_OK ||
	    (lines[1] = strdup(rp_id)) == NULL ||
	    (r = b64_encode(ad, sizeof(ad), &lines[2])) != ERR_OK ||
	    (r = b64_encode(sig, siglen, &lines[3])) != ERR_OK)
		return r != ERR_OK ? r : ERR_NOMEM;
	return ERR_OK;
}
