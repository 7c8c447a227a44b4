/* SPDX-License-Identifier: BSD-2-Clause */
/* One parse of the configuration file (conf_ctx.c): the context that
 * libconfuse's callbacks reach through a hidden option (conf.c says how),
 * shared by conf.c and confldap_schema.c, the files that include
 * <confuse.h>. Both call down into conf_ctx.c; it calls neither. */
#ifndef PU_CONF_CTX_H
#define PU_CONF_CTX_H

#include <stdbool.h>
#include <stddef.h>

#include <confuse.h>

#include "confldap.h"
#include "confpolicy.h"
#include "opts.h"

#define CONF_CTX_OPT "pam_u2f conf ctx" /* hidden; see above */
#define CONF_MSG_MAX 512

/* One parse. Reached from libconfuse's callbacks through the hidden
 * option (self), never through a global. */
struct conf_ctx {
	void *self;
	const char *path;
	char *errbuf;
	size_t errlen;
	bool failed;                    /* errbuf holds the first error */
	int line[CONF_NKEYS];           /* where each key was set, 0: not */
	struct conf_ldap *ldap;         /* the ldap section's values */
	struct conf_ldap ldap_scratch;  /* ldap when the caller wants none */
	int ldap_line[CONF_LDAP_NKEYS]; /* as line, in the section */
	int ldap_sections;              /* how many were seen */
	bool libconfuse_only;           /* never conf_fast (tests) */
	/* The policy section: NULL until one is read (then owned by the
	 * parse until conf.c hands it to struct conf). */
	struct conf_policy *policy;
	int policy_line[CONF_POLICY_NKEYS];
	int policy_sections;
	int policy_section_line;
};

/* The context of cfg (a section's too); NULL if it has none. */
struct conf_ctx *conf_ctx_of(cfg_t *cfg);
/* Record the first error: "path:line: msg" (line 0: "path: msg"). */
void conf_set_error(struct conf_ctx *ctx, int line, const char *msg);
/* The hidden option that leads callbacks to ctx, into *opt. */
void conf_schema_hidden(cfg_opt_t *opt, struct conf_ctx *ctx);

#endif
