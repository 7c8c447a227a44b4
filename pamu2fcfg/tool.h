/* SPDX-License-Identifier: BSD-2-Clause */
/* pamu2fcfg internals: the options, the exit codes and the jobs each
 * file under pamu2fcfg/ does. Nothing here is used outside pamu2fcfg/. */
#ifndef PU_TOOL_H
#define PU_TOOL_H

#include <pwd.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "base/cred.h"
#include "base/safefile.h"
#include "base/util.h"
#include "conf/conf.h"
#include "device/dev.h"

/* Exit status, documented in man/pamu2fcfg.1 (EXIT STATUS). */
#define TOOL_EXIT_OK 0    /* registration, edit or check done */
#define TOOL_EXIT_FAIL 1  /* the operation failed or was refused */
#define TOOL_EXIT_USAGE 2 /* bad or unsupported option */
#define TOOL_EXIT_NOKEY 3 /* no usable key, or no touch in time */
#define TOOL_EXIT_FILE 4  /* mapping file unsafe, unreadable, broken */

#define TOOL_TIMEOUT_DEFAULT 15 /* seconds */
#define TOOL_TIMEOUT_MAX 3600
#define TOOL_MAX_FILE (16u * 1024 * 1024)
#define TOOL_LOGIN_DEFS "/etc/login.defs" /* --audit's uid range */

enum tool_mode {
	TOOL_PRINT, /* the older tool: print a line */
	TOOL_ADD,
	TOOL_LIST,
	TOOL_REMOVE,
	TOOL_CHECK,
	TOOL_AUDIT,
	TOOL_WRAP /* --wrap-secret */
};

/* root working on another user's default mapping file (asuser.c). */
struct tool_asuser {
	bool on;       /* file operations run with the user's ids */
	uid_t uid;     /* the user's */
	gid_t gid;     /* the user's primary group */
	gid_t *groups; /* the user's groups (getgrouplist) */
	size_t ngroups;
	gid_t *root_groups; /* ours, to return to */
	size_t nroot_groups;
	char *home; /* the user's home folder (passwd) */
};

/* -c's credProtect levels (CTAP 2.1 credProtect extension). */
#define CRED_PROTECT_UV_OPTIONAL_WITH_LIST 2
#define CRED_PROTECT_UV_REQUIRED 3

struct tool_opts {
	enum tool_mode mode;
	char *user; /* owned */
	char *file; /* owned; NULL = the per-user default */
	/* The options pamu2fcfg shares with the module (the rows of
	 * common/conf/opts.h with CONF_IN_TOOL): origin (-o), appid (-i),
	 * conf (--conf), timeout (--timeout, in seconds), devices (--device),
	 * and from the file also authfile and expand. After opts_parse,
	 * origin, appid and timeout are set. */
	struct conf cf;
	enum dev_backend backend; /* --backend, default native */
	size_t remove_index;      /* 1-based, for --remove */
	bool nouser;
	bool no_presence;
	int type;         /* -t: COSE_ES256 (default), COSE_EDDSA, COSE_RS256 */
	bool pin;         /* -N: verify with the PIN (+pin) */
	bool uv;          /* -V: built-in user verification (+verification) */
	bool resident;    /* -r: a discoverable credential (key handle "*") */
	int cred_protect; /* -c: credProtect level 1-3; 0: not asked */
	bool pin_stdin;   /* --pin-stdin: read the PIN from standard input */
	bool secret_stdin; /* --secret-stdin: the password, from stdin */
	bool hmac_secret;  /* --hmac-secret: register with the extension */
	bool passkey;      /* --format=passkey or ldif: SSSD's passkey: value */
	bool ldif;         /* --format=ldif: that value in an LDIF change */
	char *dn;          /* --dn: the entry the LDIF change modifies */
	char *attribute;   /* --attribute: its attribute (NULL: passkey) */
	bool debug;
	bool verbose;
	unsigned long uid_min, uid_max; /* --uids, for --audit */
	bool uids_set;
	char *login_defs;      /* --login-defs; NULL: TOOL_LOGIN_DEFS */
	bool ssh_agent;        /* --ssh-agent: the agent's keys (sshagent.c) */
	struct tool_asuser as; /* asuser_begin */
	struct log sink;       /* prints to stderr */
	const struct log *lg;  /* &sink with -d, NULL otherwise */
	struct log attest;     /* without -d: attestation refusals only */
};

