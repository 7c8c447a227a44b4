/* SPDX-License-Identifier: BSD-2-Clause */
/* The HID report descriptor parser, discovery against a fake sysfs tree,
 * why no node can be used (hidraw_why.c: hidden from this process, or
 * refused with EACCES), and the refusals of the hidraw I/O. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <grp.h>
#include <unistd.h>

#include "base/err.h"
#include "transport/hid.h"
#include "transport/hidraw.h"
#include "transport/hidraw_node.h"
#include "transport/hidraw_why.h"
#include "test.h"
#include "transport/unixdev.h"

/* A YubiKey's FIDO interface. */
static const uint8_t rd_fido[] = {0x06, 0xd0, 0xf1, 0x09, 0x01, 0xa1, 0x01,
    0x09, 0x20, 0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08, 0x95, 0x40, 0x81,
    0x02, 0x09, 0x21, 0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08, 0x95, 0x40,
    0x91, 0x02, 0xc0};

/* The same with a report id. */
static const uint8_t rd_fido_id[] = {0x06, 0xd0, 0xf1, 0x09, 0x01, 0xa1, 0x01,
    0x85, 0x01, 0x09, 0x20, 0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08, 0x95,
    0x40, 0x81, 0x02, 0x09, 0x21, 0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08,
    0x95, 0x40, 0x91, 0x02, 0xc0};

/* A boot keyboard. */
static const uint8_t rd_keyboard[] = {0x05, 0x01, 0x09, 0x06, 0xa1, 0x01, 0x05,
    0x07, 0x19, 0xe0, 0x29, 0xe7, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95,
    0x08, 0x81, 0x02, 0x95, 0x01, 0x75, 0x08, 0x81, 0x01, 0x95, 0x05, 0x75,
    0x01, 0x05, 0x08, 0x19, 0x01, 0x29, 0x05, 0x91, 0x02, 0x95, 0x01, 0x75,
    0x03, 0x91, 0x01, 0x95, 0x06, 0x75, 0x08, 0x15, 0x00, 0x25, 0x65, 0x05,
    0x07, 0x19, 0x00, 0x29, 0x65, 0x81, 0x00, 0xc0};

/* A three-button mouse. */
static const uint8_t rd_mouse[] = {0x05, 0x01, 0x09, 0x02, 0xa1, 0x01, 0x09,
    0x01, 0xa1, 0x00, 0x05, 0x09, 0x19, 0x01, 0x29, 0x03, 0x15, 0x00, 0x25,
    0x01, 0x95, 0x03, 0x75, 0x01, 0x81, 0x02, 0x95, 0x01, 0x75, 0x05, 0x81,
    0x01, 0x05, 0x01, 0x09, 0x30, 0x09, 0x31, 0x15, 0x81, 0x25, 0x7f, 0x75,
    0x08, 0x95, 0x02, 0x81, 0x06, 0xc0, 0xc0};

/* Parse from an exactly sized heap copy, so that a read past the end
 * is caught by ASan/valgrind. */
static int
parse_copy(const uint8_t *d, size_t len, struct hidraw_rdesc *out)
{
	uint8_t *p = malloc(len ? len : 1);
	int r;

	if (p == NULL)
		abort();
	if (len > 0)
		memcpy(p, d, len);
	r = hidraw_parse_rdesc(len ? p : NULL, len, out);
	free(p);
	return r;
}

static void
test_rdesc_fido(void)
{
	struct hidraw_rdesc rd;

	memset(&rd, 0xaa, sizeof(rd));
	T_EQ_ERR(parse_copy(rd_fido, sizeof(rd_fido), &rd), ERR_OK);
	T_EQ_INT(rd.fido, 1);
	T_EQ_INT(rd.report_ids, 0);
	T_EQ_INT(rd.report_in, 64);
	T_EQ_INT(rd.report_out, 64);
}

static void
test_rdesc_not_fido(void)
{
	struct hidraw_rdesc rd;

	T_EQ_ERR(parse_copy(rd_keyboard, sizeof(rd_keyboard), &rd), ERR_OK);
	T_EQ_INT(rd.fido, 0);
	T_EQ_ERR(parse_copy(rd_mouse, sizeof(rd_mouse), &rd), ERR_OK);
	T_EQ_INT(rd.fido, 0);
	/* F1D0 page but another usage. */
	{
		uint8_t d[sizeof(rd_fido)];

		memcpy(d, rd_fido, sizeof(d));
		d[4] = 0x02;
		T_EQ_ERR(parse_copy(d, sizeof(d), &rd), ERR_OK);
		T_EQ_INT(rd.fido, 0);
	}
}

