/* SPDX-License-Identifier: BSD-2-Clause */
/* authcmd= output: mapping lines through the authfile scanner (which sees
 * a blank line in place of each passkey: value, so its line numbers stay
 * those of the output), passkey: values through passkey_parse. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "authfile.h"
#include "base/err.h"
#include "authcmd_output.h"
#include "passkey.h"

struct cmdout {
	struct authfile_scan sc;
	struct cred *pk; /* passkey: credentials */
	size_t npk, cap;
	size_t lineno;
	struct cmdout_skipped *sk; /* or NULL */
};

static int
cmdout_passkey(struct cmdout *co, const char *s, size_t len)
{
	struct cred *nl;
	size_t ncap;
	int r;

	if (len > 0 && s[len - 1] == '\r')
		len--;
	if (co->npk == co->cap) {
		ncap = co->cap == 0 ? 4 : 2 * co->cap;
		if (ncap > SIZE_MAX / sizeof(*nl) ||
		    (nl = realloc(co->pk, ncap * sizeof(*nl))) == NULL)
			return ERR_NOMEM;
		co->pk = nl;
		co->cap = ncap;
	}
	if ((r = passkey_parse(s, len, &co->pk[co->npk])) != ERR_OK)
		return r;
	co->npk++;
	return authfile_scan_lines(&co->sc, "\n", 1);
}

/* One line (without its '\n'; last says whether it had one). */
static int
cmdout_line(struct cmdout *co, const char *s, size_t len, int last)
{
	size_t before = co->sc.nskipped;
	int r;

	co->lineno++;
	if (memchr(s, '\0', len) != NULL)
		return ERR_PARSE;
	if (passkey_is(s, len))
		return cmdout_passkey(co, s, len);
	r = authfile_scan_lines(&co->sc, s, len + (last ? 0 : 1));
	if (co->sk != NULL && co->sc.nskipped > before) {
		if (co->sk->n < CMDOUT_SKIPPED_MAX)
			co->sk->line[co->sk->n] = co->lineno;
		co->sk->n++;
	}
	return r;
}

/* The scanner's list (fc, fn; taken over), then the passkey:
 * credentials, into one list. */
static int
cmdout_join(struct cmdout *co, struct cred *fc, size_t fn, struct cred **creds,
    size_t *n)
{
	struct cred *all;
	size_t total = fn + co->npk;

	if (total == 0)
		return ERR_NOT_FOUND;
	if ((all = calloc(total, sizeof(*all))) == NULL) {
		cred_free_list(fc, fn);
		return ERR_NOMEM;
	}
	if (fn > 0)
		memcpy(all, fc, fn * sizeof(*all));
	if (co->npk > 0)
		memcpy(all + fn, co->pk, co->npk * sizeof(*all));
	free(fc);
	free(co->pk);
	co->pk = NULL;
	co->npk = co->cap = 0;
	*creds = all;
	*n = total;
	return ERR_OK;
}

static int
cmdout_lines(struct cmdout *co, const char *buf, size_t len, size_t *bad_line)
{
	const char *end = buf + len, *nl;
	int r;

	while (buf < end) {
		nl = memchr(buf, '\n', (size_t)(end - buf));
		r = cmdout_line(co, buf,
		    (size_t)((nl != NULL ? nl : end) - buf), nl == NULL);
		if (r != ERR_OK) {
			if (r == ERR_PARSE)
				*bad_line = co->lineno;
			return r;
		}
		buf = nl != NULL ? nl + 1 : end;
	}
	return ERR_OK;
}

int
cmdout_find(const char *buf, size_t len, const char *user, struct cred **creds,
    size_t *n, size_t *bad_line)
{
	return cmdout_find_skipped(buf, len, user, creds, n, bad_line, NULL);
}

int
cmdout_find_skipped(const char *buf, size_t len, const char *user,
    struct cred **creds, size_t *n, size_t *bad_line, struct cmdout_skipped *sk)
{
	struct cmdout co;
	struct cred *fc = NULL;
	size_t fn = 0, bad = 0;
	int r;

	if (sk != NULL)
		memset(sk, 0, sizeof(*sk));
	if (creds == NULL || n == NULL || bad_line == NULL ||
	    (buf == NULL && len > 0))
		return ERR_INVAL;
	*creds = NULL;
	*n = 0;
	*bad_line = 0;
	memset(&co, 0, sizeof(co));
	co.sk = sk;
	if ((r = authfile_scan_init(&co.sc, user)) != ERR_OK)
		return r;
	if ((r = cmdout_lines(&co, buf, len, bad_line)) != ERR_OK)
		goto fail;
	r = authfile_scan_end(&co.sc, &fc, &fn, &bad);
	if (r == ERR_PARSE)
		*bad_line = bad;
	if (r == ERR_NOT_FOUND)
		r = ERR_OK; /* no mapping line: passkey: values may do */
	if (r == ERR_OK)
		r = cmdout_join(&co, fc, fn, creds, n);
fail:
	(void)authfile_scan_end(&co.sc, NULL, NULL, NULL);
	cred_free_list(co.pk, co.npk);
	return r;
}
