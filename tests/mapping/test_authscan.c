/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests for common/mapping/authscan.c: finding a user's line in a mapping
 * file. authfile_find on whole files (comments and blank lines, CRLF, NUL
 * bytes naming their line, other users' lines, lines without a colon,
 * blanks around the name, exact names, the last line winning, lines over
 * 64 KiB), then the streaming scan authfile_scan_init/_lines_nt/_end fed
 * by safefile_read_lines_chunk from a temporary file: lines across
 * pieces, "\r" and "\n" in different pieces, a NUL byte in a later piece,
 * a file growing past its cap, and random files whose streamed result
 * (in small pieces and in one piece large enough for the AVX2 loop) must
 * equal authfile_find's. The streaming cases run on the scan path named
 * by PU_AUTHSCAN_PATH (auto, the default, as production chooses;
 * portable; avx2), so that the suite covers the portable loop on AVX2
 * machines too (tests/mapping/authscan_portable.sh); the generated files are
 * also scanned on both paths explicitly. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mapping/authfile.h"
#include "mapping/authfile_int.h"
#include "authfix.h"
#include "base/cred.h"
#include "base/err.h"
#include "base/safefile.h"
#include "test.h"

static void
test_crlf(void)
{
	struct cred *c = NULL;
	size_t n, bad;

	T_EQ_ERR(find("# dos\r\n\r\nx:" CRED_REF "\r\nu:" CRED_REF "\r\n", "u",
		     &c, &n, &bad),
	    ERR_OK);
	T_EQ_INT(n, 1);
	if (n == 1)
		T_EQ_INT(c[0].flags, CRED_PRESENCE);
	cred_free_list(c, n);
	/* Options before "\r\n" are read without the CR. */
	T_EQ_ERR(
	    find("u:" KH_B64 "," PK_B64 ",es256,+pin\r\n", "u", &c, &n, &bad),
	    ERR_OK);
	T_EQ_INT(n, 1);
	if (n == 1)
		T_EQ_INT(c[0].flags, CRED_PIN);
	cred_free_list(c, n);
	/* A CR anywhere else is part of the line. */
	T_EQ_ERR(find("u:" CRED_REF "\r\r\n", "u", &c, &n, &bad), ERR_PARSE);
	T_EQ_INT(bad, 1);
}

/* A line over 64 KiB: every credential is kept, the last one's "+pin"
 * included (a fixed-size buffer would cut it off). */
static void
test_long_line(void)
{
	const size_t count = 400;
	char *file, *p;
	struct cred *c = NULL;
	size_t i, n = 0, bad, sz = count * (sizeof(CRED_REF) + 8) + 64;

	if ((file = malloc(sz)) == NULL)
		abort();
	p = file + sprintf(file, "# long\nu:");
	for (i = 0; i < count - 1; i++)
		p += sprintf(p, "%s:", CRED_REF);
	sprintf(p, "%s,%s,es256,+presence+pin\nz:x\n", KH_B64, PK_B64);
	T_TRUE(strlen(file) > 65536);
	T_EQ_ERR(find(file, "u", &c, &n, &bad), ERR_OK);
	T_EQ_INT(n, count);
	if (n == count) {
		T_EQ_INT(c[0].flags, CRED_PRESENCE);
		T_EQ_INT(c[count - 1].flags, CRED_PRESENCE | CRED_PIN);
	}
	cred_free_list(c, n);
	free(file);
}

static void
test_last_line_wins(void)
{
	struct cred *c = NULL;
	size_t n, bad;

	T_EQ_ERR(find("u:" CRED_REF "\nv:" CRED_REF "\nu:*," ED_PK_B64
		      ",eddsa,+pin\nw:" CRED_REF "\n",
		     "u", &c, &n, &bad),
	    ERR_OK);
	T_EQ_INT(n, 1);
	if (n == 1) {
		T_EQ_INT(c[0].type, COSE_EDDSA);
		T_EQ_INT(c[0].flags, CRED_RESIDENT | CRED_PIN);
	}
	cred_free_list(c, n);
	/* A later line with no credentials replaces earlier ones too. */
	T_EQ_ERR(find("u:" CRED_REF "\nu:\n", "u", &c, &n, &bad), ERR_OK);
	T_EQ_INT(n, 0);
	T_TRUE(c == NULL);
}

