/* SPDX-License-Identifier: BSD-2-Clause */
/* Every option of the module, the configuration file and pamu2fcfg,
 * defined once: CONF_OPTIONS below. Each row is
 *
 *   X(KEY, name, TYPE, CHECK, min, max, values, default, where, field, doc)
 *
 *   KEY      enum conf_key gets CONF_KEY
 *   name     the module argument, the file's key and the doc's name
 *   TYPE     BOOL, INT (min..max), STR, LIST (of strings) or ENUM (one
 *            of values, CONF_VALUES("a", "b"), stored as its index)
 *   CHECK    what a value must be beyond its type (enum conf_check)
 *   default  the built-in value as text (NULL: none, or computed by the
 *            module: origin is pam://HOSTNAME, appid the origin)
 *   where    CONF_IN_FILE (a key of pam_u2f.conf), CONF_IN_MODULE (a
 *            module argument), CONF_IN_TOOL (pamu2fcfg takes it: a key
 *            from the file, and under its own option where it has one);
 *            written CONF_FM, CONF_FMT or CONF_MT, the three tokens that
 *            tests/conf/manlint.sh reads (test_opttable checks)
 *   field    the member of struct conf (conf.h) and of the module's
 *            struct options, both generated from this table
 *   doc      one line on what it does (pam_u2f.conf(5) and pam_u2f(8)
 *            say more; tests/conf/manlint.sh checks they name every row)
 *
 * Keys of the file come first: conf.h's CONF_NKEYS counts them, and the
 * rows after them have no key in the file (a static assertion in opts.c
 * checks the order). The same value parser and setter (conf_opt_set)
 * serve the file, the module's arguments and pamu2fcfg, as pam_faillock's
 * one setter serves its file and argv. Below the table: what is made of
 * it (enum conf_key, struct conf, the rows as data) and the setter, which
 * know nothing of libconfuse (conf.h is the file). tests/conf/manlint.sh
 * reads the table (one row per line group, name second). */
#ifndef PU_CONF_OPTS_H
#define PU_CONF_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CONF_IN_FILE 1u
#define CONF_IN_MODULE 2u
#define CONF_IN_TOOL 4u
#define CONF_FM (CONF_IN_FILE | CONF_IN_MODULE)
#define CONF_FMT (CONF_IN_FILE | CONF_IN_MODULE | CONF_IN_TOOL)
#define CONF_MT (CONF_IN_MODULE | CONF_IN_TOOL)

#define CONF_VALUES(...) ((const char *const[]){__VA_ARGS__, NULL})

#define CONF_TEXT(x) CONF_TEXT_(x)
#define CONF_TEXT_(x) #x

#define CONF_TIMEOUT_MIN 1 /* seconds, as timeout= */
#define CONF_TIMEOUT_MAX 3600
#define CONF_TIMEOUT_DEFAULT 30
#define CONF_AUTHCMD_TIMEOUT_MIN 1 /* seconds, as authcmd_timeout= */
#define CONF_AUTHCMD_TIMEOUT_MAX 300
#define CONF_AUTHCMD_TIMEOUT_DEFAULT 5
#define CONF_AUTHCMD_CACHE_MAXAGE_MIN 1 /* seconds, authcmd_cache_maxage= */
#define CONF_AUTHCMD_CACHE_MAXAGE_MAX 31536000   /* 365 days */
#define CONF_AUTHCMD_CACHE_MAXAGE_DEFAULT 604800 /* 7 days */
#define CONF_MAX_DEVICES_MIN 0 /* as max_devices=: 0 is the default */
#define CONF_MAX_DEVICES_MAX 1024
#define CONF_MAX_DEVICES_DEFAULT 24 /* as pam-u2f */
#define CONF_PROMPT_DEFAULT "Insert your U2F device, then press ENTER."
#define CONF_CUE_DEFAULT "Please touch the device."
/* The default cue when a key on a reader (PC/SC) is among the keys. */
#define CONF_CUE_TAP "Please touch or tap the device."

