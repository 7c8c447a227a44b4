/* SPDX-License-Identifier: BSD-2-Clause */
/* Harness for driving the real pam_u2f.so through the real libpam with
 * nss_wrapper users: a private tree (users' homes, a PAM confdir, a debug
 * log), a scripted conversation that records what was shown, and
 * enrollment on software tokens. */
#ifndef PU_MODTEST_H
#define PU_MODTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/cred.h"

#define MT_SHOWN_MAX 16384
/* A group shared by alice and bob (with root: their files can be given
 * it); alice's and bob's own groups are private, carol's lists bob. */
#define MT_GID_STAFF 4720
/* The timeout of a service whose waits end in success: it only bounds a
 * wait for an answer that comes, and must outlast valgrind on a machine
 * at load 10. The short timeouts ("timeout=1", "timeout=2") are kept for
 * the waits meant to fail, where they set how long the test takes. */
#define MT_OK_TIMEOUT "timeout=120"

struct mt_user {
	const char *name;
	uid_t uid;
	gid_t gid;
	char home[256];
};

/* The scripted conversation. */
struct mt_conv {
	bool fail;                /* the conversation call fails */
	bool null_answer;         /* prompts get a NULL resp->resp */
	bool null_resp;           /* prompts get a NULL response array */
	char shown[MT_SHOWN_MAX]; /* "I:text\n", "E:text\n", "P:text\n" */
	size_t ninfo, nerror, nprompts;
	/* If set, answers prompts (malloc'd answer); else "". */
	char *(*answer)(struct mt_conv *cv, const char *prompt);
	void *arg;
	int pam_flags; /* pam_authenticate's flags (PAM_SILENT) */
};

struct mt_env {
	char dir[128]; /* private tree */
	char confdir[192];
	char debug[192]; /* debug log (exists, empty at mt_service) */
	char conf[192];  /* the conf= every service gets (as root) */
	char module[512];
	bool root;
	struct mt_user alice, bob, carol;
};

extern struct mt_env mt;

/* In main: re-exec under nss_wrapper with a fresh tree, or (in the
 * re-executed process) load it. Returns 0, or 77 to skip everything. */
int mt_setup(char **argv);
void mt_teardown(void);

/* Write confdir/name: "auth required MODULE args debug
 * debug_file=DEBUG" and empty the debug log. */
void mt_service(const char *name, const char *args);
/* The same with more lines after the module's. */
void mt_service_lines(const char *name, const char *args, const char *more);
/* The same with lines before the module's too (a password module). */
void mt_service_around(
    const char *name, const char *before, const char *args, const char *more);
/* pam_start_confdir + pam_authenticate + pam_end (cv may be NULL). */
int mt_auth(const char *service, const char *user, struct mt_conv *cv);
/* mt_auth with PAM_RHOST and PAM_TTY set first (each if not NULL). */
int mt_auth_from(const char *service, const char *user, const char *rhost,
    const char *tty, struct mt_conv *cv);
/* One transaction in a thread of its own: pthread_create(.., mt_thr_run,
 * th) runs mt_auth(th->service, th->user) with a fresh conversation and
 * leaves the PAM code in th->result (-1 if out of memory). */
struct mt_thr {
	const char *service;
	const char *user;
	int result;
};
void *mt_thr_run(void *arg);
/* The module's own return value: its pam_sm_authenticate called with a
 * real libpam handle (args split at spaces; debug added). */
int mt_direct(const char *user, const char *args);
/* Does the debug log contain needle? */
bool mt_debug_has(const char *needle);
/* Lines of the debug file holding needle. */
size_t mt_debug_count(const char *needle);

/* Rewrite nss_wrapper's passwd and group with these lines (each ending
 * in a newline, or "") after the usual users and groups; ("", "") puts
 * them back. In the re-executed process (the module sees it at once). */
void mt_nss_more(const char *pw_more, const char *gr_more);

/* Write text (len bytes) to path, owned by u (root if NULL), mode. */
void mt_write(const char *path, const char *text, size_t len,
    const struct mt_user *u, mode_t mode);
/* The user's default mapping file path (~/.config/Yubico/u2f_keys). */
void mt_keys_path(const struct mt_user *u, char *buf, size_t size);
/* Write the user's default mapping file. */
void mt_keys(const struct mt_user *u, const char *text);

/* Register a credential on the token at path for rp_id. */
int mt_enroll(const char *path, const char *rp_id, struct cred *out);
/* "user:cred..." lines, current and old format; caller frees. */
char *mt_line(const char *user, const struct cred *c, size_t n);
char *mt_line_old(const char *user, const struct cred *c);
/* An OpenSSH sk-ecdsa private key file for c (application "ssh:"). */
char *mt_sshfile(const struct cred *c, unsigned flags);

#endif
