/* SPDX-License-Identifier: BSD-2-Clause */
/* base/cbor: the canonical writer against an independent encoder
 * (python3-fido2 0.9.1's fido2.cbor.encode, outputs recorded below), and
 * the strict reader against every kind of non-canonical or malformed
 * input. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/cbor.h"
#include "base/err.h"
#include "test.h"

/* fido2.cbor.encode({1: 'example.com', 2: b'\x01' * 32, 3: [{'id':
 * b'\xaa\xbb', 'type': 'public-key'}], 5: {'up': False, 'uv': True}, 7: 2,
 * -1: 'x', 'clientPin': True, 'up': 1}) */
static const char ga_hex[] =
    "a8016b6578616d706c652e636f6d0258200101010101010101010101010101010101"
    "0101010101010101010101010101010381a262696442aabb64747970656a7075626c"
    "69632d6b657905a2627570f4627576f507022061786275700169636c69656e745069"
    "6ef5";

/* fido2.cbor.encode([0, 23, 24, 255, 256, 65535, 65536, 4294967295,
 * 4294967296, -1, -24, -25, -256, -257]) */
static const char ints_hex[] = "8e0017181818ff19010019ffff1a000100001affffff"
			       "ff1b00000001000000002037381838ff390100";
static const int64_t ints[] = {0, 23, 24, 255, 256, 65535, 65536, 4294967295,
    4294967296, -1, -24, -25, -256, -257};

static void
test_writer_matches_python_fido2(void)
{
	uint8_t buf[256], one[32];
	struct cbor_wr w;
	size_t len, explen;
	uint8_t *exp = test_unhex(ga_hex, &explen);

	memset(one, 1, sizeof(one));
	cbor_wr_init(&w, buf, sizeof(buf));
	cbor_put_map(&w, 8);
	cbor_put_uint(&w, 1);
	cbor_put_str(&w, "example.com");
	cbor_put_uint(&w, 2);
	cbor_put_bytes(&w, one, sizeof(one));
	cbor_put_uint(&w, 3);
	cbor_put_array(&w, 1);
	cbor_put_map(&w, 2);
	cbor_put_str(&w, "id");
	cbor_put_bytes(&w, "\xaa\xbb", 2);
	cbor_put_str(&w, "type");
	cbor_put_str(&w, "public-key");
	cbor_put_uint(&w, 5);
	cbor_put_map(&w, 2);
	cbor_put_str(&w, "up");
	cbor_put_bool(&w, false);
	cbor_put_str(&w, "uv");
	cbor_put_bool(&w, true);
	cbor_put_uint(&w, 7);
	cbor_put_uint(&w, 2);
	cbor_put_int(&w, -1);
	cbor_put_str(&w, "x");
	cbor_put_str(&w, "up");
	cbor_put_uint(&w, 1);
	cbor_put_str(&w, "clientPin");
	cbor_put_bool(&w, true);
	T_EQ_ERR(cbor_wr_end(&w, &len), ERR_OK);
	T_EQ_INT(len, explen);
	T_EQ_MEM(buf, exp, explen);
	T_EQ_ERR(cbor_check(buf, len), ERR_OK);
	free(exp);
}

