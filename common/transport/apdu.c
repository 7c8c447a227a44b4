/* SPDX-License-Identifier: BSD-2-Clause */
/* ISO 7816-4 framing of FIDO messages (apdu.h). Every length and status
 * word is checked; a reply is never longer than the buffer it goes to. */
#include "config.h"

#include <string.h>

#include "apdu.h"
#include "base/err.h"
#include "xport.h"

#define CLA_CHAIN 0x10
#define SW1_MORE 0x61

int
apdu_sw_err(uint16_t sw)
{
	switch (sw) {
	case 0x6700:
		return ERR_WRONG_LENGTH;
	case APDU_SW_NO_PRESENCE:
		return ERR_PRESENCE;
	case 0x6A80:
	case 0x6984:
		return ERR_WRONG_KH;
	case 0x6D00:
		return ERR_INS_NOT_SUPPORTED;
	case 0x6E00:            /* class not supported */
	case 0x6A81:            /* function not supported */
	case APDU_SW_NOT_FOUND: /* no such applet */
		return ERR_UNSUPPORTED;
	default:
		return ERR_SW;
	}
}

int
apdu_build(const uint8_t hdr[4], const uint8_t *data, size_t len, bool le,
    uint8_t *out, size_t cap, size_t *olen)
{
	size_t n = 4;

	if (len > 255 || 4 + (len > 0 ? 1 + len : 0) + (le ? 1 : 0) > cap)
		return ERR_TOO_BIG;
	memcpy(out, hdr, 4);
	if (len > 0) {
		out[n++] = (uint8_t)len;
		memcpy(out + n, data, len);
		n += len;
	}
	if (le)
		out[n++] = 0x00;
	*olen = n;
	return ERR_OK;
}

int
apdu_parse_cmd(const uint8_t *apdu, size_t len, uint8_t hdr[4],
    const uint8_t **data, size_t *dlen)
{
	size_t lc, rest;

	*data = NULL;
	*dlen = 0;
	if (len < 4)
		return ERR_PROTO;
	memcpy(hdr, apdu, 4);
	if (len == 4 || len == 5) /* no data; maybe a short Le */
		return ERR_OK;
	if (apdu[4] == 0 && len == 7) /* no data, an extended Le */
		return ERR_OK;
	if (apdu[4] == 0) { /* extended: 00 Lc1 Lc2 data [Le1 Le2] */
		if (len < 7)
			return ERR_PROTO; /* 00 Lc1, cut short */
		lc = (size_t)apdu[5] << 8 | apdu[6];
		if (lc == 0 || len < 7 + lc)
			return ERR_PROTO;
		rest = len - 7 - lc;
		if (rest != 0 && rest != 2)
			return ERR_PROTO;
		*data = apdu + 7;
	} else { /* short: Lc data [Le] */
		lc = apdu[4];
		if (len < 5 + lc)
			return ERR_PROTO;
		rest = len - 5 - lc;
		if (rest != 0 && rest != 1)
			return ERR_PROTO;
		*data = apdu + 5;
	}
	*dlen = lc;
	return ERR_OK;
}

int
apdu_split(const uint8_t *rsp, size_t len, size_t *dlen, uint16_t *sw)
{
	if (len < 2 || len > APDU_RSP_MAX)
		return ERR_PROTO;
	*dlen = len - 2;
	*sw = (uint16_t)(rsp[len - 2] << 8 | rsp[len - 1]);
	return ERR_OK;
}

int
apdu_select_caps(const uint8_t *data, size_t len, uint8_t *caps)
{
	if (len == 6 && memcmp(data, "U2F_V2", 6) == 0)
		*caps = XPORT_CAP_CBOR; /* CTAP2 if GetInfo answers */
	else if (len == 8 && memcmp(data, "FIDO_2_0", 8) == 0)
		*caps = XPORT_CAP_CBOR | XPORT_CAP_NMSG;
	else
		return ERR_PROTO;
	return ERR_OK;
}

/* One command APDU out, one response APDU in: its data appended to out
 * (at *olen, at most cap). */
