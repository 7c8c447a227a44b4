/* SPDX-License-Identifier: BSD-2-Clause */
/* pamu2fcfg's option combinations: after argv is parsed (opts.c), what
 * may not go together, each refusal a message naming the options: a
 * mode's own options used without it, --format=passkey or ldif outside
 * printing, -c without the verification its credential needs,
 * --ssh-agent with a registration's options. No option is changed. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>

#include "base/err.h"
#include "tool.h"

/* --format=ldif's entry and attribute, checked before the key is asked. */
static bool
check_ldif(const struct tool_opts *o)
{
	const char *attr = o->attribute != NULL ? o->attribute : TOOL_LDIF_ATTR;
	char *probe = NULL;

	if (o->dn == NULL || *o->dn == '\0') {
		tool_msg("--format=ldif needs --dn (the entry to modify)");
		return false;
	}
	if (tool_ldif_change(o->dn, attr, "passkey:", &probe) != ERR_OK) {
		tool_msg(
		    "--attribute: '%s' is not an LDAP attribute name", attr);
		return false;
	}
	free(probe);
	return true;
}

/* A passkey: value is printed, never added to a file, and cannot say
 * what a line's options say: presence off, -n's missing user. */
static bool
check_passkey(const struct tool_opts *o)
{
	if (!o->ldif && (o->dn != NULL || o->attribute != NULL)) {
		tool_msg("--dn and --attribute only apply to --format=ldif");
		return false;
	}
	if (o->ldif && !check_ldif(o))
		return false;
	if (!o->passkey)
		return true;
	if (o->mode != TOOL_PRINT) {
		tool_msg("--format=%s only applies when printing (a mapping "
			 "file holds lines)",
		    o->ldif ? "ldif" : "passkey");
		return false;
	}
	if (o->no_presence || o->nouser) {
		tool_msg("--format=%s cannot be used with %s: a passkey: "
			 "value has no user and no options",
		    o->ldif ? "ldif" : "passkey", o->no_presence ? "-P" : "-n");
		return false;
	}
	return true;
}

/* A credential the key would show only after user verification is
 * usable only by a line that asks for it (-N or -V). */
static bool
check_protect(const struct tool_opts *o)
{
	bool hidden = o->cred_protect == CRED_PROTECT_UV_REQUIRED ||
	    (o->resident &&
		o->cred_protect == CRED_PROTECT_UV_OPTIONAL_WITH_LIST);

	if (hidden && !o->pin && !o->uv) {
		tool_msg("-c %d%s needs -N or -V: the key shows such a "
			 "credential only after user verification",
		    o->cred_protect, o->resident ? " with -r" : "");
		return false;
	}
	return true;
}

/* --ssh-agent prints or adds (--add) the agent's keys: no other mode,
 * and no option of a registration. */
static bool
check_ssh_agent(const struct tool_opts *o)
{
	if (!o->ssh_agent)
		return true;
	if (o->mode != TOOL_PRINT && o->mode != TOOL_ADD) {
		tool_msg("--ssh-agent prints the agent's keys, or adds them "
			 "with --add; not with --list, --remove, --check or "
			 "--audit");
		return false;
	}
	if (o->nouser || o->passkey || o->resident || o->pin || o->uv ||
	    o->no_presence || o->cred_protect != 0 || o->cf.ndevices > 0 ||
	    o->type != COSE_ES256) {
		tool_msg("--ssh-agent takes no option of a registration (-n, "
			 "--format, -r, -N, -V, -P, -c, -t, --device): the "
			 "keys are the agent's, as ssh-keygen made them");
		return false;
	}
	return true;
}

bool
opts_check(const struct tool_opts *o)
{
	if (o->backend != DEV_BACKEND_NATIVE && o->cf.ndevices > 0) {
		tool_msg("--device needs the native backend "
			 "(libu2f-host finds keys itself)");
		return false;
	}
	if ((o->uids_set || o->login_defs != NULL) && o->mode != TOOL_AUDIT) {
		tool_msg("--uids and --login-defs only apply to --audit");
		return false;
	}
	if (o->secret_stdin && o->mode != TOOL_WRAP) {
		tool_msg("--secret-stdin only applies to --wrap-secret");
		return false;
	}
	if (o->nouser && o->mode != TOOL_PRINT) {
		tool_msg("-n/--nouser only applies when printing a line");
		return false;
	}
	return check_protect(o) && check_passkey(o) && check_ssh_agent(o);
}
