/* SPDX-License-Identifier: BSD-2-Clause */
/* The "ldap" section of the file in libconfuse's terms: its schema, the
 * checks made while parsing (a key once, the section once) and the copy
 * of its values through conf_ldap_set (confldap.c). conf.c calls it; it calls
 * down into conf_ctx.c and confldap.c only. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <confuse.h>

#include "conf_ctx.h"
#include "confldap.h"
#include "confldap_schema.h"
#include "base/err.h"

/* The ldap section's key libconfuse is asking about, or CONF_LDAP_NKEYS. */
static enum conf_ldap_key
conf_ldap_key_of(cfg_opt_t *opt)
{
	const char *name = cfg_opt_name(opt), *n;
	size_t k;

	for (k = 0; name != NULL && k < CONF_LDAP_NKEYS; k++)
		if ((n = conf_ldap_key_name((enum conf_ldap_key)k)) != NULL &&
		    strcmp(n, name) == 0)
			return (enum conf_ldap_key)k;
	return CONF_LDAP_NKEYS;
}

/* A scalar key of the ldap section, once; the line of each key. */
static int
conf_cb_ldap_once(cfg_t *cfg, cfg_opt_t *opt)
{
	struct conf_ctx *ctx = conf_ctx_of(cfg);
	enum conf_ldap_key k = conf_ldap_key_of(opt);

	if (ctx == NULL || k == CONF_LDAP_NKEYS)
		return -1;
	if (conf_ldap_key_type(k) == CONF_LDAP_T_LIST) { /* per element */
		if (ctx->ldap_line[k] == 0)
			ctx->ldap_line[k] = cfg->line > 0 ? cfg->line : 1;
		return 0;
	}
	if (ctx->ldap_line[k] != 0) {
		cfg_error(cfg, "ldap: %s: already set on line %d",
		    conf_ldap_key_name(k), ctx->ldap_line[k]);
		return -1;
	}
	ctx->ldap_line[k] = cfg->line > 0 ? cfg->line : 1;
	return 0;
}

/* The section itself, once. */
int
conf_cb_ldap_section(cfg_t *cfg, cfg_opt_t *opt)
{
	struct conf_ctx *ctx = conf_ctx_of(cfg);

	(void)opt;
	if (ctx == NULL || ++ctx->ldap_sections > 1) {
		cfg_error(cfg, "ldap: the section is given twice");
		return -1;
	}
	return 0;
}

/* The ldap section's schema into sec (CONF_LDAP_NKEYS + 2 entries): every
 * value a string (conf_ldap_set checks it), uri a list. */
void
conf_schema_ldap(cfg_opt_t *sec, struct conf_ctx *ctx)
{
	static const cfg_opt_t end = CFG_END();
	size_t i;

	memset(sec, 0, (CONF_LDAP_NKEYS + 2) * sizeof(*sec));
	for (i = 0; i < CONF_LDAP_NKEYS; i++) {
		sec[i].name = conf_ldap_key_name((enum conf_ldap_key)i);
		sec[i].type = CFGT_STR;
		sec[i].flags = CFGF_NODEFAULT;
		sec[i].validcb = conf_cb_ldap_once;
		if (conf_ldap_key_type((enum conf_ldap_key)i) ==
		    CONF_LDAP_T_LIST)
			sec[i].flags |= CFGF_LIST;
	}
	conf_schema_hidden(&sec[i], ctx);
	sec[i + 1] = end;
}

/* The ldap section, if any, into ctx->ldap: each value through
 * conf_ldap_set, its error with the key's line. */
int
conf_extract_ldap(cfg_t *cfg, struct conf_ctx *ctx)
{
	char why[CONF_MSG_MAX];
	cfg_t *sec = cfg_size(cfg, CONF_LDAP_SECTION) > 0
	    ? cfg_getsec(cfg, CONF_LDAP_SECTION)
	    : NULL;
	const char *name;
	unsigned int i, n;
	size_t k;
	int r;

	if (sec == NULL)
		return ERR_OK;
	ctx->ldap->found = true;
	for (k = 0; k < CONF_LDAP_NKEYS; k++) {
		name = conf_ldap_key_name((enum conf_ldap_key)k);
		n = cfg_size(sec, name);
		for (i = 0; i < n; i++) {
			r = conf_ldap_set(ctx->ldap, (enum conf_ldap_key)k,
			    cfg_getnstr(sec, name, i), why, sizeof(why));
			if (r == ERR_CONFIG)
				conf_set_error(ctx, ctx->ldap_line[k], why);
			if (r != ERR_OK)
				return r;
		}
	}
	return ERR_OK;
}
