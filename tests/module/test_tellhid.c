/* SPDX-License-Identifier: BSD-2-Clause */
/* What the module tells when no key could be opened and sysfs and /dev
 * say why (pam_u2f/usermsg.c's tell_no_key with transport/hidraw_why.h),
 * on a real libpam handle whose conversation records what is shown: a
 * fake sysfs of the test's own listing a FIDO node that its /dev lacks
 * gives the sandbox message (not "no key found"); a node refused with
 * EACCES is named with the permission missing; with nothing to say, the
 * messages of before stay. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <security/pam_appl.h>

#include "base/err.h"
#include "callctx.h"
#include "debug.h"
#include "test.h"
#include "transport/hidraw_why.h"
#include "usermsg.h"
#include "usermsg_text.h"

/* A FIDO (F1D0/01) report descriptor, 64-byte reports. */
static const unsigned char rd_fido[] = {0x06, 0xd0, 0xf1, 0x09, 0x01, 0xa1,
    0x01, 0x09, 0x20, 0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08, 0x95, 0x40,
    0x81, 0x02, 0x09, 0x21, 0x15, 0x00, 0x26, 0xff, 0x00, 0x75, 0x08, 0x95,
    0x40, 0x91, 0x02, 0xc0};

struct shown {
	int nerror;
	char text[TELL_MAX + 8];
};

static int
conv(int n, const struct pam_message **m, struct pam_response **r, void *a)
{
	struct shown *s = a;
	int i;

	*r = NULL;
	for (i = 0; i < n; i++) {
		if (m[i]->msg_style != PAM_ERROR_MSG)
			return PAM_CONV_ERR;
		s->nerror++;
		snprintf(s->text, sizeof(s->text), "%s", m[i]->msg);
	}
	return PAM_SUCCESS;
}

static void
run(const char *cmd)
{
	if (system(cmd) != 0)
		abort();
}

static void
test_tell_hid(void)
{
	char root[] = "/tmp/test_tellhid.XXXXXX", sys[64], dev[64], cmd[256];
	struct shown s = {0, ""};
	const struct pam_conv pc = {conv, &s};
	struct hidraw_why why;
	struct call c;
	FILE *f;

	unsetenv("SSH_CONNECTION");
	unsetenv("SSH_CLIENT");
	if (mkdtemp(root) == NULL)
		abort();
	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(dev, sizeof(dev), "%s/dev", root);
	snprintf(cmd, sizeof(cmd),
	    "mkdir -p '%s/class/hidraw/hidraw5/device' '%s' && "
	    "touch '%s/x'",
	    sys, dev, root);
	run(cmd);
	snprintf(cmd, sizeof(cmd),
	    "%s/class/hidraw/hidraw5/device/"
	    "report_descriptor",
	    sys);
	if ((f = fopen(cmd, "w")) == NULL ||
	    fwrite(rd_fido, 1, sizeof(rd_fido), f) != sizeof(rd_fido))
		abort();
	fclose(f);
	memset(&c, 0, sizeof(c));
	T_EQ_INT(
	    pam_start_confdir("x", "alice", &pc, root, &c.pamh), PAM_SUCCESS);
	debug_open(&c.dbg, c.pamh, false, NULL);
	/* sysfs lists hidraw5, /dev has no node: the sandbox */
	T_EQ_ERR(hidraw_why_at(sys, dev, &why), ERR_OK);
	T_EQ_INT(why.kind, HIDRAW_WHY_HIDDEN);
	tell_no_key(&c, ERR_NODEV, &why);
	T_EQ_INT(s.nerror, 1);
	T_EQ_STR(s.text, TELL_NO_KEY_HIDDEN);
	/* refused: the node and the permission missing */
	snprintf(why.node, sizeof(why.node), "hidraw5");
	why.kind = HIDRAW_WHY_DENIED;
	why.read_denied = why.write_denied = 1;
	tell_no_key(&c, ERR_PERM, &why);
	T_EQ_STR(s.text,
	    "A security key is plugged in but /dev/hidraw5 cannot "
	    "be opened: no read and write permission for this "
	    "process (EACCES). Ask an administrator to check the "
	    "udev rules for FIDO keys (pam_u2f(8), DESKTOPS).");
	why.read_denied = 0;
	tell_no_key(&c, ERR_PERM, &why);
	T_TRUE(strstr(s.text,
		   "/dev/hidraw5 cannot be opened: no write "
		   "permission") != NULL);
	/* nothing to say: the messages of before */
	why.kind = HIDRAW_WHY_NONE;
	tell_no_key(&c, ERR_PERM, &why);
	T_EQ_STR(s.text, TELL_NO_KEY_PERM);
	tell_no_key(&c, ERR_NODEV, NULL);
	T_EQ_STR(s.text, TELL_NO_KEY);
	T_EQ_INT(s.nerror, 5);
	debug_close(&c.dbg);
	pam_end(c.pamh, PAM_SUCCESS);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	run(cmd);
}

TEST_MAIN(TEST(test_tell_hid))
