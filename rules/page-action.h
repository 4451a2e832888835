/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * How a page is taken out of use, decided before anything is written to
 * /sys/devices/system/memory.  Pure: the caller reads the sysctl and says
 * whether the page is being offlined again at start.
 *
 * The kernel's two interfaces differ in what they cost when they are wrong:
 *   - soft_offline_page migrates the page's contents and retires it: nothing
 *     is lost, and it never panics;
 *   - hard_offline_page runs memory_failure() on the page as if it had an
 *     uncorrected error: whatever a process holds there is discarded, and
 *     with vm.memory_failure_recovery=0 the kernel panics at once
 *     ("Memory failure on page ...", mm/memory-failure.c).
 * So a hard offline is written only for an uncorrected error seen in this
 * boot, while the sysctl reads 1; a page offlined in an earlier boot, however
 * it was taken then, is retired again by migration.  mcelogd.rules(5) has
 * the table of every action and its checks.
 */

#include <stdbool.h>
#include <stddef.h>

struct rule_input;

enum page_action {
	PAGE_ACTION_SOFT,            /* soft_offline_page */
	PAGE_ACTION_HARD,            /* hard_offline_page */
	PAGE_ACTION_REFUSE,          /* nothing written */
};

struct page_action_plan {
	enum page_action action;
	/* Set when the rule asked for more than is done (hard refused, or soft instead): why, in words. */
	bool downgraded;
	char why[256];
};

/*
 * want_hard: the rule's Action=hard-offline.  at_start: a page of an earlier
 * boot offlined again at start (no record).  in: the record that fired (NULL
 * at start).  memory_failure_recovery: /proc/sys/vm/memory_failure_recovery,
 * -1 when unreadable (then never hard).
 */
void page_action_plan(bool want_hard, bool at_start, const struct rule_input *in, int memory_failure_recovery,
		      struct page_action_plan *ret);

const char *page_action_to_string(enum page_action a);   /* "soft-offline", "hard-offline", "refused" */
