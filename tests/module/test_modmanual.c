/* SPDX-License-Identifier: BSD-2-Clause */
/* Manual mode through the real pam_u2f.so and the real libpam, answered
 * by a P-256 key the test holds (mtsign.c): the answer must carry the
 * flags a plugged-in key would be asked for (proto_cred_opts), for every
 * way a credential can ask for them: the mapping line's +presence, +pin
 * and +verification, an SSSD passkey: value from authcmd= (always
 * presence and PIN), and the arguments userpresence=, userverification=
 * and pinverification=. The matrix below lists each case with the
 * authenticator-data flags of the answer (UP 0x01, UV 0x04) and the
 * result; then the command shown, an answer signed for another relying
 * party, and two credentials asking for different flags. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <security/pam_appl.h>

#include "base/b64.h"
#include "base/cred.h"
#include "base/err.h"
#include "modtest.h"
#include "mtmain.h"
#include "mtsign.h"
#include "test.h"

#define ORIGIN "pam://mtest"
#define UP 0x01
#define UV 0x04
/* The debug log's reasons (err_str of ERR_NO_UV, ERR_NO_PRESENCE). */
#define NO_UV "user verification flag not set"
#define NO_UP "user presence flag not set"

/* How the credential reaches the module. */
enum src {
	LINE,    /* alice's mapping file, with the options of flags */
	PASSKEY, /* an SSSD passkey: value, printed by authcmd= */
};

struct mcase {
	const char *what;
	enum src src;
	unsigned flags;   /* CRED_PRESENCE, CRED_PIN, CRED_VERIFICATION */
	const char *args; /* beside origin= and manual */
	uint8_t answer;   /* authData flags of the answer */
	int want;
	const char *why; /* in the debug log when refused; or the command */
};

#define P CRED_PRESENCE
#define PIN CRED_PIN
#define VER CRED_VERIFICATION

static const struct mcase matrix[] = {
    /* presence, as elsewhere */
    {"+presence, UP", LINE, P, "", UP, PAM_SUCCESS, "-G -p $DEVICE"},
    {"+presence, no flags", LINE, P, "", 0, PAM_AUTH_ERR, NO_UP},
    {"no option, no flags", LINE, 0, "", 0, PAM_AUTH_ERR, NO_UP},
    {"userpresence=0, no flags", LINE, 0, "userpresence=0", 0, PAM_SUCCESS,
	"-G $DEVICE"},
    {"+presence wins over userpresence=0", LINE, P, "userpresence=0", 0,
	PAM_AUTH_ERR, NO_UP},
    /* +pin */
    {"+pin, UP only", LINE, P | PIN, "", UP, PAM_AUTH_ERR, NO_UV},
    {"+pin, UP+UV", LINE, P | PIN, "", UP | UV, PAM_SUCCESS,
	"-G -p -v $DEVICE"},
    {"+pin, UV only", LINE, P | PIN, "", UV, PAM_AUTH_ERR, NO_UP},
    {"+pin wins over pinverification=0", LINE, P | PIN, "pinverification=0", UP,
	PAM_AUTH_ERR, NO_UV},
    {"+pin, userpresence=0, UV only", LINE, PIN, "userpresence=0", UV,
	PAM_SUCCESS, "-G -v $DEVICE"},
    {"+pin, userpresence=0, no flags", LINE, PIN, "userpresence=0", 0,
	PAM_AUTH_ERR, NO_UV},
    /* +verification */
    {"+verification, UP only", LINE, P | VER, "", UP, PAM_AUTH_ERR, NO_UV},
    {"+verification, UP+UV", LINE, P | VER, "", UP | UV, PAM_SUCCESS,
	"-G -p -v $DEVICE"},
    {"+verification wins over userverification=0", LINE, P | VER,
	"userverification=0", UP, PAM_AUTH_ERR, NO_UV},
    /* the arguments */
    {"userverification=1, UP only", LINE, P, "userverification=1", UP,
	PAM_AUTH_ERR, NO_UV},
    {"userverification=1, UP+UV", LINE, P, "userverification=1", UP | UV,
	PAM_SUCCESS, "-G -p -v $DEVICE"},
    {"pinverification=1, UP only", LINE, P, "pinverification=1", UP,
	PAM_AUTH_ERR, NO_UV},
    {"pinverification=1, UP+UV", LINE, P, "pinverification=1", UP | UV,
	PAM_SUCCESS, "-G -p -v $DEVICE"},
    {"userverification=0 pinverification=0, UP", LINE, P,
	"userverification=0 pinverification=0", UP, PAM_SUCCESS,
	"-G -p $DEVICE"},
    /* SSSD passkey: values are presence and PIN */
    {"passkey:, UP only", PASSKEY, 0, "", UP, PAM_AUTH_ERR, NO_UV},
    {"passkey:, UP+UV", PASSKEY, 0, "", UP | UV, PAM_SUCCESS,
	"-G -p -v $DEVICE"},
    {"passkey:, userpresence=0, UV only", PASSKEY, 0, "userpresence=0", UV,
	PAM_AUTH_ERR, NO_UP},
    {"passkey:, no flags", PASSKEY, 0, "", 0, PAM_AUTH_ERR, NO_UP},
};

