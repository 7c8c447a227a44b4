/* SPDX-License-Identifier: BSD-2-Clause */
/* pamu2fcfg option parsing: argv -> struct tool_opts, with defaults. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "crypto/crypto.h"
#include "base/err.h"
#include "base/logesc.h"
#include "tool.h"

enum {
	OPT_VERSION = 256,
	OPT_DEVICE,
	OPT_TIMEOUT,
	OPT_ADD,
	OPT_LIST,
	OPT_REMOVE,
	OPT_CHECK,
	OPT_CONF,
	OPT_BACKEND,
	OPT_PIN_STDIN,
	OPT_FORMAT,
	OPT_DN,
	OPT_ATTRIBUTE,
	OPT_AUDIT,
	OPT_UIDS,
	OPT_LOGIN_DEFS,
	OPT_SSH_AGENT,
	OPT_WRAP,
	OPT_SECRET_STDIN,
	OPT_HMAC
};

static const struct option long_opts[] = {
    {"username", required_argument, NULL, 'u'},
    {"origin", required_argument, NULL, 'o'},
    {"appid", required_argument, NULL, 'i'},
    {"type", required_argument, NULL, 't'},
    {"resident", no_argument, NULL, 'r'},
    {"cred-protect", required_argument, NULL, 'c'},
    {"no-user-presence", no_argument, NULL, 'P'},
    {"pin-verification", no_argument, NULL, 'N'},
    {"user-verification", no_argument, NULL, 'V'},
    {"nouser", no_argument, NULL, 'n'},
    {"debug", no_argument, NULL, 'd'},
    {"verbose", no_argument, NULL, 'v'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"add", optional_argument, NULL, OPT_ADD},
    {"list", optional_argument, NULL, OPT_LIST},
    {"remove", required_argument, NULL, OPT_REMOVE},
    {"check", optional_argument, NULL, OPT_CHECK},
    {"conf", required_argument, NULL, OPT_CONF},
    {"backend", required_argument, NULL, OPT_BACKEND},
    {"pin-stdin", no_argument, NULL, OPT_PIN_STDIN},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"dn", required_argument, NULL, OPT_DN},
    {"attribute", required_argument, NULL, OPT_ATTRIBUTE},
    {"audit", optional_argument, NULL, OPT_AUDIT},
    {"uids", required_argument, NULL, OPT_UIDS},
    {"login-defs", required_argument, NULL, OPT_LOGIN_DEFS},
    {"ssh-agent", no_argument, NULL, OPT_SSH_AGENT},
    {"wrap-secret", optional_argument, NULL, OPT_WRAP},
    {"secret-stdin", no_argument, NULL, OPT_SECRET_STDIN},
    {"hmac-secret", no_argument, NULL, OPT_HMAC},
    {NULL, 0, NULL, 0},
};

static const char usage_text[] =
    "Usage: pamu2fcfg [OPTION]... [--add|--list|--remove N|--check [FILE]]\n"
    "       pamu2fcfg [--conf=PATH] [--uids=MIN-MAX] [-v] --audit [FILE]\n"
    "Register a U2F security key and print a mapping line for pam_u2f, or\n"
    "manage a mapping file.\n"
    "\n"
    "  -u, --username=USER      user to register (default: the current user)\n"
    "  -o, --origin=ORIGIN      origin (default: pam://HOSTNAME)\n"
    "  -i, --appid=APPID        application id (default: the origin)\n"
    "  -t, --type=TYPE          credential type: ES256 (default), EDDSA "
    "or RS256\n"
    "  -r, --resident           a resident (discoverable) credential: the\n"
    "                           key keeps it, the line says \"*\"\n"
    "  -c, --cred-protect=N     credProtect level: 1 (default of keys),\n"
    "                           2 (resident: found only with -N or -V),\n"
    "                           3 (found only with -N or -V)\n"
    "  -P, --no-user-presence   write the credential without +presence\n"
    "  -N, --pin-verification   require the key's PIN (+pin)\n"
    "  -V, --user-verification  require built-in user verification\n"
    "                           (+verification)\n"
    "      --pin-stdin          read the PIN from standard input, not the\n"
    "                           terminal\n"
    "  -n, --nouser             print the line from the first ':' on\n"
    "      --format=FORMAT      what to print: line (default), passkey\n"
    "                           (SSSD's passkey:ID,SPKI value) or ldif (an\n"
    "                           LDIF change adding that value to --dn)\n"
    "      --dn=DN              the directory entry, for --format=ldif\n"
    "      --attribute=NAME     its attribute, for --format=ldif "
    "(passkey)\n"
    "      --device=PATH        use this key only (/dev/hidrawN, "
    "unix:PATH or\n"
    "                           pcsc:READER); may be repeated\n"
    "      --backend=NAME       transport: native (default) or libu2f-host\n"
    "      --timeout=SECONDS    wait this long for a key and a touch (15)\n"
    "      --conf=PATH          read defaults from this pam_u2f.conf\n"
    "      --add [FILE]         add the new credential to FILE\n"
    "      --list [FILE]        list the user's credentials in FILE\n"
    "      --remove N [FILE]    remove the user's credential number N\n"
    "      --check [FILE]       authenticate now against the user's "
    "credentials\n"
    "      --hmac-secret        register with the hmac-secret extension\n"
    "      --wrap-secret [FILE] seal the login password under the key, for\n"
    "                           the keyring (FILE.secrets; touch and PIN)\n"
    "      --secret-stdin       read that password from standard input\n"
    "      --audit [FILE]       list the users with a login shell who have "
    "no key\n"
    "                           yet (exit 0: none); users: root and uids\n"
    "                           UID_MIN-UID_MAX of /etc/login.defs\n"
    "      --uids=MIN-MAX       --audit's uid range instead\n"
    "      --login-defs=FILE    read UID_MIN and UID_MAX from FILE\n"
    "      --ssh-agent          the FIDO keys of your ssh-agent\n"
    "                           (SSH_AUTH_SOCK) as @ssh-sk lines for\n"
    "                           remote=agent: printed, or with --add\n"
    "                           added to FILE\n"
    "  -d, --debug              print debugging information on stderr\n"
    "  -v, --verbose            print the attestation subject and the device\n"
    "  -h, --help               print this help and exit\n"
    "      --version            print the version and exit\n"
    "\n"
    "FILE defaults to the authfile of pam_u2f.conf, else to\n"
    "$XDG_CONFIG_HOME/Yubico/u2f_keys or ~/.config/Yubico/u2f_keys.\n"
    "-N, -V, -r, -c, EDDSA and RS256 need a FIDO2 (CTAP2) key.\n";

static void
debug_line(void *arg, const char *line)
{
	char esc[LOG_ESCAPE_CAP(512)];

	(void)arg;
	(void)log_escape(line, esc, sizeof(esc)); /* device, reader names */
	fprintf(stderr, "pamu2fcfg: debug: %s\n", esc);
}

