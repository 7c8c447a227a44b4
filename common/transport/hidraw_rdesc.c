/* SPDX-License-Identifier: BSD-2-Clause */
/* The HID report-descriptor parser: a bounded walk over the items that
 * finds the FIDO collection and its report sizes. Pure: no I/O. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "base/err.h"
#include "hid.h"
#include "hidraw.h"
#include "base/bytereader.h"

#define RDESC_STACK 8  /* push/pop depth we accept */
#define RDESC_DEPTH 32 /* collection nesting we accept */
#define RDESC_BITS_CAP (1U << 20)
#define HIDRAW_DEFAULT_REPORT 64

/* Item types and tags of the HID 1.11 report descriptor. */
#define ITEM_MAIN 0
#define ITEM_GLOBAL 1
#define ITEM_LOCAL 2
#define MAIN_INPUT 0x8
#define MAIN_OUTPUT 0x9
#define MAIN_COLLECTION 0xa
#define MAIN_END_COLLECTION 0xc
#define GLOBAL_USAGE_PAGE 0x0
#define GLOBAL_REPORT_SIZE 0x7
#define GLOBAL_REPORT_ID 0x8
#define GLOBAL_REPORT_COUNT 0x9
#define GLOBAL_PUSH 0xa
#define GLOBAL_POP 0xb
#define LOCAL_USAGE 0x0
#define LONG_ITEM 0xfe

struct rdesc_global {
	uint32_t usage_page;
	uint32_t report_size;
	uint32_t report_count;
};

struct rdesc_state {
	struct rdesc_global g;
	struct rdesc_global stack[RDESC_STACK];
	size_t sp;
	uint32_t usage; /* first local usage (page << 16 if ext) */
	int have_usage, usage_ext;
	int depth;
	int collections; /* top-level collections seen */
	int in_fido;     /* inside the first FIDO collection */
	uint64_t in_bits, out_bits;
	struct hidraw_rdesc *out;
};

static void
add_bits(uint64_t *acc, const struct rdesc_global *g)
{
	uint64_t n = (uint64_t)g->report_size * g->report_count;

	if (n > RDESC_BITS_CAP - *acc)
		*acc = RDESC_BITS_CAP;
	else
		*acc += n;
}

static int
rdesc_collection(struct rdesc_state *st)
{
	uint32_t page, usage;

	if (++st->depth > RDESC_DEPTH)
		return ERR_PROTO;
	if (st->depth == 1)
		st->collections++;
	if (st->depth != 1 || !st->have_usage)
		return ERR_OK;
	page = st->usage_ext ? st->usage >> 16 : st->g.usage_page;
	usage = st->usage_ext ? st->usage & 0xffff : st->usage;
	if (page == HIDRAW_FIDO_USAGE_PAGE && usage == HIDRAW_FIDO_USAGE &&
	    !st->out->fido) {
		st->out->fido = 1;
		st->in_fido = 1;
	}
	return ERR_OK;
}

static int
rdesc_main(struct rdesc_state *st, uint8_t tag)
{
	int r = ERR_OK;

	switch (tag) {
	case MAIN_INPUT:
		if (st->in_fido)
			add_bits(&st->in_bits, &st->g);
		break;
	case MAIN_OUTPUT:
		if (st->in_fido)
			add_bits(&st->out_bits, &st->g);
		break;
	case MAIN_COLLECTION:
		r = rdesc_collection(st);
		break;
	case MAIN_END_COLLECTION:
		if (st->depth == 0)
			return ERR_PROTO;
		if (--st->depth == 0)
			st->in_fido = 0;
		break;
	default:
		break;
	}
	/* Local items last until the next main item. */
	st->have_usage = 0;
	st->usage_ext = 0;
	st->usage = 0;
	return r;
}

