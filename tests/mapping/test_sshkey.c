/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of common/mapping/sshkey.c, OpenSSH's sk-ecdsa and
 * sk-ed25519 private key files read as credentials: a serialiser here
 * builds containers field by field (checked against files the real
 * ssh-keygen wrote, tests/mapping/data/), and each test changes one
 * field: flags, application, check integers, the container, the key,
 * key handle limits, every truncation and length, the PEM armour. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/cred.h"
#include "base/err.h"
#include "mapping/sshkey.h"
#include "test.h"

/* The user public key of the FIDO registration example: a real P-256
 * point. */
#define PK_HEX                                                                 \
	"04b174bc49c7ca254b70d2e5c207cee9cf174820ebd77ea3c65508c2"             \
	"6da51b657c1cc6b952f8621697936482da0a6d3d3826a59095daf6cd7c03e2e603"   \
	"85d2f6d9"
#define ECDSA_TYPE "sk-ecdsa-sha2-nistp256@openssh.com"
#define ED25519_TYPE "sk-ssh-ed25519@openssh.com"

/* A growing output buffer for the serialiser below. */
struct wbuf {
	uint8_t *p;
	size_t len;
};

static void
w_bytes(struct wbuf *w, const void *p, size_t n)
{
	uint8_t *np = realloc(w->p, w->len + n + 1);

	if (np == NULL)
		abort();
	if (n > 0)
		memcpy(np + w->len, p, n);
	w->p = np;
	w->len += n;
}

static void
w_u32(struct wbuf *w, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16),
	    (uint8_t)(v >> 8), (uint8_t)v};

	w_bytes(w, b, 4);
}

static void
w_u8(struct wbuf *w, uint8_t v)
{
	w_bytes(w, &v, 1);
}

static void
w_string(struct wbuf *w, const void *p, size_t n)
{
	w_u32(w, (uint32_t)n);
	w_bytes(w, p, n);
}

static void
w_cstring(struct wbuf *w, const char *s)
{
	w_string(w, s, strlen(s));
}

/* Everything a key file holds, so each case can break one thing. */
struct spec {
	const char *type, *priv_type, *curve, *app, *priv_app;
	const char *cipher, *kdf, *kdfopts, *comment;
	uint8_t pk[65], priv_pk[65];
	size_t pk_len;
	uint8_t kh[1100];
	size_t kh_len;
	uint8_t flags;
	uint32_t nkeys, check1, check2;
	int bad_pad, extra_block, trailing_byte;
};

static void
spec_ecdsa(struct spec *s)
{
	uint8_t *pk;
	size_t n, i;

	memset(s, 0, sizeof(*s));
	s->type = s->priv_type = ECDSA_TYPE;
	s->curve = "nistp256";
	s->app = s->priv_app = "ssh:";
	s->cipher = s->kdf = "none";
	s->kdfopts = "";
	s->comment = "alice@host";
	pk = test_unhex(PK_HEX, &n);
	memcpy(s->pk, pk, n);
	memcpy(s->priv_pk, pk, n);
	s->pk_len = n;
	free(pk);
	s->kh_len = 64;
	for (i = 0; i < sizeof(s->kh); i++)
		s->kh[i] = (uint8_t)(i * 7 + 3);
	s->flags = 0x01;
	s->nkeys = 1;
	s->check1 = s->check2 = 0x12345678;
}

static void
spec_ed25519(struct spec *s)
{
	size_t i;

	spec_ecdsa(s);
	s->type = s->priv_type = ED25519_TYPE;
	s->curve = NULL;
	s->pk_len = 32;
	for (i = 0; i < 32; i++)
		s->pk[i] = s->priv_pk[i] = (uint8_t)(i + 1);
	s->pk[0] = s->priv_pk[0] = 0x00; /* a curve point (edpoint_check) */
}

static void
w_pub(struct wbuf *w, const char *type, const char *curve, const uint8_t *pk,
    size_t pk_len, const char *app)
{
	w_cstring(w, type);
	if (curve != NULL)
		w_cstring(w, curve);
	w_string(w, pk, pk_len);
	w_cstring(w, app);
}

