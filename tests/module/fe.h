/* SPDX-License-Identifier: BSD-2-Clause */
/* Front ends for the conversation tests (test_conv, test_frontends): a
 * PAM conversation that plays one front end's style (gdm, lightdm,
 * sddm, a lock screen, a slow typist) on the virtual clock, and one
 * ordered log of what happened: what the module sent, what the front
 * end showed and when (virtual ms), what it answered, and the software
 * tokens' log lines, read at every conversation call, so that the order
 * between the conversation and the key can be asserted. The module's
 * clock is the virtual one (feclock.c); the tokens run in real time. */
#ifndef PU_FE_H
#define PU_FE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum fe_style {
	FE_LIGHTDM, /* every message shown at once */
	FE_GDM,     /* messages queued, each shown FE_GDM_MS_PER_CHAR x len;
		       a reply is held until the queue drains */
	FE_SDDM,    /* TEXT_INFO dropped; errors shown */
	FE_LOCK,    /* every hidden prompt answered with the password */
	FE_SLOW     /* as lightdm; the PIN takes FE_SLOW_MS to type */
};

#define FE_GDM_MS_PER_CHAR 48
#define FE_SLOW_MS 20000
#define FE_TYPE_MS 2000 /* how long the others take to type a PIN */

/* What the conversation does wrong, at the first message of style
 * fault_style (PAM_PROMPT_ECHO_OFF, PAM_TEXT_INFO, ...). */
enum fe_fault {
	FE_FAULT_NONE,
	FE_FAULT_FAIL,       /* the call returns PAM_CONV_ERR */
	FE_FAULT_NULL_RESP,  /* PAM_SUCCESS with no response array */
	FE_FAULT_NULL_REPLY, /* a response whose resp is NULL */
	FE_FAULT_EMPTY       /* the reply is "" */
};

#define FE_EVENTS_MAX 96
#define FE_TEXT_MAX 240
#define FE_TOKENS_MAX 2

/* Kinds: 'P' hidden prompt, 'V' visible prompt, 'I' TEXT_INFO and 'E'
 * ERROR_MSG received, 'S' a message shown (at the virtual time it
 * appears), 'R' a reply returned, 'T' a token log line ("N:line"). */
struct fe_event {
	int64_t vt; /* virtual ms since the start of the transaction */
	char kind;
	char text[FE_TEXT_MAX];
};

struct fe {
	enum fe_style style;
	const char *pin;      /* typed at a PIN prompt */
	const char *password; /* the lock screen's, typed before */
	enum fe_fault fault;
	int fault_style;
	const char *toklog[FE_TOKENS_MAX]; /* token logs to follow */
	/* filled in */
	long tokoff[FE_TOKENS_MAX];
	int64_t t0, queue_free;
	struct fe_event ev[FE_EVENTS_MAX];
	size_t nev, nhidden, nvisible;
	bool faulted;
};

/* pam_start_confdir(service) + pam_authenticate + pam_end with f's
 * conversation; the tokens' logs are read once more at the end. */
int fe_auth(struct fe *f, const char *service, const char *user);
/* Index of the first event of kind (0: any) from index from on whose
 * text holds needle, or -1. */
long fe_find(const struct fe *f, char kind, const char *needle, size_t from);
/* Print the log as TAP comments. */
void fe_dump(const struct fe *f);

/* A CTAP 2.1 token with PIN FE_PIN holding one ES256 credential for
 * ORIGIN (flags added to CRED_PRESENCE, e.g. CRED_PIN), then restarted
 * with --presence presence; opt1 and opt2 (or NULL) are given to both
 * starts.
 * Returns 0 or -1. */
#define FE_PIN "1234"
struct tokenctl;
struct cred;
int fe_ctap2_token(struct tokenctl *t, const char *presence, unsigned flags,
    struct cred *c, const char *opt1, const char *opt2);
/* The token's "pin-retries" from its state file, or -1. */
int fe_pin_retries(const struct tokenctl *t);

#endif
