/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/uio.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

/* Our entries describe hardware, not our source code: no CODE_FILE/LINE/FUNC. */
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <systemd/sd-journal.h>

#include "json-writer.h"
#include "log.h"
#include "macro.h"
#include "manager-storm.h"
#include "message-ids.h"
#include "rfc3339.h"
#include "sink-journal.h"
#include "storm-key.h"

/*
 * Timer slack: summaries are seconds apart, so 10 ms costs nothing in
 * precision and lets the kernel batch our wake-ups with others.
 */
#define STORM_TIMER_ACCURACY_USEC (10 * 1000)

/*
 * How long a stop waits for journald to store the storm ends it just wrote.
 * journald takes _COMM from /proc when it reads an entry; once we have
 * exited it cannot, and mcectl query shows only entries whose trusted _COMM
 * is ours.  systemd's stop timeout is far longer.
 */
#define STORM_STOP_WAIT_USEC (10 * STORM_USEC_PER_SEC)

struct emit_ctx {
	struct manager *m;
	struct storm_output out;
	unsigned ends_written;       /* storm ends journald accepted */
};

static struct storm_output output_now(const struct manager *m, enum storm_end_reason reason)
{
	int64_t real = now_realtime_usec();
	uint64_t mono = now_monotonic_usec();

	return (struct storm_output) {
		.now_usec = real,
		.offset_usec = real - (int64_t) mono,
		.hostname = m->hostname,
		.boot_id = m->boot_id,
		.reason = reason,
	};
}

static void add_time(struct journal_fields *f, const char *name, int64_t usec)
{
	char t[RFC3339_MAX];

	format_rfc3339_usec(t, sizeof(t), usec);
	journal_fields_add(f, "%s=%s", name, t);
}

static int journal_write(const struct storm_event *ev, const struct storm_output *o,
			 const char *message, const char *json)
{
	static char json_field[4096];
	struct journal_fields f = { .n = 0 };
	bool summary = ev->type == STORM_EVENT_SUMMARY;
	char code[19];

	storm_code_string(ev->key.code, code);
	journal_fields_add(&f, "MESSAGE=%s", message);
	journal_fields_add(&f, "MESSAGE_ID=%s", summary ? MCELOGD_MSGID_STORM : MCELOGD_MSGID_STORM_END);
	/* A storm is a failing part: a warning, like each of its records; the end is news only. */
	journal_fields_add(&f, "PRIORITY=%d", summary ? LOG_WARNING : LOG_NOTICE);
	journal_fields_add(&f, "SYSLOG_IDENTIFIER=mcelogd");
	journal_fields_add(&f, "MCE_SEVERITY=corrected");
	journal_fields_add(&f, "MCE_STORM_SCOPE=%s", ev->key.per_cpu ? "cpu" : "shared");
	if (ev->key.per_cpu)
		journal_fields_add(&f, "MCE_CPU=%" PRIu32, ev->key.cpu);
	journal_fields_add(&f, "MCE_BANK=%" PRIu32, ev->key.bank);
	journal_fields_add(&f, "MCE_STORM_CODE=%s", code);
	if (summary)
		journal_fields_add(&f, "MCE_STORM_COUNT=%" PRIu64, ev->count);
	journal_fields_add(&f, "MCE_STORM_TOTAL=%" PRIu64, ev->total);
	journal_fields_add(&f, "MCE_STORM_LOGGED=%u", ev->logged);
	add_time(&f, "MCE_STORM_FIRST", storm_realtime_usec(o, ev->first_usec));
	add_time(&f, "MCE_STORM_LAST", storm_realtime_usec(o, ev->last_usec));
	add_time(&f, "MCE_STORM_START", storm_realtime_usec(o, ev->start_usec));
	if (!summary)
		journal_fields_add(&f, "MCE_STORM_REASON=%s", storm_end_reason_to_string(o->reason));
	journal_fields_add_large(&f, "MCE_JSON=", json, json_field, sizeof(json_field));
	return sd_journal_sendv(f.iov, (int) f.n);
}

/* storm_event_fn: one summary or end to every sink. */
static void write_event(const struct storm_event *ev, void *userdata)
{
	struct emit_ctx *c = userdata;
	struct manager *m = c->m;
	char message[512];
	const char *json;
	int r;

	storm_event_message(ev, &c->out, message, sizeof(message));
	json_writer_reset(&m->json);
	storm_event_write_json(ev, &c->out, &m->json);
	if (json_writer_failed(&m->json)) {
		/* The counts must still reach someone: our own log has them. */
		m->n_sink_failures++;
		log_error("Out of memory rendering a storm event: %s", message);
		return;
	}
	json = json_writer_str(&m->json);
	m->n_storm_events++;
	if (m->config.sink_journal) {
		r = journal_write(ev, &c->out, message, json);
		if (r >= 0 && ev->type == STORM_EVENT_END)
			c->ends_written++;
		if (r < 0) {
			m->n_sink_failures++;
			log_error_errno(r, "Failed to write a storm event to the journal: %m; it was: %s",
					json);
		}
	}
	if (m->json_out) {
		if (fputs(json, m->json_out) < 0 || fputc('\n', m->json_out) < 0 ||
		    (m->json_flush_each && fflush(m->json_out) != 0)) {
			m->n_sink_failures++;
			log_error("Failed to write a storm event to JSON output: %s", json);
		}
	}
}

