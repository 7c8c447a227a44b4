/* SPDX-License-Identifier: BSD-2-Clause */
/* The PC/SC transport (./configure --with-pcsclite): FIDO keys on smart
 * card readers (NFC or contact) through pcsc-lite, framed by apdu.c.
 * A reader is named "pcsc:" followed by its name as pcsc-lite lists it
 * ("pcsc:Virtual PCD 00 00"; the last two numbers are pcsc-lite's reader
 * and slot index). pcsc.c and pcsc_wait.c are the only files that include
 * <winscard.h>; without --with-pcsclite, pcsc_none.c finds nothing and opens
 * nothing. */
#ifndef PU_PCSC_H
#define PU_PCSC_H

#include "xport.h"

/* Readers looked at in one discovery. */
#define PCSC_READERS_MAX 16
/* The discovery as a whole (pcscd's answers). */
#define PCSC_DISCOVER_MS 2000

/* The transport's entry points are in xport.h (xport_pcsc_*). */

#endif
