/* SPDX-License-Identifier: BSD-2-Clause */
/* Manual mode's pure parts: the challenge text fido2-assert -G reads, the
 * flags it is told to ask for, and the checks on what it prints (UP and
 * UV as a credential's options ask), with answers signed by an OpenSSL
 * key. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/err.h"
#include "auth/manual.h"
#include "mtsign.h"
#include "test.h"

#define RP "pam://host"

struct fixture {
	struct mt_key *k;
	uint8_t point[65];
	uint8_t kh[40];
	uint8_t cdh[32];
	struct cred c;
	char *lines[4];
};

static void
fx_init(struct fixture *f, uint8_t flags, const char *sign_rp)
{
	memset(f, 0, sizeof(*f));
	if ((f->k = mt_key_new(f->point)) == NULL)
		abort();
	memset(f->kh, 0xa5, sizeof(f->kh));
	memset(f->cdh, 0x42, sizeof(f->cdh));
	f->c.kh = f->kh;
	f->c.kh_len = sizeof(f->kh);
	f->c.pk = f->point;
	f->c.pk_len = sizeof(f->point);
	f->c.type = COSE_ES256;
	f->c.flags = CRED_PRESENCE;
	if (mt_answer(f->k, f->cdh, RP, sign_rp, flags, 0x01020304, f->lines) !=
	    ERR_OK)
		abort();
}

static void
fx_free(struct fixture *f)
{
	int i;

	for (i = 0; i < 4; i++)
		free(f->lines[i]);
	mt_key_free(f->k);
}

static int
fx_verify_opts(
    struct fixture *f, const struct cred_opts *o, struct assertion *as)
{
	struct manual_answer a = {
	    f->lines[0], f->lines[1], f->lines[2], f->lines[3]};

	return manual_verify(f->cdh, RP, &f->c, o, &a, as);
}

static int
fx_verify(struct fixture *f, bool presence, struct assertion *as)
{
	struct cred_opts o = {presence ? 1 : 0, -1, -1};

	return fx_verify_opts(f, &o, as);
}

static void
test_challenge(void)
{
	struct fixture f;
	char *text = NULL, *cdh64 = NULL, *kh64 = NULL, want[512];

	fx_init(&f, 0x01, RP);
	T_EQ_ERR(manual_challenge(f.cdh, RP, &f.c, &text), ERR_OK);
	T_EQ_ERR(b64_encode(f.cdh, 32, &cdh64), ERR_OK);
	T_EQ_ERR(b64_encode(f.kh, sizeof(f.kh), &kh64), ERR_OK);
	snprintf(want, sizeof(want), "%s\n%s\n%s\n", cdh64, RP, kh64);
	T_EQ_STR(text, want);
	free(text);
	T_EQ_ERR(manual_challenge(f.cdh, "a\nb", &f.c, &text), ERR_INVAL);
	T_TRUE(text == NULL);
	free(cdh64);
	free(kh64);
	fx_free(&f);
}

static void
test_verify_ok(void)
{
	struct fixture f;
	struct assertion as;
	char *padded = NULL;

	fx_init(&f, 0x01, RP);
	T_EQ_ERR(fx_verify(&f, true, &as), ERR_OK);
	T_EQ_INT(as.flags, 0x01);
	T_EQ_INT(as.counter, 0x01020304);
	/* Pasted with a CR and blanks. */
	T_TRUE(asprintf(&padded, "  %s\r\n", f.lines[3]) > 0);
	free(f.lines[3]);
	f.lines[3] = padded;
	T_EQ_ERR(fx_verify(&f, true, &as), ERR_OK);
	fx_free(&f);
}

static void
test_verify_presence(void)
{
	struct fixture f;
	struct assertion as;

	fx_init(&f, 0x00, RP);
	T_EQ_ERR(fx_verify(&f, true, &as), ERR_NO_PRESENCE);
	T_EQ_ERR(fx_verify(&f, false, &as), ERR_OK);
	fx_free(&f);
}

/* The UV flag is needed whenever a key would be asked for the PIN or
 * user verification (cred_opts uv or pin 1), and only then. */
static void
test_verify_uv(void)
{
	static const struct {
		uint8_t flags;
		struct cred_opts o;
		int want;
	} cases[] = {
	    {0x01, {1, 1, -1}, ERR_NO_UV},
	    {0x01, {1, -1, 1}, ERR_NO_UV},
	    {0x01, {1, 1, 1}, ERR_NO_UV},
	    {0x01, {0, 1, -1}, ERR_NO_UV},
	    {0x01, {1, 0, 0}, ERR_OK},
	    {0x01, {1, -1, -1}, ERR_OK},
	    {0x05, {1, 1, -1}, ERR_OK},
	    {0x05, {1, -1, 1}, ERR_OK},
	    {0x04, {0, 1, 1}, ERR_OK},
	    {0x04, {1, 1, 1}, ERR_NO_PRESENCE},
	    {0x00, {0, 1, -1}, ERR_NO_UV},
	};
	struct fixture f;
	struct assertion as;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fx_init(&f, cases[i].flags, RP);
		T_EQ_ERR(fx_verify_opts(&f, &cases[i].o, &as), cases[i].want);
		fx_free(&f);
	}
}