/* Without -d: only lines on a refused attestation, as a message. */
static void
attest_line(void *arg, const char *line)
{
	static const char pre[] = "attest_verify: ";

	(void)arg;
	if (strncmp(line, pre, sizeof(pre) - 1) == 0)
		fprintf(stderr,
		    "pamu2fcfg: the key's attestation is refused: %s\n",
		    line + sizeof(pre) - 1);
}

const struct log *
tool_dev_log(const struct tool_opts *o)
{
	return o->lg != NULL ? o->lg : &o->attest;
}

static bool
set_str(char **dst, const char *src)
{
	char *s;

	if ((s = strdup(src)) == NULL) {
		tool_msg("out of memory");
		return false;
	}
	free(*dst);
	*dst = s;
	return true;
}

/* --format: a mapping line, SSSD's passkey: value (for a directory), or
 * that value in an LDIF change. */
static bool
parse_format(struct tool_opts *o, const char *arg)
{
	if (strcmp(arg, "line") != 0 && strcmp(arg, "passkey") != 0 &&
	    strcmp(arg, "ldif") != 0) {
		tool_msg("--format: '%s' is none of line, passkey, ldif", arg);
		return false;
	}
	o->passkey = strcmp(arg, "line") != 0;
	o->ldif = strcmp(arg, "ldif") == 0;
	return true;
}

static bool
parse_backend(struct tool_opts *o, const char *arg)
{
	int r = dev_backend_parse(arg, &o->backend);

	if (r == ERR_UNSUPPORTED)
		tool_msg("--backend %s: not built in "
			 "(./configure --with-libu2f-host)",
		    arg);
	else if (r != ERR_OK)
		tool_msg("--backend: unknown backend '%s' "
			 "(native, libu2f-host)",
		    arg);
	return r == ERR_OK;
}

/* -o, -i, --conf, --device: a row of the options table, checked by its
 * setter as the module's argument and the file's key are (--device may
 * be repeated: each adds one). */
static bool
set_opt(struct tool_opts *o, enum conf_key k, const char *arg)
{
	char why[256];
	int r = conf_opt_set(&o->cf, k, CONF_SRC_TOOL, arg, why, sizeof(why));

	if (r == ERR_NOMEM)
		tool_msg("out of memory");
	else if (r != ERR_OK)
		tool_msg("%s", why);
	return r == ERR_OK;
}

