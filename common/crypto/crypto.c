/* SPDX-License-Identifier: BSD-2-Clause */
/* The EVP implementation of SHA-256, P-256 point checks and ES256
 * verification, the U2F registration check, and certificate measuring,
 * through OpenSSL 3's EVP, OSSL_PARAM and d2i interfaces, with the
 * OpenSSL-typed helpers the other files of common/crypto/ share
 * (crypto_ossl.h). The layer's OpenSSL ground floor: cosesig.c and
 * pinproto.c build on it.
 *
 * SHA-256, SHA-512, P-256 point checks and ES256 verification have a
 * second implementation in crypto_direct.c, without EVP. crypto_sha256,
 * crypto_sha512 and crypto_p256_point at the end of this file, and
 * crypto_verify
 * (verify.c), use the one chosen once per process (crypto_select.c): the
 * direct one only when it is built (DIRECT_VERIFY: configure
 * --enable-direct-verify) and the kernel is not in FIPS mode; the default
 * is EVP, under the host's OpenSSL policy. In such a build both are
 * compiled and tested against each other (crypto_int.h). */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/x509.h>

#include "crypto.h"
#include "crypto_int.h"
#include "crypto_ossl.h"
#include "base/err.h"
#include "base/util.h"

#define P256_COORD_LEN 32
#define P256_POINT_LEN (1 + 2 * P256_COORD_LEN)
#define U2F_REG_KH_MAX 255
#define SUBJECT_MAX 4096 /* a longer subject line is not worth showing */

/* One EVP digest of n bytes into out; out wiped on failure. */
static int
evp_digest(
    const EVP_MD *md, size_t n, const void *data, size_t len, uint8_t *out)
{
	unsigned int got = 0;

	if ((data == NULL && len > 0) || out == NULL)
		return ERR_INVAL;
	if (EVP_Digest(data, len, out, &got, md, NULL) != 1 || got != n) {
		ERR_clear_error();
		util_wipe(out, n);
		return ERR_CRYPTO;
	}
	return ERR_OK;
}

int
crypto_sha256_evp(const void *data, size_t len, uint8_t out[CRYPTO_SHA256_LEN])
{
	return evp_digest(EVP_sha256(), CRYPTO_SHA256_LEN, data, len, out);
}

int
crypto_sha512_evp(const void *data, size_t len, uint8_t out[CRYPTO_SHA512_LEN])
{
	return evp_digest(EVP_sha512(), CRYPTO_SHA512_LEN, data, len, out);
}

int
crypto_x509_parse(const uint8_t *p, size_t len, X509 **out)
{
	const unsigned char *q = p;
	X509 *x = NULL;
	int r = ERR_PROTO;

	*out = NULL;
	if (p == NULL || len == 0 || len > LONG_MAX)
		return ERR_PROTO;
	if ((x = d2i_X509(NULL, &q, (long)len)) == NULL)
		goto fail;
	if ((size_t)(q - p) != len)
		goto fail;
	*out = x;
	x = NULL;
	r = ERR_OK;
fail:
	X509_free(x);
	ERR_clear_error();
	return r;
}

int
crypto_cert_len(const uint8_t *p, size_t len, size_t *cert_len)
{
	const unsigned char *q = p;
	X509 *x = NULL;
	int r = ERR_PROTO;

	if (cert_len == NULL)
		return ERR_INVAL;
	*cert_len = 0;
	if (p == NULL || len == 0)
		return ERR_PROTO;
	if (len > LONG_MAX)
		len = LONG_MAX;
	if ((x = d2i_X509(NULL, &q, (long)len)) == NULL)
		goto fail;
	if (q <= p || (size_t)(q - p) > len)
		goto fail;
	*cert_len = (size_t)(q - p);
	r = ERR_OK;
fail:
	X509_free(x);
	ERR_clear_error();
	return r;
}

/* Copy the contents of a memory BIO into a new NUL-terminated string. */
static int
bio_to_string(BIO *bio, char **out)
{
	char *data = NULL, *s = NULL;
	long n;

	n = BIO_get_mem_data(bio, &data);
	if (n < 0 || n > SUBJECT_MAX || (n > 0 && data == NULL))
		return ERR_CRYPTO;
	if ((s = malloc((size_t)n + 1)) == NULL)
		return ERR_NOMEM;
	if (n > 0)
		memcpy(s, data, (size_t)n);
	s[n] = '\0';
	if (strlen(s) != (size_t)n) {
		free(s);
		return ERR_CRYPTO;
	}
	*out = s;
	return ERR_OK;
}

int
crypto_cert_subject(const uint8_t *cert, size_t len, char **subject)
{
	X509 *x = NULL;
	BIO *bio = NULL;
	X509_NAME *name;
	int r;

	if (subject == NULL)
		return ERR_INVAL;
	*subject = NULL;
	if ((r = crypto_x509_parse(cert, len, &x)) != ERR_OK)
		goto fail;
	r = ERR_CRYPTO;
	if ((name = X509_get_subject_name(x)) == NULL ||
	    (bio = BIO_new(BIO_s_mem())) == NULL)
		goto fail;
	/* RFC 2253 flags escape control characters: the result is one line. */
	if (X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253) < 0)
		goto fail;
	r = bio_to_string(bio, subject);
fail:
	BIO_free(bio);
	X509_free(x);
	ERR_clear_error();
	return r;
}

