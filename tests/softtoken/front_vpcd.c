/* SPDX-License-Identifier: BSD-2-Clause */
/* vpcd front: the software token as a contactless FIDO card in
 * vsmartcard's virtual reader. The card connects to the reader driver
 * (libifdvpcd, loaded by pcscd) over TCP; every message either way is a
 * 2-byte big-endian length and a payload. From the reader, a 1-byte
 * payload is a control (00 power off, 01 power on, 02 reset, 04 get ATR:
 * answered with the ATR), anything longer a command APDU, answered with
 * data || SW. Closing the connection takes the card out of the field.
 * The APDUs are nfc_card.c's. */
#include "config.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/util.h"
#include "front.h"
#include "nfc_card.h"

#define VPCD_CONNECT_MS 10000 /* vpcd may still be starting */
#define VPCD_RETRY_MS 50
#define VPCD_SEND_MS 5000
#define VPCD_FRAME_MAX 65535

enum { CTRL_OFF = 0, CTRL_ON = 1, CTRL_RESET = 2, CTRL_ATR = 4 };

struct front_vpcd {
	int fd;
	struct nfc_card *card;
	int owed; /* an APDU waits for its (NFC_CARD_LATER) answer */
	size_t have;
	uint8_t rx[2 + VPCD_FRAME_MAX];
	uint8_t tx[2 + NFC_CARD_REPLY_MAX];
};

/* "HOST:PORT" (the last colon splits) into a connected TCP socket, retried
 * while nothing listens yet, until VPCD_CONNECT_MS. */
static int
connect_hostport(const char *hostport, int *out)
{
	struct addrinfo hints, *ai = NULL;
	const char *colon = strrchr(hostport, ':');
	int64_t deadline = util_now_ms() + VPCD_CONNECT_MS;
	char host[256];
	int fd = -1, one = 1, r;

	if (colon == NULL || (size_t)(colon - hostport) >= sizeof(host))
		return ERR_INVAL;
	memcpy(host, hostport, (size_t)(colon - hostport));
	host[colon - hostport] = '\0';
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	if ((r = getaddrinfo(host, colon + 1, &hints, &ai)) != 0) {
		fprintf(stderr, "softtoken: vpcd %s: %s\n", hostport,
		    gai_strerror(r));
		return ERR_INVAL;
	}
	for (;;) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
		if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		r = errno;
		if (fd >= 0)
			close(fd);
		fd = -1;
		if (r != ECONNREFUSED || util_ms_left(deadline) == 0)
			break;
		(void)poll(NULL, 0, util_cap_ms(VPCD_RETRY_MS, deadline));
	}
	freeaddrinfo(ai);
	if (fd < 0) {
		fprintf(
		    stderr, "softtoken: vpcd %s: %s\n", hostport, strerror(r));
		return ERR_SYSTEM;
	}
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	*out = fd;
	return ERR_OK;
}

int
front_vpcd_open(
    struct front_vpcd **out, const char *hostport, struct token *tok)
{
	struct front_vpcd *fv;
	int r;

	*out = NULL;
	if ((fv = calloc(1, sizeof(*fv))) == NULL)
		return ERR_NOMEM;
	fv->fd = -1;
	if ((r = nfc_card_new(&fv->card, tok)) != ERR_OK ||
	    (r = connect_hostport(hostport, &fv->fd)) != ERR_OK) {
		front_vpcd_close(&fv);
		return r;
	}
	*out = fv;
	return ERR_OK;
}

