/* SPDX-License-Identifier: BSD-2-Clause */
/* The conversation rules of pam_u2f(8) (DESKTOPS, "The conversation"),
 * one case each, through the real pam_u2f.so and libpam against CTAP2
 * software tokens, on the virtual clock (feclock.c), with the event log
 * of fe.c (what was asked and shown, in order with the tokens' logs):
 * the keys are found before anything is asked; the PIN is asked once,
 * hidden, naming the key and saying that a touch follows, even with two
 * keys; the cue comes after the PIN, when the key waits, before the
 * touch; no visible prompt but with `interactive`; a conversation that
 * fails, answers nothing or an empty reply ends the login
 * (PAM_CONV_ERR) with nothing more sent to the key. */
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
#include "test.h"
#include "tokenctl.h"

#define CONV_ARGS MT_OK_TIMEOUT " cue"
#define CONV_TOUCH "after:400" /* the touch, in real ms after the wait */
#define CONV_CUE "Please touch the device."

static void
conv_keys(const struct cred *c, size_t n)
{
	char *line = mt_line("alice", c, n);

	mt_keys(&mt.alice, line != NULL ? line : "");
	free(line);
}

/* Was the event at index a before the one at b (both found)? */
static bool
conv_before(const struct fe *f, long a, long b)
{
	if (a >= 0 && b >= 0 && a < b)
		return true;
	printf("# expected event %ld before %ld\n", a, b);
	fe_dump(f);
	return false;
}

/* No key: nothing asked, whatever the credential needs; with a key,
 * it is opened (GetInfo) before the PIN is asked. */
static void
test_keys_first(void)
{
	struct fe f;
	char *line = mtfix_dummy_line("alice", "+pin");
	struct tokenctl t;
	struct cred c;

	mt_keys(&mt.alice, line != NULL ? line : "");
	mt_service("conv-nokey", NODEV " cue pinverification=1");
	memset(&f, 0, sizeof(f));
	T_EQ_INT(fe_auth(&f, "conv-nokey", "alice"), PAM_AUTH_ERR);
	T_EQ_INT(f.nhidden + f.nvisible, 0);
	T_TRUE(fe_find(&f, 'E', "No security key found", 0) >= 0);
	T_EQ_INT(f.nev, 2); /* that error, and it shown */
	T_EQ_INT(fe_ctap2_token(&t, "now", CRED_PIN, &c, NULL, NULL), 0);
	conv_keys(&c, 1);
	mtfix_service_dev("conv-first", &t, CONV_ARGS);
	memset(&f, 0, sizeof(f));
	f.pin = FE_PIN;
	f.toklog[0] = t.log;
	T_EQ_INT(fe_auth(&f, "conv-first", "alice"), PAM_SUCCESS);
	T_TRUE(conv_before(&f, fe_find(&f, 'T', "cbor cmd=04 status=00", 0),
	    fe_find(&f, 'P', "PIN", 0)));
	cred_clear(&c);
	tokenctl_stop(&t);
	free(line);
}

/* One hidden prompt naming the key and the touch; the cue after the
 * PIN, once the key waits, before the touch. */
