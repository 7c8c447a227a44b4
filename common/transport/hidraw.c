/* SPDX-License-Identifier: BSD-2-Clause */
/* Linux hidraw: FIDO discovery through sysfs and the struct hid_io for
 * /dev/hidrawN (the descriptor parser is in hidraw_rdesc.c). This is the
 * only file that touches /dev, /sys and ioctl. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/hidraw.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "hid.h"
#include "hidraw.h"
#include "base/bytereader.h"
#include "base/util.h"

#define HIDRAW_DEFAULT_REPORT 64
#define HIDRAW_UEVENT_MAX 4096
#define HIDRAW_STRING_MAX 256 /* manufacturer file */

/* Read at most cap bytes of a (sysfs) file; ERR_TOO_BIG if it is longer. */
static int
read_small(const char *path, uint8_t *buf, size_t cap, size_t *len)
{
	size_t got = 0;
	ssize_t n;
	int fd, r = ERR_FILE;

	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return ERR_FILE;
	for (;;) {
		n = read(fd, buf + got, cap + 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		got += (size_t)n;
		if (got > cap) {
			r = ERR_TOO_BIG;
			goto fail;
		}
	}
	*len = got;
	r = ERR_OK;
fail:
	close(fd);
	return r;
}

/* A device string: printable ASCII kept, anything else becomes '?'. */
static char *
clean_string(const char *s, size_t len)
{
	char *out;
	size_t i;

	while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\0'))
		len--;
	if ((out = malloc(len + 1)) == NULL)
		return NULL;
	for (i = 0; i < len; i++)
		out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	out[len] = '\0';
	return out;
}

static int
parse_hex_field(const char *s, size_t n, uint32_t *v)
{
	size_t i;
	int c;

	*v = 0;
	for (i = 0; i < n; i++) {
		c = s[i];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			c = c - 'A' + 10;
		else
			return ERR_PARSE;
		*v = *v << 4 | (uint32_t)c;
	}
	return ERR_OK;
}

/* "HID_ID=0003:0000VVVV:0000PPPP" (bus:vendor:product, 4:8:8 hex). */
static int
parse_hid_id(const char *s, size_t len, struct xport_info *di)
{
	uint32_t bus, vid, pid;

	if (len != 4 + 1 + 8 + 1 + 8 || s[4] != ':' || s[13] != ':' ||
	    parse_hex_field(s, 4, &bus) != ERR_OK ||
	    parse_hex_field(s + 5, 8, &vid) != ERR_OK ||
	    parse_hex_field(s + 14, 8, &pid) != ERR_OK || vid > 0xffff ||
	    pid > 0xffff)
		return ERR_PARSE;
	di->vendor_id = (uint16_t)vid;
	di->product_id = (uint16_t)pid;
	return ERR_OK;
}

static int
parse_uevent(const char *s, size_t len, struct xport_info *di)
{
	const char *line, *nl, *end = s + len;
	size_t n;
	int have_id = 0;

	for (line = s; line < end; line = nl + 1) {
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			nl = end;
		n = (size_t)(nl - line);
		if (n >= 7 && memcmp(line, "HID_ID=", 7) == 0) {
			if (parse_hid_id(line + 7, n - 7, di) != ERR_OK)
				return ERR_PARSE;
			have_id = 1;
		} else if (n >= 9 && memcmp(line, "HID_NAME=", 9) == 0 &&
		    di->product == NULL) {
			if ((di->product = clean_string(line + 9, n - 9)) ==
			    NULL)
				return ERR_NOMEM;
		}
	}
	if (di->product == NULL && (di->product = strdup("")) == NULL)
		return ERR_NOMEM;
	return have_id ? ERR_OK : ERR_PARSE;
}

static int
path_fmt(char *buf, size_t cap, const char *a, const char *b, const char *c)
{
	int n = snprintf(buf, cap, "%s%s%s", a, b, c);

	return n < 0 || (size_t)n >= cap ? ERR_TOO_BIG : ERR_OK;
}

/* Fill di from sysfs dir (".../class/hidraw/hidrawN/device"). */
static int
read_devinfo(const char *dir, struct xport_info *di)
{
	char path[PATH_MAX];
	char *buf = NULL;
	size_t len;
	int r;

	if ((buf = malloc(HIDRAW_UEVENT_MAX + 1)) == NULL)
		return ERR_NOMEM;
	if ((r = path_fmt(path, sizeof(path), dir, "/uevent", "")) != ERR_OK ||
	    (r = read_small(path, (uint8_t *)buf, HIDRAW_UEVENT_MAX, &len)) !=
		ERR_OK ||
	    (r = parse_uevent(buf, len, di)) != ERR_OK)
		goto fail;
	/* The USB device is the parent of the interface that holds us. */
	if ((r = path_fmt(
		 path, sizeof(path), dir, "/../../manufacturer", "")) != ERR_OK)
		goto fail;
	if (read_small(path, (uint8_t *)buf, HIDRAW_STRING_MAX, &len) != ERR_OK)
		len = 0;
	if ((di->manufacturer = clean_string(buf, len)) == NULL)
		r = ERR_NOMEM;
fail:
	free(buf);
	return r;
}

static void
devinfo_clear(struct xport_info *di)
{
	free(di->path);
	free(di->manufacturer);
	free(di->product);
	memset(di, 0, sizeof(*di));
}

/* ERR_OK and a filled di for a FIDO device; ERR_NOT_FOUND to skip. */
static int
probe_one(const char *sysroot, const char *devroot, const char *name,
    struct xport_info *di)
{
	struct hidraw_rdesc rd;
	char dir[PATH_MAX], path[PATH_MAX];
	uint8_t *desc = NULL;
	size_t len;
	int r;

	memset(di, 0, sizeof(*di));
	if ((desc = malloc(HIDRAW_RDESC_MAX + 1)) == NULL)
		return ERR_NOMEM;
	if ((r = path_fmt(dir, sizeof(dir), sysroot, "/class/hidraw/", name)) !=
		ERR_OK ||
	    (r = path_fmt(path, sizeof(path), dir, "/device/report_descriptor",
		 "")) != ERR_OK)
		goto fail;
	if (read_small(path, desc, HIDRAW_RDESC_MAX, &len) != ERR_OK ||
	    hidraw_parse_rdesc(desc, len, &rd) != ERR_OK || !rd.fido ||
	    rd.report_ids) {
		r = ERR_NOT_FOUND;
		goto fail;
	}
	di->report_in = rd.report_in;
	di->report_out = rd.report_out;
	if ((r = path_fmt(path, sizeof(path), dir, "/device", "")) != ERR_OK ||
	    (r = read_devinfo(path, di)) != ERR_OK ||
	    (r = path_fmt(path, sizeof(path), devroot, "/", name)) != ERR_OK)
		goto fail;
	if ((di->path = strdup(path)) == NULL)
		r = ERR_NOMEM;
fail:
	free(desc);
	if (r != ERR_OK)
		devinfo_clear(di);
	return r;
}

/* "hidrawN" -> N, or -1 for anything else. */
static long
hidraw_number(const char *name)
{
	const char *p;
	long n = 0;

	if (strncmp(name, "hidraw", 6) != 0 || name[6] == '\0')
		return -1;
	for (p = name + 6; *p != '\0'; p++) {
		if (*p < '0' || *p > '9' || n > 1000000)
			return -1;
		n = n * 10 + (*p - '0');
	}
	return n;
}

static int
devinfo_cmp(const void *a, const void *b)
{
	const struct xport_info *x = a, *y = b;
	size_t lx = strlen(x->path), ly = strlen(y->path);

	/* Same prefix: the shorter number first, then by digits. */
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x->path, y->path);
}

