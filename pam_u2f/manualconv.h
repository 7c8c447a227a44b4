/* SPDX-License-Identifier: BSD-2-Clause */
/* Manual mode through the conversation: show one challenge per credential
 * in the form `fido2-assert -G` reads, read its four output lines back,
 * and verify them (common/auth/manual.c) for the flags each credential
 * asks a plugged-in key for (proto_cred_opts: presence, and user
 * verification for +pin, +verification, passkey: values,
 * userverification=1 and pinverification=1). A missing answer aborts. */
#ifndef PU_MANUALCONV_H
#define PU_MANUALCONV_H

#include "callctx.h"

/* The flags named are those the answer needs (manual_flags): -p for
 * presence, -v for user verification (the PIN). */
#define MANUALCONV_INTRO                                                       \
	"Now please copy-paste the below challenge(s) "                        \
	"to 'fido2-assert -G%s%s $DEVICE', then paste its output."
/* When the credentials need different flags: the intro, then before
 * each challenge its command. */
#define MANUALCONV_INTRO_EACH                                                  \
	"Now please copy-paste one of the below challenges "                   \
	"to the 'fido2-assert' command named before it, then paste its "       \
	"output."
#define MANUALCONV_EACH "Challenge %zu: 'fido2-assert -G%s%s $DEVICE'"

int manualconv_run(struct call *c);

#endif