int
crypto_point_form(const uint8_t *raw, size_t len, uint8_t tmp[65])
{
	if (raw == NULL)
		return ERR_PARSE;
	if (len == P256_POINT_LEN - 1) {
		tmp[0] = 0x04;
		memcpy(tmp + 1, raw, len);
	} else if (len == P256_POINT_LEN && raw[0] == 0x04)
		memcpy(tmp, raw, len);
	else
		return ERR_PARSE;
	return ERR_OK;
}

int
crypto_p256_point_evp(const uint8_t *raw, size_t len, uint8_t point[65])
{
	uint8_t tmp[P256_POINT_LEN];
	EVP_PKEY *pkey = NULL;
	int r;

	if (point == NULL)
		return ERR_INVAL;
	if ((r = crypto_point_form(raw, len, tmp)) != ERR_OK)
		return r;
	if ((r = crypto_pkey_p256(tmp, &pkey)) != ERR_OK)
		return r;
	EVP_PKEY_free(pkey);
	memcpy(point, tmp, sizeof(tmp));
	return ERR_OK;
}

int
crypto_pkey_verify(EVP_PKEY *pkey, const char *md, const uint8_t *msg,
    size_t msg_len, const uint8_t *sig, size_t sig_len)
{
	EVP_MD_CTX *mctx = NULL;
	int r = ERR_CRYPTO, ok;

	if (sig == NULL || sig_len == 0) {
		r = ERR_VERIFY;
		goto fail;
	}
	if ((mctx = EVP_MD_CTX_new()) == NULL)
		goto fail;
	if (EVP_DigestVerifyInit_ex(mctx, NULL, md, NULL, NULL, pkey, NULL) !=
	    1)
		goto fail;
	ok = EVP_DigestVerify(mctx, sig, sig_len, msg, msg_len);
	r = ok == 1 ? ERR_OK : ERR_VERIFY;
fail:
	EVP_MD_CTX_free(mctx);
	ERR_clear_error();
	return r;
}

int
crypto_es256_verify_evp(const uint8_t point[65], const uint8_t *msg,
    size_t msg_len, const uint8_t *sig, size_t sig_len)
{
	EVP_PKEY *pkey = NULL;
	int r;

	if (point == NULL || (msg == NULL && msg_len > 0))
		return ERR_INVAL;
	if ((r = crypto_pkey_p256(point, &pkey)) != ERR_OK)
		return r;
	r = crypto_pkey_verify(pkey, "SHA256", msg, msg_len, sig, sig_len);
	EVP_PKEY_free(pkey);
	return r;
}

int
crypto_pkey_is_p256(EVP_PKEY *pkey)
{
	char group[64];
	size_t n = 0;

	if (!EVP_PKEY_is_a(pkey, "EC"))
		return ERR_VERIFY;
	if (EVP_PKEY_get_utf8_string_param(pkey, OSSL_PKEY_PARAM_GROUP_NAME,
		group, sizeof(group), &n) != 1) {
		ERR_clear_error();
		return ERR_VERIFY;
	}
	if (strcmp(group, SN_X9_62_prime256v1) != 0)
		return ERR_VERIFY;
	return ERR_OK;
}

int
crypto_verify_u2f_register(const uint8_t *cert, size_t cert_len,
    const uint8_t app[32], const uint8_t chal[32], const uint8_t *kh,
    size_t kh_len, const uint8_t point[65], const uint8_t *sig, size_t sig_len)
{
	uint8_t msg[1 + 2 * 32 + U2F_REG_KH_MAX + P256_POINT_LEN];
	size_t n = 0;
	X509 *x = NULL;
	EVP_PKEY *pkey;
	int r;

	if (app == NULL || chal == NULL || point == NULL ||
	    (kh == NULL && kh_len > 0) || kh_len > U2F_REG_KH_MAX)
		return ERR_INVAL;
	if ((r = crypto_x509_parse(cert, cert_len, &x)) != ERR_OK)
		goto fail;
	if ((pkey = X509_get0_pubkey(x)) == NULL) {
		r = ERR_PROTO;
		goto fail;
	}
	if ((r = crypto_pkey_is_p256(pkey)) != ERR_OK)
		goto fail;
	msg[n++] = 0x00;
	memcpy(msg + n, app, 32);
	n += 32;
	memcpy(msg + n, chal, 32);
	n += 32;
	if (kh_len > 0)
		memcpy(msg + n, kh, kh_len);
	n += kh_len;
	memcpy(msg + n, point, P256_POINT_LEN);
	n += P256_POINT_LEN;
	r = crypto_pkey_verify(pkey, "SHA256", msg, n, sig, sig_len);
fail:
	util_wipe(msg, sizeof(msg));
	X509_free(x);
	ERR_clear_error();
	return r;
}

/* The public entry points of the two implementations: the one chosen
 * for this process (crypto_select.c). */
int
crypto_sha256(const void *data, size_t len, uint8_t out[CRYPTO_SHA256_LEN])
{
	return crypto_impl()->sha256(data, len, out);
}

int
crypto_sha512(const void *data, size_t len, uint8_t out[CRYPTO_SHA512_LEN])
{
	return crypto_impl()->sha512(data, len, out);
}

int
crypto_p256_point(const uint8_t *raw, size_t len, uint8_t point[65])
{
	return crypto_impl()->p256_point(raw, len, point);
}
