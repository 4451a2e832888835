/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "macro.h"
#include "page-action.h"
#include "rule-field.h"

const char *page_action_to_string(enum page_action a)
{
	switch (a) {
	case PAGE_ACTION_SOFT: return "soft-offline";
	case PAGE_ACTION_HARD: return "hard-offline";
	default:               return "refused";
	}
}

/* The field's text into v, NULL if the record has none. */
static const char *field_text(const struct rule_input *in, enum rule_field f, struct rule_value *v)
{
	if (!in || !rule_field_get(in, f, v) || !v->is_string)
		return NULL;
	return rule_value_string(v);
}

static bool one_of(const char *s, const char *const *values, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		if (streq(s, values[i]))
			return true;
	return false;
}

/*
 * An error the kernel itself would hand to memory_failure(): uncorrected,
 * fatal, or deferred (AMD's uncorrected-but-not-consumed, which the kernel's
 * MCE notifier also offlines).
 */
static bool uncorrected(const struct rule_input *in)
{
	static const char *const uc[] = { "uncorrected", "fatal", "deferred" };
	struct rule_value v;

	return one_of(field_text(in, RULE_FIELD_SEVERITY, &v), uc, ELEMENTSOF(uc));
}

/*
 * Records that did not happen in this boot, or whose boot nobody knows: the
 * firmware's record of the boot that died, replays and decodes of text.
 */
static bool from_this_boot(const struct rule_input *in)
{
	static const char *const elsewhere[] = { "previous_boot", "replay", "decode", "unknown" };
	struct rule_value v;
	const char *source = field_text(in, RULE_FIELD_SOURCE, &v);

	return source && !one_of(source, elsewhere, ELEMENTSOF(elsewhere));
}

void page_action_plan(bool want_hard, bool at_start, const struct rule_input *in, int memory_failure_recovery,
		      struct page_action_plan *ret)
{
	const char *sysctl_note = memory_failure_recovery == 0 ?
		"; vm.memory_failure_recovery=0 forbids it in any case (the kernel would panic)" :
		memory_failure_recovery < 0 ? "; vm.memory_failure_recovery cannot be read" : "";

	*ret = (struct page_action_plan) { .action = PAGE_ACTION_SOFT };
	if (at_start) {
		/* Whatever the page was taken by, in that boot: migration loses nothing. */
		if (want_hard) {
			ret->downgraded = true;
			snprintf(ret->why, sizeof(ret->why), "hard-offlined in an earlier boot: retired again by "
				 "migration, never hard_offline_page without an error of this boot%s", sysctl_note);
		}
		return;
	}
	if (!want_hard)
		return;
	if (!uncorrected(in)) {
		/* Nothing was lost: the page's data is good, so moving it is safe and enough. */
		ret->downgraded = true;
		snprintf(ret->why, sizeof(ret->why), "hard-offline is only for an uncorrected error and this "
			 "record is not one: soft-offlined instead%s", sysctl_note);
		return;
	}
	ret->action = PAGE_ACTION_REFUSE;
	ret->downgraded = true;
	if (!from_this_boot(in)) {
		snprintf(ret->why, sizeof(ret->why), "hard-offline refused: the uncorrected error is not from "
			 "this boot (its page may hold good data now)%s", sysctl_note);
		return;
	}
	if (memory_failure_recovery != 1) {
		/* Migrating a page with an uncorrected error would read it: no soft fallback either. */
		snprintf(ret->why, sizeof(ret->why), "hard-offline refused: vm.memory_failure_recovery=%s, so "
			 "the kernel would panic instead of offlining the page",
			 memory_failure_recovery < 0 ? "unreadable" : memory_failure_recovery == 0 ? "0" : "not 1");
		return;
	}
	*ret = (struct page_action_plan) { .action = PAGE_ACTION_HARD };
}
