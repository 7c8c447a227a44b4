/* SPDX-License-Identifier: BSD-2-Clause */
/* --ssh-agent (tool.h): the agent's FIDO keys as the mapping file's
 * @ssh-sk lines for remote=agent, printed or added. Its own file
 * because it is the one job of pamu2fcfg that asks an agent instead of a
 * key; the file is written as --add writes it (mapfile_update). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "mapping/sshline.h"
#include "ssh/ssh.h"
#include "tool.h"

struct sa_edit {
	const struct tool_opts *o;
	const char *path;
	char *const *lines; /* "@ssh-sk USER KEY" each, no newline */
	const struct sshpub *keys;
	size_t n;
	size_t added;
};

/* Is k among have[0..nhave-1] (the same key blob)? */
static bool
sa_has(const struct sshpub *have, size_t nhave, const struct sshpub *k)
{
	size_t i;

	for (i = 0; i < nhave; i++)
		if (have[i].blob_len == k->blob_len &&
		    memcmp(have[i].blob, k->blob, k->blob_len) == 0)
			return true;
	return false;
}

/* The file's text with the lines of keys it lacks appended. */
static int
sa_edit(void *arg, const char *buf, size_t len, char **out, size_t *out_len)
{
	struct sa_edit *e = arg;
	struct sshpub *have = NULL;
	size_t nhave = 0, bad = 0, i, cap = len + 2, at;
	int r;

	r = sshline_find(buf, len, e->o->user, &have, &nhave, &bad);
	if (r != ERR_OK && r != ERR_NOT_FOUND) {
		tool_msg("%s: line %zu (@ssh-sk) is malformed: %s", e->path,
		    bad, err_str(r));
		return r;
	}
	for (i = 0; i < e->n; i++)
		cap += strlen(e->lines[i]) + 1;
	if ((*out = malloc(cap)) == NULL) {
		sshpub_free_list(have, nhave);
		return ERR_NOMEM;
	}
	memcpy(*out, buf, len);
	at = len;
	if (at > 0 && buf[at - 1] != '\n')
		(*out)[at++] = '\n';
	for (i = 0; i < e->n; i++) {
		if (sa_has(have, nhave, &e->keys[i]))
			continue;
		at += (size_t)sprintf(*out + at, "%s\n", e->lines[i]);
		e->added++;
	}
	*out_len = at;
	sshpub_free_list(have, nhave);
	return ERR_OK;
}

/* Add the lines to the mapping file. */
static int
sa_add(const struct tool_opts *o, struct sa_edit *e)
{
	struct mapfile_made made = {{NULL, NULL}};
	const char *why = NULL;
	char *path = NULL;
	int r;

	if ((r = manage_path(o, o->file == NULL ? &made : NULL, &path)) !=
	    ERR_OK)
		goto done;
	e->path = path;
	if ((r = mapfile_update(path, sa_edit, e, &why)) != ERR_OK) {
		if (why != NULL)
			tool_msg("refusing %s: %s", path, why);
		goto done;
	}
	tool_msg("added %zu of the agent's %zu FIDO key(s) for %s to %s",
	    e->added, e->n, o->user, path);
done:
	mapfile_made_done(&made, r != ERR_OK);
	free(path);
	return r;
}

/* One "@ssh-sk USER KEY" line per key. */
static int
sa_lines(const char *user, const struct sshpub *keys, size_t n, char **lines)
{
	char *key = NULL;
	size_t i;
	int r;

	for (i = 0; i < n; i++) {
		if ((r = sshpub_format(&keys[i], &key)) != ERR_OK)
			return r;
		r = asprintf(&lines[i], SSHLINE_MARK " %s %s", user, key) < 0
		    ? ERR_NOMEM
		    : ERR_OK;
		free(key);
		if (r != ERR_OK) {
			lines[i] = NULL;
			return r;
		}
	}
	return ERR_OK;
}

/* The agent's FIDO keys. */
static int
sa_list(const struct tool_opts *o, struct sshpub **keys, size_t *n)
{
	const char *sock = getenv("SSH_AUTH_SOCK");
	int r;

	if (sock == NULL || sock[0] == '\0') {
		tool_msg("--ssh-agent: SSH_AUTH_SOCK is not set: start "
			 "ssh-agent, or connect with ssh -A");
		return ERR_NO_KEY;
	}
	r = sshagent_list_sk(
	    sock, geteuid(), o->cf.timeout * 1000, o->lg, keys, n);
	if (r != ERR_OK)
		tool_msg("--ssh-agent: the agent at %s: %s", sock, err_str(r));
	else if (*n == 0) {
		tool_msg("--ssh-agent: the agent at %s holds no FIDO key "
			 "(sk-ecdsa or sk-ed25519: ssh-keygen -t ecdsa-sk, "
			 "then ssh-add)",
		    sock);
		r = ERR_NO_KEY;
	}
	return r;
}

int
sshagent_run(const struct tool_opts *o)
{
	struct sa_edit e;
	struct sshpub *keys = NULL;
	char **lines = NULL;
	size_t n = 0, i;
	int r;

	memset(&e, 0, sizeof(e));
	if ((r = sa_list(o, &keys, &n)) != ERR_OK)
		goto done;
	if ((lines = calloc(n, sizeof(*lines))) == NULL) {
		r = ERR_NOMEM;
		goto done;
	}
	if ((r = sa_lines(o->user, keys, n, lines)) != ERR_OK) {
		tool_msg("cannot format the agent's keys: %s", err_str(r));
		goto done;
	}
	if (o->mode == TOOL_PRINT) {
		for (i = 0; i < n; i++)
			printf("%s\n", lines[i]);
		r = fflush(stdout) == 0 ? ERR_OK : ERR_IO;
		goto done;
	}
	e.o = o;
	e.lines = lines;
	e.keys = keys;
	e.n = n;
	r = sa_add(o, &e);
done:
	for (i = 0; lines != NULL && i < n; i++)
		free(lines[i]);
	free(lines);
	sshpub_free_list(keys, n);
	return tool_exit_for(r);
}
