/* SPDX-License-Identifier: BSD-2-Clause */
/* SSSD passkey: values (common/mapping/passkey.c) and authcmd= output
 * (common/mapping/authcmd_output.c), with real SubjectPublicKeyInfos made by
 * OpenSSL (tests/lib/passkeyfix.h). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/cred.h"
#include "base/err.h"
#include "crypto/cosesig.h"
#include "mapping/authcmd_output.h"
#include "mapping/passkey.h"
#include "passkeyfix.h"
#include "test.h"

#define KH_B64 "AAECAwQFBgcICQoLDA0ODw==" /* 00..0f */

static uint8_t *
der_of(const char *b64, size_t *len)
{
	uint8_t *d = NULL;

	if (b64_decode(b64, strlen(b64), &d, len) != ERR_OK)
		abort();
	return d;
}

/* "passkey:" kh "," spki */
static char *
value(const char *kh, const char *spki)
{
	size_t n = strlen(kh) + strlen(spki) + 16;
	char *s = malloc(n);

	if (s == NULL)
		abort();
	snprintf(s, n, "passkey:%s,%s", kh, spki);
	return s;
}

static int
parse_str(const char *s, struct cred *c)
{
	return passkey_parse(s, strlen(s), c);
}

/* The value parses to type, the pk is want (wlen bytes), and the crypto
 * layer takes the key as it takes a mapping line's. */
static void
check_ok(const char *spki, int type, const uint8_t *want, size_t wlen)
{
	uint8_t norm[COSESIG_PK_MAX];
	size_t nlen = 0;
	struct cred c;
	char *v = value(KH_B64, spki);

	T_EQ_ERR(parse_str(v, &c), ERR_OK);
	T_EQ_INT(c.type, type);
	T_EQ_INT(c.flags, CRED_PRESENCE | CRED_PIN);
	T_EQ_INT(c.kh_len, 16);
	T_TRUE(c.kh != NULL && c.kh[0] == 0 && c.kh[15] == 15);
	T_EQ_INT(c.pk_len, wlen);
	if (c.pk_len == wlen)
		T_EQ_MEM(c.pk, want, wlen);
	T_EQ_ERR(crypto_pk_normal(c.type, c.pk, c.pk_len, norm, &nlen), ERR_OK);
	cred_clear(&c);
	free(v);
}

/* The key is the last n bytes of the SPKI (the BIT STRING's end). */
static void
check_tail(const char *spki, int type, size_t n)
{
	size_t len;
	uint8_t *d = der_of(spki, &len);

	check_ok(spki, type, d + len - n, n);
	free(d);
}

static void
test_p256_ed25519(void)
{
	check_tail(SPKI_P256, COSE_ES256, 65);
	check_tail(SPKI_ED25519, COSE_EDDSA, 32);
}

/* rs256 lines keep n (256 bytes) || e (3 bytes). */
static void
test_rsa(void)
{
	uint8_t want[259];
	size_t len;
	uint8_t *d = der_of(SPKI_RSA2048, &len);

	/* ... 02 82 01 01 00 n[256] 02 03 01 00 01 */
	T_EQ_INT(d[len - 5], 0x02);
	memcpy(want, d + len - 5 - 256, 256);
	memcpy(want + 256, "\x01\x00\x01", 3);
	check_ok(SPKI_RSA2048, COSE_RS256, want, sizeof(want));
	free(d);
	d = der_of(SPKI_RSA2048_E3, &len);
	/* ... n[256] 02 01 03: e padded to 00 00 03 */
	T_EQ_INT(d[len - 3], 0x02);
	memcpy(want, d + len - 3 - 256, 256);
	memcpy(want + 256, "\x00\x00\x03", 3);
	check_ok(SPKI_RSA2048_E3, COSE_RS256, want, sizeof(want));
	free(d);
}

static void
check_refused(const char *s)
{
	struct cred c;

	memset(&c, 0xa5, sizeof(c));
	if (passkey_parse(s, strlen(s), &c) != ERR_PARSE)
		T_FAIL_AT("accepted: \"%.80s\"", s);
	T_TRUE(c.kh == NULL && c.pk == NULL && c.kh_len == 0 && c.flags == 0);
}

static void
refused_spki(const char *spki)
{
	char *v = value(KH_B64, spki);

	check_refused(v);
	free(v);
}

/* Keys a FIDO2 credential cannot have, or rs256 lines cannot hold. */
static void
test_other_keys(void)
{
	refused_spki(SPKI_RSA3072);
	refused_spki(SPKI_RSA2047);
	refused_spki(SPKI_P384);
	refused_spki(SPKI_K256);
	refused_spki(SPKI_P256C);
	refused_spki(SPKI_ED448);
}

