/* SPDX-License-Identifier: MIT */
/*
 * Which known-bad pages held at start are looked at again when memory comes
 * online later in the boot, and what a fresh look makes of them
 * (rules/page-hold.c): those held for memory that was not there are, and
 * are offlined once it is the memory that erred; those held for other
 * memory never are.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "page-hold.h"
#include "rule-state.h"

static struct rule_state_page known(uint64_t pfn)
{
	return (struct rule_state_page) { .pfn = pfn, .ok = true };
}

/* At start: the same memory is offlined, an absence and a change are held, only the absence looked at again. */
static void test_start(void **state)
{
	struct rule_state_page same = known(1), absent = known(2), changed = known(3);

	(void) state;
	assert_true(page_hold_note(&same, PAGE_MEMORY_SAME));
	assert_false(same.held);
	assert_false(page_hold_retry_wanted(&same));

	assert_false(page_hold_note(&absent, PAGE_MEMORY_ABSENT));
	assert_true(absent.held);
	assert_true(page_hold_retry_wanted(&absent));

	assert_false(page_hold_note(&changed, PAGE_MEMORY_CHANGED));
	assert_true(changed.held);
	assert_false(page_hold_retry_wanted(&changed));
}

/* A page waiting for its memory: still absent waits on; back the same is offlined; back as other memory never again. */
static void test_retry(void **state)
{
	struct rule_state_page p = known(0x140010);

	(void) state;
	(void) page_hold_note(&p, PAGE_MEMORY_ABSENT);
	assert_false(page_hold_note(&p, PAGE_MEMORY_ABSENT));
	assert_true(page_hold_retry_wanted(&p));

	/* the region made again at its old address: the memory that erred */
	assert_true(page_hold_note(&p, PAGE_MEMORY_SAME));
	assert_false(p.held);
	assert_false(page_hold_retry_wanted(&p));

	/* the region made again elsewhere: held for good in this boot, however much memory comes online after */
	p = known(0x140010);
	(void) page_hold_note(&p, PAGE_MEMORY_ABSENT);
	assert_false(page_hold_note(&p, PAGE_MEMORY_CHANGED));
	assert_true(p.held);
	assert_false(page_hold_retry_wanted(&p));
}

/* Held as read from the state file (no reason known until a start looked), salvaged, pending, not held: none retried. */
static void test_never_retried(void **state)
{
	struct rule_state_page from_file = known(1), salvaged = known(2), pending = known(3), offlined = known(4);

	(void) state;
	from_file.held = true;
	assert_false(page_hold_retry_wanted(&from_file));
	salvaged.held = salvaged.held_absent = salvaged.salvaged = true;
	assert_false(page_hold_retry_wanted(&salvaged));
	pending.pending = true;
	assert_false(page_hold_retry_wanted(&pending));
	assert_false(page_hold_retry_wanted(&offlined));
}

/* An intent of an earlier boot found on a page that is held means nothing now: dropped. */
static void test_held_drops_old_intent(void **state)
{
	struct rule_state_page p = known(1);

	(void) state;
	p.pending = true;
	(void) page_hold_note(&p, PAGE_MEMORY_ABSENT);
	assert_false(p.pending);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start),
		cmocka_unit_test(test_retry),
		cmocka_unit_test(test_never_retried),
		cmocka_unit_test(test_held_drops_old_intent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
