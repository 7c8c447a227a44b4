/* SPDX-License-Identifier: BSD-2-Clause */
/* The streaming mapping-file scanner against authfile_find: the input is
 * a mapping file, cut into pieces of whole lines (the last one may lack
 * its final '\n') at places drawn from a generator seeded by its first two
 * bytes. Each piece is copied into a buffer of its exact size plus a NUL
 * (so that ASan sees any read past it) and fed to authfile_scan_lines_nt
 * (the AVX2 block path needs pieces over 128 bytes) and, in a second scan,
 * to authfile_scan_lines. Both scans must end exactly as authfile_find
 * does on the whole input: same code, *bad_line, count and credentials. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mapping/authfile.h"
#include "base/cred.h"
#include "base/err.h"
#include "failmalloc.h"
#include "fuzz.h"

#define USER "alice"

struct input {
	const uint8_t *data;
	size_t len;
};

/* What a search returned. nomem: an allocation failed inside it (a
 * result then only has to be ERR_NOMEM, not the same as the others). */
struct result {
	int r;
	struct cred *creds;
	size_t n;
	size_t bad;
	int nomem;
};

/* A piece of whole lines, copied with a trailing NUL. */
struct piece {
	char *buf;
	size_t len;
};

/* xorshift32; never 0. */
static uint32_t
next_rand(uint32_t *s)
{
	uint32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

/* Bytes wanted in the next piece: few, a few lines, or many blocks. */
static size_t
piece_target(uint32_t *s)
{
	uint32_t x = next_rand(s);

	switch (x & 3) {
	case 0:
		return 1 + (x >> 2) % 16;
	case 1:
		return 1 + (x >> 2) % 300;
	case 2:
		return 1 + (x >> 2) % 4096;
	default:
		return SIZE_MAX; /* the rest of the input */
	}
}

/* The end of the piece starting at off: just after the first '\n' at or
 * after off + want - 1, or the end of the input. */
static size_t
piece_end(const struct input *in, size_t off, size_t want)
{
	const uint8_t *nl;
	size_t from;

	if (want >= in->len - off)
		return in->len;
	from = off + want - 1;
	nl = memchr(in->data + from, '\n', in->len - from);
	return nl != NULL ? (size_t)(nl - in->data) + 1 : in->len;
}

static void
free_pieces(struct piece *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(p[i].buf);
	free(p);
}

/* Cut the input; ERR_NOMEM when an allocation of the harness failed. */
static int
make_pieces(const struct input *in, struct piece **out, size_t *nout)
{
	struct piece *p = NULL;
	size_t n = 0, off = 0, end;
	uint32_t seed = 0x9e3779b9;

	if (in->len >= 2)
		seed ^= (uint32_t)in->data[0] | (uint32_t)in->data[1] << 8;
	/* at most one piece per byte */
	if (in->len > 0 && (p = calloc(in->len, sizeof(*p))) == NULL)
		return ERR_NOMEM;
	while (off < in->len) {
		end = piece_end(in, off, piece_target(&seed));
		if ((p[n].buf = malloc(end - off + 1)) == NULL) {
			free_pieces(p, n);
			return ERR_NOMEM;
		}
		memcpy(p[n].buf, in->data + off, end - off);
		p[n].buf[end - off] = '\0';
		p[n].len = end - off;
		n++;
		off = end;
	}
	*out = p;
	*nout = n;
	return ERR_OK;
}

static int
injected_now(void)
{
	return failmalloc_injected() != FAILMALLOC_NONE;
}

static void
run_find(const struct input *in, struct result *res)
{
	int before = injected_now();

	FUZZ_CALL(res->r,
	    authfile_find((const char *)in->data, in->len, USER, &res->creds,
		&res->n, &res->bad));
	res->nomem = !before && injected_now();
}

/* One scan over the pieces, with authfile_scan_lines_nt when nt. */
static void
run_scan(const struct piece *p, size_t np, int nt, struct result *res)
{
	struct authfile_scan sc;
	size_t i;
	int before = injected_now(), r;

	FUZZ_CALL(r, authfile_scan_init(&sc, USER));
	FUZZ_CHECK(r == ERR_OK);
	for (i = 0; i < np; i++) {
		if (nt)
			FUZZ_CALL(
			    r, authfile_scan_lines_nt(&sc, p[i].buf, p[i].len));
		else
			FUZZ_CALL(
			    r, authfile_scan_lines(&sc, p[i].buf, p[i].len));
		/* the first error is sticky and is what the end returns */
		if (r != ERR_OK)
			FUZZ_CHECK(r == sc.err);
	}
	FUZZ_CALL(
	    res->r, authfile_scan_end(&sc, &res->creds, &res->n, &res->bad));
	res->nomem = !before && injected_now();
	/* ending again only frees (nothing is left), never succeeds */
	FUZZ_CALL(r, authfile_scan_end(&sc, NULL, NULL, NULL));
	FUZZ_CHECK(r != ERR_OK);
}

static int
same_cred(const struct cred *a, const struct cred *b)
{
	return a->type == b->type && a->flags == b->flags &&
	    a->kh_len == b->kh_len && a->pk_len == b->pk_len &&
	    (a->kh_len == 0 || memcmp(a->kh, b->kh, a->kh_len) == 0) &&
	    (a->pk_len == 0 || memcmp(a->pk, b->pk, a->pk_len) == 0);
}

/* res must be what want is, unless an allocation failed in either. */
static void
compare(const struct result *want, const struct result *res)
{
	size_t i;

	if (res->nomem)
		FUZZ_CHECK(res->r == ERR_NOMEM);
	if (res->r != ERR_OK)
		FUZZ_CHECK(res->creds == NULL && res->n == 0);
	if (res->r != ERR_PARSE)
		FUZZ_CHECK(res->bad == 0);
	if (want->nomem || res->nomem)
		return;
	FUZZ_CHECK(res->r == want->r);
	FUZZ_CHECK(res->bad == want->bad);
	FUZZ_CHECK(res->n == want->n);
	for (i = 0; i < res->n; i++)
		FUZZ_CHECK(same_cred(&res->creds[i], &want->creds[i]));
}

static void
pass(void *arg)
{
	const struct input *in = arg;
	struct result find = {0}, nt = {0}, plain = {0};
	struct piece *p = NULL;
	size_t np = 0;

	run_find(in, &find);
	if (find.nomem)
		FUZZ_CHECK(find.r == ERR_NOMEM);
	if (make_pieces(in, &p, &np) == ERR_OK) {
		run_scan(p, np, 1, &nt);
		compare(&find, &nt);
		run_scan(p, np, 0, &plain);
		compare(&find, &plain);
	}
	cred_free_list(plain.creds, plain.n);
	cred_free_list(nt.creds, nt.n);
	cred_free_list(find.creds, find.n);
	free_pieces(p, np);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = {data, len};

	fuzz_run(pass, &in, data, len);
	return 0;
}
