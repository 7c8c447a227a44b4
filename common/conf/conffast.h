/* SPDX-License-Identifier: BSD-2-Clause */
/* The configuration file's usual form read without libconfuse
 * (conffast.c says which form, and why); conf.c is its one user. */
#ifndef PU_CONFFAST_H
#define PU_CONFFAST_H

#include <stddef.h>

#include "opts.h"

/* conf_fast's answer when text is outside its subset: parse it with
 * libconfuse. Not one of base/err.h's codes. */
#define CONF_FAST_DECLINED 1

/* text: conf_scan's copy of the file (NUL-terminated). When every line is
 * in the subset: the values into out (zeroed by the caller), exactly as
 * conf.c's libconfuse parse stores them, and ERR_OK (or that parse's
 * ERR_NOMEM / ERR_CONFIG when conf_opt_set fails, out then partly set, as
 * there). Otherwise CONF_FAST_DECLINED with out untouched. Writes no
 * message. */
int conf_fast(const char *text, struct conf *out);

/* conf_parse_mem (conf.h) with every file parsed by libconfuse, never by
 * conf_fast: for the tests and the fuzzer that hold both to the same
 * results (conf.c). */
int conf_parse_mem_libconfuse(const char *name, const char *buf, size_t len,
    struct conf *out, char *errbuf, size_t errlen);

#endif