static void
test_integers_shortest_both_ways(void)
{
	uint8_t buf[128];
	struct cbor_wr w;
	struct cbor_rd r;
	size_t len, explen, n, i;
	int64_t v;
	uint8_t *exp = test_unhex(ints_hex, &explen);

	cbor_wr_init(&w, buf, sizeof(buf));
	cbor_put_array(&w, sizeof(ints) / sizeof(ints[0]));
	for (i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		cbor_put_int(&w, ints[i]);
	T_EQ_ERR(cbor_wr_end(&w, &len), ERR_OK);
	T_EQ_INT(len, explen);
	T_EQ_MEM(buf, exp, explen);
	T_EQ_ERR(cbor_check(exp, explen), ERR_OK);
	cbor_rd_init(&r, exp, explen);
	T_EQ_ERR(cbor_get_array(&r, &n), ERR_OK);
	T_EQ_INT(n, sizeof(ints) / sizeof(ints[0]));
	for (i = 0; i < n; i++) {
		T_EQ_ERR(cbor_get_int(&r, &v), ERR_OK);
		T_EQ_INT(v, ints[i]);
	}
	T_TRUE(cbor_rd_done(&r));
	free(exp);
}

/* Each of these must be refused by cbor_check. */
static const struct {
	const char *hex, *why;
} bad[] = {
    {"", "empty"},
    {"1817", "23 in two bytes"},
    {"190017", "23 in three bytes"},
    {"1900ff", "255 in three bytes"},
    {"1a0000ffff", "65535 in five bytes"},
    {"1b00000000ffffffff", "2^32-1 in nine bytes"},
    {"3817", "-24 in two bytes"},
    {"5801ff", "1-byte string with a 2-byte head"},
    {"5f41ffff", "indefinite byte string"},
    {"9fff", "indefinite array"},
    {"bfff", "indefinite map"},
    {"1c", "reserved additional information 28"},
    {"c240", "tag"},
    {"f6", "null"},
    {"f7", "undefined"},
    {"f93c00", "half float"},
    {"f814", "simple value in two bytes"},
    {"0000", "trailing byte"},
    {"a20101", "map shorter than its count"},
    {"a202010101", "keys out of order (2 before 1)"},
    {"a201010101", "duplicate key"},
    {"a2617a01616101", "text keys out of order (z before a)"},
    {"a26161010101", "text key before an integer key"},
    {"a262616101616202", "shorter key after longer key"},
    {"a1a001", "map as a key"},
    {"a18001", "array as a key"},
    {"a1f501", "true as a key"},
    {"62c328", "invalid UTF-8 (c3 28)"},
    {"62c0af", "overlong UTF-8"},
    {"63eda080", "UTF-8 surrogate"},
    {"64f4908080", "UTF-8 above U+10FFFF"},
    {"43ff", "byte string longer than the input"},
    {"9a00010000", "array count far beyond the input"},
    {"818181818181818181818100", "nesting deeper than 8"},
};

static void
test_check_refuses_noncanonical_and_malformed(void)
{
	size_t i, len;
	uint8_t *p;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		p = test_unhex(bad[i].hex, &len);
		if (cbor_check(p, len) == ERR_OK)
			T_FAIL_AT("accepted: %s (%s)", bad[i].why, bad[i].hex);
		free(p);
	}
}

static void
test_check_accepts_canonical(void)
{
	static const char *const ok[] = {"00", "20", "40", "60", "80", "a0",
	    "f4", "f5", "6449455446", "a2026161036162", "a3010120616139010002",
	    "818181818181818100", "62c3a9", "64f0908d88"};
	size_t i, len;
	uint8_t *p;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		p = test_unhex(ok[i], &len);
		if (cbor_check(p, len) != ERR_OK)
			T_FAIL_AT("refused: %s", ok[i]);
		free(p);
	}
}

static void
test_writer_overflow_is_sticky(void)
{
	uint8_t buf[4];
	struct cbor_wr w;
	size_t len = 99;

	cbor_wr_init(&w, buf, sizeof(buf));
	cbor_put_bytes(&w, "abcdef", 6);
	cbor_put_uint(&w, 1);
	T_EQ_ERR(cbor_wr_end(&w, &len), ERR_TOO_BIG);
	T_EQ_INT(len, 99);
	cbor_wr_init(&w, buf, sizeof(buf));
	cbor_put_bytes(&w, "abc", 3);
	T_EQ_ERR(cbor_wr_end(&w, &len), ERR_OK);
	T_EQ_INT(len, 4);
}

