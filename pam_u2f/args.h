/* SPDX-License-Identifier: BSD-2-Clause */
/* Module arguments: one struct filled by one parser. Unknown or malformed
 * arguments are errors (logged, naming the argument), never ignored. */
#ifndef PU_ARGS_H
#define PU_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"
#include "conf/conf.h"
#include "device/dev.h"

#define ARGS_TIMEOUT_DEFAULT CONF_TIMEOUT_DEFAULT /* seconds */
#define ARGS_TIMEOUT_MAX CONF_TIMEOUT_MAX
#define ARGS_MAX_DEVICES_DEFAULT CONF_MAX_DEVICES_DEFAULT
#define ARGS_MAX_DEVICES_MAX CONF_MAX_DEVICES_MAX
#define ARGS_PROMPT_DEFAULT CONF_PROMPT_DEFAULT
#define ARGS_CUE_DEFAULT CONF_CUE_DEFAULT
#define ARGS_SSH_ORIGIN "ssh:"

/* Every option of the table in common/conf/opts.h, by its field name
 * (o->timeout, o->devices and o->ndevices, ...), the way struct conf has
 * them. After args_parse: origin, appid, prompt and cue_prompt are set;
 * authfile NULL is the per-user default; authpending_file NULL is the
 * default and "" none; max_devices is 1..1024; userpresence,
 * userverification and pinverification are -1 (default), 0 or 1; backend
 * is an enum dev_backend. */
struct options {
	CONF_FIELDS
	bool authpending_set;       /* authpending_file= was given */
	bool conf_found;            /* the config file existed and was read */
	struct conf_policy *policy; /* the file's policy section, or NULL */
};

/* Parse argv into o (zeroed and given defaults first). Every problem is
 * one line to errlog naming the argument; the result is then ERR_CONFIG
 * (ERR_NOMEM if allocation failed). o must be freed with args_free in
 * every case. */
int args_parse(
    struct options *o, int argc, const char **argv, const struct log *errlog);
void args_free(struct options *o);
/* Is user presence required? (userpresence= not 0) */
bool args_presence(const struct options *o);

#endif
