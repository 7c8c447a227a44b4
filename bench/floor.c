/* bench/floor.c: the least a PAM module that verifies a U2F signature
 * with OpenSSL 3's EVP API must cost, for bench/run.sh. Not a real
 * module: no device, no mapping file; it checks the FIDO U2F raw message
 * format's authentication example (the known answer tests/test_crypto.c
 * uses) and nothing else.
 *
 *   auth required /path/floor.so load     libcrypto linked, not called
 *   auth required /path/floor.so verify   one SHA-256 (the client data
 *                                         hash) and one ECDSA P-256
 *                                         verification, through EVP
 *
 * PAM_SUCCESS only when the signature verifies ("verify"); "load" always
 * answers PAM_AUTH_ERR. Built by bench/run.sh with
 *   cc -shared -fPIC -o floor.so floor.c -Wl,--no-as-needed -lcrypto -lpam
 */
#define PAM_SM_AUTH
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <security/pam_modules.h>
#include <string.h>

/* FIDO U2F Raw Message Formats, authentication example. */
static const unsigned char app[32] = {0x4b, 0x0b, 0xe9, 0x34, 0xba, 0xeb,
    0xb5, 0xd1, 0x2d, 0x26, 0x01, 0x1b, 0x69, 0x22, 0x7f, 0xa5, 0xe8, 0x6d,
    0xf9, 0x4e, 0x7d, 0x94, 0xaa, 0x29, 0x49, 0xa8, 0x9f, 0x2d, 0x49, 0x39,
    0x92, 0xca};
static const unsigned char chal[32] = {0xcc, 0xd6, 0xee, 0x2e, 0x47, 0xba,
    0xef, 0x24, 0x4d, 0x49, 0xa2, 0x22, 0xdb, 0x49, 0x6b, 0xad, 0x0e, 0xf5,
    0xb6, 0xf9, 0x3a, 0xa7, 0xcc, 0x4d, 0x30, 0xc4, 0x82, 0x1b, 0x3b, 0x9d,
    0xbc, 0x57};
static const unsigned char key[65] = {0x04, 0xd3, 0x68, 0xf1, 0xb6, 0x65,
    0xba, 0xde, 0x3c, 0x33, 0xa2, 0x0f, 0x1e, 0x42, 0x9c, 0x77, 0x50, 0xd5,
    0x03, 0x36, 0x60, 0xc0, 0x19, 0x11, 0x9d, 0x29, 0xaa, 0x4b, 0xa7, 0xab,
    0xc0, 0x4a, 0xa7, 0xc8, 0x0a, 0x46, 0xbb, 0xe1, 0x1c, 0xa8, 0xcb, 0x56,
    0x74, 0xd7, 0x4f, 0x31, 0xf8, 0xa9, 0x03, 0xf6, 0xba, 0xd1, 0x05, 0xfb,
    0x6a, 0xb7, 0x4a, 0xef, 0xef, 0x4d, 0xb8, 0xb0, 0x02, 0x5e, 0x1d};
static const unsigned char sig[70] = {0x30, 0x44, 0x02, 0x20, 0x4b, 0x5f,
    0x0c, 0xd1, 0x75, 0x34, 0xce, 0xdd, 0x8c, 0x34, 0xee, 0x09, 0x57, 0x0e,
    0xf5, 0x42, 0xa3, 0x53, 0xdf, 0x44, 0x36, 0x03, 0x0c, 0xe4, 0x3d, 0x40,
    0x6d, 0xe8, 0x70, 0xb8, 0x47, 0x78, 0x02, 0x20, 0x26, 0x7b, 0xb9, 0x98,
    0xfa, 0xc9, 0xb7, 0x26, 0x6e, 0xb6, 0x0e, 0x7c, 0xb0, 0xb5, 0xea, 0xbd,
    0xfd, 0x5b, 0xa9, 0x61, 0x4f, 0x53, 0xc7, 0xb2, 0x22, 0x72, 0xec, 0x10,
    0x04, 0x7a, 0x92, 0x3f};

static int
verify(void)
{
	char group[] = "prime256v1";
	unsigned char pub[sizeof(key)], msg[32 + 1 + 4 + 32], hash[32];
	unsigned int hlen = 0;
	OSSL_PARAM params[3];
	EVP_PKEY_CTX *kctx = NULL;
	EVP_PKEY *pkey = NULL;
	EVP_MD_CTX *md = NULL;
	int ok = 0;

	/* the client data hash a module computes for every request */
	if (EVP_Digest(app, sizeof(app), hash, &hlen, EVP_sha256(), NULL) != 1)
		return 0;
	memcpy(pub, key, sizeof(key));
	memcpy(msg, app, 32);
	msg[32] = 0x01;
	memcpy(msg + 33, "\x00\x00\x00\x01", 4);
	memcpy(msg + 37, chal, 32);
	params[0] = OSSL_PARAM_construct_utf8_string(
	    OSSL_PKEY_PARAM_GROUP_NAME, group, 0);
	params[1] = OSSL_PARAM_construct_octet_string(
	    OSSL_PKEY_PARAM_PUB_KEY, pub, sizeof(pub));
	params[2] = OSSL_PARAM_construct_end();
	if ((kctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) != NULL &&
	    EVP_PKEY_fromdata_init(kctx) == 1 &&
	    EVP_PKEY_fromdata(kctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) == 1 &&
	    (md = EVP_MD_CTX_new()) != NULL &&
	    EVP_DigestVerifyInit_ex(md, NULL, "SHA256", NULL, NULL, pkey,
		NULL) == 1)
		ok = EVP_DigestVerify(
			 md, sig, sizeof(sig), msg, sizeof(msg)) == 1;
	EVP_MD_CTX_free(md);
	EVP_PKEY_free(pkey);
	EVP_PKEY_CTX_free(kctx);
	return ok;
}

PAM_EXTERN int
pam_sm_authenticate(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
	(void)pamh;
	(void)flags;
	if (argc == 1 && strcmp(argv[0], "verify") == 0 && verify())
		return PAM_SUCCESS;
	return PAM_AUTH_ERR;
}

PAM_EXTERN int
pam_sm_setcred(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
	(void)pamh;
	(void)flags;
	(void)argc;
	(void)argv;
	return PAM_SUCCESS;
}
