/* SPDX-License-Identifier: BSD-2-Clause */
/* The scripted conversation and one authentication through libpam. */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <security/pam_appl.h>

#include "modtest.h"

static void
mt_record(struct mt_conv *cv, char tag, const char *msg)
{
	size_t used = strlen(cv->shown);

	snprintf(cv->shown + used, sizeof(cv->shown) - used, "%c:%s\n", tag,
	    msg != NULL ? msg : "(null)");
}

static int
mt_conv_fn(int n, const struct pam_message **msg, struct pam_response **resp,
    void *appdata)
{
	struct mt_conv *cv = appdata;
	struct pam_response *r;
	int i;

	*resp = NULL;
	if (cv->fail)
		return PAM_CONV_ERR;
	if ((r = calloc((size_t)n, sizeof(*r))) == NULL)
		return PAM_BUF_ERR;
	for (i = 0; i < n; i++) {
		switch (msg[i]->msg_style) {
		case PAM_TEXT_INFO:
			cv->ninfo++;
			mt_record(cv, 'I', msg[i]->msg);
			break;
		case PAM_ERROR_MSG:
			cv->nerror++;
			mt_record(cv, 'E', msg[i]->msg);
			break;
		default:
			cv->nprompts++;
			mt_record(cv, 'P', msg[i]->msg);
			if (cv->null_answer)
				break;
			r[i].resp = cv->answer != NULL
			    ? cv->answer(cv, msg[i]->msg)
			    : strdup("");
			break;
		}
	}
	if (cv->null_resp && cv->nprompts > 0) {
		for (i = 0; i < n; i++)
			free(r[i].resp);
		free(r);
		return PAM_SUCCESS;
	}
	*resp = r;
	return PAM_SUCCESS;
}

int
mt_auth_from(const char *service, const char *user, const char *rhost,
    const char *tty, struct mt_conv *cv)
{
	struct mt_conv dummy;
	struct pam_conv conv = {mt_conv_fn, cv != NULL ? cv : &dummy};
	pam_handle_t *pamh = NULL;
	int r;

	memset(&dummy, 0, sizeof(dummy));
	r = pam_start_confdir(service, user, &conv, mt.confdir, &pamh);
	if (r != PAM_SUCCESS)
		return -1000 - r;
	if ((rhost != NULL &&
		pam_set_item(pamh, PAM_RHOST, rhost) != PAM_SUCCESS) ||
	    (tty != NULL && pam_set_item(pamh, PAM_TTY, tty) != PAM_SUCCESS))
		r = -1;
	else
		r = pam_authenticate(pamh, cv != NULL ? cv->pam_flags : 0);
	pam_end(pamh, r);
	return r;
}

int
mt_auth(const char *service, const char *user, struct mt_conv *cv)
{
	return mt_auth_from(service, user, NULL, NULL, cv);
}

#define MT_ARGV_MAX 32

int
mt_direct(const char *user, const char *args)
{
	struct mt_conv cv;
	struct pam_conv conv = {mt_conv_fn, &cv};
	pam_handle_t *pamh = NULL;
	const char *argv[MT_ARGV_MAX];
	char buf[2048], dbg[300], conf[300], *save = NULL, *tok;
	int (*fn)(pam_handle_t *, int, int, const char **);
	int argc = 0, r;
	void *h;

	memset(&cv, 0, sizeof(cv));
	mt_service("direct", "");
	snprintf(buf, sizeof(buf), "%s", args);
	snprintf(dbg, sizeof(dbg), "debug_file=%s", mt.debug);
	for (tok = strtok_r(buf, " ", &save);
	     tok != NULL && argc < MT_ARGV_MAX - 3;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc++] = "debug";
	argv[argc++] = dbg;
	/* Hermetic, as mt_service_lines: never the system's file. */
	snprintf(conf, sizeof(conf), "conf=%s", mt.conf);
	if (mt.root && strstr(args, "conf=") == NULL)
		argv[argc++] = conf;
	if ((h = dlopen(mt.module, RTLD_NOW | RTLD_LOCAL)) == NULL)
		return -1;
	*(void **)(&fn) = dlsym(h, "pam_sm_authenticate");
	r = pam_start_confdir("direct", user, &conv, mt.confdir, &pamh);
	if (fn == NULL || r != PAM_SUCCESS)
		r = -1;
	else
		r = fn(pamh, 0, argc, argv);
	if (pamh != NULL)
		pam_end(pamh, r);
	dlclose(h);
	return r;
}

void *
mt_thr_run(void *arg)
{
	struct mt_thr *th = arg;
	struct mt_conv *cv = calloc(1, sizeof(*cv));

	th->result = cv != NULL ? mt_auth(th->service, th->user, cv) : -1;
	free(cv);
	return NULL;
}