/* clang-format off */
#define CONF_OPTIONS(X)                                                        \
X(DEBUG, "debug", BOOL, NONE, 0, 0, NULL, "false", CONF_FM, debug,            \
    "write debug lines")                                                       \
X(DEBUG_FILE, "debug_file", STR, DEBUG_FILE, 0, 0, NULL, NULL, CONF_FM,        \
    debug_file, "where debug lines go: stderr (default), syslog or a file")   \
X(ORIGIN, "origin", STR, NONEMPTY, 0, 0, NULL, NULL, CONF_FMT, origin,         \
    "the origin credentials are registered under (pam://HOSTNAME)")           \
X(APPID, "appid", STR, NONEMPTY, 0, 0, NULL, NULL, CONF_FMT, appid,            \
    "the application id of 1.0-format credentials (the origin)")              \
X(AUTHFILE, "authfile", STR, NONEMPTY, 0, 0, NULL, NULL, CONF_FMT, authfile,   \
    "the mapping file (per user: ~/.config/Yubico/u2f_keys)")                 \
X(EXPAND, "expand", BOOL, NONE, 0, 0, NULL, "false", CONF_FMT, expand,         \
    "substitute %u, %h and %% in authfile")                                   \
X(AUTHCMD, "authcmd", STR, COMMAND, 0, 0, NULL, NULL, CONF_FM, authcmd,       \
    "a command that prints the user's credentials (replaces authfile)")      \
X(AUTHCMD_USER, "authcmd_user", STR, NONEMPTY, 0, 0, NULL, NULL, CONF_FM,      \
    authcmd_user, "the unprivileged user authcmd runs as")                   \
X(AUTHCMD_TIMEOUT, "authcmd_timeout", INT, NONE, CONF_AUTHCMD_TIMEOUT_MIN,     \
    CONF_AUTHCMD_TIMEOUT_MAX, NULL, CONF_TEXT(CONF_AUTHCMD_TIMEOUT_DEFAULT),   \
    CONF_FM, authcmd_timeout, "seconds authcmd may take")                    \
X(AUTHCMD_CACHE, "authcmd_cache", STR, ABSPATH, 0, 0, NULL, NULL, CONF_FM,     \
    authcmd_cache, "a root-only directory keeping authcmd's last answers")   \
X(AUTHCMD_CACHE_MAXAGE, "authcmd_cache_maxage", INT, NONE,                     \
    CONF_AUTHCMD_CACHE_MAXAGE_MIN, CONF_AUTHCMD_CACHE_MAXAGE_MAX, NULL,        \
    CONF_TEXT(CONF_AUTHCMD_CACHE_MAXAGE_DEFAULT), CONF_FM,                     \
    authcmd_cache_maxage, "seconds a cached answer may be used")             \
X(AUTHPENDING_FILE, "authpending_file", STR, EMPTY_OK, 0, 0, NULL, NULL,       \
    CONF_FM, authpending_file,                                                 \
    "a file that exists while waiting for the touch; empty: none")            \
X(NOUSEROK, "nouserok", BOOL, NONE, 0, 0, NULL, "false", CONF_FM, nouserok,    \
    "PAM_IGNORE for a user without credentials")                              \
X(OPENASUSER, "openasuser", BOOL, NONE, 0, 0, NULL, "false", CONF_FM,          \
    openasuser, "read a central authfile as the user")                        \
X(ALWAYSOK, "alwaysok", BOOL, NONE, 0, 0, NULL, "false", CONF_FM, alwaysok,    \
    "succeed even when the second factor fails")                              \
X(MAX_DEVICES, "max_devices", INT, ZERO_DEFAULT, CONF_MAX_DEVICES_MIN,         \
    CONF_MAX_DEVICES_MAX, NULL, CONF_TEXT(CONF_MAX_DEVICES_DEFAULT), CONF_FM,  \
    max_devices,                                                               \
    "use at most this many keys (0: the default)")                            \
X(INTERACTIVE, "interactive", BOOL, NONE, 0, 0, NULL, "false", CONF_FM,        \
    interactive, "prompt, then wait for a key to be plugged in")              \