static void
test_rdesc_composite(void)
{
	uint8_t d[sizeof(rd_keyboard) + sizeof(rd_fido)];
	struct hidraw_rdesc rd;

	/* keyboard first: only the FIDO collection's reports count */
	memcpy(d, rd_keyboard, sizeof(rd_keyboard));
	memcpy(d + sizeof(rd_keyboard), rd_fido, sizeof(rd_fido));
	T_EQ_ERR(parse_copy(d, sizeof(d), &rd), ERR_OK);
	T_EQ_INT(rd.fido, 1);
	T_EQ_INT(rd.report_in, 64);
	T_EQ_INT(rd.report_out, 64);
}

static void
test_rdesc_truncated(void)
{
	struct hidraw_rdesc rd;
	size_t i;

	for (i = 0; i < sizeof(rd_fido); i++)
		T_EQ_ERR(parse_copy(rd_fido, i, &rd), ERR_PROTO);
	for (i = 1; i < sizeof(rd_keyboard); i++)
		T_EQ_ERR(parse_copy(rd_keyboard, i, &rd), ERR_PROTO);
	T_EQ_ERR(hidraw_parse_rdesc(NULL, 5, &rd), ERR_PROTO);
}

static void
test_rdesc_garbage(void)
{
	static const uint8_t extra_end[] = {0xc0};
	static const uint8_t reserved[] = {0x0c};
	static const uint8_t pop_empty[] = {0xb4};
	static const uint8_t long_trunc[] = {0xfe, 0x10, 0x00, 0x01};
	static const uint8_t long_hdr[] = {0xfe, 0x01};
	uint8_t push[13], junk[256];
	struct hidraw_rdesc rd;
	unsigned int seed = 1;
	size_t i, j;
	int r;

	T_EQ_ERR(parse_copy(extra_end, sizeof(extra_end), &rd), ERR_PROTO);
	T_EQ_ERR(parse_copy(reserved, sizeof(reserved), &rd), ERR_PROTO);
	T_EQ_ERR(parse_copy(pop_empty, sizeof(pop_empty), &rd), ERR_PROTO);
	T_EQ_ERR(parse_copy(long_trunc, sizeof(long_trunc), &rd), ERR_PROTO);
	T_EQ_ERR(parse_copy(long_hdr, sizeof(long_hdr), &rd), ERR_PROTO);
	/* pushes then an empty collection: room for 8 pushes, not 9 */
	memset(push, 0xa4, sizeof(push));
	memcpy(push + 8, "\xa1\x00\xc0", 3);
	T_EQ_ERR(parse_copy(push, 11, &rd), ERR_OK);
	memset(push, 0xa4, sizeof(push));
	memcpy(push + 9, "\xa1\x00\xc0", 3);
	T_EQ_ERR(parse_copy(push, 12, &rd), ERR_PROTO);
	/* no collection at all */
	T_EQ_ERR(parse_copy(rd_fido, 5, &rd), ERR_PROTO);
	/* Pseudo-random junk: any answer but a crash or a read out of
	 * bounds (run under ASan/valgrind to see the latter). */
	for (i = 0; i < 2000; i++) {
		for (j = 0; j < sizeof(junk); j++) {
			seed = seed * 1103515245U + 12345U;
			junk[j] = (uint8_t)(seed >> 16);
		}
		r = parse_copy(junk, 1 + i % sizeof(junk), &rd);
		T_TRUE(r == ERR_OK || r == ERR_PROTO || r == ERR_UNSUPPORTED);
	}
}

static void
test_rdesc_long_item(void)
{
	uint8_t d[sizeof(rd_fido) + 6];
	struct hidraw_rdesc rd;

	/* a long item with 3 data bytes inside the collection */
	memcpy(d, rd_fido, 7);
	memcpy(d + 7, "\xfe\x03\x00\xc0\xc0\xc0", 6);
	memcpy(d + 13, rd_fido + 7, sizeof(rd_fido) - 7);
	T_EQ_ERR(parse_copy(d, sizeof(d), &rd), ERR_OK);
	T_EQ_INT(rd.fido, 1);
	T_EQ_INT(rd.report_in, 64);
}

