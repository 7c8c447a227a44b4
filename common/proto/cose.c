/* SPDX-License-Identifier: BSD-2-Clause */
/* COSE_Key (RFC 9052 7, RFC 9053 7.1/7.2, RFC 8230 4) as CTAP2 uses it,
 * to and from the raw key form of crypto/cosesig.h. A data format that
 * authData, the attestation checks and pamu2fcfg read, not a protocol
 * exchange: it sits in proto/, not in ctap2/. */
#include "config.h"

#include <string.h>

#include "base/cred.h"
#include "base/err.h"
#include "cose.h"

#define COSE_KTY 1
#define COSE_ALG 3
#define COSE_P1 (-1) /* crv (EC2, OKP) or n (RSA) */
#define COSE_P2 (-2) /* x (EC2, OKP) or e (RSA) */
#define COSE_P3 (-3) /* y (EC2) */
#define KTY_OKP 1
#define KTY_EC2 2
#define KTY_RSA 3
#define CRV_P256 1
#define CRV_ED25519 6
#define COORD 32

/* The parameters of one COSE_Key that we use; others are skipped. */
struct cose_fields {
	unsigned seen; /* bit per label read: no label twice */
	int64_t kty, alg, crv;
	const uint8_t *p1, *p2, *p3; /* byte-string values of -1, -2, -3 */
	size_t n1, n2, n3;
};

enum {
	SEEN_KTY = 1,
	SEEN_ALG = 2,
	SEEN_CRV = 4,
	SEEN_P1 = 8,
	SEEN_P2 = 16,
	SEEN_P3 = 32
};

/* The bit of label k in seen, for a value of type t; 0: not used. */
static unsigned
label_bit(int64_t k, enum cbor_type t)
{
	switch (k) {
	case COSE_KTY:
		return SEEN_KTY;
	case COSE_ALG:
		return SEEN_ALG;
	case COSE_P1:
		return t == CBOR_BYTES ? SEEN_P1 : SEEN_CRV;
	case COSE_P2:
		return SEEN_P2;
	case COSE_P3:
		return SEEN_P3;
	default:
		return 0;
	}
}

/* The value of integer label k. */
static int
read_value(struct cbor_rd *r, int64_t k, struct cose_fields *f)
{
	enum cbor_type t;
	unsigned bit;

	if (cbor_peek(r, &t) != ERR_OK)
		return ERR_PARSE;
	if ((bit = label_bit(k, t)) == 0)
		return cbor_skip(r);
	if (f->seen & bit)
		return ERR_PARSE; /* a label twice */
	f->seen |= bit;
	switch (bit) {
	case SEEN_KTY:
		return cbor_get_int(r, &f->kty);
	case SEEN_ALG:
		return cbor_get_int(r, &f->alg);
	case SEEN_CRV:
		return cbor_get_int(r, &f->crv);
	case SEEN_P1:
		return cbor_get_bytes(r, &f->p1, &f->n1);
	case SEEN_P2:
		return cbor_get_bytes(r, &f->p2, &f->n2);
	default:
		return cbor_get_bytes(r, &f->p3, &f->n3);
	}
}

static int
read_fields(struct cbor_rd *r, struct cose_fields *f)
{
	enum cbor_type t;
	size_t n, i;
	int64_t k;

	memset(f, 0, sizeof(*f));
	if (cbor_get_map(r, &n) != ERR_OK)
		return ERR_PARSE;
	for (i = 0; i < n; i++) {
		if (cbor_peek(r, &t) != ERR_OK)
			return ERR_PARSE;
		if (t != CBOR_UINT && t != CBOR_NINT) {
			/* A text label: none that we use. */
			if (cbor_skip(r) != ERR_OK || cbor_skip(r) != ERR_OK)
				return ERR_PARSE;
			continue;
		}
		if (cbor_get_int(r, &k) != ERR_OK)
			return ERR_PARSE;
		if (read_value(r, k, f) != ERR_OK)
			return ERR_PARSE;
	}
	if ((f->seen & (SEEN_KTY | SEEN_ALG)) != (SEEN_KTY | SEEN_ALG))
		return ERR_PARSE;
	return ERR_OK;
}

/* EC2 on P-256: both coordinates, 32 bytes each. */
static int
ec2_point(const struct cose_fields *f, uint8_t out[65])
{
	if (f->kty != KTY_EC2 || !(f->seen & SEEN_CRV) || f->crv != CRV_P256 ||
	    f->n2 != COORD || f->n3 != COORD || (f->seen & SEEN_P1))
		return ERR_PARSE;
	out[0] = 0x04;
	memcpy(out + 1, f->p2, COORD);
	memcpy(out + 1 + COORD, f->p3, COORD);
	return ERR_OK;
}