/* The private section, padded to 8 bytes (PROTOCOL.key, PROTOCOL.u2f). */
static void
w_priv(struct wbuf *w, const struct spec *s)
{
	uint8_t i;

	w_u32(w, s->check1);
	w_u32(w, s->check2);
	w_pub(w, s->priv_type, s->curve, s->priv_pk, s->pk_len, s->priv_app);
	w_u8(w, s->flags);
	w_string(w, s->kh, s->kh_len);
	w_cstring(w, ""); /* reserved */
	w_cstring(w, s->comment);
	for (i = 1; w->len % 8 != 0; i++)
		w_u8(w, (uint8_t)(s->bad_pad && i == 1 ? 9 : i));
	if (s->extra_block)
		w_bytes(w, "\1\2\3\4\5\6\7\10", 8);
}

/* The binary container. */
static void
serialise(const struct spec *s, struct wbuf *out)
{
	struct wbuf pub = {NULL, 0}, priv = {NULL, 0};

	w_pub(&pub, s->type, s->curve, s->pk, s->pk_len, s->app);
	w_priv(&priv, s);
	w_bytes(out, "openssh-key-v1", 15); /* with its NUL */
	w_cstring(out, s->cipher);
	w_cstring(out, s->kdf);
	w_cstring(out, s->kdfopts);
	w_u32(out, s->nkeys);
	w_string(out, pub.p, pub.len);
	w_string(out, priv.p, priv.len);
	if (s->trailing_byte)
		w_u8(out, 0);
	free(pub.p);
	free(priv.p);
}

/* Armour n bytes the way ssh-keygen does: 70 columns. */
static char *
armour(const uint8_t *p, size_t n, const char *eol)
{
	struct wbuf w = {NULL, 0};
	char *b64;
	size_t i, len;

	if (b64_encode(p, n, &b64) != ERR_OK)
		abort();
	len = strlen(b64);
	w_bytes(&w, "-----BEGIN OPENSSH PRIVATE KEY-----", 35);
	w_bytes(&w, eol, strlen(eol));
	for (i = 0; i < len; i += 70) {
		w_bytes(&w, b64 + i, len - i < 70 ? len - i : 70);
		w_bytes(&w, eol, strlen(eol));
	}
	w_bytes(&w, "-----END OPENSSH PRIVATE KEY-----", 33);
	w_bytes(&w, eol, strlen(eol));
	w.p[w.len] = '\0';
	free(b64);
	return (char *)w.p;
}

static int
parse_spec(const struct spec *s, struct cred *c)
{
	struct wbuf bin = {NULL, 0};
	char *text;
	int r;

	serialise(s, &bin);
	text = armour(bin.p, bin.len, "\n");
	r = sshkey_parse(text, strlen(text), c);
	free(text);
	free(bin.p);
	return r;
}

static void
test_ecdsa(void)
{
	struct spec s;
	struct cred c;

	spec_ecdsa(&s);
	T_EQ_ERR(parse_spec(&s, &c), ERR_OK);
	T_EQ_INT(c.type, COSE_ES256);
	T_EQ_INT(c.flags, CRED_PRESENCE);
	T_EQ_INT(c.kh_len, 64);
	T_EQ_INT(c.pk_len, 65);
	if (c.kh_len == 64 && c.pk_len == 65) {
		T_EQ_MEM(c.kh, s.kh, 64);
		T_EQ_MEM(c.pk, s.pk, 65);
	}
	cred_clear(&c);
}

static void
test_ed25519(void)
{
	struct spec s;
	struct cred c;

	spec_ed25519(&s);
	s.flags = 0x05;
	T_EQ_ERR(parse_spec(&s, &c), ERR_OK);
	T_EQ_INT(c.type, COSE_EDDSA);
	T_EQ_INT(c.flags, CRED_PRESENCE | CRED_VERIFICATION);
	T_EQ_INT(c.pk_len, 32);
	T_EQ_INT(c.kh_len, 64);
	if (c.pk_len == 32)
		T_EQ_MEM(c.pk, s.pk, 32);
	cred_clear(&c);
}

