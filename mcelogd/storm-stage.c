/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>

#include "clock.h"
#include "log.h"
#include "macro.h"
#include "rule-field.h"
#include "storm-key.h"
#include "storm-stage.h"

/*
 * Timer slack: summaries are seconds apart, so 10 ms costs nothing in
 * precision and lets the kernel batch our wake-ups with others.
 */
#define STORM_TIMER_ACCURACY_USEC (10 * 1000)

struct emit_ctx {
	struct storm_stage *st;
	struct storm_output out;
};

/*
 * Two clock reads are never the same offset to the microsecond, and one
 * storm's summaries and end must carry the same storm_start (consumers join
 * on it): the offset is kept until it moves by a second or more, which only a
 * clock step does, and then the output follows the clock.
 */
#define OFFSET_STEP_USEC (1000 * 1000)

static struct storm_output output_now(struct storm_stage *st, enum storm_end_reason reason)
{
	int64_t real = now_realtime_usec();
	int64_t offset = real - (int64_t) now_monotonic_usec();

	if (!st->have_offset || offset - st->offset_usec >= OFFSET_STEP_USEC ||
	    st->offset_usec - offset >= OFFSET_STEP_USEC) {
		st->offset_usec = offset;
		st->have_offset = true;
	}
	return (struct storm_output) {
		.now_usec = real,
		.offset_usec = st->offset_usec,
		.hostname = st->hostname,
		.boot_id = st->boot_id,
		.reason = reason,
	};
}

/* storm_event_fn: one summary or end to every sink. */
static void write_event(const struct storm_event *ev, void *userdata)
{
	struct emit_ctx *c = userdata;
	struct storm_stage *st = c->st;
	char message[512];
	struct sink_entry e = { .kind = SINK_ENTRY_STORM };

	storm_event_message(ev, &c->out, message, sizeof(message));
	json_writer_reset(&st->json);
	storm_event_write_json(ev, &c->out, &st->json);
	if (json_writer_failed(&st->json)) {
		/* The counts must still reach someone: our own log has them. */
		log_error("Out of memory rendering a storm event: %s", message);
		return;
	}
	e.json = json_writer_str(&st->json);
	e.storm.event = ev;
	e.storm.out = &c->out;
	e.storm.message = message;
	st->n_events++;
	(void) st->emit(st->core, &e);
}

static void tick(struct storm_stage *st, uint64_t now_usec, enum storm_end_reason reason)
{
	struct emit_ctx c = { .st = st, .out = output_now(st, reason) };

	storm_tick(st->engine, now_usec, write_event, &c);
}

static void timer_arm(struct storm_stage *st)
{
	uint64_t d = storm_next_deadline(st->engine);
	int r;

	if (d == st->timer_usec)
		return;
	if (d == UINT64_MAX)
		r = sd_event_source_set_enabled(st->timer, SD_EVENT_OFF);
	else {
		r = sd_event_source_set_time(st->timer, d);
		if (r >= 0)
			r = sd_event_source_set_enabled(st->timer, SD_EVENT_ONESHOT);
	}
	if (r < 0) {
		/* The next record ticks the engine anyway; only a silent storm would wait. */
		log_error_errno(r, "Failed to arm the storm timer: %m");
		st->timer_usec = UINT64_MAX;
		return;
	}
	st->timer_usec = d;
}

static int on_storm_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct storm_stage *st = userdata;

	(void) s;
	(void) usec;
	st->timer_usec = UINT64_MAX;   /* a oneshot timer is off once it fired */
	if (!st->engine)
		return 0;
	tick(st, now_monotonic_usec(), STORM_END_QUIET);
	timer_arm(st);
	return 0;
}

static bool config_equal(const struct storm_config *a, const struct storm_config *b)
{
	return a->burst == b->burst && a->window_usec == b->window_usec &&
	       a->summary_interval_usec == b->summary_interval_usec &&
	       a->quiet_usec == b->quiet_usec && a->max_signatures == b->max_signatures;
}

void storm_stage_close(struct storm_stage *st, enum storm_end_reason reason)
{
	struct emit_ctx c;

	if (!st->engine)
		return;
	/* At the end of time every storm is quiet: each gets its last summary and its end. */
	c = (struct emit_ctx) { .st = st, .out = output_now(st, reason) };
	storm_tick(st->engine, UINT64_MAX, write_event, &c);
	storm_free(st->engine);
	st->engine = NULL;
	if (st->timer)
		(void) sd_event_source_set_enabled(st->timer, SD_EVENT_OFF);
	st->timer_usec = UINT64_MAX;
}

void storm_stage_done(struct storm_stage *st)
{
	storm_stage_close(st, STORM_END_STOP);
	st->timer = sd_event_source_unref(st->timer);
	json_writer_done(&st->json);
}

int storm_stage_setup(struct storm_stage *st, bool enable, const struct storm_config *c)
{
	int r;

	if (st->engine && enable && config_equal(&st->config, c))
		return 0;
	storm_stage_close(st, STORM_END_RELOAD);
	if (!enable) {
		log_info("Storm detection disabled by configuration: every record is logged");
		return 0;
	}
	if (!st->timer) {
		r = sd_event_add_time(st->event, &st->timer, CLOCK_MONOTONIC, 0, STORM_TIMER_ACCURACY_USEC,
				      on_storm_timer, st);
		if (r < 0)
			return log_error_errno(r, "Failed to create the storm timer: %m; storms are not "
					       "detected, every record is logged");
		(void) sd_event_source_set_description(st->timer, "storm-timer");
	}
	(void) sd_event_source_set_enabled(st->timer, SD_EVENT_OFF);
	st->timer_usec = UINT64_MAX;
	r = storm_new(c, &st->engine);
	if (r < 0)
		return log_error_errno(r, "Failed to set up storm detection: %m; every record is logged");
	st->config = *c;
	return 0;
}

bool storm_stage_suppress(struct storm_stage *st, const struct mce_record *rec, const struct mce_decoded *d)
{
	struct storm_key key;
	struct rule_value page = { 0 };
	bool has_page;
	uint64_t now;
	enum storm_verdict v;

	if (!st->engine || !storm_key_from_record(rec, d, &key))
		return false;
	now = now_monotonic_usec();
	if (now >= storm_next_deadline(st->engine))
		tick(st, now, STORM_END_QUIET);
	/* How many pages a storm covers tells one bad cell from a failing row or bank. */
	has_page = rule_field_get(&(struct rule_input) { .mce = rec, .decoded = d }, RULE_FIELD_PAGE,
				  &page);
	v = storm_account_page(st->engine, &key, now, has_page, page.u);
	timer_arm(st);
	return v == STORM_SUPPRESS;
}

void storm_stage_write_status(struct storm_stage *st, struct json_writer *w)
{
	if (!st->engine)
		return;
	storm_status_write_json(st->engine, output_now(st, STORM_END_QUIET).offset_usec, w);
}
