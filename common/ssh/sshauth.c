/* SPDX-License-Identifier: BSD-2-Clause */
/* sshauth_run and sshagent_list_sk (ssh.h): the agent exchange.
 * Not written yet: this first version of the file only fixes the
 * interface, and both functions fail with ERR_UNSUPPORTED. */
#include "config.h"

#include "ssh.h"
#include "base/err.h"

int
sshauth_run(const struct sshauth_req *rq, const struct sshpub *keys, size_t n,
    struct sshauth_res *res)
{
	(void)rq;
	(void)keys;
	(void)n;
	(void)res;
	return ERR_UNSUPPORTED;
}

int
sshagent_list_sk(const char *sock, uid_t uid, int timeout_ms,
    const struct log *lg, struct sshpub **keys, size_t *n)
{
	(void)sock;
	(void)uid;
	(void)timeout_ms;
	(void)lg;
	if (keys != NULL)
		*keys = NULL;
	if (n != NULL)
		*n = 0;
	return ERR_UNSUPPORTED;
}
