/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "json-writer.h"
#include "log.h"
#include "macro.h"
#include "record.h"
#include "snapshot-stage.h"

int snapshot_stage_set(struct snapshot_stage *st, const struct snapshot_ops *const *table, size_t n)
{
	if (n > ELEMENTSOF(st->slots))
		return -E2BIG;
	snapshot_stage_close(st);
	for (size_t i = 0; i < n; i++)
		st->slots[i] = (struct snapshot_slot) { .ops = table[i] };
	st->n = n;
	return 0;
}

void snapshot_stage_open(struct snapshot_stage *st, const struct snapshot_params *p)
{
	snapshot_stage_close(st);
	for (size_t i = 0; i < st->n; i++) {
		struct snapshot_slot *k = &st->slots[i];
		k->open_error = 0;
		int r = k->ops->open(p, &k->state);
		if (r < 0) {
			k->state = NULL;
			k->open_error = r;
			log_warning_errno(r, "The %s snapshot is unavailable: %m; records are logged without it",
					  k->ops->name);
		}
	}
}

void snapshot_stage_close(struct snapshot_stage *st)
{
	for (size_t i = 0; i < st->n; i++) {
		struct snapshot_slot *k = &st->slots[i];
		if (k->state)
			k->ops->close(k->state);
		k->state = NULL;
	}
}

bool snapshot_stage_wants(const struct mce_record *rec, bool live)
{
	if (!live)
		return false;
	switch (rec->source) {
	case MCE_SOURCE_TRACEPOINT:
	case MCE_SOURCE_DEV_MCELOG:
	case MCE_SOURCE_MSR_POLL:
		return true;
	default:
		/* Firmware records are of the previous boot; replayed ones of another time. */
		return false;
	}
}

static void closed_reason(const struct snapshot_slot *k, char *buf, size_t size)
{
	if (k->open_error < 0)
		snprintf(buf, size, "failed to start: %s", strerror(-k->open_error));
	else
		snprintf(buf, size, "off in the configuration");
}

void snapshot_stage_annotate(struct snapshot_stage *st, const struct snapshot_subject *sub,
			     struct json_writer *w)
{
	st->out = (struct snapshot_out) { .json = w };
	json_object_begin(w, "snapshot");
	/* Whose snapshot it is, first: a reader must never take one CPU's counters for another's. */
	if (sub->have_cpu)
		json_put_u64(w, "cpu", sub->cpu);
	if (sub->cpu_from)
		json_put_string(w, "cpu_from", sub->cpu_from);
	if (sub->cpu_is)
		json_put_string(w, "cpu_is", sub->cpu_is);
	for (size_t i = 0; i < st->n; i++) {
		const struct snapshot_slot *k = &st->slots[i];
		if (k->state) {
			k->ops->annotate(k->state, sub, &st->out);
			continue;
		}
		char why[128];
		closed_reason(k, why, sizeof(why));
		json_object_begin(w, k->ops->name);
		json_put_string(w, "unavailable", why);
		json_object_end(w);
	}
	json_object_end(w);
	/* Last: the providers' figures come first when the flat fields are full. */
	if (sub->cpu_from)
		snapshot_out_field(&st->out, "SNAPSHOT_CPU_FROM", "%s", sub->cpu_from);
}

void snapshot_stage_cpu_changed(struct snapshot_stage *st, unsigned cpu, bool online)
{
	for (size_t i = 0; i < st->n; i++) {
		const struct snapshot_slot *k = &st->slots[i];
		void (*fn)(void *, unsigned) = online ? k->ops->cpu_online : k->ops->cpu_offline;
		if (k->state && fn)
			fn(k->state, cpu);
	}
}

void snapshot_stage_status(const struct snapshot_stage *st, struct json_writer *w)
{
	json_array_begin(w, "snapshots");
	for (size_t i = 0; i < st->n; i++) {
		const struct snapshot_slot *k = &st->slots[i];
		json_object_begin(w, NULL);
		json_put_string(w, "name", k->ops->name);
		const char *useless = k->state && k->ops->unavailable ? k->ops->unavailable(k->state) : NULL;

		if (useless) {
			json_put_string(w, "state", "unavailable");
			json_put_string(w, "reason", useless);
			if (k->ops->status)
				k->ops->status(k->state, w);
		} else if (k->state) {
			json_put_string(w, "state", "active");
			/* What works and what does not inside it (the hardware events in a VM). */
			if (k->ops->status)
				k->ops->status(k->state, w);
		} else {
			char why[128];
			closed_reason(k, why, sizeof(why));
			json_put_string(w, "state", k->open_error < 0 ? "unavailable" : "disabled");
			json_put_string(w, "reason", why);
		}
		json_object_end(w);
	}
	json_array_end(w);
}
