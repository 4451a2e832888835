/* SPDX-License-Identifier: MIT */
#include <systemd/sd-event.h>

#include "clock.h"
#include "log.h"
#include "rule-engine.h"
#include "rules-save.h"

uint64_t rules_save_counted(const struct rule_engine *e)
{
	const struct rule_set *set;
	uint64_t n = 0;

	if (!e)
		return 0;
	set = rule_engine_rules(e);
	for (unsigned i = 0; i < set->n_rules; i++) {
		const struct rule_stats *s = rule_engine_stats(e, i);

		n += s->matched - s->unkeyed - s->copies;
	}
	return n;
}

void rules_save_done(struct rules_save *s, const struct rule_engine *e)
{
	s->last_usec = now_monotonic_usec();
	s->counted = rules_save_counted(e);
	if (s->timer)
		(void) sd_event_source_set_enabled(s->timer, SD_EVENT_OFF);
}

static int on_save_timer(sd_event_source *es, uint64_t usec, void *userdata)
{
	struct rules_save *s = userdata;

	(void) es;
	(void) usec;
	(void) s->save(s->userdata);
	return 0;
}

void rules_save_soon(struct rules_save *s, sd_event *event)
{
	uint64_t now, due;
	int r;

	/* A replay (no loop) writes its state once, at its end. */
	if (!s->save || !event)
		return;
	now = now_monotonic_usec();
	due = s->last_usec + (s->interval_usec ? s->interval_usec : RULES_SAVE_INTERVAL_USEC);
	if (s->last_usec == 0 || now >= due) {
		(void) s->save(s->userdata);
		return;
	}
	if (s->timer) {
		int enabled = SD_EVENT_OFF;

		/* Already waiting for the interval's end: that write takes this change too. */
		if (sd_event_source_get_enabled(s->timer, &enabled) >= 0 && enabled != SD_EVENT_OFF)
			return;
		r = sd_event_source_set_time(s->timer, due);
		if (r >= 0)
			r = sd_event_source_set_enabled(s->timer, SD_EVENT_ONESHOT);
	} else
		r = sd_event_add_time(event, &s->timer, CLOCK_MONOTONIC, due, 0, on_save_timer, s);
	if (r < 0) {
		/* No timer: write now rather than lose the change at a crash. */
		log_warning_errno(r, "Cannot schedule writing the rules' state: %m; writing it now");
		(void) s->save(s->userdata);
	}
}

void rules_save_after_record(struct rules_save *s, const struct rule_engine *e, sd_event *event)
{
	uint64_t counted = rules_save_counted(e);

	if (counted == s->counted || !event)
		return;
	s->counted = counted;
	rules_save_soon(s, event);
}

void rules_save_free(struct rules_save *s)
{
	s->timer = sd_event_source_disable_unref(s->timer);
}
