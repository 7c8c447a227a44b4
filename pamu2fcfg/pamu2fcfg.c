/* SPDX-License-Identifier: BSD-2-Clause */
/* pamu2fcfg: register a security key for pam_u2f and manage mapping
 * files. This file only dispatches; each job lives in its own file. */
#include "config.h"

#include <stdlib.h>

#include "base/err.h"

#include "tool.h"

int
main(int argc, char **argv)
{
	struct tool_opts o;
	int status = TOOL_EXIT_USAGE;

	if (!opts_parse(argc, argv, &o, &status)) {
		opts_free(&o);
		return status;
	}
	if (o.mode != TOOL_AUDIT && asuser_begin(&o) != ERR_OK) {
		asuser_free(&o);
		opts_free(&o);
		return TOOL_EXIT_FAIL;
	}
	switch (o.mode) {
	case TOOL_PRINT:
		status = o.ssh_agent ? sshagent_run(&o) : enroll_print(&o);
		break;
	case TOOL_ADD:
		status = o.ssh_agent ? sshagent_run(&o) : manage_add(&o);
		break;
	case TOOL_LIST:
		status = manage_list(&o);
		break;
	case TOOL_REMOVE:
		status = manage_remove(&o);
		break;
	case TOOL_CHECK:
		status = check_run(&o);
		break;
	case TOOL_WRAP:
		status = wrap_run(&o);
		break;
	case TOOL_AUDIT:
		status = audit_run(&o);
		break;
	default:
		status = TOOL_EXIT_USAGE;
		break;
	}
	asuser_leave(&o);
	asuser_free(&o);
	opts_free(&o);
	return status;
}
