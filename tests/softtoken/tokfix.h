/* SPDX-License-Identifier: BSD-2-Clause */
/* Fixtures shared by the software token's unit tests (test_token.c and
 * test_tokhid.c): the challenge and application parameters they send, a
 * token built from a few settings, and extended-length APDUs. */
#ifndef PU_TOKFIX_H
#define PU_TOKFIX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "token.h"

extern const uint8_t tokfix_chal[32];
extern const uint8_t tokfix_app[32];

/* A token with these settings (aborts on failure); free with token_free. */
struct token *tokfix_token(
    enum token_presence p, int after_ms, unsigned faults, FILE *log);

/* Extended-length APDU with Le 00 00 into out; returns its length. */
size_t tokfix_apdu(
    uint8_t *out, uint8_t ins, uint8_t p1, const uint8_t *data, size_t len);

/* The status word at the end of a reply (0 if shorter than 2 bytes). */
unsigned tokfix_sw(const uint8_t *rep, size_t n);

#endif
