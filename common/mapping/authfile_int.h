/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared by authfile.c (parse, format) and authscan.c (find). */
#ifndef PU_AUTHFILE_INT_H
#define PU_AUTHFILE_INT_H

#include <stddef.h>

#include "authfile.h"

/* Empty, only blanks, or a comment (first non-blank character '#'). */
int authfile_line_skipped(const char *s, size_t len);
/* Not empty, and without ':', '\r' or '\n'. */
int authfile_user_ok(const char *user);

/* The two paths of authfile_scan_lines_nt, named so that the tests run
 * both on any CPU (tests/mapping/test_authscan.c, PU_AUTHSCAN_PATH): AUTO is
 * what authfile_scan_lines_nt does (AVX2 when this build and CPU have it);
 * PORTABLE is the byte-wise loop everywhere; AVX2 is refused with
 * ERR_UNSUPPORTED (sticky, like every scan error) where it is missing. */
enum authscan_path { AUTHSCAN_AUTO, AUTHSCAN_PORTABLE, AUTHSCAN_AVX2 };
int authscan_avx2_ok(void);
int authfile_scan_lines_nt_path(struct authfile_scan *sc, const char *buf,
    size_t len, enum authscan_path path);

#endif
