/* SPDX-License-Identifier: BSD-2-Clause */
/* softtoken: a software U2F and CTAP2 authenticator for the tests (not
 * installed). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/err.h"
#include "base/util.h"
#include "detach.h"
#include "front.h"

#define EXIT_USAGE 2

struct options {
	uint8_t forge_aaguid[16]; /* --forge-aaguid */
	const char *socket_path;
	int uhid;
	const char *vpcd;       /* --vpcd HOST:PORT */
	enum front_rdesc rdesc; /* --rdesc, uhid only */
	mode_t mode;
	int keepalive;
	struct detach_config dc;
	const char *log_path;
	struct token_config tc;
};

/* Set by SIGTERM/SIGINT; a signal handler has no other way to report. */
static volatile sig_atomic_t got_signal;

static void
on_signal(int sig)
{
	(void)sig;
	got_signal = 1;
}

static void
usage(FILE *f)
{
	const char *const *names = token_fault_names();

	fprintf(f,
	    "usage: softtoken (--socket PATH [--mode OCTAL] |\n"
	    "    --uhid [--rdesc fido|keyboard|report-ids] | --vpcd "
	    "HOST:PORT)\n"
	    "    [--presence now|never|after:MS] [--keepalive] [--probe-sign]\n"
	    "    [--state FILE] [--log FILE [--log-time]] [--fault NAME]...\n"
	    "    [--daemon | --ready-fd N] [--pidfile FILE]\n"
	    "    [--ctap2 off|2.0|2.1-pre|2.1] [--u2f on|off] [--pin PIN]\n"
	    "    [--uv none|ok|fail] [--always-uv] [--pin-retries N]\n"
	    "    [--attest packed|self|fido-u2f|none] [--rk-slots N]\n"
	    "    [--max-list N] [--attest-key PEM --attest-chain PEM]\n"
	    "    [--forge-aaguid HEX32] [--hmac-secret on|off|refuse]\n"
	    "faults:");
	for (; *names != NULL; names++)
		fprintf(f, " %s", *names);
	fprintf(f, "\n");
}

static int
parse_presence(const char *s, struct token_config *tc)
{
	char *end;
	long ms;

	if (strcmp(s, "now") == 0) {
		tc->presence = TOKEN_PRESENCE_NOW;
		return ERR_OK;
	}
	if (strcmp(s, "never") == 0) {
		tc->presence = TOKEN_PRESENCE_NEVER;
		return ERR_OK;
	}
	if (strncmp(s, "after:", 6) != 0 || s[6] < '0' || s[6] > '9')
		return ERR_INVAL;
	errno = 0;
	ms = strtol(s + 6, &end, 10);
	if (errno != 0 || *end != '\0' || ms < 0 || ms > 86400000L)
		return ERR_INVAL;
	tc->presence = TOKEN_PRESENCE_AFTER;
	tc->after_ms = (int)ms;
	return ERR_OK;
}

static int
parse_mode(const char *s, mode_t *mode)
{
	char *end;
	unsigned long m;

	errno = 0;
	m = strtoul(s, &end, 8);
	if (errno != 0 || *s == '\0' || *end != '\0' || m > 07777)
		return ERR_INVAL;
	*mode = (mode_t)m;
	return ERR_OK;
}

static int
parse_rdesc(const char *s, enum front_rdesc *rd)
{
	if (strcmp(s, "fido") == 0)
		*rd = FRONT_RDESC_FIDO;
	else if (strcmp(s, "keyboard") == 0)
		*rd = FRONT_RDESC_KEYBOARD;
	else if (strcmp(s, "report-ids") == 0)
		*rd = FRONT_RDESC_REPORT_IDS;
	else
		return ERR_INVAL;
	return ERR_OK;
}

/* s is one of names (NULL-terminated): its index in *v. */
static int
parse_enum(const char *s, const char *const *names, int *v)
{
	int i;

	for (i = 0; names[i] != NULL; i++) {
		if (strcmp(s, names[i]) == 0) {
			*v = i;
			return ERR_OK;
		}
	}
	return ERR_INVAL;
}

/* A count 1..max. */
static int
parse_count(const char *arg, long max, int *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno != 0 || *arg < '0' || *arg > '9' || *end != '\0' || n < 1 ||
	    n > max)
		return ERR_INVAL;
	*out = (int)n;
	return ERR_OK;
}

