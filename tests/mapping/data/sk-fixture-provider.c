/* SPDX-License-Identifier: BSD-2-Clause */
/* A fake OpenSSH security-key provider (sk-api 0x000a0000, OpenSSH 9.x)
 * used once to make the sshkey test fixtures with the real ssh-keygen:
 *   cc -shared -fPIC -o sk-fixture-provider.so sk-fixture-provider.c
 *   ssh-keygen -q -t ecdsa-sk -w ./sk-fixture-provider.so -N '' \
 *       -C fixture -f sshkey_ecdsa_sk
 *   ssh-keygen -q -t ed25519-sk -w ./sk-fixture-provider.so -N '' \
 *       -C fixture -O verify-required -f sshkey_ed25519_sk
 * (ssh-keygen runs it through ssh-sk-helper.) It returns a fixed key
 * handle and a fixed public key and signs nothing: the files hold no
 * secret. Check-ints are random, so a new run differs in those bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SSH_SK_ECDSA 0x00
#define SSH_SK_ED25519 0x01
#define SSH_SK_ERR_GENERAL (-1)
#define SSH_SK_ERR_UNSUPPORTED (-2)

struct sk_enroll_response {
	uint8_t flags;
	uint8_t *public_key;
	size_t public_key_len;
	uint8_t *key_handle;
	size_t key_handle_len;
	uint8_t *signature;
	size_t signature_len;
	uint8_t *attestation_cert;
	size_t attestation_cert_len;
	uint8_t *authdata;
	size_t authdata_len;
};
struct sk_option;
struct sk_sign_response;
struct sk_resident_key;

uint32_t sk_api_version(void);
int sk_enroll(uint32_t, const uint8_t *, size_t, const char *, uint8_t,
    const char *, struct sk_option **, struct sk_enroll_response **);
int sk_sign(uint32_t, const uint8_t *, size_t, const char *, const uint8_t *,
    size_t, uint8_t, const char *, struct sk_option **,
    struct sk_sign_response **);
int sk_load_resident_keys(
    const char *, struct sk_option **, struct sk_resident_key ***, size_t *);

/* The FIDO U2F example user public key (a valid P-256 point). */
static const uint8_t point[65] = {
    0x04,
    0xb1,
    0x74,
    0xbc,
    0x49,
    0xc7,
    0xca,
    0x25,
    0x4b,
    0x70,
    0xd2,
    0xe5,
    0xc2,
    0x07,
    0xce,
    0xe9,
    0xcf,
    0x17,
    0x48,
    0x20,
    0xeb,
    0xd7,
    0x7e,
    0xa3,
    0xc6,
    0x55,
    0x08,
    0xc2,
    0x6d,
    0xa5,
    0x1b,
    0x65,
    0x7c,
    0x1c,
    0xc6,
    0xb9,
    0x52,
    0xf8,
    0x62,
    0x16,
    0x97,
    0x93,
    0x64,
    0x82,
    0xda,
    0x0a,
    0x6d,
    0x3d,
    0x38,
    0x26,
    0xa5,
    0x90,
    0x95,
    0xda,
    0xf6,
    0xcd,
    0x7c,
    0x03,
    0xe2,
    0xe6,
    0x03,
    0x85,
    0xd2,
    0xf6,
    0xd9,
};

uint32_t
sk_api_version(void)
{
	return 0x000a0000;
}

static uint8_t *
copy(const void *p, size_t n)
{
	uint8_t *q = malloc(n);

	if (q != NULL)
		memcpy(q, p, n);
	return q;
}

int
sk_enroll(uint32_t alg, const uint8_t *challenge, size_t challenge_len,
    const char *application, uint8_t flags, const char *pin,
    struct sk_option **options, struct sk_enroll_response **out)
{
	struct sk_enroll_response *r;
	uint8_t kh[64], ed[32];
	size_t i;

	(void)challenge;
	(void)challenge_len;
	(void)application;
	(void)pin;
	(void)options;
	for (i = 0; i < sizeof(kh); i++)
		kh[i] = (uint8_t)(0xa0 + i);
	for (i = 0; i < sizeof(ed); i++)
		ed[i] = (uint8_t)(0x10 + i);
	if (alg != SSH_SK_ECDSA && alg != SSH_SK_ED25519)
		return SSH_SK_ERR_UNSUPPORTED;
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return SSH_SK_ERR_GENERAL;
	r->flags = flags;
	if (alg == SSH_SK_ECDSA) {
		r->public_key = copy(point, sizeof(point));
		r->public_key_len = sizeof(point);
	} else {
		r->public_key = copy(ed, sizeof(ed));
		r->public_key_len = sizeof(ed);
	}
	r->key_handle = copy(kh, sizeof(kh));
	r->key_handle_len = sizeof(kh);
	r->signature = copy("\x30\x00", 2);
	r->signature_len = 2;
	r->attestation_cert = copy("\x30\x00", 2);
	r->attestation_cert_len = 2;
	r->authdata = copy("\x00", 1);
	r->authdata_len = 1;
	*out = r;
	return 0;
}

int
sk_sign(uint32_t alg, const uint8_t *data, size_t data_len,
    const char *application, const uint8_t *key_handle, size_t key_handle_len,
    uint8_t flags, const char *pin, struct sk_option **options,
    struct sk_sign_response **out)
{
	(void)alg;
	(void)data;
	(void)data_len;
	(void)application;
	(void)key_handle;
	(void)key_handle_len;
	(void)flags;
	(void)pin;
	(void)options;
	(void)out;
	return SSH_SK_ERR_UNSUPPORTED;
}

int
sk_load_resident_keys(const char *pin, struct sk_option **options,
    struct sk_resident_key ***rks, size_t *nrks)
{
	(void)pin;
	(void)options;
	(void)rks;
	(void)nrks;
	return SSH_SK_ERR_UNSUPPORTED;
}
