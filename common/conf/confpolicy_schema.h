/* SPDX-License-Identifier: BSD-2-Clause */
/* The "policy" section's part of one parse (confpolicy_schema.c): called
 * by conf.c, calling down into conf_ctx.c and confpolicy.c only. */
#ifndef PU_CONFPOLICY_SCHEMA_H
#define PU_CONFPOLICY_SCHEMA_H

#include <confuse.h>

#include "conf_ctx.h"

/* The section's schema into sec (CONF_POLICY_NKEYS + 2 entries), its
 * "once" check (the validation callback of the section option), and its
 * values into ctx->policy after the parse, checked as a whole (ERR_OK,
 * ERR_CONFIG with the error set, ERR_NOMEM). No section: ctx->policy
 * stays NULL. */
void conf_schema_policy(cfg_opt_t *sec, struct conf_ctx *ctx);
int conf_cb_policy_section(cfg_t *cfg, cfg_opt_t *opt);
int conf_extract_policy(cfg_t *cfg, struct conf_ctx *ctx);

#endif
