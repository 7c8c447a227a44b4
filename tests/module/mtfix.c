/* SPDX-License-Identifier: BSD-2-Clause */
/* Fixtures shared by the module tests; see mtfix.h. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/err.h"
#include "mtfix.h"

int
mtfix_one_token(struct tokenctl *t, const char *presence,
    const struct mt_user *u, struct cred *c)
{
	char *line = NULL;

	memset(c, 0, sizeof(*c));
	/* Registration needs a touch: enroll first, then apply presence. */
	if (tokenctl_start(t, "--presence", "now", NULL) != 0)
		return -1;
	if (mt_enroll(t->path, ORIGIN, c) != ERR_OK)
		return -1;
	if (strcmp(presence, "now") != 0 &&
	    tokenctl_restart(t, "--presence", presence, NULL) != 0)
		return -1;
	if ((line = mt_line(u->name, c, 1)) == NULL)
		return -1;
	mt_keys(u, line);
	free(line);
	return 0;
}

void
mtfix_service_dev(const char *name, const struct tokenctl *t, const char *more)
{
	char args[ARGS_MAX];

	snprintf(args, sizeof(args), "origin=" ORIGIN " devices=%s %s", t->path,
	    more);
	mt_service(name, args);
}

char *
mtfix_dummy_line(const char *user, const char *opts)
{
	static const char pk[] =
	    "04b174bc49c7ca254b70d2e5c207cee9cf174820eb"
	    "d77ea3c65508c26da51b657c1cc6b952f8621697936482da0a6d3d3826a59095"
	    "daf6cd7c03e2e60385d2f6d9";
	struct cred c;
	uint8_t kh[64];
	char *line = NULL, *out = NULL;

	memset(&c, 0, sizeof(c));
	memset(kh, 0x5a, sizeof(kh));
	if (hex_decode(pk, strlen(pk), &c.pk, &c.pk_len) != ERR_OK)
		return NULL;
	c.kh = kh;
	c.kh_len = sizeof(kh);
	c.type = COSE_ES256;
	c.flags = CRED_PRESENCE;
	line = mt_line(user, &c, 1);
	free(c.pk);
	if (line != NULL && opts != NULL) {
		line[strlen(line) - 1] = '\0';
		if (asprintf(&out, "%s%s\n", line, opts) < 0)
			out = NULL;
		free(line);
		return out;
	}
	return line;
}

int
mtfix_run(const char *svc, const char *args, const char *user)
{
	struct mt_conv cv;

	memset(&cv, 0, sizeof(cv));
	mt_service(svc, args);
	return mt_auth(svc, user, &cv);
}
