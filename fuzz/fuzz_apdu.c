/* SPDX-License-Identifier: BSD-2-Clause */
/* The APDU reply parser and framing (common/transport/apdu.c): the input
 * is a card's script. Its first byte chooses the operation (SELECT, a
 * CTAP2 request with its 9100 polls, a U2F request, or the command APDU
 * parser on the rest), then each response APDU is a length byte and that
 * many bytes; the card is gone (ERR_NODEV) when the script ends. Whatever
 * the card says, a reply handed out fits its buffer and every error is
 * one of ours; sleeps between polls are virtual (fuzz/vclock.c). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "fuzz.h"
#include "transport/apdu.h"
#include "transport/xport.h"

struct input {
	const uint8_t *data;
	size_t len;
};

struct script {
	const uint8_t *p;
	size_t left;
};

static int
script_transmit(void *arg, const uint8_t *cmd, size_t len, uint8_t *rsp,
    size_t cap, size_t *rlen, int ms)
{
	struct script *s = arg;
	size_t n;

	FUZZ_CHECK(len >= 4 && len <= APDU_CMD_MAX);
	FUZZ_CHECK(cmd[0] == 0x00 || cmd[0] == 0x80 || cmd[0] == 0x90 ||
	    cmd[0] == 0x10);
	FUZZ_CHECK(ms > 0 && ms <= APDU_XMIT_MS);
	if (s->left == 0)
		return ERR_NODEV;
	n = s->p[0];
	s->p++;
	s->left--;
	if (n > s->left)
		n = s->left;
	if (n > cap)
		return ERR_PROTO;
	memcpy(rsp, s->p, n);
	s->p += n;
	s->left -= n;
	*rlen = n;
	return ERR_OK;
}

static void
parse(const uint8_t *d, size_t len)
{
	const uint8_t *data = NULL;
	uint8_t hdr[4];
	size_t dlen = 0;
	int e;

	FUZZ_CALL(e, apdu_parse_cmd(d, len, hdr, &data, &dlen));
	FUZZ_CHECK(e == ERR_OK || e == ERR_PROTO);
	if (e != ERR_OK)
		return;
	FUZZ_CHECK(memcmp(hdr, d, 4) == 0);
	FUZZ_CHECK(dlen == 0 || (data > d && data + dlen <= d + len));
}

static void
request(struct apdu_fido *f, uint8_t kind, const uint8_t *msg, size_t mlen)
{
	uint8_t *buf;
	size_t len = 0, cap = APDU_REPLY_MAX + 2;
	int e, st = -1;

	FUZZ_CALL(e, apdu_fido_send(f, kind, msg, mlen, 1000));
	if (e != ERR_OK)
		return;
	if ((buf = malloc(cap)) == NULL)
		return;
	FUZZ_CALL(e, apdu_fido_recv(f, kind, buf, cap, &len, 60000, &st));
	FUZZ_CHECK(st == XPORT_KA_NONE || st == XPORT_KA_PROCESSING ||
	    st == XPORT_KA_UPNEEDED);
	if (e == ERR_OK)
		FUZZ_CHECK(len <= cap &&
		    (kind == XPORT_MSG ? len >= 2 : len <= APDU_REPLY_MAX));
	FUZZ_CHECK(e != ERR_PENDING);
	free(buf);
}

static void
pass(void *arg)
{
	static const uint8_t u2f[] = {
	    0x00, 0x02, 0x03, 0x00, 0x00, 0x00, 0x01, 0xAA, 0x00, 0x00};
	static const uint8_t cbor[] = {0x04};
	const struct input *in = arg;
	struct script s = {in->data + 1, in->len - 1};
	struct apdu_fido *f;
	uint8_t caps = 0xff, *big;
	int e;

	if ((f = calloc(1, sizeof(*f))) == NULL)
		return;
	f->card.transmit = script_transmit;
	f->card.arg = &s;
	switch (in->data[0] % 5) {
	case 0:
		FUZZ_CALL(e, apdu_fido_select(f, 1000, &caps));
		FUZZ_CHECK(e != ERR_OK || caps == XPORT_CAP_CBOR ||
		    caps == (XPORT_CAP_CBOR | XPORT_CAP_NMSG));
		break;
	case 1:
		request(f, XPORT_CBOR, cbor, sizeof(cbor));
		break;
	case 2:
		request(f, XPORT_MSG, u2f, sizeof(u2f));
		break;
	case 3: /* a request long enough to be chained */
		if ((big = calloc(1, 3 * APDU_CHUNK)) != NULL)
			request(f, XPORT_CBOR, big, 3 * APDU_CHUNK);
		free(big);
		break;
	default:
		parse(in->data + 1, in->len - 1);
	}
	free(f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = {data, len};

	if (len < 1)
		return 0;
	fuzz_run(pass, &in, data, len);
	return 0;
}