static int
apdu_xmit(const struct apdu_card *card, const uint8_t *cmd, size_t clen,
    uint8_t *out, size_t cap, size_t *olen, uint16_t *sw, int64_t deadline)
{
	uint8_t rsp[APDU_RSP_MAX];
	size_t rlen = 0, dlen;
	int ms, r;

	if ((ms = util_cap_ms(APDU_XMIT_MS, deadline)) == 0)
		return ERR_TIMEOUT;
	r = card->transmit(card->arg, cmd, clen, rsp, sizeof(rsp), &rlen, ms);
	if (r == ERR_OK && (r = apdu_split(rsp, rlen, &dlen, sw)) == ERR_OK) {
		if (dlen > cap - *olen)
			r = ERR_TOO_BIG;
		else {
			memcpy(out + *olen, rsp, dlen);
			*olen += dlen;
		}
	}
	util_wipe(rsp, sizeof(rsp));
	return r;
}

/* GET RESPONSE while the card says 61xx: each answer must bring data,
 * and APDU_MORE_MAX rounds must bring all of it. */
static int
apdu_collect(const struct apdu_card *card, uint8_t *out, size_t cap,
    size_t *olen, uint16_t *sw, int64_t deadline)
{
	uint8_t cmd[5] = {0x00, 0xC0, 0x00, 0x00, 0x00};
	unsigned rounds = 0;
	size_t before;
	int r;

	while ((*sw >> 8) == SW1_MORE) {
		if (rounds++ == APDU_MORE_MAX)
			return ERR_PROTO;       /* a reply in too many pieces */
		cmd[4] = (uint8_t)(*sw & 0xff); /* 00: 256 */
		before = *olen;
		if ((r = apdu_xmit(card, cmd, sizeof(cmd), out, cap, olen, sw,
			 deadline)) != ERR_OK)
			return r;
		if (*olen == before && (*sw >> 8) == SW1_MORE)
			return ERR_PROTO; /* 61xx without data: no progress */
	}
	return ERR_OK;
}

/* The earlier of two deadlines (0: none). */
static int64_t
apdu_first(int64_t a, int64_t b)
{
	if (a == 0 || (b != 0 && b < a))
		return b;
	return a;
}

int
apdu_exchange(const struct apdu_card *card, const uint8_t hdr[4],
    const uint8_t *data, size_t len, uint8_t *out, size_t cap, size_t *olen,
    uint16_t *sw, int64_t deadline)
{
	uint8_t cmd[APDU_CMD_MAX], h[4];
	size_t off = 0, n, clen;
	bool last;
	int r;

	deadline = apdu_first(deadline, util_now_ms() + APDU_EXCHANGE_MS);
	*olen = 0;
	*sw = 0;
	memcpy(h, hdr, 4);
	do {
		n = len - off > APDU_CHUNK ? APDU_CHUNK : len - off;
		last = off + n == len;
		h[0] = last ? hdr[0] : (uint8_t)(hdr[0] | CLA_CHAIN);
		if (!last)
			*olen = 0; /* a chained step's data is not the reply */
		if ((r = apdu_build(h, n > 0 ? data + off : NULL, n, last, cmd,
			 sizeof(cmd), &clen)) != ERR_OK ||
		    (r = apdu_xmit(card, cmd, clen, out, cap, olen, sw,
			 deadline)) != ERR_OK)
			break;
		off += n;
		if (!last && *sw != APDU_SW_OK)
			break; /* the card refused a part: its status */
	} while (!last);
	util_wipe(cmd, sizeof(cmd));
	if (r == ERR_OK && last)
		r = apdu_collect(card, out, cap, olen, sw, deadline);
	if (r == ERR_OK && !last)
		*olen = 0;
	return r;
}

/* The FIDO session (struct apdu_fido). */

static const char *
fido_name(const struct apdu_fido *f)
{
	return f->name != NULL ? f->name : "card";
}

/* A link failure during an exchange: the card is gone or did not answer
 * an APDU in time. Either way this request is over (ERR_TIMEOUT is kept
 * for "still waiting", so a silent card is ERR_IO). */
static int
fido_link_err(struct apdu_fido *f, const char *what, int r)
{
	const char *why = err_str(r);

	if (r == ERR_TIMEOUT && f->deadline != 0 &&
	    util_now_ms() >= f->deadline)
		why = "the operation's time ran out";
	else if (r == ERR_TIMEOUT)
		why = "no answer from the card in time";
	else if (r == ERR_PROTO)
		why = "malformed reply, or one in too many pieces";
	log_msg(f->log, "%s: %s: %s: %s", "apdu", fido_name(f), what, why);
	f->phase = APDU_IDLE;
	return r == ERR_TIMEOUT ? ERR_IO : r;
}

