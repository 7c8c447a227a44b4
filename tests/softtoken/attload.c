/* SPDX-License-Identifier: BSD-2-Clause */
/* --attest-key, --attest-chain and --forge-aaguid: the token attests with
 * a key and certificate chain made by a test CA (tests/policy/mkca.sh)
 * instead of its self-signed certificate, and may claim another AAGUID in
 * authData than its certificate's. Its own file so that token.c keeps
 * its own keys, and the attestation policy's tests have one place that
 * says what the token was given. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "base/err.h"
#include "ctap2.h"
#include "token_int.h"

/* The PEM private key (P-256) at path. */
static int
load_key(const char *path, EVP_PKEY **out)
{
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return ERR_FILE;
	*out = PEM_read_PrivateKey(f, NULL, NULL, NULL);
	fclose(f);
	if (*out == NULL || !EVP_PKEY_is_a(*out, "EC")) {
		EVP_PKEY_free(*out);
		*out = NULL;
		return ERR_PARSE;
	}
	return ERR_OK;
}

/* DER of x into *der (malloc'd), at most max bytes. */
static int
to_der(X509 *x, size_t max, uint8_t **der, size_t *len)
{
	unsigned char *buf = NULL;
	int n;

	if ((n = i2d_X509(x, &buf)) <= 0 || (size_t)n > max) {
		OPENSSL_free(buf);
		return ERR_TOO_BIG;
	}
	if ((*der = malloc((size_t)n)) == NULL) {
		OPENSSL_free(buf);
		return ERR_NOMEM;
	}
	memcpy(*der, buf, (size_t)n);
	*len = (size_t)n;
	OPENSSL_free(buf);
	return ERR_OK;
}

/* The certificates at path: the first is the leaf (t->cert, which must
 * hold the key's public half), the others go into x5c after it. */
static int
load_chain(struct token *t, const char *path)
{
	FILE *f = fopen(path, "r");
	X509 *x = NULL;
	size_t n = 0;
	int r = ERR_OK;

	if (f == NULL)
		return ERR_FILE;
	while (
	    r == ERR_OK && (x = PEM_read_X509(f, NULL, NULL, NULL)) != NULL) {
		if (n == 0 && X509_check_private_key(x, t->att) != 1)
			r = ERR_MISMATCH;
		else if (n == 0) {
			free(t->cert);
			t->cert = NULL;
			r = to_der(x, CERT_MAX, &t->cert, &t->cert_len);
		} else if (n - 1 >= TOKEN_X5C_MAX)
			r = ERR_TOO_BIG;
		else if ((r = to_der(x, CTAP2_REPLY_MAX / 4, &t->x5c[n - 1],
			      &t->x5c_len[n - 1])) == ERR_OK)
			t->nx5c = n;
		X509_free(x);
		n++;
	}
	fclose(f);
	ERR_clear_error();
	return r == ERR_OK && n == 0 ? ERR_PARSE : r;
}

int
token_attest_load(struct token *t, const struct token_config *cfg)
{
	EVP_PKEY *key = NULL;
	int r;

	memcpy(t->ad_aaguid, ctap2_aaguid, sizeof(t->ad_aaguid));
	if (cfg->forge_aaguid != NULL)
		memcpy(t->ad_aaguid, cfg->forge_aaguid, sizeof(t->ad_aaguid));
	if (cfg->attest_key == NULL && cfg->attest_chain == NULL)
		return ERR_OK;
	if (cfg->attest_key == NULL || cfg->attest_chain == NULL)
		return ERR_INVAL;
	if ((r = load_key(cfg->attest_key, &key)) != ERR_OK)
		return r;
	EVP_PKEY_free(t->att);
	t->att = key;
	return load_chain(t, cfg->attest_chain);
}

void
token_attest_clear(struct token *t)
{
	size_t i;

	for (i = 0; i < t->nx5c; i++)
		free(t->x5c[i]);
	t->nx5c = 0;
}