static void
test_nul_names_its_line(void)
{
	static const char file[] = "u:" CRED_REF "\n# c\nv:x\0y\nw:z\n";
	struct cred *c = NULL;
	size_t n = 3, bad = 0;

	T_EQ_ERR(authfile_find(file, sizeof(file) - 1, "u", &c, &n, &bad),
	    ERR_PARSE);
	T_EQ_INT(bad, 3);
	T_TRUE(c == NULL);
	T_EQ_INT(n, 0);
	/* In a comment, and on the last line without a newline. */
	T_EQ_ERR(authfile_find("#\0\n", 3, "u", &c, &n, &bad), ERR_PARSE);
	T_EQ_INT(bad, 1);
	T_EQ_ERR(authfile_find("\n\nu:\0", 5, "u", &c, &n, &bad), ERR_PARSE);
	T_EQ_INT(bad, 3);
}

static void
test_bad_line_of_other_user_ignored(void)
{
	struct cred *c = NULL;
	size_t n, bad;

	T_EQ_ERR(find("mallory:garbage,,,,,\nu:" CRED_REF "\nv:" KH_B64
		      ",AAAA,es256,+bogus\nuu:x\n:\n",
		     "u", &c, &n, &bad),
	    ERR_OK);
	T_EQ_INT(n, 1);
	cred_free_list(c, n);
}

/* A line without a colon is malformed for the user it could belong to
 * (it starts with the name) and skipped for everybody else, its number
 * kept for the log. */
static void
test_line_without_colon(void)
{
	static const char file[] =
	    "u:" CRED_REF "\n# ok\nmallory " CRED_REF "\nnocolon\n";
	struct authfile_scan sc;
	struct cred *c = NULL;
	size_t n, bad = 0;

	T_EQ_ERR(find(file, "u", &c, &n, &bad), ERR_OK);
	T_EQ_INT(n, 1);
	cred_free_list(c, n);
	T_EQ_ERR(authfile_scan_init(&sc, "u"), ERR_OK);
	T_EQ_ERR(authfile_scan_lines(&sc, file, sizeof(file) - 1), ERR_OK);
	T_EQ_INT(sc.nskipped, 2);
	T_EQ_INT(sc.skipped_line, 3);
	T_EQ_ERR(authfile_scan_end(&sc, &c, &n, &bad), ERR_OK);
	cred_free_list(c, n);
	/* mallory's own line (a blank instead of the colon) fails her. */
	T_EQ_ERR(find(file, "mallory", &c, &n, &bad), ERR_PARSE);
	T_EQ_INT(bad, 3);
	T_TRUE(c == NULL);
	/* So do her name alone, after blanks, and a missing colon before
	 * the key handle; "nocolon" is nobody's line but its own user's. */
	T_EQ_ERR(find("\nu\n", "u", &c, &n, &bad), ERR_PARSE);
	T_EQ_INT(bad, 2);
	T_EQ_ERR(find("x:\n\tu\r\n", "u", &c, &n, &bad), ERR_PARSE);
	T_EQ_INT(bad, 2);
	T_EQ_ERR(find("u" CRED_REF "\n", "u", &c, &n, &bad), ERR_PARSE);
	T_EQ_INT(bad, 1);
	T_EQ_ERR(find(file, "nocolon", &c, &n, &bad), ERR_PARSE);
	T_EQ_INT(bad, 4);
	/* Only skipped lines, no line of the user: not found. */
	T_EQ_ERR(find("mallory\n", "bob", &c, &n, &bad), ERR_NOT_FOUND);
}

/* " alice:" is not alice's line, but it looks like it: fail for alice
 * only, not for other users. */
static void
test_blanks_around_name(void)
{
	struct cred *c = NULL;
	size_t n, bad = 0;

	T_EQ_ERR(find("alice:" CRED_REF "\n alice:" CRED_REF "\n", "alice", &c,
		     &n, &bad),
	    ERR_PARSE);
	T_EQ_INT(bad, 2);
	T_EQ_ERR(
	    find("alice\t:" CRED_REF "\n", "alice", &c, &n, &bad), ERR_PARSE);
	T_EQ_INT(bad, 1);
	T_EQ_ERR(find(" alice:" CRED_REF "\nbob:" CRED_REF "\n", "bob", &c, &n,
		     &bad),
	    ERR_OK);
	T_EQ_INT(n, 1);
	cred_free_list(c, n);
}

static void
test_blank_and_comments(void)
{
	struct cred *c = NULL;
	size_t n, bad;

	T_EQ_ERR(
	    find("\n# u:" KH_B64 ",AAAA,es256,\n   \n\t\n  # x\n\nu:" CRED_REF,
		"u", &c, &n, &bad),
	    ERR_OK);
	T_EQ_INT(n, 1);
	cred_free_list(c, n);
}