/* --forge-aaguid: 32 hex digits. */
static int
parse_aaguid(const char *arg, struct options *o)
{
	unsigned int b;
	size_t i;

	if (strlen(arg) != 2 * sizeof(o->forge_aaguid))
		return ERR_INVAL;
	for (i = 0; i < sizeof(o->forge_aaguid); i++) {
		if (sscanf(arg + 2 * i, "%2x", &b) != 1)
			return ERR_INVAL;
		o->forge_aaguid[i] = (uint8_t)b;
	}
	o->tc.forge_aaguid = o->forge_aaguid;
	return ERR_OK;
}

/* The CTAP2 options. */
static int
parse_ctap2(int c, const char *arg, struct token_config *tc)
{
	static const char *const versions[] = {
	    "off", "2.0", "2.1-pre", "2.1", NULL};
	static const char *const onoff[] = {"on", "off", NULL};
	static const char *const hmacs[] = {"on", "off", "refuse", NULL};
	static const char *const uvs[] = {"none", "ok", "fail", NULL};
	static const char *const atts[] = {
	    "packed", "self", "fido-u2f", "none", NULL};
	int v = 0, r = ERR_OK;
	char *end;
	long n;

	switch (c) {
	case '2':
		r = parse_enum(arg, versions, &v);
		tc->ctap2 = (enum token_ctap2)v;
		return r;
	case 'U':
		r = parse_enum(arg, onoff, &tc->u2f_off);
		return r;
	case 'N':
		tc->pin = arg;
		return strlen(arg) >= 4 && strlen(arg) <= 63 ? ERR_OK
							     : ERR_INVAL;
	case 'V':
		r = parse_enum(arg, uvs, &v);
		tc->uv = (enum token_uv)v;
		return r;
	case 'A':
		tc->always_uv = 1;
		return ERR_OK;
	case 'H':
		return parse_enum(arg, hmacs, &tc->hmac_off);
	case 'r':
		errno = 0;
		n = strtol(arg, &end, 10);
		if (errno != 0 || *arg < '0' || *arg > '9' || *end != '\0' ||
		    n > 8)
			return ERR_INVAL;
		tc->pin_retries = (int)n;
		return ERR_OK;
	case 'T':
		r = parse_enum(arg, atts, &v);
		tc->attest = (enum token_attest)v;
		return r;
	case 'K':
		return parse_count(arg, 256, &tc->rk_slots);
	case 'a':
		tc->attest_key = arg;
		return ERR_OK;
	case 'c':
		tc->attest_chain = arg;
		return ERR_OK;
	case 'L':
		return parse_count(arg, 64, &tc->max_list);
	default:
		return ERR_INVAL;
	}
}

static int
parse_one(int c, const char *arg, struct options *o)
{
	unsigned bit;

	switch (c) {
	case 's':
		o->socket_path = arg;
		return ERR_OK;
	case 'u':
		o->uhid = 1;
		return ERR_OK;
	case 'C':
		o->vpcd = arg;
		return ERR_OK;
	case 'R':
		return parse_rdesc(arg, &o->rdesc);
	case 'k':
		o->keepalive = 1;
		return ERR_OK;
	case 'b':
		o->tc.probe_sign = 1;
		return ERR_OK;
	case 'S':
		o->tc.state_path = arg;
		return ERR_OK;
	case 'l':
		o->log_path = arg;
		return ERR_OK;
	case 't':
		o->tc.log_time = 1;
		return ERR_OK;
	case 'd':
		o->dc.daemon = 1;
		return ERR_OK;
	case 'P':
		o->dc.pidfile = arg;
		return ERR_OK;
	case 'F':
		return detach_ready_fd(arg, &o->dc.ready_fd);
	case 'm':
		return parse_mode(arg, &o->mode);
	case 'p':
		return parse_presence(arg, &o->tc);
	case 'f':
		if (token_fault_parse(arg, &bit) != ERR_OK)
			return ERR_INVAL;
		o->tc.faults |= bit;
		return ERR_OK;
	case 'G':
		return parse_aaguid(arg, o);
	default:
		return parse_ctap2(c, arg, &o->tc);
	}
}

/* Combinations that make no sense. CTAP 2.1: a key with alwaysUv does
 * not speak U2F, so --always-uv turns U2F off and refuses --u2f on. */
