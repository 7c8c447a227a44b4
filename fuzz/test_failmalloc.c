/* SPDX-License-Identifier: BSD-2-Clause */
/* The allocation-failure injection itself (and the virtual clock), and a
 * deterministic sweep: for each valid seed of the parsers, fail every
 * allocation in turn (ours and OpenSSL's) and check that the call ends in
 * an error code; a failure in our own code must end in ERR_NOMEM. Needs
 * $top_srcdir (the seeds). */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "mapping/authfile.h"
#include "base/b64.h"
#include "conf/conf.h"
#include "crypto/crypto.h"
#include "crypto/crypto_int.h"
#include "base/cred.h"
#include "base/err.h"
#include "failmalloc.h"
#include "fuzz.h"
#include "manualkat.h"
#include "mapping/sshkey.h"
#include "proto/u2f/u2f.h"
#include "base/util.h"
#include "test.h"

#define SEED_MAX 65536

/* Called through volatile pointers: the compiler may drop a malloc whose
 * result is only tested or freed, and then nothing would be counted. */
static void *(*volatile p_malloc)(size_t) = malloc;
static void *(*volatile p_calloc)(size_t, size_t) = calloc;
static void *(*volatile p_realloc)(void *, size_t) = realloc;
static void *(*volatile p_reallocarray)(void *, size_t, size_t) = reallocarray;
static char *(*volatile p_strdup)(const char *) = strdup;
static char *(*volatile p_strndup)(const char *, size_t) = strndup;

/* One parser run on one seed; returns its ERR_* code and frees what it
 * produced. */
typedef int (*sweep_fn)(const uint8_t *d, size_t len);

static size_t
read_seed(const char *rel, uint8_t *buf)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/fuzz/corpus/%s",
	    top != NULL ? top : "..", rel);
	if ((f = fopen(path, "rb")) == NULL) {
		printf("# cannot open %s\n", path);
		return 0;
	}
	n = fread(buf, 1, SEED_MAX, f);
	fclose(f);
	return n;
}

/* Fail allocation 1, 2, ... n of fn(seed) in turn. */
static void
sweep(const char *rel, sweep_fn fn)
{
	static uint8_t buf[SEED_MAX];
	size_t len, n, k, ours = 0, crypto = 0;
	int r;

	if ((len = read_seed(rel, buf)) == 0) {
		T_FAIL_AT("seed %s unreadable", rel);
		return;
	}
	failmalloc_arm(0);
	r = fn(buf, len);
	n = failmalloc_disarm();
	T_EQ_ERR(r, ERR_OK);
	T_TRUE(n > 0);
	for (k = 1; k <= n; k++) {
		failmalloc_arm(k);
		r = fn(buf, len);
		failmalloc_disarm();
		if (failmalloc_injected() == FAILMALLOC_OURS) {
			ours++;
			if (r != ERR_NOMEM)
				T_FAIL_AT("%s: allocation %zu of %zu (ours) "
					  "failed: %s, expected ERR_NOMEM",
				    rel, k, n, err_name(r));
		} else if (failmalloc_injected() == FAILMALLOC_CRYPTO) {
			crypto++;
			T_TRUE(r <= ERR_OK && r >= ERR_LAST);
		}
	}
	printf("# %s: %zu allocations failed in turn (%zu ours, %zu in "
	       "OpenSSL)\n",
	    rel, n, ours, crypto);
}

static int
run_authfile(const uint8_t *d, size_t len)
{
	struct cred *c = NULL;
	char *line = NULL;
	size_t n = 0, bad = 0;
	int r;

	r = authfile_find((const char *)d, len, "alice", &c, &n, &bad);
	if (r == ERR_OK && (c == NULL || (c[0].flags & CRED_APPID) == 0))
		r = authfile_format_line("alice", c, n, &line);
	free(line);
	cred_free_list(c, n);
	return r;
}

/* The streaming scan (fuzz_authscan) over pieces of whole lines of at
 * least 300 bytes (AVX2 blocks), each copied with its NUL. */
static int
run_authscan(const uint8_t *d, size_t len)
{
	struct authfile_scan sc;
	struct cred *c = NULL;
	char piece[8192];
	const uint8_t *nl;
	size_t off = 0, end, n = 0, bad = 0;
	int r;

	(void)authfile_scan_init(&sc, "alice");
	while (off < len) {
		nl = NULL;
		if (len - off > 300)
			nl = memchr(d + off + 300, '\n', len - off - 300);
		end = nl != NULL ? (size_t)(nl - d) + 1 : len;
		if (end - off >= sizeof(piece))
			return ERR_INVAL; /* seeds have shorter lines */
		memcpy(piece, d + off, end - off);
		piece[end - off] = '\0';
		(void)authfile_scan_lines_nt(&sc, piece, end - off);
		off = end;
	}
	r = authfile_scan_end(&sc, &c, &n, &bad);
	cred_free_list(c, n);
	return r;
}

