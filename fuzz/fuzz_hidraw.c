/* SPDX-License-Identifier: BSD-2-Clause */
/* HID report descriptors: hidraw_parse_rdesc on the input, as the kernel
 * would hand it over (at most HIDRAW_RDESC_MAX bytes). */
#include "config.h"

#include <string.h>

#include "base/err.h"
#include "fuzz.h"
#include "transport/hid.h"
#include "transport/hidraw.h"

struct input {
	const uint8_t *data;
	size_t len;
};

static void
pass(void *arg)
{
	const struct input *in = arg;
	struct hidraw_rdesc rd, untouched;
	int r;

	memset(&rd, 0xa5, sizeof(rd));
	untouched = rd;
	FUZZ_CALL(r, hidraw_parse_rdesc(in->data, in->len, &rd));
	FUZZ_CHECK(r == ERR_OK || r == ERR_PROTO || r == ERR_UNSUPPORTED);
	if (r != ERR_OK) {
		FUZZ_CHECK(memcmp(&rd, &untouched, sizeof(rd)) == 0);
		return;
	}
	FUZZ_CHECK(rd.fido == 0 || rd.fido == 1);
	FUZZ_CHECK(rd.report_ids == 0 || rd.report_ids == 1);
	if (rd.fido) {
		FUZZ_CHECK(rd.report_in >= HID_REPORT_MIN &&
		    rd.report_in <= HID_REPORT_MAX);
		FUZZ_CHECK(rd.report_out >= HID_REPORT_MIN &&
		    rd.report_out <= HID_REPORT_MAX);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct input in = {data, len};

	if (len > HIDRAW_RDESC_MAX)
		return 0;
	fuzz_run(pass, &in, data, len);
	return 0;
}
