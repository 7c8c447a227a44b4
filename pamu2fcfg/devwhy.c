/* SPDX-License-Identifier: BSD-2-Clause */
/* Why a key cannot be used, said at once: a --device node that is not a
 * FIDO interface (with the FIDO node of the same device, if there is
 * one), a FIDO interface with report IDs (which we cannot speak to,
 * named also when discovery skips it), and a key that was found but did
 * not answer. From sysfs only (hidraw_node.h): no device is opened. */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "base/err.h"
#include "transport/hidraw_node.h"
#include "transport/hidraw_why.h"
#include "tool.h"

#define DEVWHY_SYSFS "/sys"
#define DEVWHY_DEV "/dev/"

/* "/dev/hidrawN" -> "hidrawN"; NULL for anything else (unix: paths). */
static const char *
node_of(const char *path)
{
	size_t n = strlen(DEVWHY_DEV);

	if (strncmp(path, DEVWHY_DEV, n) != 0 ||
	    strncmp(path + n, "hidraw", 6) != 0)
		return NULL;
	return path + n;
}

static int
check_one(const char *path)
{
	struct hidraw_node hn;
	const char *name = node_of(path);
	char sib[32];

	if (name == NULL || hidraw_node_at(DEVWHY_SYSFS, name, &hn) != ERR_OK)
		return ERR_OK; /* nothing known: the open will tell */
	if (!hn.fido) {
		if (hidraw_node_sibling_at(
			DEVWHY_SYSFS, name, sib, sizeof(sib)) == ERR_OK)
			tool_msg("%s is not a FIDO interface (its report "
				 "descriptor has no FIDO usage page F1D0: a "
				 "keyboard or another function); the FIDO "
				 "interface of the same device is " DEVWHY_DEV
				 "%s: use --device " DEVWHY_DEV "%s",
			    path, sib, sib);
		else
			tool_msg("%s is not a FIDO interface (its report "
				 "descriptor has no FIDO usage page F1D0: a "
				 "keyboard or another function), and the "
				 "device has no other one",
			    path);
		return ERR_NODEV;
	}
	if (hn.report_ids) {
		tool_msg("%s is a FIDO interface whose report descriptor uses "
			 "report IDs, which pamu2fcfg does not support",
		    path);
		return ERR_NODEV;
	}
	return ERR_OK;
}

int
devwhy_paths(const struct tool_opts *o)
{
	size_t i;
	int r;

	for (i = 0; i < o->cf.ndevices; i++)
		if ((r = check_one(o->cf.devices[i])) != ERR_OK)
			return r;
	return ERR_OK;
}

static void
said_report_ids(void *arg, const char *name)
{
	(void)arg;
	tool_msg(DEVWHY_DEV
	    "%s is a FIDO interface whose report descriptor "
	    "uses report IDs, which pamu2fcfg does not support: skipped",
	    name);
}

void
devwhy_report_ids(const struct tool_opts *o)
{
	if (o->cf.ndevices == 0 && o->backend == DEV_BACKEND_NATIVE)
		(void)hidraw_node_report_ids_at(
		    DEVWHY_SYSFS, said_report_ids, NULL);
}

bool
devwhy_mute(int err)
{
	switch (err) {
	case ERR_TIMEOUT:
	case ERR_PROTO:
	case ERR_IO:
	case ERR_HID_OTHER:
	case ERR_HID_INVALID_CMD:
	case ERR_HID_INVALID_PAR:
	case ERR_HID_INVALID_LEN:
	case ERR_HID_INVALID_SEQ:
	case ERR_HID_MSG_TIMEOUT:
	case ERR_HID_INVALID_CHANNEL:
	case ERR_WRONG_LENGTH:
	case ERR_INS_NOT_SUPPORTED:
	case ERR_SW:
		return true;
	default:
		return false;
	}
}

void
devwhy_say_mute(const struct tool_opts *o, int err)
{
	const char *where = o->cf.ndevices == 1 ? o->cf.devices[0] : NULL;

	tool_msg("a security key was found%s%s but did not answer (%s)%s; "
		 "unplug it and plug it in again",
	    where != NULL ? " at " : "", where != NULL ? where : "",
	    err_str(err),
	    where == NULL && o->lg == NULL ? "; -d names it" : "");
}

bool
devwhy_sysfs(const struct tool_opts *o)
{
	struct hidraw_why why;

	if (o->cf.ndevices != 0 || o->backend != DEV_BACKEND_NATIVE ||
	    hidraw_why_at(DEVWHY_SYSFS, "/dev", &why) != ERR_OK)
		return false;
	switch (why.kind) {
	case HIDRAW_WHY_HIDDEN:
		tool_msg("no security key is visible to this process (%s/class/"
			 "hidraw lists %s, " DEVWHY_DEV " has no such node); a "
			 "sandboxed polkit helper needs the drop-in: see "
			 "pam_u2f(8)",
		    DEVWHY_SYSFS, why.node);
		return true;
	case HIDRAW_WHY_DENIED:
		tool_msg(DEVWHY_DEV "%s cannot be opened: no %s permission for "
				    "this process (EACCES)",
		    why.node, hidraw_why_missing(&why));
		return true;
	default:
		return false;
	}
}
