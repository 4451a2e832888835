/* SPDX-License-Identifier: MIT */
#include "page-hold.h"
#include "rule-state.h"

bool page_hold_note(struct rule_state_page *p, enum page_memory_verdict v)
{
	p->held = v != PAGE_MEMORY_SAME;
	p->held_absent = v == PAGE_MEMORY_ABSENT;
	/* An intent of another boot means nothing now: the page stays known bad, untouched. */
	if (p->held)
		p->pending = false;
	return v == PAGE_MEMORY_SAME;
}

bool page_hold_retry_wanted(const struct rule_state_page *p)
{
	/* A salvaged page is never acted on again: a damaged file is not trusted to. */
	return p->held && p->held_absent && !p->salvaged;
}
