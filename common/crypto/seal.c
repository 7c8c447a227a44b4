/* SPDX-License-Identifier: BSD-2-Clause */
/* The crypto of a sealed login secret (seal.h): HKDF-SHA-256 from a
 * security key's hmac-secret output to an AES-256-GCM key, and GCM
 * itself, through OpenSSL's EVP. Its own file because it is the one
 * place the login secret is encrypted or decrypted, apart from the PIN
 * protocols (pinproto.c) whose keys it never shares. Every derived key
 * and partial plaintext is wiped. */
#include "config.h"

#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>

#include "base/err.h"
#include "base/util.h"
#include "seal.h"

#define SEAL_INFO "pam_u2f login secret v1"
#define SEAL_INFO_MAX (sizeof(SEAL_INFO) + 1024)

int
seal_derive(const uint8_t hmac[SEAL_HMAC_LEN], const uint8_t *cred_id,
    size_t cred_id_len, uint8_t key[SEAL_KEY_LEN])
{
	uint8_t info[SEAL_INFO_MAX];
	OSSL_PARAM params[4];
	EVP_KDF *kdf = NULL;
	EVP_KDF_CTX *kctx = NULL;
	int r = ERR_CRYPTO;

	if (cred_id_len == 0 || cred_id_len > SEAL_INFO_MAX - sizeof(SEAL_INFO))
		return ERR_INVAL;
	memcpy(info, SEAL_INFO, sizeof(SEAL_INFO)); /* with its NUL */
	memcpy(info + sizeof(SEAL_INFO), cred_id, cred_id_len);
	params[0] = OSSL_PARAM_construct_utf8_string(
	    OSSL_KDF_PARAM_DIGEST, (char *)(uintptr_t) "SHA256", 0);
	params[1] = OSSL_PARAM_construct_octet_string(
	    OSSL_KDF_PARAM_KEY, (void *)(uintptr_t)hmac, SEAL_HMAC_LEN);
	params[2] = OSSL_PARAM_construct_octet_string(
	    OSSL_KDF_PARAM_INFO, info, sizeof(SEAL_INFO) + cred_id_len);
	params[3] = OSSL_PARAM_construct_end();
	if ((kdf = EVP_KDF_fetch(NULL, "HKDF", NULL)) != NULL &&
	    (kctx = EVP_KDF_CTX_new(kdf)) != NULL &&
	    EVP_KDF_derive(kctx, key, SEAL_KEY_LEN, params) == 1)
		r = ERR_OK;
	else
		util_wipe(key, SEAL_KEY_LEN);
	EVP_KDF_CTX_free(kctx);
	EVP_KDF_free(kdf);
	ERR_clear_error();
	return r;
}

/* A GCM context for key and nonce, with aad fed in. */
static EVP_CIPHER_CTX *
gcm_ctx(int enc, const uint8_t key[SEAL_KEY_LEN],
    const uint8_t nonce[SEAL_NONCE_LEN], const uint8_t *aad, size_t aad_len)
{
	EVP_CIPHER_CTX *ctx;
	int n = 0;

	if ((ctx = EVP_CIPHER_CTX_new()) == NULL)
		return NULL;
	if (EVP_CipherInit_ex(ctx, EVP_aes_256_gcm(), NULL, NULL, NULL, enc) !=
		1 ||
	    EVP_CIPHER_CTX_ctrl(
		ctx, EVP_CTRL_GCM_SET_IVLEN, SEAL_NONCE_LEN, NULL) != 1 ||
	    EVP_CipherInit_ex(ctx, NULL, NULL, key, nonce, enc) != 1 ||
	    aad_len > INT32_MAX ||
	    (aad_len > 0 &&
		EVP_CipherUpdate(ctx, NULL, &n, aad, (int)aad_len) != 1)) {
		EVP_CIPHER_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

int
seal_encrypt(const uint8_t key[SEAL_KEY_LEN],
    const uint8_t nonce[SEAL_NONCE_LEN], const uint8_t *aad, size_t aad_len,
    const uint8_t *pt, size_t len, uint8_t *out, size_t cap, size_t *out_len)
{
	EVP_CIPHER_CTX *ctx;
	int n = 0, m = 0, r = ERR_CRYPTO;

	if (len > INT32_MAX - SEAL_TAG_LEN)
		return ERR_TOO_BIG;
	if (cap < len + SEAL_TAG_LEN)
		return ERR_TOO_BIG;
	if ((ctx = gcm_ctx(1, key, nonce, aad, aad_len)) == NULL)
		goto out;
	if (EVP_CipherUpdate(ctx, out, &n, pt, (int)len) != 1 ||
	    EVP_CipherFinal_ex(ctx, out + n, &m) != 1 ||
	    (size_t)(n + m) != len ||
	    EVP_CIPHER_CTX_ctrl(
		ctx, EVP_CTRL_GCM_GET_TAG, SEAL_TAG_LEN, out + len) != 1) {
		util_wipe(out, cap);
		goto out;
	}
	*out_len = len + SEAL_TAG_LEN;
	r = ERR_OK;
out:
	EVP_CIPHER_CTX_free(ctx);
	ERR_clear_error();
	return r;
}

int
seal_decrypt(const uint8_t key[SEAL_KEY_LEN],
    const uint8_t nonce[SEAL_NONCE_LEN], const uint8_t *aad, size_t aad_len,
    const uint8_t *in, size_t in_len, uint8_t *out, size_t cap, size_t *out_len)
{
	uint8_t tag[SEAL_TAG_LEN];
	EVP_CIPHER_CTX *ctx;
	size_t len;
	int n = 0, m = 0, r = ERR_CRYPTO;

	*out_len = 0;
	if (in_len < SEAL_TAG_LEN || in_len > INT32_MAX)
		return ERR_PARSE;
	len = in_len - SEAL_TAG_LEN;
	if (cap < len)
		return ERR_TOO_BIG;
	memcpy(tag, in + len, SEAL_TAG_LEN);
	if ((ctx = gcm_ctx(0, key, nonce, aad, aad_len)) == NULL)
		goto out;
	if (EVP_CipherUpdate(ctx, out, &n, in, (int)len) != 1 ||
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, SEAL_TAG_LEN, tag) !=
		1)
		goto wipe;
	if (EVP_CipherFinal_ex(ctx, out + n, &m) != 1) {
		r = ERR_VERIFY;
		goto wipe;
	}
	*out_len = (size_t)(n + m);
	r = ERR_OK;
	goto out;
wipe:
	util_wipe(out, cap);
out:
	EVP_CIPHER_CTX_free(ctx);
	ERR_clear_error();
	return r;
}
