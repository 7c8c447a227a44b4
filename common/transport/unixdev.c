/* SPDX-License-Identifier: BSD-2-Clause */
/* struct hid_io over a SOCK_SEQPACKET unix socket ("unix:/path"). One
 * message is one report; a peer that closes is a device that went away. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/err.h"
#include "hid.h"
#include "unixdev.h"
#include "base/util.h"
#include "unixpath.h"

struct unixdev {
	int fd;
};

static int
unixdev_errno(int e)
{
	switch (e) {
	case EACCES:
	case EPERM:
		return ERR_PERM;
	case ENOENT:
	case ECONNREFUSED:
	case ECONNRESET:
	case ENOTCONN:
	case EPIPE:
	case ENOTSOCK:
		return ERR_NODEV;
	default:
		return ERR_IO;
	}
}

static void *
unixdev_open(const char *path, int *err)
{
	struct sockaddr_un sun;
	struct unixdev *u = NULL;
	size_t plen = strlen(UNIXDEV_PREFIX);
	int fd = -1, r = ERR_INVAL;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (path == NULL || strncmp(path, UNIXDEV_PREFIX, plen) != 0 ||
	    path[plen] == '\0' || strlen(path + plen) >= sizeof(sun.sun_path))
		goto fail;
	/* only a socket that no one but root (or we) could have bound */
	if ((r = unixpath_resolve(path + plen, geteuid(), sun.sun_path,
		 sizeof(sun.sun_path))) != ERR_OK)
		goto fail;
	if ((fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0)) < 0) {
		r = ERR_SYSTEM;
		goto fail;
	}
	if (connect(fd, (const struct sockaddr *)&sun, sizeof(sun)) != 0) {
		r = unixdev_errno(errno);
		goto fail;
	}
	if ((u = malloc(sizeof(*u))) == NULL) {
		r = ERR_NOMEM;
		goto fail;
	}
	u->fd = fd;
	fd = -1;
	r = ERR_OK;
fail:
	if (fd != -1)
		close(fd);
	if (err != NULL)
		*err = r;
	return u;
}

static void
unixdev_close(void *handle)
{
	struct unixdev *u = handle;

	if (u == NULL)
		return;
	if (u->fd != -1)
		close(u->fd);
	free(u);
}

static int
unixdev_read(void *handle, uint8_t *buf, size_t cap, int ms)
{
	struct unixdev *u = handle;
	ssize_t n;
	int r;

	if (u == NULL || buf == NULL || cap == 0 || ms < 0)
		return ERR_INVAL;
	if ((r = util_poll(u->fd, POLLIN, ms)) != ERR_OK)
		return r;
	do {
		/* MSG_TRUNC: learn the real length of a longer message, so
		 * that it is refused instead of cut. */
		n = recv(u->fd, buf, cap, MSG_TRUNC | MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN ? ERR_TIMEOUT : unixdev_errno(errno);
	if (n == 0)
		return ERR_NODEV; /* the peer closed */
	if ((size_t)n > cap || n > HID_REPORT_MAX) {
		util_wipe(buf, cap);
		return ERR_PROTO; /* longer than any report */
	}
	return (int)n;
}

/* A peer that stops reading fills the socket's buffer: the send then
 * waits in poll(2) for room, until the deadline. */
static int
unixdev_write(void *handle, const uint8_t *buf, size_t len, int ms)
{
	struct unixdev *u = handle;
	int64_t deadline = util_now_ms() + ms;
	ssize_t n;
	int r;

	if (u == NULL || buf == NULL || len == 0 || len > HID_REPORT_MAX ||
	    ms < 0)
		return ERR_INVAL;
	for (;;) {
		n = send(u->fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n >= 0 || (errno != EINTR && errno != EAGAIN))
			break;
		if (errno == EAGAIN &&
		    (r = util_poll(u->fd, POLLOUT, util_ms_left(deadline))) !=
			ERR_OK)
			return r;
	}
	if (n < 0)
		return unixdev_errno(errno);
	if ((size_t)n != len)
		return ERR_IO;
	return ERR_OK;
}

static int
unixdev_fd(const void *handle)
{
	const struct unixdev *u = handle;

	return u != NULL ? u->fd : -1;
}

const struct hid_io unixdev_io = {
    .open = unixdev_open,
    .close = unixdev_close,
    .read = unixdev_read,
    .write = unixdev_write,
    .fd = unixdev_fd,
};
