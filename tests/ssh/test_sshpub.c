/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of common/ssh/: key lines (sshpub.c) and the SSHSIG
 * challenge and signature check (sshsig.c), with ssh-keygen's own
 * signatures as known answers (sshsig_kat.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/err.h"
#include "ssh/ssh.h"
#include "ssh/sshsig.h"
#include "ssh/wire.h"
#include "sshsig_kat.h"
#include "test.h"

static void
test_parse_ecdsa(void)
{
	struct sshpub k;

	T_EQ_ERR(sshpub_parse(KEY_ECDSA "\n", &k), ERR_OK);
	T_EQ_INT(k.type, SSHPUB_SK_ECDSA);
	T_EQ_INT(k.pk_len, 65);
	T_EQ_INT(k.pk[0], 0x04);
	T_EQ_STR(k.application, "ssh:");
	T_EQ_STR(k.comment, "ka");
	T_TRUE(!k.no_touch_required && !k.verify_required);
	sshpub_clear(&k);
	T_TRUE(k.blob == NULL && k.application == NULL);
}

static void
test_parse_ed25519(void)
{
	struct sshpub k;

	T_EQ_ERR(sshpub_parse("  " KEY_ED25519, &k), ERR_OK);
	T_EQ_INT(k.type, SSHPUB_SK_ED25519);
	T_EQ_INT(k.pk_len, 32);
	T_EQ_INT(k.blob_len, 4 + 26 + 4 + 32 + 4 + 4);
	sshpub_clear(&k);
}

static void
test_options_honoured(void)
{
	struct sshpub k;

	T_EQ_ERR(sshpub_parse("no-touch-required " KEY_ECDSA, &k), ERR_OK);
	T_TRUE(k.no_touch_required && !k.verify_required);
	sshpub_clear(&k);
	T_EQ_ERR(
	    sshpub_parse("Verify-Required,no-touch-required " KEY_ECDSA, &k),
	    ERR_OK);
	T_TRUE(k.no_touch_required && k.verify_required);
	sshpub_clear(&k);
}

static void
test_options_refused(void)
{
	static const char *const bad[] = {"restrict ", "no-pty ",
	    "from=\"10.0.0.1\" ", "command=\"/bin/true\" ", "cert-authority ",
	    "verify-required,restrict ", "no-touch-required,foo "};
	struct sshpub k;
	char line[1024];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "%s%s", bad[i], KEY_ECDSA);
		T_EQ_ERR(sshpub_parse(line, &k), ERR_CONFIG);
		/* zeroed, the options read before the bad one too */
		T_TRUE(k.blob == NULL && !k.verify_required &&
		    !k.no_touch_required);
	}
	T_EQ_ERR(sshpub_parse(",verify-required " KEY_ECDSA, &k), ERR_PARSE);
	T_EQ_ERR(sshpub_parse("verify-required,, " KEY_ECDSA, &k), ERR_PARSE);
	T_TRUE(!k.verify_required);
}

static void
test_other_types(void)
{
	struct sshpub k;

	T_EQ_ERR(sshpub_parse("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMq"
			      "qnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl x",
		     &k),
	    ERR_UNSUPPORTED);
	T_EQ_ERR(sshpub_parse("webauthn-sk-ecdsa-sha2-nistp256@openssh.com "
			      "AAAA",
		     &k),
	    ERR_UNSUPPORTED);
	T_EQ_ERR(
	    sshpub_parse("verify-required ssh-rsa AAAA", &k), ERR_UNSUPPORTED);
	T_EQ_ERR(sshpub_parse("", &k), ERR_PARSE);
	T_EQ_ERR(sshpub_parse(SSHPUB_ECDSA_NAME, &k), ERR_PARSE);
	T_EQ_ERR(sshpub_parse(SSHPUB_ECDSA_NAME " AAA*", &k), ERR_PARSE);
}

