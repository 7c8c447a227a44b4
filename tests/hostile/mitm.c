/* SPDX-License-Identifier: BSD-2-Clause */
/* A lying device in front of a software token; see mitm.h. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "mitm.h"

#define REPORT 64
#define INIT_DATA (REPORT - 7)
#define CONT_DATA (REPORT - 5)
#define MSG_MAX 7609
#define PADDED 300
#define KEEPALIVE_MS 100
#define CMD_MSG 0x83
#define CMD_INIT 0x86
#define CMD_KEEPALIVE 0xbb
#define CMD_ERROR 0xbf
#define INS_AUTHENTICATE 0x02
#define P1_ENFORCE 0x03

struct mitm {
	pthread_t thr;
	int running;
	int lfd, cfd, ufd; /* listening, host side, token side */
	int stop[2];
	enum mitm_fault fault;
	char dir[64];
	char sock[128]; /* our socket's path */
	char path[136]; /* "unix:" sock */
	char up[128];   /* the token's socket path */
	int armed;      /* an AUTHENTICATE P1 03 is outstanding */
	int hits;
	/* The reply being collected, then falsified. */
	int collecting;
	uint8_t cid[4];
	uint8_t msg[MSG_MAX];
	size_t need, have;
	int keepalive; /* MITM_ENDLESS_KEEPALIVE started */
};

static void
mitm_send(struct mitm *m, const uint8_t *rep)
{
	if (m->cfd >= 0 && send(m->cfd, rep, REPORT, MSG_NOSIGNAL) < 0)
		return;
}

/* Frame len bytes of data as a message stating bcnt; init_only: stop
 * after the first frame. */
static void
mitm_frame(struct mitm *m, const uint8_t cid[4], uint8_t cmd,
    const uint8_t *data, size_t len, size_t bcnt, int init_only)
{
	uint8_t rep[REPORT];
	size_t off, n;
	uint8_t seq = 0;

	memset(rep, 0, sizeof(rep));
	memcpy(rep, cid, 4);
	rep[4] = cmd;
	rep[5] = (uint8_t)(bcnt >> 8);
	rep[6] = (uint8_t)bcnt;
	off = len < INIT_DATA ? len : INIT_DATA;
	memcpy(rep + 7, data, off);
	mitm_send(m, rep);
	while (!init_only && off < len) {
		memset(rep, 0, sizeof(rep));
		memcpy(rep, cid, 4);
		rep[4] = seq++;
		n = len - off < CONT_DATA ? len - off : CONT_DATA;
		memcpy(rep + 5, data + off, n);
		off += n;
		mitm_send(m, rep);
	}
}

static void
mitm_drop(struct mitm *m)
{
	if (m->cfd >= 0)
		close(m->cfd);
	if (m->ufd >= 0)
		close(m->ufd);
	m->cfd = m->ufd = -1;
	m->armed = m->collecting = m->keepalive = 0;
}

/* The device is gone: no connection, no socket to connect to. */
static void
mitm_vanish(struct mitm *m)
{
	mitm_drop(m);
	if (m->lfd >= 0)
		close(m->lfd);
	m->lfd = -1;
	unlink(m->sock);
}

static void
mitm_keepalive(struct mitm *m)
{
	uint8_t status = 0x02;

	mitm_frame(m, m->cid, CMD_KEEPALIVE, &status, 1, 1, 0);
}

/* The whole reply is in m->msg: send it as the fault says. */
static void
mitm_falsify(struct mitm *m)
{
	uint8_t bad[4], code = 0x7f;
	size_t i;

	__atomic_add_fetch(&m->hits, 1, __ATOMIC_SEQ_CST);
	m->collecting = 0;
	switch (m->fault) {
	case MITM_WRONG_CID:
		for (i = 0; i < 4; i++)
			bad[i] = m->cid[i] ^ 0x01;
		mitm_frame(m, bad, CMD_MSG, m->msg, m->need, m->need, 0);
		break;
	case MITM_BCNT_TOO_LARGE:
		mitm_frame(m, m->cid, CMD_MSG, m->msg, m->need, MSG_MAX + 1, 0);
		break;
	case MITM_BCNT_ABOVE_ASKED:
		memset(m->msg + m->need, 0, PADDED - m->need);
		mitm_frame(m, m->cid, CMD_MSG, m->msg, PADDED, PADDED, 0);
		break;
	case MITM_ERROR_FRAME:
		mitm_frame(m, m->cid, CMD_ERROR, &code, 1, 1, 0);
		break;
	case MITM_ENDLESS_KEEPALIVE:
		m->keepalive = 1;
		mitm_keepalive(m);
		break;
	case MITM_MISSING_CONT:
		mitm_frame(m, m->cid, CMD_MSG, m->msg, m->need, m->need, 1);
		break;
	case MITM_VANISH:
		mitm_frame(m, m->cid, CMD_MSG, m->msg, m->need, m->need, 1);
		mitm_vanish(m);
		break;
	default:
		mitm_frame(m, m->cid, CMD_MSG, m->msg, m->need, m->need, 0);
		break;
	}
	memset(m->msg, 0, sizeof(m->msg));
}

/* A report from the host: note whether it asks for a signature. */
static void
mitm_from_host(struct mitm *m, const uint8_t *rep)
{
	if (rep[4] == CMD_MSG)
		m->armed = rep[8] == INS_AUTHENTICATE && rep[9] == P1_ENFORCE;
	if (m->ufd >= 0 && send(m->ufd, rep, REPORT, MSG_NOSIGNAL) < 0)
		mitm_drop(m);
}

