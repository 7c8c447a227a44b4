/* SPDX-License-Identifier: BSD-2-Clause */
/* OpenSSH public key lines of FIDO keys (ssh.h: sshpub_*): options, key
 * type, base64 blob, comment, and the blob's fields (PROTOCOL.u2f). Its
 * own file: the one parser of the keys that the mapping sources,
 * pamu2fcfg and the agent's identity list all hand to the ssh layer. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sshpub_int.h"
#include "wire.h"
#include "base/b64.h"
#include "base/edpoint.h"
#include "base/err.h"
#include "base/util.h"
#include "crypto/crypto.h"

#define SSHPUB_LINE_MAX 8192 /* an sk key line is under 300 bytes */
#define SSHPUB_CURVE "nistp256"
#define SSHPUB_APP_PREFIX "ssh:"
#define OPT_NO_TOUCH "no-touch-required"
#define OPT_VERIFY "verify-required"

/* Key types that are not ours: refused as ERR_UNSUPPORTED rather than
 * read as an options field. */
static const char *const other_types[] = {"ssh-ed25519", "ssh-rsa", "ssh-dss",
    "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
    "webauthn-sk-ecdsa-sha2-nistp256@openssh.com"};

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The next blank-separated token of *s: its start and length. */
static size_t
token(const char **s, const char **tok)
{
	const char *p = *s;
	size_t n = 0;

	while (is_blank(*p))
		p++;
	*tok = p;
	while (p[n] != '\0' && !is_blank(p[n]))
		n++;
	*s = p + n;
	return n;
}

static int
tok_is(const char *tok, size_t n, const char *want)
{
	return n == strlen(want) && memcmp(tok, want, n) == 0;
}

static enum sshpub_type
type_of(const char *tok, size_t n)
{
	if (tok_is(tok, n, SSHPUB_ECDSA_NAME))
		return SSHPUB_SK_ECDSA;
	if (tok_is(tok, n, SSHPUB_ED25519_NAME))
		return SSHPUB_SK_ED25519;
	return 0;
}

static int
is_other_type(const char *tok, size_t n)
{
	size_t i, l;

	for (i = 0; i < sizeof(other_types) / sizeof(other_types[0]); i++)
		if (tok_is(tok, n, other_types[i]))
			return 1;
	/* certificates: *-cert-v01@openssh.com */
	l = strlen("-cert-v01@openssh.com");
	return n > l && memcmp(tok + n - l, "-cert-v01@openssh.com", l) == 0;
}

/* The options field: a comma-separated list of no-touch-required and
 * verify-required (any case, as sshd compares them). Every other option
 * refuses the line (ERR_CONFIG); an empty one is ERR_PARSE. */
static int
parse_options(const char *tok, size_t n, struct sshpub *k)
{
	size_t i = 0, j;

	while (i <= n) {
		for (j = i; j < n && tok[j] != ','; j++)
			;
		if (j == i)
			return ERR_PARSE;
		if (j - i == strlen(OPT_NO_TOUCH) &&
		    strncasecmp(tok + i, OPT_NO_TOUCH, j - i) == 0)
			k->no_touch_required = true;
		else if (j - i == strlen(OPT_VERIFY) &&
		    strncasecmp(tok + i, OPT_VERIFY, j - i) == 0)
			k->verify_required = true;
		else
			return ERR_CONFIG;
		i = j + 1;
	}
	return ERR_OK;
}

static int
app_ok(const uint8_t *p, size_t len)
{
	size_t i, pre = strlen(SSHPUB_APP_PREFIX);

	if (len < pre || len > SSHPUB_APP_MAX ||
	    memcmp(p, SSHPUB_APP_PREFIX, pre) != 0)
		return 0;
	for (i = 0; i < len; i++)
		if (p[i] < 0x21 || p[i] > 0x7e)
			return 0;
	return 1;
}

/* The key material of blob type t: (curve,) point or key. */
static int
get_key(struct rbuf *rb, enum sshpub_type t, struct sshpub *k)
{
	const uint8_t *p;
	size_t len;

	if (t == SSHPUB_SK_ECDSA) {
		if (wire_get_string_is(rb, SSHPUB_CURVE) != ERR_OK ||
		    wire_get_string(rb, &p, &len) != ERR_OK || len != 65 ||
		    crypto_p256_point(p, len, k->pk) != ERR_OK)
			return ERR_PARSE;
		k->pk_len = 65;
		return ERR_OK;
	}
	if (wire_get_string(rb, &p, &len) != ERR_OK || len != EDPOINT_LEN ||
	    edpoint_check(p) != ERR_OK)
		return ERR_PARSE;
	memcpy(k->pk, p, len);
	k->pk_len = len;
	return ERR_OK;
}