static void
test_pin_then_cue(void)
{
	struct tokenctl t;
	struct cred c;
	struct fe f;
	char want[300];
	long p, ok, wait, cue, touch;

	T_EQ_INT(fe_ctap2_token(&t, CONV_TOUCH, CRED_PIN, &c, NULL, NULL), 0);
	conv_keys(&c, 1);
	mtfix_service_dev("conv-pin", &t, CONV_ARGS);
	memset(&f, 0, sizeof(f));
	f.pin = FE_PIN;
	f.toklog[0] = t.log;
	T_EQ_INT(fe_auth(&f, "conv-pin", "alice"), PAM_SUCCESS);
	T_EQ_INT(f.nhidden, 1);
	T_EQ_INT(f.nvisible, 0);
	snprintf(want, sizeof(want),
	    "Please enter the PIN for %s, then touch the key: ", t.path);
	p = fe_find(&f, 'P', want, 0);
	ok = fe_find(&f, 'T', "pin ok", 0);
	wait = ok >= 0 ? fe_find(&f, 'T', "keepalive", (size_t)ok) : -1;
	cue = fe_find(&f, 'I', "Please touch the device.", 0);
	touch = fe_find(&f, 'T', ":touch", 0);
	T_TRUE(conv_before(&f, p, ok));
	T_TRUE(conv_before(&f, ok, wait));
	T_TRUE(conv_before(&f, wait, cue));
	T_TRUE(conv_before(&f, cue, touch));
	T_EQ_INT(fe_find(&f, 'I', "", (size_t)cue + 1), -1); /* one cue */
	/* No touch needed (userpresence=0): the prompt does not say one
	 * follows. */
	mtfix_service_dev("conv-nopres", &t, CONV_ARGS " userpresence=0");
	c.flags &= ~(unsigned)CRED_PRESENCE;
	conv_keys(&c, 1);
	memset(&f, 0, sizeof(f));
	f.pin = FE_PIN;
	T_EQ_INT(fe_auth(&f, "conv-nopres", "alice"), PAM_SUCCESS);
	T_TRUE(fe_find(&f, 'P', "Please enter the PIN for ", 0) >= 0);
	T_EQ_INT(fe_find(&f, 'P', "touch", 0), -1);
	cred_clear(&c);
	tokenctl_stop(&t);
}

/* Two keys that need their PIN: the user picks one (a touch, cued), the
 * PIN is asked once, for that key only, and the cue comes again when
 * that key waits for the touch. */
static void
test_pin_once_two_keys(void)
{
	struct tokenctl t[2];
	struct cred c[2];
	struct fe f;
	char args[ARGS_MAX];
	size_t pins;
	long p, ok, cue;

	T_EQ_INT(
	    fe_ctap2_token(&t[0], CONV_TOUCH, CRED_PIN, &c[0], NULL, NULL), 0);
	T_EQ_INT(
	    fe_ctap2_token(&t[1], CONV_TOUCH, CRED_PIN, &c[1], NULL, NULL), 0);
	conv_keys(c, 2);
	snprintf(args, sizeof(args), "origin=" ORIGIN " devices=%s,%s %s",
	    t[0].path, t[1].path, CONV_ARGS);
	mt_service("conv-two", args);
	memset(&f, 0, sizeof(f));
	f.pin = FE_PIN;
	f.toklog[0] = t[0].log;
	f.toklog[1] = t[1].log;
	T_EQ_INT(fe_auth(&f, "conv-two", "alice"), PAM_SUCCESS);
	T_EQ_INT(f.nhidden, 1);
	T_EQ_INT(f.nvisible, 0);
	p = fe_find(&f, 'P', ", then touch the key: ", 0);
	T_TRUE(p >= 0);
	/* the cue for the touch that picks, then again after the PIN */
	T_TRUE(conv_before(&f, fe_find(&f, 'I', CONV_CUE, 0), p));
	ok = p >= 0 ? fe_find(&f, 'T', "pin ok", (size_t)p) : -1;
	cue = ok >= 0 ? fe_find(&f, 'I', CONV_CUE, (size_t)ok) : -1;
	T_TRUE(conv_before(&f, ok, cue));
	T_TRUE(conv_before(
	    &f, cue, cue >= 0 ? fe_find(&f, 'T', ":touch", (size_t)cue) : -1));
	pins = tokenctl_count(&t[0], "pin ") + tokenctl_count(&t[1], "pin ");
	T_EQ_INT(pins, 1);
	if (f.nhidden != 1 || pins != 1)
		fe_dump(&f);
	cred_clear(&c[0]);
	cred_clear(&c[1]);
	tokenctl_stop(&t[0]);
	tokenctl_stop(&t[1]);
}

