/* SPDX-License-Identifier: BSD-2-Clause */
/* CTAP2 GetInfo and status codes: the GetInfo reply parsed into struct
 * ctap2_info (versions, options, PIN protocols, algorithms,
 * maxCredentialCountInList) and every status byte mapped to our error
 * set. Its own file because it is what the client knows about a key,
 * apart from the messages (msg.c) and from what is done with it. */
#include "config.h"

#include <string.h>

#include "base/err.h"
#include "ctap2.h"

static const struct {
	uint8_t code;
	const char *name;
	int err;
} ctap2_status[] = {
    {0x01, "INVALID_COMMAND", ERR_UNSUPPORTED},
    {0x02, "INVALID_PARAMETER", ERR_PROTO},
    {0x03, "INVALID_LENGTH", ERR_PROTO},
    {0x04, "INVALID_SEQ", ERR_PROTO},
    {0x05, "TIMEOUT", ERR_TIMEOUT},
    {0x06, "CHANNEL_BUSY", ERR_HID_BUSY},
    {0x0a, "LOCK_REQUIRED", ERR_HID_LOCK_REQUIRED},
    {0x0b, "INVALID_CHANNEL", ERR_HID_INVALID_CHANNEL},
    {0x11, "CBOR_UNEXPECTED_TYPE", ERR_PROTO},
    {0x12, "INVALID_CBOR", ERR_PROTO},
    {0x14, "MISSING_PARAMETER", ERR_PROTO},
    {0x15, "LIMIT_EXCEEDED", ERR_TOO_BIG},
    {0x17, "FP_DATABASE_FULL", ERR_TOO_BIG},
    {0x18, "LARGE_BLOB_STORAGE_FULL", ERR_TOO_BIG},
    {0x19, "CREDENTIAL_EXCLUDED", ERR_EXCLUDED},
    {0x21, "PROCESSING", ERR_PROTO},
    {0x22, "INVALID_CREDENTIAL", ERR_WRONG_KH},
    {0x23, "USER_ACTION_PENDING", ERR_PROTO},
    {0x24, "OPERATION_PENDING", ERR_HID_BUSY},
    {0x25, "NO_OPERATIONS", ERR_PROTO},
    {0x26, "UNSUPPORTED_ALGORITHM", ERR_UNSUPPORTED},
    {0x27, "OPERATION_DENIED", ERR_DENIED},
    {0x28, "KEY_STORE_FULL", ERR_TOO_BIG},
    {0x2b, "UNSUPPORTED_OPTION", ERR_UNSUPPORTED},
    {0x2c, "INVALID_OPTION", ERR_UNSUPPORTED},
    {0x2d, "KEEPALIVE_CANCEL", ERR_CANCELLED},
    {0x2e, "NO_CREDENTIALS", ERR_WRONG_KH},
    {0x2f, "USER_ACTION_TIMEOUT", ERR_TIMEOUT},
    {0x30, "NOT_ALLOWED", ERR_DENIED},
    {0x31, "PIN_INVALID", ERR_PIN_INVALID},
    {0x32, "PIN_BLOCKED", ERR_PIN_BLOCKED},
    {0x33, "PIN_AUTH_INVALID", ERR_PROTO},
    {0x34, "PIN_AUTH_BLOCKED", ERR_PIN_AUTH_BLOCKED},
    {0x35, "PIN_NOT_SET", ERR_PIN_NOT_SET},
    {0x36, "PUAT_REQUIRED", ERR_PIN_REQUIRED},
    {0x37, "PIN_POLICY_VIOLATION", ERR_PIN_INVALID},
    {0x39, "REQUEST_TOO_LARGE", ERR_TOO_BIG},
    {0x3a, "ACTION_TIMEOUT", ERR_TIMEOUT},
    {0x3b, "UP_REQUIRED", ERR_PRESENCE},
    {0x3c, "UV_BLOCKED", ERR_UV_BLOCKED},
    {0x3d, "INTEGRITY_FAILURE", ERR_PROTO},
    {0x3e, "INVALID_SUBCOMMAND", ERR_UNSUPPORTED},
    {0x3f, "UV_INVALID", ERR_UV_INVALID},
    {0x40, "UNAUTHORIZED_PERMISSION", ERR_DENIED},
    {0x7f, "OTHER", ERR_CTAP2},
};

