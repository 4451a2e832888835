/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Whether the kernel's corrected-error collector runs, and how it acts
 * (kernel-abi/ras-cec.h): read from debugfs at each `mcectl status`, never
 * per record, and never written.  Two mechanisms may then offline the same
 * page: the CEC at its action_threshold, by itself, and mcelogd's page rules
 * (mcelogd.rules(5)); the status says so, so that an operator who tunes one
 * knows of the other.
 */

#include <stdbool.h>
#include <stdint.h>

#include "ras-cec.h"

struct json_writer;

enum kernel_cec_state {
	KERNEL_CEC_UNKNOWN,   /* debugfs could not tell (not mounted, no permission) */
	KERNEL_CEC_ABSENT,    /* CONFIG_RAS_CEC off, or ras=cec_disable on the command line */
	KERNEL_CEC_ACTIVE,
};

struct kernel_cec {
	enum kernel_cec_state state;
	char reason[256];                /* when not active */
	uint64_t action_threshold;       /* corrected errors in one page before the CEC offlines it */
	uint64_t decay_interval_sec;
	bool have_array;                 /* CONFIG_RAS_CEC_DEBUG: the counts below are known */
	struct ras_cec_array array;
};

/* debugfs_root NULL: /sys/kernel/debug. */
void kernel_cec_read(const char *debugfs_root, struct kernel_cec *ret);

/* "kernel_cec": {state, reason | action_threshold, decay_interval_sec[, pages_tracked,
 * errors_seen, pages_offlined]} */
void kernel_cec_write_status(const struct kernel_cec *c, struct json_writer *w);
