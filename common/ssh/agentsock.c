/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's socket (agent.h: agent_connect): which paths we connect
 * to, and whom we accept at the other end. Its own file: the rules of
 * trust in a socket are one decision, apart from the messages. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "agent.h"
#include "base/err.h"
#include "base/util.h"

static int
refuse(const struct log *lg, const char *what)
{
	log_msg(lg, "ssh-agent socket refused: %s", what);
	return ERR_AGENT_SOCKET;
}

/* The directory holding path (path is absolute). */
static int
check_dir(const char *path, uid_t uid, const struct log *lg)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	const char *slash = strrchr(path, '/');
	size_t n = (size_t)(slash - path);
	struct stat st;

	memcpy(dir, path, n);
	dir[n == 0 ? 1 : n] = '\0';
	if (n == 0)
		dir[0] = '/';
	if (lstat(dir, &st) != 0)
		return refuse(lg, "its directory cannot be examined");
	if (!S_ISDIR(st.st_mode))
		return refuse(lg, "its directory is a symlink or no directory");
	if (st.st_uid != uid && st.st_uid != 0)
		return refuse(lg, "its directory belongs to another user");
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		return refuse(
		    lg, "its directory is writable by group or others");
	return ERR_OK;
}

/* The path itself, and the socket it names. */
static int
check_path(const char *path, uid_t uid, const struct log *lg, struct stat *st)
{
	if (path[0] != '/')
		return refuse(lg, "not an absolute path (unix sockets only)");
	if (strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path))
		return refuse(lg, "path too long");
	if (lstat(path, st) != 0)
		return refuse(lg, "it cannot be examined");
	if (S_ISLNK(st->st_mode))
		return refuse(lg, "it is a symlink");
	if (!S_ISSOCK(st->st_mode))
		return refuse(lg, "it is not a socket");
	if (st->st_uid != uid)
		return refuse(lg, "it belongs to another user");
	return check_dir(path, uid, lg);
}

/* After connect: the same inode at path, and the peer is uid. */
static int
check_peer(int fd, const char *path, const struct stat *before, uid_t uid,
    const struct log *lg)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	struct stat st;

	if (lstat(path, &st) != 0 || st.st_dev != before->st_dev ||
	    st.st_ino != before->st_ino)
		return refuse(lg, "it was replaced while connecting");
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 ||
	    len != sizeof(cred))
		return refuse(lg, "no peer credentials");
	if (cred.uid != uid)
		return refuse(lg, "the process listening is another user's");
	return ERR_OK;
}

/* connect(2) that waits for a backlog slot no later than deadline: a
 * blocking unix socket's connect sleeps in the kernel at most
 * SO_SNDTIMEO (then EAGAIN); the socket is made non-blocking after. */
static int
connect_by(int fd, const struct sockaddr_un *sa, int64_t deadline)
{
	int ms = util_ms_left(deadline);
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
	int r;

	if (ms == 0)
		return ERR_AGENT_TIMEOUT;
	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) != 0)
		return ERR_SYSTEM;
	do
		r = connect(fd, (const struct sockaddr *)sa, sizeof(*sa));
	while (r != 0 && errno == EINTR && util_ms_left(deadline) > 0);
	if (r != 0)
		return errno == EAGAIN || errno == EINTR ? ERR_AGENT_TIMEOUT
							 : ERR_AGENT_CONNECT;
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0)
		return ERR_SYSTEM;
	return ERR_OK;
}

int
agent_connect(const char *sock, uid_t uid, int64_t deadline,
    const struct log *lg, int *fd)
{
	struct sockaddr_un sa;
	struct stat st;
	int s = -1, r;

	if (sock == NULL || fd == NULL)
		return ERR_INVAL;
	*fd = -1;
	if ((r = check_path(sock, uid, lg, &st)) != ERR_OK)
		return r;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, sock, strlen(sock) + 1);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return ERR_SYSTEM;
	if ((r = connect_by(s, &sa, deadline)) != ERR_OK) {
		if (r == ERR_AGENT_CONNECT)
			log_msg(lg, "ssh-agent: connect: %s", strerror(errno));
		goto fail;
	}
	if ((r = check_peer(s, sock, &st, uid, lg)) != ERR_OK)
		goto fail;
	*fd = s;
	s = -1;
	r = ERR_OK;
fail:
	if (s >= 0)
		close(s);
	return r;
}
