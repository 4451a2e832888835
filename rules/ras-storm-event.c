/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "json-writer.h"
#include "macro.h"
#include "ras-storm-event.h"

int ras_storm_event_message(const struct storm_event *ev, const struct ras_storm_key *key,
			    const struct storm_output *o, char *buf, size_t size)
{
	const char *kind = ras_event_to_string(key->event);
	const char *word = ras_severity_word(ras_storm_severity(key->event));
	size_t n = strlen(kind);
	char span[32], what[64];

	/* "Corrected memory_controller error", "Uncorrected disk_error" */
	snprintf(what, sizeof(what), "%s %s%s", word, kind, n > 6 && streq(kind + n - 6, "_error") ? "" : " error");
	if (ev->type == STORM_EVENT_SUMMARY) {
		storm_duration_string(ev->first_usec, ev->last_usec, span, sizeof(span));
		return snprintf(buf, size, "%s storm on %s: %" PRIu64 " more records in %s, %"
				PRIu64 " since the storm began", what, key->text, ev->count, span, ev->total);
	}
	storm_duration_string(ev->start_usec, ev->last_usec, span, sizeof(span));
	return snprintf(buf, size, "%s storm on %s %s after %s: %" PRIu64
			" records in summaries, %u logged individually before it", what, key->text,
			storm_end_reason_text(o->reason), span, ev->total, ev->logged);
}

void ras_storm_event_write_json(const struct storm_event *ev, const struct ras_storm_key *key,
				const struct storm_output *o, struct json_writer *w)
{
	json_object_begin(w, NULL);
	json_put_time_usec(w, "time", o->now_usec);
	json_put_string(w, "event", storm_event_type_to_string(ev->type));
	if (o->hostname && o->hostname[0])
		json_put_string(w, "hostname", o->hostname);
	if (o->boot_id && o->boot_id[0])
		json_put_string(w, "boot_id", o->boot_id);
	json_put_string(w, "severity", ras_severity_to_string(ras_storm_severity(key->event)));
	json_put_string(w, "scope", "ras");
	json_put_string(w, "ras_event", ras_event_to_string(key->event));
	json_put_string(w, "source", mce_source_to_string(ras_storm_source(key->event)));
	json_put_string(w, "signature", key->text);
	if (ev->type == STORM_EVENT_SUMMARY)
		json_put_u64(w, "count", ev->count);
	json_put_u64(w, "total", ev->total);
	json_put_u64(w, "logged", ev->logged);
	json_put_time_usec(w, "first", storm_realtime_usec(o, ev->first_usec));
	json_put_time_usec(w, "last", storm_realtime_usec(o, ev->last_usec));
	json_put_time_usec(w, "storm_start", storm_realtime_usec(o, ev->start_usec));
	if (ev->type == STORM_EVENT_END)
		json_put_string(w, "reason", storm_end_reason_to_string(o->reason));
	json_object_end(w);
}

struct status_ctx {
	struct json_writer *w;
	struct storm_output out;
};

static int write_active(const struct storm_info *info, const struct ras_storm_key *key, void *userdata)
{
	struct status_ctx *c = userdata;

	json_object_begin(c->w, NULL);
	json_put_string(c->w, "ras_event", ras_event_to_string(key->event));
	json_put_string(c->w, "signature", key->text);
	storm_info_write_counts(info, &c->out, c->w);
	json_object_end(c->w);
	return 0;
}

void ras_storm_status_write_json(const struct ras_storm *s, int64_t offset_usec, struct json_writer *w)
{
	struct status_ctx c = { .w = w, .out = { .offset_usec = offset_usec } };
	struct storm_counters k;
	uint64_t collisions;

	ras_storm_get_counters(s, &k, &collisions);
	json_object_begin(w, "ras_storms");
	storm_counters_write(&k, w);
	json_put_u64(w, "collisions", collisions);
	json_array_begin(w, "list");
	(void) ras_storm_foreach_active(s, write_active, &c);
	json_array_end(w);
	json_object_end(w);
}
