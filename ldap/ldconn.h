/* SPDX-License-Identifier: BSD-2-Clause */
/* Connecting to the directory: TLS always (ldaps://, or ldap:// with
 * StartTLS required), certificate and host name checked, then the bind. */
#ifndef PU_LDCONN_H
#define PU_LDCONN_H

#include <stddef.h>
#include <stdio.h>

#include <ldap.h>

#include "conf/confldap.h"

/* Try c's URIs in order until one gives a TLS connection and a bind: the
 * handle in *out (ldap_unbind_ext_s it). Each URI that fails gets one
 * line on log naming it and the problem. Options are set on the handle
 * with ldap_set_option (protocol 3, no referrals, network_timeout for
 * connecting and for each synchronous operation, TLS 1.2 at least, the
 * CA file, REQUIRE_CERT = DEMAND, a new TLS context), so that no
 * ldap.conf or .ldaprc changes them (the caller also sets LDAPNOINIT).
 * ERR_OK; ERR_UNAVAIL when no URI answered (the last problem in why,
 * whylen > 0); ERR_FILE_UNSAFE / ERR_FILE / ERR_PARSE for the password
 * file; ERR_NOMEM. */
int ldconn_open(
    const struct conf_ldap *c, FILE *log, LDAP **out, char *why, size_t whylen);

#endif
