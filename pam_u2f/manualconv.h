/* Manual mode through the conversation: show one challenge per credential
 * in the form `fido2-assert -G` reads, read its four output lines back,
 * and verify them (common/manual.c). A missing answer aborts. */
#ifndef PU_MANUALCONV_H
#define PU_MANUALCONV_H

#include "callctx.h"

#define MANUALCONV_INTRO                                                       \
	"Now please copy-paste the below challenge(s) "                        \
	"to 'fido2-assert -G%s $DEVICE', then paste its output."

int manualconv_run(struct call *c);

#endif
