/* SPDX-License-Identifier: BSD-2-Clause */
/* Whether the client of a PAM transaction may be remote (PAM_RHOST,
 * PAM_TTY, the service), so that usermsg.c tells a client that may be
 * remote nothing that tells accounts apart. Its own file because the
 * rule is a security decision of its own; pam_u2f(8), DIAGNOSTICS,
 * states it. */
#include "config.h"

#include <limits.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <security/pam_modules.h>

#include "remote.h"

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
