/* SPDX-License-Identifier: BSD-2-Clause */
/* genmap: mapping-file lines for the benchmarks (bench/run.sh).
 *
 *   genmap lines N PK      N lines "userNNNNNNN:KH,PK,es256,+presence"
 *   genmap user NAME K PK  one line for NAME with K such credentials
 *
 * KH is 64 pseudo-random bytes (a fixed-seed xorshift, so runs are
 * repeatable) in standard base64 (88 characters, like a real U2F key
 * handle); PK is given, the 88-character base64 of a P-256 point's x||y. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN_KH_LEN 64
#define GEN_B64_LEN (((GEN_KH_LEN + 2) / 3) * 4)

static const char gen_b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static uint64_t
gen_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
gen_b64_encode(const uint8_t *in, size_t len, char *out)
{
	size_t i, o = 0;
	uint32_t v;

	for (i = 0; i + 2 < len; i += 3) {
		v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 |
		    in[i + 2];
		out[o++] = gen_b64[v >> 18 & 63];
		out[o++] = gen_b64[v >> 12 & 63];
		out[o++] = gen_b64[v >> 6 & 63];
		out[o++] = gen_b64[v & 63];
	}
	if (len - i == 1) {
		v = (uint32_t)in[i] << 16;
		out[o++] = gen_b64[v >> 18 & 63];
		out[o++] = gen_b64[v >> 12 & 63];
		out[o++] = '=';
		out[o++] = '=';
	} else if (len - i == 2) {
		v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
		out[o++] = gen_b64[v >> 18 & 63];
		out[o++] = gen_b64[v >> 12 & 63];
		out[o++] = gen_b64[v >> 6 & 63];
		out[o++] = '=';
	}
	out[o] = '\0';
}

static void
gen_cred(uint64_t *seed, const char *pk, FILE *f)
{
	uint8_t kh[GEN_KH_LEN];
	char b64[GEN_B64_LEN + 1];
	uint64_t x;
	size_t i;

	for (i = 0; i < sizeof(kh); i += 8) {
		x = gen_next(seed);
		memcpy(kh + i, &x, 8);
	}
	gen_b64_encode(kh, sizeof(kh), b64);
	fprintf(f, "%s,%s,es256,+presence", b64, pk);
}

static int
gen_count(const char *s, unsigned long *out)
{
	char *end = NULL;

	*out = strtoul(s, &end, 10);
	return end != s && *end == '\0';
}

int
main(int argc, char **argv)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	unsigned long n, k, i;

	if (argc == 4 && strcmp(argv[1], "lines") == 0 &&
	    gen_count(argv[2], &n)) {
		for (i = 1; i <= n; i++) {
			printf("user%07lu:", i);
			gen_cred(&seed, argv[3], stdout);
			putchar('\n');
		}
	} else if (argc == 5 && strcmp(argv[1], "user") == 0 &&
	    gen_count(argv[3], &k)) {
		seed ^= 0x5bd1e995ULL;
		printf("%s", argv[2]);
		for (i = 0; i < k; i++) {
			putchar(':');
			gen_cred(&seed, argv[4], stdout);
		}
		putchar('\n');
	} else {
		fprintf(stderr,
		    "usage: genmap lines N PK | "
		    "genmap user NAME K PK\n");
		return 2;
	}
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
