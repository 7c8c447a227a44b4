/* SPDX-License-Identifier: BSD-2-Clause */
/* The ssh-agent's answers as common/ssh/agent.c reads them: the input is
 * what the agent sends back (uint32 length, type, body), written into the
 * other end of a socketpair before agent_list (the identities answer)
 * and agent_sign (the sign answer) read it through agent_call's framing.
 * The signature blob a sign answer carries, and the input as such a blob
 * without the framing, go to sshsig_verify (common/ssh/sshsig.c) with
 * ssh-keygen's known answers (tests/ssh/sshsig_kat.h).
 *
 * Invariants: every listed identity and the signature point inside the
 * reply and are the bytes the agent sent; a listing's strings add up to
 * the whole reply; a refusal is exactly SSH_AGENT_FAILURE; a verified
 * signature's flags and counter are the last five bytes of its blob;
 * outputs are empty on error. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/err.h"
#include "base/util.h"
#include "fuzz.h"
#include "ssh/agent.h"
#include "ssh/ssh.h"
#include "ssh/sshpub_int.h"
#include "ssh/sshsig.h"
#include "sshsig_kat.h"

#define DEADLINE_MS 2000 /* the data is all there: never reached */

/* An allocation was made to fail in this pass: inside OpenSSL that may
 * come back as any error (fuzz.h), so only ERR_OK is checked then. */
static int
injected(void)
{
	return failmalloc_injected() != FAILMALLOC_NONE;
}

struct input {
	const uint8_t *buf;
	size_t len;
	const struct sshpub *key; /* KEY_ECDSA, KEY_ED25519 (kat_keys) */
};

/* fd[0] for agent.c; fd[1] holds the input and is shut for writing, so
 * a short reply ends in EOF. -1 when the pair cannot be made. */
static int
agent_pair(const struct input *in, int fd[2])
{
	ssize_t n;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0,
		fd) != 0)
		return -1;
	n = in->len > 0 ? write(fd[1], in->buf, in->len) : 0;
	if (n != (ssize_t)in->len || shutdown(fd[1], SHUT_WR) != 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	return 0;
}

/* Bytes 4.. of the input: the reply body agent_call read (it must have
 * read the length header as the input's). */
static void
check_reply(const struct input *in, const struct wire *reply)
{
	FUZZ_CHECK(in->len >= 4 + reply->len);
	FUZZ_CHECK(((size_t)in->buf[0] << 24 | (size_t)in->buf[1] << 16 |
		       (size_t)in->buf[2] << 8 | in->buf[3]) == reply->len);
	FUZZ_CHECK(reply->len <= SSHAGENT_MAX_MSG &&
	    memcmp(reply->p, in->buf + 4, reply->len) == 0);
}

static int
inside(const struct wire *w, const uint8_t *p, size_t len)
{
	return p >= w->p && len <= w->len && (size_t)(p - w->p) <= w->len - len;
}

/* Each listed blob as sshpub_from_blob reads it (as sshauth.c does). */
static void
check_ids(const struct input *in, const struct agent_ids *ids)
{
	size_t i, sum = 1 + 4;
	struct sshpub k;
	int r;

	check_reply(in, &ids->reply);
	FUZZ_CHECK(ids->n <= SSHAGENT_MAX_KEYS &&
	    ids->reply.p[0] == SSH_AGENT_IDENTITIES_ANSWER);
	for (i = 0; i < ids->n; i++) {
		const struct agent_id *id = &ids->id[i];

		FUZZ_CHECK(inside(&ids->reply, id->blob, id->blob_len));
		FUZZ_CHECK(inside(&ids->reply, id->comment, id->comment_len));
		FUZZ_CHECK(id->comment >= id->blob + id->blob_len + 4);
		sum += 4 + id->blob_len + 4 + id->comment_len;
		FUZZ_CALL(r, sshpub_from_blob(id->blob, id->blob_len, &k));
		if (r == ERR_OK) {
			FUZZ_CHECK(k.blob_len == id->blob_len);
			sshpub_clear(&k);
		}
	}
	FUZZ_CHECK(sum == ids->reply.len);
}