int
apdu_fido_select(struct apdu_fido *f, int ms, uint8_t *caps)
{
	static const uint8_t hdr[4] = {0x00, 0xA4, 0x04, 0x00};
	uint16_t sw = 0;
	int r;

	f->phase = APDU_IDLE;
	r = apdu_exchange(&f->card, hdr, (const uint8_t *)APDU_FIDO_AID,
	    APDU_FIDO_AID_LEN, f->buf, APDU_REPLY_MAX, &f->len, &sw,
	    util_now_ms() + ms);
	if (r != ERR_OK)
		return fido_link_err(f, "SELECT", r);
	if (sw != APDU_SW_OK) {
		log_msg(f->log, "%s: %s: SELECT of the FIDO applet: SW %04x%s",
		    "apdu", fido_name(f), sw,
		    sw == APDU_SW_NOT_FOUND ? " (no FIDO applet on this card)"
					    : "");
		return apdu_sw_err(sw);
	}
	if ((r = apdu_select_caps(f->buf, f->len, caps)) != ERR_OK)
		log_msg(f->log, "%s: %s: SELECT answered an unknown version",
		    "apdu", fido_name(f));
	util_wipe(f->buf, sizeof(f->buf));
	f->len = 0;
	return r;
}

/* What a CTAP2 exchange's status word means for the session. */
static void
fido_cbor_sw(struct apdu_fido *f, uint16_t sw)
{
	if (sw == APDU_SW_OK) {
		f->phase = APDU_DONE;
		f->err = ERR_OK;
		return;
	}
	if (sw == APDU_SW_UPDATE && f->polls >= APDU_POLLS_MAX) {
		log_msg(f->log, "%s: %s: NFCCTAP: still busy after %u polls",
		    "apdu", fido_name(f), f->polls);
		f->len = 0;
		f->phase = APDU_DONE;
		f->err = ERR_IO;
		return;
	}
	if (sw == APDU_SW_UPDATE) { /* status byte: 1 processing, 2 UP */
		f->ka = f->len >= 1 && f->buf[0] == XPORT_KA_UPNEEDED
		    ? XPORT_KA_UPNEEDED
		    : XPORT_KA_PROCESSING;
		f->len = 0;
		f->phase = APDU_POLL;
		f->next_poll = util_now_ms() + APDU_POLL_MS;
		return;
	}
	log_msg(f->log, "%s: %s: NFCCTAP: SW %04x", "apdu", fido_name(f), sw);
	f->len = 0;
	f->phase = APDU_DONE;
	f->err = apdu_sw_err(sw);
}

/* Send the queued U2F request APDU (its header and data framed again)
 * and collect the reply, its status word at the end. */
static int
fido_start_msg(struct apdu_fido *f, int64_t deadline)
{
	const uint8_t *data;
	uint8_t hdr[4];
	uint16_t sw = 0;
	size_t dlen;
	int r;

	if (apdu_parse_cmd(f->req, f->req_len, hdr, &data, &dlen) != ERR_OK)
		return ERR_INVAL; /* checked by apdu_fido_send */
	r = apdu_exchange(&f->card, hdr, data, dlen, f->buf, APDU_REPLY_MAX,
	    &f->len, &sw, deadline);
	if (r != ERR_OK)
		return fido_link_err(f, "U2F", r);
	f->buf[f->len++] = (uint8_t)(sw >> 8); /* U2F replies end in SW */
	f->buf[f->len++] = (uint8_t)(sw & 0xff);
	f->phase = APDU_DONE;
	f->err = ERR_OK;
	return ERR_OK;
}

