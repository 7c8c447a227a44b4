/* SPDX-License-Identifier: BSD-2-Clause */
/* Is the calling process's logind session remote (remsess.h)? The
 * session id from /proc/self/cgroup or the audit session id, then
 * logind's state file for it. Its own file because it reads the
 * system's files (under roots a test can replace) and knows nothing of
 * PAM; remote.c combines it with the PAM items into the rule. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/safefile.h"
#include "base/util.h"
#include "remsess.h"

#define REMSESS_FILE_MAX (64 * 1024)
#define REMSESS_PATH_MAX 4096
#define REMSESS_AUDIT_UNSET "4294967295"

/* Read root/rel (a regular file, no symbolic link at its end, owned by
 * root or by us, not writable by others, at most REMSESS_FILE_MAX) into
 * a malloc'd NUL-terminated *buf. ERR_NOT_FOUND if it does not exist,
 * ERR_FILE for anything else that stops it. */
static int
remsess_read(const char *root, const char *rel, char **buf, size_t *len)
{
	char path[REMSESS_PATH_MAX];
	struct stat st;
	int fd, r, n;

	*buf = NULL;
	n = snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (n < 0 || (size_t)n >= sizeof(path))
		return ERR_FILE;
	fd = open(
	    path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOENT ? ERR_NOT_FOUND : ERR_FILE;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (st.st_uid != 0 && st.st_uid != geteuid()) ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
		close(fd);
		return ERR_FILE;
	}
	r = safefile_read_fd(fd, 0, REMSESS_FILE_MAX, buf, len);
	close(fd);
	return r == ERR_OK ? ERR_OK : ERR_FILE;
}

/* Is s (n bytes) a session id: 1..REMSESS_ID_MAX letters and digits? */
static bool
remsess_id_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > REMSESS_ID_MAX)
		return false;
	for (i = 0; i < n; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') ||
			(s[i] >= 'a' && s[i] <= 'z') ||
			(s[i] >= 'A' && s[i] <= 'Z')))
			return false;
	}
	return true;
}

/* The path of a cgroup line if it is the systemd hierarchy's: "0::PATH"
 * (v2) or "N:name=systemd:PATH" (v1). NULL otherwise. */
static const char *
remsess_cgroup_path(const char *line, size_t len, size_t *plen)
{
	const char *c1 = memchr(line, ':', len), *c2;

	if (c1 == NULL)
		return NULL;
	c2 = memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - line));
	if (c2 == NULL)
		return NULL;
	if (!((c1 - line == 1 && line[0] == '0' && c2 == c1 + 1) ||
		((size_t)(c2 - c1 - 1) == strlen("name=systemd") &&
		    memcmp(c1 + 1, "name=systemd", (size_t)(c2 - c1 - 1)) ==
			0)))
		return NULL;
	*plen = len - (size_t)(c2 + 1 - line);
	return c2 + 1;
}

bool
remsess_cgroup_line(const char *line, size_t len, char *id)
{
	static const char pre[] = "session-", suf[] = ".scope";
	const size_t npre = sizeof(pre) - 1, nsuf = sizeof(suf) - 1;
	const char *p, *end, *c;
	size_t plen, n;

	if ((p = remsess_cgroup_path(line, len, &plen)) == NULL)
		return false;
	for (end = p + plen; p < end; p = c + 1) {
		if ((c = memchr(p, '/', (size_t)(end - p))) == NULL)
			c = end;
		n = (size_t)(c - p);
		if (n > npre + nsuf && memcmp(p, pre, npre) == 0 &&
		    memcmp(c - nsuf, suf, nsuf) == 0 &&
		    remsess_id_ok(p + npre, n - npre - nsuf)) {
			memcpy(id, p + npre, n - npre - nsuf);
			id[n - npre - nsuf] = '\0';
			return true;
		}
	}
	return false;
}

/* The session id from PROC/self/cgroup, else PROC/self/sessionid.
 * ERR_OK with id, ERR_NOT_FOUND (no session), ERR_FILE. */
