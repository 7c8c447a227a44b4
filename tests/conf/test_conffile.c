/* SPDX-License-Identifier: BSD-2-Clause */
/* Loading the configuration file with conf_load: its safety rules (no
 * symbolic link, a regular file owned by root, not group- or
 * world-writable, at most CONF_MAX_SIZE bytes, a FIFO refused without
 * blocking), a missing file allowed only at the default path, and a parse
 * error named with the file's path and line; then the shipped example
 * etc/pam_u2f.conf.example, which parses as it is and, with every key
 * uncommented, sets every key. Only root can create root-owned files: as
 * another user each file here is refused for its owner, and that is what
 * is checked then. The schema, values and messages of text parsed from
 * memory are in tests/conf/test_conf.c. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf/conf.h"
#include "base/err.h"
#include "test.h"

#include "conffix.h"

#define NOBODY 65534

static char tmpdir[] = "/tmp/test_conffile.XXXXXX";

static char *
tmpfile_path(const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return path;
}

/* Write a file with the given mode; returns its path (static). */
static const char *
write_file(const char *name, const char *text, mode_t mode)
{
	const char *path = tmpfile_path(name);
	FILE *f;

	unlink(path);
	if ((f = fopen(path, "w")) == NULL ||
	    fwrite(text, 1, strlen(text), f) != strlen(text) || fclose(f) != 0)
		abort();
	if (chmod(path, mode) != 0)
		abort();
	return path;
}

/* Whether the files made here are owned by root (see the top). */
static bool
is_root(void)
{
	return geteuid() == 0;
}

static void
expect_file_error(
    const char *path, bool explicit_path, int want_r, const char *why)
{
	struct conf c;
	char err[ERRLEN], want[ERRLEN];

	snprintf(want, sizeof(want), "%s: %s", path, why);
	T_EQ_ERR(conf_load(path, explicit_path, &c, err, sizeof(err)), want_r);
	T_EQ_STR(err, want);
	T_EQ_INT(c.set, 0);
	conf_free(&c);
}

static void
t_file_roundtrip(void)
{
	const char *path = write_file("all.conf", all_keys(), 0644);
	struct conf c;
	char err[ERRLEN];

	if (!is_root()) {
		expect_file_error(path, true, ERR_FILE_UNSAFE,
		    "refused: the file is not owned by root");
		return;
	}
	T_EQ_ERR(conf_load(path, true, &c, err, sizeof(err)), ERR_OK);
	T_EQ_STR(err, "");
	T_EQ_INT(c.set, (UINT32_C(1) << CONF_NKEYS) - 1);
	T_EQ_STR(c.origin, "pam://example.org");
	T_EQ_INT(c.timeout, 42);
	conf_free(&c);
	/* Read-only for everyone is fine too. */
	chmod(path, 0400);
	T_EQ_ERR(conf_load(path, false, &c, err, sizeof(err)), ERR_OK);
	T_EQ_INT(c.max_devices, 7);
	conf_free(&c);
}

static void
t_file_parse_error(void)
{
	const char *path = write_file("bad.conf", "# x\ntimeout = 0\n", 0644);
	struct conf c;
	char err[ERRLEN], want[ERRLEN];

	if (!is_root()) {
		expect_file_error(path, false, ERR_FILE_UNSAFE,
		    "refused: the file is not owned by root");
		return;
	}
	snprintf(want, sizeof(want),
	    "%s:2: timeout: 0 is out of range "
	    "(1 to 3600)",
	    path);
	T_EQ_ERR(conf_load(path, false, &c, err, sizeof(err)), ERR_CONFIG);
	T_EQ_STR(err, want);
	T_EQ_INT(c.set, 0);
	conf_free(&c);
}

static void
t_missing(void)
{
	const char *path = tmpfile_path("missing.conf");
	struct conf c;
	char err[ERRLEN];

	unlink(path);
	/* The default file may be absent. */
	T_EQ_ERR(conf_load(path, false, &c, err, sizeof(err)), ERR_OK);
	T_EQ_STR(err, "");
	T_EQ_INT(c.set, 0);
	conf_free(&c);
	/* A file someone named may not. */
	expect_file_error(path, true, ERR_FILE, strerror(ENOENT));
}

static void
t_symlink(void)
{
	const char *target = write_file("target.conf", "timeout = 5\n", 0644);
	char link[256];

	snprintf(link, sizeof(link), "%s", tmpfile_path("link.conf"));
	unlink(link);
	T_TRUE(symlink(target, link) == 0);
	expect_file_error(link, true, ERR_FILE_UNSAFE,
	    "refused: the file is a symbolic link");
	/* A link is refused even at the default path. */
	expect_file_error(link, false, ERR_FILE_UNSAFE,
	    "refused: the file is a symbolic link");
}

static void
t_writable(void)
{
	const char *g = write_file("group.conf", "timeout = 5\n", 0664);
	const char *why = is_root()
	    ? "refused: the file is group- or world-writable"
	    : "refused: the file is not owned by root";
	const char *w;

	expect_file_error(g, true, ERR_FILE_UNSAFE, why);
	w = write_file("world.conf", "timeout = 5\n", 0646);
	expect_file_error(w, false, ERR_FILE_UNSAFE, why);
}