/* KEY_ECDSA's blob, changed by fn, put back in a line of type name. */
static int
parse_changed(const char *name, void (*fn)(struct wire *), struct sshpub *k)
{
	struct sshpub orig;
	struct wire w;
	char *b64 = NULL, line[1024];
	int r;

	if (sshpub_parse(KEY_ECDSA, &orig) != ERR_OK)
		return ERR_INVAL;
	wire_init(&w, 4096);
	wire_put_raw(&w, orig.blob, orig.blob_len);
	fn(&w);
	if (b64_encode(w.p, w.len, &b64) != ERR_OK)
		abort();
	snprintf(line, sizeof(line), "%s %s", name, b64);
	r = sshpub_parse(line, k);
	free(b64);
	wire_clear(&w);
	sshpub_clear(&orig);
	return r;
}

static void
add_byte(struct wire *w)
{
	wire_put_u8(w, 0);
}

static void
off_curve(struct wire *w)
{
	w->p[4 + 34 + 4 + 8 + 4 + 64] ^= 1; /* last byte of y */
}

static void
web_app(struct wire *w)
{
	w->len -= 4 + 4;
	wire_put_cstring(w, "web:");
}

static void
no_change(struct wire *w)
{
	(void)w;
}

static void
test_bad_blobs(void)
{
	struct sshpub k;

	T_EQ_ERR(parse_changed(SSHPUB_ECDSA_NAME, no_change, &k), ERR_OK);
	sshpub_clear(&k);
	T_EQ_ERR(parse_changed(SSHPUB_ECDSA_NAME, add_byte, &k), ERR_PARSE);
	T_EQ_ERR(parse_changed(SSHPUB_ECDSA_NAME, off_curve, &k), ERR_PARSE);
	T_EQ_ERR(parse_changed(SSHPUB_ECDSA_NAME, web_app, &k), ERR_PARSE);
	/* the line's type is not the blob's */
	T_EQ_ERR(parse_changed(SSHPUB_ED25519_NAME, no_change, &k), ERR_PARSE);
}

static void
test_format_round_trip(void)
{
	static const char *const lines[] = {KEY_ECDSA, KEY_ED25519,
	    "no-touch-required " KEY_ECDSA,
	    "no-touch-required,verify-required " KEY_ED25519};
	struct sshpub k;
	char *out = NULL;
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		T_EQ_ERR(sshpub_parse(lines[i], &k), ERR_OK);
		T_EQ_ERR(sshpub_format(&k, &out), ERR_OK);
		if (out != NULL)
			T_EQ_STR(out, lines[i]);
		free(out);
		out = NULL;
		sshpub_clear(&k);
	}
}

/* The signature string of an SSHSIG blob (base64). */
static void
kat_sig(const char *b64, uint8_t **blob, const uint8_t **sig, size_t *len)
{
	struct rbuf rb;
	size_t n, i;
	const uint8_t *p;

	if (b64_decode(b64, strlen(b64), blob, &n) != ERR_OK)
		abort();
	rbuf_init(&rb, *blob, n);
	rbuf_skip(&rb, 6 + 4);
	for (i = 0; i < 4; i++) /* key, namespace, reserved, hash */
		wire_get_string(&rb, &p, len);
	if (wire_get_string(&rb, sig, len) != ERR_OK)
		abort();
}

static int
kat_verify(const char *keyline, const char *sigb64, const char *ns,
    const char *msg, uint8_t *flags, uint32_t *ctr)
{
	struct sshsig_chal c = {0};
	struct sshpub k;
	uint8_t *blob = NULL;
	const uint8_t *sig;
	size_t len;
	int r;

	if (sshpub_parse(keyline, &k) != ERR_OK)
		return ERR_INVAL;
	kat_sig(sigb64, &blob, &sig, &len);
	if ((r = sshsig_data(ns, (const uint8_t *)msg, strlen(msg), &c)) ==
	    ERR_OK)
		r = sshsig_verify(&k, c.data, c.data_len, sig, len, flags, ctr);
	sshsig_chal_clear(&c);
	free(blob);
	sshpub_clear(&k);
	return r;
}

