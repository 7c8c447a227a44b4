/* SPDX-License-Identifier: BSD-2-Clause */
/* Connecting and binding (ldconn.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "ldconn.h"
#include "ldpass.h"
#include "ldreach.h"
#include "base/err.h"

/* why: what failed, libldap's words and its diagnostic message (printable
 * ASCII only: it may come from the server). */
static int
ldconn_why(LDAP *ld, int rc, const char *what, char *why, size_t whylen)
{
	char *diag = NULL, shown[256];
	size_t i, o = 0;

	if (ld != NULL &&
	    ldap_get_option(ld, LDAP_OPT_DIAGNOSTIC_MESSAGE, &diag) !=
		LDAP_OPT_SUCCESS)
		diag = NULL;
	for (i = 0; diag != NULL && diag[i] != '\0' && o + 1 < sizeof(shown);
	     i++)
		if (diag[i] >= 0x20 && diag[i] < 0x7f)
			shown[o++] = diag[i];
	shown[o] = '\0';
	snprintf(why, whylen, "%s: %s%s%s", what, ldap_err2string(rc),
	    o > 0 ? ": " : "", shown);
	ldap_memfree(diag);
	return ERR_UNAVAIL;
}

static int
ldconn_set(LDAP *ld, int opt, const void *v, const char *name, char *why,
    size_t whylen)
{
	char what[64];
	int rc;

	if ((rc = ldap_set_option(ld, opt, v)) == LDAP_OPT_SUCCESS)
		return ERR_OK;
	snprintf(what, sizeof(what), "cannot set %s", name);
	return ldconn_why(ld, rc, what, why, whylen);
}

/* Every option, on the handle (not the library's globals). */
static int
ldconn_options(LDAP *ld, const struct conf_ldap *c, char *why, size_t whylen)
{
	const int v3 = LDAP_VERSION3, demand = LDAP_OPT_X_TLS_DEMAND;
	const int tls12 = LDAP_OPT_X_TLS_PROTOCOL_TLS1_2, client = 0;
	const struct timeval net = {.tv_sec = c->network_timeout};
	bool ext = c->bind == CONF_LDAP_BIND_EXTERNAL;
	int r;

	if ((r = ldconn_set(ld, LDAP_OPT_PROTOCOL_VERSION, &v3, "version", why,
		 whylen)) != ERR_OK ||
	    (r = ldconn_set(ld, LDAP_OPT_REFERRALS, LDAP_OPT_OFF, "referrals",
		 why, whylen)) != ERR_OK ||
	    (r = ldconn_set(ld, LDAP_OPT_NETWORK_TIMEOUT, &net,
		 "network timeout", why, whylen)) != ERR_OK ||
	    (r = ldconn_set(ld, LDAP_OPT_CONNECT_ASYNC, LDAP_OPT_ON,
		 "asynchronous connect", why, whylen)) != ERR_OK ||
	    (r = ldconn_set(ld, LDAP_OPT_TIMEOUT, &net, "timeout", why,
		 whylen)) != ERR_OK ||
	    (r = ldconn_set(ld, LDAP_OPT_X_TLS_PROTOCOL_MIN, &tls12,
		 "TLS version", why, whylen)) != ERR_OK ||
	    (r = ldconn_set(ld, LDAP_OPT_X_TLS_REQUIRE_CERT, &demand,
		 "certificate checks", why, whylen)) != ERR_OK ||
	    (r = ldconn_set(ld, LDAP_OPT_X_TLS_CACERTFILE, c->ca_file,
		 "ca_file", why, whylen)) != ERR_OK)
		return r;
	if (ext &&
	    ((r = ldconn_set(ld, LDAP_OPT_X_TLS_CERTFILE, c->cert_file,
		  "cert_file", why, whylen)) != ERR_OK ||
		(r = ldconn_set(ld, LDAP_OPT_X_TLS_KEYFILE, c->key_file,
		     "key_file", why, whylen)) != ERR_OK))
		return r;
	return ldconn_set(
	    ld, LDAP_OPT_X_TLS_NEWCTX, &client, "TLS context", why, whylen);
}

/* libldap's "Can't contact LDAP server" (with GnuTLS's "Error in the
 * push function" for ldaps://) also covers a server that is simply down:
 * when one TCP connection cannot be made either, say that the server
 * could not be reached, and why; otherwise keep libldap's words. */
static int
ldconn_fail(LDAP *ld, int rc, const struct conf_ldap *c, const char *uri,
    const char *what, char *why, size_t whylen)
{
	char reach[128];

	if ((rc == LDAP_SERVER_DOWN || rc == LDAP_CONNECT_ERROR) &&
	    ldreach_probe(uri, c->network_timeout, reach, sizeof(reach)) ==
		ERR_UNAVAIL) {
		snprintf(
		    why, whylen, "the server could not be reached: %s", reach);
		return ERR_UNAVAIL;
	}
	return ldconn_why(ld, rc, what, why, whylen);
}

/* The connection, TLS in place: ldaps:// connects with TLS, ldap:// must
 * succeed in StartTLS. Never a plaintext operation. */