static void
test_flags(void)
{
	static const struct {
		uint8_t ssh;
		unsigned cred;
	} v[] = {
	    {0x00, 0},
	    {0x01, CRED_PRESENCE},
	    {0x04, CRED_VERIFICATION},
	    {0x05, CRED_PRESENCE | CRED_VERIFICATION},
	    {0x21, CRED_PRESENCE}, /* resident bit ignored */
	    {0x20, 0},
	};
	struct spec s;
	struct cred c;
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		spec_ecdsa(&s);
		s.flags = v[i].ssh;
		T_EQ_ERR(parse_spec(&s, &c), ERR_OK);
		T_EQ_INT(c.flags, v[i].cred);
		cred_clear(&c);
	}
}

static void
test_application_must_be_ssh(void)
{
	static const char *apps[] = {"ssh:x", "ssh", "pam://host", "", "SSH:"};
	struct spec s;
	struct cred c;
	size_t i;

	for (i = 0; i < sizeof(apps) / sizeof(apps[0]); i++) {
		spec_ecdsa(&s);
		s.app = s.priv_app = apps[i];
		T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
		T_TRUE(c.kh == NULL && c.pk == NULL);
	}
}

static void
test_checkints(void)
{
	struct spec s;
	struct cred c;

	spec_ecdsa(&s);
	s.check2 = s.check1 + 1;
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
}

static void
test_container_rejects(void)
{
	static const char *comments[] = {
	    "", "a", "ab", "abc", "abcd", "abcde", "abcdef", "abcdefg"};
	struct spec s;
	struct cred c;
	size_t i, bad = 0;
	int r;

	spec_ecdsa(&s);
	s.cipher = "aes256-ctr";
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
	spec_ecdsa(&s);
	s.kdf = "bcrypt";
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
	spec_ecdsa(&s);
	s.kdfopts = "x";
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
	spec_ecdsa(&s);
	s.nkeys = 2;
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
	spec_ecdsa(&s);
	s.nkeys = 0;
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
	spec_ecdsa(&s);
	s.trailing_byte = 1;
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
	/* Wrong padding: of 8 comment lengths, exactly one needs no padding
	 * and still parses. */
	for (i = 0; i < 8; i++) {
		spec_ecdsa(&s);
		s.bad_pad = 1;
		s.comment = comments[i];
		if ((r = parse_spec(&s, &c)) == ERR_PARSE)
			bad++;
		else
			T_EQ_ERR(r, ERR_OK);
		cred_clear(&c);
	}
	T_EQ_INT(bad, 7);
	spec_ecdsa(&s);
	s.extra_block = 1;
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
}

static void
test_key_rejects(void)
{
	struct spec s;
	struct cred c;

	spec_ecdsa(&s);
	s.type = s.priv_type = "ssh-ed25519";
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
	spec_ecdsa(&s);
	s.type = s.priv_type = "ecdsa-sha2-nistp256";
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
	spec_ecdsa(&s);
	s.curve = "nistp384";
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
	spec_ecdsa(&s);
	s.pk[0] = s.priv_pk[0] = 0x02;
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
	spec_ecdsa(&s);
	s.pk_len = 64;
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
	spec_ed25519(&s);
	s.pk_len = 31;
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
	/* The public blob and the private key must describe one key. */
	spec_ecdsa(&s);
	s.priv_pk[10] ^= 1;
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
	spec_ecdsa(&s);
	s.priv_type = ED25519_TYPE;
	s.curve = NULL;
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
}

static void
test_key_handle_limits(void)
{
	struct spec s;
	struct cred c;

	spec_ecdsa(&s);
	s.kh_len = 0;
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
	s.kh_len = 255;
	T_EQ_ERR(parse_spec(&s, &c), ERR_OK);
	T_EQ_INT(c.kh_len, 255);
	cred_clear(&c);
	s.kh_len = 256;
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
	spec_ed25519(&s);
	s.kh_len = 1023;
	T_EQ_ERR(parse_spec(&s, &c), ERR_OK);
	cred_clear(&c);
	s.kh_len = 1024;
	T_EQ_ERR(parse_spec(&s, &c), ERR_PARSE);
}

