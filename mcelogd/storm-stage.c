/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"
#include "macro.h"
#include "rule-field.h"
#include "ras-storm-event.h"
#include "storm-key.h"
#include "file-io.h"
#include "storm-stage.h"
#include "storm-state.h"

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

/* One summary or end to every sink; ras NULL for a machine-check storm. */
static void write_any_event(const struct storm_event *ev, const struct ras_storm_key *ras, struct emit_ctx *c)
{
	struct storm_stage *st = c->st;
	char message[512];
	struct sink_entry e = { .kind = SINK_ENTRY_STORM };

	json_writer_reset(&st->json);
	if (ras) {
		ras_storm_event_message(ev, ras, &c->out, message, sizeof(message));
		ras_storm_event_write_json(ev, ras, &c->out, &st->json);
	} else {
		storm_event_message(ev, &c->out, message, sizeof(message));
		storm_event_write_json(ev, &c->out, &st->json);
	}
	if (json_writer_failed(&st->json)) {
		/* The counts must still reach someone: our own log has them. */
		log_error("Out of memory rendering a storm event: %s", message);
		return;
	}
	e.json = json_writer_str(&st->json);
	e.storm.event = ev;
	e.storm.out = &c->out;
	e.storm.message = message;
	e.storm.ras = ras;
	st->n_events++;
	(void) st->emit(st->core, &e);
}

/* storm_event_fn */
static void write_event(const struct storm_event *ev, void *userdata)
{
	write_any_event(ev, NULL, userdata);
}

/* ras_storm_event_fn */
static void write_ras_event(const struct storm_event *ev, const struct ras_storm_key *key, void *userdata)
{
	write_any_event(ev, key, userdata);
}

/*
 * Counted records are saved this often while a storm counts them: a crash
 * loses none of the counts saved, and the restart cursor passes a counted
 * record only once it is saved, so the next start logs the rest one by one.
 */
#define SAVE_INTERVAL_USEC (1000 * 1000)
#define STATE_FILE "storms.state"
#define STATE_MAX (1 << 22)

struct save_ctx {
	struct storm_saved *storms;
	size_t n, cap;
	int64_t offset_usec;
	int error;
};

static int collect_any(const struct storm_info *info, const struct ras_storm_key *ras, struct save_ctx *c)
{
	struct storm_output o = { .offset_usec = c->offset_usec };

	if (!info->in_storm || info->suppressed == 0)
		return 0;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		struct storm_saved *p = realloc(c->storms, cap * sizeof(*p));

		if (!p) {
			c->error = -ENOMEM;
			return 1;
		}
		c->storms = p;
		c->cap = cap;
	}
	c->storms[c->n++] = (struct storm_saved) {
		.key = info->key,
		.start_usec = storm_realtime_usec(&o, info->start_usec),
		.last_usec = storm_realtime_usec(&o, info->last_usec),
		.total = info->suppressed,
		.logged = info->logged,
	};
	if (ras) {
		c->storms[c->n - 1].is_ras = true;
		c->storms[c->n - 1].ras = *ras;
	}
	return 0;
}

static int collect_saved(const struct storm_info *info, void *userdata)
{
	return collect_any(info, NULL, userdata);
}

static int collect_saved_ras(const struct storm_info *info, const struct ras_storm_key *key, void *userdata)
{
	return collect_any(info, key, userdata);
}

static void state_path(const struct storm_stage *st, char *buf, size_t size)
{
	snprintf(buf, size, "%s/" STATE_FILE, st->state_directory);
}

/* Saves every storm's counts; with none in progress, removes the file. */
static int save_counts(struct storm_stage *st)
{
	struct save_ctx c = { .offset_usec = output_now(st, STORM_END_QUIET).offset_usec };
	_cleanup_free_ char *text = NULL;
	char path[4096];
	int n, r;

	if (!st->state_directory)
		return 0;
	state_path(st, path, sizeof(path));
	if (st->engine)
		(void) storm_foreach_active(st->engine, collect_saved, &c);
	if (st->ras_engine && c.error == 0)
		(void) ras_storm_foreach_active(st->ras_engine, collect_saved_ras, &c);
	if (c.error < 0) {
		free(c.storms);
		return log_error_errno(c.error, "Out of memory saving the storm counts");
	}
	if (c.n == 0) {
		free(c.storms);
		if (st->saved_file && unlink(path) < 0 && errno != ENOENT)
			return log_warning_errno(negative_errno(), "Cannot remove %s: %m", path);
		st->saved_file = false;
		return 0;
	}
	n = storm_state_format(st->boot_id, c.storms, c.n, &text);
	free(c.storms);
	if (n < 0)
		return log_error_errno(n, "Out of memory saving the storm counts");
	r = write_file_atomic(path, text, (size_t) n, false);
	if (r < 0)
		return log_warning_errno(r, "Cannot save the storm counts to %s: %m; a crash would lose "
					 "the counts since the last summary", path);
	st->saved_file = true;
	return 0;
}