/* A report from the token: collect the reply to falsify, pass the rest. */
static void
mitm_from_token(struct mitm *m, uint8_t *rep)
{
	size_t n;

	if (m->fault == MITM_WRONG_NONCE && rep[4] == CMD_INIT) {
		rep[7] ^= 0xff;
		__atomic_add_fetch(&m->hits, 1, __ATOMIC_SEQ_CST);
	}
	if (m->collecting && !(rep[4] & 0x80) && memcmp(rep, m->cid, 4) == 0) {
		n = m->need - m->have < CONT_DATA ? m->need - m->have
						  : CONT_DATA;
		memcpy(m->msg + m->have, rep + 5, n);
		m->have += n;
	} else if (m->armed && m->fault != MITM_NONE &&
	    m->fault != MITM_WRONG_NONCE && rep[4] == CMD_MSG) {
		m->armed = 0;
		m->collecting = 1;
		memcpy(m->cid, rep, 4);
		m->need = (size_t)rep[5] << 8 | rep[6];
		if (m->need > PADDED)
			m->need = PADDED; /* not an AUTHENTICATE reply */
		m->have = m->need < INIT_DATA ? m->need : INIT_DATA;
		memcpy(m->msg, rep + 7, m->have);
	} else {
		mitm_send(m, rep);
		return;
	}
	if (m->have == m->need)
		mitm_falsify(m);
}

static void
mitm_accept(struct mitm *m)
{
	struct sockaddr_un sun;
	int fd;

	if ((fd = accept4(m->lfd, NULL, NULL, SOCK_CLOEXEC)) < 0)
		return;
	if (m->cfd >= 0) { /* one host at a time */
		close(fd);
		return;
	}
	m->cfd = fd;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, m->up, strlen(m->up));
	if ((m->ufd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0)) < 0 ||
	    connect(m->ufd, (struct sockaddr *)&sun, sizeof(sun)) != 0)
		mitm_drop(m);
}

/* One side has a report (or closed). */
static void
mitm_relay(struct mitm *m, int from_host)
{
	uint8_t rep[REPORT];
	ssize_t n;

	memset(rep, 0, sizeof(rep));
	n = recv(from_host ? m->cfd : m->ufd, rep, sizeof(rep), 0);
	if (n <= 0) {
		mitm_drop(m);
		return;
	}
	if (from_host)
		mitm_from_host(m, rep);
	else
		mitm_from_token(m, rep);
}

static void *
mitm_loop(void *arg)
{
	struct mitm *m = arg;
	struct pollfd p[4];
	int r;

	for (;;) {
		memset(p, 0, sizeof(p));
		p[0].fd = m->stop[0];
		p[1].fd = m->cfd < 0 ? m->lfd : -1;
		p[2].fd = m->cfd;
		p[3].fd = m->ufd;
		p[0].events = p[1].events = p[2].events = p[3].events = POLLIN;
		r = poll(p, 4, m->keepalive ? KEEPALIVE_MS : -1);
		if (r < 0 && errno != EINTR)
			break;
		if (p[0].revents)
			break;
		if (r == 0 && m->keepalive)
			mitm_keepalive(m);
		if (p[1].revents)
			mitm_accept(m);
		if (p[2].revents && m->cfd >= 0)
			mitm_relay(m, 1);
		if (p[3].revents && m->ufd >= 0)
			mitm_relay(m, 0);
	}
	return NULL;
}

static int
mitm_listen(struct mitm *m)
{
	struct sockaddr_un sun;

	snprintf(m->dir, sizeof(m->dir), "/tmp/pu-mitm-XXXXXX");
	if (mkdtemp(m->dir) == NULL)
		return -1;
	snprintf(m->sock, sizeof(m->sock), "%s/mitm.sock", m->dir);
	snprintf(m->path, sizeof(m->path), "unix:%s", m->sock);
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, m->sock, strlen(m->sock));
	if ((m->lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0)) < 0 ||
	    bind(m->lfd, (struct sockaddr *)&sun, sizeof(sun)) != 0 ||
	    listen(m->lfd, 4) != 0)
		return -1;
	return 0;
}

int
mitm_start(struct mitm **out, const char *upstream, enum mitm_fault f)
{
	struct mitm *m = NULL;

	*out = NULL;
	if (strncmp(upstream, "unix:", 5) != 0 ||
	    strlen(upstream + 5) >= sizeof(m->up) ||
	    (m = calloc(1, sizeof(*m))) == NULL)
		return -1;
	m->lfd = m->cfd = m->ufd = m->stop[0] = m->stop[1] = -1;
	m->fault = f;
	snprintf(m->up, sizeof(m->up), "%s", upstream + 5);
	if (mitm_listen(m) != 0 || pipe(m->stop) != 0 ||
	    pthread_create(&m->thr, NULL, mitm_loop, m) != 0) {
		mitm_stop(&m);
		return -1;
	}
	m->running = 1;
	*out = m;
	return 0;
}

const char *
mitm_path(const struct mitm *m)
{
	return m->path;
}

int
mitm_hits(const struct mitm *m)
{
	return __atomic_load_n(&m->hits, __ATOMIC_SEQ_CST);
}

void
mitm_stop(struct mitm **mp)
{
	struct mitm *m = *mp;

	if (m == NULL)
		return;
	if (m->running) {
		if (write(m->stop[1], "x", 1) != 1)
			pthread_cancel(m->thr);
		pthread_join(m->thr, NULL);
	}
	mitm_vanish(m);
	if (m->stop[0] >= 0)
		close(m->stop[0]);
	if (m->stop[1] >= 0)
		close(m->stop[1]);
	rmdir(m->dir);
	free(m);
	*mp = NULL;
}