static int
check_ctap2(const struct token_config *tc, int u2f_seen)
{
	const char *why = NULL;

	if (tc->ctap2 == TOKEN_CTAP2_OFF &&
	    (tc->u2f_off || tc->pin != NULL || tc->uv != TOKEN_UV_NONE ||
		tc->always_uv || tc->pin_retries >= 0 ||
		tc->attest != TOKEN_ATTEST_PACKED || tc->rk_slots > 0 ||
		tc->max_list > 0))
		why = "the CTAP2 options need --ctap2 2.0, 2.1-pre or 2.1";
	else if (tc->always_uv && u2f_seen && !tc->u2f_off)
		why = "--always-uv means U2F is off: drop --u2f on";
	else if (tc->always_uv && tc->ctap2 != TOKEN_CTAP2_21)
		why = "--always-uv needs --ctap2 2.1";
	if (why == NULL)
		return ERR_OK;
	fprintf(stderr, "softtoken: %s\n", why);
	return ERR_INVAL;
}

static int
parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
	    {"socket", required_argument, NULL, 's'},
	    {"mode", required_argument, NULL, 'm'},
	    {"uhid", no_argument, NULL, 'u'},
	    {"vpcd", required_argument, NULL, 'C'},
	    {"rdesc", required_argument, NULL, 'R'},
	    {"presence", required_argument, NULL, 'p'},
	    {"keepalive", no_argument, NULL, 'k'},
	    {"probe-sign", no_argument, NULL, 'b'},
	    {"state", required_argument, NULL, 'S'},
	    {"log", required_argument, NULL, 'l'},
	    {"log-time", no_argument, NULL, 't'},
	    {"fault", required_argument, NULL, 'f'},
	    {"daemon", no_argument, NULL, 'd'},
	    {"pidfile", required_argument, NULL, 'P'},
	    {"ready-fd", required_argument, NULL, 'F'},
	    {"ctap2", required_argument, NULL, '2'},
	    {"u2f", required_argument, NULL, 'U'},
	    {"pin", required_argument, NULL, 'N'},
	    {"uv", required_argument, NULL, 'V'},
	    {"always-uv", no_argument, NULL, 'A'},
	    {"pin-retries", required_argument, NULL, 'r'},
	    {"attest", required_argument, NULL, 'T'},
	    {"rk-slots", required_argument, NULL, 'K'},
	    {"max-list", required_argument, NULL, 'L'},
	    {"attest-key", required_argument, NULL, 'a'},
	    {"attest-chain", required_argument, NULL, 'c'},
	    {"forge-aaguid", required_argument, NULL, 'G'},
	    {"hmac-secret", required_argument, NULL, 'H'},
	    {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	int c, idx, u2f_seen;

	memset(o, 0, sizeof(*o));
	o->mode = 0600;
	o->tc.presence = TOKEN_PRESENCE_NOW;
	o->tc.pin_retries = -1;
	o->dc.ready_fd = -1;
	u2f_seen = 0;
	while ((c = getopt_long(argc, argv, "", longopts, &idx)) != -1) {
		if (c == 'h') {
			usage(stdout);
			exit(0);
		}
		if (parse_one(c, optarg, o) != ERR_OK) {
			if (c != '?')
				fprintf(stderr,
				    "softtoken: bad value for "
				    "--%s: %s\n",
				    longopts[idx].name, optarg);
			return ERR_INVAL;
		}
		u2f_seen |= c == 'U';
	}
	if (check_ctap2(&o->tc, u2f_seen) != ERR_OK)
		return ERR_INVAL;
	if (o->dc.daemon && o->dc.ready_fd >= 0) {
		fprintf(
		    stderr, "softtoken: --daemon or --ready-fd, not both\n");
		return ERR_INVAL;
	}
	o->dc.socket_path = o->socket_path;
	if (o->rdesc != FRONT_RDESC_FIDO && !o->uhid) {
		fprintf(stderr, "softtoken: --rdesc needs --uhid\n");
		return ERR_INVAL;
	}
	if (optind != argc ||
	    (o->socket_path != NULL) + o->uhid + (o->vpcd != NULL) != 1) {
		fprintf(stderr,
		    "softtoken: need exactly one of --socket PATH, --uhid "
		    "and --vpcd HOST:PORT, and no other arguments\n");
		return ERR_INVAL;
	}
	return ERR_OK;
}