/* The log the devices get: -d's, else one that prints only why a key's
 * attestation was refused (its "attest_verify: " lines), so that
 * pamu2fcfg names what is wrong without -d. */
const struct log *tool_dev_log(const struct tool_opts *o);

/* pin.c: the PIN callback (struct proto_pin) with arg = a struct
 * tool_pin: from standard input (--pin-stdin), else the terminal without
 * echo; once a PIN was read, the line `then` (if not NULL) is printed:
 * what the user does next (touch the key) comes after the PIN. */
struct tool_pin {
	bool from_stdin;
	const char *then;
};
int tool_pin_get(void *arg, const char *dev, char *pin, size_t cap);
void tool_pin_tell(void *arg, const char *msg);

/* passkeyfmt.c: SSSD's value for a credential with its key handle,
 * "passkey:<b64 credential id>,<b64 DER SubjectPublicKeyInfo>"
 * (common/mapping/passkey.h reads it). ERR_INVAL without a key handle,
 * ERR_PARSE for a bad key. */
int tool_passkey_value(const struct cred *c, char **out);
/* checkcmd.c: --check with no FILE when the configuration file sets
 * authcmd: the user's credentials from the command, run as the module
 * runs it (authcmd_user, authcmd_timeout, common/mapping/authcmd.h), the
 * output read by cmdout_find; never the cache. Root's ids are taken back
 * for the spawn (asuser_leave/enter). Each failure is one message
 * naming it; ERR_NOT_FOUND when the command answered with none. */
int checkcmd_load(const struct tool_opts *o, struct cred **creds, size_t *n);
/* passkeyreq.c: after a failed --format=passkey registration (never
 * else): when err says the keys cannot verify a PIN (ERR_PIN_NOT_SET:
 * none set; ERR_UNSUPPORTED from U2F-only keys), one message saying
 * that SSSD's passkey: values require the PIN at every login and what
 * to do; true when it said so, false to let enroll_explain_open speak.
 * Registration asks for the PIN with --format=passkey (as -N does). */
bool tool_passkey_refused(
    const struct tool_opts *o, struct dev *const *devs, size_t n, int err);
/* Before any touch: with --format=passkey, keys that are all U2F-only
 * are refused (that message, ERR_UNSUPPORTED); ERR_OK otherwise. */
int tool_passkey_keys(
    const struct tool_opts *o, struct dev *const *devs, size_t n);
/* The LDIF change (RFC 2849) that adds value to attr of the entry dn:
 * "dn: DN\nchangetype: modify\nadd: ATTR\nATTR: VALUE\n-\n", the DN
 * base64-encoded ("dn:: ") when it is not a SAFE-STRING. ERR_INVAL for
 * an empty DN, an attribute that is not an LDAP attribute name, or a
 * value that is not a SAFE-STRING. */
#define TOOL_LDIF_ATTR "passkey" /* --attribute's default, SSSD's */
int tool_ldif_change(
    const char *dn, const char *attr, const char *value, char **out);

/* opts.c: fill o from argv. Returns true to go on; false with *status
 * set to TOOL_EXIT_OK (after --help/--version) or TOOL_EXIT_USAGE. */
bool opts_parse(int argc, char **argv, struct tool_opts *o, int *status);
/* The combinations of options that are refused (optcheck.c): false, with
 * a message naming them. opts_parse calls it. */
bool opts_check(const struct tool_opts *o);
void opts_free(struct tool_opts *o);

/* asuser.c: run by root for another user with no FILE (and no absolute
 * configured authfile), the user's default file is the one under the
 * user's home (passwd), and everything from here on runs with the user's
 * effective ids (asuser_enter); enroll_open opens devices as root
 * (asuser_leave, then asuser_enter again). An unknown user, or ids that
 * cannot be taken, is an error with a message. asuser_leave exits the
 * process if root's ids cannot be restored. Nothing happens when not
 * root, for root itself, or with a FILE. */
