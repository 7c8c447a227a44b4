/* SPDX-License-Identifier: BSD-2-Clause */
/* The front ends of fe.h: one conversation function that plays each
 * style on the virtual clock, and the event log it keeps (with the
 * tokens' log lines read at every call). Its own file because two test
 * programs share it (test_conv: the rules; test_frontends: the
 * styles), and it is the only place the styles are written down. */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <security/pam_appl.h>

#include "base/cred.h"
#include "base/err.h"
#include "fe.h"
#include "modtest.h"
#include "mtfix.h"
#include "tokenctl.h"
#include "vclock.h"

static void
fe_add(struct fe *f, int64_t vt, char kind, const char *text)
{
	struct fe_event *e;

	if (f->nev >= FE_EVENTS_MAX)
		return;
	e = &f->ev[f->nev++];
	e->vt = vt - f->t0;
	e->kind = kind;
	snprintf(
	    e->text, sizeof(e->text), "%s", text != NULL ? text : "(null)");
}

/* The tokens' new log lines, as 'T' events at the present time. */
static void
fe_follow(struct fe *f)
{
	char line[FE_TEXT_MAX - 16], ev[FE_TEXT_MAX];
	size_t i, n;
	FILE *fp;

	for (i = 0; i < FE_TOKENS_MAX; i++) {
		if (f->toklog[i] == NULL ||
		    (fp = fopen(f->toklog[i], "r")) == NULL)
			continue;
		if (fseek(fp, f->tokoff[i], SEEK_SET) == 0) {
			while (fgets(line, sizeof(line), fp) != NULL &&
			    (n = strlen(line)) > 0 && line[n - 1] == '\n') {
				line[n - 1] = '\0';
				f->tokoff[i] = ftell(fp);
				snprintf(
				    ev, sizeof(ev), "%u:%s", (unsigned)i, line);
				fe_add(f, vclock_now_ms(), 'T', ev);
			}
		}
		fclose(fp);
	}
}

/* A message received: shown (or not) as the style does. */
static void
fe_message(struct fe *f, const struct pam_message *m)
{
	int64_t now = vclock_now_ms(), at = now;
	const char *text = m->msg != NULL ? m->msg : "";

	fe_add(f, now, m->msg_style == PAM_TEXT_INFO ? 'I' : 'E', text);
	if (f->style == FE_SDDM && m->msg_style == PAM_TEXT_INFO)
		return;
	if (f->style == FE_GDM) {
		at = f->queue_free > now ? f->queue_free : now;
		f->queue_free = at + (int64_t)strlen(text) * FE_GDM_MS_PER_CHAR;
	}
	fe_add(f, at, 'S', text);
}

/* A prompt: shown once the queue drained (gdm), then answered. */
static char *
fe_prompt(struct fe *f, const struct pam_message *m)
{
	bool hidden = m->msg_style == PAM_PROMPT_ECHO_OFF;
	int64_t now = vclock_now_ms();

	fe_add(f, now, hidden ? 'P' : 'V', m->msg);
	if (!hidden) {
		f->nvisible++;
		return strdup(""); /* "press ENTER" */
	}
	f->nhidden++;
	if (f->style == FE_GDM && f->queue_free > now)
		vclock_advance_ms(f->queue_free - now);
	if (f->style == FE_LOCK)
		return strdup(f->password != NULL ? f->password : "");
	vclock_advance_ms(f->style == FE_SLOW ? FE_SLOW_MS : FE_TYPE_MS);
	return strdup(f->pin != NULL ? f->pin : "");
}

/* The fault, if this message is the one it hits: PAM_SUCCESS if none. */
static int
fe_fault(struct fe *f, const struct pam_message *m, struct pam_response *r,
    bool *nullresp)
{
	if (f->fault == FE_FAULT_NONE || f->faulted ||
	    m->msg_style != f->fault_style)
		return PAM_SUCCESS;
	f->faulted = true;
	fe_add(f, vclock_now_ms(),
	    m->msg_style == PAM_PROMPT_ECHO_OFF ? 'P' : 'I', m->msg);
	switch (f->fault) {
	case FE_FAULT_FAIL:
		return PAM_CONV_ERR;
	case FE_FAULT_NULL_RESP:
		*nullresp = true;
		break;
	case FE_FAULT_EMPTY:
		r->resp = strdup("");
		break;
	default:
		break; /* FE_FAULT_NULL_REPLY: resp stays NULL */
	}
	return PAM_SUCCESS;
}

