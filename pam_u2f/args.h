/* Module arguments: one struct filled by one parser. Unknown or malformed
 * arguments are errors (logged, naming the argument), never ignored. */
#ifndef PU_ARGS_H
#define PU_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "device/dev.h"
#include "base/util.h"

#define ARGS_TIMEOUT_DEFAULT 30 /* seconds */
#define ARGS_TIMEOUT_MAX 3600
#define ARGS_MAX_DEVICES_DEFAULT 24 /* as pam-u2f */
#define ARGS_MAX_DEVICES_MAX 1024
#define ARGS_PROMPT_DEFAULT "Insert your U2F device, then press ENTER."
#define ARGS_CUE_DEFAULT "Please touch the device."
#define ARGS_SSH_ORIGIN "ssh:"

struct options {
	bool debug;
	char *debug_file; /* NULL: stderr */
	char *origin;     /* always set after args_parse */
	char *appid;      /* always set after args_parse */
	char *authfile;   /* NULL: the per-user default */
	bool expand;
	char *authpending_file; /* NULL: default; "": disabled */
	bool authpending_set;   /* authpending_file= was given */
	bool nouserok;
	bool openasuser;
	bool alwaysok;
	size_t max_devices;
	bool interactive;
	char *prompt; /* always set after args_parse */
	bool manual;
	bool cue;
	char *cue_prompt; /* always set after args_parse */
	bool nodetect;
	int userpresence; /* -1 default, 0 off, 1 on */
	int userverification;
	int pinverification;
	bool sshformat;
	char *conf;      /* conf=, NULL: the default file */
	bool conf_found; /* that file existed and was read */
	int timeout;     /* seconds, for the touch */
	char **devices;  /* explicit device paths (devices=) */
	size_t ndevices;
	enum dev_backend backend; /* backend=, default native */
};

/* Parse argv into o (zeroed and given defaults first). Every problem is
 * one line to errlog naming the argument; the result is then ERR_CONFIG
 * (ERR_NOMEM if allocation failed). o must be freed with args_free in
 * every case. */
int args_parse(
    struct options *o, int argc, const char **argv, const struct log *errlog);
void args_free(struct options *o);
/* Is user presence required? (userpresence= not 0) */
bool args_presence(const struct options *o);

#endif
