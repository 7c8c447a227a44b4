/* SPDX-License-Identifier: BSD-2-Clause */
/* Whether the client of a PAM transaction may be remote (PAM_RHOST,
 * PAM_TTY, the service), so that usermsg.c tells a client that may be
 * remote nothing that tells accounts apart; and whether the session is
 * remote for remote= (PAM_RHOST, logind's view from remsess.c, the
 * environment). Its own file because each rule is a security decision
 * of its own; pam_u2f(8), DIAGNOSTICS and REMOTE SESSIONS, state them. */
#include "config.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <security/pam_ext.h>
#include <security/pam_modules.h>

#include "base/err.h"
#include "remote.h"
#include "remsess.h"

/* The item as a string: *s NULL when unset. False if it cannot be
 * read. */
static bool
remote_item(pam_handle_t *pamh, int type, const char **s)
{
	const void *v = NULL;

	if (pam_get_item(pamh, type, &v) != PAM_SUCCESS)
		return false;
	*s = v;
	return true;
}

/* rhost names this host: its name, or that name before the first dot. */
static bool
remote_is_self(const char *rhost)
{
	char name[HOST_NAME_MAX + 1];
	size_t n;

	memset(name, 0, sizeof(name));
	if (gethostname(name, sizeof(name) - 1) != 0 || name[0] == '\0')
		return false;
	if (strcasecmp(rhost, name) == 0)
		return true;
	n = strcspn(name, ".");
	return name[n] == '.' && strlen(rhost) == n &&
	    strncasecmp(rhost, name, n) == 0;
}

bool
remote_client(pam_handle_t *pamh, const char **why)
{
	const char *service = NULL, *tty = NULL, *rhost = NULL;

	if (!remote_item(pamh, PAM_SERVICE, &service) ||
	    !remote_item(pamh, PAM_TTY, &tty) ||
	    !remote_item(pamh, PAM_RHOST, &rhost)) {
		*why = "a PAM item cannot be read";
		return true;
	}
	if (service != NULL && strcmp(service, "sshd") == 0) {
		*why = "the service is sshd";
		return true;
	}
	if (tty != NULL && strcmp(tty, "ssh") == 0) {
		*why = "PAM_TTY is ssh";
		return true;
	}
	if (rhost != NULL && rhost[0] != '\0' && !remote_is_self(rhost)) {
		*why = "PAM_RHOST names another host";
		return true;
	}
	*why = NULL;
	return false;
}

/* PAM_RHOST for the remote= rule: another host unless unset, empty,
 * this host's name (remote_is_self) or a loopback name. */
static bool
remote_rhost_other(const char *rhost)
{
	return rhost != NULL && rhost[0] != '\0' &&
	    strcasecmp(rhost, "localhost") != 0 &&
	    strcmp(rhost, "127.0.0.1") != 0 && strcmp(rhost, "::1") != 0 &&
	    !remote_is_self(rhost);
}

/* SSH_CONNECTION or SSH_CLIENT set and not empty, in the PAM environment,
 * the process's, or the one it was started with (PROC/self/environ:
 * sudo's env_reset has emptied the others by now): the fallback
 * without logind. Its name, or NULL. */
static const char *
remote_ssh_env(pam_handle_t *pamh, const struct remsess_roots *roots)
{
	static const char *const names[] = {"SSH_CONNECTION", "SSH_CLIENT"};
	const char *v;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		v = pam_getenv(pamh, names[i]);
		if (v == NULL || v[0] == '\0')
			v = getenv(names[i]);
		if ((v != NULL && v[0] != '\0') ||
		    remsess_environ_has(roots, names[i]))
			return names[i];
	}
	return NULL;
}

int
remote_session(pam_handle_t *pamh, const struct remsess_roots *roots,
    bool trusted_only, bool *remote, const char **why)
{
	const char *rhost = NULL;

	*remote = true;
	if (!remote_item(pamh, PAM_RHOST, &rhost)) {
		*why = "PAM_RHOST cannot be read";
		return ERR_SYSTEM;
	}
	if (remote_rhost_other(rhost)) {
		*why = "PAM_RHOST names another host";
		return ERR_OK;
	}
	switch (remsess_logind(roots, NULL, why)) {
	case REMSESS_REMOTE:
		return ERR_OK;
	case REMSESS_LOCAL:
		*remote = false;
		return ERR_OK;
	case REMSESS_UNKNOWN:
		break;
	default:
		return ERR_SYSTEM;
	}
	if (!trusted_only && remote_ssh_env(pamh, roots) != NULL) {
		*why = "no logind session; SSH_CONNECTION or SSH_CLIENT is set";
		return ERR_OK;
	}
	*remote = false;
	*why = trusted_only ? "PAM_RHOST unset or local, and no logind session "
			      "(the environment is not trusted for ignore)"
			    : "PAM_RHOST unset or local, no logind session, "
			      "no SSH_CONNECTION or SSH_CLIENT";
	return ERR_OK;
}
