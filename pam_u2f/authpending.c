/* SPDX-License-Identifier: BSD-2-Clause */
/* authpending_file=: create the "authentication pending" file before
 * the wait for the touch and remove it after, as pam-u2f does, so that a
 * desktop can show a notification. Its own file because it is one
 * option with its own file-system rules (O_NOFOLLOW, no truncation);
 * failing to create it is only a debug line. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "authpending.h"

#define PENDING_MODE 0664

void
pending_create(struct call *c)
{
	char *path = NULL;
	int fd;

	if (c->pending != NULL)
		return;
	if (c->opt.authpending_set && c->opt.authpending_file[0] == '\0')
		return; /* disabled */
	if (c->opt.authpending_set)
		path = strdup(c->opt.authpending_file);
	else if (asprintf(&path, PENDING_DEFAULT_FMT,
		     (unsigned long)c->pw.pw_uid) < 0)
		path = NULL;
	if (path == NULL)
		return;
	fd = open(path,
	    O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK,
	    PENDING_MODE);
	if (fd < 0) {
		debug_msg(
		    &c->dbg, "authpending file %s: %s", path, strerror(errno));
		free(path);
		return;
	}
	close(fd);
	debug_msg(&c->dbg, "authpending file %s created", path);
	c->pending = path;
}

void
pending_remove(struct call *c)
{
	if (c->pending == NULL)
		return;
	if (unlink(c->pending) != 0)
		debug_msg(&c->dbg, "authpending file %s: %s", c->pending,
		    strerror(errno));
	free(c->pending);
	c->pending = NULL;
}
