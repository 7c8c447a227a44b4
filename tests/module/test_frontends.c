/* SPDX-License-Identifier: BSD-2-Clause */
/* A conformance harness of front ends (issue 29, section 3): the real
 * pam_u2f.so through the real libpam, against a CTAP2 software token
 * whose credential needs the PIN, as five front ends converse (fe.h):
 * gdm (messages queued, each shown for its length x 48 ms of virtual
 * time, replies held until the queue drains), lightdm (shown at once),
 * sddm (TEXT_INFO dropped), a lock screen (swaylock, gtklock: every
 * hidden prompt answered with the password typed) and a user who takes
 * 20 s to type the PIN. For each: what is shown and in what order, the
 * cue shown after the PIN and before the touch (the conversation's log
 * against the token's), a touch within the timeout succeeds, no prompt
 * echoes. The lock screen never spends the key's PIN tries
 * (SECURITY.md: a password is never spent as a PIN attempt). Time is
 * virtual (feclock.c): the tokens run in real time, but no wait of the
 * test is measured on the wall clock. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <security/pam_appl.h>

#include "base/cred.h"
#include "fe.h"
#include "modtest.h"
#include "mtfix.h"
#include "mtmain.h"
#include "pinask.h"
#include "test.h"
#include "tokenctl.h"

/* The touch timeout (virtual: 15 s, less than the slow user's 20 s). */
#define FT_ARGS "timeout=15 cue"
#define FT_TOUCH "after:400" /* the touch, in real ms after the wait */
#define FT_CUE "Please touch the device."
#define FT_PASSWORD "correct horse"
/* The lock screen's password module: pam_exec asks "Password: " and
 * keeps the answer as PAM_AUTHTOK (expose_authtok), as pam_unix would. */
#define FT_PASSWORD_MODULE                                                     \
	"auth required pam_exec.so expose_authtok quiet /bin/dd "              \
	"of=/dev/null status=none\n"

struct ft {
	struct tokenctl t;
	struct cred c;
	struct fe f;
};

static bool
ft_start(struct ft *x, unsigned flags, const char *o1, const char *o2)
{
	char *line;

	memset(x, 0, sizeof(*x));
	if (fe_ctap2_token(&x->t, FT_TOUCH, flags, &x->c, o1, o2) != 0)
		return false;
	line = mt_line("alice", &x->c, 1);
	mt_keys(&mt.alice, line != NULL ? line : "");
	free(line);
	return line != NULL;
}

static void
ft_stop(struct ft *x)
{
	cred_clear(&x->c);
	tokenctl_stop(&x->t);
}

/* Authenticate alice through service as style, the PIN typed. */
static int
ft_run(struct ft *x, enum fe_style style, const char *service)
{
	memset(&x->f, 0, sizeof(x->f));
	x->f.style = style;
	x->f.pin = FE_PIN;
	x->f.password = FT_PASSWORD;
	x->f.toklog[0] = x->t.log;
	return fe_auth(&x->f, service, "alice");
}

/* The PIN prompt (naming the key and the touch), the PIN checked, the
 * key waiting, the cue received, the touch, in this order; one cue;
 * nothing visible. Returns the cue's index. */
static long
ft_order(const struct ft *x)
{
	const struct fe *f = &x->f;
	char want[300];
	long p, ok, wait, cue, touch;

	snprintf(want, sizeof(want), PINASK_PROMPT_TOUCH, x->t.path);
	p = fe_find(f, 'P', want, 0);
	ok = fe_find(f, 'T', "pin ok", 0);
	wait = ok >= 0 ? fe_find(f, 'T', "keepalive", (size_t)ok) : -1;
	cue = fe_find(f, 'I', FT_CUE, 0);
	touch = fe_find(f, 'T', ":touch", 0);
	if (!(p >= 0 && p < ok && ok < wait && wait < cue && cue < touch) ||
	    f->nhidden != 1 || f->nvisible != 0 ||
	    fe_find(f, 'I', "", (size_t)cue + 1) >= 0) {
		fe_dump(f);
		return -1;
	}
	return cue;
}

/* A login as style through service, with the PIN credential: it
 * succeeds, in ft_order's order. Returns the cue's index, or -1. */
