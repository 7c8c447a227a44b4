/* Which ES256 implementation crypto.h's functions use: the EVP one
 * (crypto.c) unless the build has the direct one (configure
 * --enable-direct-verify, crypto_direct.c) and the kernel is not in FIPS
 * mode. No OpenSSL here: asking OpenSSL whether a FIPS provider is
 * configured would load openssl.cnf, the cost the direct path avoids. */
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

int
crypto_use_direct(const char *fips_path)
{
	return DIRECT_VERIFY && !crypto_fips_mode(fips_path);
}
