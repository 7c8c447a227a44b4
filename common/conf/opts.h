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
 *            tests/conf_manlint.sh reads (test_opttable checks)
 *   field    the member of struct conf (conf.h) and of the module's
 *            struct options, both generated from this table
 *   doc      one line on what it does (pam_u2f.conf(5) and pam_u2f(8)
 *            say more; tests/conf_manlint.sh checks they name every row)
 *
 * Keys of the file come first: conf.h's CONF_NKEYS counts them, and the
 * rows after them have no key in the file (a static assertion in opts.c
 * checks the order). The same value parser and setter (conf_opt_set)
 * serve the file, the module's arguments and pamu2fcfg, as pam_faillock's
 * one setter serves its file and argv. This header includes nothing and
 * is read by tests/conf_manlint.sh (one row per line group, name second). */
#ifndef PU_CONF_OPTS_H
#define PU_CONF_OPTS_H

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
#define CONF_MAX_DEVICES_MIN 0 /* as max_devices=: 0 is the default */
#define CONF_MAX_DEVICES_MAX 1024
#define CONF_MAX_DEVICES_DEFAULT 24 /* as pam-u2f */
#define CONF_PROMPT_DEFAULT "Insert your U2F device, then press ENTER."
#define CONF_CUE_DEFAULT "Please touch the device."

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
    CONF_FM, userverification, "1 needs FIDO2 (refused)")                     \
X(PINVERIFICATION, "pinverification", INT, NONE, -1, 1, NULL, "-1", CONF_FM,  \
    pinverification, "1 needs FIDO2 (refused)")                               \
X(SSHFORMAT, "sshformat", BOOL, NONE, 0, 0, NULL, "false", CONF_FM,            \
    sshformat, "the mapping file is an OpenSSH sk key file")                  \
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

#endif
