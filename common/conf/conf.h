/* SPDX-License-Identifier: BSD-2-Clause */
/* The configuration file shared by the module and pamu2fcfg,
 * $(sysconfdir)/security/pam_u2f.conf, parsed with libconfuse (conf.c,
 * confldap_schema.c and conf_ctx.c are the only files that include
 * <confuse.h>).
 *
 * Every option is a row of the table in opts.h. Precedence is built-in
 * defaults < this file < module arguments or command-line options: a
 * struct conf holds what one source said (this file, the module's
 * arguments, pamu2fcfg's command line), with a "set" bit per option;
 * conf_merge puts one source over another and conf_defaults fills in the
 * rest.
 *
 * Before parsing, the file is read with safefile_read: not a symbolic
 * link, a regular file, owned by root, not group- or world-writable, at
 * most CONF_MAX_SIZE bytes. An unknown key, a key given twice, a value of
 * the wrong type or out of range, a syntax error, a NUL byte or "${" (which
 * libconfuse would expand from the environment) is an error, and the one
 * message names the file and the line. As in Yubico pam-u2f's file of the
 * same name, a line holding only a boolean key ("cue") sets it to true. */
#ifndef PU_CONF_H
#define PU_CONF_H

#include "confscan.h" /* CONF_MAX_SIZE */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opts.h" /* the options, struct conf and its setter */

/* The default path (configure --with-pam-conf, default
 * /etc/security/pam_u2f.conf); never NULL. */
const char *conf_default_path(void);

/* The key's name in the file, e.g. "max_devices"; NULL if out of range
 * or not a key of the file. */
const char *conf_key_name(enum conf_key k);

/* Load path (NULL: conf_default_path()) into *out, which is zeroed first
 * and must be released with conf_free whatever the result.
 * explicit_path says the caller named the file (conf=PATH, --conf PATH):
 * then a missing file is an error; a missing default file is ERR_OK with
 * nothing set. On failure errbuf (errlen > 0) holds one line naming the
 * file, and the line for parse errors; on success it is "".
 * ERR_OK, ERR_INVAL, ERR_NOMEM, ERR_FILE (cannot open or read; errno
 * kept), ERR_FILE_UNSAFE (link, type, owner, mode), ERR_TOO_BIG,
 * ERR_CONFIG (syntax, unknown key, duplicate, wrong type, out of range). */
int conf_load(const char *path, bool explicit_path, struct conf *out,
    char *errbuf, size_t errlen);

/* The parser alone, on len bytes at buf (no file checks): what conf_load
 * does after reading the file, for tests and fuzzers. name is used in
 * messages ("name:line: ..."). Same results as conf_load, less the file
 * errors. */
int conf_parse_mem(const char *name, const char *buf, size_t len,
    struct conf *out, char *errbuf, size_t errlen);

#endif
