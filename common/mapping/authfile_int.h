/* Shared by authfile.c (parse, format) and authscan.c (find). */
#ifndef PU_AUTHFILE_INT_H
#define PU_AUTHFILE_INT_H

#include <stddef.h>

/* Empty, only blanks, or a comment (first non-blank character '#'). */
int authfile_line_skipped(const char *s, size_t len);
/* Not empty, and without ':', '\r' or '\n'. */
int authfile_user_ok(const char *user);

#endif
