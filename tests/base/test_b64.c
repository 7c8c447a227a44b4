/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of common/base/b64.c: base64 in both alphabets (standard
 * and URL-safe) against RFC 4648's vectors, each alphabet refusing the
 * other's characters, padding and stray bytes, decoding by length (not
 * up to a NUL), round trips at every length, and hex with its refusals.
 * Its own program because the encodings are leaves every parser of keys
 * and mapping lines stands on. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/b64.h"
#include "base/err.h"
#include "test.h"

/* RFC 4648 section 10. */
static const struct {
	const char *plain, *std, *url;
} vec[] = {
    {"", "", ""},
    {"f", "Zg==", "Zg"},
    {"fo", "Zm8=", "Zm8"},
    {"foo", "Zm9v", "Zm9v"},
    {"foob", "Zm9vYg==", "Zm9vYg"},
    {"fooba", "Zm9vYmE=", "Zm9vYmE"},
    {"foobar", "Zm9vYmFy", "Zm9vYmFy"},
};

static void
test_rfc4648_vectors(void)
{
	size_t i, len;
	uint8_t *bin;
	char *s;

	for (i = 0; i < sizeof(vec) / sizeof(vec[0]); i++) {
		T_EQ_ERR(b64_encode((const uint8_t *)vec[i].plain,
			     strlen(vec[i].plain), &s),
		    ERR_OK);
		T_EQ_STR(s, vec[i].std);
		free(s);
		T_EQ_ERR(b64url_encode((const uint8_t *)vec[i].plain,
			     strlen(vec[i].plain), &s),
		    ERR_OK);
		T_EQ_STR(s, vec[i].url);
		free(s);
		T_EQ_ERR(b64_decode(vec[i].std, strlen(vec[i].std), &bin, &len),
		    ERR_OK);
		T_EQ_INT(len, strlen(vec[i].plain));
		T_EQ_MEM(bin, vec[i].plain, len);
		free(bin);
		T_EQ_ERR(
		    b64url_decode(vec[i].url, strlen(vec[i].url), &bin, &len),
		    ERR_OK);
		T_EQ_INT(len, strlen(vec[i].plain));
		T_EQ_MEM(bin, vec[i].plain, len);
		free(bin);
	}
}

static void
test_alphabets_differ(void)
{
	static const uint8_t in[] = {0xfb, 0xff, 0xbf};
	uint8_t *bin = NULL;
	size_t len = 0;
	char *s;

	T_EQ_ERR(b64_encode(in, sizeof(in), &s), ERR_OK);
	T_EQ_STR(s, "+/+/");
	free(s);
	T_EQ_ERR(b64url_encode(in, sizeof(in), &s), ERR_OK);
	T_EQ_STR(s, "-_-_");
	free(s);
	T_EQ_ERR(b64_decode("-_-_", 4, &bin, &len), ERR_PARSE);
	T_TRUE(bin == NULL);
	T_EQ_ERR(b64url_decode("+/+/", 4, &bin, &len), ERR_PARSE);
	T_TRUE(bin == NULL);
}

static void
test_std_rejects(void)
{
	static const char *bad[] = {
	    "Zg=",  /* not a multiple of 4 */
	    "Zg",   /* padding missing */
	    "Zh==", /* non-zero trailing bits (4) */
	    "Zm9=", /* non-zero trailing bits (2) */
	    "Z===", /* too much padding */
	    "====",
	    "=Zg=",     /* padding first */
	    "Zg=a",     /* padding in the middle */
	    "Zg==Zg==", /* padding then more */
	    "Zm9v\n",   /* whitespace */
	    "Zm 9v",
	    " Zm9v",
	    "Zm9v\r\n",
	    "Zm9*", /* outside the alphabet */
	    "Zm9\xc3",
	};
	uint8_t *bin = (uint8_t *)1;
	size_t i, len = 7;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		T_EQ_ERR(
		    b64_decode(bad[i], strlen(bad[i]), &bin, &len), ERR_PARSE);
		T_TRUE(bin == NULL);
		T_EQ_INT(len, 0);
	}
	/* A NUL inside the counted length is a bad character too. */
	T_EQ_ERR(b64_decode("Zm\0v", 4, &bin, &len), ERR_PARSE);
}

