/* SPDX-License-Identifier: BSD-2-Clause */
/* sshauth_run and sshagent_list_sk (ssh.h): one connection to the
 * agent, from the socket checks to the verified signature. Its own
 * file: the one driver over the parts (agentsock.c, agent.c, sshsig.c,
 * sshpub.c), which decides the order of the steps and nothing else. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "sshpub_int.h"
#include "sshsig.h"
#include "base/err.h"
#include "base/util.h"

static int64_t
deadline_of(int timeout_ms, int64_t cap)
{
	int64_t d = util_now_ms() + timeout_ms;

	return cap != 0 && cap < d ? cap : d;
}

/* The first of keys[0..n-1] that the agent lists: its index in *i. */
static int
choose(
    const struct agent_ids *ids, const struct sshpub *keys, size_t n, size_t *i)
{
	size_t j;

	for (*i = 0; *i < n; (*i)++)
		for (j = 0; j < ids->n; j++)
			if (keys[*i].blob != NULL &&
			    ids->id[j].blob_len == keys[*i].blob_len &&
			    memcmp(ids->id[j].blob, keys[*i].blob,
				keys[*i].blob_len) == 0)
				return ERR_OK;
	return ERR_AGENT_NO_KEY;
}

static uint64_t
wall_time(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0 || ts.tv_sec < 0)
		return 0;
	return (uint64_t)ts.tv_sec;
}

/* Challenge, sign, verify, flags: with key k on the connection fd. */
static int
sign_with(int fd, const struct sshauth_req *rq, const struct sshpub *k,
    int64_t deadline, struct sshauth_res *res)
{
	struct sshsig_chal c;
	struct wire sig;
	int r;

	wire_init(&sig, 0);
	if ((r = sshsig_chal_new(
		 rq->user, rq->service, rq->host, wall_time(), &c)) != ERR_OK)
		return r;
	if (rq->cue != NULL)
		rq->cue(rq->cue_arg, k);
	if ((r = agent_sign(fd, k->blob, k->blob_len, c.data, c.data_len,
		 deadline, &sig)) != ERR_OK)
		log_msg(rq->lg, "ssh-agent: sign: %s", err_str(r));
	else if ((r = sshsig_verify(k, c.data, c.data_len, sig.p, sig.len,
		      &res->flags, &res->counter)) != ERR_OK)
		log_msg(rq->lg, "ssh-agent: signature: %s", err_str(r));
	else if ((r = sshsig_flags_ok(k, rq->need_uv, res->flags)) != ERR_OK)
		log_msg(rq->lg, "ssh-agent: signature flags 0x%02x: %s",
		    res->flags, err_str(r));
	wire_clear(&sig);
	sshsig_chal_clear(&c);
	return r;
}

/* List the agent's identities and choose the first of keys[] it holds:
 * ERR_OK with its index in *i, ERR_AGENT_NO_KEY, or the list's error. */
static int
list_choose(int fd, const struct sshauth_req *rq, const struct sshpub *keys,
    size_t n, int64_t deadline, size_t *i)
{
	struct agent_ids ids;
	int r;

	memset(&ids, 0, sizeof(ids));
	if ((r = agent_list(fd, deadline, &ids)) != ERR_OK)
		log_msg(rq->lg, "ssh-agent: list: %s", err_str(r));
	else if ((r = choose(&ids, keys, n, i)) != ERR_OK)
		log_msg(rq->lg,
		    "ssh-agent: none of %zu key(s) among the agent's %zu", n,
		    ids.n);
	agent_ids_clear(&ids);
	return r;
}

/* One key: ask for the signature at once (one round trip); only if the
 * agent refuses, list its identities to tell a key it does not hold
 * (ERR_AGENT_NO_KEY) from a refusal (ERR_AGENT_REFUSED: the key is
 * listed); a list that fails gives its own error. */
static int
sign_one(int fd, const struct sshauth_req *rq, const struct sshpub *k,
    int64_t deadline, struct sshauth_res *res)
{
	size_t i;
	int r, l;

	r = sign_with(fd, rq, k, deadline, res);
	if (r == ERR_AGENT_REFUSED &&
	    (l = list_choose(fd, rq, k, 1, deadline, &i)) != ERR_OK)
		r = l;
	return r;
}

int
sshauth_run(const struct sshauth_req *rq, const struct sshpub *keys, size_t n,
    struct sshauth_res *res)
{
	int64_t deadline;
	int fd = -1, r;
	size_t i = 0;

	if (rq == NULL || res == NULL || (keys == NULL && n > 0) ||
	    rq->timeout_ms <= 0)
		return ERR_INVAL;
	memset(res, 0, sizeof(*res));
	deadline = deadline_of(rq->timeout_ms, rq->deadline);
	if ((r = agent_connect(rq->sock, rq->uid, deadline, rq->lg, &fd)) !=
	    ERR_OK)
		goto fail;
	if (n == 1 && keys[0].blob != NULL)
		r = sign_one(fd, rq, &keys[0], deadline, res);
	else if ((r = list_choose(fd, rq, keys, n, deadline, &i)) == ERR_OK)
		r = sign_with(fd, rq, &keys[i], deadline, res);
	if (r != ERR_OK)
		goto fail;
	res->key = i;
	r = ERR_OK;
fail:
	if (r != ERR_OK)
		memset(res, 0, sizeof(*res));
	if (fd >= 0)
		close(fd);
	return r;
}

/* The FIDO identities of ids as keys, with their comments. */
static int
collect(const struct agent_ids *ids, struct sshpub *out, size_t *n)
{
	const struct agent_id *id;
	size_t i;
	int r;

	for (i = 0, *n = 0; i < ids->n; i++) {
		id = &ids->id[i];
		r = sshpub_from_blob(id->blob, id->blob_len, &out[*n]);
		if (r == ERR_UNSUPPORTED)
			continue; /* not a FIDO key */
		if (r != ERR_OK)
			return r == ERR_PARSE ? ERR_AGENT_REPLY : r;
		if (id->comment_len > 0 &&
		    (out[*n].comment = strndup(
			 (const char *)id->comment, id->comment_len)) == NULL)
			return ERR_NOMEM;
		(*n)++;
	}
	return ERR_OK;
}

int
sshagent_list_sk(const char *sock, uid_t uid, int timeout_ms,
    const struct log *lg, struct sshpub **keys, size_t *n)
{
	struct agent_ids ids;
	struct sshpub *out = NULL;
	size_t got = 0;
	int64_t deadline;
	int fd = -1, r;

	if (keys == NULL || n == NULL || timeout_ms <= 0)
		return ERR_INVAL;
	*keys = NULL;
	*n = 0;
	memset(&ids, 0, sizeof(ids));
	deadline = deadline_of(timeout_ms, 0);
	if ((r = agent_connect(sock, uid, deadline, lg, &fd)) != ERR_OK)
		goto fail;
	if ((r = agent_list(fd, deadline, &ids)) != ERR_OK) {
		log_msg(lg, "ssh-agent: list: %s", err_str(r));
		goto fail;
	}
	if ((out = calloc(ids.n + 1, sizeof(*out))) == NULL) {
		r = ERR_NOMEM;
		goto fail;
	}
	if ((r = collect(&ids, out, &got)) != ERR_OK)
		goto fail;
	*keys = out;
	*n = got;
	out = NULL;
	r = ERR_OK;
fail:
	sshpub_free_list(out, ids.n + 1);
	agent_ids_clear(&ids);
	if (fd >= 0)
		close(fd);
	return r;
}