X(PROMPT, "prompt", STR, NONEMPTY, 0, 0, NULL, CONF_PROMPT_DEFAULT, CONF_FM,  \
    prompt,                                                                    \
    "the interactive prompt")                                                  \
X(MANUAL, "manual", BOOL, NONE, 0, 0, NULL, "false", CONF_FM, manual,          \
    "challenges and answers through the conversation")                        \
X(CUE, "cue", BOOL, NONE, 0, 0, NULL, "false", CONF_FM, cue,                   \
    "show cue_prompt before waiting for the touch")                           \
X(CUE_PROMPT, "cue_prompt", STR, NONEMPTY, 0, 0, NULL, CONF_CUE_DEFAULT,      \
    CONF_FM, cue_prompt, "the cue")                                            \
X(NODETECT, "nodetect", BOOL, NONE, 0, 0, NULL, "false", CONF_FM, nodetect,    \
    "do not ask the keys which credentials they hold")                        \
X(USERPRESENCE, "userpresence", INT, NONE, -1, 1, NULL, "-1", CONF_FM,         \
    userpresence, "0: presence not required; 1 or -1: required")              \
X(USERVERIFICATION, "userverification", INT, NONE, -1, 1, NULL, "-1",         \
    CONF_FM, userverification, "1: every credential needs built-in UV")     \
X(PINVERIFICATION, "pinverification", INT, NONE, -1, 1, NULL, "-1", CONF_FM,  \
    pinverification, "1: every credential needs the PIN")                     \
X(SSHFORMAT, "sshformat", BOOL, NONE, 0, 0, NULL, "false", CONF_FM,            \
    sshformat, "the mapping file is an OpenSSH sk key file")                  \
X(REMOTE, "remote", ENUM, NONE, 0, 0,                                         \
    CONF_VALUES("wait", "fail", "agent", "ignore"), "wait", CONF_FM, remote,   \
    "in a remote session: wait (for a key here), fail, agent, ignore")       \
X(TIMEOUT, "timeout", INT, NONE, CONF_TIMEOUT_MIN, CONF_TIMEOUT_MAX, NULL,     \
    CONF_TEXT(CONF_TIMEOUT_DEFAULT), CONF_FMT, timeout,                        \
    "seconds to wait for the touch")                                           \
X(DEVICES, "devices", LIST, DEVICE, 0, 0, NULL, NULL, CONF_FMT, devices,       \
    "these keys instead of discovery (/dev/... or unix:/...)")                \
X(CONF, "conf", STR, NONEMPTY, 0, 0, NULL, NULL, CONF_MT, conf,                \
    "the configuration file to read")                                         \
X(BACKEND, "backend", ENUM, NONE, 0, 0, CONF_VALUES("native", "libu2f-host"), "native",       \
    CONF_MT, backend, "how to reach the keys")
/* clang-format on */

/* remote=: the index of each value in its row's CONF_VALUES. */
enum conf_remote {
	CONF_REMOTE_WAIT = 0,
	CONF_REMOTE_FAIL,
	CONF_REMOTE_AGENT,
	CONF_REMOTE_IGNORE
};

#define CONF_DEVICES_MAX 1024 /* entries in the devices list */
#define CONF_STRING_MAX 4096  /* bytes in one string value */

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
	bool found; /* conf_load: the file existed and was read */
	/* conf_load: the file's policy section (confpolicy.h), or NULL;
	 * owned, freed by conf_free, never merged */
	struct conf_policy *policy;
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
	CONF_CK_COMMAND,     /* authcmd: starts with '/' */
	CONF_CK_ABSPATH,     /* authcmd_cache: an absolute path */
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

/* Free every value in c and zero it. NULL-safe. */
void conf_free(struct conf *c);

/* a and b hold the same options, set bits and values (strings by
 * content): for the tests and the fuzzer that compare two parsers. */
bool conf_same(const struct conf *a, const struct conf *b);

#endif
