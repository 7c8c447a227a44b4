/* SPDX-License-Identifier: BSD-2-Clause */
/* The "policy" section of the file in libconfuse's terms: its schema,
 * the checks made while parsing (a key once, the section once) and the
 * copy of its values through conf_policy_set (confpolicy.c). conf.c calls
 * it; it calls down into conf_ctx.c and confpolicy.c only. Its own file,
 * as confldap_schema.c is for the ldap section, so that conf.c stays the
 * reader of the top level. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <confuse.h>

#include "conf_ctx.h"
#include "confpolicy.h"
#include "confpolicy_schema.h"
#include "base/err.h"

static enum conf_policy_key
policy_key_of(cfg_opt_t *opt)
{
	const char *name = cfg_opt_name(opt), *n;
	size_t k;

	for (k = 0; name != NULL && k < CONF_POLICY_NKEYS; k++)
		if ((n = conf_policy_key_name((enum conf_policy_key)k)) !=
			NULL &&
		    strcmp(n, name) == 0)
			return (enum conf_policy_key)k;
	return CONF_POLICY_NKEYS;
}

/* A scalar key of the section, once; the line of each key. */
static int
policy_cb_once(cfg_t *cfg, cfg_opt_t *opt)
{
	struct conf_ctx *ctx = conf_ctx_of(cfg);
	enum conf_policy_key k = policy_key_of(opt);

	if (ctx == NULL || k == CONF_POLICY_NKEYS)
		return -1;
	if (conf_policy_key_type(k) == CONF_POLICY_T_LIST) {
		if (ctx->policy_line[k] == 0)
			ctx->policy_line[k] = cfg->line > 0 ? cfg->line : 1;
		return 0;
	}
	if (ctx->policy_line[k] != 0) {
		cfg_error(cfg, "policy: %s: already set on line %d",
		    conf_policy_key_name(k), ctx->policy_line[k]);
		return -1;
	}
	ctx->policy_line[k] = cfg->line > 0 ? cfg->line : 1;
	return 0;
}

int
conf_cb_policy_section(cfg_t *cfg, cfg_opt_t *opt)
{
	struct conf_ctx *ctx = conf_ctx_of(cfg);

	(void)opt;
	if (ctx == NULL || ++ctx->policy_sections > 1) {
		cfg_error(cfg, "policy: the section is given twice");
		return -1;
	}
	ctx->policy_section_line = cfg->line > 0 ? cfg->line : 1;
	return 0;
}

void
conf_schema_policy(cfg_opt_t *sec, struct conf_ctx *ctx)
{
	static const cfg_opt_t end = CFG_END();
	size_t i;

	memset(sec, 0, (CONF_POLICY_NKEYS + 2) * sizeof(*sec));
	for (i = 0; i < CONF_POLICY_NKEYS; i++) {
		sec[i].name = conf_policy_key_name((enum conf_policy_key)i);
		sec[i].type = CFGT_STR;
		sec[i].flags = CFGF_NODEFAULT;
		sec[i].validcb = policy_cb_once;
		if (conf_policy_key_type((enum conf_policy_key)i) ==
		    CONF_POLICY_T_LIST)
			sec[i].flags |= CFGF_LIST;
	}
	conf_schema_hidden(&sec[i], ctx);
	sec[i + 1] = end;
}

/* Every value of the section through conf_policy_set. */
static int
policy_values(cfg_t *sec, struct conf_ctx *ctx)
{
	char why[CONF_MSG_MAX];
	const char *name;
	unsigned int i, n;
	size_t k;
	int r;

	for (k = 0; k < CONF_POLICY_NKEYS; k++) {
		name = conf_policy_key_name((enum conf_policy_key)k);
		n = cfg_size(sec, name);
		for (i = 0; i < n; i++) {
			r = conf_policy_set(ctx->policy,
			    (enum conf_policy_key)k, cfg_getnstr(sec, name, i),
			    why, sizeof(why));
			if (r == ERR_CONFIG)
				conf_set_error(ctx, ctx->policy_line[k], why);
			if (r != ERR_OK)
				return r;
		}
	}
	return ERR_OK;
}

int
conf_extract_policy(cfg_t *cfg, struct conf_ctx *ctx)
{
	enum conf_policy_key key = CONF_POLICY_ATTESTATION;
	char why[CONF_MSG_MAX];
	cfg_t *sec = cfg_size(cfg, CONF_POLICY_SECTION) > 0
	    ? cfg_getsec(cfg, CONF_POLICY_SECTION)
	    : NULL;
	int r;

	if (sec == NULL)
		return ERR_OK;
	if ((r = conf_policy_new(&ctx->policy)) != ERR_OK ||
	    (r = policy_values(sec, ctx)) != ERR_OK)
		return r;
	r = conf_policy_check(ctx->policy, &key, why, sizeof(why));
	if (r == ERR_CONFIG)
		conf_set_error(ctx,
		    ctx->policy_line[key] != 0 ? ctx->policy_line[key]
					       : ctx->policy_section_line,
		    why);
	return r;
}