/* Send the queued request: ERR_OK with the session DONE or POLL. */
static int
fido_start(struct apdu_fido *f, int64_t deadline)
{
	/* NFCCTAP_MSG, P1 0x80: we poll with NFCCTAP_GETRESPONSE */
	static const uint8_t hdr[4] = {0x80, 0x10, 0x80, 0x00};
	uint16_t sw = 0;
	int r;

	if (f->kind == XPORT_MSG)
		r = fido_start_msg(f, deadline);
	else if ((r = apdu_exchange(&f->card, hdr, f->req, f->req_len, f->buf,
		      APDU_REPLY_MAX, &f->len, &sw, deadline)) != ERR_OK)
		r = fido_link_err(f, "NFCCTAP_MSG", r);
	else
		fido_cbor_sw(f, sw);
	util_wipe(f->req, f->req_len);
	f->req_len = 0;
	return r;
}

/* A request is only queued here: it goes out in apdu_fido_recv, which
 * may block (the card's own time), never in a send. */
int
apdu_fido_send(
    struct apdu_fido *f, uint8_t kind, const uint8_t *msg, size_t len, int ms)
{
	const uint8_t *data;
	uint8_t hdr[4];
	size_t dlen;

	(void)ms;
	apdu_fido_cancel(f);
	if ((kind != XPORT_MSG && kind != XPORT_CBOR) || len == 0)
		return ERR_INVAL;
	if (len > sizeof(f->req))
		return ERR_TOO_BIG;
	if (kind == XPORT_MSG &&
	    apdu_parse_cmd(msg, len, hdr, &data, &dlen) != ERR_OK)
		return ERR_INVAL;
	memcpy(f->req, msg, len);
	f->req_len = len;
	f->kind = kind;
	f->phase = APDU_QUEUED;
	return ERR_OK;
}

/* One NFCCTAP_GETRESPONSE. */
static int
fido_poll(struct apdu_fido *f)
{
	static const uint8_t hdr[4] = {0x80, 0x11, 0x00, 0x00};
	uint16_t sw = 0;
	int r;

	f->polls++;
	r = apdu_exchange(&f->card, hdr, NULL, 0, f->buf, APDU_REPLY_MAX,
	    &f->len, &sw, f->deadline);
	if (r != ERR_OK)
		return fido_link_err(f, "NFCCTAP_GETRESPONSE", r);
	fido_cbor_sw(f, sw);
	return ERR_OK;
}

int
apdu_fido_recv(struct apdu_fido *f, uint8_t kind, uint8_t *buf, size_t cap,
    size_t *len, int ms, int *status)
{
	int64_t deadline =
	    apdu_first(util_now_ms() + (ms > 0 ? ms : 0), f->deadline);
	int r;

	*status = XPORT_KA_NONE;
	if (f->phase == APDU_IDLE || kind != f->kind)
		return ERR_INVAL;
	/* The request goes out within ms, or (0) APDU_XMIT_MS per APDU;
	 * never past the operation's end. */
	if (f->phase == APDU_QUEUED &&
	    (r = fido_start(f, ms > 0 ? deadline : f->deadline)) != ERR_OK)
		return r;
	while (f->phase == APDU_POLL) {
		*status = f->ka;
		if (util_now_ms() < f->next_poll && deadline < f->next_poll) {
			util_sleep_ms(util_ms_left(deadline));
			return ERR_TIMEOUT;
		}
		util_sleep_ms(util_ms_left(f->next_poll));
		if (f->deadline != 0 && util_now_ms() >= f->deadline)
			return ERR_TIMEOUT; /* the operation's time is over */
		if ((r = fido_poll(f)) != ERR_OK)
			return r;
	}
	f->phase = APDU_IDLE;
	if ((r = f->err) == ERR_OK && f->len > cap)
		r = ERR_PROTO;
	if (r == ERR_OK) {
		memcpy(buf, f->buf, f->len);
		*len = f->len;
	}
	util_wipe(f->buf, sizeof(f->buf));
	f->len = 0;
	return r;
}

void
apdu_fido_cancel(struct apdu_fido *f)
{
	f->phase = APDU_IDLE;
	f->err = ERR_OK;
	f->ka = XPORT_KA_NONE;
	f->polls = 0;
	util_wipe(f->buf, sizeof(f->buf));
	f->len = 0;
	util_wipe(f->req, sizeof(f->req));
	f->req_len = 0;
}

int64_t
apdu_fido_wake_at(const struct apdu_fido *f)
{
	switch (f->phase) {
	case APDU_QUEUED:
	case APDU_DONE:
		return 0;
	case APDU_POLL:
		return f->next_poll;
	default:
		return INT64_MAX;
	}
}