static void
test_not_found_and_exact_names(void)
{
	struct cred *c = NULL;
	size_t n, bad;

	T_EQ_ERR(
	    find("alice2:" CRED_REF "\nalic:" CRED_REF "\nAlice:" CRED_REF "\n",
		"alice", &c, &n, &bad),
	    ERR_NOT_FOUND);
	T_TRUE(c == NULL);
	T_EQ_INT(n, 0);
	T_EQ_ERR(find("", "alice", &c, &n, &bad), ERR_NOT_FOUND);
	T_EQ_ERR(find("# only\n\n", "alice", &c, &n, &bad), ERR_NOT_FOUND);
	T_EQ_ERR(find("alice:" CRED_REF, "", &c, &n, &bad), ERR_INVAL);
	T_EQ_ERR(find("alice:" CRED_REF, "alice:", &c, &n, &bad), ERR_INVAL);
}

/* ---- the streaming reader with the incremental scan ---- */

static char tmp_path[4096];

/* A fresh file holding data (mode 0644, ours), its name in tmp_path. */
static void
tmp_write(const void *data, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	int fd, k;

	k = snprintf(tmp_path, sizeof(tmp_path), "%s/test_authscan.XXXXXX",
	    tmp != NULL && tmp[0] == '/' ? tmp : "/tmp");
	if (k < 0 || (size_t)k >= sizeof(tmp_path) ||
	    (fd = mkstemp(tmp_path)) < 0)
		abort();
	if (fchmod(fd, 0644) != 0 ||
	    (len > 0 && write(fd, data, len) != (ssize_t)len) || close(fd) != 0)
		abort();
}

/* The path the streaming cases scan with (PU_AUTHSCAN_PATH). */
static enum authscan_path scan_path = AUTHSCAN_AUTO;

struct feed {
	struct authfile_scan sc;
	size_t calls;
	size_t unterminated; /* pieces without buf[len] == '\0' */
	size_t partial;      /* pieces not ending a line, but the last */
	int grow;            /* append to tmp_path after the first piece */
	int last_partial;
};

static int
feed_scan(void *arg, const char *buf, size_t len)
{
	struct feed *f = arg;
	FILE *fp;

	if (f->last_partial)
		f->partial++; /* a partial piece that was not the last */
	f->calls++;
	if (buf[len] != '\0')
		f->unterminated++;
	f->last_partial = len == 0 || buf[len - 1] != '\n';
	if (f->grow && f->calls == 1) {
		if ((fp = fopen(tmp_path, "a")) == NULL)
			abort();
		fputs("v:grown past the cap while being read\n", fp);
		fclose(fp);
	}
	return authfile_scan_lines_nt_path(&f->sc, buf, len, scan_path);
}

struct result {
	int r;
	struct cred *c;
	size_t n, bad;
};

/* tmp_path read chunk bytes at a time through the scan, as userfile.c
 * does; the file is removed. */
static int
stream(const char *user, size_t chunk, size_t max, struct feed *f,
    struct result *res, const char **why)
{
	struct safefile_policy pol;
	int r;

	memset(&pol, 0, sizeof(pol));
	pol.owner = geteuid();
	pol.max_size = max;
	T_EQ_ERR(authfile_scan_init(&f->sc, user), ERR_OK);
	r = safefile_read_lines_chunk(tmp_path, &pol, chunk, feed_scan, f, why);
	res->r = authfile_scan_end(&f->sc, &res->c, &res->n, &res->bad);
	if (r != ERR_OK) {
		/* the scan's own error, or the reader's: what the scan found
		 * does not count (userfile.c does the same) */
		res->r = r;
		cred_free_list(res->c, res->n);
		res->c = NULL;
		res->n = 0;
	}
	unlink(tmp_path);
	return r;
}

static int
same_creds(const struct cred *a, const struct cred *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i].kh_len != b[i].kh_len || a[i].pk_len != b[i].pk_len ||
		    a[i].type != b[i].type || a[i].flags != b[i].flags ||
		    (a[i].kh_len > 0 &&
			memcmp(a[i].kh, b[i].kh, a[i].kh_len) != 0) ||
		    (a[i].pk_len > 0 &&
			memcmp(a[i].pk, b[i].pk, a[i].pk_len) != 0))
			return 0;
	return 1;
}

/* Streaming data chunk bytes at a time gives what authfile_find gives;
 * the pieces were NUL-terminated and ended lines (but the last). */
