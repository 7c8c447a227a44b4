/* SPDX-License-Identifier: BSD-2-Clause */
/* The "ldap" section's part of one parse (confldap_schema.c): called by
 * conf.c, calling down into conf_ctx.c and confldap.c only. */
#ifndef PU_CONFLDAP_SCHEMA_H
#define PU_CONFLDAP_SCHEMA_H

#include <confuse.h>

#include "conf_ctx.h"

/* The section's schema into sec (CONF_LDAP_NKEYS + 2
 * entries), its "once" check (the validation callback of the section
 * option), and its values into ctx->ldap after the parse (ERR_OK,
 * ERR_CONFIG with the error set, ERR_NOMEM). */
void conf_schema_ldap(cfg_opt_t *sec, struct conf_ctx *ctx);
int conf_cb_ldap_section(cfg_t *cfg, cfg_opt_t *opt);
int conf_extract_ldap(cfg_t *cfg, struct conf_ctx *ctx);

#endif
