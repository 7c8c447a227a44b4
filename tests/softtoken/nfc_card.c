/* SPDX-License-Identifier: BSD-2-Clause */
/* The software token as an NFC FIDO card (see nfc_card.h and README,
 * "NFC card"). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/util.h"
#include "nfc_card.h"

#define CLA_CHAIN 0x10
#define CLA_CTAP 0x80
#define INS_SELECT 0xA4
#define INS_GET_RESPONSE 0xC0
#define INS_NFCCTAP_MSG 0x10
#define INS_NFCCTAP_GETRESPONSE 0x11
#define INS_NFCCTAP_CONTROL 0x12
#define MSG_P1_GETRESPONSE 0x80 /* the host polls with NFCCTAP_GETRESPONSE */
#define CONTROL_END_GETRESPONSE 0x01
#define SHORT_NE 256

static const uint8_t fido_aid[8] = {
    0xA0, 0x00, 0x00, 0x06, 0x47, 0x2F, 0x00, 0x01};
/* 3B, T0 80 (TD1), TD1 80 (TD2, T=0), TD2 01 (T=1), TCK: no historical
 * bytes, the ATR PC/SC part 3 gives a plain ISO 14443-4 type A card. */
static const uint8_t card_atr[] = {0x3B, 0x80, 0x80, 0x01, 0x01};

/* A command APDU, parsed. */
struct capdu {
	uint8_t cla, ins, p1, p2;
	const uint8_t *data;
	size_t nc;
	size_t ne; /* bytes the host takes at once (no Le: as Le 00) */
};

struct nfc_card {
	struct token *tok;
	unsigned faults;
	int selected;
	uint8_t chain_hdr[4]; /* CLA without 0x10, INS, P1, P2 */
	int chaining;
	size_t chain_len;
	uint8_t *out; /* the rest of a reply, for GET RESPONSE */
	size_t out_len, out_off;
	unsigned out_sw;
	int pending, polled; /* a CTAP2 request waits; host polls it */
	size_t req_len, req_ne;
	int64_t retry_at;
	uint8_t chain[NFC_CARD_CMD_MAX];
	uint8_t req[NFC_CARD_CMD_MAX];
	uint8_t cmd[NFC_CARD_CMD_MAX + 9]; /* a U2F APDU rebuilt */
	uint8_t buf[CTAP2_REPLY_MAX];      /* the token's answer */
};

int
nfc_card_new(struct nfc_card **out, struct token *tok)
{
	struct nfc_card *c;

	if ((c = calloc(1, sizeof(*c))) == NULL)
		return ERR_NOMEM;
	c->tok = tok;
	c->faults = token_faults(tok);
	*out = c;
	return ERR_OK;
}

static void
drop_out(struct nfc_card *c)
{
	if (c->out != NULL)
		util_wipe(c->out, c->out_len);
	free(c->out);
	c->out = NULL;
	c->out_len = c->out_off = 0;
}

static void
drop_req(struct nfc_card *c)
{
	util_wipe(c->req, c->req_len);
	c->pending = 0;
	c->req_len = 0;
}

/* End a waiting CTAP2 request in the token (its answer is not sent). */
static void
cancel_pending(struct nfc_card *c, int64_t now)
{
	size_t n = 0;
	uint8_t ka = 0;

	if (!c->pending)
		return;
	(void)token_cbor(
	    c->tok, now, TOKEN_CANCEL, c->req, c->req_len, c->buf, &n, &ka);
	util_wipe(c->buf, n);
	drop_req(c);
}

static void
drop_chain(struct nfc_card *c)
{
	util_wipe(c->chain, c->chain_len);
	c->chaining = 0;
	c->chain_len = 0;
}

void
nfc_card_free(struct nfc_card **cp)
{
	struct nfc_card *c = *cp;

	if (c == NULL)
		return;
	drop_out(c);
	drop_req(c);
	drop_chain(c);
	util_wipe(c->buf, sizeof(c->buf));
	util_wipe(c->cmd, sizeof(c->cmd));
	free(c);
	*cp = NULL;
}

void
nfc_card_power(struct nfc_card *c, int64_t now_ms)
{
	cancel_pending(c, now_ms);
	drop_out(c);
	drop_chain(c);
	c->selected = 0;
}

const uint8_t *
nfc_card_atr(size_t *len)
{
	*len = sizeof(card_atr);
	return card_atr;
}

