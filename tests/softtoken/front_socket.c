/* SPDX-License-Identifier: BSD-2-Clause */
/* Socket front: SOCK_SEQPACKET unix socket, one message per report; every
 * input report goes to every client, as hidraw does. A client that is
 * slow to read (descheduled on a loaded machine while 49 others talk to
 * the token: tests/tool/race.sh) would lose reports once the socket holds
 * about 278 of them, among them its own reply; reports it cannot take yet
 * wait in a queue of CLIENT_QUEUE for it instead, and only past that are
 * they dropped, as hidraw drops them past 64. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/util.h"
#include "front.h"

#define MAX_CLIENTS 64
#define CLIENT_QUEUE 4096

struct client {
	int fd;
	uint8_t (*q)[CTAPHID_DEV_REPORT]; /* ring of CLIENT_QUEUE, lazily */
	size_t head, len;
};

struct front_socket {
	char *path;
	int lfd;
	struct client cl[MAX_CLIENTS];
	size_t nclients;
};

static int
listen_at(const char *path, mode_t mode, int *out)
{
	struct sockaddr_un sa;
	struct stat st;
	int fd = -1;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "softtoken: socket path too long: %s\n", path);
		return ERR_INVAL;
	}
	memcpy(sa.sun_path, path, strlen(path));
	if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode))
		unlink(path); /* a stale socket of an earlier run */
	if ((fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK,
		 0)) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    chmod(path, mode) != 0 || listen(fd, 16) != 0) {
		fprintf(stderr, "softtoken: socket %s: %s\n", path,
		    strerror(errno));
		if (fd >= 0)
			close(fd);
		return ERR_SYSTEM;
	}
	*out = fd;
	return ERR_OK;
}

int
front_socket_open(struct front_socket **out, const char *path, mode_t mode)
{
	struct front_socket *fs;
	int r;

	*out = NULL;
	if ((fs = calloc(1, sizeof(*fs))) == NULL ||
	    (fs->path = strdup(path)) == NULL) {
		free(fs);
		return ERR_NOMEM;
	}
	fs->lfd = -1;
	if ((r = listen_at(path, mode, &fs->lfd)) != ERR_OK) {
		free(fs->path);
		free(fs);
		return r;
	}
	*out = fs;
	return ERR_OK;
}

/* Send what waits for c, in order, until the socket is full. */
static void
client_flush(struct client *c)
{
	while (c->len > 0) {
		if (send(c->fd, c->q[c->head], CTAPHID_DEV_REPORT,
			MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
			return; /* full, or gone: the read side notices */
		c->head = (c->head + 1) % CLIENT_QUEUE;
		c->len--;
	}
}

static void
client_send(struct client *c, const uint8_t *report)
{
	client_flush(c);
	if (c->len == 0 &&
	    send(c->fd, report, CTAPHID_DEV_REPORT,
		MSG_DONTWAIT | MSG_NOSIGNAL) >= 0)
		return;
	if (c->q == NULL &&
	    (c->q = calloc(CLIENT_QUEUE, sizeof(*c->q))) == NULL)
		return; /* dropped */
	if (c->len == CLIENT_QUEUE)
		return; /* a client that does not read loses reports */
	memcpy(c->q[(c->head + c->len) % CLIENT_QUEUE], report,
	    CTAPHID_DEV_REPORT);
	c->len++;
}

void
front_socket_send(void *arg, const uint8_t *report)
{
	struct front_socket *fs = arg;
	size_t i;

	for (i = 0; i < fs->nclients; i++)
		client_send(&fs->cl[i], report);
}

static void
drop_client(struct front_socket *fs, size_t i)
{
	close(fs->cl[i].fd);
	free(fs->cl[i].q);
	fs->cl[i] = fs->cl[--fs->nclients];
}

/* Accept every pending client, so that a client which connected before
 * another one wrote sees the reply too. */
static void
accept_clients(struct front_socket *fs)
{
	int fd;

	while ((fd = accept4(
		    fs->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK)) >= 0) {
		if (fs->nclients == MAX_CLIENTS)
			close(fd);
		else {
			memset(&fs->cl[fs->nclients], 0, sizeof(fs->cl[0]));
			fs->cl[fs->nclients++].fd = fd;
		}
	}
}

/* Read one message from client i; 0 if the client went away. */
static int
read_client(struct front_socket *fs, size_t i, struct ctaphid_dev *d)
{
	uint8_t buf[CTAPHID_DEV_REPORT + 1];
	ssize_t n;

	n = recv(fs->cl[i].fd, buf, sizeof(buf), MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 1;
	if (n <= 0)
		return 0;
	ctaphid_dev_input(d, buf, (size_t)n, util_now_ms());
	util_wipe(buf, sizeof(buf));
	return 1;
}

static int
wait_events(struct front_socket *fs, struct ctaphid_dev *d, struct pollfd *pfd,
    const sigset_t *sigmask)
{
	struct timespec ts, *tsp = NULL;
	size_t i;
	int ms;

	pfd[0].fd = fs->lfd;
	pfd[0].events = POLLIN;
	for (i = 0; i < fs->nclients; i++) {
		pfd[i + 1].fd = fs->cl[i].fd;
		pfd[i + 1].events = POLLIN | (fs->cl[i].len > 0 ? POLLOUT : 0);
		pfd[i + 1].revents = 0;
	}
	if ((ms = ctaphid_dev_next_ms(d, util_now_ms())) >= 0) {
		ts.tv_sec = ms / 1000;
		ts.tv_nsec = (long)(ms % 1000) * 1000000L;
		tsp = &ts;
	}
	return ppoll(pfd, fs->nclients + 1, tsp, sigmask);
}

int
front_socket_run(struct front_socket *fs, struct ctaphid_dev *d,
    const sigset_t *sigmask, volatile sig_atomic_t *stop)
{
	struct pollfd pfd[MAX_CLIENTS + 1];
	size_t i, n;

	while (!*stop && !ctaphid_dev_gone(d)) {
		if (wait_events(fs, d, pfd, sigmask) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(
			    stderr, "softtoken: ppoll: %s\n", strerror(errno));
			return ERR_SYSTEM;
		}
		n = fs->nclients;
		accept_clients(fs);
		for (i = n; i > 0; i--) {
			if (pfd[i].revents & POLLOUT)
				client_flush(&fs->cl[i - 1]);
			if ((pfd[i].revents & ~POLLOUT) != 0 &&
			    !read_client(fs, i - 1, d))
				drop_client(fs, i - 1);
		}
		ctaphid_dev_tick(d, util_now_ms());
	}
	return ERR_OK;
}

void
front_socket_close(struct front_socket **fsp)
{
	struct front_socket *fs = *fsp;

	if (fs == NULL)
		return;
	while (fs->nclients > 0)
		drop_client(fs, fs->nclients - 1);
	if (fs->lfd >= 0) {
		close(fs->lfd);
		unlink(fs->path);
	}
	free(fs->path);
	free(fs);
	*fsp = NULL;
}