int
ctap2_status_err(uint8_t status)
{
	size_t i;

	if (status == 0)
		return ERR_OK;
	for (i = 0; i < sizeof(ctap2_status) / sizeof(ctap2_status[0]); i++)
		if (ctap2_status[i].code == status)
			return ctap2_status[i].err;
	return ERR_CTAP2; /* reserved, extension or vendor codes */
}

const char *
ctap2_status_name(uint8_t status)
{
	size_t i;

	if (status == 0)
		return "OK";
	for (i = 0; i < sizeof(ctap2_status) / sizeof(ctap2_status[0]); i++)
		if (ctap2_status[i].code == status)
			return ctap2_status[i].name;
	return NULL;
}

int
ctap2_info_opt(const struct ctap2_info *in, enum ctap2_opt o)
{
	if (!(in->opt_present & o))
		return -1;
	return (in->opt_true & o) ? 1 : 0;
}

bool
ctap2_info_alg(const struct ctap2_info *in, int alg)
{
	size_t i;

	if (in->nalgs == 0) /* 2.0 keys do not list them: the key decides */
		return true;
	for (i = 0; i < in->nalgs; i++)
		if (in->algs[i] == alg)
			return true;
	return false;
}

size_t
ctap2_info_list_max(const struct ctap2_info *in)
{
	return in->max_list > 0 ? in->max_list : 1;
}

static bool
text_is(const char *s, size_t n, const char *want)
{
	return n == strlen(want) && memcmp(s, want, n) == 0;
}

struct info_name {
	const char *name;
	unsigned bit;
};

static const struct info_name info_version_names[] = {
    {"U2F_V2", CTAP2_V_U2F},
    {"FIDO_2_0", CTAP2_V_20},
    {"FIDO_2_1_PRE", CTAP2_V_21PRE},
    {"FIDO_2_1", CTAP2_V_21},
    {NULL, 0},
};

static const struct info_name info_ext_names[] = {
    {"credProtect", CTAP2_EXT_CRED_PROTECT},
    {"hmac-secret", CTAP2_EXT_HMAC_SECRET},
    {NULL, 0},
};

/* An array of strings (versions, extensions): the bits of those named
 * in names[] (ending with a NULL name), others ignored. */
static int
info_strings(struct cbor_rd *r, const struct info_name *names, unsigned *bits)
{
	const char *s;
	size_t n, i, k, len;

	if (cbor_get_array(r, &n) != ERR_OK)
		return ERR_PROTO;
	for (i = 0; i < n; i++) {
		if (cbor_get_text(r, &s, &len) != ERR_OK)
			return ERR_PROTO;
		for (k = 0; names[k].name != NULL; k++)
			if (text_is(s, len, names[k].name))
				*bits |= names[k].bit;
	}
	return ERR_OK;
}

static const struct {
	const char *name;
	enum ctap2_opt bit;
} info_opt_names[] = {
    {"rk", CTAP2_OPT_RK},
    {"up", CTAP2_OPT_UP},
    {"uv", CTAP2_OPT_UV},
    {"clientPin", CTAP2_OPT_CLIENT_PIN},
    {"pinUvAuthToken", CTAP2_OPT_PIN_UV_TOKEN},
    {"alwaysUv", CTAP2_OPT_ALWAYS_UV},
    {"makeCredUvNotRqd", CTAP2_OPT_MC_UV_NOT_RQD},
    {"plat", CTAP2_OPT_PLAT},
};

static int
info_options(struct cbor_rd *r, struct ctap2_info *out)
{
	const char *s;
	size_t n, i, k, len;
	bool v;

	if (cbor_get_map(r, &n) != ERR_OK)
		return ERR_PROTO;
	for (i = 0; i < n; i++) {
		if (cbor_get_text(r, &s, &len) != ERR_OK ||
		    cbor_get_bool(r, &v) != ERR_OK)
			return ERR_PROTO;
		for (k = 0;
		     k < sizeof(info_opt_names) / sizeof(info_opt_names[0]);
		     k++) {
			if (!text_is(s, len, info_opt_names[k].name))
				continue;
			out->opt_present |= info_opt_names[k].bit;
			if (v)
				out->opt_true |= info_opt_names[k].bit;
		}
	}
	return ERR_OK;
}