static int
same_as_find(const char *data, size_t len, const char *user, size_t chunk)
{
	struct authfile_scan sc;
	struct feed f = {0};
	struct result a = {0}, b = {0};
	int ok;

	a.r = authfile_find(data, len, user, &a.c, &a.n, &a.bad);
	/* The portable scan (memchr) counts the skipped lines as the
	 * NUL-terminated one (AVX2 where the CPU has it) does. */
	(void)authfile_scan_init(&sc, user);
	(void)authfile_scan_lines(&sc, data, len);
	(void)authfile_scan_end(&sc, NULL, NULL, NULL);
	tmp_write(data, len);
	(void)stream(user, chunk, 1 << 20, &f, &b, NULL);
	ok = a.r == b.r && a.n == b.n && a.bad == b.bad &&
	    same_creds(a.c, b.c, a.n) && f.unterminated == 0 &&
	    f.partial == 0 &&
	    (a.r != ERR_OK ||
		(sc.nskipped == f.sc.nskipped &&
		    sc.skipped_line == f.sc.skipped_line));
	if (!ok)
		printf("# chunk %zu: find %d n %zu bad %zu, stream %d n %zu "
		       "bad %zu\n",
		    chunk, a.r, a.n, a.bad, b.r, b.n, b.bad);
	cred_free_list(a.c, a.n);
	cred_free_list(b.c, b.n);
	return ok;
}

static void
test_stream_lines_across_chunks(void)
{
	static const char file[] =
	    "# central\nv:" CRED_REF "\nu:" CRED_OLD "\n\n  \nw:" CRED_REF
	    ":" CRED_REF "\nu:" CRED_REF ":" CRED_REF "\nx:\n";
	struct feed f = {0};
	struct result res = {0};
	size_t chunk;

	tmp_write(file, sizeof(file) - 1);
	T_EQ_ERR(stream("u", 7, 4096, &f, &res, NULL), ERR_OK);
	T_EQ_ERR(res.r, ERR_OK);
	T_EQ_INT(res.n, 2);
	T_TRUE(res.n == 2 && res.c[1].type == COSE_ES256 &&
	    res.c[1].flags == CRED_PRESENCE);
	T_TRUE(f.calls > 1); /* really read in pieces */
	T_EQ_INT(f.unterminated, 0);
	T_EQ_INT(f.partial, 0);
	cred_free_list(res.c, res.n);
	for (chunk = 1; chunk <= sizeof(file) + 1; chunk++)
		T_TRUE(same_as_find(file, sizeof(file) - 1, "u", chunk));
}

/* A line much longer than a chunk is read whole, not cut or refused. */
static void
test_stream_line_longer_than_chunk(void)
{
	char *many = malloc(40 * (sizeof(CRED_REF) + 1) + 16), *file = NULL;
	struct feed f = {0};
	struct result res = {0};
	size_t i, len;

	if (many == NULL)
		abort();
	strcpy(many, "u:" CRED_REF);
	for (i = 1; i < 40; i++)
		strcat(many, ":" CRED_REF);
	if (asprintf(&file, "v:x\n%s\nw:y\n", many) < 0)
		abort();
	len = strlen(file);
	tmp_write(file, len);
	T_EQ_ERR(stream("u", 7, len, &f, &res, NULL), ERR_OK);
	T_EQ_ERR(res.r, ERR_OK);
	T_EQ_INT(res.n, 40);
	T_TRUE(f.calls >= 2); /* "v:x\n" alone, then the rest */
	cred_free_list(res.c, res.n);
	T_TRUE(same_as_find(file, len, "u", 64));
	T_TRUE(same_as_find(file, len, "u", 1));
	free(many);
	free(file);
}

/* "\r" at the end of one chunk, "\n" at the start of the next. */
static void
test_stream_crlf_split(void)
{
	static const char file[] = "v:x\r\nu:" CRED_REF "\r\n#\r\n";
	size_t cr = (size_t)(strchr(file + 5, '\r') - file), chunk;

	for (chunk = 1; chunk < sizeof(file); chunk++)
		T_TRUE(same_as_find(file, sizeof(file) - 1, "u", chunk));
	/* a chunk boundary right between that "\r" and "\n" */
	T_EQ_INT(file[cr], '\r');
	T_TRUE(same_as_find(file, sizeof(file) - 1, "u", cr + 1));
}

/* A NUL byte in the second chunk is an error naming its own line, also
 * when the user's good line came before it. */
