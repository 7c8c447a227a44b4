/* SPDX-License-Identifier: BSD-2-Clause */
/* The search (ldsearch.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "ldsearch.h"
#include "base/err.h"

struct ldsearch_out {
	char *buf; /* LDSEARCH_OUT_MAX bytes */
	size_t len;
	size_t nvalues;
};

/* Append one value as a line. */
static int
ldsearch_add(struct ldsearch_out *o, const struct berval *v, const char *attr,
    char *why, size_t whylen)
{
	if (++o->nvalues > LDSEARCH_VALUES_MAX) {
		snprintf(why, whylen, "the entry has more than %d values",
		    LDSEARCH_VALUES_MAX);
		return ERR_TOO_BIG;
	}
	if (memchr(v->bv_val, '\0', v->bv_len) != NULL ||
	    memchr(v->bv_val, '\n', v->bv_len) != NULL ||
	    memchr(v->bv_val, '\r', v->bv_len) != NULL) {
		snprintf(
		    why, whylen, "a value of %s holds NUL, CR or LF", attr);
		return ERR_PARSE;
	}
	if (v->bv_len >= LDSEARCH_OUT_MAX - o->len) {
		snprintf(why, whylen, "the values are more than %d bytes",
		    LDSEARCH_OUT_MAX);
		return ERR_TOO_BIG;
	}
	memcpy(o->buf + o->len, v->bv_val, v->bv_len);
	o->len += v->bv_len;
	o->buf[o->len++] = '\n';
	return ERR_OK;
}

/* Every value of attr in entry e. */
static int
ldsearch_attr(LDAP *ld, LDAPMessage *e, const char *attr,
    struct ldsearch_out *o, char *why, size_t whylen)
{
	struct berval **vals = NULL;
	size_t i;
	int r = ERR_OK;

	if (attr == NULL || (vals = ldap_get_values_len(ld, e, attr)) == NULL)
		return ERR_OK; /* not asked for, or none */
	for (i = 0; vals[i] != NULL && r == ERR_OK; i++)
		r = ldsearch_add(o, vals[i], attr, why, whylen);
	ldap_value_free_len(vals);
	return r;
}

/* The search's own failures. */
static int
ldsearch_rc(int rc, char *why, size_t whylen)
{
	switch (rc) {
	case LDAP_SUCCESS:
		return ERR_OK;
	case LDAP_SIZELIMIT_EXCEEDED:
		snprintf(why, whylen, "search: more than one entry matches");
		return ERR_MISMATCH;
	case LDAP_TIMEOUT:
	case LDAP_TIMELIMIT_EXCEEDED:
		snprintf(
		    why, whylen, "search: timed out (%s)", ldap_err2string(rc));
		return ERR_UNAVAIL;
	default:
		snprintf(why, whylen, "search: %s", ldap_err2string(rc));
		return ERR_UNAVAIL;
	}
}

/* The one entry of res, if any, into o. */
static int
ldsearch_entry(LDAP *ld, LDAPMessage *res, const struct conf_ldap *c,
    struct ldsearch_out *o, char *why, size_t whylen)
{
	LDAPMessage *e;
	int n = ldap_count_entries(ld, res), r;

	if (n == 0)
		return ERR_OK;
	if (n != 1 || (e = ldap_first_entry(ld, res)) == NULL) {
		snprintf(why, whylen, "search: more than one entry matches");
		return ERR_MISMATCH;
	}
	if ((r = ldsearch_attr(ld, e, c->attribute, o, why, whylen)) != ERR_OK)
		return r;
	return ldsearch_attr(ld, e, c->lines_attribute, o, why, whylen);
}

int
ldsearch_run(LDAP *ld, const struct conf_ldap *c, const char *filter,
    char **out, size_t *len, char *why, size_t whylen)
{
	char *attrs[3] = {c->attribute, c->lines_attribute, NULL};
	struct timeval tv = {.tv_sec = c->search_timeout};
	struct ldsearch_out o = {NULL, 0, 0};
	LDAPMessage *res = NULL;
	int r;

	*out = NULL;
	*len = 0;
	if ((o.buf = malloc(LDSEARCH_OUT_MAX)) == NULL)
		return ERR_NOMEM;
	r = ldsearch_rc(ldap_search_ext_s(ld, c->base, LDAP_SCOPE_SUBTREE,
			    filter, attrs, 0, NULL, NULL, &tv, 2, &res),
	    why, whylen);
	if (r == ERR_OK)
		r = ldsearch_entry(ld, res, c, &o, why, whylen);
	if (r == ERR_OK && o.len > 0) {
		*out = o.buf;
		*len = o.len;
		o.buf = NULL;
	}
	free(o.buf);
	ldap_msgfree(res);
	return r;
}
