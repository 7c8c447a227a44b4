/* SPDX-License-Identifier: BSD-2-Clause */
/* pamdrive: one pam_authenticate through the real libpam, for the
 * benchmarks (bench/run.sh); never installed, not part of make check.
 *
 *   pamdrive CONFDIR SERVICE USER [COUNT]
 *
 * pam_start_confdir() reads CONFDIR/SERVICE, which names the module under
 * test by absolute path, so two modules run with identical inputs. COUNT
 * (default 1) transactions run one after the other in this process
 * (pam_start_confdir, pam_authenticate, pam_end each time): the difference
 * between COUNT 2 and COUNT 1 is the cost of one more authentication in a
 * process that already ran one (libraries loaded and initialised). The
 * conversation answers every prompt with an empty string, except that
 * with PAMDRIVE_PIN set it answers echo-off prompts (a PIN) with its
 * value, and discards messages (PAMDRIVE_VERBOSE=1 prints them on
 * stderr). With PAMDRIVE_CLOCK=1 it also prints, on stderr,
 * "pamdrive: pam_authenticate at SEC.NSEC" per transaction: CLOCK_MONOTONIC
 * read right before the call (bench/multikey.sh compares it with the
 * software tokens' --log-time stamps). With PAMDRIVE_RHOST set, PAM_RHOST
 * is that host (a remote client, for remote=). With PAMDRIVE_CPU=1 it
 * prints "pamdrive: cpu_ns N" on stderr per transaction: the process's
 * CPU time (CLOCK_PROCESS_CPUTIME_ID, user + system) spent inside
 * pam_authenticate (bench/remote.sh). Prints one line
 * per transaction, "NAME CODE" (e.g. "PAM_AUTH_ERR 7"), and exits 0 if
 * every pam_authenticate returned PAM_SUCCESS, 1 if one did not, 2 for a
 * usage or setup error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <security/pam_appl.h>

struct drive_opts {
	int verbose;
	int clock;         /* print CLOCK_MONOTONIC at pam_authenticate */
	const char *pin;   /* the answer to echo-off prompts */
	const char *rhost; /* PAM_RHOST, or NULL */
	int cpu;           /* print the CPU time of pam_authenticate */
};

struct drive_name {
	int code;
	const char *name;
};

static const struct drive_name drive_names[] = {
    {PAM_SUCCESS, "PAM_SUCCESS"},
    {PAM_AUTH_ERR, "PAM_AUTH_ERR"},
    {PAM_AUTHINFO_UNAVAIL, "PAM_AUTHINFO_UNAVAIL"},
    {PAM_USER_UNKNOWN, "PAM_USER_UNKNOWN"},
    {PAM_IGNORE, "PAM_IGNORE"},
    {PAM_SERVICE_ERR, "PAM_SERVICE_ERR"},
    {PAM_SYSTEM_ERR, "PAM_SYSTEM_ERR"},
    {PAM_BUF_ERR, "PAM_BUF_ERR"},
    {PAM_CRED_INSUFFICIENT, "PAM_CRED_INSUFFICIENT"},
    {PAM_MAXTRIES, "PAM_MAXTRIES"},
    {PAM_ABORT, "PAM_ABORT"},
    {PAM_CONV_ERR, "PAM_CONV_ERR"},
};

static const char *
drive_name(int code)
{
	size_t i;

	for (i = 0; i < sizeof(drive_names) / sizeof(drive_names[0]); i++)
		if (drive_names[i].code == code)
			return drive_names[i].name;
	return "PAM_OTHER";
}

static void
drive_free_resp(struct pam_response *resp, int n)
{
	int i;

	if (resp == NULL)
		return;
	for (i = 0; i < n; i++)
		free(resp[i].resp);
	free(resp);
}

