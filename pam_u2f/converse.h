/* SPDX-License-Identifier: BSD-2-Clause */
/* The PAM conversation, failing closed: no conversation function, a failed
 * call, or a missing answer is ERR_CANCELLED (CVE-2021-31924), never an
 * empty answer. */
#ifndef PU_CONVERSE_H
#define PU_CONVERSE_H

#include <security/pam_modules.h>

/* Ask (PAM_PROMPT_ECHO_ON or _OFF); *answer is malloc'd, free it with
 * converse_free. */
int converse_ask(pam_handle_t *pamh, int style, const char *msg, char **answer);
/* Show a PAM_TEXT_INFO or PAM_ERROR_MSG. */
int converse_show(pam_handle_t *pamh, int style, const char *msg);
void converse_free(char *answer);

#endif
