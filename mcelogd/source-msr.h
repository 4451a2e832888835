/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Source: our own poll of the MCA banks through /dev/cpu/N/msr, for kernels
 * that leave corrected errors in the banks (mce=ignore_ce).  A timer on
 * m->event reads the banks the plan (msr-plan.h) names, logs what is new and
 * clears corrected records when msr.allow_writes=on lets us.
 */

struct manager;
struct msr_source;

/*
 * Decides from m->config and the kernel whether to poll, sets the source
 * state with the reason either way, and when polling, runs the first round
 * at once.  *ret is NULL when not polling.  Returns 0 or negative errno
 * (out of memory, event loop failure).
 */
int msr_source_open(struct manager *m, struct msr_source **ret);
struct msr_source *msr_source_free(struct msr_source *s);
