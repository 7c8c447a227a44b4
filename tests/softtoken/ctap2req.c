/* SPDX-License-Identifier: BSD-2-Clause */
/* CTAP2 request maps of the software token: checked whole with the
 * project's strict CBOR reader, then read field by field. */
#include "config.h"

#include <string.h>

#include "base/cbor.h"
#include "base/err.h"
#include "ctap2.h"

int
ctap2_req_parse(const uint8_t *p, size_t len, struct ctap2_req *q)
{
	struct cbor_rd r;
	enum cbor_type ty;
	uint64_t key;
	size_t n, i;

	memset(q, 0, sizeof(*q));
	if (len == 0)
		return ST_OK; /* no parameters */
	if (cbor_check(p, len) != ERR_OK)
		return ST_INVALID_CBOR;
	cbor_rd_init(&r, p, len);
	if (cbor_get_map(&r, &n) != ERR_OK)
		return ST_CBOR_UNEXPECTED_TYPE;
	for (i = 0; i < n; i++) {
		if (cbor_peek(&r, &ty) != ERR_OK || ty != CBOR_UINT ||
		    cbor_get_uint(&r, &key) != ERR_OK)
			return ST_CBOR_UNEXPECTED_TYPE;
		if (key >= 1 && key <= CTAP2_REQ_KEYS) {
			if (cbor_get_raw(&r, &q->v[key], &q->n[key]) != ERR_OK)
				return ST_INVALID_CBOR;
		} else if (cbor_skip(&r) != ERR_OK)
			return ST_INVALID_CBOR;
	}
	return ST_OK;
}

int
ctap2_req_has(const struct ctap2_req *q, unsigned key)
{
	return key <= CTAP2_REQ_KEYS && q->v[key] != NULL;
}

void
ctap2_req_rd(const struct ctap2_req *q, unsigned key, struct cbor_rd *r)
{
	cbor_rd_init(r, q->v[key], q->n[key]);
}

int
ctap2_req_bytes(
    const struct ctap2_req *q, unsigned key, const uint8_t **p, size_t *n)
{
	struct cbor_rd r;

	if (!ctap2_req_has(q, key))
		return ST_MISSING_PARAMETER;
	ctap2_req_rd(q, key, &r);
	return cbor_get_bytes(&r, p, n) == ERR_OK ? ST_OK
						  : ST_CBOR_UNEXPECTED_TYPE;
}

int
ctap2_req_uint(const struct ctap2_req *q, unsigned key, uint64_t *v)
{
	struct cbor_rd r;

	if (!ctap2_req_has(q, key))
		return ST_MISSING_PARAMETER;
	ctap2_req_rd(q, key, &r);
	return cbor_get_uint(&r, v) == ERR_OK ? ST_OK : ST_CBOR_UNEXPECTED_TYPE;
}

int
ctap2_req_text(
    const struct ctap2_req *q, unsigned key, const char **s, size_t *n)
{
	struct cbor_rd r;

	if (!ctap2_req_has(q, key))
		return ST_MISSING_PARAMETER;
	ctap2_req_rd(q, key, &r);
	return cbor_get_text(&r, s, n) == ERR_OK ? ST_OK
						 : ST_CBOR_UNEXPECTED_TYPE;
}

int
ctap2_req_map_text(const struct ctap2_req *q, unsigned key, const char *name,
    const char **s, size_t *n)
{
	struct cbor_rd r;
	size_t cnt, i;

	if (!ctap2_req_has(q, key))
		return ST_MISSING_PARAMETER;
	ctap2_req_rd(q, key, &r);
	if (cbor_get_map(&r, &cnt) != ERR_OK)
		return ST_CBOR_UNEXPECTED_TYPE;
	for (i = 0; i < cnt; i++) {
		if (cbor_take_text_key(&r, name))
			return cbor_get_text(&r, s, n) == ERR_OK
			    ? ST_OK
			    : ST_CBOR_UNEXPECTED_TYPE;
		if (cbor_skip(&r) != ERR_OK || cbor_skip(&r) != ERR_OK)
			return ST_INVALID_CBOR;
	}
	return ST_MISSING_PARAMETER;
}

/* One option key/value; unknown option names are ignored. */
static int
one_opt(struct cbor_rd *r, struct ctap2_opts *o)
{
	const char *s;
	size_t n;
	bool b;
	int *dst = NULL;

	if (cbor_get_text(r, &s, &n) != ERR_OK)
		return ST_CBOR_UNEXPECTED_TYPE;
	if (n == 2 && memcmp(s, "up", 2) == 0)
		dst = &o->up;
	else if (n == 2 && memcmp(s, "uv", 2) == 0)
		dst = &o->uv;
	else if (n == 2 && memcmp(s, "rk", 2) == 0)
		dst = &o->rk;
	if (cbor_get_bool(r, &b) != ERR_OK)
		return ST_CBOR_UNEXPECTED_TYPE;
	if (dst != NULL)
		*dst = b ? 1 : 0;
	return ST_OK;
}

int
ctap2_req_opts(const struct ctap2_req *q, unsigned key, struct ctap2_opts *o)
{
	struct cbor_rd r;
	size_t cnt, i;
	int st;

	o->up = o->uv = o->rk = -1;
	if (!ctap2_req_has(q, key))
		return ST_OK;
	ctap2_req_rd(q, key, &r);
	if (cbor_get_map(&r, &cnt) != ERR_OK)
		return ST_CBOR_UNEXPECTED_TYPE;
	for (i = 0; i < cnt; i++)
		if ((st = one_opt(&r, o)) != ST_OK)
			return st;
	return ST_OK;
}
