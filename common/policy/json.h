/* SPDX-License-Identifier: BSD-2-Clause */
/* A bounded, strict JSON reader (RFC 8259) for the MDS3 BLOB's header and
 * payload (policy_mds.c): a cursor that walks objects and arrays, reads
 * strings (unescaped; \u escapes outside ASCII become '?', which no
 * field we compare can hold), integers, and skips anything else. Depth
 * is limited; every read checks the end of the input. */
#ifndef PU_JSON_H
#define PU_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSON_DEPTH_MAX 32
#define JSON_KEY_MAX 64 /* bytes of a member name json_each_member reads */

struct json_rd {
	const char *p, *end;
};

void json_rd_init(struct json_rd *r, const char *p, size_t len);
/* Only white space left. */
bool json_rd_done(struct json_rd *r);

/* '{' or '[' begins; json_next then says whether another member or
 * element follows (reading the ',' or the closing bracket): ERR_OK with
 * *more, ERR_PARSE. For objects, json_key reads the member's name and
 * its ':'. */
int json_obj_begin(struct json_rd *r);
int json_arr_begin(struct json_rd *r);
int json_next(struct json_rd *r, char close, bool first, bool *more);
int json_key(struct json_rd *r, char *key, size_t cap);

/* A string into out (cap bytes with the NUL; longer is ERR_TOO_BIG),
 * an integer (no fraction or exponent) into *v, any value skipped.
 * ERR_OK, ERR_PARSE. */
int json_string(struct json_rd *r, char *out, size_t cap, size_t *len);
int json_int(struct json_rd *r, int64_t *v);
int json_skip(struct json_rd *r);

/* Each member of an object (fn gets its name and reads or skips its
 * value), each element of an array (fn reads it): the first error of
 * fn, ERR_PARSE for bad syntax, ERR_OK at the closing bracket. */
int json_each_member(struct json_rd *r,
    int (*fn)(struct json_rd *r, const char *key, void *arg), void *arg);
int json_each_element(
    struct json_rd *r, int (*fn)(struct json_rd *r, void *arg), void *arg);

#endif
