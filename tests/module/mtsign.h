/* SPDX-License-Identifier: BSD-2-Clause */
/* A P-256 key made with OpenSSL in the test, and answers in the form
 * fido2-assert -G prints, to test manual mode without a device. */
#ifndef PU_MTSIGN_H
#define PU_MTSIGN_H

#include <stddef.h>
#include <stdint.h>

struct mt_key;

struct mt_key *mt_key_new(uint8_t point[65]);
void mt_key_free(struct mt_key *k);
/* The four lines (malloc'd, no newline) for challenge cdh under rp_id:
 * cdh, rp id, CBOR-wrapped authdata, signature over authdata || cdh.
 * sign_rp is the rp id hashed into authdata (normally rp_id). */
int mt_answer(struct mt_key *k, const uint8_t cdh[32], const char *rp_id,
    const char *sign_rp, uint8_t flags, uint32_t counter, char *lines[4]);

#endif
