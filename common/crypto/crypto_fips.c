/* SPDX-License-Identifier: BSD-2-Clause */
/* The kernel's FIPS switch, /proc/sys/crypto/fips_enabled, read without
 * OpenSSL: asking OpenSSL whether a FIPS provider is configured would
 * load openssl.cnf, the cost the direct ES256 path avoids. Its own file
 * so that the one reader of the switch is easy to find, and so that
 * tests/crypto/test_cryptoonce can count its calls (-Wl,--wrap only redirects
 * calls that cross object files). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "crypto_int.h"

int
crypto_fips_mode(const char *path)
{
	char c = 0;
	ssize_t n;
	int fd;

	if (path == NULL)
		return 1;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) < 0)
		return errno == ENOENT ? 0 : 1;
	do
		n = read(fd, &c, 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n != 1 || (c != '0' && c != '1'))
		return 1;
	return c == '1';
}
