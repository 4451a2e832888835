/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counter-history.h"
#include "json-writer.h"
#include "macro.h"

struct counter_history {
	const char *const *names;
	size_t n_events;
	size_t capacity;
	size_t oldest;      /* ring index of the oldest read */
	size_t count;
	bool newest_provisional;
	int64_t *times;     /* [capacity] */
	struct counter_reading *readings;   /* [capacity][n_events] */
};

struct counter_history *counter_history_new(const char *const *names, size_t n_events, size_t capacity)
{
	if (n_events == 0 || n_events > COUNTER_EVENTS_MAX ||
	    capacity < COUNTER_HISTORY_MIN || capacity > COUNTER_HISTORY_MAX)
		return NULL;

	_cleanup_(counter_history_freep) struct counter_history *h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->names = names;
	h->n_events = n_events;
	h->capacity = capacity;
	h->times = calloc(capacity, sizeof(*h->times));
	h->readings = calloc(capacity * n_events, sizeof(*h->readings));
	if (!h->times || !h->readings)
		return NULL;
	return TAKE_PTR(h);
}

struct counter_history *counter_history_free(struct counter_history *h)
{
	if (h) {
		free(h->times);
		free(h->readings);
		free(h);
	}
	return NULL;
}

void counter_history_clear(struct counter_history *h)
{
	h->oldest = 0;
	h->count = 0;
	h->newest_provisional = false;
}

size_t counter_history_count(const struct counter_history *h)
{
	return h->count;
}

/* Ring index of the i-th oldest read. */
static size_t slot(const struct counter_history *h, size_t i)
{
	return (h->oldest + i) % h->capacity;
}

static const struct counter_reading *reading(const struct counter_history *h, size_t i, size_t event)
{
	return &h->readings[slot(h, i) * h->n_events + event];
}

int counter_history_push(struct counter_history *h, int64_t time_usec, const struct counter_reading *readings,
			 bool provisional)
{
	if (h->count > 0 && time_usec < h->times[slot(h, h->count - 1)])
		return -EINVAL;

	size_t s;
	if (h->count > 0 && h->newest_provisional)
		s = slot(h, h->count - 1);
	else if (h->count < h->capacity)
		s = slot(h, h->count++);
	else {
		s = h->oldest;
		h->oldest = (h->oldest + 1) % h->capacity;
	}
	h->newest_provisional = provisional;
	h->times[s] = time_usec;
	memcpy(&h->readings[s * h->n_events], readings, h->n_events * sizeof(*readings));
	return 0;
}

/* Event's count between the reads i and i + 1. */
static struct counter_delta interval_delta(const struct counter_history *h, size_t i, size_t event)
{
	const struct counter_reading *a = reading(h, i, event), *b = reading(h, i + 1, event);

	if (a->absent || b->absent)
		return (struct counter_delta) { .reason = "unavailable", .absent = true };
	if (!a->valid || !b->valid)
		return (struct counter_delta) { .reason = "not read" };
	/* Totals only grow while a counter lives (they are 64 bits wide and do
	 * not wrap in practice): a smaller one means it was reopened. */
	if (b->value < a->value || b->time_enabled < a->time_enabled || b->time_running < a->time_running)
		return (struct counter_delta) { .reason = "reset" };

	uint64_t raw = b->value - a->value;
	uint64_t enabled = b->time_enabled - a->time_enabled, running = b->time_running - a->time_running;
	if (running == 0)
		return (struct counter_delta) { .reason = "not scheduled", .enabled_ns = enabled };
	if (running >= enabled)
		return (struct counter_delta) { .count = raw, .valid = true, .enabled_ns = enabled,
						.running_ns = running };

	/* Multiplexed: extrapolate to the whole enabled time, as perf stat does. */
	unsigned __int128 scaled = (unsigned __int128) raw * enabled / running;
	return (struct counter_delta) {
		.count = scaled > UINT64_MAX ? UINT64_MAX : (uint64_t) scaled,
		.valid = true,
		.scaled = true,
		.enabled_ns = enabled,
		.running_ns = running,
	};
}

static int64_t interval_usec(const struct counter_history *h, size_t i)
{
	return h->times[slot(h, i + 1)] - h->times[slot(h, i)];
}