static void tick(struct manager *m, uint64_t now_usec, enum storm_end_reason reason)
{
	struct emit_ctx c = { .m = m, .out = output_now(m, reason) };

	storm_tick(m->storm, now_usec, write_event, &c);
}

static void timer_arm(struct manager *m)
{
	uint64_t d = storm_next_deadline(m->storm);
	int r;

	if (d == m->storm_timer_usec)
		return;
	if (d == UINT64_MAX)
		r = sd_event_source_set_enabled(m->storm_timer, SD_EVENT_OFF);
	else {
		r = sd_event_source_set_time(m->storm_timer, d);
		if (r >= 0)
			r = sd_event_source_set_enabled(m->storm_timer, SD_EVENT_ONESHOT);
	}
	if (r < 0) {
		/* The next record ticks the engine anyway; only a silent storm would wait. */
		log_error_errno(r, "Failed to arm the storm timer: %m");
		m->storm_timer_usec = UINT64_MAX;
		return;
	}
	m->storm_timer_usec = d;
}

static int on_storm_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct manager *m = userdata;

	(void) s;
	(void) usec;
	m->storm_timer_usec = UINT64_MAX;   /* a oneshot timer is off once it fired */
	if (!m->storm)
		return 0;
	tick(m, now_monotonic_usec(), STORM_END_QUIET);
	timer_arm(m);
	return 0;
}

static bool config_equal(const struct storm_config *a, const struct storm_config *b)
{
	return a->burst == b->burst && a->window_usec == b->window_usec &&
	       a->summary_interval_usec == b->summary_interval_usec &&
	       a->quiet_usec == b->quiet_usec && a->max_signatures == b->max_signatures;
}

/*
 * Waits until journald has stored the n storm ends this process wrote at a
 * stop.  Summaries were sent before them on the same socket.
 */
static int wait_ends_stored(unsigned n, uint64_t timeout_usec)
{
	static const char *const matches[] = {
		"MESSAGE_ID=" MCELOGD_MSGID_STORM_END,
		"MCE_STORM_REASON=stop",
	};

	return sink_journal_wait_matching(matches, ELEMENTSOF(matches), n, timeout_usec);
}

void manager_storm_close(struct manager *m, enum storm_end_reason reason)
{
	struct emit_ctx c;
	int r;

	if (!m->storm)
		return;
	/* At the end of time every storm is quiet: each gets its last summary and its end. */
	c = (struct emit_ctx) { .m = m, .out = output_now(m, reason) };
	storm_tick(m->storm, UINT64_MAX, write_event, &c);
	if (reason == STORM_END_STOP && c.ends_written > 0) {
		r = wait_ends_stored(c.ends_written, STORM_STOP_WAIT_USEC);
		if (r < 0)
			log_warning_errno(r, "journald has not stored the %u storm end(s) written at "
					  "this stop: %m; mcectl query may not show them", c.ends_written);
	}
	storm_free(m->storm);
	m->storm = NULL;
	if (m->storm_timer)
		(void) sd_event_source_set_enabled(m->storm_timer, SD_EVENT_OFF);
	m->storm_timer_usec = UINT64_MAX;
}

int manager_storm_setup(struct manager *m)
{
	int r;

	if (m->storm && m->config.storm_enable && config_equal(&m->storm_config, &m->config.storm))
		return 0;
	manager_storm_close(m, STORM_END_RELOAD);
	if (!m->config.storm_enable) {
		log_info("Storm detection disabled by configuration: every record is logged");
		return 0;
	}
	if (!m->storm_timer) {
		r = sd_event_add_time(m->event, &m->storm_timer, CLOCK_MONOTONIC, 0,
				      STORM_TIMER_ACCURACY_USEC, on_storm_timer, m);
		if (r < 0)
			return log_error_errno(r, "Failed to create the storm timer: %m; storms are not "
					       "detected, every record is logged");
		(void) sd_event_source_set_description(m->storm_timer, "storm-timer");
	}
	(void) sd_event_source_set_enabled(m->storm_timer, SD_EVENT_OFF);
	m->storm_timer_usec = UINT64_MAX;
	r = storm_new(&m->config.storm, &m->storm);
	if (r < 0)
		return log_error_errno(r, "Failed to set up storm detection: %m; every record is logged");
	m->storm_config = m->config.storm;
	return 0;
}

bool manager_storm_suppress(struct manager *m, const struct mce_record *rec,
			    const struct mce_decoded *d)
{
	struct storm_key key;
	uint64_t now;
	enum storm_verdict v;

	if (!m->storm || !storm_key_from_record(rec, d, &key))
		return false;
	now = now_monotonic_usec();
	if (now >= storm_next_deadline(m->storm))
		tick(m, now, STORM_END_QUIET);
	v = storm_account(m->storm, &key, now);
	timer_arm(m);
	return v == STORM_SUPPRESS;
}

void manager_storm_write_status(struct manager *m, struct json_writer *w)
{
	if (!m->storm)
		return;
	storm_status_write_json(m->storm, now_realtime_usec() - (int64_t) now_monotonic_usec(), w);
}