int asuser_begin(struct tool_opts *o);
/* The mode reads or writes the user's own mapping file: no FILE and no
 * absolute configured authfile (the default, or one under the home). */
bool tool_own_file(const struct tool_opts *o);
int asuser_enter(const struct tool_opts *o);
/* Root, for --audit: o->as filled for pw (not root) in place of what was
 * there; asuser_enter then takes pw's ids. */
int asuser_for(struct tool_opts *o, const struct passwd *pw);
void asuser_leave(const struct tool_opts *o);
void asuser_free(struct tool_opts *o);

/* devwhy.c: said at once instead of waiting for the timeout: an
 * explicit /dev/hidrawN that is not a usable FIDO interface (ERR_NODEV
 * after a message naming the FIDO node of the same device, if any); FIDO
 * nodes with report IDs that discovery skips; a key that was found but
 * did not answer (devwhy_mute: errors that mean so). */
int devwhy_paths(const struct tool_opts *o);
void devwhy_report_ids(const struct tool_opts *o);
bool devwhy_mute(int err);
void devwhy_say_mute(const struct tool_opts *o, int err);
/* After no key was found or one was refused (EACCES): what sysfs and
 * /dev say (transport/hidraw_why.h) for discovered keys, the nodes
 * hidden from this process or the node it may not open and the
 * permission missing. True when something was said. */
bool devwhy_sysfs(const struct tool_opts *o);

/* msg.c: a "pamu2fcfg: " prefixed line on stderr; exit status for an
 * error code. */
void tool_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int tool_exit_for(int err);

/* config.c: defaults from pam_u2f.conf, under the command line. */
int config_apply(struct tool_opts *o);
int config_authfile(const struct tool_opts *o, char **path);

/* enroll.c: wait for keys, register, probe. enroll_open says why it
 * failed (enroll_explain_open or devwhy.c); the others leave it to the
 * caller. */
int enroll_open(const struct tool_opts *o, struct dev ***devs, size_t *n);
void enroll_explain_open(const struct tool_opts *o, int err);
int enroll_register(const struct tool_opts *o, struct dev **devs, size_t n,
    const struct cred *excl, size_t nexcl, struct cred *cred,
    size_t *which_dev);
int enroll_held(const struct tool_opts *o, struct dev **devs, size_t n,
    const struct cred *creds, size_t ncreds, size_t *which);
int enroll_exclude(const struct tool_opts *o, struct dev **devs, size_t *n,
    const struct cred *creds, size_t ncreds, size_t *which);
int enroll_print(const struct tool_opts *o);

/* mapfile.c: safe reading and atomic rewriting of a mapping file. */
typedef int (*mapfile_edit_fn)(
    void *arg, const char *buf, size_t len, char **out, size_t *out_len);
/* The folders a run made for the per-user file (NULL: none), the outer
 * first. */
struct mapfile_made {
	char *dirs[2];
};
/* home NULL: $XDG_CONFIG_HOME or $HOME (the invoking user's); else
 * home/.config (the user asuser.c works for). made not NULL: the
 * folders are created when missing, and those made are recorded. */
int mapfile_default_path(
    const char *home, struct mapfile_made *made, char **out);
/* Forget the folders made; with undo, remove them first (innermost
 * first, only while empty: a failed --add leaves nothing behind). */
void mapfile_made_done(struct mapfile_made *made, bool undo);
/* A mapping file we may rewrite, read with base/safefile's checks;
 * *st keeps its mode and owner for the rewrite (mapfile.c). */
int mapfile_read(const char *path, char **buf, size_t *len, struct stat *st,
    const char **why);
int mapfile_check_dir(const char *path, const char **why);
int mapfile_update(
    const char *path, mapfile_edit_fn fn, void *arg, const char **why);

/* lines.c: edit mapping text in memory. */
int lines_add_cred(const char *buf, size_t len, const char *user,
    const char *cred, char **out, size_t *out_len);
int lines_remove_cred(const char *buf, size_t len, const char *user,
    size_t index, char **out, size_t *out_len);
