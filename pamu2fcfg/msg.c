/* SPDX-License-Identifier: BSD-2-Clause */
/* pamu2fcfg messages on stderr and the exit status for each error. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "base/err.h"
#include "tool.h"

void
tool_msg(const char *fmt, ...)
{
	va_list ap;

	fputs("pamu2fcfg: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int
tool_exit_for(int err)
{
	switch (err) {
	case ERR_OK:
		return TOOL_EXIT_OK;
	case ERR_NO_KEY:
	case ERR_NODEV:
	case ERR_PERM:
	case ERR_TIMEOUT:
		return TOOL_EXIT_NOKEY;
	case ERR_FILE:
	case ERR_FILE_UNSAFE:
	case ERR_PARSE:
	case ERR_TOO_BIG:
		return TOOL_EXIT_FILE;
	case ERR_CONFIG:
	case ERR_INVAL:
		return TOOL_EXIT_USAGE;
	default:
		return TOOL_EXIT_FAIL;
	}
}
