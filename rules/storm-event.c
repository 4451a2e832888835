/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdio.h>

#include "json-writer.h"
#include "storm-event.h"

static const char *const event_type_names[] = {
	[STORM_EVENT_SUMMARY] = "storm_summary",
	[STORM_EVENT_END]     = "storm_end",
};

static const char *const end_reason_names[_STORM_END_REASON_MAX] = {
	[STORM_END_QUIET]  = "quiet",
	[STORM_END_RELOAD] = "reload",
	[STORM_END_STOP]   = "stop",
	[STORM_END_CRASH]  = "crash",
};

/* How the end line says why the storm is closed. */
static const char *const end_reason_texts[_STORM_END_REASON_MAX] = {
	[STORM_END_QUIET]  = "ended",
	[STORM_END_RELOAD] = "closed by a configuration reload",
	[STORM_END_STOP]   = "closed as mcelogd stops",
	[STORM_END_CRASH]  = "closed after mcelogd was killed, from the counts it saved",
};

const char *storm_event_type_to_string(enum storm_event_type t)
{
	if ((unsigned) t >= sizeof(event_type_names) / sizeof(event_type_names[0]))
		return "storm_unknown";
	return event_type_names[t];
}

const char *storm_end_reason_to_string(enum storm_end_reason r)
{
	if ((unsigned) r >= _STORM_END_REASON_MAX)
		return "unknown";
	return end_reason_names[r];
}

int64_t storm_realtime_usec(const struct storm_output *o, uint64_t monotonic_usec)
{
	if (monotonic_usec > (uint64_t) INT64_MAX)
		return INT64_MAX;
	return (int64_t) monotonic_usec + o->offset_usec;
}

void storm_code_string(uint64_t code, char buf[static 19])
{
	snprintf(buf, 19, "0x%08" PRIx64, code);
}

/* "CPU 3 bank 1" or "shared bank 5". */
static void where(const struct storm_key *k, char *buf, size_t size)
{
	if (k->per_cpu)
		snprintf(buf, size, "CPU %" PRIu32 " bank %" PRIu32, k->cpu, k->bank);
	else
		snprintf(buf, size, "shared bank %" PRIu32, k->bank);
}

void storm_duration_string(uint64_t from, uint64_t to, char *buf, size_t size)
{
	uint64_t d = to > from ? to - from : 0;

	/* Round to the tenth, as printed. */
	d = (d + STORM_USEC_PER_SEC / 20) / (STORM_USEC_PER_SEC / 10);
	snprintf(buf, size, "%" PRIu64 ".%" PRIu64 " s", d / 10, d % 10);
}

int storm_event_message(const struct storm_event *ev, const struct storm_output *o, char *buf,
			size_t size)
{
	char w[64], code[19], span[32];
	unsigned reason = (unsigned) o->reason < _STORM_END_REASON_MAX ? (unsigned) o->reason : 0;

	where(&ev->key, w, sizeof(w));
	storm_code_string(ev->key.code, code);
	if (ev->type == STORM_EVENT_SUMMARY) {
		char pages[64] = "";

		storm_duration_string(ev->first_usec, ev->last_usec, span, sizeof(span));
		if (ev->pages > 0)
			snprintf(pages, sizeof(pages), " on %s%" PRIu64 " distinct page%s",
				 ev->pages_capped ? "at least " : "", ev->pages, ev->pages == 1 ? "" : "s");
		return snprintf(buf, size, "Corrected error storm on %s (code %s): %" PRIu64
				" more records%s in %s, %" PRIu64 " since the storm began", w, code,
				ev->count, pages, span, ev->total);
	}
	storm_duration_string(ev->start_usec, ev->last_usec, span, sizeof(span));
	return snprintf(buf, size, "Corrected error storm on %s (code %s) %s after %s: %" PRIu64
			" records in summaries, %u logged individually before it", w, code,
			end_reason_texts[reason], span, ev->total, ev->logged);
}

void storm_event_write_json(const struct storm_event *ev, const struct storm_output *o,
			    struct json_writer *w)
{
	char code[19];