static void
test_malformed_values(void)
{
	static const char *bad[] = {
	    "",
	    "passkey:",
	    "passkey:,",
	    "passkey:" KH_B64,
	    "passkey:" KH_B64 ",",
	    "passkey:," SPKI_ED25519,
	    "Passkey:" KH_B64 "," SPKI_ED25519,
	    "passkey: " KH_B64 "," SPKI_ED25519,
	    "passkey:" KH_B64 "," SPKI_ED25519 " ",
	    "passkey:" KH_B64 "," SPKI_ED25519 "\r",
	    "passkey:" KH_B64 "," SPKI_ED25519 ",",
	    "passkey:" KH_B64 ",," SPKI_ED25519,
	    "passkey:" KH_B64 "," SPKI_ED25519 "," KH_B64,
	    "passkey:AAECAwQFBgcICQoLDA0ODw," SPKI_ED25519,   /* no padding */
	    "passkey:AAECAwQFBgcICQoLDA0ODw-_," SPKI_ED25519, /* url-safe */
	    "passkey:" KH_B64 "," KH_B64,                     /* not DER */
	    "user:" KH_B64 "," SPKI_ED25519,
	};
	struct cred c;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		check_refused(bad[i]);
	/* A NUL byte inside. */
	T_EQ_ERR(passkey_parse("passkey:AA==\0,AA==", 18, &c), ERR_PARSE);
	T_EQ_ERR(passkey_parse(NULL, 0, &c), ERR_PARSE);
	T_EQ_ERR(passkey_parse(NULL, 1, &c), ERR_INVAL);
	T_EQ_ERR(passkey_parse("x", 1, NULL), ERR_INVAL);
	T_TRUE(passkey_is("passkey:", 8));
	T_TRUE(!passkey_is("passkey", 7));
	T_TRUE(!passkey_is("PASSKEY:x", 9));
}

/* A credential id of n bytes, base64. */
static char *
kh_of(size_t n)
{
	uint8_t *kh = calloc(1, n);
	char *s = NULL;

	if (kh == NULL || b64_encode(kh, n, &s) != ERR_OK)
		abort();
	free(kh);
	return s;
}

static void
kh_case(size_t n, const char *spki, int want)
{
	struct cred c;
	char *kh = kh_of(n), *v = value(kh, spki);

	if (parse_str(v, &c) != want)
		T_FAIL_AT("credential id of %zu bytes: expected %s", n,
		    err_name(want));
	cred_clear(&c);
	free(v);
	free(kh);
}

/* As mapping lines: 255 bytes for P-256 (U2F), 1023 otherwise. */
static void
test_credential_id_limits(void)
{
	kh_case(1, SPKI_P256, ERR_OK);
	kh_case(255, SPKI_P256, ERR_OK);
	kh_case(256, SPKI_P256, ERR_PARSE);
	kh_case(256, SPKI_ED25519, ERR_OK);
	kh_case(1023, SPKI_RSA2048, ERR_OK);
	kh_case(1024, SPKI_ED25519, ERR_PARSE);
	kh_case(3500, SPKI_ED25519, ERR_PARSE); /* over 4096 characters */
}

/* The DER of spki changed by fn, as a value: refused. */
static void
der_case(const char *spki, void (*fn)(uint8_t *, size_t *), const char *what)
{
	size_t len;
	uint8_t *d = der_of(spki, &len), *big = calloc(1, len + 8);
	char *b = NULL, *v;
	struct cred c;

	if (big == NULL)
		abort();
	memcpy(big, d, len);
	fn(big, &len);
	if (b64_encode(big, len, &b) != ERR_OK)
		abort();
	v = value(KH_B64, b);
	if (parse_str(v, &c) != ERR_PARSE) {
		T_FAIL_AT("accepted: %s", what);
		cred_clear(&c);
	}
	free(v);
	free(b);
	free(big);
	free(d);
}

static void
trailing_byte(uint8_t *d, size_t *len)
{
	d[(*len)++] = 0;
}

static void
unused_bits(uint8_t *d, size_t *len)
{
	d[*len - 66] = 1; /* P-256: 03 42 00 04 ... */
}

static void
uncompressed_tag(uint8_t *d, size_t *len)
{
	d[*len - 65] = 0x06; /* hybrid form */
}

static void
outer_long_length(uint8_t *d, size_t *len)
{
	/* 30 59 -> 30 81 59: not minimal */
	memmove(d + 2, d + 1, *len - 1);
	d[1] = 0x81;
	(*len)++;
}

static void
ed_params(uint8_t *d, size_t *len)
{
	/* 30 2a 30 05 06 03 2b 65 70 -> parameters NULL added */
	uint8_t out[64];

	memcpy(out, "\x30\x2c\x30\x07", 4);
	memcpy(out + 4, d + 4, 5);
	memcpy(out + 9, "\x05\x00", 2);
	memcpy(out + 11, d + 9, *len - 9);
	*len += 2;
	memcpy(d, out, *len);
}

static void
rsa_no_null(uint8_t *d, size_t *len)
{
	/* 05 00 -> 04 00 (an empty OCTET STRING for parameters) */
	(void)len;
	d[17] = 0x04;
}

static void
rsa_even_n(uint8_t *d, size_t *len)
{
	d[*len - 6] &= 0xfe; /* n's last byte */
}