static void
test_url_rejects(void)
{
	static const char *bad[] = {
	    "Zg==", /* no padding allowed */
	    "Zg=",
	    "Z", /* one character cannot hold a byte */
	    "Zm9vY",
	    "Zh", /* non-zero trailing bits */
	    "Zm9",
	    "Zm9v\n",
	    "Zm 9",
	    "Zm9/",
	    "Zm9+",
	};
	uint8_t *bin = NULL;
	size_t i, len;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		T_EQ_ERR(b64url_decode(bad[i], strlen(bad[i]), &bin, &len),
		    ERR_PARSE);
		T_TRUE(bin == NULL);
	}
}

static void
test_decode_uses_len_not_nul(void)
{
	uint8_t *bin;
	size_t len;

	/* Only the first 4 characters count. */
	T_EQ_ERR(b64_decode("Zm9v!!!!", 4, &bin, &len), ERR_OK);
	T_EQ_INT(len, 3);
	T_EQ_MEM(bin, "foo", 3);
	free(bin);
	T_EQ_ERR(b64url_decode("Zm8=", 3, &bin, &len), ERR_OK);
	T_EQ_INT(len, 2);
	T_EQ_MEM(bin, "fo", 2);
	free(bin);
}

static void
test_round_trip_all_lengths(void)
{
	uint8_t in[300], *bin;
	size_t n, len;
	char *s;

	for (n = 0; n < sizeof(in); n++)
		in[n] = (uint8_t)(n * 37 + 11);
	for (n = 0; n <= sizeof(in); n++) {
		T_EQ_ERR(b64_encode(in, n, &s), ERR_OK);
		T_EQ_INT(strlen(s), (n + 2) / 3 * 4);
		T_EQ_ERR(b64_decode(s, strlen(s), &bin, &len), ERR_OK);
		T_EQ_INT(len, n);
		T_EQ_MEM(bin, in, n);
		free(bin);
		free(s);
		T_EQ_ERR(b64url_encode(in, n, &s), ERR_OK);
		T_TRUE(strpbrk(s, "=+/") == NULL);
		T_EQ_ERR(b64url_decode(s, strlen(s), &bin, &len), ERR_OK);
		T_EQ_INT(len, n);
		T_EQ_MEM(bin, in, n);
		free(bin);
		free(s);
	}
}

static void
test_hex(void)
{
	static const uint8_t want[] = {0x00, 0x0a, 0xbc, 0xff};
	uint8_t *bin;
	size_t len;
	char *s;

	T_EQ_ERR(hex_encode(want, sizeof(want), &s), ERR_OK);
	T_EQ_STR(s, "000abcff");
	free(s);
	T_EQ_ERR(hex_decode("000abcff", 8, &bin, &len), ERR_OK);
	T_EQ_INT(len, 4);
	T_EQ_MEM(bin, want, 4);
	free(bin);
	T_EQ_ERR(hex_decode("000ABCFF", 8, &bin, &len), ERR_OK);
	T_EQ_INT(len, 4);
	T_EQ_MEM(bin, want, 4);
	free(bin);
	T_EQ_ERR(hex_decode("000aBcFf", 8, &bin, &len), ERR_OK);
	T_EQ_MEM(bin, want, 4);
	free(bin);
	T_EQ_ERR(hex_decode("", 0, &bin, &len), ERR_OK);
	T_EQ_INT(len, 0);
	free(bin);
	T_EQ_ERR(hex_encode(NULL, 0, &s), ERR_OK);
	T_EQ_STR(s, "");
	free(s);
}

static void
test_hex_rejects(void)
{
	static const char *bad[] = {
	    "0", "abc", "0g", "g0", " 00", "00 ", "0x00", "+1"};
	uint8_t *bin = NULL;
	size_t i, len;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		T_EQ_ERR(
		    hex_decode(bad[i], strlen(bad[i]), &bin, &len), ERR_PARSE);
		T_TRUE(bin == NULL);
	}
}

TEST_MAIN(TEST(test_rfc4648_vectors), TEST(test_alphabets_differ),
    TEST(test_std_rejects), TEST(test_url_rejects),
    TEST(test_decode_uses_len_not_nul), TEST(test_round_trip_all_lengths),
    TEST(test_hex), TEST(test_hex_rejects))
