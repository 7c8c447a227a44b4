/* The I/O seam under CTAPHID: a vtable of four operations on one device.
 * hidraw.c and unixdev.c implement it for real devices; tests and fuzzers
 * plug in scripted devices. Reports carry no report id here. */
#ifndef PU_HID_H
#define PU_HID_H

#include <stddef.h>
#include <stdint.h>

#define HID_REPORT_MAX 64 /* largest report we accept */
#define HID_REPORT_MIN 8  /* smallest report we accept */

struct hid_io {
	/* Open path; on failure return NULL and set *err. */
	void *(*open)(const char *path, int *err);
	void (*close)(void *handle);
	/* Read exactly one input report into buf (cap >= report size).
	 * Return its length (> 0), ERR_TIMEOUT after ms milliseconds with
	 * nothing to read, ERR_NODEV when the device is gone, or ERR_IO. */
	int (*read)(void *handle, uint8_t *buf, size_t cap, int ms);
	/* Write exactly one output report of len bytes. ERR_OK or error. */
	int (*write)(void *handle, const uint8_t *buf, size_t len);
};

/* What we know of a discovered device, for choosing and for messages. */
struct hid_devinfo {
	char *path; /* "/dev/hidraw3" or "unix:/run/tok.sock" */
	uint16_t vendor_id;
	uint16_t product_id;
	char *manufacturer; /* may be "" but never NULL */
	char *product;      /* may be "" but never NULL */
	size_t report_in;   /* input report size from the descriptor */
	size_t report_out;  /* output report size from the descriptor */
};

void hid_devinfo_free(struct hid_devinfo *list, size_t n);

/* The I/O for a path: unixdev for "unix:...", hidraw otherwise. */
const struct hid_io *hid_io_for(const char *path);

#endif