static int
rdesc_global(struct rdesc_state *st, uint8_t tag, uint32_t v)
{
	switch (tag) {
	case GLOBAL_USAGE_PAGE:
		st->g.usage_page = v;
		break;
	case GLOBAL_REPORT_SIZE:
		st->g.report_size = v;
		break;
	case GLOBAL_REPORT_ID:
		st->out->report_ids = 1;
		break;
	case GLOBAL_REPORT_COUNT:
		st->g.report_count = v;
		break;
	case GLOBAL_PUSH:
		if (st->sp == RDESC_STACK)
			return ERR_PROTO;
		st->stack[st->sp++] = st->g;
		break;
	case GLOBAL_POP:
		if (st->sp == 0)
			return ERR_PROTO;
		st->g = st->stack[--st->sp];
		break;
	default:
		break;
	}
	return ERR_OK;
}

/* Read one item; long items are skipped (*type set to 3). */
static int
rdesc_item(
    struct rbuf *rb, uint8_t *type, uint8_t *tag, uint32_t *v, size_t *size)
{
	uint8_t prefix, b, n, i;

	if (rbuf_get_u8(rb, &prefix) != ERR_OK)
		return ERR_PROTO;
	if (prefix == LONG_ITEM) {
		if (rbuf_get_u8(rb, &n) != ERR_OK ||
		    rbuf_get_u8(rb, &b) != ERR_OK || rbuf_skip(rb, n) != ERR_OK)
			return ERR_PROTO;
		*type = 3;
		return ERR_OK;
	}
	*type = (prefix >> 2) & 3;
	*tag = prefix >> 4;
	n = prefix & 3;
	*size = n == 3 ? 4 : n;
	*v = 0;
	for (i = 0; i < *size; i++) {
		if (rbuf_get_u8(rb, &b) != ERR_OK)
			return ERR_PROTO;
		*v |= (uint32_t)b << (8 * i);
	}
	return ERR_OK;
}

static int
rdesc_size(uint64_t bits, size_t *out)
{
	uint64_t bytes = (bits + 7) / 8;

	if (bits == 0)
		bytes = HIDRAW_DEFAULT_REPORT;
	if (bytes < HID_REPORT_MIN || bytes > HID_REPORT_MAX)
		return ERR_UNSUPPORTED;
	*out = (size_t)bytes;
	return ERR_OK;
}

static int
rdesc_walk(struct rdesc_state *st, struct rbuf *rb)
{
	uint8_t type = 0, tag = 0;
	uint32_t v = 0;
	size_t size = 0;
	int r;

	while (rbuf_left(rb) > 0) {
		if ((r = rdesc_item(rb, &type, &tag, &v, &size)) != ERR_OK)
			return r;
		if (type == ITEM_MAIN)
			r = rdesc_main(st, tag);
		else if (type == ITEM_GLOBAL)
			r = rdesc_global(st, tag, v);
		else if (type == ITEM_LOCAL && tag == LOCAL_USAGE &&
		    !st->have_usage) {
			st->have_usage = 1;
			st->usage_ext = size == 4;
			st->usage = v;
		}
		if (r != ERR_OK)
			return r;
	}
	/* Truncated descriptors end inside a collection or before one. */
	return st->depth == 0 && st->collections > 0 ? ERR_OK : ERR_PROTO;
}

int
hidraw_parse_rdesc(const uint8_t *d, size_t len, struct hidraw_rdesc *out)
{
	struct rdesc_state st;
	struct hidraw_rdesc res;
	struct rbuf rb;
	int r;

	if (d == NULL || len == 0 || out == NULL)
		return ERR_PROTO;
	memset(&st, 0, sizeof(st));
	memset(&res, 0, sizeof(res));
	st.out = &res;
	rbuf_init(&rb, d, len);
	if ((r = rdesc_walk(&st, &rb)) != ERR_OK)
		return r;
	if (res.fido &&
	    ((r = rdesc_size(st.in_bits, &res.report_in)) != ERR_OK ||
		(r = rdesc_size(st.out_bits, &res.report_out)) != ERR_OK))
		return r;
	*out = res;
	return ERR_OK;
}
