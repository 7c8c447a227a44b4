/* SPDX-License-Identifier: BSD-2-Clause */
/* The PAM conversation, failing closed: no conversation function, a failed
 * call, or a missing answer is ERR_CANCELLED (CVE-2021-31924), never an
 * empty answer. */
#ifndef PU_CONVERSE_H
#define PU_CONVERSE_H

#include <stdbool.h>

#include <security/pam_modules.h>

/* Ask (PAM_PROMPT_ECHO_ON or _OFF); *answer is malloc'd, free it with
 * converse_free. Asked under PAM_SILENT too: a prompt is not a message. */
int converse_ask(pam_handle_t *pamh, int style, const char *msg, char **answer);
/* Show a PAM_TEXT_INFO or PAM_ERROR_MSG: the touch cue, what went wrong.
 * Under PAM_SILENT nothing is shown and the result is ERR_OK. */
int converse_show(pam_handle_t *pamh, int style, const char *msg);
/* Show it whatever the flags: only for what the user needs in order to
 * answer a prompt that follows (manual mode's challenges). */
int converse_show_always(pam_handle_t *pamh, int style, const char *msg);
/* Record pam_sm_authenticate's PAM_SILENT on the handle for this call (a
 * call sets it anew, either way), and read it back. */
void converse_silence(pam_handle_t *pamh, bool silent);
bool converse_silent(pam_handle_t *pamh);
void converse_free(char *answer);

#endif
