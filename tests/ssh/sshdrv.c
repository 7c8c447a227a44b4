/* SPDX-License-Identifier: BSD-2-Clause */
/* The ssh layer from the command line, for the scripts of tests/ssh/
 * (against a real ssh-agent, one forwarded by a real sshd, and the
 * hostile agent). The agent is $SSH_AUTH_SOCK; the user is getuid()
 * unless PU_SSH_UID names another uid.
 *   sshdrv auth KEYFILE [TIMEOUT_MS [uv]]  sshauth_run with the key
 *       lines of KEYFILE: "ok key=N flags=0xNN counter=N", or the error
 *       name; exit 0 only for ok. The library's log lines go to stderr.
 *   sshdrv list             sshagent_list_sk: one line per key
 *   sshdrv parse LINE       sshpub_parse, then sshpub_format: the line
 *   sshdrv sign KEYLINE NS  sign stdin under namespace NS through the
 *       agent, check it with sshsig_verify, print it as an armored
 *       SSHSIG (ssh-keygen -Y verify reads it)
 *   sshdrv verify KEYLINE NS SIGFILE  check an armored SSHSIG of
 *       stdin (ssh-keygen -Y sign made it) with sshsig_verify */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/b64.h"
#include "base/err.h"
#include "base/util.h"
#include "ssh/agent.h"
#include "ssh/ssh.h"
#include "ssh/sshsig.h"
#include "ssh/wire.h"

#define MAX_KEYS 16
#define MAX_IN (1 << 20)

static void
to_stderr(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "sshdrv: %s\n", line);
}

static const struct log lg = {to_stderr, NULL};

static uid_t
user_uid(void)
{
	const char *s = getenv("PU_SSH_UID");

	return s != NULL ? (uid_t)strtoul(s, NULL, 10) : getuid();
}

static int
fail(int r)
{
	printf("%s\n", err_name(r));
	return 1;
}

static int
read_keys(const char *path, struct sshpub *keys, size_t *n)
{
	char line[8192];
	FILE *f = fopen(path, "r");
	int r = ERR_OK;

	*n = 0;
	if (f == NULL)
		return ERR_FILE;
	while (r == ERR_OK && *n < MAX_KEYS && fgets(line, sizeof(line), f))
		if ((r = sshpub_parse(line, &keys[*n])) == ERR_OK)
			(*n)++;
	fclose(f);
	return r;
}

static void
cue(void *arg, const struct sshpub *k)
{
	(void)arg;
	fprintf(stderr, "sshdrv: touch the key on your own machine (%s)\n",
	    k->comment != NULL ? k->comment : "no comment");
}

static int
do_auth(int argc, char **argv)
{
	struct sshpub keys[MAX_KEYS];
	struct sshauth_req rq = {0};
	struct sshauth_res res;
	size_t n = 0, i;
	int r;

	if ((r = read_keys(argv[2], keys, &n)) != ERR_OK)
		return fail(r);
	rq.sock = getenv("SSH_AUTH_SOCK");
	rq.uid = user_uid();
	rq.user = "tester";
	rq.service = "sudo";
	rq.host = "testhost";
	rq.timeout_ms = argc > 3 ? atoi(argv[3]) : 10000;
	rq.need_uv = argc > 4 && strcmp(argv[4], "uv") == 0;
	rq.cue = cue;
	rq.lg = &lg;
	r = rq.sock == NULL ? ERR_INVAL : sshauth_run(&rq, keys, n, &res);
	if (r == ERR_OK)
		printf("ok key=%zu flags=0x%02x counter=%u\n", res.key,
		    res.flags, res.counter);
	for (i = 0; i < n; i++)
		sshpub_clear(&keys[i]);
	return r == ERR_OK ? 0 : fail(r);
}

static int
do_list(void)
{
	struct sshpub *keys = NULL;
	size_t n = 0, i;
	char *line;
	int r;

	r = sshagent_list_sk(
	    getenv("SSH_AUTH_SOCK"), user_uid(), 10000, &lg, &keys, &n);
	for (i = 0; r == ERR_OK && i < n; i++)
		if ((r = sshpub_format(&keys[i], &line)) == ERR_OK) {
			printf("%s\n", line);
			free(line);
		}
	sshpub_free_list(keys, n);
	return r == ERR_OK ? 0 : fail(r);
}

static int
do_parse(const char *s)
{
	struct sshpub k;
	char *line;
	int r;

	if ((r = sshpub_parse(s, &k)) != ERR_OK)
		return fail(r);
	if ((r = sshpub_format(&k, &line)) == ERR_OK) {
		printf("%s\n", line);
		free(line);
	}
	sshpub_clear(&k);
	return r == ERR_OK ? 0 : fail(r);
}

static int
read_all(FILE *f, uint8_t **out, size_t *len)
{
	uint8_t *buf = malloc(MAX_IN);
	size_t n;

	if (buf == NULL)
		return ERR_NOMEM;
	n = fread(buf, 1, MAX_IN, f);
	if (ferror(f) || n == MAX_IN) {
		free(buf);
		return ERR_FILE;
	}
	*out = buf;
	*len = n;
	return ERR_OK;
}