static void
t_owner(void)
{
	const char *path = write_file("owner.conf", "timeout = 5\n", 0644);

	if (is_root() && chown(path, NOBODY, NOBODY) != 0) {
		T_FAIL_AT("chown: %s", strerror(errno));
		return;
	}
	expect_file_error(path, true, ERR_FILE_UNSAFE,
	    "refused: the file is not owned by root");
	expect_file_error(path, false, ERR_FILE_UNSAFE,
	    "refused: the file is not owned by root");
}

static void
t_not_regular(void)
{
	const char *dir = tmpfile_path("dir.conf");
	char fifo[256];

	rmdir(dir);
	T_TRUE(mkdir(dir, 0755) == 0);
	expect_file_error(dir, true, ERR_FILE_UNSAFE,
	    "refused: the file is not a regular file");
	rmdir(dir);
	/* A FIFO must not block the reader. */
	snprintf(fifo, sizeof(fifo), "%s", tmpfile_path("fifo.conf"));
	unlink(fifo);
	T_TRUE(mkfifo(fifo, 0644) == 0);
	expect_file_error(fifo, false, ERR_FILE_UNSAFE,
	    "refused: the file is not a regular file");
	unlink(fifo);
}

static void
t_too_big(void)
{
	char *text;
	const char *path;
	size_t n = CONF_MAX_SIZE + 1;

	if ((text = malloc(n + 1)) == NULL)
		abort();
	memset(text, '#', n);
	text[n - 1] = '\n';
	text[n] = '\0';
	path = write_file("big.conf", text, 0644);
	free(text);
	expect_file_error(path, true, is_root() ? ERR_TOO_BIG : ERR_FILE_UNSAFE,
	    is_root() ? "refused: the file is larger than 65536 bytes"
		      : "refused: the file is not owned by root");
}

/* The shipped example parses as it is (everything commented out), and
 * with every "# key = value" line uncommented it sets every key: each key
 * is documented with a valid default. */
static char *
read_example(size_t *len)
{
	const char *top = getenv("top_srcdir");
	char path[512], *text;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/etc/pam_u2f.conf.example",
	    top != NULL ? top : ".");
	if ((f = fopen(path, "r")) == NULL || fseek(f, 0, SEEK_END) != 0 ||
	    (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
	    (text = malloc((size_t)n + 1)) == NULL ||
	    fread(text, 1, (size_t)n, f) != (size_t)n) {
		T_FAIL_AT("cannot read %s", path);
		if (f != NULL)
			fclose(f);
		return NULL;
	}
	fclose(f);
	text[n] = '\0';
	*len = (size_t)n;
	return text;
}

/* "# key = ..." -> "  key = ..." for every key. */
static void
uncomment_keys(char *text)
{
	char *p;
	int k;
	size_t n;

	for (p = text; p != NULL && *p != '\0'; p = strchr(p, '\n')) {
		p += *p == '\n';
		for (k = 0; k < CONF_NKEYS; k++) {
			n = strlen(conf_key_name((enum conf_key)k));
			if (strncmp(p, "# ", 2) == 0 &&
			    strncmp(p + 2, conf_key_name((enum conf_key)k),
				n) == 0 &&
			    strncmp(p + 2 + n, " = ", 3) == 0)
				p[0] = ' ';
		}
	}
}

static void
t_example(void)
{
	struct conf c;
	char err[ERRLEN], *text;
	size_t len = 0;

	if ((text = read_example(&len)) == NULL)
		return;
	T_EQ_ERR(conf_parse_mem(NAME, text, len, &c, err, ERRLEN), ERR_OK);
	T_EQ_INT(c.set, 0);
	uncomment_keys(text);
	T_EQ_ERR(conf_parse_mem(NAME, text, len, &c, err, ERRLEN), ERR_OK);
	T_EQ_STR(err, "");
	T_EQ_INT(c.set, (UINT32_C(1) << CONF_NKEYS) - 1);
	T_EQ_INT(c.timeout, 30);
	T_EQ_INT(c.max_devices, 24);
	T_EQ_INT(c.userpresence, -1);
	T_TRUE(!c.debug && !c.nouserok && !c.alwaysok);
	T_EQ_STR(c.prompt, "Insert your U2F device, then press ENTER.");
	T_EQ_STR(c.cue_prompt, "Please touch the device.");
	conf_free(&c);
	free(text);
}

static void
t_setup(void)
{
	T_TRUE(mkdtemp(tmpdir) != NULL);
}

static void
t_cleanup(void)
{
	static const char *names[] = {"all.conf", "bad.conf", "target.conf",
	    "link.conf", "group.conf", "world.conf", "owner.conf", "big.conf"};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(tmpfile_path(names[i]));
	T_TRUE(rmdir(tmpdir) == 0);
}

TEST_MAIN(TEST(t_setup), TEST(t_file_roundtrip), TEST(t_file_parse_error),
    TEST(t_missing), TEST(t_symlink), TEST(t_writable), TEST(t_owner),
    TEST(t_not_regular), TEST(t_too_big), TEST(t_example), TEST(t_cleanup))
