/* SPDX-License-Identifier: BSD-2-Clause */
/* pam_u2f_ldap [-c CONF] USER: the user's credentials from an LDAP
 * directory, for the module's authcmd= (pam_u2f_ldap(8)). Prints the
 * values found (SSSD passkey: values, pam-u2f mapping lines) and exits 0
 * for an answer, found or not; any failure is one line on stderr and a
 * status other than 0, which the module takes for "unavailable".
 * authcmd's line is "pam_u2f_ldap -- %u": a user name is never an
 * option. */
#include "config.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ldconn.h"
#include "ldescape.h"
#include "ldsearch.h"
#include "base/err.h"
#include "base/util.h"
#include "conf/conf.h"
#include "conf/confldap.h"

/* Exit statuses (pam_u2f_ldap(8)). Only LDMAIN_FAIL, the directory could
 * not be reached, may be answered from the module's offline cache. */
#define LDMAIN_FAIL 1    /* unreachable: no URI answered, TLS, timeouts */
#define LDMAIN_USAGE 2   /* usage or configuration */
#define LDMAIN_REFUSED 3 /* the directory answered, no usable answer */
#define LDMAIN_MSG 1024

static int
ldmain_usage(void)
{
	fprintf(stderr, "usage: pam_u2f_ldap [-c CONF] [--] USER\n");
	return LDMAIN_USAGE;
}

/* [-c CONF] [--] USER: options first (no reordering), then exactly one
 * user. A user name beginning with '-' is never an option and never
 * looked up: after "--" it is refused by name; without "--", getopt
 * took it for an option, and the line says to put "--" before %u. */
static int
ldmain_args(int argc, char **argv, const char **conf, const char **user)
{
	const char *last = argc > 1 ? argv[argc - 1] : "";
	int ch;

	opterr = 0;
	while ((ch = getopt(argc, argv, "+:c:")) != -1) {
		if (ch != 'c')
			break;
		*conf = optarg;
	}
	if (ch == -1 && argc - optind == 1 && argv[optind][0] != '-') {
		*user = argv[optind];
		return 0;
	}
	if (ch == -1 && argc - optind == 1 &&
	    strcmp(argv[optind - 1], "--") == 0) {
		fprintf(stderr,
		    "pam_u2f_ldap: the user name '%s' is refused: it begins "
		    "with '-'\n",
		    argv[optind]);
		return LDMAIN_REFUSED;
	}
	if (last[0] == '-' && (argc < 3 || strcmp(argv[argc - 2], "--") != 0))
		fprintf(stderr,
		    "pam_u2f_ldap: '%s' was read as an option: write \"--\" "
		    "before %%u in authcmd (user names beginning with '-' are "
		    "refused)\n",
		    last);
	return ldmain_usage();
}

/* The section, complete, from conf (NULL: the default file). */
static int
ldmain_conf(const char *conf, struct conf_ldap *c)
{
	const char *path = conf != NULL ? conf : conf_default_path();
	char msg[LDMAIN_MSG];

	if (conf_load_ldap(path, c, msg, sizeof(msg)) != ERR_OK) {
		fprintf(stderr, "pam_u2f_ldap: %s\n", msg); /* names the file */
		return LDMAIN_USAGE;
	}
	if (conf_ldap_check(c, msg, sizeof(msg)) != ERR_OK) {
		fprintf(stderr, "pam_u2f_ldap: %s: %s\n", path, msg);
		return LDMAIN_USAGE;
	}
	return 0;
}

/* A last resort behind libldap's own timeouts: every step has its bound,
 * and this is their sum with a second to spare. SIGALRM's default action
 * ends the process, an exit the module takes for "unavailable". */
static void
ldmain_backstop(const struct conf_ldap *c)
{
	unsigned int per = 3u * (unsigned int)c->network_timeout;

	alarm(
	    (unsigned int)c->nuri * per + (unsigned int)c->search_timeout + 1u);
}

/* The exit status for r: only a directory that could not be reached
 * (ERR_UNAVAIL: connect, TLS, a server gone or timed out) is
 * LDMAIN_FAIL; a bind refused, an unsafe password file, more than one
 * entry, too many values, an answer that cannot be written are
 * LDMAIN_REFUSED, which the module never answers from its cache. */
static int
ldmain_status(int r)
{
	if (r == ERR_OK)
		return 0;
	return r == ERR_UNAVAIL ? LDMAIN_FAIL : LDMAIN_REFUSED;
}

/* Connect, search, print. */
static int
ldmain_run(const struct conf_ldap *c, const char *filter)
{
	char why[LDMAIN_MSG];
	LDAP *ld = NULL;
	char *out = NULL;
	size_t len = 0;
	int r;

	if ((r = ldconn_open(c, stderr, &ld, why, sizeof(why))) == ERR_OK &&
	    (r = ldsearch_run(ld, c, filter, &out, &len, why, sizeof(why))) ==
		ERR_OK &&
	    len > 0 &&
	    (r = util_write_all(STDOUT_FILENO, out, len)) != ERR_OK) {
		snprintf(why, sizeof(why), "cannot write the answer");
		r = ERR_IO;
	}
	if (r != ERR_OK)
		fprintf(stderr, "pam_u2f_ldap: %s\n",
		    r == ERR_NOMEM ? err_str(r) : why);
	free(out);
	if (ld != NULL)
		ldap_unbind_ext_s(ld, NULL, NULL);
	return ldmain_status(r);
}

int
main(int argc, char **argv)
{
	struct conf_ldap c;
	const char *conf = NULL, *user = NULL;
	char *filter = NULL;
	int r;

	memset(&c, 0, sizeof(c));
	/* A write to a server that has gone (StartTLS on a refused
	 * connection) is EPIPE, an error like any other, not a death
	 * without a word. */
	if (signal(SIGPIPE, SIG_IGN) == SIG_ERR)
		return LDMAIN_FAIL;
	if ((r = ldmain_args(argc, argv, &conf, &user)) != 0)
		return r;
	/* No ldap.conf, .ldaprc or LDAP* variable changes what we set. */
	if (setenv("LDAPNOINIT", "1", 1) != 0)
		return LDMAIN_FAIL;
	if ((r = ldmain_conf(conf, &c)) != 0)
		goto done;
	if ((r = ldesc_filter(c.filter, user, strlen(user), &filter)) !=
	    ERR_OK) {
		fprintf(stderr, "pam_u2f_ldap: the user name is refused: %s\n",
		    err_str(r));
		r = LDMAIN_REFUSED;
		goto done;
	}
	ldmain_backstop(&c);
	r = ldmain_run(&c, filter);
done:
	free(filter);
	conf_ldap_free(&c);
	return r;
}