/* How many lines are the user's (those the two above look at; only the
 * last one counts for the module). *before_last: the line number, from
 * 1, of the one before the last, or 0. */
size_t lines_user_lines(
    const char *buf, size_t len, const char *user, size_t *before_last);

/* add.c: --add. */
int manage_add(const struct tool_opts *o);

/* manage.c: --list, --remove, and helpers. */
int manage_list(const struct tool_opts *o);
int manage_remove(const struct tool_opts *o);
/* The safefile policy for path as the module reads it: the user's own
 * file (pam-u2f 1.4's allowances, *note set on use) when read with the
 * user's ids, otherwise the strict rules. */
void manage_policy(
    const struct tool_opts *o, struct safefile_policy *pol, const char **note);
/* Load the user's credentials (safefile_read + authfile_find). */
int manage_load(const struct tool_opts *o, const char *path,
    struct cred **creds, size_t *n);
/* o->file, or the per-user default (folders made and recorded in made,
 * if not NULL: mapfile_default_path). */
int manage_path(
    const struct tool_opts *o, struct mapfile_made *made, char **path);
/* authfile_find with a message naming path and the bad line. */
int manage_find(const struct tool_opts *o, const char *path, const char *buf,
    size_t len, struct cred **creds, size_t *n);
/* Same key handle or same public key. */
bool manage_same_cred(const struct cred *a, const struct cred *b);

/* sshagent.c: --ssh-agent: the FIDO keys of the agent at SSH_AUTH_SOCK
 * (ssh/ssh.h, sshagent_list_sk, the socket owned by the effective uid),
 * as "@ssh-sk USER KEY" lines (common/mapping/sshline.h): printed on
 * stdout (TOOL_PRINT), or added to the mapping file (TOOL_ADD: those
 * not there yet, atomically, under the file's lock: mapfile_update).
 * The exit status. */
int sshagent_run(const struct tool_opts *o);

/* check.c: --check. */
int check_run(const struct tool_opts *o);
/* Authenticate now against creds (what --check does, and says);
 * salts: hmac-secret salts, one per credential, or NULL; out, if not
 * NULL, gets the verified result (auth_result_clear it). */
struct auth_result;
int check_authenticate(const struct tool_opts *o, const struct cred *creds,
    size_t n, const uint8_t *const *salts, struct auth_result *out);

/* wrap.c: --wrap-secret: the login password sealed under the key's
 * hmac-secret output, in the mapping file's secrets file
 * (common/auth/secret.h). */
int wrap_run(const struct tool_opts *o);
/* pin.c: one line from the terminal without echo, after prompt (no
 * terminal: ERR_CANCELLED, told), or with from_stdin from standard
 * input. Wiped on failure. */
int tool_read_hidden(
    bool from_stdin, const char *prompt, char *buf, size_t cap);

/* audit.c: --audit [FILE]: print "USER<TAB>no key<TAB>FILE: why" (or
 * "cannot check") for each user with a login shell, uid 0 or in UID_MIN
 * to UID_MAX (login.defs, or --uids), whose mapping file gives no
 * credentials; with -v "key" lines too. TOOL_EXIT_OK only when every such
 * user has a key. o->user and o->as are changed. */
int audit_run(struct tool_opts *o);

/* attpolicy.c: under pam_u2f.conf's policy (o->cf.policy), check the
 * new registration's evidence as the module will at login, and move it
 * into res->cred (stored on the line). attestation = required and the
 * key fails: told why, ERR_DENIED; optional: a warning, ERR_OK; none or
 * no section: nothing stored, ERR_OK. A policy whose files cannot be
 * read or verified: told, and ERR_CONFIG under required (under optional
 * a warning, and the evidence is stored unchecked). */
struct reg_result;
int tool_policy_enroll(const struct tool_opts *o, struct reg_result *res);
/* Under attestation = required, whether the policy's files can be read
 * and verified, before the user is asked to touch a key: ERR_OK, or told
 * why and ERR_CONFIG (ERR_NOMEM). */
int tool_policy_ready(const struct tool_opts *o);

#endif