static long
ft_pin_login(struct ft *x, enum fe_style style, const char *service)
{
	long cue;

	T_TRUE(ft_start(x, CRED_PIN, NULL, NULL));
	mtfix_service_dev(service, &x->t, FT_ARGS);
	T_EQ_INT(ft_run(x, style, service), PAM_SUCCESS);
	T_TRUE((cue = ft_order(x)) >= 0);
	return cue;
}

/* gdm: the cue is queued behind nothing (the reply to the PIN prompt
 * was held until the queue drained), so it is shown when it arrives,
 * while the key waits. */
static void
test_gdm(void)
{
	struct ft x;
	long cue = ft_pin_login(&x, FE_GDM, "ft-gdm");
	long shown = fe_find(&x.f, 'S', FT_CUE, 0);

	T_TRUE(cue >= 0 && shown > cue);
	if (cue >= 0 && shown >= 0)
		T_EQ_INT(x.f.ev[shown].vt, x.f.ev[cue].vt);
	ft_stop(&x);
}

/* gdm with two PIN keys: the cue for the touch that picks a key is
 * queued; the PIN prompt's reply is held until it has been shown (its
 * length x 48 ms), then typed; the cue after the PIN is shown at once,
 * and the touch's time starts after the held reply. */
static void
test_gdm_queue(void)
{
	struct tokenctl t[2];
	struct cred c[2];
	struct fe f;
	char args[ARGS_MAX], *line;
	long cue1, reply, cue2, shown2;

	T_EQ_INT(
	    fe_ctap2_token(&t[0], FT_TOUCH, CRED_PIN, &c[0], NULL, NULL), 0);
	T_EQ_INT(
	    fe_ctap2_token(&t[1], FT_TOUCH, CRED_PIN, &c[1], NULL, NULL), 0);
	line = mt_line("alice", c, 2);
	mt_keys(&mt.alice, line != NULL ? line : "");
	snprintf(args, sizeof(args), "origin=" ORIGIN " devices=%s,%s %s",
	    t[0].path, t[1].path, FT_ARGS);
	mt_service("ft-gdm2", args);
	memset(&f, 0, sizeof(f));
	f.style = FE_GDM;
	f.pin = FE_PIN;
	f.toklog[0] = t[0].log;
	f.toklog[1] = t[1].log;
	T_EQ_INT(fe_auth(&f, "ft-gdm2", "alice"), PAM_SUCCESS);
	cue1 = fe_find(&f, 'I', FT_CUE, 0);
	reply = fe_find(&f, 'R', "", 0);
	cue2 = reply >= 0 ? fe_find(&f, 'I', FT_CUE, (size_t)reply) : -1;
	shown2 = cue2 >= 0 ? fe_find(&f, 'S', FT_CUE, (size_t)cue2) : -1;
	T_TRUE(cue1 >= 0 && reply > cue1 && shown2 > cue2 && cue2 > reply);
	if (cue1 >= 0 && reply > cue1 && shown2 > cue2 && cue2 > reply) {
		T_EQ_INT(f.ev[reply].vt,
		    f.ev[cue1].vt +
			(int64_t)strlen(FT_CUE) * FE_GDM_MS_PER_CHAR +
			FE_TYPE_MS);
		T_EQ_INT(f.ev[shown2].vt, f.ev[cue2].vt);
	} else
		fe_dump(&f);
	T_EQ_INT(f.nvisible, 0);
	free(line);
	cred_clear(&c[0]);
	cred_clear(&c[1]);
	tokenctl_stop(&t[0]);
	tokenctl_stop(&t[1]);
}

/* lightdm: the cue is shown as it comes. */
static void
test_lightdm(void)
{
	struct ft x;
	long cue = ft_pin_login(&x, FE_LIGHTDM, "ft-lightdm");

	T_EQ_INT(fe_find(&x.f, 'S', FT_CUE, 0), cue + 1);
	ft_stop(&x);
}

/* sddm drops the cue: the PIN prompt is what tells the user to touch. */
static void
test_sddm(void)
{
	struct ft x;

	T_TRUE(ft_pin_login(&x, FE_SDDM, "ft-sddm") >= 0);
	T_EQ_INT(fe_find(&x.f, 'S', "", 0), -1); /* nothing shown */
	T_TRUE(fe_find(&x.f, 'P', ", then touch the key: ", 0) >= 0);
	ft_stop(&x);
}

