/* SPDX-License-Identifier: BSD-2-Clause */
/* A scripted fake device behind struct hid_io; see fakehid.h. Linked
 * as tests/lib/libfakehid.la by the transport, protocol and device tests,
 * hence in tests/lib. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/ctaphid.h"
#include "base/err.h"
#include "base/util.h"
#include "fakehid.h"

#define FAKE_REPORT_CAP (2 * HID_REPORT_MAX)

struct fake_event {
	int err; /* 0: a report */
	size_t len;
	uint8_t data[FAKE_REPORT_CAP];
};

struct fake_report {
	size_t len;
	uint8_t data[FAKE_REPORT_CAP];
};

struct fakehid {
	char path[64];
	size_t report;
	struct fake_event *q;
	size_t qhead, qlen, qcap;
	int repeat_on;
	struct fake_event repeat;
	struct fake_report *w;
	size_t nw, wcap;
	/* host message being reassembled */
	int rx_active;
	uint8_t rx_cid[4];
	uint8_t rx_cmd;
	uint8_t rx_seq;
	size_t rx_bcnt, rx_got;
	uint8_t rx_buf[CTAPHID_MAX_MSG];
	int auto_init, auto_ping;
	uint8_t init_cid[4];
	fakehid_msg_fn fn;
	void *fn_arg;
	int open_err, write_err, is_open;
	size_t nreads, bad;
	int last_ms;
	int read_ms; /* < 0: reads take no time */
};

struct fakehid *
fakehid_new(size_t report)
{
	struct fakehid *f;

	if ((f = calloc(1, sizeof(*f))) == NULL)
		return NULL;
	f->report = report ? report : 64;
	f->read_ms = -1;
	snprintf(f->path, sizeof(f->path), "fake:%p", (void *)f);
	return f;
}

void
fakehid_free(struct fakehid *f)
{
	if (f == NULL)
		return;
	free(f->q);
	free(f->w);
	free(f);
}

const char *
fakehid_path(const struct fakehid *f)
{
	return f->path;
}

static struct fake_event *
queue_slot(struct fakehid *f)
{
	struct fake_event *p;
	size_t ncap;

	if (f->qhead > 0 && f->qhead == f->qlen) {
		f->qhead = 0;
		f->qlen = 0;
	}
	if (f->qlen == f->qcap) {
		ncap = f->qcap ? f->qcap * 2 : 16;
		if ((p = realloc(f->q, ncap * sizeof(*p))) == NULL)
			return NULL;
		f->q = p;
		f->qcap = ncap;
	}
	p = &f->q[f->qlen++];
	memset(p, 0, sizeof(*p));
	return p;
}

int
fakehid_queue_report(struct fakehid *f, const uint8_t *r, size_t len)
{
	struct fake_event *e;

	if (len > FAKE_REPORT_CAP || (e = queue_slot(f)) == NULL)
		return -1;
	if (len > 0)
		memcpy(e->data, r, len);
	e->len = len;
	return 0;
}

int
fakehid_queue_error(struct fakehid *f, int err)
{
	struct fake_event *e;

	if ((e = queue_slot(f)) == NULL)
		return -1;
	e->err = err;
	return 0;
}

int
fakehid_queue_init_frame(struct fakehid *f, const uint8_t cid[4], uint8_t cmd,
    size_t bcnt, const uint8_t *data, size_t len)
{
	uint8_t r[HID_REPORT_MAX];
	size_t room = f->report - 7;

	memset(r, 0, sizeof(r));
	memcpy(r, cid, 4);
	r[4] = cmd;
	r[5] = (uint8_t)(bcnt >> 8);
	r[6] = (uint8_t)bcnt;
	if (len > room)
		len = room;
	if (len > 0)
		memcpy(r + 7, data, len);
	return fakehid_queue_report(f, r, f->report);
}

