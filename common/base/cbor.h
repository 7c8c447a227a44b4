/* SPDX-License-Identifier: BSD-2-Clause */
/* CBOR as CTAP2 uses it (RFC 8949 subset, CTAP2 canonical form): unsigned
 * and negative integers, byte and text strings, arrays, maps, false and
 * true. A bounded writer that produces the canonical form (the caller
 * writes map keys in canonical order; cbor_check of the output proves it),
 * and a strict reader: cbor_check validates a whole reply once (one item,
 * definite lengths, shortest heads, no tags or floats, valid UTF-8, map
 * keys unique and in canonical order, nesting and counts bounded), then
 * the cursor functions walk it. Nothing allocates. */
#ifndef PU_CBOR_H
#define PU_CBOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CBOR_MAX_DEPTH 8    /* nesting of arrays and maps */
#define CBOR_MAX_COUNT 1024 /* entries in one array or map */

enum cbor_type {
	CBOR_UINT = 0,
	CBOR_NINT = 1,
	CBOR_BYTES = 2,
	CBOR_TEXT = 3,
	CBOR_ARRAY = 4,
	CBOR_MAP = 5,
	CBOR_TAG = 6,   /* never accepted */
	CBOR_SIMPLE = 7 /* only false (20) and true (21) accepted */
};

/* ---- writer ---- */

/* Writes into buf[0..cap); the first overflow makes every later call a
 * no-op and cbor_wr_end report ERR_TOO_BIG. */
struct cbor_wr {
	uint8_t *buf;
	size_t cap;
	size_t len;
	int err;
};

void cbor_wr_init(struct cbor_wr *w, uint8_t *buf, size_t cap);
void cbor_put_uint(struct cbor_wr *w, uint64_t v);
/* Any int64: negative values as major type 1. */
void cbor_put_int(struct cbor_wr *w, int64_t v);
void cbor_put_bytes(struct cbor_wr *w, const void *p, size_t n);
void cbor_put_text(struct cbor_wr *w, const char *s, size_t n);
/* A NUL-terminated string as text. */
void cbor_put_str(struct cbor_wr *w, const char *s);
void cbor_put_bool(struct cbor_wr *w, bool v);
void cbor_put_array(struct cbor_wr *w, size_t n);
void cbor_put_map(struct cbor_wr *w, size_t n);
/* ERR_OK and *len = bytes written, or the first error (ERR_TOO_BIG). */
int cbor_wr_end(const struct cbor_wr *w, size_t *len);

/* ---- validation ---- */

/* ERR_OK when p[0..len) is exactly one well-formed item in canonical form
 * within the limits above; ERR_PARSE otherwise (ERR_TOO_BIG when only a
 * limit is exceeded). */
int cbor_check(const uint8_t *p, size_t len);

/* ---- reader: a cursor over input that cbor_check accepted ---- */

/* The getters check the type and move past one item; on a wrong type or
 * out-of-range value they return ERR_PARSE and do not move. They stay
 * bounds-checked on any input, so a reader over unchecked bytes cannot
 * overrun, but only cbor_check enforces canonical form. */
struct cbor_rd {
	const uint8_t *p;
	size_t len;
	size_t pos;
};

void cbor_rd_init(struct cbor_rd *r, const uint8_t *p, size_t len);
bool cbor_rd_done(const struct cbor_rd *r);
/* The type of the next item; ERR_PARSE at the end. */
int cbor_peek(const struct cbor_rd *r, enum cbor_type *t);
int cbor_get_uint(struct cbor_rd *r, uint64_t *v);
/* An integer of either sign that fits int64. */
int cbor_get_int(struct cbor_rd *r, int64_t *v);
/* Points into the input. */
int cbor_get_bytes(struct cbor_rd *r, const uint8_t **p, size_t *n);
int cbor_get_text(struct cbor_rd *r, const char **s, size_t *n);
int cbor_get_bool(struct cbor_rd *r, bool *v);
/* The head of an array / map: *n entries (pairs for a map) follow. */
int cbor_get_array(struct cbor_rd *r, size_t *n);
int cbor_get_map(struct cbor_rd *r, size_t *n);
/* Move past the next item, whatever it is (nesting bounded). */
int cbor_skip(struct cbor_rd *r);
/* The next item's encoded bytes (for hashing or copying), then skip it. */
int cbor_get_raw(struct cbor_rd *r, const uint8_t **p, size_t *n);
/* True when the next item is the text key (len n) s: consumes it. */
bool cbor_take_text_key(struct cbor_rd *r, const char *s);

#endif