/* Block SIGTERM/SIGINT except inside ppoll (no lost wake-ups). */
static int
setup_signals(sigset_t *runmask)
{
	struct sigaction sa;
	sigset_t block;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	if (sigaction(SIGTERM, &sa, NULL) != 0 ||
	    sigaction(SIGINT, &sa, NULL) != 0 ||
	    signal(SIGPIPE, SIG_IGN) == SIG_ERR ||
	    sigprocmask(SIG_BLOCK, &block, runmask) != 0)
		return ERR_SYSTEM;
	sigdelset(runmask, SIGTERM);
	sigdelset(runmask, SIGINT);
	return ERR_OK;
}

static int
serve_socket(
    const struct options *o, struct token *tok, const sigset_t *runmask)
{
	struct front_socket *fs = NULL;
	struct ctaphid_dev *dev = NULL;
	int r, ready = -1;

	if ((r = front_socket_open(&fs, o->socket_path, o->mode)) != ERR_OK)
		return r;
	if ((r = detach(&o->dc, &ready)) != ERR_OK)
		goto fail;
	if ((r = ctaphid_dev_new(
		 &dev, tok, o->keepalive, front_socket_send, fs)) != ERR_OK)
		goto fail;
	detach_ready(&ready, "ready"); /* the socket is listening */
	r = front_socket_run(fs, dev, runmask, &got_signal);
fail:
	if (ready >= 0)
		close(ready);
	ctaphid_dev_free(&dev);
	front_socket_close(&fs);
	return r;
}

static int
serve_uhid(const struct options *o, struct token *tok, const sigset_t *runmask)
{
	struct front_uhid *fu = NULL;
	struct ctaphid_dev *dev = NULL;
	int r, ready = -1;

	if ((r = front_uhid_open(
		 &fu, !(o->tc.faults & FAULT_BURST), o->rdesc)) != ERR_OK)
		return r;
	if ((r = detach(&o->dc, &ready)) != ERR_OK)
		goto fail;
	if ((r = ctaphid_dev_new(
		 &dev, tok, o->keepalive, front_uhid_send, fu)) != ERR_OK)
		goto fail;
	/* ready (the node's path) once the kernel made the hidraw node */
	r = front_uhid_run(fu, dev, runmask, &got_signal, &ready);
fail:
	if (ready >= 0)
		close(ready);
	ctaphid_dev_free(&dev);
	front_uhid_close(&fu);
	return r;
}

/* Ready (for --daemon) once connected to the reader. */
static int
serve_vpcd(const struct options *o, struct token *tok, const sigset_t *runmask)
{
	struct front_vpcd *fv = NULL;
	int r, ready = -1;

	if ((r = front_vpcd_open(&fv, o->vpcd, tok)) != ERR_OK)
		return r;
	if ((r = detach(&o->dc, &ready)) != ERR_OK)
		goto fail;
	detach_ready(&ready, "ready");
	r = front_vpcd_run(fv, runmask, &got_signal);
fail:
	if (ready >= 0)
		close(ready);
	front_vpcd_close(&fv);
	return r;
}

int
main(int argc, char **argv)
{
	struct options o;
	struct token *tok = NULL;
	FILE *log = NULL;
	sigset_t runmask;
	int r;

	if (parse_args(argc, argv, &o) != ERR_OK) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (setup_signals(&runmask) != ERR_OK) {
		fprintf(stderr, "softtoken: signals: %s\n", strerror(errno));
		return 1;
	}
	if (o.log_path != NULL && (log = fopen(o.log_path, "ae")) == NULL) {
		fprintf(stderr, "softtoken: log %s: %s\n", o.log_path,
		    strerror(errno));
		return 1;
	}
	o.tc.log = log;
	if ((r = token_new(&tok, &o.tc)) != ERR_OK) {
		fprintf(stderr, "softtoken: token%s%s: %s\n",
		    o.tc.state_path ? " state " : "",
		    o.tc.state_path ? o.tc.state_path : "", err_str(r));
		goto fail;
	}
	if (o.vpcd != NULL)
		r = serve_vpcd(&o, tok, &runmask);
	else
		r = o.uhid ? serve_uhid(&o, tok, &runmask)
			   : serve_socket(&o, tok, &runmask);
	if (o.dc.pidfile != NULL && r == ERR_OK)
		unlink(o.dc.pidfile);
fail:
	token_free(&tok);
	if (log != NULL)
		fclose(log);
	return r == ERR_OK ? 0 : 1;
}
