/* SPDX-License-Identifier: BSD-2-Clause */
/* Importing an uncompressed P-256 point as an EVP_PKEY (crypto_ossl.h's
 * crypto_pkey_p256): every ES256 check of the EVP implementation, the
 * point check of enrollment and the PIN protocol's key agreement go
 * through it. Its own file because it holds the second piece of process
 * state of common/crypto/ (crypto_select.c holds the first): the key
 * template below.
 *
 * Building an EVP_PKEY from the group's name creates the P-256 EC_GROUP
 * (field, order, Montgomery contexts, generator: about 0.14 M
 * instructions, more than everything else of an authentication but the
 * ECDSA verification). So the group is created once per process, as a
 * key holding the domain parameters only (p256_tmpl), and each import
 * duplicates it (EVP_PKEY_dup: EC_GROUP_copy, no arithmetic) and sets the
 * point (EVP_PKEY_set1_encoded_public_key: EC_POINT_oct2point, the same
 * decoding and checks as EVP_PKEY_fromdata's; see crypto_pkey_p256).
 *
 * Why a process-wide object, against the rule of no globals: the group
 * is the same constant for every PAM handle, user and thread. The
 * template is written exactly once, under pthread_once, never changed
 * afterwards (EVP_PKEY_dup only reads its source), holds nothing of a
 * user or a transaction (no point, no key), and is never freed:
 * - the module is linked -z nodelete (configure), so libpam's dlclose
 *   at pam_end never unmaps it: one template per process, reachable from
 *   p256_tmpl, which valgrind reports as "still reachable", not as a
 *   leak (a linker without the flag would leave one template, a few
 *   kilobytes, behind at each unload);
 * - it must not be freed at exit: OpenSSL frees its providers in its own
 *   atexit handler (OPENSSL_cleanup), which runs before the destructors
 *   of shared objects, so a destructor of ours would touch freed
 *   provider data. Holding a reference only keeps the key manager alive
 *   until the process ends.
 * If creating the template fails (no memory, no EC key manager), the
 * template stays NULL and every import builds the group itself, as before
 * issue 27: slower, never a different answer. */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/params.h>

#include "crypto_ossl.h"
#include "base/err.h"

#define P256_POINT_LEN 65

/* An EVP_PKEY for P-256 from OSSL_PARAMs into *out: the group's name, and
 * the point when pub is not NULL (selection EVP_PKEY_PUBLIC_KEY), else
 * the domain parameters only (EVP_PKEY_KEY_PARAMETERS). ERR_PARSE when
 * OpenSSL refuses the data, ERR_CRYPTO when it cannot start. */
static int
p256_fromdata(const uint8_t *pub, EVP_PKEY **out)
{
	char group[] = SN_X9_62_prime256v1;
	uint8_t copy[P256_POINT_LEN];
	OSSL_PARAM params[3], *p = params;
	EVP_PKEY_CTX *ctx;
	int r = ERR_CRYPTO;

	*out = NULL;
	*p++ = OSSL_PARAM_construct_utf8_string(
	    OSSL_PKEY_PARAM_GROUP_NAME, group, 0);
	if (pub != NULL) {
		memcpy(copy, pub, sizeof(copy));
		*p++ = OSSL_PARAM_construct_octet_string(
		    OSSL_PKEY_PARAM_PUB_KEY, copy, sizeof(copy));
	}
	*p = OSSL_PARAM_construct_end();
	if ((ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) != NULL &&
	    EVP_PKEY_fromdata_init(ctx) == 1) {
		r = ERR_OK;
		if (EVP_PKEY_fromdata(ctx, out,
			pub != NULL ? EVP_PKEY_PUBLIC_KEY
				    : EVP_PKEY_KEY_PARAMETERS,
			params) != 1) {
			*out = NULL;
			r = ERR_PARSE;
		}
	}
	EVP_PKEY_CTX_free(ctx);
	return r;
}

/* The template: domain parameters of P-256, no key (file header). */
static pthread_once_t p256_once = PTHREAD_ONCE_INIT;
static EVP_PKEY *p256_tmpl;

static void
p256_tmpl_make(void)
{
	if (p256_fromdata(NULL, &p256_tmpl) != ERR_OK)
		p256_tmpl = NULL;
	ERR_clear_error();
}

/* A new key into *out with the template's group and the given point:
 * ERR_PARSE when the point is refused, ERR_CRYPTO when the copy fails. */
static int
p256_from_tmpl(
    const EVP_PKEY *tmpl, const uint8_t point[P256_POINT_LEN], EVP_PKEY **out)
{
	EVP_PKEY *pkey;

	/* EVP_PKEY_dup takes a non-const pointer but only reads it. */
	if ((pkey = EVP_PKEY_dup((EVP_PKEY *)(uintptr_t)tmpl)) == NULL)
		return ERR_CRYPTO;
	if (EVP_PKEY_set1_encoded_public_key(pkey, point, P256_POINT_LEN) !=
	    1) {
		EVP_PKEY_free(pkey);
		return ERR_PARSE;
	}
	*out = pkey;
	return ERR_OK;
}

int
crypto_pkey_p256(const uint8_t point[P256_POINT_LEN], EVP_PKEY **out)
{
	const EVP_PKEY *tmpl = NULL;
	int r;

	*out = NULL;
	/* Only the uncompressed form: the encoded-key setter below would
	 * also take a compressed (02, 03) or hybrid (06, 07) point. */
	if (point[0] != 0x04)
		return ERR_PARSE;
	if (pthread_once(&p256_once, p256_tmpl_make) == 0)
		tmpl = p256_tmpl;
	/* Both paths decode the point with EC_POINT_oct2point, which refuses
	 * a coordinate not below the field prime and a point off the curve
	 * (EC_POINT_set_affine_coordinates checks the curve equation); the
	 * 65-byte 04 form cannot encode the point at infinity. So an import
	 * performs every check of EVP_PKEY_public_check_quick, which was
	 * called afterwards until issue 27. tests/crypto/test_crypto.c
	 * (p256_point_refused) and tests/crypto/test_es256.c (points_agree,
	 * against the direct implementation's explicit checks) hold it to
	 * that. */
	if (tmpl != NULL)
		r = p256_from_tmpl(tmpl, point, out);
	else
		r = p256_fromdata(point, out);
	ERR_clear_error();
	return r;
}

int
crypto_pkey_p256_fresh(const uint8_t point[P256_POINT_LEN], EVP_PKEY **out)
{
	int r;

	*out = NULL;
	if (point[0] != 0x04)
		return ERR_PARSE;
	r = p256_fromdata(point, out);
	ERR_clear_error();
	return r;
}
