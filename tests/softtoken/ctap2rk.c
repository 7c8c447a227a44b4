/* SPDX-License-Identifier: BSD-2-Clause */
/* The resident (discoverable) credentials of the software token: at most
 * --rk-slots of them, one per rpIdHash and user id (a new one replaces
 * the old), listed newest first, kept in the state file as
 * "rk SEQ PROT RPIDHASH ID USERID RPID NAME DISPLAYNAME" (hex, "-" for
 * empty). The private key is inside the wrapped credential id. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/util.h"
#include "ctap2.h"

#define LINE_MAX_RK 2400

static int
same_user(const struct ctap2_rk *a, const struct ctap2_rk *b)
{
	return memcmp(a->rph, b->rph, 32) == 0 && a->uid_len == b->uid_len &&
	    memcmp(a->uid, b->uid, a->uid_len) == 0;
}

static struct ctap2_rk *
find_user(const struct ctap2 *c, const struct ctap2_rk *r)
{
	size_t i;

	for (i = 0; i < c->nrk; i++)
		if (same_user(&c->rk[i], r))
			return &c->rk[i];
	return NULL;
}

int
ctap2_rk_room(const struct ctap2 *c, const struct ctap2_rk *r)
{
	return find_user(c, r) != NULL || c->nrk < c->rk_slots
	    ? ST_OK
	    : ST_KEY_STORE_FULL;
}

static uint64_t
next_seq(const struct ctap2 *c)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < c->nrk; i++)
		if (c->rk[i].seq > s)
			s = c->rk[i].seq;
	return s + 1;
}

/* Append without the slot check (the state file may hold more). */
static int
append(struct ctap2 *c, const struct ctap2_rk *r)
{
	struct ctap2_rk *p;

	if (c->nrk >= CTAP2_RK_SLOTS_MAX)
		return ERR_TOO_BIG;
	if ((p = realloc(c->rk, (c->nrk + 1) * sizeof(*p))) == NULL)
		return ERR_NOMEM;
	c->rk = p;
	c->rk[c->nrk++] = *r;
	return ERR_OK;
}

int
ctap2_rk_put(struct ctap2 *c, const struct ctap2_rk *r)
{
	struct ctap2_rk *old;
	uint64_t seq = next_seq(c);

	if (ctap2_rk_room(c, r) != ST_OK)
		return ST_KEY_STORE_FULL;
	if ((old = find_user(c, r)) != NULL) {
		*old = *r;
		old->seq = seq;
		return ST_OK;
	}
	if (append(c, r) != ERR_OK)
		return ST_OTHER;
	c->rk[c->nrk - 1].seq = seq;
	return ST_OK;
}

unsigned
ctap2_rk_remaining(const struct ctap2 *c)
{
	return c->nrk >= c->rk_slots ? 0 : c->rk_slots - (unsigned)c->nrk;
}

const struct ctap2_rk *
ctap2_rk_by_id(const struct ctap2 *c, const uint8_t *id, size_t n)
{
	size_t i;

	for (i = 0; i < c->nrk; i++)
		if (c->rk[i].id_len == n && memcmp(c->rk[i].id, id, n) == 0)
			return &c->rk[i];
	return NULL;
}

size_t
ctap2_rk_list(const struct ctap2 *c, const uint8_t rph[32], int uv, size_t *idx)
{
	size_t i, j, n = 0, tmp;

	for (i = 0; i < c->nrk; i++) {
		if (memcmp(c->rk[i].rph, rph, 32) != 0 ||
		    (c->rk[i].prot >= 2 && !uv))
			continue;
		idx[n++] = i;
	}
	for (i = 1; i < n; i++) /* insertion sort, newest first */
		for (j = i; j > 0 && c->rk[idx[j]].seq > c->rk[idx[j - 1]].seq;
		     j--) {
			tmp = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = tmp;
		}
	return n;
}

void
ctap2_rk_clear(struct ctap2 *c)
{
	if (c->rk != NULL)
		util_freezero(c->rk, c->nrk * sizeof(*c->rk));
	c->rk = NULL;
	c->nrk = 0;
	c->next.active = 0;
}

