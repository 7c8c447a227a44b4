/* SPDX-License-Identifier: BSD-2-Clause */
/* Why no FIDO hidraw node can be used (hidraw_why.h): sysfs lists the
 * FIDO nodes (hidraw_node.c reads their descriptors), /dev is asked
 * with faccessat, nothing is opened. Its own file because only the
 * messages of the module and of pamu2fcfg need it, after opening found
 * no key; discovery and I/O (hidraw.c) do not. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "hidraw_node.h"
#include "hidraw_why.h"

/* What one node's /dev entry is like. */
enum node_state { NODE_USABLE, NODE_DENIED, NODE_ABSENT, NODE_OTHER };

/* "hidraw9" < "hidraw10": shorter first, then by digits. */
static int
node_before(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	return la != lb ? la < lb : strcmp(a, b) < 0;
}

static enum node_state
node_state(const char *devroot, const char *name, int *rd, int *wr)
{
	char path[PATH_MAX];
	int n;

	n = snprintf(path, sizeof(path), "%s/%s", devroot, name);
	if (n < 0 || (size_t)n >= sizeof(path))
		return NODE_OTHER;
	if (faccessat(AT_FDCWD, path, R_OK | W_OK, AT_EACCESS) == 0)
		return NODE_USABLE;
	if (errno == ENOENT)
		return NODE_ABSENT;
	if (errno != EACCES)
		return NODE_OTHER;
	*rd = faccessat(AT_FDCWD, path, R_OK, AT_EACCESS) != 0;
	*wr = faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0;
	return NODE_DENIED;
}

/* Keep the lowest node of the worst kind seen so far. */
static void
note(struct hidraw_why *out, enum hidraw_why_kind kind, const char *name,
    int rd, int wr)
{
	if (kind < out->kind ||
	    (kind == out->kind && !node_before(name, out->node)))
		return;
	out->kind = kind;
	snprintf(out->node, sizeof(out->node), "%s", name);
	out->read_denied = rd;
	out->write_denied = wr;
}

int
hidraw_why_at(const char *sysroot, const char *devroot, struct hidraw_why *out)
{
	struct hidraw_node hn;
	char dir[PATH_MAX];
	struct dirent *de;
	int usable = 0, rd, wr;
	DIR *d;

	if (sysroot == NULL || devroot == NULL || out == NULL)
		return ERR_INVAL;
	memset(out, 0, sizeof(*out));
	snprintf(dir, sizeof(dir), "%s/class/hidraw", sysroot);
	if ((d = opendir(dir)) == NULL)
		return ERR_OK; /* no hidraw at all: nothing to say */
	while ((de = readdir(d)) != NULL) {
		if (hidraw_node_at(sysroot, de->d_name, &hn) != ERR_OK ||
		    !hn.fido || hn.report_ids ||
		    strlen(de->d_name) >= sizeof(out->node))
			continue;
		rd = wr = 0;
		switch (node_state(devroot, de->d_name, &rd, &wr)) {
		case NODE_USABLE:
			usable = 1;
			break;
		case NODE_DENIED:
			note(out, HIDRAW_WHY_DENIED, de->d_name, rd, wr);
			break;
		case NODE_ABSENT:
			note(out, HIDRAW_WHY_HIDDEN, de->d_name, 0, 0);
			break;
		default:
			break;
		}
	}
	closedir(d);
	if (usable)
		memset(out, 0, sizeof(*out));
	return ERR_OK;
}

const char *
hidraw_why_missing(const struct hidraw_why *why)
{
	if (why->read_denied && why->write_denied)
		return "read and write";
	return why->read_denied ? "read" : "write";
}

int
hidraw_why(struct hidraw_why *out)
{
	return hidraw_why_at("/sys", "/dev", out);
}
