/* SPDX-License-Identifier: BSD-2-Clause */
/* --format=passkey: keys that cannot make a usable passkey: value are
 * refused at enrollment (tool.h). */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "base/err.h"
#include "tool.h"

/* Are all the keys U2F-only (no PIN possible)? */
static bool
all_u2f(struct dev *const *devs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(devs[i]->proto->name, "u2f") != 0)
			return false;
	return n > 0;
}

bool
tool_passkey_refused(
    const struct tool_opts *o, struct dev *const *devs, size_t n, int err)
{
	const char *key =
	    n == 1 ? xport_path(devs[0]->ctx.x) : "the security key";

	if (!o->passkey)
		return false;
	if (err == ERR_PIN_NOT_SET)
		tool_msg("--format=%s: refused: %s has no PIN, and SSSD's "
			 "passkey: values ask for the key's PIN at every "
			 "login; set a PIN (fido2-token -S DEVICE, or the key "
			 "maker's tool), then enroll again",
		    o->ldif ? "ldif" : "passkey", key);
	else if (err == ERR_UNSUPPORTED && all_u2f(devs, n))
		tool_msg("--format=%s: refused: %s is U2F-only and cannot "
			 "verify a PIN, which SSSD's passkey: values ask for "
			 "at every login; use a FIDO2 key with a PIN, or "
			 "enroll this one as a mapping line (no --format)",
		    o->ldif ? "ldif" : "passkey", key);
	else
		return false;
	return true;
}

int
tool_passkey_keys(const struct tool_opts *o, struct dev *const *devs, size_t n)
{
	if (o->passkey && all_u2f(devs, n) &&
	    tool_passkey_refused(o, devs, n, ERR_UNSUPPORTED))
		return ERR_UNSUPPORTED;
	return ERR_OK;
}
