/* SPDX-License-Identifier: MIT */
/* The perf AUX records, flags, buffer layout and time conversion; see perf-aux.h. */
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

#include "json-writer.h"
#include "macro.h"
#include "perf-aux.h"

int perf_aux_parse(const unsigned char *body, size_t size, struct perf_aux_record *ret)
{
	uint64_t v[3];

	if (size < sizeof(v))
		return -EBADMSG;
	memcpy(v, body, sizeof(v));
	*ret = (struct perf_aux_record) { .aux_offset = v[0], .aux_size = v[1], .flags = v[2] };
	return 0;
}

int perf_itrace_start_parse(const unsigned char *body, size_t size, uint32_t *ret_pid, uint32_t *ret_tid)
{
	if (size < 8)
		return -EBADMSG;
	memcpy(ret_pid, body, 4);
	memcpy(ret_tid, body + 4, 4);
	return 0;
}

/* uapi linux/perf_event.h, PERF_AUX_FLAG_*. */
static const struct {
	uint64_t bit;
	const char *name;
} aux_flags[] = {
	{ PERF_AUX_FLAG_TRUNCATED, "truncated" },   /* the record was cut: data lost */
	{ PERF_AUX_FLAG_OVERWRITE, "overwrite" },   /* snapshot mode: the buffer wrapped */
	{ PERF_AUX_FLAG_PARTIAL,   "partial" },     /* holds gaps */
	{ PERF_AUX_FLAG_COLLISION, "collision" },   /* sample collided with another */
};
#define AUX_FLAG_PMU_FORMAT_MASK UINT64_C(0xff00)

void perf_aux_flags_json(struct json_writer *w, const char *key, uint64_t flags)
{
	uint64_t rest = flags & ~AUX_FLAG_PMU_FORMAT_MASK;

	json_array_begin(w, key);
	for (size_t i = 0; i < ELEMENTSOF(aux_flags); i++)
		if (rest & aux_flags[i].bit) {
			json_put_string(w, NULL, aux_flags[i].name);
			rest &= ~aux_flags[i].bit;
		}
	if (rest)
		json_put_hex(w, NULL, rest);
	json_array_end(w);
}

unsigned perf_aux_snapshot_spans(uint64_t head, uint64_t size, bool seen_wrap, struct perf_aux_span ret[2])
{
	uint64_t at;

	if (size == 0)
		return 0;
	at = head % size;
	if (head < size && !seen_wrap) {
		/* not wrapped yet: [0, head) */
		if (head == 0)
			return 0;
		ret[0] = (struct perf_aux_span) { .offset = 0, .len = head };
		return 1;
	}
	/* wrapped: the oldest byte is the one head is about to overwrite */
	if (at == 0) {
		ret[0] = (struct perf_aux_span) { .offset = 0, .len = size };
		return 1;
	}
	ret[0] = (struct perf_aux_span) { .offset = at, .len = size - at };
	ret[1] = (struct perf_aux_span) { .offset = 0, .len = at };
	return 2;
}

struct perf_time_conv perf_time_conv_from_page(const struct perf_event_mmap_page *pg)
{
	return (struct perf_time_conv) {
		.time_zero = pg->time_zero,
		.time_mult = pg->time_mult,
		.time_shift = pg->time_shift,
		.valid = pg->cap_user_time_zero && pg->time_mult != 0 && pg->time_shift < 64,
	};
}

/* time = time_zero + tsc * time_mult / 2^time_shift, computed on the
 * quotient and the remainder of tsc / 2^time_shift separately (the
 * perf_event_mmap_page comment gives the same split). */
uint64_t perf_tsc_to_time(const struct perf_time_conv *c, uint64_t tsc)
{
	uint64_t quot = tsc >> c->time_shift;
	uint64_t rem = tsc & ((UINT64_C(1) << c->time_shift) - 1);

	return c->time_zero + quot * c->time_mult + ((rem * c->time_mult) >> c->time_shift);
}

/* The inverse: tsc = (time - time_zero) * 2^time_shift / time_mult, again split. */
uint64_t perf_time_to_tsc(const struct perf_time_conv *c, uint64_t time)
{
	uint64_t t = time - c->time_zero;
	uint64_t quot = t / c->time_mult;
	uint64_t rem = t % c->time_mult;

	return (quot << c->time_shift) + (rem << c->time_shift) / c->time_mult;
}
