/* SPDX-License-Identifier: BSD-2-Clause */
/* What a hidraw node is, from sysfs alone (hidraw_node.h): its device,
 * the FIDO node of the same physical device, and whether its
 * descriptor uses report IDs, without opening any device. Its own file
 * because the messages that explain why a node cannot be used
 * (pamu2fcfg's devwhy.c) need it, and opening and talking to a node
 * (hidraw.c) does not. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "hidraw.h"
#include "hidraw_node.h"
#include "base/safefile.h"

static int
node_name_ok(const char *name)
{
	const char *p;

	if (strncmp(name, "hidraw", 6) != 0 || name[6] == '\0' ||
	    strlen(name) > 16)
		return 0;
	for (p = name + 6; *p != '\0'; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

int
hidraw_node_at(const char *sysroot, const char *name, struct hidraw_node *out)
{
	struct safefile_policy pol = {
	    .owner = geteuid(), .max_size = HIDRAW_RDESC_MAX};
	struct hidraw_rdesc rd;
	char path[PATH_MAX];
	char *buf = NULL;
	size_t len = 0;
	int n, r;

	memset(out, 0, sizeof(*out));
	if (!node_name_ok(name))
		return ERR_INVAL;
	n = snprintf(path, sizeof(path),
	    "%s/class/hidraw/%s/device/report_descriptor", sysroot, name);
	if (n < 0 || (size_t)n >= sizeof(path))
		return ERR_NOT_FOUND;
	if (safefile_read(path, &pol, &buf, &len, NULL) != ERR_OK)
		return ERR_NOT_FOUND;
	r = hidraw_parse_rdesc((const uint8_t *)buf, len, &rd);
	free(buf);
	if (r != ERR_OK)
		return ERR_NOT_FOUND;
	out->fido = rd.fido;
	out->report_ids = rd.report_ids;
	return ERR_OK;
}

/* The USB device of node name: realpath of its HID device's grandparent,
 * when the parent is a USB interface ("1-1:1.0"). */
static int
usb_device_of(const char *sysroot, const char *name, char *out)
{
	char path[PATH_MAX], real[PATH_MAX], *slash, *colon;
	int n;

	n = snprintf(
	    path, sizeof(path), "%s/class/hidraw/%s/device/..", sysroot, name);
	if (n < 0 || (size_t)n >= sizeof(path) || realpath(path, real) == NULL)
		return ERR_NOT_FOUND;
	if ((slash = strrchr(real, '/')) == NULL ||
	    (colon = strchr(slash, ':')) == NULL || strchr(colon, '.') == NULL)
		return ERR_NOT_FOUND;
	*slash = '\0';
	if (strlen(real) >= PATH_MAX)
		return ERR_NOT_FOUND;
	memcpy(out, real, strlen(real) + 1);
	return ERR_OK;
}

int
hidraw_node_sibling_at(
    const char *sysroot, const char *name, char *buf, size_t cap)
{
	char mine[PATH_MAX], theirs[PATH_MAX], dir[PATH_MAX];
	struct hidraw_node hn;
	struct dirent *de;
	DIR *d;
	int r = ERR_NOT_FOUND;

	if (usb_device_of(sysroot, name, mine) != ERR_OK)
		return ERR_NOT_FOUND;
	snprintf(dir, sizeof(dir), "%s/class/hidraw", sysroot);
	if ((d = opendir(dir)) == NULL)
		return ERR_NOT_FOUND;
	while (r != ERR_OK && (de = readdir(d)) != NULL) {
		if (!node_name_ok(de->d_name) ||
		    strcmp(de->d_name, name) == 0 ||
		    usb_device_of(sysroot, de->d_name, theirs) != ERR_OK ||
		    strcmp(mine, theirs) != 0 ||
		    hidraw_node_at(sysroot, de->d_name, &hn) != ERR_OK ||
		    !hn.fido || hn.report_ids || strlen(de->d_name) >= cap)
			continue;
		memcpy(buf, de->d_name, strlen(de->d_name) + 1);
		r = ERR_OK;
	}
	closedir(d);
	return r;
}

int
hidraw_node_report_ids_at(
    const char *sysroot, void (*fn)(void *arg, const char *name), void *arg)
{
	struct hidraw_node hn;
	char dir[PATH_MAX];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/class/hidraw", sysroot);
	if ((d = opendir(dir)) == NULL)
		return errno == ENOENT ? ERR_OK : ERR_SYSTEM;
	while ((de = readdir(d)) != NULL)
		if (node_name_ok(de->d_name) &&
		    hidraw_node_at(sysroot, de->d_name, &hn) == ERR_OK &&
		    hn.fido && hn.report_ids)
			fn(arg, de->d_name);
	closedir(d);
	return ERR_OK;
}