static void
test_flags(void)
{
	static const struct {
		struct cred_opts o;
		const char *want;
	} cases[] = {
	    {{1, -1, -1}, "-p"},
	    {{1, 0, 0}, "-p"},
	    {{1, 1, -1}, "-p -v"},
	    {{1, -1, 1}, "-p -v"},
	    {{0, -1, 1}, "-v"},
	    {{0, 0, -1}, ""},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		T_EQ_STR(manual_flags(&cases[i].o), cases[i].want);
}

static void
test_verify_mismatch(void)
{
	struct fixture f;
	struct assertion as;
	char *s;

	/* authdata hashed for another rp id. */
	fx_init(&f, 0x01, "pam://other");
	T_EQ_ERR(fx_verify(&f, true, &as), ERR_MISMATCH);
	fx_free(&f);
	/* Echoed rp id differs. */
	fx_init(&f, 0x01, RP);
	free(f.lines[1]);
	f.lines[1] = strdup("pam://hostx");
	T_EQ_ERR(fx_verify(&f, true, &as), ERR_MISMATCH);
	fx_free(&f);
	/* Another challenge echoed. */
	fx_init(&f, 0x01, RP);
	f.cdh[0] ^= 1;
	T_EQ_ERR(fx_verify(&f, true, &as), ERR_MISMATCH);
	fx_free(&f);
	/* A flipped flag bit breaks the signature. */
	fx_init(&f, 0x01, RP);
	s = f.lines[2];
	s[strlen(s) - 2] = s[strlen(s) - 2] == 'A' ? 'B' : 'A';
	T_EQ_ERR(fx_verify(&f, true, &as), ERR_VERIFY);
	fx_free(&f);
	/* Another key. */
	fx_init(&f, 0x01, RP);
	f.point[40] ^= 1;
	T_TRUE(fx_verify(&f, true, &as) != ERR_OK);
	fx_free(&f);
}

static void
test_verify_malformed(void)
{
	static const char *const bad_authdata[] = {
	    "", "!!!!", "WCQA", /* 0x58 0x24: 36 bytes announced */
	};
	struct fixture f;
	struct assertion as;
	size_t i;
	int j;

	for (i = 0; i < sizeof(bad_authdata) / sizeof(bad_authdata[0]); i++) {
		fx_init(&f, 0x01, RP);
		free(f.lines[2]);
		f.lines[2] = strdup(bad_authdata[i]);
		T_EQ_ERR(fx_verify(&f, true, &as), ERR_PARSE);
		fx_free(&f);
	}
	for (j = 0; j < 4; j++) {
		fx_init(&f, 0x01, RP);
		free(f.lines[j]);
		f.lines[j] = NULL;
		T_TRUE(fx_verify(&f, true, &as) != ERR_OK);
		fx_free(&f);
	}
	/* Not an es256 credential. */
	fx_init(&f, 0x01, RP);
	f.c.type = COSE_EDDSA;
	T_EQ_ERR(fx_verify(&f, true, &as), ERR_UNSUPPORTED);
	fx_free(&f);
}

static void
test_authdata_trailing(void)
{
	struct fixture f;
	struct assertion as;
	uint8_t *raw = NULL, *ext = NULL;
	size_t n = 0;

	fx_init(&f, 0x01, RP);
	T_EQ_ERR(b64_decode(f.lines[2], strlen(f.lines[2]), &raw, &n), ERR_OK);
	T_EQ_INT(n, 39);
	/* One byte after the CBOR byte string. */
	ext = malloc(n + 1);
	memcpy(ext, raw, n);
	ext[n] = 0;
	free(f.lines[2]);
	T_EQ_ERR(b64_encode(ext, n + 1, &f.lines[2]), ERR_OK);
	T_EQ_ERR(fx_verify(&f, true, &as), ERR_PARSE);
	free(raw);
	free(ext);
	fx_free(&f);
}

TEST_MAIN(TEST(test_challenge), TEST(test_verify_ok),
    TEST(test_verify_presence), TEST(test_verify_uv), TEST(test_flags),
    TEST(test_verify_mismatch), TEST(test_verify_malformed),
    TEST(test_authdata_trailing))