/* One frame to the reader, waiting in poll() for room, with a deadline. */
static int
send_frame(struct front_vpcd *fv, const uint8_t *p, size_t n)
{
	int64_t deadline = util_now_ms() + VPCD_SEND_MS;
	size_t off = 0;
	ssize_t k;

	fv->tx[0] = (uint8_t)(n >> 8);
	fv->tx[1] = (uint8_t)n;
	memmove(fv->tx + 2, p, n);
	n += 2;
	while (off < n) {
		k = send(
		    fv->fd, fv->tx + off, n - off, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (k > 0) {
			off += (size_t)k;
			continue;
		}
		if (k < 0 && errno != EAGAIN && errno != EINTR)
			return ERR_IO;
		if (util_poll(fv->fd, POLLOUT, util_ms_left(deadline)) !=
		    ERR_OK)
			return ERR_IO;
	}
	util_wipe(fv->tx, n);
	return ERR_OK;
}

static int
control(struct front_vpcd *fv, uint8_t ctrl)
{
	const uint8_t *atr;
	size_t n;

	if (ctrl == CTRL_ATR) {
		atr = nfc_card_atr(&n);
		return send_frame(fv, atr, n);
	}
	if (ctrl == CTRL_OFF || ctrl == CTRL_ON || ctrl == CTRL_RESET) {
		nfc_card_power(fv->card, util_now_ms());
		fv->owed = 0;
	}
	return ERR_OK; /* no answer to these, nor to unknown controls */
}

/* The outcome of an APDU (or of a retry): ERR_NODEV once the card left. */
static int
act(struct front_vpcd *fv, enum nfc_card_act a, const uint8_t *rep, size_t rlen)
{
	fv->owed = a == NFC_CARD_LATER;
	switch (a) {
	case NFC_CARD_REPLY:
		return send_frame(fv, rep, rlen);
	case NFC_CARD_REMOVE:
		return ERR_NODEV;
	default: /* LATER, SILENT: nothing now */
		return ERR_OK;
	}
}

static int
frame(struct front_vpcd *fv, const uint8_t *p, size_t n)
{
	enum nfc_card_act a;
	uint8_t *rep;
	size_t rlen = 0;
	int r;

	if (n == 1)
		return control(fv, p[0]);
	if ((rep = malloc(NFC_CARD_REPLY_MAX)) == NULL)
		return ERR_NOMEM;
	/* two steps: act() must read rlen after nfc_card_apdu set it */
	a = nfc_card_apdu(fv->card, p, n, util_now_ms(), rep, &rlen);
	r = act(fv, a, rep, rlen);
	util_freezero(rep, NFC_CARD_REPLY_MAX);
	return r;
}

/* Read what the reader sent and handle every complete frame. */
static int
read_frames(struct front_vpcd *fv)
{
	size_t len;
	ssize_t k;
	int r;

	k = recv(
	    fv->fd, fv->rx + fv->have, sizeof(fv->rx) - fv->have, MSG_DONTWAIT);
	if (k < 0 && (errno == EAGAIN || errno == EINTR))
		return ERR_OK;
	if (k <= 0)
		return ERR_NODEV; /* the reader went away */
	fv->have += (size_t)k;
	while (fv->have >= 2 &&
	    fv->have >= 2 + (len = (size_t)fv->rx[0] << 8 | fv->rx[1])) {
		if ((r = frame(fv, fv->rx + 2, len)) != ERR_OK)
			return r;
		fv->have -= 2 + len;
		memmove(fv->rx, fv->rx + 2 + len, fv->have);
	}
	return ERR_OK;
}

static int
tick(struct front_vpcd *fv)
{
	enum nfc_card_act a;
	uint8_t *rep;
	size_t rlen = 0;
	int r;

	if (!fv->owed || nfc_card_next_ms(fv->card, util_now_ms()) != 0)
		return ERR_OK;
	if ((rep = malloc(NFC_CARD_REPLY_MAX)) == NULL)
		return ERR_NOMEM;
	a = nfc_card_tick(fv->card, util_now_ms(), rep, &rlen);
	r = act(fv, a, rep, rlen);
	util_freezero(rep, NFC_CARD_REPLY_MAX);
	return r;
}

int
front_vpcd_run(
    struct front_vpcd *fv, const sigset_t *sigmask, volatile sig_atomic_t *stop)
{
	struct pollfd pfd;
	struct timespec ts, *tsp;
	int ms, r = ERR_OK;

	while (!*stop && r == ERR_OK) {
		pfd.fd = fv->fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		tsp = NULL;
		if ((ms = nfc_card_next_ms(fv->card, util_now_ms())) >= 0) {
			ts.tv_sec = ms / 1000;
			ts.tv_nsec = (long)(ms % 1000) * 1000000L;
			tsp = &ts;
		}
		if (ppoll(&pfd, 1, tsp, sigmask) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(
			    stderr, "softtoken: ppoll: %s\n", strerror(errno));
			return ERR_SYSTEM;
		}
		if (pfd.revents != 0)
			r = read_frames(fv);
		if (r == ERR_OK)
			r = tick(fv);
	}
	/* The card leaving (fault card-remove) or the reader closing is
	 * the end of this card's life, not a failure. */
	return r == ERR_NODEV ? ERR_OK : r;
}

void
front_vpcd_close(struct front_vpcd **fvp)
{
	struct front_vpcd *fv = *fvp;

	if (fv == NULL)
		return;
	if (fv->fd >= 0)
		close(fv->fd);
	nfc_card_free(&fv->card);
	util_wipe(fv->rx, sizeof(fv->rx));
	free(fv);
	*fvp = NULL;
}
