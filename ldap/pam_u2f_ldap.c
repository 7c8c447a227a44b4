/* pam_u2f_ldap [-c CONF] USER: the user's credentials from an LDAP
 * directory, for the module's authcmd= (pam_u2f_ldap(8)). Prints the
 * values found (SSSD passkey: values, pam-u2f mapping lines) and exits 0
 * for an answer, found or not; any failure is one line on stderr and a
 * status other than 0, which the module takes for "unavailable". */
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

#define LDMAIN_FAIL 1  /* no answer: the module's PAM_AUTHINFO_UNAVAIL */
#define LDMAIN_USAGE 2 /* usage or configuration */
#define LDMAIN_MSG 1024

static int
ldmain_usage(void)
{
	fprintf(stderr, "usage: pam_u2f_ldap [-c CONF] USER\n");
	return LDMAIN_USAGE;
}

/* The section, complete, from conf (NULL: the default file). */
static int
ldmain_conf(const char *conf, struct conf_ldap *c)
{
	char msg[LDMAIN_MSG];

	if (conf_load_ldap(conf, c, msg, sizeof(msg)) != ERR_OK ||
	    conf_ldap_check(c, msg, sizeof(msg)) != ERR_OK) {
		fprintf(stderr, "pam_u2f_ldap: %s%s%s\n",
		    msg[0] != '\0' && strncmp(msg, "ldap", 4) == 0
			? conf != NULL ? conf : conf_default_path()
			: "",
		    msg[0] != '\0' && strncmp(msg, "ldap", 4) == 0 ? ": " : "",
		    msg);
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
	    len > 0 && (r = util_write_all(STDOUT_FILENO, out, len)) != ERR_OK)
		snprintf(why, sizeof(why), "cannot write the answer");
	if (r != ERR_OK)
		fprintf(stderr, "pam_u2f_ldap: %s\n",
		    r == ERR_NOMEM ? err_str(r) : why);
	free(out);
	if (ld != NULL)
		ldap_unbind_ext_s(ld, NULL, NULL);
	return r == ERR_OK ? 0 : LDMAIN_FAIL;
}

int
main(int argc, char **argv)
{
	struct conf_ldap c;
	const char *conf = NULL;
	char *filter = NULL;
	int ch, r;

	memset(&c, 0, sizeof(c));
	while ((ch = getopt(argc, argv, "c:")) != -1) {
		if (ch != 'c')
			return ldmain_usage();
		conf = optarg;
	}
	if (argc - optind != 1)
		return ldmain_usage();
	/* No ldap.conf, .ldaprc or LDAP* variable changes what we set. */
	if (setenv("LDAPNOINIT", "1", 1) != 0)
		return LDMAIN_FAIL;
	if ((r = ldmain_conf(conf, &c)) != 0)
		goto done;
	if ((r = ldesc_filter(c.filter, argv[optind], strlen(argv[optind]),
		 &filter)) != ERR_OK) {
		fprintf(stderr, "pam_u2f_ldap: the user name is refused: %s\n",
		    err_str(r));
		r = LDMAIN_FAIL;
		goto done;
	}
	ldmain_backstop(&c);
	r = ldmain_run(&c, filter);
done:
	free(filter);
	conf_ldap_free(&c);
	return r;
}