/* The FIDO descriptor with other report counts (bytes of 8 bits). */
static int
parse_counts(uint8_t in, uint8_t out, struct hidraw_rdesc *rd)
{
	uint8_t d[sizeof(rd_fido)];

	memcpy(d, rd_fido, sizeof(d));
	d[17] = in;
	d[30] = out;
	return parse_copy(d, sizeof(d), rd);
}

static void
test_rdesc_sizes(void)
{
	static const uint8_t ext[] = {
	    0x0b, 0x01, 0x00, 0xd0, 0xf1, 0xa1, 0x01, 0xc0};
	static const uint8_t bits[] = {0x06, 0xd0, 0xf1, 0x09, 0x01, 0xa1, 0x01,
	    0x75, 0x01, 0x95, 0x64, 0x81, 0x02, 0x91, 0x02, 0xc0};
	struct hidraw_rdesc rd;

	T_EQ_ERR(parse_counts(32, 16, &rd), ERR_OK);
	T_EQ_INT(rd.report_in, 32);
	T_EQ_INT(rd.report_out, 16);
	T_EQ_ERR(parse_counts(8, 8, &rd), ERR_OK);
	T_EQ_INT(rd.report_in, 8);
	T_EQ_ERR(parse_counts(7, 64, &rd), ERR_UNSUPPORTED);
	T_EQ_ERR(parse_counts(64, 65, &rd), ERR_UNSUPPORTED);
	T_EQ_ERR(parse_counts(0xff, 64, &rd), ERR_UNSUPPORTED);
	/* 100 one-bit fields: 13 bytes. */
	T_EQ_ERR(parse_copy(bits, sizeof(bits), &rd), ERR_OK);
	T_EQ_INT(rd.report_in, 13);
	T_EQ_INT(rd.report_out, 13);
	/* Extended usage F1D0:0001, no reports stated: default 64. */
	T_EQ_ERR(parse_copy(ext, sizeof(ext), &rd), ERR_OK);
	T_EQ_INT(rd.fido, 1);
	T_EQ_INT(rd.report_in, 64);
	T_EQ_INT(rd.report_out, 64);
}

static void
test_rdesc_report_id(void)
{
	struct hidraw_rdesc rd;

	T_EQ_ERR(parse_copy(rd_fido_id, sizeof(rd_fido_id), &rd), ERR_OK);
	T_EQ_INT(rd.fido, 1);
	T_EQ_INT(rd.report_ids, 1);
}

static void
test_rdesc_push_pop(void)
{
	uint8_t d[sizeof(rd_fido) + 5];
	struct hidraw_rdesc rd;

	/* push F1D0, switch to page 1, pop back before the usage */
	memcpy(d, rd_fido, 3);
	memcpy(d + 3, "\xa4\x05\x01\xb4", 4);
	memcpy(d + 7, rd_fido + 3, sizeof(rd_fido) - 3);
	T_EQ_ERR(parse_copy(d, sizeof(rd_fido) + 4, &rd), ERR_OK);
	T_EQ_INT(rd.fido, 1);
	/* without the pop the page is 1 and it is no FIDO device */
	memcpy(d + 3, "\xa4\x05\x01\x00", 4); /* 0x00: Input, size 0 */
	T_EQ_ERR(parse_copy(d, sizeof(rd_fido) + 4, &rd), ERR_OK);
	T_EQ_INT(rd.fido, 0);
}

/* Fake sysfs tree. */
static void
put_file(const char *dir, const char *name, const void *data, size_t len)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		abort();
	close(fd);
}

static void
mkdirs(const char *root, const char *rel)
{
	char path[512];
	char *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST)
			abort();
		*p = '/';
	}
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		abort();
}

/* snprintf that must not truncate (a bug in the test otherwise). */
static void
fmt2(char *buf, size_t cap, const char *a, const char *b, const char *c)
{
	int n = snprintf(buf, cap, "%s%s%s", a, b, c);

	if (n < 0 || (size_t)n >= cap)
		abort();
}

/* One hidraw node whose HID device lives at devdir (under sys/). */
static void
fake_node(const char *root, const char *node, const char *devdir,
    const uint8_t *rd, size_t rdlen, const char *uevent)
{
	char rel[512], dir[512], link[1024], target[512];

	fmt2(rel, sizeof(rel), "sys/", devdir, "");
	mkdirs(root, rel);
	fmt2(dir, sizeof(dir), root, "/", rel);
	put_file(dir, "report_descriptor", rd, rdlen);
	put_file(dir, "uevent", uevent, strlen(uevent));
	fmt2(rel, sizeof(rel), "sys/class/hidraw/", node, "");
	mkdirs(root, rel);
	fmt2(dir, sizeof(dir), root, "/", rel);
	fmt2(link, sizeof(link), dir, "/device", "");
	fmt2(target, sizeof(target), "../../../", devdir, "");
	if (symlink(target, link) != 0)
		abort();
}