/* A lock screen's service: the password module, then ours. */
static void
ft_lock_service(const char *name, const struct ft *x)
{
	char args[ARGS_MAX];

	snprintf(args, sizeof(args), "origin=" ORIGIN " devices=%s %s",
	    x->t.path, FT_ARGS);
	mt_service_around(name, FT_PASSWORD_MODULE, args, "");
}

/* A lock screen: the password module first (PAM_AUTHTOK), then ours.
 * The password typed at the PIN prompt is not sent: no PIN check, the
 * tries unchanged, the user told; with a credential without a PIN the
 * touch unlocks; with pam_u2f alone and 3 tries left, nothing is asked
 * or sent. */
static void
test_lock_screen(void)
{
	struct ft x;

	T_TRUE(ft_start(&x, CRED_PIN, NULL, NULL));
	ft_lock_service("ft-lock-pin", &x);
	T_EQ_INT(ft_run(&x, FE_LOCK, "ft-lock-pin"), PAM_AUTH_ERR);
	T_EQ_INT(x.f.nhidden, 2); /* Password:, then the PIN */
	T_EQ_INT(x.f.nvisible, 0);
	T_TRUE(fe_find(&x.f, 'P', "Password", 0) >= 0);
	T_TRUE(fe_find(&x.f, 'S', PINASK_IS_PASSWORD, 0) >= 0);
	T_EQ_INT(tokenctl_count(&x.t, "pin "), 0);
	T_EQ_INT(fe_pin_retries(&x.t), 8);
	if (tokenctl_count(&x.t, "pin ") != 0)
		fe_dump(&x.f);
	ft_stop(&x);
	/* A credential without a PIN: the touch unlocks; cue shown. */
	T_TRUE(ft_start(&x, 0, NULL, NULL));
	ft_lock_service("ft-lock", &x);
	T_EQ_INT(ft_run(&x, FE_LOCK, "ft-lock"), PAM_SUCCESS);
	T_EQ_INT(x.f.nhidden, 1);
	T_EQ_INT(x.f.nvisible, 0);
	T_TRUE(fe_find(&x.f, 'S', FT_CUE, 0) >= 0);
	T_TRUE(fe_find(&x.f, 'I', FT_CUE, 0) < fe_find(&x.f, 'T', ":touch", 0));
	ft_stop(&x);
	/* pam_u2f alone, 3 tries left: no PIN asked, none sent. */
	T_TRUE(ft_start(&x, CRED_PIN, "--pin-retries", "3"));
	mtfix_service_dev("ft-lock-floor", &x.t, FT_ARGS);
	T_EQ_INT(ft_run(&x, FE_LOCK, "ft-lock-floor"), PAM_AUTH_ERR);
	T_EQ_INT(x.f.nhidden + x.f.nvisible, 0);
	T_TRUE(fe_find(&x.f, 'S', "PIN tries left", 0) >= 0);
	T_EQ_INT(tokenctl_count(&x.t, "pin "), 0);
	T_EQ_INT(fe_pin_retries(&x.t), 3);
	ft_stop(&x);
}

/* 20 s to type the PIN, with a 15 s timeout: the touch's time starts
 * once the PIN is given, so the touch still succeeds. */
static void
test_slow_pin(void)
{
	struct ft x;
	long r;

	T_TRUE(ft_pin_login(&x, FE_SLOW, "ft-slow") >= 0);
	r = fe_find(&x.f, 'R', "", 0);
	T_TRUE(r >= 0 && x.f.ev[r].vt >= FE_SLOW_MS);
	T_TRUE(mt_debug_has("PIN given: 15000 ms for the touch from now"));
	ft_stop(&x);
}

int
main(int argc, char **argv)
{
	static const struct test_case cases[] = {
	    TEST(test_gdm),
	    TEST(test_gdm_queue),
	    TEST(test_lightdm),
	    TEST(test_sddm),
	    TEST(test_lock_screen),
	    TEST(test_slow_pin),
	};

	(void)argc;
	return mtmain_run(argv, cases, sizeof(cases) / sizeof(cases[0]));
}