/* Every truncation, and every length field made huge, fails cleanly. */
static void
test_truncated_and_lengths(void)
{
	struct wbuf bin = {NULL, 0};
	struct spec s;
	struct cred c;
	char *text;
	size_t n, ok = 0;
	uint8_t save[4];
	int r;

	spec_ecdsa(&s);
	serialise(&s, &bin);
	for (n = 0; n < bin.len; n++) {
		text = armour(bin.p, n, "\n");
		if (sshkey_parse(text, strlen(text), &c) != ERR_PARSE)
			T_FAIL_AT("truncated to %zu bytes: not ERR_PARSE", n);
		free(text);
	}
	/* Overwrite each 4-byte window with 0xffffffff: only windows wholly
	 * inside the key handle or the comment may still parse. */
	for (n = 0; n + 4 <= bin.len; n++) {
		memcpy(save, bin.p + n, 4);
		memset(bin.p + n, 0xff, 4);
		text = armour(bin.p, bin.len, "\n");
		r = sshkey_parse(text, strlen(text), &c);
		if (r == ERR_OK)
			ok++;
		else
			T_EQ_ERR(r, ERR_PARSE);
		cred_clear(&c);
		free(text);
		memcpy(bin.p + n, save, 4);
	}
	T_EQ_INT(ok, (s.kh_len - 3) + (strlen(s.comment) - 3));
	text = armour(bin.p, bin.len, "\n");
	T_EQ_ERR(sshkey_parse(text, strlen(text), &c), ERR_OK);
	cred_clear(&c);
	free(text);
	free(bin.p);
}

static void
test_armour(void)
{
	struct wbuf bin = {NULL, 0};
	struct spec s;
	struct cred c;
	char *text, *bad;
	size_t n;

	spec_ecdsa(&s);
	serialise(&s, &bin);
	text = armour(bin.p, bin.len, "\r\n");
	T_EQ_ERR(sshkey_parse(text, strlen(text), &c), ERR_OK);
	cred_clear(&c);
	free(text);
	text = armour(bin.p, bin.len, "\n");
	n = strlen(text);
	/* Without the final newline, and with empty lines after. */
	T_EQ_ERR(sshkey_parse(text, n - 1, &c), ERR_OK);
	cred_clear(&c);
	if ((bad = malloc(n + 16)) == NULL)
		abort();
	snprintf(bad, n + 16, "%s\n\n", text);
	T_EQ_ERR(sshkey_parse(bad, strlen(bad), &c), ERR_OK);
	cred_clear(&c);
	/* Text after the END line, before BEGIN, inside the body. */
	snprintf(bad, n + 16, "%sx\n", text);
	T_EQ_ERR(sshkey_parse(bad, strlen(bad), &c), ERR_PARSE);
	snprintf(bad, n + 16, "x\n%s", text);
	T_EQ_ERR(sshkey_parse(bad, strlen(bad), &c), ERR_PARSE);
	memcpy(bad, text, n + 1);
	bad[40] = ' ';
	T_EQ_ERR(sshkey_parse(bad, n, &c), ERR_PARSE);
	/* No END line. */
	T_EQ_ERR(sshkey_parse(text, n - 34, &c), ERR_PARSE);
	/* A NUL byte. */
	memcpy(bad, text, n + 1);
	bad[50] = '\0';
	T_EQ_ERR(sshkey_parse(bad, n, &c), ERR_PARSE);
	/* Another kind of key file. */
	snprintf(bad, n + 16,
	    "-----BEGIN PRIVATE KEY-----\nAAAA\n"
	    "-----END PRIVATE KEY-----\n");
	T_EQ_ERR(sshkey_parse(bad, strlen(bad), &c), ERR_PARSE);
	T_EQ_ERR(sshkey_parse("", 0, &c), ERR_PARSE);
	free(bad);
	free(text);
	free(bin.p);
}

