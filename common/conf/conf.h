/* The configuration file shared by the module and pamu2fcfg,
 * $(sysconfdir)/security/pam_u2f.conf, parsed with libconfuse (conf.c is
 * the only file that includes <confuse.h>).
 *
 * Precedence is built-in defaults < this file < module arguments or
 * command-line options: struct conf holds only what the file said, with a
 * "set" bit per key, and the caller applies it before its own arguments.
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

#define CONF_TIMEOUT_MIN 1 /* seconds, as timeout= */
#define CONF_TIMEOUT_MAX 3600
#define CONF_MAX_DEVICES_MIN 0 /* as max_devices=: 0 is the default */
#define CONF_MAX_DEVICES_MAX 1024
#define CONF_DEVICES_MAX 1024 /* entries in the devices list */
#define CONF_STRING_MAX 4096  /* bytes in one string value */

/* One key per file setting; the names are those of the module arguments. */
enum conf_key {
	CONF_DEBUG,
	CONF_DEBUG_FILE,
	CONF_ORIGIN,
	CONF_APPID,
	CONF_AUTHFILE,
	CONF_EXPAND,
	CONF_AUTHPENDING_FILE,
	CONF_NOUSEROK,
	CONF_OPENASUSER,
	CONF_ALWAYSOK,
	CONF_MAX_DEVICES,
	CONF_INTERACTIVE,
	CONF_PROMPT,
	CONF_MANUAL,
	CONF_CUE,
	CONF_CUE_PROMPT,
	CONF_NODETECT,
	CONF_USERPRESENCE,
	CONF_USERVERIFICATION,
	CONF_PINVERIFICATION,
	CONF_SSHFORMAT,
	CONF_TIMEOUT,
	CONF_DEVICES,
	CONF_NKEYS
};

/* What the file set. A field is meaningful only if its key's bit is in
 * set; strings are malloc'd and owned by the struct. */
struct conf {
	uint32_t set; /* 1u << key for every key the file set */
	bool debug;
	char *debug_file; /* "stderr", "syslog" or an absolute path */
	char *origin;
	char *appid;
	char *authfile;
	bool expand;
	char *authpending_file; /* "" disables the file */
	bool nouserok;
	bool openasuser;
	bool alwaysok;
	int max_devices; /* 0..CONF_MAX_DEVICES_MAX; 0: the default */
	bool interactive;
	char *prompt;
	bool manual;
	bool cue;
	char *cue_prompt;
	bool nodetect;
	int userpresence;     /* -1, 0 or 1 */
	int userverification; /* -1, 0 or 1 */
	int pinverification;  /* -1, 0 or 1 */
	bool sshformat;
	int timeout;    /* CONF_TIMEOUT_MIN..CONF_TIMEOUT_MAX */
	char **devices; /* "/dev/..." or "unix:/..." entries */
	size_t ndevices;
	bool found; /* conf_load: the file existed and was read */
};

/* The default path (configure --with-pam-conf, default
 * /etc/security/pam_u2f.conf); never NULL. */
const char *conf_default_path(void);

/* The key's name in the file, e.g. "max_devices"; NULL if out of range. */
const char *conf_key_name(enum conf_key k);

/* Did the file set key k? */
bool conf_isset(const struct conf *c, enum conf_key k);

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

/* Free what conf_load stored and zero *c. NULL-safe. */
void conf_free(struct conf *c);

#endif