static int on_save_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct storm_stage *st = userdata;

	(void) s;
	(void) usec;
	if (save_counts(st) >= 0 && st->accounted)
		st->accounted(st->core);
	return 0;
}

/* A record was counted: make sure it is saved within SAVE_INTERVAL_USEC. */
static void schedule_save(struct storm_stage *st)
{
	int enabled = SD_EVENT_OFF;
	int r;

	if (!st->state_directory || !st->event)
		return;
	if (!st->save_timer) {
		r = sd_event_add_time_relative(st->event, &st->save_timer, CLOCK_MONOTONIC, SAVE_INTERVAL_USEC,
					       STORM_TIMER_ACCURACY_USEC, on_save_timer, st);
		if (r < 0) {
			log_error_errno(r, "Cannot schedule saving the storm counts: %m; they are saved "
					"with each summary only");
			return;
		}
		(void) sd_event_source_set_description(st->save_timer, "storm-save");
		return;
	}
	if (sd_event_source_get_enabled(st->save_timer, &enabled) >= 0 && enabled != SD_EVENT_OFF)
		return;
	(void) sd_event_source_set_time_relative(st->save_timer, SAVE_INTERVAL_USEC);
	(void) sd_event_source_set_enabled(st->save_timer, SD_EVENT_ONESHOT);
}

static int add_pending(const struct storm_info *info, void *userdata)
{
	*(uint64_t *) userdata += info->pending;
	return 0;
}

static int add_pending_ras(const struct storm_info *info, const struct ras_storm_key *key, void *userdata)
{
	(void) key;
	return add_pending(info, userdata);
}

/* Sources hold their restart cursors before counted records until their summary is written. */
static void report_accounted(struct storm_stage *st)
{
	uint64_t pending = 0;

	if (st->engine)
		(void) storm_foreach_active(st->engine, add_pending, &pending);
	if (st->ras_engine)
		(void) ras_storm_foreach_active(st->ras_engine, add_pending_ras, &pending);
	if (pending == 0 && st->accounted)
		st->accounted(st->core);
	/* The totals in the file move with the summaries; ended storms leave it. */
	(void) save_counts(st);
}

static void tick(struct storm_stage *st, uint64_t now_usec, enum storm_end_reason reason)
{
	struct emit_ctx c = { .st = st, .out = output_now(st, reason) };
	unsigned n = 0;

	if (now_usec >= storm_next_deadline(st->engine))
		n += storm_tick(st->engine, now_usec, write_event, &c);
	if (st->ras_engine && now_usec >= ras_storm_next_deadline(st->ras_engine))
		n += ras_storm_tick(st->ras_engine, now_usec, write_ras_event, &c);
	if (n > 0)
		report_accounted(st);
}

static void timer_arm(struct storm_stage *st)
{
	uint64_t d = storm_next_deadline(st->engine);
	int r;

	if (st->ras_engine && ras_storm_next_deadline(st->ras_engine) < d)
		d = ras_storm_next_deadline(st->ras_engine);

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
	if (st->ras_engine)
		ras_storm_tick(st->ras_engine, UINT64_MAX, write_ras_event, &c);
	ras_storm_free(st->ras_engine);
	st->ras_engine = NULL;
	report_accounted(st);
	if (st->timer)
		(void) sd_event_source_set_enabled(st->timer, SD_EVENT_OFF);
	st->timer_usec = UINT64_MAX;
}

void storm_stage_done(struct storm_stage *st)
{
	storm_stage_close(st, STORM_END_STOP);
	st->timer = sd_event_source_unref(st->timer);
	st->save_timer = sd_event_source_disable_unref(st->save_timer);
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
	r = ras_storm_new(c, &st->ras_engine);
	if (r < 0)
		log_error_errno(r, "Failed to set up storm detection for ras records: %m; every one is logged");
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
	if (v == STORM_SUPPRESS)
		schedule_save(st);
	return v == STORM_SUPPRESS;
}