static bool
parse_num(const char *s, long min, long max, long *out)
{
	char *end = NULL;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < min || v > max)
		return false;
	*out = v;
	return true;
}

static bool
parse_protect(struct tool_opts *o, const char *arg)
{
	long v;

	if (!parse_num(arg, 1, CRED_PROTECT_UV_REQUIRED, &v)) {
		tool_msg("-c/--cred-protect wants a level: 1, 2 or 3");
		return false;
	}
	o->cred_protect = (int)v;
	return true;
}

static bool
parse_type(struct tool_opts *o, const char *t)
{
	if (strcasecmp(t, "ES256") == 0)
		o->type = COSE_ES256;
	else if (strcasecmp(t, "EDDSA") == 0)
		o->type = COSE_EDDSA;
	else if (strcasecmp(t, "RS256") == 0)
		o->type = COSE_RS256;
	else {
		tool_msg(
		    "unknown credential type '%s' (ES256, EDDSA or RS256)", t);
		return false;
	}
	return true;
}

static bool
set_mode(struct tool_opts *o, enum tool_mode m, const char *file)
{
	if (o->mode != TOOL_PRINT) {
		tool_msg("--add, --list, --remove, --check, --audit and "
			 "--wrap-secret exclude each other");
		return false;
	}
	o->mode = m;
	return file == NULL || set_str(&o->file, file);
}

static bool
parse_timeout(struct tool_opts *o, const char *arg)
{
	long v;

	if (!parse_num(arg, 0, TOOL_TIMEOUT_MAX, &v)) {
		tool_msg("--timeout wants seconds, 0 to %d", TOOL_TIMEOUT_MAX);
		return false;
	}
	/* The tool's own range: 0 (look once, do not wait) is allowed. */
	o->cf.timeout = (int)v;
	conf_mark(&o->cf, CONF_TIMEOUT);
	return true;
}

static bool
parse_remove(struct tool_opts *o, const char *arg)
{
	long v;

	if (!parse_num(arg, 1, LONG_MAX, &v)) {
		tool_msg("--remove wants a credential number from 1");
		return false;
	}
	o->remove_index = (size_t)v;
	return set_mode(o, TOOL_REMOVE, NULL);
}

/* --uids=MIN-MAX. */
static bool
parse_uids(struct tool_opts *o, const char *arg)
{
	char *dash = strchr(arg, '-'), lo[32];
	long min, max;

	if (dash == NULL || (size_t)(dash - arg) >= sizeof(lo))
		goto bad;
	memcpy(lo, arg, (size_t)(dash - arg));
	lo[dash - arg] = '\0';
	if (!parse_num(lo, 0, LONG_MAX, &min) ||
	    !parse_num(dash + 1, 0, LONG_MAX, &max) || min > max)
		goto bad;
	o->uid_min = (unsigned long)min;
	o->uid_max = (unsigned long)max;
	o->uids_set = true;
	return true;
bad:
	tool_msg("--uids wants MIN-MAX, for example 1000-60000");
	return false;
}