static void
test_reader_walks_and_skips(void)
{
	size_t len, n, blen, tlen;
	uint8_t *p = test_unhex(ga_hex, &len);
	struct cbor_rd r;
	const uint8_t *b, *raw;
	const char *t;
	uint64_t k;
	enum cbor_type ty;
	bool v;

	cbor_rd_init(&r, p, len);
	T_EQ_ERR(cbor_get_array(&r, &n), ERR_PARSE); /* a map, not moved */
	T_EQ_ERR(cbor_get_map(&r, &n), ERR_OK);
	T_EQ_INT(n, 8);
	T_EQ_ERR(cbor_get_uint(&r, &k), ERR_OK);
	T_EQ_INT(k, 1);
	T_EQ_ERR(cbor_get_text(&r, &t, &tlen), ERR_OK);
	T_TRUE(tlen == 11 && memcmp(t, "example.com", 11) == 0);
	T_EQ_ERR(cbor_get_uint(&r, &k), ERR_OK);
	T_EQ_ERR(cbor_get_bytes(&r, &b, &blen), ERR_OK);
	T_EQ_INT(blen, 32);
	T_EQ_ERR(cbor_get_uint(&r, &k), ERR_OK);
	T_EQ_ERR(cbor_get_raw(&r, &raw, &blen), ERR_OK); /* the allow list */
	T_EQ_INT(blen, 1 + 1 + 3 + 3 + 5 + 11);
	T_EQ_INT(raw[0], 0x81);
	T_EQ_ERR(cbor_get_uint(&r, &k), ERR_OK);
	T_EQ_INT(k, 5);
	T_EQ_ERR(cbor_get_map(&r, &n), ERR_OK);
	T_TRUE(!cbor_take_text_key(&r, "uv"));
	T_TRUE(cbor_take_text_key(&r, "up"));
	T_EQ_ERR(cbor_get_bool(&r, &v), ERR_OK);
	T_TRUE(!v);
	T_TRUE(cbor_take_text_key(&r, "uv"));
	T_EQ_ERR(cbor_get_bool(&r, &v), ERR_OK);
	T_TRUE(v);
	T_EQ_ERR(cbor_peek(&r, &ty), ERR_OK);
	T_EQ_INT(ty, CBOR_UINT);
	for (n = 0; n < 7; n++) /* 7: 2, -1: "x", "up": 1, "clientPin" */
		T_EQ_ERR(cbor_skip(&r), ERR_OK);
	T_EQ_ERR(cbor_get_bool(&r, &v), ERR_OK);
	T_TRUE(cbor_rd_done(&r));
	T_EQ_ERR(cbor_skip(&r), ERR_PARSE);
	T_EQ_ERR(cbor_peek(&r, &ty), ERR_PARSE);
	free(p);
}

/* The cursor stays inside its input whatever the bytes say. */
static void
test_reader_bounded_on_unchecked_input(void)
{
	static const uint8_t trunc[] = {0x5a, 0xff, 0xff, 0xff, 0xff, 0x00};
	static const uint8_t deep[] = {
	    0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x00};
	static const uint8_t neg[] = {0x3b, 0x80, 0, 0, 0, 0, 0, 0, 0};
	struct cbor_rd r;
	const uint8_t *b;
	size_t n;
	int64_t v;

	cbor_rd_init(&r, trunc, sizeof(trunc));
	T_EQ_ERR(cbor_get_bytes(&r, &b, &n), ERR_PARSE);
	T_EQ_ERR(cbor_skip(&r), ERR_PARSE);
	T_EQ_INT(r.pos, 0);
	cbor_rd_init(&r, deep, sizeof(deep));
	T_EQ_ERR(cbor_skip(&r), ERR_PARSE);
	T_EQ_INT(r.pos, 0);
	cbor_rd_init(&r, neg, sizeof(neg)); /* -2^63 - 1: beyond int64 */
	T_EQ_ERR(cbor_get_int(&r, &v), ERR_PARSE);
	cbor_rd_init(&r, NULL, 5);
	T_EQ_ERR(cbor_skip(&r), ERR_PARSE);
	T_TRUE(cbor_rd_done(&r));
}

static void
test_limits(void)
{
	uint8_t buf[8 + 2 * (CBOR_MAX_COUNT + 1)];
	struct cbor_wr w;
	size_t len, i;

	cbor_wr_init(&w, buf, sizeof(buf));
	cbor_put_array(&w, CBOR_MAX_COUNT + 1);
	for (i = 0; i < CBOR_MAX_COUNT + 1; i++)
		cbor_put_uint(&w, 0);
	T_EQ_ERR(cbor_wr_end(&w, &len), ERR_OK);
	T_EQ_ERR(cbor_check(buf, len), ERR_TOO_BIG);
	cbor_wr_init(&w, buf, sizeof(buf));
	cbor_put_array(&w, CBOR_MAX_COUNT);
	for (i = 0; i < CBOR_MAX_COUNT; i++)
		cbor_put_uint(&w, 0);
	T_EQ_ERR(cbor_wr_end(&w, &len), ERR_OK);
	T_EQ_ERR(cbor_check(buf, len), ERR_OK);
}

TEST_MAIN(TEST(test_writer_matches_python_fido2),
    TEST(test_integers_shortest_both_ways),
    TEST(test_check_refuses_noncanonical_and_malformed),
    TEST(test_check_accepts_canonical), TEST(test_writer_overflow_is_sticky),
    TEST(test_reader_walks_and_skips),
    TEST(test_reader_bounded_on_unchecked_input), TEST(test_limits))
