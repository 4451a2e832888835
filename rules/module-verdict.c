/* SPDX-License-Identifier: MIT */
/*
 * A module's verdict from its ledger entry: the worst that holds, with its
 * reason in words.  The thresholds and the studies behind them:
 * mcelogd.conf(5), MODULES.
 *
 *   replace           ReplaceUncorrected= uncorrected errors (Schroeder et al.,
 *                     SIGMETRICS 2009: uncorrected errors follow corrected ones
 *                     and come from hard faults, which recur); or
 *                     ReplaceCorrectedPerWeek= corrected errors in a week (Meza
 *                     et al., DSN 2015, where modules were replaced at about 100
 *                     a week; the 2022 DSN study of Azure finds corrected-error
 *                     storms behind 56% of DRAM-caused node unavailability); or
 *                     errors in ReplaceBanks= distinct banks (Sridharan &
 *                     Liberty, SC12: multi-bank faults defeat ECC)
 *   repair-exhausted  a CXL device with no spare left, RepairExhaustedFailures=
 *                     failed repairs, or a repair refused at its limit
 *   isolating         IsolatingPages= pages or rows retired
 *   watch             WatchCorrected= corrected errors (Schroeder et al. 2009:
 *                     a corrected error makes another in the same month 13 to
 *                     90 times likelier)
 *   ok                otherwise
 */
#include <inttypes.h>
#include <stdio.h>

#include "module-ledger.h"

static unsigned banks_seen(const struct module_pattern *p)
{
	return p->n_banks + (p->more_banks ? 1u : 0u);
}

static bool reached(uint64_t n, unsigned threshold)
{
	return threshold > 0 && n >= threshold;
}

static enum module_verdict replace(const struct module_entry *m, const struct module_thresholds *t, char *buf,
				   size_t size)
{
	if (reached(m->uncorrected, t->replace_uncorrected)) {
		if (m->ue_on_row && m->ue_row_corrected > 0)
			snprintf(buf, size, "uncorrected error after %u corrected on row 0x%x", m->ue_row_corrected,
				 m->ue_row);
		else
			snprintf(buf, size, "%" PRIu64 " uncorrected error%s after %" PRIu64 " corrected", m->uncorrected,
				 m->uncorrected == 1 ? "" : "s", m->corrected);
		return MODULE_REPLACE;
	}
	if (reached(m->week_corrected, t->replace_corrected_week)) {
		snprintf(buf, size, "%" PRIu64 " corrected errors within a week (ReplaceCorrectedPerWeek=%u)",
			 m->week_corrected, t->replace_corrected_week);
		return MODULE_REPLACE;
	}
	if (reached(banks_seen(&m->pattern), t->replace_banks)) {
		snprintf(buf, size, "errors in %u%s banks: a multi-bank fault", m->pattern.n_banks,
			 m->pattern.more_banks ? "+" : "");
		return MODULE_REPLACE;
	}
	return MODULE_OK;
}

static enum module_verdict exhausted(const struct module_entry *m, const struct module_thresholds *t, char *buf,
				     size_t size)
{
	if (m->spares_left == 0) {
		snprintf(buf, size, "no spare left after %u repair%s", m->repairs[MODULE_REPAIR_DONE],
			 m->repairs[MODULE_REPAIR_DONE] == 1 ? "" : "s");
		return MODULE_REPAIR_EXHAUSTED;
	}
	if (reached(m->repairs[MODULE_REPAIR_FAILED], t->exhausted_failed)) {
		snprintf(buf, size, "%u repair%s failed", m->repairs[MODULE_REPAIR_FAILED],
			 m->repairs[MODULE_REPAIR_FAILED] == 1 ? "" : "s");
		return MODULE_REPAIR_EXHAUSTED;
	}
	if (m->repair_limit_reached) {
		snprintf(buf, size, "repair refused at its limit after %u done", m->repairs[MODULE_REPAIR_DONE]);
		return MODULE_REPAIR_EXHAUSTED;
	}
	return MODULE_OK;
}

enum module_verdict module_verdict_of(const struct module_entry *m, const struct module_thresholds *t,
				      char *reason, size_t reason_size)
{
	char scratch[MODULE_REASON_MAX];
	enum module_verdict v;

	if (!reason || reason_size == 0)
		reason = scratch, reason_size = sizeof(scratch);
	v = replace(m, t, reason, reason_size);
	if (v != MODULE_OK)
		return v;
	v = exhausted(m, t, reason, reason_size);
	if (v != MODULE_OK)
		return v;
	if (reached((uint64_t) m->pages_retired + m->rows_retired, t->isolating_pages)) {
		snprintf(reason, reason_size, "%u page%s and %u row%s retired", m->pages_retired,
			 m->pages_retired == 1 ? "" : "s", m->rows_retired, m->rows_retired == 1 ? "" : "s");
		return MODULE_ISOLATING;
	}
	if (reached(m->corrected, t->watch_corrected)) {
		enum dram_pattern p = dram_tracker_pattern(&m->pattern.tracker);

		snprintf(reason, reason_size, "%" PRIu64 " corrected error%s%s%s", m->corrected,
			 m->corrected == 1 ? "" : "s", p == DRAM_PATTERN_NONE ? "" : ", pattern ",
			 p == DRAM_PATTERN_NONE ? "" : dram_pattern_to_string(p));
		return MODULE_WATCH;
	}
	if (m->corrected + m->uncorrected == 0)
		snprintf(reason, reason_size, "no errors");
	else
		snprintf(reason, reason_size, "%" PRIu64 " corrected error%s, below WatchCorrected=%u", m->corrected,
			 m->corrected == 1 ? "" : "s", t->watch_corrected);
	return MODULE_OK;
}