static void
list(const struct input *in)
{
	struct agent_ids ids;
	int fd[2], r;

	if (agent_pair(in, fd) != 0)
		return;
	FUZZ_CALL(r, agent_list(fd[0], util_now_ms() + DEADLINE_MS, &ids));
	FUZZ_CHECK(r == ERR_OK || r == ERR_AGENT_REPLY ||
	    r == ERR_AGENT_CONNECT || r == ERR_NOMEM || injected());
	if (r == ERR_OK)
		check_ids(in, &ids);
	else
		FUZZ_CHECK(ids.n == 0 && ids.reply.p == NULL);
	agent_ids_clear(&ids);
	close(fd[0]);
	close(fd[1]);
}

/* sshsig_verify of sig by both known-answer keys over their data. A
 * verified blob's last five bytes are the flags and counter. */
static void
verify(const struct input *in, const uint8_t *sig, size_t len)
{
	struct sshsig_chal c = {0};
	uint8_t flags = 0;
	uint32_t ctr = 0;
	size_t i;
	int r;

	for (i = 0; i < 2; i++) {
		const struct sshpub *k = &in->key[i];

		FUZZ_CALL(r,
		    sshsig_data(
			KAT_NS, (const uint8_t *)KAT_MSG, strlen(KAT_MSG), &c));
		if (r == ERR_OK)
			FUZZ_CALL(r,
			    sshsig_verify(
				k, c.data, c.data_len, sig, len, &flags, &ctr));
		FUZZ_CHECK(r == ERR_OK || r == ERR_VERIFY ||
		    r == ERR_AGENT_REPLY || r == ERR_NOMEM || r == ERR_CRYPTO ||
		    injected());
		if (r == ERR_OK) {
			FUZZ_CHECK(len >= 5 && flags == sig[len - 5]);
			FUZZ_CHECK(ctr ==
			    ((uint32_t)sig[len - 4] << 24 |
				(uint32_t)sig[len - 3] << 16 |
				(uint32_t)sig[len - 2] << 8 | sig[len - 1]));
		}
		sshsig_chal_clear(&c);
	}
}

static void
sign(const struct input *in)
{
	static const uint8_t data[] = "data to sign";
	const struct sshpub *k = &in->key[0];
	struct wire sig;
	int fd[2], r;

	if (agent_pair(in, fd) != 0)
		return;
	FUZZ_CALL(r,
	    agent_sign(fd[0], k->blob, k->blob_len, data, sizeof(data),
		util_now_ms() + DEADLINE_MS, &sig));
	FUZZ_CHECK(r == ERR_OK || r == ERR_AGENT_REPLY ||
	    r == ERR_AGENT_REFUSED || r == ERR_AGENT_CONNECT ||
	    r == ERR_NOMEM || injected());
	if (r == ERR_AGENT_REFUSED)
		FUZZ_CHECK(
		    in->len >= 5 && memcmp(in->buf, "\0\0\0\1\5", 5) == 0);
	if (r == ERR_OK) {
		/* len, SSH_AGENT_SIGN_RESPONSE, string sig: nothing else */
		FUZZ_CHECK(in->len >= 9 + sig.len && in->buf[4] == 14);
		/* (an empty signature string leaves sig.p NULL: memcmp
		 * must not see it, even for 0 bytes) */
		FUZZ_CHECK(
		    sig.len == 0 || memcmp(in->buf + 9, sig.p, sig.len) == 0);
		verify(in, sig.p, sig.len);
	} else {
		FUZZ_CHECK(sig.p == NULL && sig.len == 0);
	}
	wire_clear(&sig);
	close(fd[0]);
	close(fd[1]);
}

static void
pass(void *arg)
{
	const struct input *in = arg;

	list(in);
	sign(in);
	verify(in, in->buf, in->len);
}

/* The known-answer keys, parsed once per process (outside fuzz_run: no
 * allocation is made to fail): checking an Ed25519 point costs more than
 * the rest of a run. */
static const struct sshpub *
kat_keys(void)
{
	static struct sshpub key[2];
	static int done;

	if (!done &&
	    (sshpub_parse(KEY_ECDSA, &key[0]) != ERR_OK ||
		sshpub_parse(KEY_ED25519, &key[1]) != ERR_OK))
		fuzz_fail("the known-answer keys parse", __FILE__, __LINE__);
	done = 1;
	return key;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = {data, len, kat_keys()};

	fuzz_run(pass, &in, data, len);
	return 0;
}
