/* SPDX-License-Identifier: BSD-2-Clause */
/* One error set for everything under common/, pamu2fcfg/ and pam_u2f/.
 * Every function that can fail returns ERR_OK (0) or one of these negative
 * codes; err_name() and err_str() turn a code into words for logs. */
#ifndef PU_ERR_H
#define PU_ERR_H

enum {
	ERR_OK = 0,
	ERR_NOMEM = -1,                /* allocation failed */
	ERR_INVAL = -2,                /* a caller passed a bad argument */
	ERR_IO = -3,                   /* read/write on a device failed */
	ERR_TIMEOUT = -4,              /* deadline passed */
	ERR_PROTO = -5,                /* a device reply is malformed */
	ERR_NODEV = -6,                /* no such device, or it went away */
	ERR_PERM = -7,                 /* permission denied */
	ERR_HID_INVALID_CMD = -8,      /* CTAPHID ERROR 0x01 */
	ERR_HID_INVALID_PAR = -9,      /* CTAPHID ERROR 0x02 */
	ERR_HID_INVALID_LEN = -10,     /* CTAPHID ERROR 0x03 */
	ERR_HID_INVALID_SEQ = -11,     /* CTAPHID ERROR 0x04 */
	ERR_HID_MSG_TIMEOUT = -12,     /* CTAPHID ERROR 0x05 */
	ERR_HID_BUSY = -13,            /* CTAPHID ERROR 0x06 */
	ERR_HID_LOCK_REQUIRED = -14,   /* CTAPHID ERROR 0x0A */
	ERR_HID_INVALID_CHANNEL = -15, /* CTAPHID ERROR 0x0B */
	ERR_HID_OTHER = -16,           /* CTAPHID ERROR 0x7F or unknown */
	ERR_WRONG_KH = -17,     /* SW 6A80/6984: key handle not for device */
	ERR_PRESENCE = -18,     /* SW 6985: user presence needed */
	ERR_WRONG_LENGTH = -19, /* SW 6700 */
	ERR_INS_NOT_SUPPORTED = -20, /* SW 6D00 */
	ERR_SW = -21,                /* any other status word */
	ERR_VERIFY = -22,            /* a signature did not verify */
	ERR_NO_PRESENCE = -23,       /* presence flag clear in a signed reply */
	ERR_UNSUPPORTED = -24, /* needs a feature we do not have (CTAP2) */
	ERR_FILE = -25,        /* a file could not be opened or read */
	ERR_FILE_UNSAFE = -26, /* wrong type, owner or mode */
	ERR_PARSE = -27,       /* malformed file line, key or config */
	ERR_NOT_FOUND = -28,   /* no entry / no credentials for the user */
	ERR_CRYPTO = -29,      /* OpenSSL failed for a reason not the input */
	ERR_CANCELLED = -30,   /* the operation was cancelled */
	ERR_TOO_BIG = -31,     /* a size limit was exceeded */
	ERR_RANDOM = -32,      /* no random bytes */
	ERR_SYSTEM = -33,      /* a system call failed unexpectedly */
	ERR_PENDING = -34,     /* not done yet, ask again */
	ERR_CONFIG = -35,      /* bad argument or configuration value */
	ERR_NO_KEY = -36,      /* no authenticator present */
	ERR_MISMATCH = -37,    /* an answer is for another challenge */
	ERR_PIN_INVALID = -38, /* CTAP2 PIN_INVALID: wrong PIN */
	ERR_PIN_BLOCKED = -39, /* PIN_BLOCKED: no tries left, reset needed */
	ERR_PIN_AUTH_BLOCKED = -40, /* PIN_AUTH_BLOCKED: re-plug the key */
	ERR_PIN_NOT_SET = -41,      /* PIN_NOT_SET */
	ERR_PIN_REQUIRED = -42,     /* PUAT_REQUIRED: a PIN/UV token needed */
	ERR_UV_BLOCKED = -43,       /* UV_BLOCKED: built-in UV blocked */
	ERR_UV_INVALID = -44,       /* UV_INVALID: built-in UV failed */
	ERR_EXCLUDED = -45, /* CREDENTIAL_EXCLUDED: the key is enrolled */
	ERR_DENIED = -46,   /* OPERATION_DENIED, NOT_ALLOWED, permission */
	ERR_CTAP2 = -47,    /* any other CTAP2 status (logged raw) */
	ERR_NO_UV = -48,    /* user verification flag not set */
	ERR_UNAVAIL = -49,  /* a credential source gave no answer */
	/* the ssh-agent (common/ssh/ssh.h) */
	ERR_AGENT_SOCKET = -50, /* socket refused: symlink, owner, mode, peer */
	ERR_AGENT_CONNECT = -51, /* no agent listens at the socket */
	ERR_AGENT_TIMEOUT = -52, /* the agent did not answer in time */
	ERR_AGENT_NO_KEY = -53,  /* the agent holds none of the user's keys */
	ERR_AGENT_REFUSED = -54, /* the agent refused to sign */
	ERR_AGENT_REPLY = -55,   /* agent reply oversized or malformed */
	ERR_LAST = -55
};

/* Short upper-case name, e.g. "ERR_TIMEOUT"; never NULL. */
const char *err_name(int err);
/* Sentence for humans, e.g. "timed out"; never NULL. */
const char *err_str(int err);

#endif
