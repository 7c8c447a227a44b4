/* SPDX-License-Identifier: BSD-2-Clause */
/* The search for one user and what the helper prints. */
#ifndef PU_LDSEARCH_H
#define PU_LDSEARCH_H

#include <stddef.h>

#include <ldap.h>

#include "conf/confldap.h"

#define LDSEARCH_OUT_MAX (64 * 1024) /* bytes printed: the module's cap */
#define LDSEARCH_VALUES_MAX 64       /* values of the entry, both attrs */

/* Search c->base (subtree) with filter for at most one entry, within
 * c->search_timeout (the client's deadline and the server's time limit),
 * and put the values of c->attribute and then of c->lines_attribute, one
 * per line, into *out (malloc'd, *len bytes; NULL with 0 when no entry
 * matches or it has none). ERR_OK; ERR_UNAVAIL (the search failed, timed
 * out or the base does not exist), ERR_MISMATCH (more than one entry),
 * ERR_TOO_BIG (over LDSEARCH_VALUES_MAX values or LDSEARCH_OUT_MAX
 * bytes), ERR_PARSE (a value holding NUL, CR or LF), ERR_NOMEM; why
 * (whylen > 0) says what. */
int ldsearch_run(LDAP *ld, const struct conf_ldap *c, const char *filter,
    char **out, size_t *len, char *why, size_t whylen);

#endif
