/* The configuration file shared by the module and pamu2fcfg,
 * $(sysconfdir)/security/pam_u2f.conf, parsed with libconfuse (conf.c is
 * the only file that includes <confuse.h>).
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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opts.h"

#define CONF_MAX_SIZE (64 * 1024) /* bytes */
#define CONF_DEVICES_MAX 1024     /* entries in the devices list */
#define CONF_STRING_MAX 4096      /* bytes in one string value */

/* One key per row of CONF_OPTIONS (opts.h): CONF_DEBUG, CONF_TIMEOUT, ...
 * The keys of the file come first, CONF_NKEYS of them; CONF_NOPTS counts
 * every option. */
#define CONF_X_KEY(key, ...) CONF_##key,
enum conf_key { CONF_OPTIONS(CONF_X_KEY) CONF_NOPTS };
#undef CONF_X_KEY
#define CONF_X_NFILE(                                                          \
    key, name, type, check, min, max, values, def, where, field, doc)          \
	+(((where)&CONF_IN_FILE) != 0 ? 1 : 0)
enum { CONF_NFILE = 0 CONF_OPTIONS(CONF_X_NFILE) };
#undef CONF_X_NFILE
#define CONF_NKEYS ((int)CONF_NFILE)

/* The members of struct conf (and of the module's struct options), one
 * per row: bool, int (INT and ENUM), char * (STR), or char ** with its
 * count n<field> (LIST). */
#define CONF_FIELD_BOOL(f) bool f;
#define CONF_FIELD_INT(f) int f;
#define CONF_FIELD_ENUM(f) int f;
#define CONF_FIELD_STR(f) char *f;
#define CONF_FIELD_LIST(f)                                                     \
	char **f;                                                              \
	size_t n##f;
#define CONF_X_FIELD(                                                          \
    key, name, type, check, min, max, values, def, where, field, doc)          \
	CONF_FIELD_##type(field)
#define CONF_FIELDS CONF_OPTIONS(CONF_X_FIELD)

/* The one options struct: what a source (the file, the arguments, the
 * command line) set. A field is meaningful only if its key's bit is in
 * set; strings are malloc'd and owned by the struct. */
struct conf {
	uint32_t set; /* 1u << key for every key set */
	CONF_FIELDS
};

enum conf_type {
	CONF_T_BOOL,
	CONF_T_INT,
	CONF_T_STR,
	CONF_T_LIST,
	CONF_T_ENUM
};

enum conf_check {
	CONF_CK_NONE,        /* numbers, booleans, enums */
	CONF_CK_NONEMPTY,    /* a string that may not be empty */
	CONF_CK_EMPTY_OK,    /* authpending_file: "" disables it */
	CONF_CK_DEBUG_FILE,  /* the file: "stderr", "syslog" or absolute */
	CONF_CK_DEVICE,      /* "/dev/..." or "unix:/..." */
	CONF_CK_ZERO_DEFAULT /* max_devices: 0 stands for the default */
};

/* Where a value comes from: the file (libconfuse has split the syntax),
 * a module argument (name=value, or a bare name for a boolean), or a
 * pamu2fcfg option. */
enum conf_src { CONF_SRC_FILE, CONF_SRC_ARG, CONF_SRC_TOOL };

/* One row of CONF_OPTIONS. */
struct conf_opt {
	const char *name;
	enum conf_type type;
	enum conf_check check;
	long min, max;             /* CONF_T_INT */
	const char *const *values; /* CONF_T_ENUM: the names, NULL-ended */
	const char *def;           /* the built-in default as text, or NULL */
	unsigned int where;        /* CONF_IN_* */
	size_t off;                /* the field in struct conf */
	size_t noff;               /* CONF_T_LIST: its count n<field> */
	const char *doc;
};

/* The default path, $(sysconfdir)/security/pam_u2f.conf; never NULL. */
const char *conf_default_path(void);

/* The key's name in the file, e.g. "max_devices"; NULL if out of range
 * or not a key of the file. */
const char *conf_key_name(enum conf_key k);

/* Was option k set (by the source that filled c)? */
bool conf_isset(const struct conf *c, enum conf_key k);

/* opts.c: the table, its one value parser and its one setter. */

/* Option k's row; NULL if out of range. */
const struct conf_opt *conf_opt(enum conf_key k);

/* The option named by the n bytes at name; CONF_NOPTS if none. */
enum conf_key conf_opt_find(const char *name, size_t n);

/* The name of value v of an enum option; NULL if out of range. */
const char *conf_opt_value(enum conf_key k, int v);

/* Check value for option k as given by src, and convert it: a boolean,
 * an integer or an enum's index into *num (strings are checked only).
 * value NULL is a bare name: true for a boolean from any source, an error
 * otherwise. For a list, value is one entry. ERR_OK, or ERR_CONFIG with
 * "name: problem" in why (whylen > 0), values quoted cut to 64 bytes with
 * control characters as '?'. Every source gets the same rules, except
 * that a boolean module argument takes no value (pam-u2f's flags) and the
 * file's debug_file must be "stderr", "syslog" or absolute (as an
 * argument, anything else falls back to syslog with a warning). */
int conf_opt_parse(enum conf_key k, enum conf_src src, const char *value,
    long *num, char *why, size_t whylen);

/* conf_opt_parse, then store the value in c and set its bit: a string
 * replaces the one before; a list from a module argument is
 * comma-separated and may be given once, from pamu2fcfg each value adds
 * one entry. On error c is unchanged. ERR_OK, ERR_CONFIG (why), ERR_NOMEM. */
int conf_opt_set(struct conf *c, enum conf_key k, enum conf_src src,
    const char *value, char *why, size_t whylen);

/* Mark option k as set in c (for a value its source checked itself). */
void conf_mark(struct conf *c, enum conf_key k);

/* Precedence: every option in where (any CONF_IN_* bit) that src set
 * moves into dst, replacing dst's value; src keeps what did not move. */
void conf_merge(struct conf *dst, struct conf *src, unsigned int where);

/* The built-in defaults: every option c did not set and that has one
 * gets it (without its bit), and an option that stands 0 for its
 * default (max_devices) gets the default. ERR_OK or ERR_NOMEM. */
int conf_defaults(struct conf *c);

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
