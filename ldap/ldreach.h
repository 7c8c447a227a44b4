/* SPDX-License-Identifier: BSD-2-Clause */
/* Was the server there at all? When libldap reports "Can't contact LDAP
 * server" the cause may be the network (refused, unreachable, no answer)
 * or TLS on a live connection; its own words ("Error in the push
 * function") do not say which. */
#ifndef PU_LDREACH_H
#define PU_LDREACH_H

#include <stddef.h>

/* Open, then close, one TCP connection to uri's host and port (default
 * 389 for ldap://, 636 for ldaps://), trying each address of the host in
 * turn, each for at most timeout_s seconds (sleeping in poll()). ERR_OK
 * when one connected; ERR_UNAVAIL when none did, why saying why in words
 * ("connection refused", "no answer within 3 s", "host name not
 * found"); ERR_INVAL for a URI libldap cannot parse. Nothing is sent. */
int ldreach_probe(const char *uri, int timeout_s, char *why, size_t whylen);

#endif