static void
make_tree(const char *root)
{
	mkdirs(root, "sys/devices/usb1/1-1");
	put_file(root, "sys/devices/usb1/1-1/manufacturer", "Yubico\n", 7);
	fake_node(root, "hidraw10",
	    "devices/usb1/1-1/1-1:1.0/0003:1050:0407.0001", rd_fido,
	    sizeof(rd_fido),
	    "DRIVER=hid-generic\n"
	    "HID_ID=0003:00001050:00000407\nHID_NAME=Yubico YubiKey OTP+FIDO\n"
	    "HID_PHYS=usb-0000:00:14.0-1/input1\n");
	fake_node(root, "hidraw1",
	    "devices/usb1/1-2/1-2:1.0/0003:046D:C31C.0002", rd_keyboard,
	    sizeof(rd_keyboard),
	    "HID_ID=0003:0000046D:0000C31C\n"
	    "HID_NAME=Logitech Keyboard\n");
	fake_node(root, "hidraw3",
	    "devices/virtual/misc/uhid/0003:1234:5678.0003", rd_fido,
	    sizeof(rd_fido),
	    "HID_ID=0003:00001234:00005678\n"
	    "HID_NAME=Soft\x01Token\n");
	/* FIDO but with report ids: not something we can speak to */
	fake_node(root, "hidraw4", "devices/virtual/misc/uhid/0003:1:2.0004",
	    rd_fido_id, sizeof(rd_fido_id),
	    "HID_ID=0003:00000001:00000002\n"
	    "HID_NAME=Report Id Token\n");
	/* the same YubiKey's OTP keyboard interface (USB device 1-1) */
	fake_node(root, "hidraw9",
	    "devices/usb1/1-1/1-1:1.1/0003:1050:0407.0005", rd_keyboard,
	    sizeof(rd_keyboard),
	    "HID_ID=0003:00001050:00000407\nHID_NAME=Yubico YubiKey OTP\n");
	/* a node that vanished and a name that is no hidraw node */
	mkdirs(root, "sys/class/hidraw/hidraw7");
	mkdirs(root, "sys/class/hidraw/foo");
}

static void
test_discover(void)
{
	char root[] = "/tmp/test_hidraw.XXXXXX", sys[64], dev[64], cmd[128];
	struct xport_info *list = NULL;
	size_t n = 0;

	if (mkdtemp(root) == NULL)
		abort();
	make_tree(root);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(dev, sizeof(dev), "%s/dev", root);
	T_EQ_ERR(hidraw_discover_at(sys, dev, &list, &n), ERR_OK);
	T_EQ_INT(n, 2);
	if (n == 2) {
		T_TRUE(strcmp(list[0].path + strlen(dev), "/hidraw3") == 0);
		T_EQ_INT(list[0].vendor_id, 0x1234);
		T_EQ_INT(list[0].product_id, 0x5678);
		T_EQ_STR(list[0].product, "Soft?Token");
		T_EQ_STR(list[0].manufacturer, "");
		T_TRUE(strcmp(list[1].path + strlen(dev), "/hidraw10") == 0);
		T_EQ_INT(list[1].vendor_id, 0x1050);
		T_EQ_INT(list[1].product_id, 0x0407);
		T_EQ_STR(list[1].product, "Yubico YubiKey OTP+FIDO");
		T_EQ_STR(list[1].manufacturer, "Yubico");
		T_EQ_INT(list[1].report_in, 64);
		T_EQ_INT(list[1].report_out, 64);
	}
	xport_info_free(list, n);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	T_EQ_INT(system(cmd), 0);
}

static void
count_name(void *arg, const char *name)
{
	char *seen = arg;

	strncat(seen, name, 63 - strlen(seen));
	strncat(seen, " ", 63 - strlen(seen));
}

/* hidraw_node.c: what a node is, from sysfs only; the FIDO node of the
 * same USB device; FIDO nodes with report IDs. */