static int
from_blob(const uint8_t *blob, size_t len, struct sshpub *k)
{
	struct rbuf rb;
	const uint8_t *p;
	size_t n;

	if (blob == NULL || len == 0)
		return ERR_PARSE;
	rbuf_init(&rb, blob, len);
	if (wire_get_string(&rb, &p, &n) != ERR_OK)
		return ERR_PARSE;
	if (wire_bytes_are(p, n, SSHPUB_ECDSA_NAME))
		k->type = SSHPUB_SK_ECDSA;
	else if (wire_bytes_are(p, n, SSHPUB_ED25519_NAME))
		k->type = SSHPUB_SK_ED25519;
	else
		return ERR_UNSUPPORTED;
	if (get_key(&rb, k->type, k) != ERR_OK ||
	    wire_get_string(&rb, &p, &n) != ERR_OK || !app_ok(p, n) ||
	    rbuf_expect_end(&rb) != ERR_OK)
		return ERR_PARSE;
	if ((k->application = strndup((const char *)p, n)) == NULL ||
	    (k->blob = malloc(len)) == NULL)
		return ERR_NOMEM;
	memcpy(k->blob, blob, len);
	k->blob_len = len;
	return ERR_OK;
}

int
sshpub_from_blob(const uint8_t *blob, size_t len, struct sshpub *k)
{
	int r;

	if (k == NULL || (blob == NULL && len > 0))
		return ERR_INVAL;
	memset(k, 0, sizeof(*k));
	if ((r = from_blob(blob, len, k)) != ERR_OK)
		sshpub_clear(k);
	return r;
}

/* The comment: the rest of the line, blanks and a line end trimmed. */
static int
get_comment(const char *s, struct sshpub *k)
{
	size_t n;

	while (is_blank(*s))
		s++;
	n = strlen(s);
	while (n > 0 &&
	    (is_blank(s[n - 1]) || s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	if (n == 0)
		return ERR_OK;
	if (memchr(s, '\n', n) != NULL || memchr(s, '\r', n) != NULL)
		return ERR_PARSE;
	return (k->comment = strndup(s, n)) != NULL ? ERR_OK : ERR_NOMEM;
}

/* Type token (after options), base64 blob, comment. */
static int
parse_key(const char *s, const char *tok, size_t n, struct sshpub *k)
{
	enum sshpub_type t = type_of(tok, n);
	struct sshpub opts = *k;
	uint8_t *blob = NULL;
	size_t blen = 0;
	int r;

	if (t == 0)
		return is_other_type(tok, n) ? ERR_UNSUPPORTED : ERR_PARSE;
	if ((n = token(&s, &tok)) == 0)
		return ERR_PARSE;
	if ((r = b64_decode(tok, n, &blob, &blen)) != ERR_OK)
		return r == ERR_NOMEM ? r : ERR_PARSE;
	if ((r = sshpub_from_blob(blob, blen, k)) == ERR_OK && k->type != t)
		r = ERR_PARSE; /* the line's type is not the blob's */
	free(blob);
	if (r != ERR_OK)
		return r;
	k->no_touch_required = opts.no_touch_required;
	k->verify_required = opts.verify_required;
	return get_comment(s, k);
}

int
sshpub_parse(const char *line, struct sshpub *k)
{
	const char *s = line, *tok;
	size_t n;
	int r;

	if (k == NULL || line == NULL)
		return ERR_INVAL;
	memset(k, 0, sizeof(*k));
	if (strnlen(line, SSHPUB_LINE_MAX + 1) > SSHPUB_LINE_MAX)
		return ERR_PARSE;
	if ((n = token(&s, &tok)) == 0)
		return ERR_PARSE;
	if (type_of(tok, n) == 0 && !is_other_type(tok, n)) {
		if (memchr(tok, '"', n) != NULL)
			return ERR_CONFIG; /* an option with a value */
		if ((r = parse_options(tok, n, k)) != ERR_OK) {
			sshpub_clear(k); /* an option may be set already */
			return r;
		}
		n = token(&s, &tok);
	}
	if ((r = parse_key(s, tok, n, k)) != ERR_OK)
		sshpub_clear(k);
	return r;
}

void
sshpub_clear(struct sshpub *k)
{
	if (k == NULL)
		return;
	free(k->application);
	free(k->blob);
	free(k->comment);
	memset(k, 0, sizeof(*k));
}

void
sshpub_free_list(struct sshpub *list, size_t n)
{
	size_t i;

	if (list == NULL)
		return;
	for (i = 0; i < n; i++)
		sshpub_clear(&list[i]);
	free(list);
}

static int
printable(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			return 0;
	return 1;
}

int
sshpub_format(const struct sshpub *k, char **line)
{
	const char *name, *opts;
	char *b64 = NULL;
	int r, n;

	if (k == NULL || line == NULL || k->blob == NULL)
		return ERR_INVAL;
	*line = NULL;
	name = k->type == SSHPUB_SK_ECDSA ? SSHPUB_ECDSA_NAME
					  : SSHPUB_ED25519_NAME;
	opts = k->no_touch_required
	    ? (k->verify_required ? OPT_NO_TOUCH "," OPT_VERIFY " "
				  : OPT_NO_TOUCH " ")
	    : (k->verify_required ? OPT_VERIFY " " : "");
	if ((r = b64_encode(k->blob, k->blob_len, &b64)) != ERR_OK)
		return r;
	if (k->comment != NULL && k->comment[0] != '\0' &&
	    printable(k->comment))
		n = asprintf(line, "%s%s %s %s", opts, name, b64, k->comment);
	else
		n = asprintf(line, "%s%s %s", opts, name, b64);
	free(b64);
	if (n < 0) {
		*line = NULL;
		return ERR_NOMEM;
	}
	return ERR_OK;
}