/* ISO 7816-4 cases 1, 2, 3, 4, short and extended. 0 or the SW. */
static unsigned
parse_capdu(const uint8_t *p, size_t len, struct capdu *a)
{
	size_t lc, rest, le;

	memset(a, 0, sizeof(*a));
	if (len < 4)
		return NFC_SW_LENGTH;
	a->cla = p[0];
	a->ins = p[1];
	a->p1 = p[2];
	a->p2 = p[3];
	a->ne = SHORT_NE;
	if (len == 4)
		return 0;
	if (len == 5) {
		a->ne = p[4] != 0 ? p[4] : SHORT_NE;
		return 0;
	}
	if (p[4] != 0) {
		lc = p[4];
		rest = len - 5;
		if (rest != lc && rest != lc + 1)
			return NFC_SW_LENGTH;
		a->data = p + 5;
		a->nc = lc;
		if (rest == lc + 1 && p[len - 1] != 0)
			a->ne = p[len - 1];
		return 0;
	}
	if (len < 7)
		return NFC_SW_LENGTH;
	a->ne = 65536;
	lc = (size_t)p[5] << 8 | p[6];
	if (len == 7) { /* case 2E: the two bytes are Le */
		a->ne = lc != 0 ? lc : a->ne;
		return 0;
	}
	rest = len - 7;
	if (lc == 0 || (rest != lc && rest != lc + 2))
		return NFC_SW_LENGTH;
	a->data = p + 7;
	a->nc = lc;
	le = rest == lc + 2 ? (size_t)p[len - 2] << 8 | p[len - 1] : 0;
	a->ne = le != 0 ? le : a->ne;
	return 0;
}

/* 61xx: xx bytes left, 00 for 256 or more. */
static unsigned
more_sw(size_t left)
{
	return NFC_SW_MORE | (left > 255 ? 0u : (unsigned)left);
}

static enum nfc_card_act
put_sw(uint8_t *rep, size_t n, unsigned sw, size_t *rlen)
{
	rep[n] = (uint8_t)(sw >> 8);
	rep[n + 1] = (uint8_t)sw;
	*rlen = n + 2;
	return NFC_CARD_REPLY;
}

/* data (n bytes, not in rep) then sw, at most ne bytes at once: the rest
 * waits for GET RESPONSE, announced by 61xx. */
static enum nfc_card_act
respond(struct nfc_card *c, const uint8_t *data, size_t n, unsigned sw,
    size_t ne, uint8_t *rep, size_t *rlen)
{
	size_t left;

	drop_out(c);
	if ((c->faults & FAULT_CARD_ENDLESS_61) && n > 1)
		ne = n - 1; /* then GET RESPONSE never ends */
	if (ne > NFC_CARD_REPLY_MAX - 2)
		ne = NFC_CARD_REPLY_MAX - 2;
	if (n <= ne) {
		memcpy(rep, data, n);
		return put_sw(rep, n, sw, rlen);
	}
	left = n - ne;
	if ((c->out = malloc(left)) == NULL)
		return put_sw(rep, 0, NFC_SW_UNKNOWN, rlen);
	memcpy(c->out, data + ne, left);
	c->out_len = left;
	c->out_sw = sw;
	memcpy(rep, data, ne);
	return put_sw(rep, ne, more_sw(left), rlen);
}

static enum nfc_card_act
get_response(
    struct nfc_card *c, const struct capdu *a, uint8_t *rep, size_t *rlen)
{
	size_t k, left;

	if (c->out == NULL)
		return put_sw(rep, 0, NFC_SW_CONDITIONS, rlen);
	if (c->faults & FAULT_CARD_ENDLESS_61) {
		memset(rep, 0, SHORT_NE);
		return put_sw(rep, SHORT_NE, NFC_SW_MORE, rlen);
	}
	left = c->out_len - c->out_off;
	k = left < a->ne ? left : a->ne;
	memcpy(rep, c->out + c->out_off, k);
	c->out_off += k;
	if ((left -= k) > 0)
		return put_sw(rep, k, more_sw(left), rlen);
	put_sw(rep, k, c->out_sw, rlen);
	drop_out(c);
	return NFC_CARD_REPLY;
}

static enum nfc_card_act
do_select(struct nfc_card *c, const struct capdu *a, int64_t now, uint8_t *rep,
    size_t *rlen)
{
	const char *v;

	cancel_pending(c, now);
	if (a->p1 != 0x04)
		return put_sw(rep, 0, NFC_SW_P1P2, rlen);
	if (a->nc != sizeof(fido_aid) ||
	    memcmp(a->data, fido_aid, sizeof(fido_aid)) != 0) {
		c->selected = 0;
		return put_sw(rep, 0, NFC_SW_NOT_FOUND, rlen);
	}
	c->selected = 1;
	if (c->faults & FAULT_CARD_WRONG_SELECT)
		v = "U2F_V3";
	else
		v = token_has_u2f(c->tok) ? "U2F_V2" : "FIDO_2_0";
	token_logf(c->tok, "nfc select %s\n", v);
	return respond(
	    c, (const uint8_t *)v, strlen(v), NFC_SW_OK, a->ne, rep, rlen);
}