/* One option; false means a usage error (already explained). */
static bool
parse_one(struct tool_opts *o, int c, const char *arg, int *status)
{
	switch (c) {
	case 'u':
		return set_str(&o->user, arg);
	case 'o':
		return set_opt(o, CONF_ORIGIN, arg);
	case 'i':
		return set_opt(o, CONF_APPID, arg);
	case 't':
		return parse_type(o, arg);
	case 'r':
		o->resident = true;
		return true;
	case 'c':
		return parse_protect(o, arg);
	case 'N':
		o->pin = true;
		return true;
	case 'V':
		o->uv = true;
		return true;
	case OPT_PIN_STDIN:
		o->pin_stdin = true;
		return true;
	case 'P':
		o->no_presence = true;
		return true;
	case 'n':
		o->nouser = true;
		return true;
	case 'd':
		o->debug = true;
		o->lg = &o->sink;
		return true;
	case 'v':
		o->verbose = true;
		return true;
	case 'h':
		fputs(usage_text, stdout);
		*status = TOOL_EXIT_OK;
		return false;
	case OPT_VERSION:
		printf("pamu2fcfg %s (ES256 checks: %s)\n", PACKAGE_VERSION,
		    crypto_verify_impl());
		*status = TOOL_EXIT_OK;
		return false;
	case OPT_DEVICE:
		return set_opt(o, CONF_DEVICES, arg);
	case OPT_TIMEOUT:
		return parse_timeout(o, arg);
	case OPT_ADD:
		return set_mode(o, TOOL_ADD, arg);
	case OPT_LIST:
		return set_mode(o, TOOL_LIST, arg);
	case OPT_CHECK:
		return set_mode(o, TOOL_CHECK, arg);
	case OPT_REMOVE:
		return parse_remove(o, arg);
	case OPT_CONF:
		return set_opt(o, CONF_CONF, arg);
	case OPT_BACKEND:
		return parse_backend(o, arg);
	case OPT_FORMAT:
		return parse_format(o, arg);
	case OPT_DN:
		return set_str(&o->dn, arg);
	case OPT_ATTRIBUTE:
		return set_str(&o->attribute, arg);
	case OPT_AUDIT:
		return set_mode(o, TOOL_AUDIT, arg);
	case OPT_SSH_AGENT:
		o->ssh_agent = true;
		return true;
	case OPT_WRAP:
		return set_mode(o, TOOL_WRAP, arg);
	case OPT_SECRET_STDIN:
		o->secret_stdin = true;
		return true;
	case OPT_HMAC:
		o->hmac_secret = true;
		return true;
	case OPT_UIDS:
		return parse_uids(o, arg);
	case OPT_LOGIN_DEFS:
		return set_str(&o->login_defs, arg);
	default:
		fputs("Try 'pamu2fcfg --help'.\n", stderr);
		return false;
	}
}

static bool
valid_name(const char *what, const char *s)
{
	if (*s == '\0' || *s == '#' || strpbrk(s, ":\n\r") != NULL) {
		tool_msg("invalid %s '%s'", what, s);
		return false;
	}
	return true;
}

/* Defaults: user from getpwuid(getuid()), origin pam://HOSTNAME. */
static bool
set_defaults(struct tool_opts *o)
{
	char host[HOST_NAME_MAX + 1];
	char origin[sizeof(host) + 8];
	struct passwd *pw;

	if (o->user == NULL) {
		if ((pw = getpwuid(getuid())) == NULL) {
			tool_msg("cannot find the current user; use -u");
			return false;
		}
		if (!set_str(&o->user, pw->pw_name))
			return false;
	}
	if (o->cf.origin == NULL) {
		memset(host, 0, sizeof(host));
		if (gethostname(host, sizeof(host) - 1) != 0) {
			tool_msg("gethostname: %s", strerror(errno));
			return false;
		}
		snprintf(origin, sizeof(origin), "pam://%s", host);
		if (!set_opt(o, CONF_ORIGIN, origin))
			return false;
	}
	if (o->cf.appid == NULL && !set_opt(o, CONF_APPID, o->cf.origin))
		return false;
	if (*o->cf.origin == '\0' || *o->cf.appid == '\0') {
		tool_msg("the origin and the appid must not be empty");
		return false;
	}
	return valid_name("user name", o->user);
}

/* What argv left over may mean: one FILE after a mode option. */
static bool
take_file(struct tool_opts *o, int argc, char **argv)
{
	if (optind >= argc)
		return true;
	if (o->mode == TOOL_PRINT || o->file != NULL || optind + 1 < argc) {
		tool_msg("unexpected argument '%s'", argv[optind]);
		return false;
	}
	return set_str(&o->file, argv[optind]);
}

bool
opts_parse(int argc, char **argv, struct tool_opts *o, int *status)
{
	int c, r;

	memset(o, 0, sizeof(*o));
	o->mode = TOOL_PRINT;
	o->type = COSE_ES256;
	o->sink.fn = debug_line;
	o->attest.fn = attest_line;
	*status = TOOL_EXIT_USAGE;
	while ((c = getopt_long(
		    argc, argv, "u:o:i:t:rc:PNVndvh", long_opts, NULL)) != -1) {
		if (!parse_one(o, c, optarg, status))
			return false;
	}
	if (!take_file(o, argc, argv) || !opts_check(o))
		return false;
	if ((r = config_apply(o)) != ERR_OK) {
		*status = tool_exit_for(r);
		return false;
	}
	if (!conf_isset(&o->cf, CONF_TIMEOUT))
		o->cf.timeout = TOOL_TIMEOUT_DEFAULT;
	if (!set_defaults(o))
		return false;
	*status = TOOL_EXIT_OK;
	return true;
}

void
opts_free(struct tool_opts *o)
{
	free(o->user);
	free(o->file);
	free(o->dn);
	free(o->attribute);
	free(o->login_defs);
	conf_free(&o->cf);
	memset(o, 0, sizeof(*o));
}