int counter_history_window(const struct counter_history *h, int64_t error_usec, struct counter_window *ret)
{
	if (h->count < 2)
		return -ENODATA;

	size_t last = h->count - 2;   /* the newest interval */
	size_t chosen;
	enum counter_window_position position;
	if (error_usec <= h->times[slot(h, 0)]) {
		chosen = 0;
		position = COUNTER_WINDOW_BEFORE_HISTORY;
	} else if (error_usec > h->times[slot(h, h->count - 1)]) {
		chosen = last;
		position = COUNTER_WINDOW_AFTER_HISTORY;
	} else {
		position = COUNTER_WINDOW_COVERS;
		chosen = 0;
		while (chosen < last && h->times[slot(h, chosen + 1)] < error_usec)
			chosen++;
	}

	*ret = (struct counter_window) {
		.start_usec = h->times[slot(h, chosen)],
		.end_usec = h->times[slot(h, chosen + 1)],
		.position = position,
		.n_events = h->n_events,
		.baseline_intervals = last,
	};

	int64_t usec = interval_usec(h, chosen);
	for (size_t e = 0; e < h->n_events; e++) {
		struct counter_delta *d = &ret->deltas[e];
		*d = interval_delta(h, chosen, e);
		if (!d->valid || usec <= 0)
			continue;

		/* The baseline: the mean rate over every other interval held. */
		double sum = 0;
		size_t n = 0;
		for (size_t i = 0; i <= last; i++) {
			if (i == chosen || interval_usec(h, i) <= 0)
				continue;
			struct counter_delta o = interval_delta(h, i, e);
			if (!o.valid)
				continue;
			sum += (double) o.count / (double) interval_usec(h, i);
			n++;
		}
		if (n == 0 || sum <= 0)
			continue;
		d->have_baseline = true;
		d->change = ((double) d->count / (double) usec) / (sum / (double) n);
	}
	return 0;
}

static int find_event(const struct counter_history *h, const struct counter_window *w, const char *name)
{
	for (size_t e = 0; e < h->n_events; e++)
		if (streq(h->names[e], name) && w->deltas[e].valid)
			return (int) e;
	return -1;
}

/* a / b for two counted events; false when either is missing or b is zero. */
static bool ratio(const struct counter_history *h, const struct counter_window *w,
		  const char *a, const char *b, double *ret)
{
	int ia = find_event(h, w, a), ib = find_event(h, w, b);
	if (ia < 0 || ib < 0 || w->deltas[ib].count == 0)
		return false;
	*ret = (double) w->deltas[ia].count / (double) w->deltas[ib].count;
	return true;
}

void counter_history_derive(const struct counter_history *h, const struct counter_window *w,
			    struct counter_derived *ret)
{
	*ret = (struct counter_derived) {};
	ret->have_ipc = ratio(h, w, "instructions", "cycles", &ret->ipc);
	ret->have_frequency_ratio = ratio(h, w, "cycles", "ref-cycles", &ret->frequency_ratio);
	ret->have_cache_miss_rate = ratio(h, w, "cache-misses", "cache-references", &ret->cache_miss_rate);
	ret->have_branch_miss_rate = ratio(h, w, "branch-misses", "branches", &ret->branch_miss_rate) ||
				     ratio(h, w, "branch-misses", "branch-instructions", &ret->branch_miss_rate);

	/* cpu-clock and task-clock count nanoseconds: cycles per ns * 1000 is MHz. */
	double per_ns;
	if (ratio(h, w, "cycles", "cpu-clock", &per_ns) || ratio(h, w, "cycles", "task-clock", &per_ns)) {
		ret->have_effective_mhz = true;
		ret->effective_mhz = per_ns * 1000.0;
	}
}

const char *counter_window_position_name(enum counter_window_position p)
{
	static const char *const names[] = {
		[COUNTER_WINDOW_COVERS] = "covers",
		[COUNTER_WINDOW_BEFORE_HISTORY] = "before_history",
		[COUNTER_WINDOW_AFTER_HISTORY] = "after_history",
	};
	return (size_t) p < ELEMENTSOF(names) ? names[p] : "unknown";
}

double counter_json_fixed(double x, unsigned decimals)
{
	char buf[64];
	int n = snprintf(buf, sizeof(buf), "%.*f", (int) decimals, x);

	return n > 0 && (size_t) n < sizeof(buf) ? strtod(buf, NULL) : x;
}