/* A raw U2F APDU: rebuilt in extended form for token_apdu. */
static enum nfc_card_act
do_u2f(struct nfc_card *c, const struct capdu *a, int64_t now, uint8_t *rep,
    size_t *rlen)
{
	size_t n = 0, blen = 0;
	unsigned sw;

	c->cmd[n++] = 0x00;
	c->cmd[n++] = a->ins;
	c->cmd[n++] = a->p1;
	c->cmd[n++] = a->p2;
	c->cmd[n++] = 0x00;
	if (a->nc > 0) {
		c->cmd[n++] = (uint8_t)(a->nc >> 8);
		c->cmd[n++] = (uint8_t)a->nc;
		memcpy(c->cmd + n, a->data, a->nc);
		n += a->nc;
	}
	c->cmd[n++] = 0x00;
	c->cmd[n++] = 0x00;
	if (token_apdu(c->tok, now, TOKEN_ANSWER, c->cmd, n, c->buf, &blen) !=
		ERR_OK ||
	    blen < 2)
		return put_sw(rep, 0, NFC_SW_UNKNOWN, rlen);
	sw = (unsigned)c->buf[blen - 2] << 8 | c->buf[blen - 1];
	return respond(c, c->buf, blen - 2, sw, a->ne, rep, rlen);
}

/* Run the waiting CTAP2 request once more (or the first time). */
static enum nfc_card_act
run_req(struct nfc_card *c, int64_t now, size_t ne, uint8_t *rep, size_t *rlen)
{
	size_t blen = 0;
	uint8_t ka = 0;
	int r;

	r = token_cbor(
	    c->tok, now, TOKEN_HOLD, c->req, c->req_len, c->buf, &blen, &ka);
	if (r == ERR_PENDING) {
		c->retry_at = now + NFC_CARD_RETRY_MS;
		if (!c->polled)
			return NFC_CARD_LATER;
		rep[0] = ka;
		return put_sw(rep, 1, NFC_SW_UPDATE, rlen);
	}
	drop_req(c);
	if (r != ERR_OK)
		return put_sw(rep, 0, NFC_SW_UNKNOWN, rlen);
	return respond(c, c->buf, blen, NFC_SW_OK, ne, rep, rlen);
}

static enum nfc_card_act
do_ctap(struct nfc_card *c, const struct capdu *a, int64_t now, uint8_t *rep,
    size_t *rlen)
{
	switch (a->ins) {
	case INS_NFCCTAP_MSG:
		if ((a->p1 & ~MSG_P1_GETRESPONSE) != 0 || a->p2 != 0)
			return put_sw(rep, 0, NFC_SW_P1P2, rlen);
		if (a->nc == 0)
			return put_sw(rep, 0, NFC_SW_LENGTH, rlen);
		cancel_pending(c, now);
		memcpy(c->req, a->data, a->nc);
		c->req_len = a->nc;
		c->req_ne = a->ne;
		c->pending = 1;
		c->polled = (a->p1 & MSG_P1_GETRESPONSE) != 0;
		return run_req(c, now, a->ne, rep, rlen);
	case INS_NFCCTAP_GETRESPONSE:
		if (!c->pending || !c->polled)
			return put_sw(rep, 0, NFC_SW_CONDITIONS, rlen);
		return run_req(c, now, a->ne, rep, rlen);
	case INS_NFCCTAP_CONTROL:
		if (a->p1 != CONTROL_END_GETRESPONSE)
			return put_sw(rep, 0, NFC_SW_P1P2, rlen);
		cancel_pending(c, now);
		return put_sw(rep, 0, NFC_SW_OK, rlen);
	default:
		return put_sw(rep, 0, NFC_SW_INS, rlen);
	}
}

static enum nfc_card_act
dispatch(struct nfc_card *c, const struct capdu *a, int64_t now, uint8_t *rep,
    size_t *rlen)
{
	if (a->cla == 0x00 && a->ins == INS_GET_RESPONSE)
		return get_response(c, a, rep, rlen);
	drop_out(c);
	if (a->cla == 0x00 && a->ins == INS_SELECT)
		return do_select(c, a, now, rep, rlen);
	if (!c->selected)
		return put_sw(rep, 0, NFC_SW_CONDITIONS, rlen);
	if (a->cla == CLA_CTAP)
		return token_has_ctap2(c->tok)
		    ? do_ctap(c, a, now, rep, rlen)
		    : put_sw(rep, 0, NFC_SW_INS, rlen);
	if (a->cla == 0x00)
		return token_has_u2f(c->tok) ? do_u2f(c, a, now, rep, rlen)
					     : put_sw(rep, 0, NFC_SW_INS, rlen);
	return put_sw(rep, 0, NFC_SW_CLA, rlen);
}