/* Read tests/mapping/data/NAME from the source tree into a malloc'd buffer. */
static char *
read_fixture(const char *name, size_t *len)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	char *buf;
	FILE *f;
	size_t n;
	int k;

	k = snprintf(path, sizeof(path), "%s/tests/mapping/data/%s",
	    top != NULL ? top : "..", name);
	if (k < 0 || (size_t)k >= sizeof(path) ||
	    (f = fopen(path, "rb")) == NULL) {
		printf("# cannot open %s\n", path);
		return NULL;
	}
	if ((buf = malloc(65536)) == NULL)
		abort();
	n = fread(buf, 1, 65535, f);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Files written by the real ssh-keygen (see tests/mapping/data/README). */
static void
test_ssh_keygen_files(void)
{
	struct cred c;
	uint8_t kh[64], ed[32], *pk;
	size_t len = 0, n, i;
	char *buf;

	for (i = 0; i < sizeof(kh); i++)
		kh[i] = (uint8_t)(0xa0 + i);
	for (i = 0; i < sizeof(ed); i++)
		ed[i] = (uint8_t)(0x10 + i);
	ed[0] = 0x03; /* a curve point (tests/mapping/data/README) */
	pk = test_unhex(PK_HEX, &n);
	buf = read_fixture("sshkey_ecdsa_sk", &len);
	T_TRUE(buf != NULL);
	T_EQ_ERR(sshkey_parse(buf, len, &c), ERR_OK);
	T_EQ_INT(c.type, COSE_ES256);
	T_EQ_INT(c.flags, CRED_PRESENCE);
	T_EQ_INT(c.kh_len, 64);
	T_EQ_INT(c.pk_len, 65);
	if (c.kh_len == 64 && c.pk_len == 65) {
		T_EQ_MEM(c.kh, kh, 64);
		T_EQ_MEM(c.pk, pk, 65);
	}
	cred_clear(&c);
	free(buf);
	buf = read_fixture("sshkey_ed25519_sk", &len);
	T_TRUE(buf != NULL);
	T_EQ_ERR(sshkey_parse(buf, len, &c), ERR_OK);
	T_EQ_INT(c.type, COSE_EDDSA);
	T_EQ_INT(c.flags, CRED_PRESENCE | CRED_VERIFICATION);
	T_EQ_INT(c.kh_len, 64);
	T_EQ_INT(c.pk_len, 32);
	if (c.kh_len == 64 && c.pk_len == 32) {
		T_EQ_MEM(c.kh, kh, 64);
		T_EQ_MEM(c.pk, ed, 32);
	}
	cred_clear(&c);
	free(buf);
	free(pk);
}

/* Our serialiser agrees with ssh-keygen byte for byte (check-ints and
 * comment set to the file's). */
static void
test_serialiser_matches_ssh_keygen(void)
{
	struct wbuf bin = {NULL, 0};
	struct spec s;
	char *buf, *text;
	size_t len = 0, i;

	buf = read_fixture("sshkey_ecdsa_sk", &len);
	T_TRUE(buf != NULL);
	if (buf == NULL)
		return;
	spec_ecdsa(&s);
	for (i = 0; i < 64; i++)
		s.kh[i] = (uint8_t)(0xa0 + i);
	s.comment = "fixture";
	s.check1 = s.check2 = 0xb9ee945a;
	serialise(&s, &bin);
	text = armour(bin.p, bin.len, "\n");
	T_EQ_STR(text, buf);
	free(text);
	free(bin.p);
	free(buf);
}

TEST_MAIN(TEST(test_ecdsa), TEST(test_ed25519), TEST(test_flags),
    TEST(test_application_must_be_ssh), TEST(test_checkints),
    TEST(test_container_rejects), TEST(test_key_rejects),
    TEST(test_key_handle_limits), TEST(test_truncated_and_lengths),
    TEST(test_armour), TEST(test_ssh_keygen_files),
    TEST(test_serialiser_matches_ssh_keygen))