static int
fe_conv(int n, const struct pam_message **msg, struct pam_response **resp,
    void *appdata)
{
	struct fe *f = appdata;
	struct pam_response *r;
	bool nullresp = false, faulted;
	int i, pr = PAM_SUCCESS;

	*resp = NULL;
	fe_follow(f);
	if (n <= 0 || (r = calloc((size_t)n, sizeof(*r))) == NULL)
		return PAM_BUF_ERR;
	for (i = 0; i < n && pr == PAM_SUCCESS; i++) {
		faulted = f->faulted;
		if ((pr = fe_fault(f, msg[i], &r[i], &nullresp)) !=
			PAM_SUCCESS ||
		    f->faulted != faulted)
			continue;
		if (msg[i]->msg_style == PAM_TEXT_INFO ||
		    msg[i]->msg_style == PAM_ERROR_MSG)
			fe_message(f, msg[i]);
		else
			r[i].resp = fe_prompt(f, msg[i]);
		if (r[i].resp != NULL)
			fe_add(f, vclock_now_ms(), 'R', "(reply)");
	}
	if (pr != PAM_SUCCESS || nullresp) {
		for (i = 0; i < n; i++)
			free(r[i].resp);
		free(r);
		return pr;
	}
	*resp = r;
	return PAM_SUCCESS;
}

/* The module must find this program's clock (feclock.c) first: else it
 * runs on the real one, and no time a front end spends would count. */
static void
fe_clock_check(void)
{
	if (dlsym(RTLD_DEFAULT, "clock_gettime") != (void *)clock_gettime ||
	    dlsym(RTLD_DEFAULT, "nanosleep") != (void *)nanosleep) {
		printf("Bail out! clock_gettime and nanosleep are not this "
		       "program's (not exported?): the module would not be on "
		       "the virtual clock\n");
		exit(1);
	}
}

int
fe_auth(struct fe *f, const char *service, const char *user)
{
	struct pam_conv conv = {fe_conv, f};
	pam_handle_t *pamh = NULL;
	int r;

	fe_clock_check();
	f->t0 = vclock_now_ms();
	f->queue_free = f->t0;
	fe_follow(f); /* what came before is not this transaction's */
	f->nev = 0;
	r = pam_start_confdir(service, user, &conv, mt.confdir, &pamh);
	if (r != PAM_SUCCESS)
		return -1000 - r;
	r = pam_authenticate(pamh, 0);
	pam_end(pamh, r);
	fe_follow(f);
	return r;
}

long
fe_find(const struct fe *f, char kind, const char *needle, size_t from)
{
	size_t i;

	for (i = from; i < f->nev; i++)
		if ((kind == 0 || f->ev[i].kind == kind) &&
		    strstr(f->ev[i].text, needle) != NULL)
			return (long)i;
	return -1;
}

void
fe_dump(const struct fe *f)
{
	size_t i;

	for (i = 0; i < f->nev; i++)
		printf("#   %6lld ms %c %s\n", (long long)f->ev[i].vt,
		    f->ev[i].kind, f->ev[i].text);
}

int
fe_ctap2_token(struct tokenctl *t, const char *presence, unsigned flags,
    struct cred *c, const char *opt1, const char *opt2)
{
	memset(c, 0, sizeof(*c));
	if (tokenctl_start(t, "--ctap2", "2.1", "--pin", FE_PIN, "--presence",
		"now", opt1, opt2, NULL) != 0 ||
	    mt_enroll(t->path, ORIGIN, c) != ERR_OK)
		return -1;
	c->flags |= flags;
	return tokenctl_restart(
	    t, "--ctap2", "2.1", "--presence", presence, opt1, opt2, NULL);
}

int
fe_pin_retries(const struct tokenctl *t)
{
	char line[256];
	int n = -1;
	FILE *fp;

	if ((fp = fopen(t->state, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (sscanf(line, "pin-retries %d", &n) == 1)
			break;
	fclose(fp);
	return n;
}
