/* SPDX-License-Identifier: BSD-2-Clause */
/* devcheck: the device-level operations through a chosen transport
 * backend, for the VM stage (real hidraw nodes). Never installed.
 *
 *   devcheck [-b native|libu2f-host] [-o ORIGIN] [-t MS] [-v] list
 *   devcheck [options] register FILE    register, save the credential
 *   devcheck [options] probe FILE       which device holds it (no touch)
 *   devcheck [options] auth FILE        one verified assertion
 *
 * Prints "ok ..." on success; on failure "error: ERR_NAME" on stderr and
 * exit status 1 (2 for bad usage). -v logs the library's lines to stderr.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auth/auth.h"
#include "device/dev.h"
#include "base/err.h"

#define DC_OPEN_MS 2000
#define DC_HEX_MAX (2 * 255 + 1)

struct dc {
	enum dev_backend backend;
	const char *origin;
	int ms;
	struct log log;
	struct dev **devs;
	size_t ndevs;
};

static void
dc_log(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "devcheck: %s\n", line);
}

static void
hex_put(FILE *f, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%02x", p[i]);
}

static int
hex_get(const char *s, uint8_t **out, size_t *n)
{
	size_t len = strlen(s), i;
	unsigned v;

	if (len == 0 || len % 2 != 0 || (*out = malloc(len / 2)) == NULL)
		return ERR_PARSE;
	for (i = 0; i < len / 2; i++) {
		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return ERR_PARSE;
		(*out)[i] = (uint8_t)v;
	}
	*n = len / 2;
	return ERR_OK;
}

static int
cred_load(const char *path, struct cred *c)
{
	char kh[DC_HEX_MAX + 1], pk[DC_HEX_MAX + 1];
	FILE *f;
	int r = ERR_PARSE;

	memset(c, 0, sizeof(*c));
	if ((f = fopen(path, "r")) == NULL)
		return ERR_FILE;
	if (fscanf(f, "%511s %511s", kh, pk) == 2 &&
	    hex_get(kh, &c->kh, &c->kh_len) == ERR_OK &&
	    hex_get(pk, &c->pk, &c->pk_len) == ERR_OK) {
		c->type = COSE_ES256;
		c->flags = CRED_PRESENCE;
		r = ERR_OK;
	}
	fclose(f);
	return r;
}

static int
cmd_list(struct dc *dc)
{
	size_t i;

	for (i = 0; i < dc->ndevs; i++)
		printf("%s %s %s\n", xport_path(dc->devs[i]->ctx.x),
		    xport_name(dc->devs[i]->ctx.x), dc->devs[i]->proto->name);
	printf("%zu device(s)\n", dc->ndevs);
	return dc->ndevs > 0 ? ERR_OK : ERR_NO_KEY;
}

static int
cmd_register(struct dc *dc, const char *path)
{
	struct reg_req req;
	struct reg_result res;
	size_t which = 0;
	FILE *f;
	int r;

	memset(&req, 0, sizeof(req));
	req.rp_id = dc->origin;
	req.type = COSE_ES256;
	req.presence = true;
	if ((r = util_random(req.cdh, sizeof(req.cdh))) != ERR_OK)
		return r;
	if ((r = auth_register(dc->devs, dc->ndevs, &req, &res, &which,
		 &dc->log, dc->ms)) != ERR_OK)
		return r;
	if ((f = fopen(path, "w")) == NULL) {
		r = ERR_FILE;
	} else {
		hex_put(f, res.cred.kh, res.cred.kh_len);
		fputc(' ', f);
		hex_put(f, res.cred.pk, res.cred.pk_len);
		fputc('\n', f);
		r = fclose(f) == 0 ? ERR_OK : ERR_FILE;
		printf("ok registered on %s (cert %zu bytes)\n",
		    xport_path(dc->devs[which]->ctx.x), res.cert_len);
	}
	reg_result_clear(&res);
	return r;
}

static int
cmd_probe(struct dc *dc, const struct cred *c)
{
	size_t i;
	int r = ERR_WRONG_KH, ri;

	for (i = 0; i < dc->ndevs; i++) {
		ri = dev_probe(dc->devs[i], dc->origin, c, dc->ms);
		printf("%s %s\n", xport_path(dc->devs[i]->ctx.x), err_name(ri));
		if (ri == ERR_OK)
			r = ERR_OK;
		else if (r != ERR_OK && ri != ERR_WRONG_KH)
			r = ri;
	}
	if (r == ERR_OK)
		printf("ok held\n");
	return r;
}

static int
cmd_auth(struct dc *dc, const struct cred *c)
{
	struct auth_req req;
	struct auth_result res;
	int r;

	memset(&req, 0, sizeof(req));
	req.creds = c;
	req.ncreds = 1;
	req.origin = req.appid = dc->origin;
	req.presence = true;
	req.timeout_ms = dc->ms;
	req.log = &dc->log;
	if ((r = auth_run(dc->devs, dc->ndevs, &req, &res)) == ERR_OK)
		printf("ok counter %u flags %02x on %s\n",
		    res.assertion.counter, res.assertion.flags,
		    xport_path(dc->devs[res.dev_index]->ctx.x));
	auth_result_clear(&res);
	return r;
}

static int
run(struct dc *dc, const char *cmd, const char *file)
{
	struct cred c;
	int r;

	if (strcmp(cmd, "list") == 0)
		return cmd_list(dc);
	if (dc->ndevs == 0)
		return ERR_NO_KEY;
	if (strcmp(cmd, "register") == 0)
		return cmd_register(dc, file);
	if ((r = cred_load(file, &c)) == ERR_OK)
		r = strcmp(cmd, "probe") == 0 ? cmd_probe(dc, &c)
					      : cmd_auth(dc, &c);
	cred_clear(&c);
	return r;
}

static void
usage(void)
{
	fprintf(stderr,
	    "usage: devcheck [-b native|libu2f-host] "
	    "[-o origin] [-t ms] [-v] list | register|probe|auth FILE\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	struct dc dc;
	int ch, r, first = ERR_OK;

	memset(&dc, 0, sizeof(dc));
	dc.origin = "pam://vmtest";
	dc.ms = 5000;
	while ((ch = getopt(argc, argv, "b:o:t:v")) != -1) {
		switch (ch) {
		case 'b':
			if ((r = dev_backend_parse(optarg, &dc.backend)) !=
			    ERR_OK) {
				fprintf(stderr, "error: %s\n", err_name(r));
				return 2;
			}
			break;
		case 'o':
			dc.origin = optarg;
			break;
		case 't':
			dc.ms = atoi(optarg);
			break;
		case 'v':
			dc.log.fn = dc_log;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || (strcmp(argv[0], "list") != 0 && argc != 2) ||
	    (strcmp(argv[0], "list") != 0 && strcmp(argv[0], "register") != 0 &&
		strcmp(argv[0], "probe") != 0 && strcmp(argv[0], "auth") != 0))
		usage();
	r = dev_open_backend(dc.backend, NULL, 0, 0, &dc.log, DC_OPEN_MS, 0,
	    &dc.devs, &dc.ndevs, &first);
	if (r == ERR_OK)
		r = run(&dc, argv[0], argc > 1 ? argv[1] : NULL);
	dev_close_all(dc.devs, dc.ndevs);
	if (r != ERR_OK) {
		fprintf(stderr, "error: %s%s%s\n", err_name(r),
		    first != ERR_OK ? ", first open error " : "",
		    first != ERR_OK ? err_name(first) : "");
		return 1;
	}
	return 0;
}
