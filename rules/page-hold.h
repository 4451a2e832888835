/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Known-bad pages a start did not offline again because their memory is not
 * the memory that erred (mcelogd/page-memory-check.h), and which of them
 * are looked at again when memory comes online later in the same boot
 * (mcelogd/memory-online.h).  Pure.
 *
 * A page is held either for an absence: no online memory block holds it,
 * its CXL memory device or region is not there, or the region has no
 * address yet (CXL regions are often made after mcelogd starts); or for
 * good in this boot, for a changed identity: another machine's state, a
 * replaced module, a region made again at another address.  Only the first
 * kind is looked at again.  What changed does not change back by memory
 * coming online, and offlining it would retire healthy memory.
 */

#include <stdbool.h>

struct rule_state_page;

enum page_memory_verdict {
	PAGE_MEMORY_SAME,      /* the memory that erred: may be offlined */
	PAGE_MEMORY_ABSENT,    /* not there in this boot, or not yet */
	PAGE_MEMORY_CHANGED,   /* other memory is there now */
	_PAGE_MEMORY_VERDICT_MAX,
};

/*
 * What a look at p's memory (at start, or again) makes of it: held for an
 * absence, held for good, or not held.  True when it is to be offlined now.
 */
bool page_hold_note(struct rule_state_page *p, enum page_memory_verdict v);

/* Whether p is looked at again now that memory came online: held for an absence only. */
bool page_hold_retry_wanted(const struct rule_state_page *p);