static void
test_ssh_keygen_signatures(void)
{
	uint8_t f = 0;
	uint32_t ctr = 0;

	T_EQ_ERR(kat_verify(KEY_ECDSA, SIG_ECDSA, KAT_NS, KAT_MSG, &f, &ctr),
	    ERR_OK);
	T_EQ_INT(f, 0x01);
	T_EQ_INT(ctr, 0x12345678); /* sk-dummy's fixed counter */
	T_EQ_ERR(
	    kat_verify(KEY_ED25519, SIG_ED25519, KAT_NS, KAT_MSG, &f, &ctr),
	    ERR_OK);
	T_EQ_ERR(kat_verify(KEY_ECDSA, SIG_ECDSA, KAT_NS, "other\n", &f, &ctr),
	    ERR_VERIFY);
	T_EQ_ERR(kat_verify(KEY_ED25519, SIG_ED25519, SSHAUTH_NAMESPACE,
		     KAT_MSG, &f, &ctr),
	    ERR_VERIFY);
	/* a signature of the other key type */
	T_EQ_ERR(kat_verify(KEY_ECDSA, SIG_ED25519, KAT_NS, KAT_MSG, &f, &ctr),
	    ERR_AGENT_REPLY);
}

static void
test_flags(void)
{
	struct sshpub k = {0};

	T_EQ_ERR(sshsig_flags_ok(&k, false, 0x01), ERR_OK);
	T_EQ_ERR(sshsig_flags_ok(&k, false, 0x00), ERR_NO_PRESENCE);
	T_EQ_ERR(sshsig_flags_ok(&k, false, 0x04), ERR_NO_PRESENCE);
	T_EQ_ERR(sshsig_flags_ok(&k, true, 0x01), ERR_NO_UV);
	T_EQ_ERR(sshsig_flags_ok(&k, true, 0x05), ERR_OK);
	k.no_touch_required = true;
	T_EQ_ERR(sshsig_flags_ok(&k, false, 0x00), ERR_OK);
	k.verify_required = true;
	T_EQ_ERR(sshsig_flags_ok(&k, false, 0x01), ERR_NO_UV);
	T_EQ_ERR(sshsig_flags_ok(&k, false, 0x04), ERR_OK);
}

static void
test_challenge(void)
{
	struct sshsig_chal a, b;
	const char tag[] = SSHSIG_MSG_TAG;

	T_EQ_ERR(
	    sshsig_chal_new("alice", "sudo", "host", 1700000000, &a), ERR_OK);
	T_EQ_ERR(
	    sshsig_chal_new("alice", "sudo", "host", 1700000000, &b), ERR_OK);
	/* tag, nonce(32), alice, sudo, host, time */
	T_EQ_INT(
	    a.msg_len, 4 + strlen(tag) + 4 + 32 + 4 + 5 + 4 + 4 + 4 + 4 + 8);
	T_TRUE(a.msg_len == b.msg_len &&
	    memcmp(a.msg, b.msg, a.msg_len) != 0); /* the nonce */
	T_EQ_MEM(a.data, "SSHSIG", 6);
	T_EQ_INT(
	    a.data_len, 6 + 4 + strlen(SSHAUTH_NAMESPACE) + 4 + 4 + 6 + 4 + 64);
	sshsig_chal_clear(&a);
	sshsig_chal_clear(&b);
	T_EQ_ERR(sshsig_chal_new(NULL, "sudo", "host", 0, &a), ERR_INVAL);
}

TEST_MAIN(TEST(test_parse_ecdsa), TEST(test_parse_ed25519),
    TEST(test_options_honoured), TEST(test_options_refused),
    TEST(test_other_types), TEST(test_bad_blobs), TEST(test_format_round_trip),
    TEST(test_ssh_keygen_signatures), TEST(test_flags), TEST(test_challenge))
