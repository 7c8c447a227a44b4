/* OpenSSH security-key files (sshformat): sshkey_parse on the input. A
 * key that parses must satisfy sshkey.h; a refused one leaves out zeroed. */
#include "config.h"

#include <string.h>

#include "cred.h"
#include "err.h"
#include "fuzz.h"
#include "sshkey.h"

struct input {
	const char *buf;
	size_t len;
};

static int
is_zero(const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}

static void
check_cred(const struct cred *c)
{
	FUZZ_CHECK((c->flags & ~(unsigned)(CRED_PRESENCE | CRED_VERIFICATION))
	    == 0);
	FUZZ_CHECK(c->kh != NULL && c->kh_len >= 1 && c->pk != NULL);
	if (c->type == COSE_ES256) {
		FUZZ_CHECK(c->kh_len <= 255);
		FUZZ_CHECK(c->pk_len == 65 && c->pk[0] == 0x04);
	} else {
		FUZZ_CHECK(c->type == COSE_EDDSA);
		FUZZ_CHECK(c->kh_len <= 1023 && c->pk_len == 32);
	}
}

static int
pass(void *arg, uint64_t *d)
{
	const struct input *in = arg;
	struct cred c;
	int r;

	memset(&c, 0xa5, sizeof(c));
	r = sshkey_parse(in->buf, in->len, &c);
	fuzz_mix_int(d, r);
	FUZZ_CHECK(r == ERR_OK || r == ERR_PARSE || r == ERR_NOMEM);
	if (r != ERR_OK) {
		FUZZ_CHECK(is_zero(&c, sizeof(c)));
		return r == ERR_NOMEM ? r : ERR_OK;
	}
	check_cred(&c);
	fuzz_mix_int(d, c.type);
	fuzz_mix_int(d, c.flags);
	fuzz_mix(d, c.kh, c.kh_len);
	fuzz_mix(d, c.pk, c.pk_len);
	cred_clear(&c);
	return ERR_OK;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = { (const char *)data, len };

	fuzz_run(pass, &in, data, len);
	return 0;
}
