/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * What a crash must not take: the storms in progress and how many records
 * each has counted so far.  The daemon writes this to its state directory
 * about once a second while a storm counts records, so that after a SIGKILL
 * the next start can write the counts no summary holds yet (the count saved
 * here minus the total the journal's last summary of that storm shows).
 *
 * Times are CLOCK_REALTIME microseconds: the file outlives the process and
 * its monotonic clock.  Pure: the text is built and read here, the daemon
 * writes and reads the file.
 *
 *	mcelogd-storms 1
 *	boot_id 0123456789abcdef0123456789abcdef
 *	storm cpu 1 1 0x00a50094 START LAST TOTAL LOGGED
 *	storm shared 0 4 0x0000080a START LAST TOTAL LOGGED
 *	ras memory_controller START LAST TOTAL LOGGED mc=0 top_layer=1 label=DIMM_A1
 *
 * A ras storm's line ends with its signature (rules/ras-storm-key.h), which
 * may hold spaces: it is the rest of the line.
 */

#include <stddef.h>
#include <stdint.h>

#include "ras-storm-key.h"
#include "record.h"
#include "storm.h"

struct storm_saved {
	struct storm_key key;  /* a ras storm: its digest (ras_storm_key_digest()) */
	bool is_ras;
	struct ras_storm_key ras;  /* is_ras: the signature */
	int64_t start_usec;   /* the storm's first suppressed record */
	int64_t last_usec;    /* its last counted record, as of the save */
	uint64_t total;       /* records it suppressed so far */
	unsigned logged;      /* records of its onset burst, logged one by one */
};

/* The file's text; *ret is malloc'ed.  Returns its length or -ENOMEM. */
int storm_state_format(const char *boot_id, const struct storm_saved *storms, size_t n, char **ret);

/*
 * Parses a state file.  boot_id gets the boot the storms belong to; *ret
 * (malloc'ed, may be NULL when *n is 0) the storms.  On -EBADMSG, *bad_line
 * (1-based) names the first line that is wrong, and nothing is returned.
 */
int storm_state_parse(const char *text, size_t len, char boot_id[static MCE_BOOT_ID_LEN + 1],
		      struct storm_saved **ret, size_t *n, unsigned *bad_line);
