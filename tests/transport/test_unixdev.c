/* SPDX-License-Identifier: BSD-2-Clause */
/* CTAPHID over the unix: back end, against a SOCK_SEQPACKET server run in
 * a child process (the fake device answers behind the socket). */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "transport/ctaphid.h"
#include "base/err.h"
#include "fakehid.h"
#include "transport/hid.h"
#include "test.h"
#include "transport/unixdev.h"

static const uint8_t cid_ok[4] = {0xc5, 0x71, 0xf8, 0x01};

/* What the server does besides INIT and PING. */
struct server_state {
	int close_now;
};

/* MSG: answer with one 63-byte and one 65-byte report; WINK: hang up. */
static void
server_handler(struct fakehid *f, const uint8_t cid[4], uint8_t cmd,
    const uint8_t *data, size_t len, void *arg)
{
	struct server_state *st = arg;
	uint8_t r[65];

	(void)data;
	(void)len;
	if (cmd == CTAPHID_WINK) {
		st->close_now = 1;
		return;
	}
	if (cmd != CTAPHID_MSG)
		return;
	memset(r, 0, sizeof(r));
	memcpy(r, cid, 4);
	r[4] = CTAPHID_MSG;
	r[6] = 2;
	fakehid_queue_report(f, r, 63);
	fakehid_queue_report(f, r, 65);
}

static int
serve(int lfd)
{
	struct server_state st = {0};
	struct fakehid *f = fakehid_new(0);
	uint8_t buf[128];
	void *h;
	ssize_t n;
	int c, err = 0, m;

	if (f == NULL || (c = accept(lfd, NULL, NULL)) < 0)
		return 1;
	fakehid_auto_init(f, cid_ok);
	fakehid_auto_ping(f, 1);
	fakehid_set_handler(f, server_handler, &st);
	if ((h = fakehid_io.open(fakehid_path(f), &err)) == NULL)
		return 1;
	while (!st.close_now && (n = recv(c, buf, sizeof(buf), 0)) > 0) {
		if (n != 64 || fakehid_io.write(h, buf, (size_t)n, 0) != ERR_OK)
			return 2; /* the host must send 64-byte reports */
		while ((m = fakehid_io.read(h, buf, sizeof(buf), 0)) > 0)
			if (send(c, buf, (size_t)m, MSG_NOSIGNAL) != m)
				return 1;
	}
	close(c);
	fakehid_io.close(h);
	fakehid_free(f);
	return 0;
}

/* Listen on dir/sock and serve one connection in a child. */
static pid_t
start_server(const char *dir, char *path, size_t cap)
{
	struct sockaddr_un sun;
	pid_t pid;
	int lfd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/sock", dir);
	snprintf(path, cap, "unix:%s", sun.sun_path);
	lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sun, sizeof(sun)) != 0 ||
	    listen(lfd, 1) != 0)
		abort();
	fflush(stdout); /* or the child may print the TAP plan again */
	if ((pid = fork()) < 0)
		abort();
	if (pid == 0) {
		alarm(20);
		_exit(serve(lfd));
	}
	close(lfd);
	return pid;
}

static void
test_unix_roundtrip(void)
{
	char dir[] = "/tmp/test_unixdev.XXXXXX", path[128];
	struct ctaphid *ch = NULL;
	uint8_t data[200], buf[16];
	size_t i, len = 0;
	int status = -1;
	pid_t pid;

	if (mkdtemp(dir) == NULL)
		abort();
	pid = start_server(dir, path, sizeof(path));
	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 13);
	T_TRUE(hid_io_for(path) == &unixdev_io);
	T_EQ_ERR(ctaphid_open(hid_io_for(path), path, 0, 0, NULL, 5000, &ch),
	    ERR_OK);
	if (ch != NULL) {
		T_EQ_MEM(ch->cid, cid_ok, 4);
		T_EQ_ERR(ctaphid_ping(ch, data, sizeof(data), 5000), ERR_OK);
		/* a 63-byte message, then a 65-byte one */
		T_EQ_ERR(ctaphid_xfer(ch, CTAPHID_MSG, data, 10, buf,
			     sizeof(buf), &len, 5000),
		    ERR_PROTO);
		T_EQ_ERR(ctaphid_recv(ch, CTAPHID_MSG, buf, sizeof(buf), &len,
			     5000, NULL),
		    ERR_PROTO);
		/* the server hangs up */
		T_EQ_ERR(ctaphid_wink(ch, 5000), ERR_NODEV);
	}
	ctaphid_close(&ch);
	T_EQ_INT(waitpid(pid, &status, 0), pid);
	T_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	snprintf(path, sizeof(path), "%s/sock", dir);
	unlink(path);
	rmdir(dir);
}

static void
test_unix_open_errors(void)
{
	char longpath[200];
	int err = 0;

	T_TRUE(unixdev_io.open("unix:/nonexistent/dir/sock", &err) == NULL);
	T_EQ_ERR(err, ERR_NODEV);
	T_TRUE(unixdev_io.open("unix:", &err) == NULL);
	T_EQ_ERR(err, ERR_INVAL);
	T_TRUE(unixdev_io.open("/dev/hidraw0", &err) == NULL);
	T_EQ_ERR(err, ERR_INVAL);
	memset(longpath, 'a', sizeof(longpath) - 1);
	memcpy(longpath, "unix:/", 6);
	longpath[sizeof(longpath) - 1] = '\0';
	T_TRUE(unixdev_io.open(longpath, &err) == NULL);
	T_EQ_ERR(err, ERR_INVAL);
}

/* A peer that accepts and never reads (a device that takes no output
 * report): writes wait in poll(2) for room only until their deadline.
 * Without one, a write would block forever (the alarm would end the
 * test as a failure). */
static void
test_unix_peer_never_reads(void)
{
	char dir[] = "/tmp/test_unixdev.XXXXXX", path[160], sock[100];
	struct sockaddr_un sun;
	uint8_t rep[64];
	void *h = NULL;
	int lfd, cfd = -1, err = 0, r = ERR_OK, n;

	if (mkdtemp(dir) == NULL)
		abort();
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sock, sizeof(sock), "%s/sock", dir);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", sock);
	snprintf(path, sizeof(path), "unix:%s", sock);
	lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sun, sizeof(sun)) != 0 ||
	    listen(lfd, 1) != 0)
		abort();
	h = unixdev_io.open(path, &err);
	T_TRUE(h != NULL);
	if (h != NULL && (cfd = accept(lfd, NULL, NULL)) >= 0) {
		memset(rep, 0x5a, sizeof(rep));
		(void)alarm(60);
		/* the socket's buffer holds a few hundred reports */
		for (n = 0; n < 100000 && r == ERR_OK; n++)
			r = unixdev_io.write(h, rep, sizeof(rep), 20);
		T_EQ_ERR(r, ERR_TIMEOUT);
		T_TRUE(n > 1 && n < 100000);
		/* still full: the next write ends at its deadline too */
		T_EQ_ERR(unixdev_io.write(h, rep, sizeof(rep), 0), ERR_TIMEOUT);
		(void)alarm(0);
		printf("# %d reports taken before the writes stalled\n", n - 1);
	}
	if (cfd >= 0)
		close(cfd);
	unixdev_io.close(h);
	close(lfd);
	unlink(sock);
	rmdir(dir);
}

TEST_MAIN(TEST(test_unix_roundtrip), TEST(test_unix_open_errors),
    TEST(test_unix_peer_never_reads))