static int
drive_conv(
    int n, const struct pam_message **msg, struct pam_response **out, void *arg)
{
	struct pam_response *resp = NULL;
	const struct drive_opts *o = arg;
	const char *ans;
	int i;

	*out = NULL;
	if (n <= 0 || n > PAM_MAX_NUM_MSG)
		return PAM_CONV_ERR;
	if ((resp = calloc((size_t)n, sizeof(*resp))) == NULL)
		return PAM_BUF_ERR;
	for (i = 0; i < n; i++) {
		if (o->verbose)
			fprintf(stderr, "pamdrive: conv style %d: %s\n",
			    msg[i]->msg_style, msg[i]->msg);
		if (msg[i]->msg_style != PAM_PROMPT_ECHO_OFF &&
		    msg[i]->msg_style != PAM_PROMPT_ECHO_ON)
			continue;
		ans = msg[i]->msg_style == PAM_PROMPT_ECHO_OFF ? o->pin : "";
		if ((resp[i].resp = strdup(ans)) == NULL) {
			drive_free_resp(resp, n);
			return PAM_BUF_ERR;
		}
	}
	*out = resp;
	return PAM_SUCCESS;
}

/* One transaction: 0 for PAM_SUCCESS, 1 for another result, 2 if PAM
 * could not start. */
static int
drive_once(const char *confdir, const char *service, const char *user,
    struct drive_opts *o)
{
	pam_handle_t *pamh = NULL;
	struct pam_conv conv;
	struct timespec t0 = {0, 0}, c0 = {0, 0}, c1 = {0, 0};
	int r;

	conv.conv = drive_conv;
	conv.appdata_ptr = o;
	r = pam_start_confdir(service, user, &conv, confdir, &pamh);
	if (r != PAM_SUCCESS) {
		fprintf(stderr, "pamdrive: pam_start_confdir: %d\n", r);
		return 2;
	}
	if ((o->rhost != NULL &&
		pam_set_item(pamh, PAM_RHOST, o->rhost) != PAM_SUCCESS) ||
	    (o->clock && clock_gettime(CLOCK_MONOTONIC, &t0) != 0) ||
	    (o->cpu && clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0) != 0)) {
		pam_end(pamh, PAM_SYSTEM_ERR);
		return 2;
	}
	r = pam_authenticate(pamh, 0);
	if (o->cpu && clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1) == 0)
		fprintf(stderr, "pamdrive: cpu_ns %lld\n",
		    (long long)(c1.tv_sec - c0.tv_sec) * 1000000000LL +
			(c1.tv_nsec - c0.tv_nsec));
	if (o->clock)
		fprintf(stderr, "pamdrive: pam_authenticate at %lld.%09ld\n",
		    (long long)t0.tv_sec, t0.tv_nsec);
	printf("%s %d\n", drive_name(r), r);
	fflush(stdout);
	pam_end(pamh, r);
	return r == PAM_SUCCESS ? 0 : 1;
}

int
main(int argc, char **argv)
{
	struct drive_opts o;
	const char *v;
	char *end = NULL;
	long count = 1, i;
	int r, rc = 0;

	if (argc == 5)
		count = strtol(argv[4], &end, 10);
	if ((argc != 4 && argc != 5) ||
	    (end != NULL && (*end != '\0' || count < 1 || count > 1000))) {
		fprintf(stderr,
		    "usage: pamdrive CONFDIR SERVICE USER "
		    "[COUNT]\n");
		return 2;
	}
	v = getenv("PAMDRIVE_VERBOSE");
	o.verbose = v != NULL && strcmp(v, "1") == 0;
	v = getenv("PAMDRIVE_CLOCK");
	o.clock = v != NULL && strcmp(v, "1") == 0;
	v = getenv("PAMDRIVE_CPU");
	o.cpu = v != NULL && strcmp(v, "1") == 0;
	o.rhost = getenv("PAMDRIVE_RHOST");
	o.pin = getenv("PAMDRIVE_PIN") != NULL ? getenv("PAMDRIVE_PIN") : "";
	for (i = 0; i < count; i++) {
		if ((r = drive_once(argv[1], argv[2], argv[3], &o)) == 2)
			return 2;
		if (r != 0)
			rc = 1;
	}
	return rc;
}
