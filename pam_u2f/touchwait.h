/* SPDX-License-Identifier: BSD-2-Clause */
/* The touch: find the keys (waiting for one with `interactive`), then one
 * touch on whichever key holds a credential, with the cue and the
 * authpending file around the wait. */
#ifndef PU_TOUCHWAIT_H
#define PU_TOUCHWAIT_H

#include "callctx.h"

#define TOUCH_REDISCOVER_MS 500 /* interactive: look for keys this often */
#define TOUCH_OPEN_MS 1000      /* to open one device */
#define TOUCH_NO_KEY_MSG "no security key found"
/* Logged when a devices=unix: socket was refused (common/transport/unixpath.h).
 */
#define TOUCH_UNIX_UNSAFE_MSG                                                  \
	"a unix: device was refused: its socket and every directory above "    \
	"it must be owned by root (or this process's user) and no directory "  \
	"writable by group or others unless sticky"

int touch_run(struct call *c);

#endif