static int
run_sshkey(const uint8_t *d, size_t len)
{
	struct cred c;
	int r;

	r = sshkey_parse((const char *)d, len, &c);
	if (r == ERR_OK)
		cred_clear(&c);
	return r;
}

static int
run_manual(const uint8_t *d, size_t len)
{
	struct assertion as;

	return manualkat_verify_text(d, len, &manualkat_up, &as);
}

/* fuzz_es256's input layout: point, message length, message, signature;
 * the direct ES256 check (the one the module uses) when it is built. */
static int
run_es256(const uint8_t *d, size_t len)
{
	size_t ml;

	if (len < 66 || (ml = d[65]) > len - 66)
		return ERR_INVAL;
#if DIRECT_VERIFY
	return crypto_es256_verify_direct(
	    d, d + 66, ml, d + 66 + ml, len - 66 - ml);
#else
	return crypto_verify(
	    COSE_ES256, d, 65, d + 66, ml, d + 66 + ml, len - 66 - ml);
#endif
}

/* A signature that must be refused stays refused whichever allocation
 * fails: an error path never turns into ERR_OK. */
static void
sweep_refused(const char *rel, sweep_fn fn)
{
	static uint8_t buf[SEED_MAX];
	size_t len, n, k, accepted = 0;

	if ((len = read_seed(rel, buf)) == 0) {
		T_FAIL_AT("seed %s unreadable", rel);
		return;
	}
	failmalloc_arm(0);
	T_EQ_ERR(fn(buf, len), ERR_VERIFY);
	n = failmalloc_disarm();
	T_TRUE(n > 0);
	for (k = 1; k <= n; k++) {
		failmalloc_arm(k);
		accepted += fn(buf, len) == ERR_OK;
		failmalloc_disarm();
	}
	T_EQ_INT(accepted, 0);
	printf("# %s: %zu allocations failed in turn, refused each time\n", rel,
	    n);
}

static int
run_u2f_register(const uint8_t *d, size_t len)
{
	struct u2f_reg reg;
	int r;

	r = u2f_parse_register(d, len, &reg);
	u2f_reg_clear(&reg);
	return r;
}

static int
run_b64(const uint8_t *d, size_t len)
{
	uint8_t *bin = NULL;
	char *txt = NULL;
	size_t n = 0;
	int r;

	if ((r = b64_decode((const char *)d, len, &bin, &n)) == ERR_OK)
		r = b64url_encode(bin, n, &txt);
	free(bin);
	free(txt);
	return r;
}

static int
run_args(const uint8_t *d, size_t len)
{
	const char *argv[16];
	char copy[1024];
	struct options o;
	int argc = 0, r;
	char *p, *save = NULL;

	if (len >= sizeof(copy))
		return ERR_TOO_BIG;
	memcpy(copy, d, len);
	copy[len] = '\0';
	for (p = strtok_r(copy, "\n", &save); p != NULL && argc < 16;
	     p = strtok_r(NULL, "\n", &save))
		argv[argc++] = p;
	r = args_parse(&o, argc, argv, NULL);
	args_free(&o);
	return r;
}

/* vclock: a sleep takes no time but moves the monotonic clock. That it
 * did not sleep shows in the thread's voluntary context switches (a real
 * nanosleep blocks: one at least), not in a wall-clock bound. */
static void
sleep_is_virtual(void)
{
	struct rusage ru0, ru1;
	int64_t t0;

	t0 = util_now_ms();
	T_EQ_INT(getrusage(RUSAGE_THREAD, &ru0), 0);
	util_sleep_ms(5000);
	T_EQ_INT(getrusage(RUSAGE_THREAD, &ru1), 0);
	T_TRUE(util_now_ms() - t0 >= 5000);
	T_EQ_INT(ru1.ru_nvcsw - ru0.ru_nvcsw, 0);
	T_EQ_INT(util_ms_left(t0 + 4000), 0);
}

/* Must run before anything makes OpenSSL allocate. */
static void
openssl_hook_installs_first(void)
{
	T_EQ_INT(failmalloc_init(), 0);
}

static int
run_conf(const uint8_t *d, size_t len)
{
	struct conf c;
	char err[256];
	int r;

	r = conf_parse_mem("full", (const char *)d, len, &c, err, sizeof(err));
	conf_free(&c);
	return r;
}

