/* SPDX-License-Identifier: BSD-2-Clause */
/* Fixtures shared by the module tests that drive pam_u2f.so through
 * libpam (test_module.c and test_modfile.c): a software token enrolled
 * in a user's default mapping file, a well-formed line no device holds,
 * and a service file written and run in one call. No assertions here:
 * failures are returned, the tests check them. */
#ifndef PU_MTFIX_H
#define PU_MTFIX_H

#include "base/cred.h"
#include "modtest.h"
#include "tokenctl.h"

#define ORIGIN "pam://mt"
#define ARGS_MAX 1024
/* No device is ever reached: for cases that fail before one is. */
#define NODEV "devices=unix:/nonexistent/sock timeout=1"

/* Start a token (then give it presence, e.g. "now", "never",
 * "after:300") holding one credential of u's for ORIGIN, written to u's
 * default mapping file. Returns 0 or -1. */
int mtfix_one_token(struct tokenctl *t, const char *presence,
    const struct mt_user *u, struct cred *c);
/* Write service name: origin=ORIGIN devices=t's path, then more. */
void mtfix_service_dev(
    const char *name, const struct tokenctl *t, const char *more);
/* A well-formed mapping line for user (the point of the U2F example, a
 * key handle no token holds), opts appended; caller frees. NULL if out
 * of memory. */
char *mtfix_dummy_line(const char *user, const char *opts);
/* Write service svc with args, then authenticate user through it. */
int mtfix_run(const char *svc, const char *args, const char *user);

#endif