int counter_window_largest_change(const struct counter_window *w, size_t *ret_event, double *ret_change)
{
	double far_by = 1.0, far_change = 0;
	size_t far = SIZE_MAX;

	for (size_t e = 0; e < w->n_events; e++) {
		double x, by;

		if (!w->deltas[e].have_baseline)
			continue;
		x = counter_json_fixed(w->deltas[e].change, COUNTER_CHANGE_DECIMALS);
		if (!(x > 0))
			continue;
		by = x >= 1.0 ? x : 1.0 / x;
		if (far == SIZE_MAX || by > far_by) {
			far = e;
			far_by = by;
			far_change = x;
		}
	}
	if (far == SIZE_MAX)
		return -ENOENT;
	*ret_event = far;
	*ret_change = far_change;
	return 0;
}

void counter_window_write_json(const struct counter_history *h, const struct counter_window *w,
			       const struct counter_derived *d, struct json_writer *jw)
{
	json_object_begin(jw, "window");
	json_put_time_usec(jw, "start", w->start_usec);
	json_put_time_usec(jw, "end", w->end_usec);
	json_put_fixed(jw, "seconds", (double) (w->end_usec - w->start_usec) / 1e6, 6);
	json_put_string(jw, "position", counter_window_position_name(w->position));
	json_object_end(jw);

	bool any_scaled = false, any_invalid = false, any_change = false;
	json_object_begin(jw, "events");
	for (size_t e = 0; e < w->n_events; e++) {
		const struct counter_delta *c = &w->deltas[e];
		if (c->valid)
			json_put_u64(jw, h->names[e], c->count);
		any_scaled |= c->scaled;
		any_invalid |= !c->valid && !c->absent;
		any_change |= c->have_baseline;
	}
	json_object_end(jw);

	if (any_scaled) {
		json_array_begin(jw, "scaled");
		for (size_t e = 0; e < w->n_events; e++)
			if (w->deltas[e].scaled)
				json_put_string(jw, NULL, h->names[e]);
		json_array_end(jw);
	}
	/* Where the PMU had too few counters for every event: how long each of those was on
	 * it, against how long it was enabled (the figures the scaling used). */
	if (any_scaled || any_invalid) {
		bool any_short = false;
		for (size_t e = 0; e < w->n_events; e++)
			any_short |= w->deltas[e].running_ns < w->deltas[e].enabled_ns;
		if (any_short) {
			json_object_begin(jw, "time_enabled_ns");
			for (size_t e = 0; e < w->n_events; e++)
				if (w->deltas[e].running_ns < w->deltas[e].enabled_ns)
					json_put_u64(jw, h->names[e], w->deltas[e].enabled_ns);
			json_object_end(jw);
			json_object_begin(jw, "time_running_ns");
			for (size_t e = 0; e < w->n_events; e++)
				if (w->deltas[e].running_ns < w->deltas[e].enabled_ns)
					json_put_u64(jw, h->names[e], w->deltas[e].running_ns);
			json_object_end(jw);
		}
	}
	if (any_invalid) {
		json_object_begin(jw, "not_counted");
		for (size_t e = 0; e < w->n_events; e++)
			if (!w->deltas[e].valid && !w->deltas[e].absent)
				json_put_string(jw, h->names[e], w->deltas[e].reason);
		json_object_end(jw);
	}

	if (d->have_ipc)
		json_put_fixed(jw, "ipc", d->ipc, 3);
	if (d->have_frequency_ratio)
		json_put_fixed(jw, "frequency_ratio", d->frequency_ratio, 3);
	if (d->have_effective_mhz)
		json_put_fixed(jw, "effective_mhz", d->effective_mhz, COUNTER_MHZ_DECIMALS);
	if (d->have_cache_miss_rate)
		json_put_fixed(jw, "cache_miss_rate", d->cache_miss_rate, 4);
	if (d->have_branch_miss_rate)
		json_put_fixed(jw, "branch_miss_rate", d->branch_miss_rate, 4);

	if (any_change) {
		/* Rate in this interval over the mean rate of the others: 1 is usual. */
		json_put_u64(jw, "baseline_intervals", w->baseline_intervals);
		json_object_begin(jw, "change");
		for (size_t e = 0; e < w->n_events; e++)
			if (w->deltas[e].have_baseline)
				json_put_fixed(jw, h->names[e], w->deltas[e].change, COUNTER_CHANGE_DECIMALS);
		json_object_end(jw);
	}
}