/* The scripted answer: to the k-th challenge shown (0-based), signed by
 * the test's key with the given flags, for sign_rp (NULL: the rp shown). */
struct script {
	struct mt_key *k;
	size_t which;
	const char *sign_rp;
	uint8_t flags;
	char *lines[4];
	int next;
};

/* The k-th info message that is a challenge (not the intro, not a
 * "Challenge N:" line): its cdh and rp lines. */
static int
find_challenge(const char *shown, size_t k, char cdh64[64], char rp[128])
{
	const char *p = shown;
	size_t n = 0;

	while ((p = strstr(p, "I:")) != NULL) {
		if ((p == shown || p[-1] == '\n') &&
		    strncmp(p + 2, "Now ", 4) != 0 &&
		    strncmp(p + 2, "Challenge ", 10) != 0 && n++ == k)
			return sscanf(
				   p + 2, "%63[^\n]\n%127[^\n]", cdh64, rp) == 2
			    ? 0
			    : -1;
		p += 2;
	}
	return -1;
}

static char *
answer(struct mt_conv *cv, const char *prompt)
{
	struct script *s = cv->arg;
	char cdh64[64], rp[128];
	uint8_t *cdh = NULL;
	size_t n = 0;

	(void)prompt;
	if (s->next == 0) {
		if (find_challenge(cv->shown, s->which, cdh64, rp) != 0 ||
		    b64_decode(cdh64, strlen(cdh64), &cdh, &n) != ERR_OK ||
		    n != 32) {
			free(cdh);
			return strdup("");
		}
		(void)mt_answer(s->k, cdh, rp, s->sign_rp ? s->sign_rp : rp,
		    s->flags, 7, s->lines);
		free(cdh);
	}
	if (s->next >= 4 || s->lines[s->next] == NULL)
		return strdup("");
	return strdup(s->lines[s->next++]);
}

/* A credential of the key: key handle filled with b, options flags. */
static void
cred_of(
    struct cred *c, uint8_t *point, uint8_t kh[48], uint8_t b, unsigned flags)
{
	memset(c, 0, sizeof(*c));
	memset(kh, b, 48);
	c->kh = kh;
	c->kh_len = 48;
	c->pk = point;
	c->pk_len = 65;
	c->type = COSE_ES256;
	c->flags = flags;
}

/* "[authcmd=/usr/bin/echo passkey:KH,SPKI] authcmd_user=alice": the
 * passkey: value of c, printed by a root-owned system program run as
 * alice. */
static char *
passkey_args(const struct cred *c)
{
	static const uint8_t spki_p256[26] = {0x30, 0x59, 0x30, 0x13, 0x06,
	    0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a,
	    0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00};
	uint8_t der[sizeof(spki_p256) + 65];
	char *kh64 = NULL, *spki64 = NULL, *out = NULL;

	memcpy(der, spki_p256, sizeof(spki_p256));
	memcpy(der + sizeof(spki_p256), c->pk, 65);
	if (b64_encode(c->kh, c->kh_len, &kh64) == ERR_OK &&
	    b64_encode(der, sizeof(der), &spki64) == ERR_OK &&
	    asprintf(&out,
		"[authcmd=/usr/bin/echo passkey:%s,%s] authcmd_user=%s", kh64,
		spki64, mt.alice.name) < 0)
		out = NULL;
	free(kh64);
	free(spki64);
	return out;
}

/* Run manual mode for alice with creds (their lines, or the first as a
 * passkey: value), answering challenge which with flags. */
static int
run(enum src src, const struct cred *creds, size_t n, const char *args,
    struct script *s, struct mt_conv *cv)
{
	char *line = NULL, *pk = NULL, *all = NULL;
	int i, r = -1;