int
fakehid_queue_cont_frame(struct fakehid *f, const uint8_t cid[4], uint8_t seq,
    const uint8_t *data, size_t len)
{
	uint8_t r[HID_REPORT_MAX];
	size_t room = f->report - 5;

	memset(r, 0, sizeof(r));
	memcpy(r, cid, 4);
	r[4] = seq;
	if (len > room)
		len = room;
	if (len > 0)
		memcpy(r + 5, data, len);
	return fakehid_queue_report(f, r, f->report);
}

int
fakehid_queue_msg(struct fakehid *f, const uint8_t cid[4], uint8_t cmd,
    const uint8_t *data, size_t len)
{
	size_t off, n;
	uint8_t seq = 0;

	if (fakehid_queue_init_frame(f, cid, cmd, len, data, len) != 0)
		return -1;
	off = len < f->report - 7 ? len : f->report - 7;
	for (; off < len; off += n) {
		n = len - off < f->report - 5 ? len - off : f->report - 5;
		if (fakehid_queue_cont_frame(f, cid, seq++, data + off, n) != 0)
			return -1;
	}
	return 0;
}

void
fakehid_set_repeat(struct fakehid *f, const uint8_t *r, size_t len)
{
	f->repeat_on = r != NULL && len <= FAKE_REPORT_CAP;
	if (f->repeat_on) {
		memcpy(f->repeat.data, r, len);
		f->repeat.len = len;
	}
}

size_t
fakehid_queued(const struct fakehid *f)
{
	return f->qlen - f->qhead;
}

void
fakehid_auto_init(struct fakehid *f, const uint8_t cid[4])
{
	f->auto_init = 1;
	memcpy(f->init_cid, cid, 4);
}

void
fakehid_auto_ping(struct fakehid *f, int on)
{
	f->auto_ping = on;
}

void
fakehid_set_handler(struct fakehid *f, fakehid_msg_fn fn, void *arg)
{
	f->fn = fn;
	f->fn_arg = arg;
}

void
fakehid_set_read_ms(struct fakehid *f, int ms)
{
	f->read_ms = ms;
}

void
fakehid_set_open_err(struct fakehid *f, int err)
{
	f->open_err = err;
}

void
fakehid_set_write_err(struct fakehid *f, int err)
{
	f->write_err = err;
}

size_t
fakehid_nwritten(const struct fakehid *f)
{
	return f->nw;
}

const uint8_t *
fakehid_written(const struct fakehid *f, size_t i, size_t *len)
{
	if (i >= f->nw)
		return NULL;
	if (len != NULL)
		*len = f->w[i].len;
	return f->w[i].data;
}

size_t
fakehid_nreads(const struct fakehid *f)
{
	return f->nreads;
}

int
fakehid_last_read_ms(const struct fakehid *f)
{
	return f->last_ms;
}

int
fakehid_is_open(const struct fakehid *f)
{
	return f->is_open;
}

size_t
fakehid_bad_frames(const struct fakehid *f)
{
	return f->bad;
}

static void
dispatch(struct fakehid *f)
{
	static const uint8_t bcast[4] = {0xff, 0xff, 0xff, 0xff};
	uint8_t rep[17];

	if (f->rx_cmd == CTAPHID_INIT && f->auto_init &&
	    memcmp(f->rx_cid, bcast, 4) == 0 && f->rx_bcnt == 8) {
		memcpy(rep, f->rx_buf, 8);
		memcpy(rep + 8, f->init_cid, 4);
		rep[12] = 2; /* protocol, firmware 5.5.4, caps WINK|CBOR */
		rep[13] = 5;
		rep[14] = 5;
		rep[15] = 4;
		rep[16] = CTAPHID_CAP_WINK | CTAPHID_CAP_CBOR;
		fakehid_queue_msg(f, bcast, CTAPHID_INIT, rep, sizeof(rep));
	} else if (f->rx_cmd == CTAPHID_PING && f->auto_ping)
		fakehid_queue_msg(
		    f, f->rx_cid, CTAPHID_PING, f->rx_buf, f->rx_bcnt);
	else if (f->fn != NULL)
		f->fn(
		    f, f->rx_cid, f->rx_cmd, f->rx_buf, f->rx_bcnt, f->fn_arg);
}

