/* SPDX-License-Identifier: BSD-2-Clause */
/* The per-parse context of the configuration file (conf_ctx.h): how a
 * libconfuse callback finds it (the hidden option), and the first error
 * it records. Its own file so that conf.c and confldap_schema.c, which
 * both need it, each call down into it and never into each other's
 * callers: conf.c -> confldap_schema.c -> conf_ctx.c, one way. */
#include "config.h"

#include <stdio.h>

#include <confuse.h>

#include "conf_ctx.h"

struct conf_ctx *
conf_ctx_of(cfg_t *cfg)
{
	return cfg_getptr(cfg, CONF_CTX_OPT);
}

/* The first error wins: later ones are usually its echoes. */
void
conf_set_error(struct conf_ctx *ctx, int line, const char *msg)
{
	if (ctx->failed || ctx->errlen == 0)
		return;
	if (line > 0)
		snprintf(ctx->errbuf, ctx->errlen, "%s:%d: %s", ctx->path, line,
		    msg);
	else
		snprintf(ctx->errbuf, ctx->errlen, "%s: %s", ctx->path, msg);
	ctx->failed = true;
}

/* The hidden option never takes a value from a file. */
static int
conf_cb_hidden(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result)
{
	(void)value;
	(void)result;
	cfg_error(cfg, "no such option '%s'", cfg_opt_name(opt));
	return -1;
}

/* The hidden option that leads callbacks to ctx. */
void
conf_schema_hidden(cfg_opt_t *opt, struct conf_ctx *ctx)
{
	opt->name = CONF_CTX_OPT;
	opt->type = CFGT_PTR;
	opt->flags = CFGF_NODEFAULT;
	opt->simple_value.ptr = &ctx->self;
	opt->parsecb = conf_cb_hidden;
}