/* Command chaining: 1 if a (CLA bit 0x10 or the end of a chain) was
 * taken here, with *act set; on the last link a->data becomes the whole
 * chain. 0: a is a plain command. */
static int
chain(struct nfc_card *c, struct capdu *a, uint8_t *rep, size_t *rlen,
    enum nfc_card_act *act)
{
	uint8_t hdr[4] = {(uint8_t)(a->cla & ~CLA_CHAIN), a->ins, a->p1, a->p2};
	int more = (a->cla & CLA_CHAIN) != 0;

	if (!more && !c->chaining)
		return 0;
	if (c->chaining && memcmp(hdr, c->chain_hdr, sizeof(hdr)) != 0) {
		drop_chain(c);
		*act = put_sw(rep, 0, NFC_SW_CHAIN, rlen);
		return 1;
	}
	if (a->nc > NFC_CARD_CMD_MAX - c->chain_len) {
		drop_chain(c);
		*act = put_sw(rep, 0, NFC_SW_LENGTH, rlen);
		return 1;
	}
	memcpy(c->chain_hdr, hdr, sizeof(hdr));
	if (a->nc > 0)
		memcpy(c->chain + c->chain_len, a->data, a->nc);
	c->chain_len += a->nc;
	c->chaining = 1;
	if (more) {
		*act = put_sw(rep, 0, NFC_SW_OK, rlen);
		return 1;
	}
	a->cla = hdr[0];
	a->data = c->chain;
	a->nc = c->chain_len;
	return 0;
}

/* A command that needs presence: where fault card-remove strikes. */
static int
presence_op(const struct capdu *a)
{
	uint8_t cla = (uint8_t)(a->cla & ~CLA_CHAIN);

	if (cla == 0x00)
		return a->ins == 0x01 || a->ins == 0x02;
	return cla == CLA_CTAP && a->ins == INS_NFCCTAP_MSG && a->nc > 0 &&
	    (a->data[0] == 0x01 || a->data[0] == 0x02);
}

/* The reply faults, on everything but SELECT; and the log line. */
static void
finish(struct nfc_card *c, const struct capdu *a, uint8_t *rep, size_t *rlen)
{
	int sel = a->cla == 0x00 && a->ins == INS_SELECT;

	token_logf(c->tok, "nfc %02x %02x -> %02x%02x\n", a->cla, a->ins,
	    rep[*rlen - 2], rep[*rlen - 1]);
	if (sel)
		return;
	if ((c->faults & FAULT_CARD_BAD_SW) && rep[*rlen - 2] == 0x90 &&
	    rep[*rlen - 1] == 0x00)
		rep[*rlen - 2] = 0x6F;
	if (c->faults & FAULT_CARD_TRUNCATED)
		(*rlen)--;
}

enum nfc_card_act
nfc_card_apdu(struct nfc_card *c, const uint8_t *apdu, size_t len,
    int64_t now_ms, uint8_t *rep, size_t *rlen)
{
	enum nfc_card_act act;
	struct capdu a;
	unsigned sw;

	*rlen = 0;
	if (c->selected && (c->faults & FAULT_CARD_STALL))
		return NFC_CARD_SILENT;
	if ((sw = parse_capdu(apdu, len, &a)) == 0 && a.nc > NFC_CARD_CMD_MAX)
		sw = NFC_SW_LENGTH;
	if (sw != 0) {
		drop_chain(c);
		act = put_sw(rep, 0, sw, rlen);
	} else if (c->selected && (c->faults & FAULT_CARD_REMOVE) &&
	    presence_op(&a)) {
		token_logf(c->tok, "nfc remove\n");
		return NFC_CARD_REMOVE;
	} else if (!chain(c, &a, rep, rlen, &act)) {
		act = dispatch(c, &a, now_ms, rep, rlen);
		drop_chain(c);
	}
	if (act == NFC_CARD_REPLY)
		finish(c, &a, rep, rlen);
	return act;
}

enum nfc_card_act
nfc_card_tick(struct nfc_card *c, int64_t now_ms, uint8_t *rep, size_t *rlen)
{
	struct capdu a = {CLA_CTAP, INS_NFCCTAP_MSG, 0, 0, NULL, 0, 0};
	enum nfc_card_act act;

	*rlen = 0;
	if (!c->pending || c->polled)
		return NFC_CARD_LATER;
	if ((act = run_req(c, now_ms, c->req_ne, rep, rlen)) == NFC_CARD_REPLY)
		finish(c, &a, rep, rlen);
	return act;
}

int
nfc_card_next_ms(const struct nfc_card *c, int64_t now_ms)
{
	if (!c->pending || c->polled)
		return -1;
	return c->retry_at <= now_ms ? 0 : (int)(c->retry_at - now_ms);
}
