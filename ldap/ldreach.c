/* SPDX-License-Identifier: BSD-2-Clause */
/* One TCP connection, to tell an unreachable server from a TLS failure
 * (ldreach.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <ldap.h>

#include "ldreach.h"
#include "base/err.h"
#include "base/util.h"

/* One address: 0 connected, else the errno (ETIMEDOUT at the bound). */
static int
ldreach_one(const struct addrinfo *ai, int timeout_s)
{
	int64_t deadline = util_now_ms() + (int64_t)timeout_s * 1000;
	struct pollfd p;
	socklen_t len = sizeof(int);
	int fd, e = 0, n;

	fd = socket(ai->ai_family,
	    ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
	if (fd < 0)
		return errno;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
		goto done;
	if (errno != EINPROGRESS) {
		e = errno;
		goto done;
	}
	p.fd = fd;
	p.events = POLLOUT;
	do
		n = poll(&p, 1, util_ms_left(deadline));
	while (n < 0 && errno == EINTR);
	if (n == 0)
		e = ETIMEDOUT;
	else if (n < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &len) != 0)
		e = errno;
done:
	close(fd);
	return e;
}

/* The reason in words, for the last address tried. */
static void
ldreach_say(int e, int timeout_s, char *why, size_t whylen)
{
	if (e == ETIMEDOUT)
		snprintf(why, whylen, "no answer within %d s", timeout_s);
	else if (e == ECONNREFUSED)
		snprintf(why, whylen, "connection refused");
	else
		snprintf(why, whylen, "%s", strerror(e));
}

int
ldreach_probe(const char *uri, int timeout_s, char *why, size_t whylen)
{
	struct addrinfo hints, *res = NULL, *ai;
	LDAPURLDesc *lud = NULL;
	char port[16];
	int e = 0, g;

	if (ldap_url_parse(uri, &lud) != LDAP_URL_SUCCESS)
		return ERR_INVAL;
	snprintf(port, sizeof(port), "%d",
	    lud->lud_port != 0
		? lud->lud_port
		: (strcmp(lud->lud_scheme, "ldaps") == 0 ? 636 : 389));
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	g = getaddrinfo(lud->lud_host != NULL && *lud->lud_host != '\0'
		? lud->lud_host
		: "localhost",
	    port, &hints, &res);
	ldap_free_urldesc(lud);
	if (g != 0) {
		snprintf(
		    why, whylen, "host name not found (%s)", gai_strerror(g));
		return ERR_UNAVAIL;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next)
		if ((e = ldreach_one(ai, timeout_s)) == 0)
			break;
	freeaddrinfo(res);
	if (e == 0)
		return ERR_OK;
	ldreach_say(e, timeout_s, why, whylen);
	return ERR_UNAVAIL;
}
