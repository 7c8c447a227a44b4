/* SPDX-License-Identifier: BSD-2-Clause */
/* uhid front: a virtual FIDO HID device through /dev/uhid. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/uhid.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/util.h"
#include "detach.h"
#include "front.h"

#define UHID_PATH "/dev/uhid"
#define PACE_AFTER 32      /* reports in a burst before pacing */
#define PACE_NS 2000000L   /* 2 ms between paced reports */
#define NODE_WAIT_MS 10000 /* the hidraw node must appear within this */
#define NODE_RETRY_MS 2    /* looked for again after this */
#define HIDRAW_CLASS "/sys/class/hidraw"

struct front_uhid {
	int fd;
	size_t burst;       /* reports sent since the last output */
	int nopace;         /* fault burst: do not pace */
	long phys_pid;      /* HID_PHYS=softtoken/PID names the device */
	int started;        /* UHID_START came */
	int64_t node_by_ms; /* give up looking for the node then */
};

/* FIDO HID report descriptor: 64-byte input and output reports. */
static const uint8_t fido_rdesc[] = {
    0x06, 0xd0, 0xf1, /* Usage Page (FIDO Alliance 0xF1D0) */
    0x09, 0x01,       /* Usage (U2F HID Authenticator Device) */
    0xa1, 0x01,       /* Collection (Application) */
    0x09, 0x20,       /*  Usage (Input Report Data) */
    0x15, 0x00,       /*  Logical Minimum (0) */
    0x26, 0xff, 0x00, /*  Logical Maximum (255) */
    0x75, 0x08,       /*  Report Size (8) */
    0x95, 0x40,       /*  Report Count (64) */
    0x81, 0x02,       /*  Input (Data, Var, Abs) */
    0x09, 0x21,       /*  Usage (Output Report Data) */
    0x15, 0x00,       /*  Logical Minimum (0) */
    0x26, 0xff, 0x00, /*  Logical Maximum (255) */
    0x75, 0x08,       /*  Report Size (8) */
    0x95, 0x40,       /*  Report Count (64) */
    0x91, 0x02,       /*  Output (Data, Var, Abs) */
    0xc0              /* End Collection */
};

/* A boot keyboard (a security key's OTP interface looks like this). */
static const uint8_t keyboard_rdesc[] = {
    0x05, 0x01, /* Usage Page (Generic Desktop) */
    0x09, 0x06, /* Usage (Keyboard) */
    0xa1, 0x01, /* Collection (Application) */
    0x05, 0x07, /*  Usage Page (Keyboard) */
    0x19, 0xe0, /*  Usage Minimum (224) */
    0x29, 0xe7, /*  Usage Maximum (231) */
    0x15, 0x00, /*  Logical Minimum (0) */
    0x25, 0x01, /*  Logical Maximum (1) */
    0x75, 0x01, /*  Report Size (1) */
    0x95, 0x08, /*  Report Count (8) */
    0x81, 0x02, /*  Input (Data, Var, Abs) */
    0xc0        /* End Collection */
};

/* FIDO, but its reports carry a report ID (1). */
static const uint8_t fido_id_rdesc[] = {
    0x06, 0xd0, 0xf1, /* Usage Page (FIDO Alliance 0xF1D0) */
    0x09, 0x01,       /* Usage (U2F HID Authenticator Device) */
    0xa1, 0x01,       /* Collection (Application) */
    0x85, 0x01,       /*  Report ID (1) */
    0x09, 0x20,       /*  Usage (Input Report Data) */
    0x15, 0x00,       /*  Logical Minimum (0) */
    0x26, 0xff, 0x00, /*  Logical Maximum (255) */
    0x75, 0x08,       /*  Report Size (8) */
    0x95, 0x40,       /*  Report Count (64) */
    0x81, 0x02,       /*  Input (Data, Var, Abs) */
    0x09, 0x21,       /*  Usage (Output Report Data) */
    0x95, 0x40,       /*  Report Count (64) */
    0x91, 0x02,       /*  Output (Data, Var, Abs) */
    0xc0              /* End Collection */
};

static int
uhid_put(int fd, const struct uhid_event *ev)
{
	ssize_t n;

	do
		n = write(fd, ev, sizeof(*ev));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(*ev) ? ERR_OK : ERR_IO;
}

