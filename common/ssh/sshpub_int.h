/* SPDX-License-Identifier: BSD-2-Clause */
/* Inside the ssh layer: a key from its wire blob (what an agent lists). */
#ifndef PU_SSHPUB_INT_H
#define PU_SSHPUB_INT_H

#include <stddef.h>
#include <stdint.h>

#include "ssh.h"

#define SSHPUB_APP_MAX 255 /* far above "ssh:" and what OpenSSH makes */

/* k from a public key blob of one of the two FIDO types: the blob is
 * copied into k, the point or key checked, the application non-empty,
 * printable ASCII and starting with "ssh:", no trailing bytes. No
 * options, no comment. ERR_UNSUPPORTED for another key type, ERR_PARSE
 * for a malformed blob, ERR_NOMEM; k zeroed on failure. */
int sshpub_from_blob(const uint8_t *blob, size_t len, struct sshpub *k);

#endif
