/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * What the daemon does when a rule fires (mcelogd.rules(5), ACTIONS), one
 * file each: alert.c renders an alert for every sink; page-offline.c asks
 * the kernel to take a page out of use.  The rules stage (rules-stage.c)
 * calls them in the rule's order.
 */

#include <stdbool.h>
#include <stdint.h>

struct json_writer;
struct rule_input;

/* An alert, as the sinks see it (SINK_ENTRY_ALERT). */
struct rule_alert {
	const char *rule;
	const char *key;             /* "" for a rule without Key= */
	unsigned count;              /* N of "N in T" */
	uint64_t window_usec;        /* T; 0: every record */
	int64_t first_usec;          /* CLOCK_REALTIME of the first of the N records */
	int64_t time_usec;           /* of the record that tripped it */
	int priority;                /* syslog level, from the rule */
	const char *actions;         /* "alert soft-offline" */
	const char *failed_action;   /* NULL, or the action whose failure this alert reports */
	const char *message;         /* the journal's MESSAGE */
	const struct rule_input *input;   /* the record that tripped it */
};

/* The alert's JSON object ({"event":"alert",...}) into w, which is reset first. */
void alert_write_json(const struct rule_alert *a, const char *hostname, const char *boot_id,
		      struct json_writer *w);

/*
 * Asks the kernel to offline the 4 KiB page at pfn: writes its physical
 * address to DIR/soft_offline_page or DIR/hard_offline_page, DIR being
 * sysfs_memory (NULL: /sys/devices/system/memory).  Returns 0 or the
 * negative errno the kernel gave (EBUSY, EIO: the page could not be taken).
 */
int page_offline(const char *sysfs_memory, uint64_t pfn, bool hard);

/*
 * Asks the kernel to take CPU cpu offline: writes 0 to DIR/cpuN/online, DIR
 * being sysfs_cpu (NULL: /sys/devices/system/cpu).  Never the last online
 * CPU (-EBUSY), never one without an online file, which the kernel does not
 * let go offline (-EOPNOTSUPP); a CPU already offline is -EALREADY.  Returns
 * 0 or negative errno.
 */
int cpu_offline(const char *sysfs_cpu, unsigned cpu);