static void
wrappers_fail_the_nth_call(void)
{
	void *p;
	char *s;

	failmalloc_arm(2);
	p = p_malloc(8);
	s = p_strdup("x");
	T_EQ_INT(failmalloc_disarm(), 2);
	T_TRUE(p != NULL && s == NULL);
	T_EQ_INT(failmalloc_injected(), FAILMALLOC_OURS);
	free(p);
	failmalloc_arm(1);
	T_TRUE(p_calloc(1, 1) == NULL);
	failmalloc_arm(1);
	T_TRUE(p_realloc(NULL, 1) == NULL);
	failmalloc_arm(1);
	T_TRUE(p_reallocarray(NULL, 1, 1) == NULL);
	failmalloc_arm(1);
	T_TRUE(p_strndup("abc", 2) == NULL);
	failmalloc_disarm();
}

static void
production_code_is_wrapped(void)
{
	uint8_t *out = NULL;
	size_t n = 0;

	failmalloc_arm(1);
	T_EQ_ERR(b64_decode("QUJD", 4, &out, &n), ERR_NOMEM);
	T_EQ_INT(failmalloc_disarm(), 1);
	T_EQ_INT(failmalloc_injected(), FAILMALLOC_OURS);
	T_TRUE(out == NULL);
}

static void
openssl_is_counted(void)
{
	static uint8_t buf[SEED_MAX];
	size_t len, cl = 0;
	int r;

	len = read_seed("u2f/register_kat", buf);
	T_TRUE(len > 67 + 64);
	failmalloc_arm(0);
	r = crypto_cert_len(buf + 67 + 64, len - 67 - 64, &cl);
	T_TRUE(failmalloc_disarm() > 0);
	T_EQ_ERR(r, ERR_OK);
	T_EQ_INT(cl, 320);
	failmalloc_arm(1);
	r = crypto_cert_len(buf + 67 + 64, len - 67 - 64, &cl);
	failmalloc_disarm();
	T_EQ_INT(failmalloc_injected(), FAILMALLOC_CRYPTO);
	T_TRUE(r != ERR_OK);
}

static int
ignores_failure(void)
{
	void *p = p_malloc(16);

	free(p);
	return ERR_OK;
}

static void
fuzz_call_catches_ignored_failure(void)
{
	pid_t pid;
	int st = 0, r;

	fflush(stdout);
	if ((pid = fork()) == 0) {
		if (freopen("/dev/null", "w", stderr) == NULL)
			_exit(2);
		failmalloc_arm(1);
		FUZZ_CALL(r, ignores_failure());
		_exit(r == ERR_OK ? 0 : 1);
	}
	T_TRUE(pid > 0 && waitpid(pid, &st, 0) == pid);
	T_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
}

static void
sweep_authfile(void)
{
	sweep("authfile/current", run_authfile);
	sweep("authfile/old", run_authfile);
	sweep("authfile/multi", run_authfile);
	sweep("authfile/rs256", run_authfile);
	sweep("authfile/file", run_authfile);
}

static void
sweep_authscan(void)
{
	sweep("authscan/first", run_authscan);
	sweep("authscan/comments_crlf", run_authscan);
	sweep("authscan/two_alices", run_authscan);
	sweep("authscan/long_line", run_authscan);
}

static void
sweep_sshkey(void)
{
	sweep("sshkey/sshkey_ecdsa_sk", run_sshkey);
	sweep("sshkey/sshkey_ed25519_sk", run_sshkey);
}

static void
sweep_manual(void)
{
	sweep("manual/valid", run_manual);
}

static void
sweep_es256(void)
{
	sweep("es256/valid", run_es256);
	sweep_refused("es256/s_plus_n", run_es256);
	sweep_refused("es256/other_msg", run_es256);
}

static void
sweep_u2f_register(void)
{
	sweep("u2f/register_kat", run_u2f_register);
}

static void
sweep_b64(void)
{
	sweep("b64/std", run_b64);
}

static void
sweep_conf(void)
{
	sweep("conf/full", run_conf);
}

static void
sweep_args(void)
{
	sweep("args/typical", run_args);
	sweep("args/values", run_args);
	sweep("args/ssh", run_args);
}

TEST_MAIN(TEST(openssl_hook_installs_first), TEST(wrappers_fail_the_nth_call),
    TEST(production_code_is_wrapped), TEST(openssl_is_counted),
    TEST(fuzz_call_catches_ignored_failure), TEST(sweep_authfile),
    TEST(sweep_authscan), TEST(sweep_sshkey), TEST(sweep_manual),
    TEST(sweep_es256), TEST(sweep_u2f_register), TEST(sweep_b64),
    TEST(sweep_conf), TEST(sweep_args), TEST(sleep_is_virtual))
