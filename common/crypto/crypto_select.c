/* SPDX-License-Identifier: BSD-2-Clause */
/* Which implementation crypto.h's SHA-256, SHA-512, P-256 point check and ES256
 * verification use, chosen once per process: the EVP one (crypto.c)
 * unless the build has the direct one (configure --enable-direct-verify,
 * crypto_direct.c) and the kernel is not in FIPS mode (crypto_fips.c).
 * Its own file because it holds one of the two pieces of process state of
 * common/crypto/ (below; the other is p256key.c's P-256 key template),
 * and so that every caller of an implementation
 * is named here, in a table, rather than pasted together by a macro. */
#include "config.h"

#include <pthread.h>
#include <stddef.h>

#include "crypto_int.h"

#if DIRECT_VERIFY
static const struct crypto_impl impl_evp_fips = {
    "evp (kernel FIPS mode)",
    crypto_sha256_evp,
    crypto_sha512_evp,
    crypto_p256_point_evp,
    crypto_es256_verify_evp,
};

static const struct crypto_impl impl_direct = {
    "direct",
    crypto_sha256_direct,
    crypto_sha512_direct,
    crypto_p256_point_direct,
    crypto_es256_verify_direct,
};
#else
static const struct crypto_impl impl_evp = {
    "evp",
    crypto_sha256_evp,
    crypto_sha512_evp,
    crypto_p256_point_evp,
    crypto_es256_verify_evp,
};
#endif

int
crypto_use_direct(const char *fips_path)
{
	return DIRECT_VERIFY && !crypto_fips_mode(fips_path);
}

const struct crypto_impl *
crypto_impl_at(const char *fips_path)
{
#if DIRECT_VERIFY
	return crypto_use_direct(fips_path) ? &impl_direct : &impl_evp_fips;
#else
	(void)fips_path; /* EVP throughout: the switch is never read */
	return &impl_evp;
#endif
}

/* The choice for this process. A process-wide value, against the rule of
 * no globals, because the FIPS switch is a property of the running
 * kernel, set at boot, the same for every PAM handle and thread: reading
 * the file again at every check (as before) cost a system call per
 * signature and could, mid-process, switch implementations. It is written
 * exactly once, under pthread_once, and holds a pointer to constant data,
 * never anything of a user or a transaction. (pthread_once needs no
 * destructor: a module unloaded and loaded again starts with a fresh
 * copy.) */
static pthread_once_t impl_once = PTHREAD_ONCE_INIT;
static const struct crypto_impl *impl_chosen;

static void
impl_choose(void)
{
	impl_chosen = crypto_impl_at(CRYPTO_FIPS_PATH);
}

const struct crypto_impl *
crypto_impl(void)
{
	if (pthread_once(&impl_once, impl_choose) != 0 || impl_chosen == NULL)
		return crypto_impl_at(CRYPTO_FIPS_PATH); /* cannot happen */
	return impl_chosen;
}

const char *
crypto_verify_impl_at(const char *fips_path)
{
	return crypto_impl_at(fips_path)->name;
}

const char *
crypto_verify_impl(void)
{
	return crypto_impl()->name;
}