static int
uhid_create(int fd, enum front_rdesc rd, long phys_pid)
{
	const uint8_t *desc = fido_rdesc;
	size_t dlen = sizeof(fido_rdesc);
	struct uhid_event ev;

	if (rd == FRONT_RDESC_KEYBOARD) {
		desc = keyboard_rdesc;
		dlen = sizeof(keyboard_rdesc);
	} else if (rd == FRONT_RDESC_REPORT_IDS) {
		desc = fido_id_rdesc;
		dlen = sizeof(fido_id_rdesc);
	}

	memset(&ev, 0, sizeof(ev));
	ev.type = UHID_CREATE2;
	snprintf((char *)ev.u.create2.name, sizeof(ev.u.create2.name),
	    "pam_u2f softtoken");
	snprintf((char *)ev.u.create2.phys, sizeof(ev.u.create2.phys),
	    "softtoken/%ld", phys_pid);
	snprintf((char *)ev.u.create2.uniq, sizeof(ev.u.create2.uniq), "%ld",
	    (long)getpid());
	memcpy(ev.u.create2.rd_data, desc, dlen);
	ev.u.create2.rd_size = (uint16_t)dlen;
	ev.u.create2.bus = BUS_USB;
	ev.u.create2.vendor = 0x1209; /* pid.codes test vendor */
	ev.u.create2.product = 0x000f;
	return uhid_put(fd, &ev);
}

int
front_uhid_open(struct front_uhid **out, int pace, enum front_rdesc rd)
{
	struct front_uhid *fu;

	*out = NULL;
	if ((fu = calloc(1, sizeof(*fu))) == NULL)
		return ERR_NOMEM;
	fu->nopace = !pace;
	fu->phys_pid = (long)getpid();
	fu->node_by_ms = util_now_ms() + NODE_WAIT_MS;
	fu->fd = open(UHID_PATH, O_RDWR | O_CLOEXEC);
	if (fu->fd < 0 || uhid_create(fu->fd, rd, fu->phys_pid) != ERR_OK) {
		fprintf(
		    stderr, "softtoken: %s: %s\n", UHID_PATH, strerror(errno));
		if (fu->fd >= 0)
			close(fu->fd);
		free(fu);
		return ERR_NODEV;
	}
	*out = fu;
	return ERR_OK;
}

void
front_uhid_send(void *arg, const uint8_t *report)
{
	struct front_uhid *fu = arg;
	struct timespec ts = {0, PACE_NS};
	struct uhid_event ev;

	/* hidraw queues 64 reports per reader: pace long bursts. */
	if (!fu->nopace && ++fu->burst > PACE_AFTER)
		nanosleep(&ts, NULL);
	memset(&ev, 0, sizeof(ev));
	ev.type = UHID_INPUT2;
	ev.u.input2.size = CTAPHID_DEV_REPORT;
	memcpy(ev.u.input2.data, report, CTAPHID_DEV_REPORT);
	if (uhid_put(fu->fd, &ev) != ERR_OK)
		fprintf(stderr, "softtoken: uhid input: %s\n", strerror(errno));
}

static void
on_output(
    struct front_uhid *fu, struct ctaphid_dev *d, const struct uhid_event *ev)
{
	const uint8_t *p = ev->u.output.data;
	size_t n = ev->u.output.size;

	if (n == CTAPHID_DEV_REPORT + 1 && p[0] == 0) { /* report id */
		p++;
		n--;
	}
	fu->burst = 0;
	ctaphid_dev_input(d, p, n, util_now_ms());
}

/* Refuse GET/SET_REPORT: FIDO devices have no feature reports. */
static void
refuse_report(struct front_uhid *fu, const struct uhid_event *ev)
{
	struct uhid_event rep;

	memset(&rep, 0, sizeof(rep));
	if (ev->type == UHID_GET_REPORT) {
		rep.type = UHID_GET_REPORT_REPLY;
		rep.u.get_report_reply.id = ev->u.get_report.id;
		rep.u.get_report_reply.err = EIO;
	} else {
		rep.type = UHID_SET_REPORT_REPLY;
		rep.u.set_report_reply.id = ev->u.set_report.id;
		rep.u.set_report_reply.err = EIO;
	}
	(void)uhid_put(fu->fd, &rep);
}

/* Does the uevent file at path hold the line want? */
static int
uevent_has(const char *path, const char *want)
{
	char line[256];
	int found = 0;
	FILE *f;

	if ((f = fopen(path, "re")) == NULL)
		return 0;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		found = strcmp(line, want) == 0;
	fclose(f);
	return found;
}

