/* SPDX-License-Identifier: MIT */
/*
 * A perf ring built in memory the way the kernel writes one (uapi
 * perf_event_header, records wrapping at the end), for the ring tests.
 * Samples are of sample_type IDENTIFIER|TIME|CPU|RAW, as mcelogd opens them.
 */
#pragma once

#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>

#define RING 256

struct ring {
	unsigned char data[RING];
	uint64_t head;
};

static inline void put(struct ring *r, uint32_t type, const void *body, uint16_t body_size)
{
	struct perf_event_header h = { .type = type, .size = (uint16_t) (sizeof(h) + body_size) };

	for (size_t i = 0; i < sizeof(h); i++)
		r->data[(r->head + i) % RING] = ((unsigned char *) &h)[i];
	for (size_t i = 0; i < body_size; i++)
		r->data[(r->head + sizeof(h) + i) % RING] = ((const unsigned char *) body)[i];
	r->head += h.size;
}

/* raw: a string, NUL included, as the sample's raw part. */
static inline void put_sample(struct ring *r, uint64_t id, uint64_t time, uint32_t cpu, const char *raw)
{
	unsigned char b[128] = {};
	uint32_t n = (uint32_t) strlen(raw) + 1;

	memcpy(b, &id, 8);
	memcpy(b + 8, &time, 8);
	memcpy(b + 16, &cpu, 4);
	memcpy(b + 24, &n, 4);
	memcpy(b + 28, raw, n);
	put(r, PERF_RECORD_SAMPLE, b, (uint16_t) ((28 + n + 7) & ~7u));
}

static inline void put_lost(struct ring *r, uint64_t id, uint64_t lost)
{
	uint64_t b[2] = { id, lost };

	put(r, PERF_RECORD_LOST, b, sizeof(b));
}