/* The only visible prompt is interactive's. */
static void
test_visible_only_interactive(void)
{
	struct tokenctl t;
	struct cred c;
	struct fe f;

	T_EQ_INT(fe_ctap2_token(&t, "now", 0, &c, NULL, NULL), 0);
	conv_keys(&c, 1);
	mtfix_service_dev("conv-int", &t, CONV_ARGS " interactive");
	memset(&f, 0, sizeof(f));
	T_EQ_INT(fe_auth(&f, "conv-int", "alice"), PAM_SUCCESS);
	T_EQ_INT(f.nvisible, 1);
	T_EQ_INT(f.nhidden, 0);
	T_TRUE(fe_find(&f, 'V', "Insert your U2F device, then press ENTER.",
		   0) >= 0);
	cred_clear(&c);
	tokenctl_stop(&t);
}

/* What the key saw after event index from: nothing but a cancelled
 * request (status 2d) may follow. */
static size_t
conv_sent_after(const struct fe *f, long from)
{
	size_t i, n = 0;

	for (i = from >= 0 ? (size_t)from : 0; i < f->nev; i++)
		if (f->ev[i].kind == 'T' &&
		    strstr(f->ev[i].text, "=2d") == NULL)
			n++;
	if (n > 0)
		fe_dump(f);
	return n;
}

/* A failed, empty or missing answer at the PIN prompt, or a failed cue:
 * PAM_CONV_ERR, and nothing more sent to the key (no PIN, no touch). */
static void
test_conv_fails(void)
{
	static const enum fe_fault faults[] = {FE_FAULT_FAIL,
	    FE_FAULT_NULL_RESP, FE_FAULT_NULL_REPLY, FE_FAULT_EMPTY};
	struct tokenctl t;
	struct cred c;
	struct fe f;
	size_t i;

	T_EQ_INT(fe_ctap2_token(&t, CONV_TOUCH, CRED_PIN, &c, NULL, NULL), 0);
	conv_keys(&c, 1);
	mtfix_service_dev("conv-fail", &t, CONV_ARGS);
	for (i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
		memset(&f, 0, sizeof(f));
		f.pin = FE_PIN;
		f.fault = faults[i];
		f.fault_style = PAM_PROMPT_ECHO_OFF;
		f.toklog[0] = t.log;
		T_EQ_INT(fe_auth(&f, "conv-fail", "alice"), PAM_CONV_ERR);
		T_TRUE(f.faulted);
		T_EQ_INT(conv_sent_after(&f, fe_find(&f, 'P', "PIN", 0)), 0);
	}
	T_EQ_INT(tokenctl_count(&t, "pin "), 0);
	T_EQ_INT(fe_pin_retries(&t), 8);
	/* The cue cannot be shown: the key stops waiting, untouched. */
	memset(&f, 0, sizeof(f));
	f.pin = FE_PIN;
	f.fault = FE_FAULT_FAIL;
	f.fault_style = PAM_TEXT_INFO;
	f.toklog[0] = t.log;
	T_EQ_INT(fe_auth(&f, "conv-fail", "alice"), PAM_CONV_ERR);
	T_TRUE(f.faulted);
	T_EQ_INT(conv_sent_after(&f, fe_find(&f, 'I', "touch", 0)), 0);
	T_EQ_INT(fe_find(&f, 'T', ":touch", 0), -1);
	cred_clear(&c);
	tokenctl_stop(&t);
}

int
main(int argc, char **argv)
{
	static const struct test_case cases[] = {
	    TEST(test_keys_first),
	    TEST(test_pin_then_cue),
	    TEST(test_pin_once_two_keys),
	    TEST(test_visible_only_interactive),
	    TEST(test_conv_fails),
	};

	(void)argc;
	return mtmain_run(argv, cases, sizeof(cases) / sizeof(cases[0]));
}
