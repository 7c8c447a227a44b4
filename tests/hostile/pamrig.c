/* SPDX-License-Identifier: BSD-2-Clause */
/* See pamrig.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cred.h"
#include "base/err.h"
#include "modtest.h"
#include "pamrig.h"
#include "tokenctl.h"

int
rig_up(struct rig *g)
{
	char *line = NULL;

	memset(g, 0, sizeof(*g));
	if (tokenctl_start(&g->t, "--presence", "now", NULL) != 0)
		return -1;
	if (mt_enroll(g->t.path, ORIGIN, &g->c) != ERR_OK)
		return -1;
	if ((line = mt_line("alice", &g->c, 1)) == NULL)
		return -1;
	mt_keys(&mt.alice, line);
	free(line);
	return 0;
}

void
rig_down(struct rig *g)
{
	cred_clear(&g->c);
	tokenctl_stop(&g->t);
}

void
rig_service(const struct rig *g, const char *name, const char *more)
{
	char args[ARGS_MAX];

	snprintf(args, sizeof(args), "origin=" ORIGIN " devices=%s %s",
	    g->t.path, more);
	mt_service(name, args);
}

size_t
touches_of(const struct rig *g)
{
	return tokenctl_count(&g->t, "ins=02 p1=03 sw=9000");
}