/* The device node of this token's hidraw device, once the kernel made
 * it: ERR_OK with its path in node; ERR_NODEV while there is none. */
static int
find_node(const struct front_uhid *fu, char *node, size_t n)
{
	char want[64], path[300];
	struct dirent *e;
	struct stat st;
	int r = ERR_NODEV;
	DIR *d;

	snprintf(want, sizeof(want), "HID_PHYS=softtoken/%ld\n", fu->phys_pid);
	if ((d = opendir(HIDRAW_CLASS)) == NULL)
		return ERR_NODEV;
	while (r != ERR_OK && (e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "hidraw", 6) != 0)
			continue;
		snprintf(path, sizeof(path), HIDRAW_CLASS "/%s/device/uevent",
		    e->d_name);
		if (!uevent_has(path, want))
			continue;
		snprintf(node, n, "/dev/%s", e->d_name);
		if (stat(node, &st) == 0 && S_ISCHR(st.st_mode))
			r = ERR_OK;
	}
	closedir(d);
	return r;
}

/* While someone waits for the token to be ready: tell them the node's
 * path once it exists, or give up (close, nothing said) at node_by_ms.
 * Returns the ms until the next look (every NODE_RETRY_MS after
 * UHID_START, node_by_ms before it), or -1 if no one waits. */
static int
tell_ready(struct front_uhid *fu, int *ready_fd, int64_t now)
{
	char node[300];

	if (*ready_fd < 0)
		return -1;
	if (fu->started && find_node(fu, node, sizeof(node)) == ERR_OK) {
		detach_ready(ready_fd, node);
		return -1;
	}
	if (now >= fu->node_by_ms) {
		fprintf(stderr,
		    "softtoken: no hidraw node for this device within %d ms\n",
		    NODE_WAIT_MS);
		close(*ready_fd);
		*ready_fd = -1;
		return -1;
	}
	return fu->started ? NODE_RETRY_MS : (int)(fu->node_by_ms - now);
}

static int
read_event(struct front_uhid *fu, struct ctaphid_dev *d)
{
	struct uhid_event ev;
	ssize_t n;

	memset(&ev, 0, sizeof(ev));
	if ((n = read(fu->fd, &ev, sizeof(ev))) < 0)
		return errno == EINTR || errno == EAGAIN ? ERR_OK : ERR_IO;
	if (ev.type == UHID_START)
		fu->started = 1;
	else if (ev.type == UHID_OUTPUT)
		on_output(fu, d, &ev);
	else if (ev.type == UHID_GET_REPORT || ev.type == UHID_SET_REPORT)
		refuse_report(fu, &ev);
	util_wipe(&ev, sizeof(ev));
	return ERR_OK;
}

int
front_uhid_run(struct front_uhid *fu, struct ctaphid_dev *d,
    const sigset_t *sigmask, volatile sig_atomic_t *stop, int *ready_fd)
{
	struct pollfd pfd;
	struct timespec ts, *tsp;
	int ms, look, n;

	while (!*stop && !ctaphid_dev_gone(d)) {
		pfd.fd = fu->fd;
		pfd.events = POLLIN;
		tsp = NULL;
		ms = ctaphid_dev_next_ms(d, util_now_ms());
		look = tell_ready(fu, ready_fd, util_now_ms());
		if (look >= 0 && (ms < 0 || look < ms))
			ms = look;
		if (ms >= 0) {
			ts.tv_sec = ms / 1000;
			ts.tv_nsec = (long)(ms % 1000) * 1000000L;
			tsp = &ts;
		}
		if ((n = ppoll(&pfd, 1, tsp, sigmask)) < 0 && errno != EINTR)
			return ERR_SYSTEM;
		if (n > 0 && read_event(fu, d) != ERR_OK) {
			fprintf(stderr, "softtoken: uhid read: %s\n",
			    strerror(errno));
			return ERR_IO;
		}
		fu->burst = 0;
		ctaphid_dev_tick(d, util_now_ms());
	}
	return ERR_OK;
}

void
front_uhid_close(struct front_uhid **fup)
{
	struct front_uhid *fu = *fup;
	struct uhid_event ev;

	if (fu == NULL)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.type = UHID_DESTROY;
	(void)uhid_put(fu->fd, &ev);
	close(fu->fd);
	free(fu);
	*fup = NULL;
}
