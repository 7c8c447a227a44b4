/* SPDX-License-Identifier: BSD-2-Clause */
/* The "ldap" section's keys, their checks and its struct (confldap.h);
 * conf.c reads the section with libconfuse and hands each value here. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "confldap.h"
#include "base/err.h"

struct conf_ldap_keydef {
	const char *name;
	enum conf_ldap_type type;
};

static const struct conf_ldap_keydef conf_ldap_keys[CONF_LDAP_NKEYS] = {
    [CONF_LDAP_URI] = {"uri", CONF_LDAP_T_LIST},
    [CONF_LDAP_BASE] = {"base", CONF_LDAP_T_STR},
    [CONF_LDAP_FILTER] = {"filter", CONF_LDAP_T_STR},
    [CONF_LDAP_ATTRIBUTE] = {"attribute", CONF_LDAP_T_STR},
    [CONF_LDAP_LINES_ATTRIBUTE] = {"lines_attribute", CONF_LDAP_T_STR},
    [CONF_LDAP_CA_FILE] = {"ca_file", CONF_LDAP_T_STR},
    [CONF_LDAP_BIND] = {"bind", CONF_LDAP_T_STR},
    [CONF_LDAP_BIND_DN] = {"bind_dn", CONF_LDAP_T_STR},
    [CONF_LDAP_PASSWORD_FILE] = {"password_file", CONF_LDAP_T_STR},
    [CONF_LDAP_CERT_FILE] = {"cert_file", CONF_LDAP_T_STR},
    [CONF_LDAP_KEY_FILE] = {"key_file", CONF_LDAP_T_STR},
    [CONF_LDAP_NETWORK_TIMEOUT] = {"network_timeout", CONF_LDAP_T_INT},
    [CONF_LDAP_SEARCH_TIMEOUT] = {"search_timeout", CONF_LDAP_T_INT},
};

const char *
conf_ldap_key_name(enum conf_ldap_key k)
{
	if ((unsigned int)k >= CONF_LDAP_NKEYS)
		return NULL;
	return conf_ldap_keys[k].name;
}

enum conf_ldap_type
conf_ldap_key_type(enum conf_ldap_key k)
{
	if ((unsigned int)k >= CONF_LDAP_NKEYS)
		return CONF_LDAP_T_STR;
	return conf_ldap_keys[k].type;
}

static int
conf_ldap_why(char *why, size_t whylen, enum conf_ldap_key k, const char *msg)
{
	if (why != NULL && whylen > 0)
		snprintf(
		    why, whylen, "ldap: %s %s", conf_ldap_keys[k].name, msg);
	return ERR_CONFIG;
}

/* A filter template: exactly one "%s", no other '%', in parentheses. */
static bool
conf_ldap_filter_ok(const char *f)
{
	const char *p = strchr(f, '%');

	if (p == NULL || p[1] != 's' || strchr(p + 2, '%') != NULL)
		return false;
	return f[0] == '(' && f[strlen(f) - 1] == ')';
}

static int
conf_ldap_int(const char *value, int *out)
{
	char *end = NULL;
	long v;

	if (value[0] < '0' || value[0] > '9')
		return ERR_CONFIG;
	v = strtol(value, &end, 10);
	if (*end != '\0' || v < CONF_LDAP_TIMEOUT_MIN ||
	    v > CONF_LDAP_TIMEOUT_MAX)
		return ERR_CONFIG;
	*out = (int)v;
	return ERR_OK;
}

static int
conf_ldap_bind_of(const char *value, enum conf_ldap_bind *out)
{
	if (strcmp(value, "anonymous") == 0)
		*out = CONF_LDAP_BIND_ANONYMOUS;
	else if (strcmp(value, "simple") == 0)
		*out = CONF_LDAP_BIND_SIMPLE;
	else if (strcmp(value, "external") == 0)
		*out = CONF_LDAP_BIND_EXTERNAL;
	else
		return ERR_CONFIG;
	return ERR_OK;
}

/* Where a string key's value goes; NULL for the others. */
static char **
conf_ldap_slot(struct conf_ldap *c, enum conf_ldap_key k)
{
	switch (k) {
	case CONF_LDAP_BASE:
		return &c->base;
	case CONF_LDAP_FILTER:
		return &c->filter;
	case CONF_LDAP_ATTRIBUTE:
		return &c->attribute;
	case CONF_LDAP_LINES_ATTRIBUTE:
		return &c->lines_attribute;
	case CONF_LDAP_CA_FILE:
		return &c->ca_file;
	case CONF_LDAP_BIND_DN:
		return &c->bind_dn;
	case CONF_LDAP_PASSWORD_FILE:
		return &c->password_file;
	case CONF_LDAP_CERT_FILE:
		return &c->cert_file;
	case CONF_LDAP_KEY_FILE:
		return &c->key_file;
	default:
		return NULL;
	}
}

/* The check of a string value beyond "not empty, not too long". */
static const char *
conf_ldap_str_bad(enum conf_ldap_key k, const char *value)
{
	switch (k) {
	case CONF_LDAP_URI:
		if (strncmp(value, "ldaps://", 8) != 0 &&
		    strncmp(value, "ldap://", 7) != 0)
			return "must start with ldaps:// or ldap:// (StartTLS)";
		if (strpbrk(value, " \t,") != NULL)
			return "must be one URI per entry";
		return NULL;
	case CONF_LDAP_FILTER:
		return conf_ldap_filter_ok(value)
		    ? NULL
		    : "must be in parentheses with one %s and no other %";
	case CONF_LDAP_CA_FILE:
	case CONF_LDAP_PASSWORD_FILE:
	case CONF_LDAP_CERT_FILE:
	case CONF_LDAP_KEY_FILE:
		return value[0] == '/' ? NULL : "must be an absolute path";
	default:
		return NULL;
	}
}

