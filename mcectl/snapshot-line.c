/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "macro.h"
#include "snapshot-line.h"

static json_object *member(json_object *o, const char *key)
{
	json_object *v;

	return o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* A number as mcelogd's flat journal field prints it, so both tables read the same. */
static void put_number(json_object *v, int decimals, char *buf, size_t size)
{
	if (json_object_is_type(v, json_type_int))
		snprintf(buf, size, "%" PRId64, json_object_get_int64(v));
	else if (json_object_is_type(v, json_type_double))
		snprintf(buf, size, "%.*f", decimals, json_object_get_double(v));
}

int snapshot_summary_from_json(json_object *snapshot, struct snapshot_summary *ret)
{
	json_object *c = member(snapshot, "counters"), *window = member(c, "window"), *change;
	const char *far = NULL;
	double far_by = 1.0, far_change = 0;

	*ret = (struct snapshot_summary) {};
	if (!member(c, "cpu") || !member(window, "seconds"))
		return -ENOENT;
	put_number(member(c, "cpu"), 0, ret->cpu, sizeof(ret->cpu));
	put_number(member(window, "seconds"), 3, ret->window_sec, sizeof(ret->window_sec));
	put_number(member(c, "read_after_error_usec"), 0, ret->after_usec, sizeof(ret->after_usec));
	put_number(member(c, "ipc"), 3, ret->ipc, sizeof(ret->ipc));
	put_number(member(c, "effective_mhz"), 0, ret->effective_mhz, sizeof(ret->effective_mhz));
	put_number(member(c, "cache_miss_rate"), 4, ret->cache_miss_rate, sizeof(ret->cache_miss_rate));
	put_number(member(c, "branch_miss_rate"), 4, ret->branch_miss_rate, sizeof(ret->branch_miss_rate));
	/* The figure that says "unusual": the furthest from 1 either way, as mcelogd picks it. */
	change = member(c, "change");
	if (change && json_object_is_type(change, json_type_object)) {
		json_object_object_foreach(change, name, v) {
			double x = json_object_get_double(v), by;

			if (!(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)) ||
			    x <= 0)
				continue;
			by = x >= 1.0 ? x : 1.0 / x;
			if (!far || by > far_by) {
				far = name;
				far_by = by;
				far_change = x;
			}
		}
	}
	if (far)
		snprintf(ret->largest_change, sizeof(ret->largest_change), "%s x%.2f", far, far_change);
	return 0;
}

int snapshot_line_format(const struct snapshot_summary *s, char *buf, size_t size)
{
	const struct {
		const char *value, *label, *suffix;
	} figures[] = {
		{ s->ipc,              "IPC ",            "" },
		{ s->effective_mhz,    "",                " MHz" },
		{ s->cache_miss_rate,  "cache-miss ",     "" },
		{ s->branch_miss_rate, "branch-miss ",    "" },
		{ s->largest_change,   "largest change ", "" },
	};
	size_t n;

	if (!s->cpu[0] || !s->window_sec[0] || size == 0)
		return -ENOENT;
	n = (size_t) snprintf(buf, size, "CPU %s over %ss", s->cpu, s->window_sec);
	if (s->after_usec[0] && n < size)
		n += (size_t) snprintf(buf + n, size - n, ", read %s us after the error", s->after_usec);
	for (size_t i = 0; i < ELEMENTSOF(figures) && n < size; i++)
		if (figures[i].value[0])
			n += (size_t) snprintf(buf + n, size - n, "; %s%s%s", figures[i].label, figures[i].value,
					       figures[i].suffix);
	return 0;
}
