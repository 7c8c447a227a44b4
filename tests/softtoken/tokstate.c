/* SPDX-License-Identifier: BSD-2-Clause */
/* The software token's state file: "name hex" lines (master key,
 * attestation key and certificate, counter), written atomically. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "base/err.h"
#include "ctap2.h"
#include "token.h"
#include "token_int.h"
#include "base/util.h"

static void
put_hex(FILE *f, const char *name, const uint8_t *p, size_t n)
{
	size_t i;

	fprintf(f, "%s ", name);
	for (i = 0; i < n; i++)
		fprintf(f, "%02x", p[i]);
	fprintf(f, "\n");
}

static int
write_state(const struct token *t, FILE *f)
{
	unsigned char *der = NULL;
	int n;

	if ((n = i2d_PrivateKey(t->att, &der)) <= 0)
		return ERR_CRYPTO;
	fprintf(f, "pam_u2f-softtoken-state 1\n");
	put_hex(f, "master", t->master, sizeof(t->master));
	put_hex(f, "attest-key", der, (size_t)n);
	put_hex(f, "attest-cert", t->cert, t->cert_len);
	fprintf(f, "counter %u\n", (unsigned)t->counter);
	ctap2_state_write(t->c2, f);
	OPENSSL_clear_free(der, (size_t)n);
	return ERR_OK;
}

/* Write the state to a temporary file beside the target, then rename. */
int
token_save_state(const struct token *t)
{
	char *tmp = NULL;
	FILE *f = NULL;
	int fd = -1, r = ERR_FILE;

	if (t->state_path == NULL)
		return ERR_OK;
	if (asprintf(&tmp, "%s.XXXXXX", t->state_path) < 0) {
		tmp = NULL;
		return ERR_NOMEM;
	}
	if ((fd = mkstemp(tmp)) < 0 || fchmod(fd, 0600) != 0 ||
	    (f = fdopen(fd, "w")) == NULL)
		goto fail;
	fd = -1;
	if ((r = write_state(t, f)) != ERR_OK)
		goto fail;
	r = ERR_FILE;
	if (fflush(f) != 0 || fsync(fileno(f)) != 0)
		goto fail;
	if (fclose(f) != 0) {
		f = NULL;
		goto fail;
	}
	f = NULL;
	if (rename(tmp, t->state_path) != 0)
		goto fail;
	free(tmp);
	tmp = NULL;
	r = ERR_OK;
fail:
	if (f != NULL)
		fclose(f);
	if (fd >= 0)
		close(fd);
	if (tmp != NULL) {
		unlink(tmp);
		free(tmp);
	}
	return r;
}

/* Decode the hex value of line "name HEX" into a fresh buffer. */
static int
get_hex(const char *v, uint8_t **out, size_t *len)
{
	size_t n = strlen(v), i;
	unsigned int b;
	uint8_t *p;

	if (n == 0 || n % 2 != 0 || (p = malloc(n / 2)) == NULL)
		return ERR_PARSE;
	for (i = 0; i < n / 2; i++) {
		if (sscanf(v + 2 * i, "%2x", &b) != 1) {
			util_freezero(p, n / 2);
			return ERR_PARSE;
		}
		p[i] = (uint8_t)b;
	}
	*out = p;
	*len = n / 2;
	return ERR_OK;
}

static int
state_line(struct token *t, const char *name, const char *v)
{
	const unsigned char *q;
	uint8_t *b = NULL;
	size_t n = 0;
	unsigned long c;
	char *end;
	int r;

	if (strcmp(name, "pam_u2f-softtoken-state") == 0)
		return strcmp(v, "1") == 0 ? ERR_OK : ERR_PARSE;
	if ((r = ctap2_state_line(t->c2, name, v)) != ERR_NOT_FOUND)
		return r;
	if (strcmp(name, "counter") == 0) {
		errno = 0;
		c = strtoul(v, &end, 10);
		if (errno != 0 || *end != '\0' || c > UINT32_MAX)
			return ERR_PARSE;
		t->counter = (uint32_t)c;
		return ERR_OK;
	}
	if (get_hex(v, &b, &n) != ERR_OK)
		return ERR_PARSE;
	if (strcmp(name, "master") == 0 && n == sizeof(t->master)) {
		memcpy(t->master, b, n);
	} else if (strcmp(name, "attest-key") == 0 && t->att == NULL) {
		q = b;
		t->att = d2i_AutoPrivateKey(NULL, &q, (long)n);
	} else if (strcmp(name, "attest-cert") == 0 && t->cert == NULL &&
	    n <= CERT_MAX) {
		t->cert = b;
		t->cert_len = n;
		return ERR_OK;
	} else {
		util_freezero(b, n);
		return ERR_PARSE;
	}
	util_freezero(b, n);
	return ERR_OK;
}

static int
parse_state(struct token *t, char *text)
{
	char *line, *save = NULL, *sp;
	int r;

	for (line = strtok_r(text, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		if ((sp = strchr(line, ' ')) == NULL)
			return ERR_PARSE;
		*sp = '\0';
		if ((r = state_line(t, line, sp + 1)) != ERR_OK)
			return r;
	}
	if (t->att == NULL || t->cert == NULL)
		return ERR_PARSE;
	return ERR_OK;
}

int
token_load_state(struct token *t)
{
	char *text = NULL;
	ssize_t got;
	size_t n = 0;
	int fd, r = ERR_FILE;

	fd = open(t->state_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return errno == ENOENT ? ERR_NOT_FOUND : ERR_FILE;
	if ((text = calloc(1, STATE_MAX + 1)) == NULL) {
		r = ERR_NOMEM;
		goto fail;
	}
	while (n < STATE_MAX && (got = read(fd, text + n, STATE_MAX - n)) > 0)
		n += (size_t)got;
	if (n == 0 || n == STATE_MAX)
		goto fail;
	r = parse_state(t, text);
fail:
	close(fd);
	util_freezero(text, STATE_MAX + 1);
	return r;
}