static int
remsess_id(const char *proc, char *id)
{
	char *buf = NULL, *line, *nl;
	size_t len, n;
	int r;

	if ((r = remsess_read(proc, "self/cgroup", &buf, &len)) == ERR_FILE)
		return r;
	for (line = buf; r == ERR_OK && line < buf + len; line = nl + 1) {
		if ((nl = memchr(line, '\n', len - (size_t)(line - buf))) ==
		    NULL)
			nl = buf + len;
		if (remsess_cgroup_line(line, (size_t)(nl - line), id)) {
			free(buf);
			return ERR_OK;
		}
	}
	free(buf);
	if ((r = remsess_read(proc, "self/sessionid", &buf, &len)) != ERR_OK)
		return r == ERR_NOT_FOUND ? ERR_NOT_FOUND : ERR_FILE;
	n = strcspn(buf, "\n");
	r = ERR_NOT_FOUND;
	if (remsess_id_ok(buf, n) &&
	    strncmp(buf, REMSESS_AUDIT_UNSET, n) != 0) {
		memcpy(id, buf, n);
		id[n] = '\0';
		r = ERR_OK;
	}
	free(buf);
	return r;
}

/* Does the state file (NUL-terminated) hold the line "REMOTE=1"? */
static bool
remsess_state_remote(const char *buf)
{
	const char *p, *nl;

	for (p = buf; p != NULL; p = (nl = strchr(p, '\n')) ? nl + 1 : NULL)
		if (strncmp(p, "REMOTE=1", 8) == 0 &&
		    (p[8] == '\n' || p[8] == '\0'))
			return true;
	return false;
}

enum remsess_verdict
remsess_logind(const struct remsess_roots *roots, char *id, const char **why)
{
	char sid[REMSESS_ID_MAX + 1], rel[64], dir[REMSESS_PATH_MAX];
	struct stat st;
	char *buf = NULL;
	size_t len;
	int r, n;
	enum remsess_verdict v;

	sid[0] = '\0';
	if (id != NULL)
		id[0] = '\0';
	n = snprintf(dir, sizeof(dir), "%s/systemd/sessions", roots->run);
	if (n < 0 || (size_t)n >= sizeof(dir) || stat(dir, &st) != 0 ||
	    !S_ISDIR(st.st_mode)) {
		*why = "no logind (no /run/systemd/sessions)";
		return REMSESS_UNKNOWN;
	}
	if ((r = remsess_id(roots->proc, sid)) != ERR_OK) {
		*why = r == ERR_NOT_FOUND
		    ? "the process is in no logind session"
		    : "cannot read /proc/self/cgroup";
		return r == ERR_NOT_FOUND ? REMSESS_UNKNOWN : REMSESS_ERROR;
	}
	if (id != NULL)
		memcpy(id, sid, strlen(sid) + 1);
	snprintf(rel, sizeof(rel), "systemd/sessions/%s", sid);
	if ((r = remsess_read(roots->run, rel, &buf, &len)) != ERR_OK) {
		*why = r == ERR_NOT_FOUND ? "logind does not know the session"
					  : "cannot read the session's state";
		return r == ERR_NOT_FOUND ? REMSESS_UNKNOWN : REMSESS_ERROR;
	}
	v = remsess_state_remote(buf) ? REMSESS_REMOTE : REMSESS_LOCAL;
	*why = v == REMSESS_REMOTE ? "logind: the session is remote"
				   : "logind: the session is local";
	free(buf);
	return v;
}

bool
remsess_environ_has(const struct remsess_roots *roots, const char *name)
{
	char *buf = NULL;
	size_t len = 0, n = strlen(name), at, l;
	bool found = false;

	if (remsess_read(roots->proc, "self/environ", &buf, &len) != ERR_OK)
		return false;
	for (at = 0; at < len && !found; at += l + 1) {
		l = strnlen(buf + at, len - at);
		found = l > n + 1 && memcmp(buf + at, name, n) == 0 &&
		    buf[at + n] == '=';
	}
	util_freezero(buf, len);
	return found;
}
