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
#include "module-ledger.h"
#include "module-text.h"

/*
 * Room for the longest reason: "18446744073709551615 uncorrected errors
 * after 18446744073709551615 corrected" (76), "... corrected errors within
 * a week (ReplaceCorrectedPerWeek=4294967295)" (86).  Built by hand
 * (module-text.h): the verdict is settled at every error.
 */
#define REASON_TEXT_MAX 128

static unsigned banks_seen(const struct module_pattern *p)
{
	return p->n_banks + (p->more_banks ? 1u : 0u);
}

static bool reached(uint64_t n, unsigned threshold)
{
	return threshold > 0 && n >= threshold;
}

/* " thing" or " things", after a count. */
static char *put_noun(char *o, const char *noun, uint64_t count)
{
	*o++ = ' ';
	o = put_text(o, noun);
	if (count != 1)
		*o++ = 's';
	return o;
}

static enum module_verdict replace(const struct module_entry *m, const struct module_thresholds *t, char *o,
				   char **end)
{
	if (reached(m->uncorrected, t->replace_uncorrected)) {
		if (m->ue_on_row && m->ue_row_corrected > 0) {
			o = put_text(o, "uncorrected error after ");
			o = put_dec(o, m->ue_row_corrected);
			o = put_text(o, " corrected on row 0x");
			o = put_hex(o, m->ue_row);
		} else {
			o = put_dec(o, m->uncorrected);
			o = put_noun(o, "uncorrected error", m->uncorrected);
			o = put_text(o, " after ");
			o = put_dec(o, m->corrected);
			o = put_text(o, " corrected");
		}
		*end = o;
		return MODULE_REPLACE;
	}
	if (reached(m->week_corrected, t->replace_corrected_week)) {
		o = put_dec(o, m->week_corrected);
		o = put_text(o, " corrected errors within a week (ReplaceCorrectedPerWeek=");
		o = put_dec(o, t->replace_corrected_week);
		*o++ = ')';
		*end = o;
		return MODULE_REPLACE;
	}
	if (reached(banks_seen(&m->pattern), t->replace_banks)) {
		o = put_text(o, "errors in ");
		o = put_dec(o, m->pattern.n_banks);
		o = put_text(o, m->pattern.more_banks ? "+ banks" : " banks");
		o = put_text(o, ": a multi-bank fault");
		*end = o;
		return MODULE_REPLACE;
	}
	return MODULE_OK;
}

static enum module_verdict exhausted(const struct module_entry *m, const struct module_thresholds *t, char *o,
				     char **end)
{
	if (m->spares_left == 0) {
		o = put_text(o, "no spare left after ");
		o = put_dec(o, m->repairs[MODULE_REPAIR_DONE]);
		*end = put_noun(o, "repair", m->repairs[MODULE_REPAIR_DONE]);
		return MODULE_REPAIR_EXHAUSTED;
	}
	if (reached(m->repairs[MODULE_REPAIR_FAILED], t->exhausted_failed)) {
		o = put_dec(o, m->repairs[MODULE_REPAIR_FAILED]);
		o = put_noun(o, "repair", m->repairs[MODULE_REPAIR_FAILED]);
		*end = put_text(o, " failed");
		return MODULE_REPAIR_EXHAUSTED;
	}
	if (m->repair_limit_reached) {
		o = put_text(o, "repair refused at its limit after ");
		o = put_dec(o, m->repairs[MODULE_REPAIR_DONE]);
		*end = put_text(o, " done");
		return MODULE_REPAIR_EXHAUSTED;
	}
	return MODULE_OK;
}

/* The verdicts below the two above: isolating, watch, ok. */
static enum module_verdict lesser(const struct module_entry *m, const struct module_thresholds *t, char *o,
				  char **end)
{
	if (reached((uint64_t) m->pages_retired + m->rows_retired, t->isolating_pages)) {
		o = put_dec(o, m->pages_retired);
		o = put_noun(o, "page", m->pages_retired);
		o = put_text(o, " and ");
		o = put_dec(o, m->rows_retired);
		o = put_noun(o, "row", m->rows_retired);
		*end = put_text(o, " retired");
		return MODULE_ISOLATING;
	}
	if (reached(m->corrected, t->watch_corrected)) {
		enum dram_pattern p = dram_tracker_pattern(&m->pattern.tracker);

		o = put_dec(o, m->corrected);
		o = put_noun(o, "corrected error", m->corrected);
		if (p != DRAM_PATTERN_NONE) {
			o = put_text(o, ", pattern ");
			o = put_text(o, dram_pattern_to_string(p));
		}
		*end = o;
		return MODULE_WATCH;
	}
	if (m->corrected + m->uncorrected == 0) {
		*end = put_text(o, "no errors");
	} else {
		o = put_dec(o, m->corrected);
		o = put_noun(o, "corrected error", m->corrected);
		o = put_text(o, ", below WatchCorrected=");
		*end = put_dec(o, t->watch_corrected);
	}
	return MODULE_OK;
}

enum module_verdict module_verdict_of(const struct module_entry *m, const struct module_thresholds *t,
				      char *reason, size_t reason_size)
{
	char text[REASON_TEXT_MAX], *end = text;
	enum module_verdict v = replace(m, t, text, &end);

	if (v == MODULE_OK)
		v = exhausted(m, t, text, &end);
	if (v == MODULE_OK)
		v = lesser(m, t, text, &end);
	if (reason)
		put_end(reason, reason_size, text, end);
	return v;
}
