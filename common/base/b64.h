/* SPDX-License-Identifier: BSD-2-Clause */
/* Base64: standard (RFC 4648 section 4, with padding) and URL-safe
 * (section 5, without padding), and hex. Decoders are exact: any character
 * outside the alphabet, bad padding or non-zero trailing bits is ERR_PARSE. */
#ifndef PU_B64_H
#define PU_B64_H

#include <stddef.h>
#include <stdint.h>

/* Encoders return a NUL-terminated malloc'd string in *out. */
int b64_encode(const uint8_t *in, size_t len, char **out);
int b64url_encode(const uint8_t *in, size_t len, char **out);
/* Decoders take len characters (no NUL needed), return malloc'd bytes. */
int b64_decode(const char *in, size_t len, uint8_t **out, size_t *outlen);
int b64url_decode(const char *in, size_t len, uint8_t **out, size_t *outlen);
int hex_decode(const char *in, size_t len, uint8_t **out, size_t *outlen);
int hex_encode(const uint8_t *in, size_t len, char **out);

#endif