bool storm_stage_suppress_ras(struct storm_stage *st, const struct ras_record *rec)
{
	struct ras_storm_key key;
	uint64_t now;
	enum storm_verdict v;

	if (!st->engine || !st->ras_engine || !ras_storm_key_from_record(rec, &key))
		return false;
	now = now_monotonic_usec();
	/* A storm that went quiet ends before this record could extend it. */
	if (now >= storm_next_deadline(st->engine) || now >= ras_storm_next_deadline(st->ras_engine))
		tick(st, now, STORM_END_QUIET);
	v = ras_storm_account(st->ras_engine, &key, now);
	timer_arm(st);
	if (v == STORM_SUPPRESS)
		schedule_save(st);
	return v == STORM_SUPPRESS;
}

void storm_stage_write_status(struct storm_stage *st, struct json_writer *w)
{
	int64_t offset;

	if (!st->engine)
		return;
	offset = output_now(st, STORM_END_QUIET).offset_usec;
	storm_status_write_json(st->engine, offset, w);
	if (st->ras_engine)
		ras_storm_status_write_json(st->ras_engine, offset, w);
}

/* One storm of a killed mcelogd: what no summary holds yet, then its end. */
static void close_crashed(struct storm_stage *st, const struct storm_saved *saved, const char *boot_id)
{
	/* Saved times are CLOCK_REALTIME already: an output offset of 0 keeps them. */
	struct storm_output o = output_now(st, STORM_END_CRASH);
	struct emit_ctx c = { .st = st };
	struct storm_event ev = {
		.key = saved->key,
		.logged = saved->logged,
		.start_usec = (uint64_t) saved->start_usec,
		.first_usec = (uint64_t) saved->start_usec,
		.last_usec = (uint64_t) saved->last_usec,
	};
	uint64_t logged_total = 0;
	bool ended = false;
	int r = -ENODATA;

	o.offset_usec = 0;
	o.boot_id = boot_id;
	c.out = o;
	if (st->storm_logged)
		r = st->storm_logged(st->core, &saved->key, saved->is_ras ? &saved->ras : NULL, saved->start_usec,
				     boot_id, &logged_total, &ended);
	if (r > 0 && ended)
		return;   /* it was closed after all: the save came before its end */
	if (r < 0)
		log_warning_errno(r, "Cannot tell which counts of a storm cut by a crash the journal "
				  "holds (%m); writing all %llu it saved", (unsigned long long) saved->total);
	if (saved->total > logged_total) {
		ev.type = STORM_EVENT_SUMMARY;
		ev.count = saved->total - logged_total;
		ev.total = saved->total;
		write_any_event(&ev, saved->is_ras ? &saved->ras : NULL, &c);
	}
	ev.type = STORM_EVENT_END;
	ev.count = 0;
	ev.total = saved->total > logged_total ? saved->total : logged_total;
	write_any_event(&ev, saved->is_ras ? &saved->ras : NULL, &c);
}

void storm_stage_recover(struct storm_stage *st)
{
	_cleanup_free_ struct storm_saved *storms = NULL;
	_cleanup_free_ char *text = NULL;
	char path[4096], boot_id[MCE_BOOT_ID_LEN + 1];
	size_t len = 0, n = 0;
	unsigned bad_line = 0;
	int r;

	if (!st->state_directory)
		return;
	state_path(st, path, sizeof(path));
	r = read_full_file(path, STATE_MAX, &text, &len);
	if (r == -ENOENT)
		return;
	if (r < 0) {
		log_warning_errno(r, "Cannot read %s: %m; the counts of storms cut by a crash are lost", path);
		return;
	}
	r = storm_state_parse(text, len, boot_id, &storms, &n, &bad_line);
	if (r < 0) {
		char aside[4200];

		snprintf(aside, sizeof(aside), "%s.damaged", path);
		log_warning("%s:%u: damaged storm state, set aside as %s; the counts of storms cut by a "
			    "crash are lost", path, bad_line, aside);
		(void) rename(path, aside);
		return;
	}
	for (size_t i = 0; i < n; i++)
		close_crashed(st, &storms[i], boot_id);
	if (n > 0)
		log_notice("Closed %zu storm(s) cut by a crash, with the counts they had saved", n);
	if (unlink(path) < 0 && errno != ENOENT)
		log_warning_errno(negative_errno(), "Cannot remove %s: %m", path);
}