static int
info_pin_protos(struct cbor_rd *r, struct ctap2_info *out)
{
	size_t n, i;
	uint64_t v;

	if (cbor_get_array(r, &n) != ERR_OK)
		return ERR_PROTO;
	for (i = 0; i < n; i++) {
		if (cbor_get_uint(r, &v) != ERR_OK)
			return ERR_PROTO;
		if ((v == 1 || v == 2) &&
		    out->npin_protos < sizeof(out->pin_protos))
			out->pin_protos[out->npin_protos++] = (uint8_t)v;
	}
	return ERR_OK;
}

/* algorithms: [{alg: int, type: "public-key"}, ...] */
static int
info_algs(struct cbor_rd *r, struct ctap2_info *out)
{
	size_t n, i, m, k;
	int64_t alg;
	bool have;

	if (cbor_get_array(r, &n) != ERR_OK)
		return ERR_PROTO;
	for (i = 0; i < n; i++) {
		if (cbor_get_map(r, &m) != ERR_OK)
			return ERR_PROTO;
		for (k = 0, have = false; k < m; k++) {
			if (cbor_take_text_key(r, "alg")) {
				if (cbor_get_int(r, &alg) != ERR_OK)
					return ERR_PROTO;
				have = true;
			} else if (cbor_skip(r) != ERR_OK ||
			    cbor_skip(r) != ERR_OK)
				return ERR_PROTO;
		}
		if (have && out->nalgs < sizeof(out->algs) / sizeof(int))
			out->algs[out->nalgs++] = (int)alg;
	}
	return ERR_OK;
}

static int
info_field(struct cbor_rd *r, uint64_t key, struct ctap2_info *out)
{
	const uint8_t *p;
	uint64_t v;
	size_t n;

	switch (key) {
	case 1:
		return info_strings(r, info_version_names, &out->versions);
	case 2:
		return info_strings(r, info_ext_names, &out->exts);
	case 3:
		if (cbor_get_bytes(r, &p, &n) != ERR_OK || n != 16)
			return ERR_PROTO;
		memcpy(out->aaguid, p, 16);
		return ERR_OK;
	case 4:
		return info_options(r, out);
	case 5:
		if (cbor_get_uint(r, &v) != ERR_OK)
			return ERR_PROTO;
		out->max_msg = v > CTAP2_MSG_MAX ? CTAP2_MSG_MAX : (size_t)v;
		return ERR_OK;
	case 6:
		return info_pin_protos(r, out);
	case 7:
		if (cbor_get_uint(r, &v) != ERR_OK)
			return ERR_PROTO;
		out->max_list = v > CTAP2_LIST_MAX ? CTAP2_LIST_MAX : (size_t)v;
		return ERR_OK;
	case 10:
		return info_algs(r, out);
	default:
		return cbor_skip(r) == ERR_OK ? ERR_OK : ERR_PROTO;
	}
}

int
ctap2_parse_info(const uint8_t *p, size_t len, struct ctap2_info *out)
{
	struct cbor_rd r;
	size_t n, i;
	uint64_t key;
	int rc;

	memset(out, 0, sizeof(*out));
	if (cbor_check(p, len) != ERR_OK)
		return ERR_PROTO;
	cbor_rd_init(&r, p, len);
	if (cbor_get_map(&r, &n) != ERR_OK)
		return ERR_PROTO;
	for (i = 0; i < n; i++) {
		if (cbor_get_uint(&r, &key) != ERR_OK) {
			if (cbor_skip(&r) != ERR_OK || cbor_skip(&r) != ERR_OK)
				return ERR_PROTO;
			continue;
		}
		if ((rc = info_field(&r, key, out)) != ERR_OK)
			return rc;
	}
	/* versions are mandatory, and we need one we speak */
	if (!(out->versions & (CTAP2_V_20 | CTAP2_V_21PRE | CTAP2_V_21)))
		return ERR_UNSUPPORTED;
	return ERR_OK;
}
