/* SPDX-License-Identifier: BSD-2-Clause */
/* Inside the ssh layer: the ssh-agent client (draft-miller-ssh-agent):
 * the checked socket, bounded messages with a deadline, and the two
 * requests we make. */
#ifndef PU_SSH_AGENT_H
#define PU_SSH_AGENT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ssh.h"
#include "wire.h"

#define SSH_AGENT_FAILURE 5
#define SSH_AGENTC_REQUEST_IDENTITIES 11
#define SSH_AGENT_IDENTITIES_ANSWER 12
#define SSH_AGENTC_SIGN_REQUEST 13
#define SSH_AGENT_SIGN_RESPONSE 14

/* One identity of a listing, pointing into the reply it came from. */
struct agent_id {
	const uint8_t *blob;
	size_t blob_len;
	const uint8_t *comment;
	size_t comment_len;
};

/* A listing: the reply (owned) and up to SSHAGENT_MAX_KEYS identities. */
struct agent_ids {
	struct wire reply;
	struct agent_id id[SSHAGENT_MAX_KEYS];
	size_t n;
};

/* Connect to the agent at sock for uid, before deadline (util_now_ms):
 *   - sock an absolute path that fits sockaddr_un (anything else, such
 *     as a host:port, is refused: unix sockets only);
 *   - lstat: not a symlink, a socket, owned by uid;
 *   - its directory: not a symlink, a directory owned by uid or root,
 *     writable by neither group nor others;
 *   - after connect: the path still names the same inode, and the
 *     peer's SO_PEERCRED uid is uid. (sshd's forwarded socket, Debian
 *     12's OpenSSH 9.2 with privilege separation: /tmp/ssh-XXXXXXXXXX/
 *     agent.PID, directory 0700, both owned by the user, listened on by
 *     the unprivileged "sshd: user@..." process, so its peer uid is the
 *     user's; a local ssh-agent's is the user's too. Root is not
 *     accepted as a peer: no agent we serve runs as root for a user.)
 * *fd gets a non-blocking, close-on-exec stream socket. ERR_AGENT_SOCKET
 * (a check failed: logged), ERR_AGENT_CONNECT (nothing listens),
 * ERR_AGENT_TIMEOUT, ERR_INVAL, ERR_SYSTEM. */
int agent_connect(const char *sock, uid_t uid, int64_t deadline,
    const struct log *lg, int *fd);

/* Send one request (type, payload) and read one reply (type first) into
 * reply, each at most SSHAGENT_MAX_MSG bytes, before deadline.
 * ERR_AGENT_TIMEOUT, ERR_AGENT_REPLY (oversized, empty, or the agent
 * hung up mid-reply), ERR_AGENT_CONNECT (hung up before a reply),
 * ERR_NOMEM. */
int agent_call(int fd, uint8_t type, const struct wire *payload,
    int64_t deadline, struct wire *reply);

/* List the agent's identities into ids (agent_ids_clear after).
 * ERR_AGENT_REPLY for a malformed answer or more than SSHAGENT_MAX_KEYS
 * identities, and what agent_call returns. */
int agent_list(int fd, int64_t deadline, struct agent_ids *ids);
void agent_ids_clear(struct agent_ids *ids);

/* Ask for a signature of data by the key blob; *sig (owned by sig,
 * wire_clear after) is the signature blob. ERR_AGENT_REFUSED when the
 * agent answers SSH_AGENT_FAILURE; ERR_AGENT_REPLY for any other answer
 * or a malformed one; what agent_call returns. */
int agent_sign(int fd, const uint8_t *blob, size_t blob_len,
    const uint8_t *data, size_t data_len, int64_t deadline, struct wire *sig);

#endif