/* Reassemble host frames into messages. */
static void
reassemble(struct fakehid *f, const uint8_t *r, size_t len)
{
	size_t n;

	if (len != f->report) {
		f->bad++;
		return;
	}
	if ((r[4] & 0x80) != 0) {
		if (f->rx_active)
			f->bad++; /* previous message abandoned */
		f->rx_active = 0;
		f->rx_bcnt = (size_t)r[5] << 8 | r[6];
		if (f->rx_bcnt > CTAPHID_MAX_MSG) {
			f->bad++;
			return;
		}
		memcpy(f->rx_cid, r, 4);
		f->rx_cmd = r[4];
		f->rx_seq = 0;
		n = f->rx_bcnt < len - 7 ? f->rx_bcnt : len - 7;
		memcpy(f->rx_buf, r + 7, n);
		f->rx_got = n;
		f->rx_active = 1;
	} else {
		if (!f->rx_active || memcmp(r, f->rx_cid, 4) != 0 ||
		    r[4] != f->rx_seq) {
			f->bad++;
			f->rx_active = 0;
			return;
		}
		f->rx_seq++;
		n = f->rx_bcnt - f->rx_got < len - 5 ? f->rx_bcnt - f->rx_got
						     : len - 5;
		memcpy(f->rx_buf + f->rx_got, r + 5, n);
		f->rx_got += n;
	}
	if (f->rx_got == f->rx_bcnt) {
		f->rx_active = 0;
		dispatch(f);
	}
}

static void *
fake_open(const char *path, int *err)
{
	void *p = NULL;
	struct fakehid *f;

	if (path == NULL || sscanf(path, "fake:%p", &p) != 1 || p == NULL) {
		*err = ERR_NODEV;
		return NULL;
	}
	f = p;
	if (f->open_err != 0) {
		*err = f->open_err;
		return NULL;
	}
	f->is_open = 1;
	*err = ERR_OK;
	return f;
}

static void
fake_close(void *handle)
{
	struct fakehid *f = handle;

	f->is_open = 0;
}

static int
fake_read(void *handle, uint8_t *buf, size_t cap, int ms)
{
	struct fakehid *f = handle;
	const struct fake_event *e;
	size_t n;

	f->nreads++;
	f->last_ms = ms;
	if (f->qhead < f->qlen)
		e = &f->q[f->qhead++];
	else if (f->repeat_on)
		e = &f->repeat;
	else {
		if (f->read_ms >= 0)
			util_sleep_ms(ms);
		return ERR_TIMEOUT;
	}
	if (f->read_ms >= 0)
		util_sleep_ms(f->read_ms);
	if (e->err != 0)
		return e->err;
	n = e->len < cap ? e->len : cap;
	memcpy(buf, e->data, n);
	return (int)n;
}

static int
fake_write(void *handle, const uint8_t *buf, size_t len, int ms)
{
	struct fakehid *f = handle;
	struct fake_report *p;
	size_t ncap;

	(void)ms;
	if (f->write_err != 0)
		return f->write_err;
	if (len > FAKE_REPORT_CAP)
		return ERR_INVAL;
	if (f->nw == f->wcap) {
		ncap = f->wcap ? f->wcap * 2 : 16;
		if ((p = realloc(f->w, ncap * sizeof(*p))) == NULL)
			return ERR_NOMEM;
		f->w = p;
		f->wcap = ncap;
	}
	memcpy(f->w[f->nw].data, buf, len);
	f->w[f->nw++].len = len;
	reassemble(f, buf, len);
	return ERR_OK;
}

const struct hid_io fakehid_io = {
    .open = fake_open,
    .close = fake_close,
    .read = fake_read,
    .write = fake_write,
    .fd = NULL,
};
