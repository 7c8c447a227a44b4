/* SPDX-License-Identifier: BSD-2-Clause */
/* Test seam of pinproto.c: the key agreement with a given private key
 * instead of a fresh one, for known-answer tests and for playing the
 * authenticator's side in round trips. Not for production callers. */
#ifndef PU_PINPROTO_INT_H
#define PU_PINPROTO_INT_H

#include <stdint.h>

#include "pinproto.h"

/* pin_agree with our P-256 private key priv (a big-endian scalar in
 * [1, n-1], else ERR_PARSE); our_x, our_y = priv * G. */
int pin_agree_with(int proto, const uint8_t priv[32], const uint8_t peer_x[32],
    const uint8_t peer_y[32], uint8_t our_x[32], uint8_t our_y[32],
    struct pin_shared *s);

#endif
