/* SPDX-License-Identifier: BSD-2-Clause */
/* Manual mode's known answer for fuzz/fuzz_manual.c and the allocation
 * sweep of fuzz/test_failmalloc.c: the FIDO U2F raw message format's
 * authentication example is a valid manual-mode answer when the rp id is
 * the example's app id (SHA-256 of it is the example's application
 * parameter) and the cdh is the example's challenge. */
#ifndef PU_MANUALKAT_H
#define PU_MANUALKAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "auth/manual.h"

#define MANUALKAT_RP "https://gstatic.com/securitykey/a/example.com"

/* The example's challenge, the cdh the answer must echo. */
extern const uint8_t manualkat_cdh[32];

/* What the answer must show (manual_verify): presence, presence and
 * user verification, nothing. */
extern const struct cred_opts manualkat_up, manualkat_upuv, manualkat_none;

/* manual_verify of the answer in text (the four lines, split at '\n';
 * missing lines are NULL) against the example's challenge and key. */
int manualkat_verify_text(const uint8_t *text, size_t len,
    const struct cred_opts *o, struct assertion *as);
/* The same for an answer already in lines. */
int manualkat_verify(const struct manual_answer *a, const struct cred_opts *o,
    struct assertion *as);

#endif