static int
list_add(
    struct xport_info **list, size_t *n, size_t *cap, struct xport_info *di)
{
	struct xport_info *p;
	size_t ncap;

	if (*n == *cap) {
		ncap = *cap ? *cap * 2 : 4;
		if ((p = reallocarray(*list, ncap, sizeof(*p))) == NULL)
			return ERR_NOMEM;
		*list = p;
		*cap = ncap;
	}
	(*list)[(*n)++] = *di;
	memset(di, 0, sizeof(*di));
	return ERR_OK;
}

int
hidraw_discover_at(const char *sysroot, const char *devroot,
    struct xport_info **list, size_t *n)
{
	struct xport_info *found = NULL, di;
	char dir[PATH_MAX];
	struct dirent *de;
	DIR *d = NULL;
	size_t nfound = 0, cap = 0;
	int r;

	if (list == NULL || n == NULL || sysroot == NULL || devroot == NULL)
		return ERR_INVAL;
	*list = NULL;
	*n = 0;
	if ((r = path_fmt(dir, sizeof(dir), sysroot, "/class/hidraw", "")) !=
	    ERR_OK)
		return r;
	if ((d = opendir(dir)) == NULL)
		return errno == ENOENT ? ERR_OK : ERR_SYSTEM;
	while ((de = readdir(d)) != NULL) {
		if (hidraw_number(de->d_name) < 0)
			continue;
		r = probe_one(sysroot, devroot, de->d_name, &di);
		if (r == ERR_NOT_FOUND || r == ERR_FILE || r == ERR_PARSE)
			continue; /* not FIDO, or gone meanwhile */
		if (r != ERR_OK ||
		    (r = list_add(&found, &nfound, &cap, &di)) != ERR_OK) {
			devinfo_clear(&di);
			goto fail;
		}
	}
	if (nfound > 1)
		qsort(found, nfound, sizeof(*found), devinfo_cmp);
	*list = found;
	*n = nfound;
	found = NULL;
	nfound = 0;
	r = ERR_OK;
fail:
	closedir(d);
	xport_info_free(found, nfound);
	return r;
}