/* The raw form of a credential key read into f. */
static int
raw_key(const struct cose_fields *f, int *type, uint8_t *tmp, size_t *len)
{
	switch (f->alg) {
	case COSE_ES256:
		*type = COSE_ES256;
		*len = 65;
		return ec2_point(f, tmp);
	case COSE_EDDSA:
		*type = COSE_EDDSA;
		if (f->kty != KTY_OKP || !(f->seen & SEEN_CRV) ||
		    f->crv != CRV_ED25519 || f->n2 != COORD ||
		    (f->seen & (SEEN_P1 | SEEN_P3)))
			return ERR_PARSE;
		memcpy(tmp, f->p2, COORD);
		*len = COORD;
		return ERR_OK;
	case COSE_RS256:
		*type = COSE_RS256;
		if (f->kty != KTY_RSA || f->n1 != COSESIG_RSA_N ||
		    f->n2 != COSESIG_RSA_E || (f->seen & (SEEN_CRV | SEEN_P3)))
			return ERR_PARSE;
		memcpy(tmp, f->p1, COSESIG_RSA_N);
		memcpy(tmp + COSESIG_RSA_N, f->p2, COSESIG_RSA_E);
		*len = COSESIG_RSA_N + COSESIG_RSA_E;
		return ERR_OK;
	default:
		return ERR_UNSUPPORTED;
	}
}

int
cose_key_read(
    struct cbor_rd *r, int *type, uint8_t pk[COSESIG_PK_MAX], size_t *pk_len)
{
	uint8_t tmp[COSESIG_PK_MAX];
	struct cose_fields f;
	size_t len = 0;
	int t = 0, rc;

	if (r == NULL || type == NULL || pk == NULL || pk_len == NULL)
		return ERR_INVAL;
	*pk_len = 0;
	if ((rc = read_fields(r, &f)) != ERR_OK)
		return rc;
	if ((rc = raw_key(&f, &t, tmp, &len)) != ERR_OK)
		return rc;
	if ((rc = crypto_pk_normal(t, tmp, len, pk, pk_len)) != ERR_OK)
		return rc == ERR_UNSUPPORTED || rc == ERR_CRYPTO ? rc
								 : ERR_PARSE;
	*type = t;
	return ERR_OK;
}

static void
put_head(struct cbor_wr *w, size_t n, int kty, int alg)
{
	cbor_put_map(w, n);
	cbor_put_int(w, COSE_KTY);
	cbor_put_int(w, kty);
	cbor_put_int(w, COSE_ALG);
	cbor_put_int(w, alg);
}

int
cose_key_write(struct cbor_wr *w, int type, const uint8_t *pk, size_t pk_len)
{
	if (w == NULL || pk == NULL)
		return ERR_INVAL;
	switch (type) {
	case COSE_ES256:
		if (pk_len != 65 || pk[0] != 0x04)
			return ERR_INVAL;
		put_head(w, 5, KTY_EC2, COSE_ES256);
		cbor_put_int(w, COSE_P1);
		cbor_put_int(w, CRV_P256);
		cbor_put_int(w, COSE_P2);
		cbor_put_bytes(w, pk + 1, COORD);
		cbor_put_int(w, COSE_P3);
		cbor_put_bytes(w, pk + 1 + COORD, COORD);
		return ERR_OK;
	case COSE_EDDSA:
		if (pk_len != COORD)
			return ERR_INVAL;
		put_head(w, 4, KTY_OKP, COSE_EDDSA);
		cbor_put_int(w, COSE_P1);
		cbor_put_int(w, CRV_ED25519);
		cbor_put_int(w, COSE_P2);
		cbor_put_bytes(w, pk, COORD);
		return ERR_OK;
	case COSE_RS256:
		if (pk_len != COSESIG_RSA_N + COSESIG_RSA_E)
			return ERR_INVAL;
		put_head(w, 4, KTY_RSA, COSE_RS256);
		cbor_put_int(w, COSE_P1);
		cbor_put_bytes(w, pk, COSESIG_RSA_N);
		cbor_put_int(w, COSE_P2);
		cbor_put_bytes(w, pk + COSESIG_RSA_N, COSESIG_RSA_E);
		return ERR_OK;
	default:
		return ERR_UNSUPPORTED;
	}
}

int
cose_ka_read(struct cbor_rd *r, uint8_t x[32], uint8_t y[32])
{
	uint8_t point[65];
	struct cose_fields f;

	if (r == NULL || x == NULL || y == NULL)
		return ERR_INVAL;
	if (read_fields(r, &f) != ERR_OK || f.alg != COSE_ECDH_ES_HKDF_256 ||
	    ec2_point(&f, point) != ERR_OK)
		return ERR_PARSE;
	memcpy(x, point + 1, COORD);
	memcpy(y, point + 1 + COORD, COORD);
	return ERR_OK;
}

void
cose_ka_write(struct cbor_wr *w, const uint8_t x[32], const uint8_t y[32])
{
	put_head(w, 5, KTY_EC2, COSE_ECDH_ES_HKDF_256);
	cbor_put_int(w, COSE_P1);
	cbor_put_int(w, CRV_P256);
	cbor_put_int(w, COSE_P2);
	cbor_put_bytes(w, x, COORD);
	cbor_put_int(w, COSE_P3);
	cbor_put_bytes(w, y, COORD);
}
