/* What conf.c shares with conf_ldapsec.c, the two files that include
 * <confuse.h>: the per-parse context that libconfuse's callbacks reach
 * through a hidden option (conf.c says how), and the ldap section's part
 * of the schema and of the extraction. */
#ifndef PU_CONF_INT_H
#define PU_CONF_INT_H

#include <stdbool.h>
#include <stddef.h>

#include <confuse.h>

#include "confldap.h"
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
	int ldap_line[CONF_LDAP_NKEYS]; /* as line, in the section */
	int ldap_sections;              /* how many were seen */
};

/* The context of cfg (a section's too); NULL if it has none. */
struct conf_ctx *conf_ctx_of(cfg_t *cfg);
/* Record the first error: "path:line: msg" (line 0: "path: msg"). */
void conf_set_error(struct conf_ctx *ctx, int line, const char *msg);
/* The hidden option that leads callbacks to ctx, into *opt. */
void conf_schema_hidden(cfg_opt_t *opt, struct conf_ctx *ctx);

/* conf_ldapsec.c: the section's schema into sec (CONF_LDAP_NKEYS + 2
 * entries), its "once" check (the validation callback of the section
 * option), and its values into ctx->ldap after the parse (ERR_OK,
 * ERR_CONFIG with the error set, ERR_NOMEM). */
void conf_schema_ldap(cfg_opt_t *sec, struct conf_ctx *ctx);
int conf_cb_ldap_section(cfg_t *cfg, cfg_opt_t *opt);
int conf_extract_ldap(cfg_t *cfg, struct conf_ctx *ctx);

#endif