	storm_code_string(ev->key.code, code);
	json_object_begin(w, NULL);
	json_put_time_usec(w, "time", o->now_usec);
	json_put_string(w, "event", storm_event_type_to_string(ev->type));
	if (o->hostname && o->hostname[0])
		json_put_string(w, "hostname", o->hostname);
	if (o->boot_id && o->boot_id[0])
		json_put_string(w, "boot_id", o->boot_id);
	json_put_string(w, "severity", "corrected");
	json_put_string(w, "scope", ev->key.per_cpu ? "cpu" : "shared");
	if (ev->key.per_cpu)
		json_put_u64(w, "cpu", ev->key.cpu);
	json_put_u64(w, "bank", ev->key.bank);
	json_put_string(w, "code", code);
	if (ev->type == STORM_EVENT_SUMMARY) {
		json_put_u64(w, "count", ev->count);
		json_put_u64(w, "pages", ev->pages);
		if (ev->pages_capped)
			json_put_bool(w, "pages_capped", true);
	}
	json_put_u64(w, "total", ev->total);
	json_put_u64(w, "logged", ev->logged);
	json_put_time_usec(w, "first", storm_realtime_usec(o, ev->first_usec));
	json_put_time_usec(w, "last", storm_realtime_usec(o, ev->last_usec));
	json_put_time_usec(w, "storm_start", storm_realtime_usec(o, ev->start_usec));
	if (ev->type == STORM_EVENT_END)
		json_put_string(w, "reason", storm_end_reason_to_string(o->reason));
	json_object_end(w);
}

const char *storm_end_reason_text(enum storm_end_reason r)
{
	return end_reason_texts[(unsigned) r < _STORM_END_REASON_MAX ? (unsigned) r : 0];
}

void storm_info_write_counts(const struct storm_info *info, const struct storm_output *o, struct json_writer *w)
{
	json_put_u64(w, "logged", info->logged);
	json_put_u64(w, "suppressed", info->suppressed);
	json_put_u64(w, "pending", info->pending);
	json_put_u64(w, "summaries", info->summaries);
	json_put_time_usec(w, "start", storm_realtime_usec(o, info->start_usec));
	json_put_time_usec(w, "last", storm_realtime_usec(o, info->last_usec));
}

void storm_counters_write(const struct storm_counters *k, struct json_writer *w)
{
	json_put_u64(w, "active", k->active);
	json_put_u64(w, "started", k->storms_started);
	json_put_u64(w, "ended", k->storms_ended);
	json_put_u64(w, "seen", k->seen);
	json_put_u64(w, "logged", k->logged);
	json_put_u64(w, "suppressed", k->suppressed);
	json_put_u64(w, "overflow", k->overflow);
	json_put_u64(w, "evicted", k->evicted);
	json_put_u64(w, "tracked", k->tracked);
}

struct status_ctx {
	struct json_writer *w;
	struct storm_output out;
};

static int write_active(const struct storm_info *info, void *userdata)
{
	struct status_ctx *c = userdata;
	char code[19];

	storm_code_string(info->key.code, code);
	json_object_begin(c->w, NULL);
	json_put_string(c->w, "scope", info->key.per_cpu ? "cpu" : "shared");
	if (info->key.per_cpu)
		json_put_u64(c->w, "cpu", info->key.cpu);
	json_put_u64(c->w, "bank", info->key.bank);
	json_put_string(c->w, "code", code);
	storm_info_write_counts(info, &c->out, c->w);
	json_object_end(c->w);
	return 0;
}

void storm_status_write_json(const struct storm *s, int64_t offset_usec, struct json_writer *w)
{
	struct status_ctx c = { .w = w, .out = { .offset_usec = offset_usec } };
	struct storm_counters k;

	storm_get_counters(s, &k);
	json_object_begin(w, "storms");
	storm_counters_write(&k, w);
	json_array_begin(w, "list");
	(void) storm_foreach_active(s, write_active, &c);
	json_array_end(w);
	json_object_end(w);
}