static int
conf_ldap_set_str(struct conf_ldap *c, enum conf_ldap_key k, const char *value,
    char *why, size_t whylen)
{
	const char *bad = conf_ldap_str_bad(k, value);
	char **slot = conf_ldap_slot(c, k), *copy = NULL;

	if (bad != NULL)
		return conf_ldap_why(why, whylen, k, bad);
	if (k == CONF_LDAP_URI && c->nuri >= CONF_LDAP_URI_MAX)
		return conf_ldap_why(why, whylen, k, "has too many entries");
	if ((copy = strdup(value)) == NULL)
		return ERR_NOMEM;
	if (k == CONF_LDAP_URI) {
		c->uri[c->nuri++] = copy;
		return ERR_OK;
	}
	free(*slot);
	*slot = copy;
	return ERR_OK;
}

int
conf_ldap_set(struct conf_ldap *c, enum conf_ldap_key k, const char *value,
    char *why, size_t whylen)
{
	if (c == NULL || value == NULL || (unsigned int)k >= CONF_LDAP_NKEYS)
		return ERR_INVAL;
	if (value[0] == '\0' || strlen(value) > CONF_LDAP_TEXT_MAX)
		return conf_ldap_why(why, whylen, k, "is empty or too long");
	switch (k) {
	case CONF_LDAP_NETWORK_TIMEOUT:
	case CONF_LDAP_SEARCH_TIMEOUT:
		if (conf_ldap_int(value,
			k == CONF_LDAP_SEARCH_TIMEOUT
			    ? &c->search_timeout
			    : &c->network_timeout) != ERR_OK)
			return conf_ldap_why(why, whylen, k,
			    "must be " CONF_TEXT_LDAP(
				CONF_LDAP_TIMEOUT_MIN) " to " CONF_TEXT_LDAP(CONF_LDAP_TIMEOUT_MAX) " seconds");
		return ERR_OK;
	case CONF_LDAP_BIND:
		if (conf_ldap_bind_of(value, &c->bind) != ERR_OK)
			return conf_ldap_why(why, whylen, k,
			    "must be anonymous, simple or external");
		return ERR_OK;
	default:
		return conf_ldap_set_str(c, k, value, why, whylen);
	}
}

static int
conf_ldap_need(const char *v, enum conf_ldap_key k, const char *msg, char *why,
    size_t whylen)
{
	if (v != NULL)
		return ERR_OK;
	return conf_ldap_why(why, whylen, k, msg);
}

static int
conf_ldap_defaults(struct conf_ldap *c)
{
	if (c->filter == NULL &&
	    (c->filter = strdup(CONF_LDAP_FILTER_DEFAULT)) == NULL)
		return ERR_NOMEM;
	if (c->attribute == NULL &&
	    (c->attribute = strdup(CONF_LDAP_ATTRIBUTE_DEFAULT)) == NULL)
		return ERR_NOMEM;
	if (c->network_timeout == 0)
		c->network_timeout = CONF_LDAP_TIMEOUT_DEFAULT;
	if (c->search_timeout == 0)
		c->search_timeout = CONF_LDAP_TIMEOUT_DEFAULT;
	return ERR_OK;
}

int
conf_ldap_check(struct conf_ldap *c, char *why, size_t whylen)
{
	bool simple = c->bind == CONF_LDAP_BIND_SIMPLE;
	bool ext = c->bind == CONF_LDAP_BIND_EXTERNAL;
	int r;

	if (!c->found) {
		if (why != NULL && whylen > 0)
			snprintf(why, whylen, "no ldap section");
		return ERR_CONFIG;
	}
	if ((r = conf_ldap_need(c->nuri > 0 ? "" : NULL, CONF_LDAP_URI,
		 "is required", why, whylen)) != ERR_OK ||
	    (r = conf_ldap_need(c->base, CONF_LDAP_BASE, "is required", why,
		 whylen)) != ERR_OK ||
	    (r = conf_ldap_need(c->ca_file, CONF_LDAP_CA_FILE, "is required",
		 why, whylen)) != ERR_OK)
		return r;
	if (simple != (c->bind_dn != NULL) ||
	    simple != (c->password_file != NULL))
		return conf_ldap_why(why, whylen, CONF_LDAP_BIND,
		    "simple needs bind_dn and password_file, and only it");
	if (ext != (c->cert_file != NULL) || ext != (c->key_file != NULL))
		return conf_ldap_why(why, whylen, CONF_LDAP_BIND,
		    "external needs cert_file and key_file, and only it");
	return conf_ldap_defaults(c);
}

void
conf_ldap_free(struct conf_ldap *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->nuri; i++)
		free(c->uri[i]);
	free(c->base);
	free(c->filter);
	free(c->attribute);
	free(c->lines_attribute);
	free(c->ca_file);
	free(c->bind_dn);
	free(c->password_file);
	free(c->cert_file);
	free(c->key_file);
	memset(c, 0, sizeof(*c));
}