static void
test_stream_nul_in_second_chunk(void)
{
	static const char file[] = "u:" CRED_REF "\nv:a\nw:b\0c\nx:d\n";
	struct feed f = {0};
	struct result res = {0};

	tmp_write(file, sizeof(file) - 1);
	T_EQ_ERR(
	    stream("u", sizeof("u:" CRED_REF "\n") + 2, 4096, &f, &res, NULL),
	    ERR_PARSE);
	T_EQ_INT(f.calls, 2);
	T_EQ_ERR(res.r, ERR_PARSE);
	T_EQ_INT(res.bad, 3);
	T_TRUE(res.c == NULL);
	T_EQ_INT(res.n, 0);
	T_TRUE(same_as_find(file, sizeof(file) - 1, "u", 5));
	T_TRUE(same_as_find(file, sizeof(file) - 1, "x", 64));
}

/* The file grows past max_size after the first piece was scanned: the
 * reader fails as safefile_read does, whatever the scan saw. */
static void
test_stream_grows_past_cap(void)
{
	static const char file[] = "u:" CRED_REF "\nv:x\n";
	struct feed f = {0};
	struct result res = {0};
	const char *why = NULL;

	f.grow = 1;
	tmp_write(file, sizeof(file) - 1);
	T_EQ_ERR(stream("u", 8, sizeof(file) + 8, &f, &res, &why), ERR_TOO_BIG);
	T_EQ_STR(why, "is too large");
	T_EQ_ERR(res.r, ERR_TOO_BIG);
	T_TRUE(f.calls >= 1);
	/* and a file already too big is refused before any piece */
	memset(&f, 0, sizeof(f));
	tmp_write(file, sizeof(file) - 1);
	T_EQ_ERR(stream("u", 8, 10, &f, &res, &why), ERR_TOO_BIG);
	T_EQ_INT(f.calls, 0);
}

/* The user's last line is the file's last, in the last chunk, without a
 * newline; it replaces an earlier line of the user. */
static void
test_stream_last_line_without_newline(void)
{
	static const char file[] = "u:" CRED_OLD "\nv:x\nu:" CRED_REF;
	struct feed f = {0};
	struct result res = {0};
	size_t chunk;

	tmp_write(file, sizeof(file) - 1);
	T_EQ_ERR(stream("u", 16, 4096, &f, &res, NULL), ERR_OK);
	T_EQ_ERR(res.r, ERR_OK);
	T_TRUE(res.n == 1 && (res.c[0].flags & CRED_APPID) == 0);
	cred_free_list(res.c, res.n);
	for (chunk = 1; chunk < sizeof(file) + 2; chunk += 3)
		T_TRUE(same_as_find(file, sizeof(file) - 1, "u", chunk));
}