static void
test_der_strict(void)
{
	size_t len, i;
	uint8_t *d = der_of(SPKI_P256, &len);
	char *b = NULL, *v;
	struct cred c;

	der_case(SPKI_P256, trailing_byte, "a byte after the SPKI");
	der_case(SPKI_P256, unused_bits, "a BIT STRING with unused bits");
	der_case(SPKI_P256, uncompressed_tag, "a point not starting 04");
	der_case(SPKI_P256, outer_long_length, "a non-minimal length");
	der_case(SPKI_ED25519, ed_params, "Ed25519 with parameters");
	der_case(SPKI_RSA2048, rsa_no_null, "RSA without NULL parameters");
	der_case(SPKI_RSA2048, rsa_even_n, "an even RSA modulus");
	/* Every truncation. */
	for (i = 1; i < len; i++) {
		if (b64_encode(d, i, &b) != ERR_OK)
			abort();
		v = value(KH_B64, b);
		if (parse_str(v, &c) != ERR_PARSE)
			T_FAIL_AT("accepted the first %zu bytes", i);
		free(v);
		free(b);
	}
	free(d);
}

/* A mapping line of alice's with the P-256 key of SPKI_P256. */
static char *
alice_line(void)
{
	size_t len;
	uint8_t *d = der_of(SPKI_P256, &len);
	char *pk = NULL, *s = NULL;

	if (b64_encode(d + len - 64, 64, &pk) != ERR_OK ||
	    asprintf(&s, "alice:" KH_B64 ",%s,es256,+presence", pk) < 0)
		abort();
	free(pk);
	free(d);
	return s;
}

static int
find(const char *buf, struct cred **c, size_t *n, size_t *bad)
{
	return cmdout_find(buf, strlen(buf), "alice", c, n, bad);
}

static void
test_cmdout_mixed(void)
{
	struct cred *c = NULL;
	size_t n = 0, bad = 0;
	char *line = alice_line(), *buf = NULL;

	if (asprintf(&buf,
		"# a comment\n"
		"bob:garbage\n"
		"passkey:" KH_B64 "," SPKI_ED25519 "\r\n"
		"%s\n"
		"\n"
		"passkey:" KH_B64 "," SPKI_RSA2048 "\n",
		line) < 0)
		abort();
	T_EQ_ERR(find(buf, &c, &n, &bad), ERR_OK);
	T_EQ_INT(n, 3);
	if (n == 3) {
		/* The mapping line first, then the passkey: values. */
		T_EQ_INT(c[0].type, COSE_ES256);
		T_EQ_INT(c[0].flags, CRED_PRESENCE);
		T_EQ_INT(c[1].type, COSE_EDDSA);
		T_EQ_INT(c[2].type, COSE_RS256);
		T_EQ_INT(c[2].flags, CRED_PRESENCE | CRED_PIN);
	}
	cred_free_list(c, n);
	free(buf);
	free(line);
}

static void
test_cmdout_none(void)
{
	struct cred *c = NULL;
	size_t n = 9, bad = 9;

	T_EQ_ERR(find("", &c, &n, &bad), ERR_NOT_FOUND);
	T_TRUE(c == NULL && n == 0);
	T_EQ_ERR(find("alice:\n", &c, &n, &bad), ERR_NOT_FOUND);
	T_EQ_ERR(find("# nothing\nbob:\n", &c, &n, &bad), ERR_NOT_FOUND);
	T_EQ_ERR(
	    find("alice:\npasskey:" KH_B64 "," SPKI_P256 "\n", &c, &n, &bad),
	    ERR_OK);
	T_EQ_INT(n, 1);
	cred_free_list(c, n);
}

/* Line numbers count every line of the output. */
static void
test_cmdout_bad(void)
{
	struct cred *c = NULL;
	size_t n = 0, bad = 0;

	T_EQ_ERR(find("# x\npasskey:" KH_B64 "," SPKI_P256 "\npasskey:x,y\n",
		     &c, &n, &bad),
	    ERR_PARSE);
	T_EQ_INT(bad, 3);
	T_TRUE(c == NULL && n == 0);
	T_EQ_ERR(find("passkey:" KH_B64 "," SPKI_P256 "\n\nalice:x,y,es256,\n",
		     &c, &n, &bad),
	    ERR_PARSE);
	T_EQ_INT(bad, 3);
	T_EQ_ERR(find("passkey:" KH_B64 "," SPKI_P256 "\nalice", &c, &n, &bad),
	    ERR_PARSE);
	T_EQ_INT(bad, 2);
	T_EQ_ERR(
	    cmdout_find("bob:\n\0\n", 7, "alice", &c, &n, &bad), ERR_PARSE);
	T_EQ_INT(bad, 2);
	T_EQ_ERR(cmdout_find("x", 1, "a:b", &c, &n, &bad), ERR_INVAL);
}

TEST_MAIN(TEST(test_p256_ed25519), TEST(test_rsa), TEST(test_other_keys),
    TEST(test_malformed_values), TEST(test_credential_id_limits),
    TEST(test_der_strict), TEST(test_cmdout_mixed), TEST(test_cmdout_none),
    TEST(test_cmdout_bad))
