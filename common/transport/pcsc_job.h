/* SPDX-License-Identifier: BSD-2-Clause */
/* One blocking call (pcsc-lite's) under a deadline of ours, for pcsc.c.
 * pcsc-lite's SCardTransmit, SCardEstablishContext and SCardConnect wait
 * on pcscd without a timeout of their own, and SCardCancel only ends
 * SCardGetStatusChange; so each such call runs in a detached worker
 * thread (every signal blocked) and the caller waits for it in poll(2)
 * at most ms. In time: the caller owns the call's argument again.
 * Late: the caller goes on (ERR_TIMEOUT) and the worker, when the call
 * returns at last, hands the argument to its drop function, which lets
 * go of what the call holds (the card, the context). */
#ifndef PU_PCSC_JOB_H
#define PU_PCSC_JOB_H

/* Run run(arg) in a worker within ms: ERR_OK (done; arg is the
 * caller's), ERR_TIMEOUT (arg is the worker's: drop(arg) when it is
 * done), or ERR_SYSTEM / ERR_NOMEM with nothing started (arg is the
 * caller's). */
int pcsc_job_call(
    void (*run)(void *arg), void (*drop)(void *arg), void *arg, int ms);

#endif
