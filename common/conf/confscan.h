/* SPDX-License-Identifier: BSD-2-Clause */
/* The scanner that checks a configuration file's text and copies it for
 * libconfuse (common/conf/conf.c is its one user). */
#ifndef PU_CONFSCAN_H
#define PU_CONFSCAN_H

#include <stdbool.h>
#include <stddef.h>

#define CONF_MAX_SIZE (64 * 1024) /* bytes: the longest config file */

/* Before libconfuse sees the file, it is copied through a small scanner
 * that follows the lexer's states (plain text, "..." and '...' strings,
 * comments) to refuse what the lexer would get wrong without a word:
 * a NUL byte ends its input early; "${NAME}" is replaced by getenv("NAME");
 * a stray '+', '*' or '\r' is dropped (so "timeout = +5" would read 5);
 * and comments make later line numbers wrong (libconfuse 3.3 counts their
 * newline twice), so comments are blanked out and block comments refused.
 *
 * The copy also accepts Yubico pam-u2f's bare flags: a line holding only
 * the name of a boolean key, such as "cue", becomes "cue = true" (plain
 * libconfuse would refuse it), so that such a pam_u2f.conf keeps working.
 *
 * is_flag(name, n) says whether name (n bytes) is a boolean key. ERR_OK
 * with *out, NUL-terminated, for the caller to free; ERR_CONFIG with the
 * 1-based *line and the problem in *why (a static string); ERR_NOMEM. */
int conf_scan(const char *buf, size_t len,
    bool (*is_flag)(const char *name, size_t n), char **out, int *line,
    const char **why);

#endif