int
hidraw_discover(struct xport_info **list, size_t *n)
{
	return hidraw_discover_at("/sys", "/dev", list, n);
}

/* The I/O on /dev/hidrawN. */
struct hidraw_dev {
	int fd;
};

static int
hidraw_errno(int e)
{
	switch (e) {
	case EACCES:
	case EPERM:
		return ERR_PERM;
	case ENOENT:
	case ENODEV:
	case ENXIO:
	case EIO:
		return ERR_NODEV;
	default:
		return ERR_IO;
	}
}

/* Refuse anything that is not a hidraw node with a FIDO descriptor. */
static int
hidraw_check_fd(int fd)
{
	struct hidraw_report_descriptor *rd = NULL;
	struct hidraw_rdesc res;
	struct stat st;
	int size = 0, r = ERR_NODEV;

	if (fstat(fd, &st) != 0)
		return ERR_IO;
	if (!S_ISCHR(st.st_mode))
		return ERR_NODEV;
	if ((rd = calloc(1, sizeof(*rd))) == NULL)
		return ERR_NOMEM;
	if (ioctl(fd, HIDIOCGRDESCSIZE, &size) != 0 || size <= 0 ||
	    size > HID_MAX_DESCRIPTOR_SIZE)
		goto fail;
	rd->size = (uint32_t)size;
	if (ioctl(fd, HIDIOCGRDESC, rd) != 0)
		goto fail;
	if (hidraw_parse_rdesc(rd->value, rd->size, &res) != ERR_OK ||
	    !res.fido || res.report_ids)
		goto fail;
	r = ERR_OK;
fail:
	free(rd);
	return r;
}

static void *
hidraw_open(const char *path, int *err)
{
	struct hidraw_dev *h = NULL;
	int fd = -1, r = ERR_INVAL;

	if (path == NULL)
		goto fail;
	fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		r = hidraw_errno(errno);
		goto fail;
	}
	if ((r = hidraw_check_fd(fd)) != ERR_OK)
		goto fail;
	if ((h = malloc(sizeof(*h))) == NULL) {
		r = ERR_NOMEM;
		goto fail;
	}
	h->fd = fd;
	fd = -1;
	r = ERR_OK;
fail:
	if (fd != -1)
		close(fd);
	if (err != NULL)
		*err = r;
	return h;
}

static void
hidraw_close(void *handle)
{
	struct hidraw_dev *h = handle;

	if (h == NULL)
		return;
	if (h->fd != -1)
		close(h->fd);
	free(h);
}

static int
hidraw_read(void *handle, uint8_t *buf, size_t cap, int ms)
{
	struct hidraw_dev *h = handle;
	int64_t deadline = util_now_ms() + ms;
	ssize_t n;
	int r;

	if (h == NULL || buf == NULL || cap == 0 || ms < 0)
		return ERR_INVAL;
	if (cap > HID_REPORT_MAX)
		cap = HID_REPORT_MAX;
	for (;;) {
		if ((r = util_poll(h->fd, POLLIN, util_ms_left(deadline))) !=
		    ERR_OK)
			return r;
		n = read(h->fd, buf, cap);
		if (n > 0)
			return (int)n;
		if (n == 0)
			return ERR_NODEV;
		if (errno != EINTR && errno != EAGAIN)
			return hidraw_errno(errno);
		if (util_ms_left(deadline) == 0)
			return ERR_TIMEOUT;
	}
}

static int
hidraw_write(void *handle, const uint8_t *buf, size_t len, int ms)
{
	struct hidraw_dev *h = handle;
	int64_t deadline = util_now_ms() + ms;
	uint8_t out[HID_REPORT_MAX + 1];
	ssize_t n;
	int r;

	if (h == NULL || buf == NULL || len == 0 || len > HID_REPORT_MAX ||
	    ms < 0)
		return ERR_INVAL;
	out[0] = 0; /* report id: FIDO devices use none */
	memcpy(out + 1, buf, len);
	for (;;) {
		n = write(h->fd, out, len + 1);
		if (n >= 0 || (errno != EINTR && errno != EAGAIN))
			break;
		if (errno == EAGAIN &&
		    (r = util_poll(h->fd, POLLOUT, util_ms_left(deadline))) !=
			ERR_OK)
			goto fail;
	}
	if (n < 0)
		r = hidraw_errno(errno);
	else
		r = (size_t)n == len + 1 ? ERR_OK : ERR_IO;
fail:
	util_wipe(out, sizeof(out));
	return r;
}

static int
hidraw_fd(const void *handle)
{
	const struct hidraw_dev *h = handle;

	return h != NULL ? h->fd : -1;
}

const struct hid_io hidraw_io = {
    .open = hidraw_open,
    .close = hidraw_close,
    .read = hidraw_read,
    .write = hidraw_write,
    .fd = hidraw_fd,
};