/* PROTOCOL.sshsig's blob around the agent's signature, armored. */
static int
print_armor(const struct sshpub *k, const char *ns, const struct wire *sig)
{
	struct wire w;
	char *b64 = NULL;
	size_t i, len;
	int r;

	wire_init(&w, MAX_IN);
	wire_put_raw(&w, SSHSIG_MAGIC, 6);
	wire_put_u32(&w, 1);
	wire_put_string(&w, k->blob, k->blob_len);
	wire_put_cstring(&w, ns);
	wire_put_cstring(&w, "");
	wire_put_cstring(&w, SSHAUTH_HASHALG);
	wire_put_string(&w, sig->p, sig->len);
	if ((r = w.err) == ERR_OK &&
	    (r = b64_encode(w.p, w.len, &b64)) == ERR_OK) {
		printf("-----BEGIN SSH SIGNATURE-----\n");
		for (i = 0, len = strlen(b64); i < len; i += 70)
			printf("%.70s\n", b64 + i);
		printf("-----END SSH SIGNATURE-----\n");
	}
	free(b64);
	wire_clear(&w);
	return r;
}

static int
do_sign(const char *keyline, const char *ns)
{
	struct sshsig_chal c = {0};
	struct wire sig;
	struct sshpub k;
	uint8_t *msg = NULL, flags;
	size_t len;
	uint32_t ctr;
	int fd = -1, r;

	wire_init(&sig, 0);
	if ((r = sshpub_parse(keyline, &k)) != ERR_OK)
		return fail(r);
	if ((r = read_all(stdin, &msg, &len)) == ERR_OK &&
	    (r = sshsig_data(ns, msg, len, &c)) == ERR_OK &&
	    (r = agent_connect(getenv("SSH_AUTH_SOCK"), user_uid(),
		 util_now_ms() + 10000, &lg, &fd)) == ERR_OK &&
	    (r = agent_sign(fd, k.blob, k.blob_len, c.data, c.data_len,
		 util_now_ms() + 10000, &sig)) == ERR_OK &&
	    (r = sshsig_verify(&k, c.data, c.data_len, sig.p, sig.len, &flags,
		 &ctr)) == ERR_OK)
		r = print_armor(&k, ns, &sig);
	if (fd >= 0)
		close(fd);
	free(msg);
	wire_clear(&sig);
	sshsig_chal_clear(&c);
	sshpub_clear(&k);
	return r == ERR_OK ? 0 : fail(r);
}

/* The base64 between the armor lines of an SSHSIG file, decoded. */
static int
dearmor(const char *path, uint8_t **blob, size_t *len)
{
	char line[256], b64[8192];
	size_t n = 0, l;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return ERR_FILE;
	while (fgets(line, sizeof(line), f) != NULL) {
		l = strcspn(line, "\r\n");
		if (line[0] == '-' || n + l >= sizeof(b64))
			continue;
		memcpy(b64 + n, line, l);
		n += l;
	}
	fclose(f);
	return b64_decode(b64, n, blob, len);
}

/* SSHSIG blob: magic, version 1, our key, ns, reserved, sha512, sig. */
static int
parse_sshsig(const uint8_t *p, size_t len, const struct sshpub *k,
    const char *ns, const uint8_t **sig, size_t *sig_len)
{
	const uint8_t *blob;
	size_t blob_len;
	struct rbuf rb;
	uint32_t ver;

	rbuf_init(&rb, p, len);
	if (rbuf_skip(&rb, 6) != ERR_OK || memcmp(p, SSHSIG_MAGIC, 6) != 0 ||
	    rbuf_get_u32be(&rb, &ver) != ERR_OK || ver != 1 ||
	    wire_get_string(&rb, &blob, &blob_len) != ERR_OK ||
	    blob_len != k->blob_len || memcmp(blob, k->blob, blob_len) != 0 ||
	    wire_get_string_is(&rb, ns) != ERR_OK ||
	    wire_get_string_is(&rb, "") != ERR_OK ||
	    wire_get_string_is(&rb, SSHAUTH_HASHALG) != ERR_OK ||
	    wire_get_string(&rb, sig, sig_len) != ERR_OK ||
	    rbuf_expect_end(&rb) != ERR_OK)
		return ERR_PARSE;
	return ERR_OK;
}

static int
do_verify(const char *keyline, const char *ns, const char *sigfile)
{
	struct sshsig_chal c = {0};
	struct sshpub k;
	uint8_t *msg = NULL, *blob = NULL, flags = 0;
	const uint8_t *sig;
	size_t len, blob_len = 0, sig_len;
	uint32_t ctr = 0;
	int r;

	if ((r = sshpub_parse(keyline, &k)) != ERR_OK)
		return fail(r);
	if ((r = read_all(stdin, &msg, &len)) == ERR_OK &&
	    (r = dearmor(sigfile, &blob, &blob_len)) == ERR_OK &&
	    (r = parse_sshsig(blob, blob_len, &k, ns, &sig, &sig_len)) ==
		ERR_OK &&
	    (r = sshsig_data(ns, msg, len, &c)) == ERR_OK &&
	    (r = sshsig_verify(
		 &k, c.data, c.data_len, sig, sig_len, &flags, &ctr)) == ERR_OK)
		printf("ok flags=0x%02x counter=%u\n", flags, ctr);
	free(msg);
	free(blob);
	sshsig_chal_clear(&c);
	sshpub_clear(&k);
	return r == ERR_OK ? 0 : fail(r);
}

int
main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "auth") == 0)
		return do_auth(argc, argv);
	if (argc == 2 && strcmp(argv[1], "list") == 0)
		return do_list();
	if (argc == 3 && strcmp(argv[1], "parse") == 0)
		return do_parse(argv[2]);
	if (argc == 4 && strcmp(argv[1], "sign") == 0)
		return do_sign(argv[2], argv[3]);
	if (argc == 5 && strcmp(argv[1], "verify") == 0)
		return do_verify(argv[2], argv[3], argv[4]);
	fprintf(stderr, "usage: sshdrv auth|list|parse|sign|verify ...\n");
	return 2;
}