static void
test_node(void)
{
	char root[] = "/tmp/test_hidraw.XXXXXX", sys[64], cmd[128];
	char sib[32], seen[64] = "";
	struct hidraw_node hn;

	if (mkdtemp(root) == NULL)
		abort();
	make_tree(root);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	T_EQ_ERR(hidraw_node_at(sys, "hidraw9", &hn), ERR_OK);
	T_TRUE(!hn.fido && !hn.report_ids);
	T_EQ_ERR(hidraw_node_at(sys, "hidraw10", &hn), ERR_OK);
	T_TRUE(hn.fido && !hn.report_ids);
	T_EQ_ERR(hidraw_node_at(sys, "hidraw4", &hn), ERR_OK);
	T_TRUE(hn.fido && hn.report_ids);
	T_EQ_ERR(hidraw_node_at(sys, "hidraw7", &hn), ERR_NOT_FOUND);
	T_EQ_ERR(hidraw_node_at(sys, "hidraw99", &hn), ERR_NOT_FOUND);
	T_EQ_ERR(hidraw_node_at(sys, "foo", &hn), ERR_INVAL);
	T_EQ_ERR(hidraw_node_at(sys, "hidraw1/../hidraw9", &hn), ERR_INVAL);
	/* The keyboard interface of the YubiKey: its FIDO interface. */
	T_EQ_ERR(
	    hidraw_node_sibling_at(sys, "hidraw9", sib, sizeof(sib)), ERR_OK);
	T_EQ_STR(sib, "hidraw10");
	/* Too small a buffer: not found rather than cut. */
	T_EQ_ERR(hidraw_node_sibling_at(sys, "hidraw9", sib, 8), ERR_NOT_FOUND);
	/* Another USB device's keyboard has none; virtual (uhid) nodes
	 * share a parent but are no one device: none either. */
	T_EQ_ERR(hidraw_node_sibling_at(sys, "hidraw1", sib, sizeof(sib)),
	    ERR_NOT_FOUND);
	T_EQ_ERR(hidraw_node_sibling_at(sys, "hidraw4", sib, sizeof(sib)),
	    ERR_NOT_FOUND);
	T_EQ_ERR(hidraw_node_report_ids_at(sys, count_name, seen), ERR_OK);
	T_EQ_STR(seen, "hidraw4 ");
	T_EQ_ERR(hidraw_node_report_ids_at(root, count_name, seen), ERR_OK);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	T_EQ_INT(system(cmd), 0);
}

/* hidraw_why_at as a user who is not root (root passes every access
 * check): in a child as nobody (65534) when the test runs as root. */
static int
why_unprivileged(const char *sys, const char *dev, struct hidraw_why *out)
{
	int p[2], st = 0, r;
	pid_t pid;

	if (geteuid() != 0)
		return hidraw_why_at(sys, dev, out);
	if (pipe(p) != 0 || (pid = fork()) < 0)
		abort();
	if (pid == 0) {
		close(p[0]);
		if (setgroups(0, NULL) != 0 || setgid(65534) != 0 ||
		    setuid(65534) != 0)
			_exit(2);
		r = hidraw_why_at(sys, dev, out);
		_exit(write(p[1], out, sizeof(*out)) == (ssize_t)sizeof(*out)
			? -r
			: 3);
	}
	close(p[1]);
	r = read(p[0], out, sizeof(*out)) == (ssize_t)sizeof(*out) ? 0 : 1;
	close(p[0]);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || r != 0)
		return ERR_SYSTEM;
	return -WEXITSTATUS(st);
}

static void
put_node(const char *dev, const char *name, mode_t mode)
{
	char path[512];

	put_file(dev, name, "", 0);
	fmt2(path, sizeof(path), dev, "/", name);
	T_EQ_INT(chmod(path, mode), 0);
}

/* Why no FIDO node can be used: hidden (sysfs lists FIDO nodes, /dev
 * lacks them: the lowest is named), refused (EACCES: the node and the
 * missing permission), nothing to say (no hidraw class, or a usable
 * node). hidraw4 (report IDs) and the keyboards never count. */
