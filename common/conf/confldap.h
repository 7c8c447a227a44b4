/* SPDX-License-Identifier: BSD-2-Clause */
/* The "ldap { ... }" section of pam_u2f.conf: the settings of the LDAP
 * helper pam_u2f_ldap (ldap/, pam_u2f_ldap(8)). conf.c parses the section
 * with the rest of the file (an unknown key, a key given twice or a bad
 * value in it is an error for every reader: the module, pamu2fcfg and the
 * helper); only the helper uses it, through conf_load_ldap. The section's
 * own struct keeps struct conf and its "set" bits as they are. */
#ifndef PU_CONF_LDAP_H
#define PU_CONF_LDAP_H

#include <stdbool.h>
#include <stddef.h>

#define CONF_LDAP_SECTION "ldap"
#define CONF_LDAP_URI_MAX 8     /* uri = {...}: entries */
#define CONF_LDAP_TIMEOUT_MIN 1 /* seconds */
#define CONF_LDAP_TIMEOUT_MAX 60
#define CONF_LDAP_TIMEOUT_DEFAULT 3
#define CONF_LDAP_FILTER_DEFAULT "(uid=%s)"
#define CONF_LDAP_ATTRIBUTE_DEFAULT "passkey"
#define CONF_LDAP_TEXT_MAX 1024 /* bytes of any one value */
#define CONF_TEXT_LDAP(x) CONF_TEXT_LDAP_(x)
#define CONF_TEXT_LDAP_(x) #x

enum conf_ldap_bind {
	CONF_LDAP_BIND_ANONYMOUS = 0,
	CONF_LDAP_BIND_SIMPLE,
	CONF_LDAP_BIND_EXTERNAL
};

/* The keys of the section, in the order of conf_ldap_keys. */
enum conf_ldap_key {
	CONF_LDAP_URI = 0,
	CONF_LDAP_BASE,
	CONF_LDAP_FILTER,
	CONF_LDAP_ATTRIBUTE,
	CONF_LDAP_LINES_ATTRIBUTE,
	CONF_LDAP_CA_FILE,
	CONF_LDAP_BIND,
	CONF_LDAP_BIND_DN,
	CONF_LDAP_PASSWORD_FILE,
	CONF_LDAP_CERT_FILE,
	CONF_LDAP_KEY_FILE,
	CONF_LDAP_NETWORK_TIMEOUT,
	CONF_LDAP_SEARCH_TIMEOUT,
	CONF_LDAP_NKEYS
};

enum conf_ldap_type { CONF_LDAP_T_STR, CONF_LDAP_T_LIST, CONF_LDAP_T_INT };

struct conf_ldap {
	bool found; /* the file has the section */
	char *uri[CONF_LDAP_URI_MAX];
	size_t nuri;
	char *base;
	char *filter;          /* NULL: CONF_LDAP_FILTER_DEFAULT */
	char *attribute;       /* NULL: CONF_LDAP_ATTRIBUTE_DEFAULT */
	char *lines_attribute; /* NULL: none */
	char *ca_file;
	enum conf_ldap_bind bind;
	char *bind_dn;
	char *password_file;
	char *cert_file;
	char *key_file;
	int network_timeout; /* 0: CONF_LDAP_TIMEOUT_DEFAULT */
	int search_timeout;
};

/* Key k's name in the file and its type; NULL / STR when out of range. */
const char *conf_ldap_key_name(enum conf_ldap_key k);
enum conf_ldap_type conf_ldap_key_type(enum conf_ldap_key k);

/* Store value (text, as in the file) for key k into c, checked: an URI
 * must start ldaps:// or ldap:// (at most CONF_LDAP_URI_MAX of them), a
 * filter must hold exactly one %s and no other %, bind is one of
 * anonymous, simple, external, files are absolute paths, timeouts
 * CONF_LDAP_TIMEOUT_MIN..MAX. ERR_OK, ERR_NOMEM, ERR_CONFIG with a
 * sentence in why (whylen > 0) that quotes no value. */
int conf_ldap_set(struct conf_ldap *c, enum conf_ldap_key k, const char *value,
    char *why, size_t whylen);

/* Whether c is complete for a search: the section, an URI, base and
 * ca_file; simple needs bind_dn and password_file; external cert_file
 * and key_file; key files only with external. Fills in the defaults.
 * ERR_OK or ERR_CONFIG with the sentence in why. */
int conf_ldap_check(struct conf_ldap *c, char *why, size_t whylen);

/* Load the section from path (NULL: conf_default_path()), with every
 * check conf_load makes on the file and its other keys. *out is zeroed
 * first; release it with conf_ldap_free whatever the result. A missing
 * file is an error (the helper needs it). Errors as conf_load. */
int conf_load_ldap(
    const char *path, struct conf_ldap *out, char *errbuf, size_t errlen);

/* The parser alone on len bytes at buf, as conf_parse_mem (no file
 * checks): the section into *out (zeroed first; conf_ldap_free it). */
int conf_parse_ldap_mem(const char *name, const char *buf, size_t len,
    struct conf_ldap *out, char *errbuf, size_t errlen);

void conf_ldap_free(struct conf_ldap *c);

#endif
