/* SPDX-License-Identifier: BSD-2-Clause */
/* The one error set (err.h) as words: the table of each code's name
 * and message, and err_name/err_str over it. Its own file so that every
 * layer turns codes into log text the same way, from one table. */
#include "config.h"

#include <stddef.h>

#include "err.h"

struct err_entry {
	int code;
	const char *name;
	const char *msg;
};

static const struct err_entry err_table[] = {
    {ERR_OK, "ERR_OK", "success"},
    {ERR_NOMEM, "ERR_NOMEM", "out of memory"},
    {ERR_INVAL, "ERR_INVAL", "invalid argument"},
    {ERR_IO, "ERR_IO", "device input/output error"},
    {ERR_TIMEOUT, "ERR_TIMEOUT", "timed out"},
    {ERR_PROTO, "ERR_PROTO", "malformed reply from device"},
    {ERR_NODEV, "ERR_NODEV", "no such device or device removed"},
    {ERR_PERM, "ERR_PERM", "permission denied"},
    {ERR_HID_INVALID_CMD, "ERR_HID_INVALID_CMD",
	"device error: invalid command"},
    {ERR_HID_INVALID_PAR, "ERR_HID_INVALID_PAR",
	"device error: invalid parameter"},
    {ERR_HID_INVALID_LEN, "ERR_HID_INVALID_LEN",
	"device error: invalid length"},
    {ERR_HID_INVALID_SEQ, "ERR_HID_INVALID_SEQ",
	"device error: invalid sequence"},
    {ERR_HID_MSG_TIMEOUT, "ERR_HID_MSG_TIMEOUT",
	"device error: message timeout"},
    {ERR_HID_BUSY, "ERR_HID_BUSY", "device error: channel busy"},
    {ERR_HID_LOCK_REQUIRED, "ERR_HID_LOCK_REQUIRED",
	"device error: lock required"},
    {ERR_HID_INVALID_CHANNEL, "ERR_HID_INVALID_CHANNEL",
	"device error: invalid channel"},
    {ERR_HID_OTHER, "ERR_HID_OTHER", "device error: unspecified"},
    {ERR_WRONG_KH, "ERR_WRONG_KH", "key handle not for this device"},
    {ERR_PRESENCE, "ERR_PRESENCE", "user presence required"},
    {ERR_WRONG_LENGTH, "ERR_WRONG_LENGTH", "device: wrong length"},
    {ERR_INS_NOT_SUPPORTED, "ERR_INS_NOT_SUPPORTED",
	"device: instruction not supported"},
    {ERR_SW, "ERR_SW", "device: unexpected status word"},
    {ERR_VERIFY, "ERR_VERIFY", "signature verification failed"},
    {ERR_NO_PRESENCE, "ERR_NO_PRESENCE", "user presence flag not set"},
    {ERR_UNSUPPORTED, "ERR_UNSUPPORTED", "not supported"},
    {ERR_FILE, "ERR_FILE", "cannot open or read file"},
    {ERR_FILE_UNSAFE, "ERR_FILE_UNSAFE",
	"file has unsafe type, owner or permissions"},
    {ERR_PARSE, "ERR_PARSE", "malformed input"},
    {ERR_NOT_FOUND, "ERR_NOT_FOUND", "not found"},
    {ERR_CRYPTO, "ERR_CRYPTO", "cryptographic library failure"},
    {ERR_CANCELLED, "ERR_CANCELLED", "cancelled"},
    {ERR_TOO_BIG, "ERR_TOO_BIG", "size limit exceeded"},
    {ERR_RANDOM, "ERR_RANDOM", "no random bytes available"},
    {ERR_SYSTEM, "ERR_SYSTEM", "system call failed"},
    {ERR_PENDING, "ERR_PENDING", "operation pending"},
    {ERR_CONFIG, "ERR_CONFIG", "invalid configuration"},
    {ERR_NO_KEY, "ERR_NO_KEY", "no security key found"},
    {ERR_MISMATCH, "ERR_MISMATCH", "the answer is not for the challenge shown"},
    {ERR_PIN_INVALID, "ERR_PIN_INVALID", "wrong PIN"},
    {ERR_PIN_BLOCKED, "ERR_PIN_BLOCKED",
	"PIN blocked: no tries left, the key must be reset"},
    {ERR_PIN_AUTH_BLOCKED, "ERR_PIN_AUTH_BLOCKED",
	"too many wrong PINs: remove and re-insert the key"},
    {ERR_PIN_NOT_SET, "ERR_PIN_NOT_SET",
	"the key has no PIN (set one with fido2-token -S)"},
    {ERR_PIN_REQUIRED, "ERR_PIN_REQUIRED", "the key requires a PIN"},
    {ERR_UV_BLOCKED, "ERR_UV_BLOCKED",
	"built-in user verification blocked (use the PIN)"},
    {ERR_UV_INVALID, "ERR_UV_INVALID", "built-in user verification failed"},
    {ERR_EXCLUDED, "ERR_EXCLUDED", "the key already holds a credential"},
    {ERR_DENIED, "ERR_DENIED", "the key refused the operation"},
    {ERR_CTAP2, "ERR_CTAP2", "the key answered with an error status"},
    {ERR_NO_UV, "ERR_NO_UV", "user verification flag not set"},
    {ERR_UNAVAIL, "ERR_UNAVAIL", "the credential source is unavailable"},
    {ERR_AGENT_SOCKET, "ERR_AGENT_SOCKET",
	"the ssh-agent socket is not safe to use"},
    {ERR_AGENT_CONNECT, "ERR_AGENT_CONNECT", "no ssh-agent at the socket"},
    {ERR_AGENT_TIMEOUT, "ERR_AGENT_TIMEOUT",
	"the ssh-agent did not answer in time"},
    {ERR_AGENT_NO_KEY, "ERR_AGENT_NO_KEY",
	"the ssh-agent offers none of the user's keys (not added, or added "
	"with ssh-add -h for this host only, which hides it here)"},
    {ERR_AGENT_REFUSED, "ERR_AGENT_REFUSED",
	"the ssh-agent refused to sign: the key was not touched or is not "
	"plugged in, or it was added with ssh-add -h (destination-constrained "
	"keys sign SSH logins only)"},
    {ERR_AGENT_REPLY, "ERR_AGENT_REPLY",
	"the ssh-agent's reply is oversized or malformed"},
};

static const struct err_entry *
err_find(int err)
{
	size_t i;

	for (i = 0; i < sizeof(err_table) / sizeof(err_table[0]); i++)
		if (err_table[i].code == err)
			return &err_table[i];
	return NULL;
}

const char *
err_name(int err)
{
	const struct err_entry *e = err_find(err);

	return e != NULL ? e->name : "ERR_UNKNOWN";
}

const char *
err_str(int err)
{
	const struct err_entry *e = err_find(err);

	return e != NULL ? e->msg : "unknown error";
}
