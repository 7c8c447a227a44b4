/* SPDX-License-Identifier: BSD-2-Clause */
/* The PIN, asked for through the conversation (struct proto_pin for the
 * module): the prompt names the key; a reply that is this login's
 * password (PAM_AUTHTOK) is never sent to a key; a key with
 * PINASK_RETRIES_FLOOR or fewer PIN tries left is not asked. */
#ifndef PU_PINASK_H
#define PU_PINASK_H

#include "callctx.h"
#include "proto/proto.h"

/* pam-u2f's PIN prompt, naming the key (PAM_PROMPT_ECHO_OFF); when the
 * touch follows the PIN, the prompt says so (a front end that drops
 * TEXT_INFO, as sddm does, never shows the cue: pam_u2f(8), DESKTOPS). */
#define PINASK_PROMPT "Please enter the PIN for %s: "
#define PINASK_PROMPT_TOUCH "Please enter the PIN for %s, then touch the key: "
#define PINASK_IS_PASSWORD                                                     \
	"The PIN typed is the password of this login: it was not sent to "     \
	"the security key (each wrong PIN costs one of the key's tries, and "  \
	"8 wrong ones block it for good). Type the key's PIN at its prompt."
/* With this many PIN tries left or fewer, the PIN is not asked for. */
#define PINASK_RETRIES_FLOOR 3

/* The callbacks for call c (which must outlive the operation). */
void pinask_init(struct proto_pin *pin, struct call *c);

#endif