	memset(cv, 0, sizeof(*cv));
	if (src == PASSKEY) {
		mt_keys(&mt.alice, "");
		if ((pk = passkey_args(&creds[0])) == NULL)
			goto out;
	} else {
		if ((line = mt_line(mt.alice.name, creds, n)) == NULL)
			goto out;
		mt_keys(&mt.alice, line);
	}
	if (asprintf(&all, "origin=" ORIGIN " manual %s %s", args,
		pk != NULL ? pk : "") < 0) {
		all = NULL;
		goto out;
	}
	cv->answer = answer;
	cv->arg = s;
	mt_service("manual", all);
	r = mt_auth("manual", mt.alice.name, cv);
out:
	for (i = 0; i < 4; i++) {
		free(s->lines[i]);
		s->lines[i] = NULL;
	}
	s->next = 0;
	free(line);
	free(pk);
	free(all);
	return r;
}

static void
test_matrix(void)
{
	struct script s;
	struct mt_conv cv;
	struct cred c;
	uint8_t point[65], kh[48];
	size_t i;
	int r;

	memset(&s, 0, sizeof(s));
	T_TRUE((s.k = mt_key_new(point)) != NULL);
	for (i = 0; s.k != NULL && i < sizeof(matrix) / sizeof(matrix[0]);
	     i++) {
		const struct mcase *m = &matrix[i];

		cred_of(&c, point, kh, 0x33, m->flags);
		s.flags = m->answer;
		r = run(m->src, &c, 1, m->args, &s, &cv);
		printf("# %-45s answer %02x: %s\n", m->what, m->answer,
		    r == PAM_SUCCESS ? "accepted" : "refused");
		T_EQ_INT(r, m->want);
		T_EQ_INT(cv.nprompts, 4);
		if (m->want == PAM_SUCCESS) {
			/* The command shown names exactly these flags. */
			char cmd[64];

			snprintf(cmd, sizeof(cmd), "'fido2-assert %s'", m->why);
			T_TRUE(strstr(cv.shown, cmd) != NULL);
			T_TRUE(mt_debug_has("manual: credential 1 verified"));
		} else {
			T_TRUE(mt_debug_has(m->why));
			T_TRUE(!mt_debug_has("manual: credential"));
		}
	}
	mt_key_free(s.k);
}

/* Signed for another relying party: named as not for our challenge. */
static void
test_other_rp(void)
{
	struct script s;
	struct mt_conv cv;
	struct cred c;
	uint8_t point[65], kh[48];

	memset(&s, 0, sizeof(s));
	T_TRUE((s.k = mt_key_new(point)) != NULL);
	cred_of(&c, point, kh, 0x33, P);
	s.flags = UP | UV;
	s.sign_rp = "pam://evil";
	T_EQ_INT(run(LINE, &c, 1, "", &s, &cv), PAM_AUTH_ERR);
	T_TRUE(strstr(cv.shown, "\n" ORIGIN "\n") != NULL);
	T_TRUE(mt_debug_has("not for the challenge shown"));
	T_TRUE(!mt_debug_has("signature verification failed"));
	mt_key_free(s.k);
}

/* Two credentials asking for different flags: each challenge is shown
 * after its own command, and each answer is held to its credential's
 * flags. */
static void
test_mixed(void)
{
	struct script s;
	struct mt_conv cv;
	struct cred c[2];
	uint8_t point[65], kh0[48], kh1[48];

	memset(&s, 0, sizeof(s));
	T_TRUE((s.k = mt_key_new(point)) != NULL);
	cred_of(&c[0], point, kh0, 0x33, P);
	cred_of(&c[1], point, kh1, 0x44, P | PIN);
	s.which = 1;
	s.flags = UP;
	T_EQ_INT(run(LINE, c, 2, "", &s, &cv), PAM_AUTH_ERR);
	T_TRUE(mt_debug_has(NO_UV));
	T_TRUE(strstr(cv.shown,
		   "I:Challenge 1: 'fido2-assert -G -p $DEVICE'\n") != NULL);
	T_TRUE(strstr(cv.shown,
		   "I:Challenge 2: 'fido2-assert -G -p -v $DEVICE'\n") != NULL);
	s.flags = UP | UV;
	T_EQ_INT(run(LINE, c, 2, "", &s, &cv), PAM_SUCCESS);
	T_TRUE(mt_debug_has("manual: credential 2 verified"));
	s.which = 0;
	s.flags = UP;
	T_EQ_INT(run(LINE, c, 2, "", &s, &cv), PAM_SUCCESS);
	T_TRUE(mt_debug_has("manual: credential 1 verified"));
	mt_key_free(s.k);
}

int
main(int argc, char **argv)
{
	static const struct test_case cases[] = {
	    TEST(test_matrix),
	    TEST(test_other_rp),
	    TEST(test_mixed),
	};

	(void)argc;
	return mtmain_run(argv, cases, sizeof(cases) / sizeof(cases[0]));
}