/* ---- state file ---- */

static void
put_hex(FILE *f, const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	fputc(' ', f);
	if (n == 0)
		fputc('-', f);
	for (i = 0; i < n; i++)
		fprintf(f, "%02x", b[i]);
}

void
ctap2_rk_write(const struct ctap2 *c, FILE *f)
{
	const struct ctap2_rk *r;
	size_t i;

	for (i = 0; i < c->nrk; i++) {
		r = &c->rk[i];
		fprintf(f, "rk %llu %d", (unsigned long long)r->seq, r->prot);
		put_hex(f, r->rph, 32);
		put_hex(f, r->id, r->id_len);
		put_hex(f, r->uid, r->uid_len);
		put_hex(f, r->rp, strlen(r->rp));
		put_hex(f, r->name, strlen(r->name));
		put_hex(f, r->display, strlen(r->display));
		fputc('\n', f);
	}
}

/* A hex field into out (at most cap bytes): its length, or -1. */
static long
get_hex(const char *s, uint8_t *out, size_t cap)
{
	size_t n = strlen(s), i;
	unsigned b;

	if (strcmp(s, "-") == 0)
		return 0;
	if (n == 0 || n % 2 != 0 || n / 2 > cap)
		return -1;
	for (i = 0; i < n / 2; i++) {
		if (sscanf(s + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (uint8_t)b;
	}
	return (long)(n / 2);
}

/* A text field (no NUL inside) into out[cap + 1]. */
static int
get_text(const char *s, char *out, size_t cap)
{
	long n = get_hex(s, (uint8_t *)out, cap);

	if (n < 0 || memchr(out, '\0', (size_t)n) != NULL)
		return ERR_PARSE;
	out[n] = '\0';
	return ERR_OK;
}

static int
fields(struct ctap2_rk *r, char **f)
{
	char *end;
	long n;

	errno = 0;
	r->seq = strtoull(f[0], &end, 10);
	if (errno != 0 || *end != '\0' || f[0][0] < '0' || f[0][0] > '9' ||
	    strlen(f[1]) != 1 || f[1][0] < '1' || f[1][0] > '3')
		return ERR_PARSE;
	r->prot = f[1][0] - '0';
	if (get_hex(f[2], r->rph, 32) != 32 ||
	    (n = get_hex(f[3], r->id, sizeof(r->id))) <= 0)
		return ERR_PARSE;
	r->id_len = (size_t)n;
	if ((n = get_hex(f[4], r->uid, sizeof(r->uid))) < 0)
		return ERR_PARSE;
	r->uid_len = (size_t)n;
	if (get_text(f[5], r->rp, CTAP2_RPID_MAX) != ERR_OK ||
	    get_text(f[6], r->name, CTAP2_NAME_MAX) != ERR_OK ||
	    get_text(f[7], r->display, CTAP2_NAME_MAX) != ERR_OK)
		return ERR_PARSE;
	return ERR_OK;
}

int
ctap2_rk_line(struct ctap2 *c, const char *v)
{
	char buf[LINE_MAX_RK], *f[8], *save = NULL;
	struct ctap2_rk r;
	size_t i;
	int rc = ERR_PARSE;

	if (strlen(v) >= sizeof(buf))
		return ERR_PARSE;
	memset(&r, 0, sizeof(r));
	strcpy(buf, v);
	for (i = 0; i < 8; i++)
		if ((f[i] = strtok_r(i == 0 ? buf : NULL, " ", &save)) == NULL)
			goto out;
	if (strtok_r(NULL, " ", &save) != NULL || fields(&r, f) != ERR_OK ||
	    ctap2_rk_by_id(c, r.id, r.id_len) != NULL || find_user(c, &r))
		goto out;
	rc = append(c, &r) == ERR_OK ? ERR_OK : ERR_PARSE;
out:
	util_wipe(&r, sizeof(r));
	util_wipe(buf, sizeof(buf));
	return rc;
}
