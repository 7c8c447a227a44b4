/* SPDX-License-Identifier: BSD-2-Clause */
/* The texts pam_u2f tells the user (usermsg.c), apart so that tests can
 * assert them exactly. %s are filled in the order the names say. */
#ifndef PU_USERMSG_TEXT_H
#define PU_USERMSG_TEXT_H

#define TELL_MAX 512
#define TELL_NO_CREDS_OWN                                                      \
	"No security key is registered for %s in %s. To register one, "        \
	"run as %s: pamu2fcfg --add"
#define TELL_NO_CREDS_SSH                                                      \
	"No security key is registered for %s: %s does not hold one. "         \
	"Create it with: ssh-keygen -t ecdsa-sk"
#define TELL_NO_CREDS_CENTRAL                                                  \
	"No security key is registered for %s. Ask an administrator to "       \
	"register one (pamu2fcfg -u %s --add, into the central mapping "       \
	"file)."
#define TELL_NO_CREDS_CMD                                                      \
	"No security key is registered for %s. Ask an administrator to "       \
	"register one in the directory."
#define TELL_NO_KEY "No security key found. Insert your key and try again."
#define TELL_NO_CARD                                                           \
	"No security key was held to the reader within %d s. Hold your "       \
	"key to the reader (or plug it in) and try again."
#define TELL_NO_KEY_PERM                                                       \
	"A security key is plugged in but cannot be opened (permission "       \
	"denied). Ask an administrator to check the udev rules for FIDO "      \
	"keys."
#define TELL_NO_KEY_HIDDEN                                                     \
	"no security key is visible to this process; a sandboxed polkit "      \
	"helper needs the drop-in: see pam_u2f(8)."
#define TELL_NO_KEY_DENIED                                                     \
	"A security key is plugged in but /dev/%s cannot be opened: no %s "    \
	"permission for this process (EACCES). Ask an administrator to check " \
	"the udev rules for FIDO keys (pam_u2f(8), DESKTOPS)."
#define TELL_NO_KEY_MUTE                                                       \
	"A security key was found but did not answer. Unplug it, plug it "     \
	"in again and retry."
#define TELL_WRONG_KEY                                                         \
	"This security key is not registered for %s on this host (origin "     \
	"%s). Register it with: pamu2fcfg --add. If the host was renamed, "    \
	"keys registered before hold credentials for the old origin: set "     \
	"origin= to it in pam_u2f.conf."
#define TELL_WRONG_KEY_HINT                                                    \
	"This security key is not registered for %s on this host (origin "     \
	"%s), but holds a credential of %s's for %s. Set origin=%s in "        \
	"pam_u2f.conf, or register the key again with: pamu2fcfg --add"
#define TELL_TIMEOUT                                                           \
	"Timed out: the security key was not touched within %d s. Try "        \
	"again and touch the key when it blinks."
#define TELL_CANNOT_MEET                                                       \
	"No security key plugged in can do what your credential asks (a "      \
	"PIN, or built-in user verification such as a fingerprint)."
#define TELL_NO_UV                                                             \
	"The security key signed without verifying you (no PIN or "            \
	"fingerprint check): refused."
#define TELL_REMOTE_FAIL                                                       \
	"This is a remote session: a security key cannot be plugged in "       \
	"here, and this host does not take one through SSH (remote=fail)."
#define TELL_REMOTE_AGENT_CUE                                                  \
	"Touch the security key on your own machine (through your "            \
	"forwarded ssh-agent)."
#define TELL_REMOTE_NO_AGENT                                                   \
	"This is a remote session and no ssh-agent was forwarded: connect "    \
	"with ssh -A (and keep SSH_AUTH_SOCK through sudo) to use the "        \
	"security key on your own machine."
#define TELL_REMOTE_AGENT_REFUSED                                              \
	"Your ssh-agent did not sign with a key registered for you here: "     \
	"the key is not in the agent (ssh-add -L lists it), was not touched "  \
	"in time, or was added with destination constraints (ssh-add -h), "    \
	"which forbid this use."
#define TELL_REMOTE_NO_KEYS                                                    \
	"No OpenSSH security key is registered for %s on this host. With "     \
	"your agent forwarded, register one with: pamu2fcfg --ssh-agent "      \
	"(or ask an administrator)."

/* attestation = required refused the user's keys (pam_u2f.conf(5)). */
#define TELL_POLICY_REFUSED                                                    \
	"The security key registered for %s is not an approved model here "    \
	"(%s). Ask the administrator which keys are approved."
#endif
