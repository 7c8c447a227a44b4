/* SPDX-License-Identifier: BSD-2-Clause */
/* A struct hid_io over a SOCK_SEQPACKET unix socket, for paths of the form
 * "unix:/some/path": each message is exactly one report, without report
 * id. Used by the software token in tests; only ever opened when named
 * explicitly, never discovered, and only when the socket and every
 * directory above it are root's or the caller's own (unixpath.h). */
#ifndef PU_UNIXDEV_H
#define PU_UNIXDEV_H

#include "hid.h"

#define UNIXDEV_PREFIX "unix:"

extern const struct hid_io unixdev_io;

#endif