static uint32_t
rnd(uint32_t *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

/* Random files of good and bad lines, CR, NUL, other control bytes,
 * long lines, with and without a final newline: streaming with random
 * chunk sizes (and in one piece, large enough for the 128-byte blocks of
 * the AVX2 loop) gives authfile_find's result, bad line and
 * credentials. */
static size_t
generated_mismatches(size_t runs)
{
	static const char *const lines[] = {"u:" CRED_REF, "v:" CRED_REF,
	    "u:" CRED_OLD, "u:", "# u:x", "", "  ", "\t# x", " u:x", "u :x",
	    "nocolon", "v:garbage", "u:garbage", ":x", "uu:" CRED_REF,
	    "u:" CRED_REF ":" CRED_REF, "v:" CRED_REF "\r", "u:" CRED_REF "\r",
	    "\r", "w:a:b:c", "v:\x02\x08\x01\x0b", "w\x08:x", "\x02",
	    "u " CRED_REF, " u", "v " CRED_REF, "uu"};
	static const size_t weight[] = {3, 30, 2, 1, 3, 2, 1, 1, 1, 1, 1, 3, 1,
	    2, 3, 2, 6, 2, 1, 4, 3, 1, 1, 1, 1, 4, 1};
	char *buf = malloc(64 * 1024);
	uint32_t st = 20261203, w, total = 0;
	size_t i, k, len, nlines, bad = 0;

	if (buf == NULL)
		abort();
	for (i = 0; i < sizeof(weight) / sizeof(weight[0]); i++)
		total += (uint32_t)weight[i];
	for (i = 0; i < runs; i++) {
		nlines = rnd(&st) % (i % 10 == 0 ? 200 : 12);
		len = 0;
		for (k = 0; k < nlines; k++) {
			const char *l = NULL;
			size_t j = 0;

			for (w = rnd(&st) % total; w >= weight[j]; j++)
				w -= (uint32_t)weight[j];
			l = lines[j];
			memcpy(buf + len, l, strlen(l));
			len += strlen(l);
			if (rnd(&st) % 50 == 0) /* a long line */
				for (j = 0; j < 300; j++)
					buf[len++] = 'a';
			if (rnd(&st) % 300 == 0 && len > 0)
				buf[rnd(&st) % len] = '\0';
			if (k + 1 < nlines || rnd(&st) % 2)
				buf[len++] = '\n';
		}
		if (!same_as_find(buf, len, "u", 1 + rnd(&st) % 300) ||
		    !same_as_find(buf, len, "u", 64 * 1024))
			bad++;
	}
	free(buf);
	return bad;
}

/* Random files of good and bad lines, CR, NUL, other control bytes,
 * long lines, with and without a final newline: streaming with random
 * chunk sizes (and in one piece, large enough for the 128-byte blocks of
 * the AVX2 loop) gives authfile_find's result, bad line and
 * credentials. */
static void
test_stream_same_as_find_generated(void)
{
	T_EQ_INT(generated_mismatches(3000), 0);
}

/* The same files on each path by name, whatever PU_AUTHSCAN_PATH says:
 * the portable loop always; the AVX2 loop where the CPU has it, else it
 * is refused (ERR_UNSUPPORTED, sticky) rather than silently replaced. */
static void
test_both_paths_generated(void)
{
	enum authscan_path saved = scan_path;
	struct authfile_scan sc;
	struct cred *c = NULL;
	size_t n = 9, bad = 9;

	scan_path = AUTHSCAN_PORTABLE;
	T_EQ_INT(generated_mismatches(1000), 0);
	if (authscan_avx2_ok()) {
		scan_path = AUTHSCAN_AVX2;
		T_EQ_INT(generated_mismatches(1000), 0);
	} else {
		printf("# no AVX2 on this CPU: only its refusal is checked\n");
		T_EQ_ERR(authfile_scan_init(&sc, "u"), ERR_OK);
		T_EQ_ERR(
		    authfile_scan_lines_nt_path(&sc, "u:x\n", 4, AUTHSCAN_AVX2),
		    ERR_UNSUPPORTED);
		T_EQ_ERR(
		    authfile_scan_lines_nt(&sc, "u:x\n", 4), ERR_UNSUPPORTED);
		T_EQ_ERR(authfile_scan_end(&sc, &c, &n, &bad), ERR_UNSUPPORTED);
		T_EQ_INT(n, 0);
	}
	scan_path = saved;
}

/* First: the path the streaming cases use, from PU_AUTHSCAN_PATH (unset:
 * auto). An unknown name, or avx2 on a CPU without it, fails here. */
static void
test_scan_path_chosen(void)
{
	const char *v = getenv("PU_AUTHSCAN_PATH");

	if (v == NULL || strcmp(v, "auto") == 0)
		scan_path = AUTHSCAN_AUTO;
	else if (strcmp(v, "portable") == 0)
		scan_path = AUTHSCAN_PORTABLE;
	else if (strcmp(v, "avx2") == 0 && authscan_avx2_ok())
		scan_path = AUTHSCAN_AVX2;
	else
		T_FAIL_AT("PU_AUTHSCAN_PATH=%s: not auto, portable or (on "
			  "this CPU) avx2",
		    v);
	printf("# streaming scans: %s path (CPU has AVX2: %s)\n",
	    scan_path == AUTHSCAN_PORTABLE   ? "portable"
		: scan_path == AUTHSCAN_AVX2 ? "avx2"
					     : "auto",
	    authscan_avx2_ok() ? "yes" : "no");
}

TEST_MAIN(TEST(test_scan_path_chosen), TEST(test_crlf), TEST(test_long_line),
    TEST(test_last_line_wins), TEST(test_nul_names_its_line),
    TEST(test_bad_line_of_other_user_ignored), TEST(test_line_without_colon),
    TEST(test_blanks_around_name), TEST(test_blank_and_comments),
    TEST(test_not_found_and_exact_names), TEST(test_stream_lines_across_chunks),
    TEST(test_stream_line_longer_than_chunk), TEST(test_stream_crlf_split),
    TEST(test_stream_nul_in_second_chunk), TEST(test_stream_grows_past_cap),
    TEST(test_stream_last_line_without_newline),
    TEST(test_stream_same_as_find_generated), TEST(test_both_paths_generated))
