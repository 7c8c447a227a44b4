/* SPDX-License-Identifier: BSD-2-Clause */
/* Attestation evidence (evidence.h): written at registration, read at
 * enrollment and at every login by common/policy/. A WebAuthn data
 * format like attest.c and authdata.c, so it sits beside them in proto/;
 * its own file because it is the one format we define ourselves. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/cbor.h"
#include "base/cred.h"
#include "base/err.h"
#include "cose.h"
#include "evidence.h"

#define CDH_LEN 32
#define U2F_POINT 65
#define U2F_KH_MAX 255
#define U2F_AD_MAX (32 + 1 + 4 + 16 + 2 + U2F_KH_MAX + 128)
#define U2F_STMT_MAX (EVIDENCE_MAX / 2)
#define EV_KEYS 5

int
evidence_encode(const char *fmt, size_t fmt_len, const uint8_t *stmt,
    size_t stmt_len, const uint8_t *authdata, size_t authdata_len,
    const uint8_t cdh[32], int64_t time, uint8_t **out, size_t *out_len)
{
	struct cbor_wr w;
	uint8_t *buf = NULL;
	size_t len = 0;
	int r;

	if (out == NULL || out_len == NULL)
		return ERR_INVAL;
	*out = NULL;
	*out_len = 0;
	if (fmt == NULL || fmt_len == 0 || fmt_len >= EVIDENCE_FMT_MAX ||
	    stmt == NULL || authdata == NULL || cdh == NULL || time < 0)
		return ERR_INVAL;
	if ((buf = malloc(EVIDENCE_MAX)) == NULL)
		return ERR_NOMEM;
	cbor_wr_init(&w, buf, EVIDENCE_MAX);
	cbor_put_map(&w, EV_KEYS);
	cbor_put_uint(&w, 1);
	cbor_put_text(&w, fmt, fmt_len);
	cbor_put_uint(&w, 2);
	cbor_put_bytes(&w, stmt, stmt_len);
	cbor_put_uint(&w, 3);
	cbor_put_bytes(&w, authdata, authdata_len);
	cbor_put_uint(&w, 4);
	cbor_put_bytes(&w, cdh, CDH_LEN);
	cbor_put_uint(&w, 5);
	cbor_put_uint(&w, (uint64_t)time);
	if ((r = cbor_wr_end(&w, &len)) != ERR_OK) {
		free(buf);
		return r;
	}
	*out = buf;
	*out_len = len;
	return ERR_OK;
}

/* authData of a U2F registration: rpIdHash | UP|AT | 0 | zero AAGUID |
 * credIdLen | credId | COSE key. */
static int
u2f_authdata(const uint8_t app[32], const uint8_t *kh, size_t kh_len,
    const uint8_t point[65], uint8_t *ad, size_t *ad_len)
{
	struct cbor_wr w;
	size_t n = 0, klen = 0;
	int r;

	memcpy(ad, app, 32);
	n = 32;
	ad[n++] = 0x41; /* UP | AT */
	memset(ad + n, 0, 4 + 16);
	n += 4 + 16;
	ad[n++] = (uint8_t)(kh_len >> 8);
	ad[n++] = (uint8_t)kh_len;
	memcpy(ad + n, kh, kh_len);
	n += kh_len;
	cbor_wr_init(&w, ad + n, U2F_AD_MAX - n);
	if ((r = cose_key_write(&w, COSE_ES256, point, U2F_POINT)) != ERR_OK ||
	    (r = cbor_wr_end(&w, &klen)) != ERR_OK)
		return r;
	*ad_len = n + klen;
	return ERR_OK;
}

int
evidence_u2f(const uint8_t app[32], const uint8_t cdh[32], const uint8_t *kh,
    size_t kh_len, const uint8_t point[65], const uint8_t *cert,
    size_t cert_len, const uint8_t *sig, size_t sig_len, int64_t time,
    uint8_t **out, size_t *out_len)
{
	uint8_t ad[U2F_AD_MAX], *stmt = NULL;
	size_t ad_len = 0, stmt_len = 0;
	struct cbor_wr w;
	int r;

	if (app == NULL || kh == NULL || kh_len == 0 || kh_len > U2F_KH_MAX ||
	    point == NULL || cert == NULL || sig == NULL)
		return ERR_INVAL;
	if ((r = u2f_authdata(app, kh, kh_len, point, ad, &ad_len)) != ERR_OK)
		return r;
	if ((stmt = malloc(U2F_STMT_MAX)) == NULL)
		return ERR_NOMEM;
	cbor_wr_init(&w, stmt, U2F_STMT_MAX); /* canonical: "sig" < "x5c" */
	cbor_put_map(&w, 2);
	cbor_put_str(&w, "sig");
	cbor_put_bytes(&w, sig, sig_len);
	cbor_put_str(&w, "x5c");
	cbor_put_array(&w, 1);
	cbor_put_bytes(&w, cert, cert_len);
	if ((r = cbor_wr_end(&w, &stmt_len)) == ERR_OK)
		r = evidence_encode("fido-u2f", strlen("fido-u2f"), stmt,
		    stmt_len, ad, ad_len, cdh, time, out, out_len);
	free(stmt);
	return r;
}

/* Key k's value: the expected type, each key once and in order. */
static int
read_value(struct cbor_rd *r, uint64_t k, struct evidence *ev)
{
	const uint8_t *p = NULL;
	const char *s = NULL;
	uint64_t t = 0;
	size_t n = 0;

	switch (k) {
	case 1:
		if (cbor_get_text(r, &s, &n) != ERR_OK || n == 0 ||
		    n >= EVIDENCE_FMT_MAX || memchr(s, '\0', n) != NULL)
			return ERR_PARSE;
		memcpy(ev->fmt, s, n);
		ev->fmt[n] = '\0';
		return ERR_OK;
	case 2:
		return cbor_get_bytes(r, &ev->stmt, &ev->stmt_len);
	case 3:
		return cbor_get_bytes(r, &ev->authdata, &ev->authdata_len);
	case 4:
		if (cbor_get_bytes(r, &p, &n) != ERR_OK || n != CDH_LEN)
			return ERR_PARSE;
		ev->cdh = p;
		return ERR_OK;
	default:
		if (cbor_get_uint(r, &t) != ERR_OK || t > INT64_MAX)
			return ERR_PARSE;
		ev->time = (int64_t)t;
		return ERR_OK;
	}
}

int
evidence_decode(const uint8_t *p, size_t len, struct evidence *ev)
{
	struct cbor_rd r;
	uint64_t k;
	size_t n, i;

	if (ev == NULL)
		return ERR_INVAL;
	memset(ev, 0, sizeof(*ev));
	if (p == NULL || len == 0 || len > EVIDENCE_MAX ||
	    cbor_check(p, len) != ERR_OK)
		return ERR_PARSE;
	cbor_rd_init(&r, p, len);
	if (cbor_get_map(&r, &n) != ERR_OK || n != EV_KEYS)
		return ERR_PARSE;
	for (i = 0; i < n; i++)
		if (cbor_get_uint(&r, &k) != ERR_OK || k != i + 1 ||
		    read_value(&r, k, ev) != ERR_OK)
			return ERR_PARSE;
	return cbor_rd_done(&r) ? ERR_OK : ERR_PARSE;
}