static int
ldconn_tls(LDAP *ld, const struct conf_ldap *c, const char *uri, char *why,
    size_t whylen)
{
	bool ldaps = strncmp(uri, "ldaps://", 8) == 0;
	int rc;

	if (ldaps)
		rc = ldap_connect(ld);
	else
		rc = ldap_start_tls_s(ld, NULL, NULL);
	if (rc != LDAP_SUCCESS)
		return ldconn_fail(ld, rc, c, uri,
		    ldaps ? "TLS connection" : "StartTLS", why, whylen);
	if (!ldap_tls_inplace(ld)) {
		snprintf(why, whylen, "no TLS on the connection");
		return ERR_UNAVAIL;
	}
	return ERR_OK;
}

/* A bind that failed: ERR_UNAVAIL when the server went or did not answer
 * in time (the directory is unreachable), else ERR_PERM: the server
 * answered and refused (wrong password, no such DN, EXTERNAL refused),
 * which pam_u2f_ldap's exit status 3 tells apart from "unreachable". */
static int
ldconn_bound(LDAP *ld, int rc, const char *what, char *why, size_t whylen)
{
	int r = ldconn_why(ld, rc, what, why, whylen);

	if (rc == LDAP_SERVER_DOWN || rc == LDAP_TIMEOUT ||
	    rc == LDAP_CONNECT_ERROR || rc == LDAP_UNAVAILABLE ||
	    rc == LDAP_BUSY)
		return r;
	return ERR_PERM;
}

/* The simple bind: the password read, used, wiped. */
static int
ldconn_simple(LDAP *ld, const struct conf_ldap *c, char *why, size_t whylen)
{
	const char *pwhy = NULL;
	struct berval cred;
	char *pw = NULL;
	size_t len = 0;
	int r, rc;

	if ((r = ldpass_read(c->password_file, &pw, &len, &pwhy)) != ERR_OK) {
		snprintf(why, whylen, "password_file %s %s", c->password_file,
		    pwhy != NULL ? pwhy : err_str(r));
		return r;
	}
	cred.bv_val = pw;
	cred.bv_len = len;
	rc = ldap_sasl_bind_s(
	    ld, c->bind_dn, LDAP_SASL_SIMPLE, &cred, NULL, NULL, NULL);
	ldpass_free(pw, len);
	if (rc != LDAP_SUCCESS)
		return ldconn_bound(ld, rc, "simple bind", why, whylen);
	return ERR_OK;
}

static int
ldconn_bind(LDAP *ld, const struct conf_ldap *c, char *why, size_t whylen)
{
	char empty[1] = "";
	struct berval none = {0, empty}; /* EXTERNAL: an empty response */
	int rc;

	switch (c->bind) {
	case CONF_LDAP_BIND_SIMPLE:
		return ldconn_simple(ld, c, why, whylen);
	case CONF_LDAP_BIND_EXTERNAL:
		rc = ldap_sasl_bind_s(
		    ld, NULL, "EXTERNAL", &none, NULL, NULL, NULL);
		if (rc != LDAP_SUCCESS)
			return ldconn_bound(
			    ld, rc, "SASL EXTERNAL bind", why, whylen);
		return ERR_OK;
	case CONF_LDAP_BIND_ANONYMOUS:
		return ERR_OK;
	}
	snprintf(why, whylen, "unknown bind");
	return ERR_CONFIG;
}

/* One URI. */
static int
ldconn_try(const struct conf_ldap *c, const char *uri, LDAP **out, char *why,
    size_t whylen)
{
	LDAP *ld = NULL;
	int r, rc;

	if ((rc = ldap_initialize(&ld, uri)) != LDAP_SUCCESS) {
		r = ldconn_why(NULL, rc, "bad URI", why, whylen);
		goto fail;
	}
	if ((r = ldconn_options(ld, c, why, whylen)) != ERR_OK ||
	    (r = ldconn_tls(ld, c, uri, why, whylen)) != ERR_OK ||
	    (r = ldconn_bind(ld, c, why, whylen)) != ERR_OK)
		goto fail;
	*out = ld;
	ld = NULL;
	r = ERR_OK;
fail:
	if (ld != NULL)
		ldap_unbind_ext_s(ld, NULL, NULL);
	return r;
}

int
ldconn_open(
    const struct conf_ldap *c, FILE *log, LDAP **out, char *why, size_t whylen)
{
	char msg[512];
	size_t i;
	int r = ERR_UNAVAIL;

	*out = NULL;
	snprintf(why, whylen, "no URI");
	for (i = 0; i < c->nuri; i++) {
		r = ldconn_try(c, c->uri[i], out, msg, sizeof(msg));
		if (r == ERR_OK)
			return ERR_OK;
		snprintf(why, whylen, "%s: %s", c->uri[i], msg);
		if (r == ERR_NOMEM)
			return r;
		if (i + 1 < c->nuri)
			fprintf(
			    log, "pam_u2f_ldap: %s (trying the next)\n", why);
	}
	return r;
}