static void
test_why(void)
{
	char root[] = "/tmp/test_hidraw.XXXXXX", sys[64], dev[64], cmd[128];
	struct hidraw_why why;

	if (mkdtemp(root) == NULL)
		abort();
	T_EQ_INT(chmod(root, 0755), 0);
	make_tree(root);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(dev, sizeof(dev), "%s/dev", root);
	mkdirs(root, "dev");
	T_EQ_ERR(hidraw_why_at(root, dev, &why), ERR_OK);
	T_EQ_INT(why.kind, HIDRAW_WHY_NONE);
	T_EQ_ERR(hidraw_why_at(sys, dev, &why), ERR_OK);
	T_EQ_INT(why.kind, HIDRAW_WHY_HIDDEN);
	T_EQ_STR(why.node, "hidraw3");
	put_node(dev, "hidraw4", 0600); /* report IDs: not counted */
	put_node(dev, "hidraw9", 0600); /* a keyboard: not counted */
	T_EQ_ERR(why_unprivileged(sys, dev, &why), ERR_OK);
	T_EQ_INT(why.kind, HIDRAW_WHY_HIDDEN);
	put_node(dev, "hidraw10", 0600);
	T_EQ_ERR(why_unprivileged(sys, dev, &why), ERR_OK);
	T_EQ_INT(why.kind, HIDRAW_WHY_DENIED);
	T_EQ_STR(why.node, "hidraw10");
	T_TRUE(why.read_denied && why.write_denied);
	T_EQ_STR(hidraw_why_missing(&why), "read and write");
	put_node(dev, "hidraw3", 0604);
	T_EQ_ERR(why_unprivileged(sys, dev, &why), ERR_OK);
	T_EQ_INT(why.kind, HIDRAW_WHY_DENIED);
	T_EQ_STR(why.node, "hidraw3");
	T_TRUE(!why.read_denied && why.write_denied);
	T_EQ_STR(hidraw_why_missing(&why), "write");
	put_node(dev, "hidraw10", 0666); /* one usable: nothing to say */
	T_EQ_ERR(why_unprivileged(sys, dev, &why), ERR_OK);
	T_EQ_INT(why.kind, HIDRAW_WHY_NONE);
	T_EQ_ERR(hidraw_why_at(NULL, dev, &why), ERR_INVAL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	T_EQ_INT(system(cmd), 0);
}

static void
test_discover_empty(void)
{
	char root[] = "/tmp/test_hidraw.XXXXXX", cmd[128];
	struct xport_info *list = (struct xport_info *)1;
	size_t n = 9;

	if (mkdtemp(root) == NULL)
		abort();
	/* no class/hidraw at all (no hidraw module loaded) */
	T_EQ_ERR(hidraw_discover_at(root, root, &list, &n), ERR_OK);
	T_EQ_INT(n, 0);
	T_TRUE(list == NULL);
	/* a bad HID_ID line: skipped */
	fake_node(root, "hidraw0", "devices/x/0003:1:2.1", rd_fido,
	    sizeof(rd_fido), "HID_ID=0003:1050:0407\nHID_NAME=x\n");
	T_EQ_ERR(hidraw_discover_at(root, root, &list, &n), ERR_OK);
	T_EQ_INT(n, 0);
	xport_info_free(list, n);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	T_EQ_INT(system(cmd), 0);
}

static void
test_open_refusals(void)
{
	char path[] = "/tmp/test_hidraw_f.XXXXXX";
	int err = 0, fd;

	T_TRUE(hidraw_io.open("/nonexistent/hidraw0", &err) == NULL);
	T_EQ_ERR(err, ERR_NODEV);
	if ((fd = mkstemp(path)) < 0)
		abort();
	close(fd);
	/* a regular file is not a device */
	T_TRUE(hidraw_io.open(path, &err) == NULL);
	T_EQ_ERR(err, ERR_NODEV);
	/* a character device that is not hidraw */
	T_TRUE(hidraw_io.open("/dev/null", &err) == NULL);
	T_EQ_ERR(err, ERR_NODEV);
	if (geteuid() != 0) {
		chmod(path, 0);
		T_TRUE(hidraw_io.open(path, &err) == NULL);
		T_EQ_ERR(err, ERR_PERM);
	}
	unlink(path);
}

static void
test_io_for(void)
{
	T_TRUE(hid_io_for("unix:/run/token.sock") == &unixdev_io);
	T_TRUE(hid_io_for("/dev/hidraw0") == &hidraw_io);
	T_TRUE(hid_io_for("unixfoo") == &hidraw_io);
	xport_info_free(NULL, 3);
}

TEST_MAIN(TEST(test_rdesc_fido), TEST(test_rdesc_not_fido),
    TEST(test_rdesc_composite), TEST(test_rdesc_truncated),
    TEST(test_rdesc_garbage), TEST(test_rdesc_long_item),
    TEST(test_rdesc_sizes), TEST(test_rdesc_report_id),
    TEST(test_rdesc_push_pop), TEST(test_discover), TEST(test_node),
    TEST(test_why), TEST(test_discover_empty), TEST(test_open_refusals),
    TEST(test_io_for))
