/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the perf ring walk over arbitrary ring bytes, as the
 * tracepoint source reads a CPU's ring: every record from data_tail to
 * data_head, samples and loss records parsed, and the raw bytes a sample
 * claims read in full.  Input: u64 data_tail, u64 bytes published past it,
 * then the ring (its largest power-of-two prefix).  The kernel never
 * publishes more than the ring holds, so neither does this target.
 */
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perf-ring.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned char scratch[PERF_RING_RECORD_MAX];
static volatile unsigned char sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t tail, published, size_ring = 1, head;
	unsigned char *ring;

	if (size < 16 + 8)
		return 0;
	memcpy(&tail, data, 8);
	memcpy(&published, data + 8, 8);
	while (size_ring * 2 <= size - 16)
		size_ring *= 2;
	/* A copy of exactly the ring's size: a read outside it is caught by ASan. */
	ring = malloc(size_ring);
	if (!ring)
		abort();
	memcpy(ring, data + 16, size_ring);
	head = tail + published % (size_ring + 1);

	for (;;) {
		struct perf_ring_record rec;
		struct perf_sample sample;
		uint64_t before = tail, id, lost;
		int r = perf_ring_next(ring, size_ring, head, &tail, scratch, &rec);

		if (r <= 0) {
			if (tail != before)
				__builtin_trap();       /* a refused record leaves the tail alone */
			break;
		}
		if (tail <= before || tail > head || rec.body_size + 8 != tail - before)
			__builtin_trap();       /* the tail moves past exactly one record */
		if (rec.type == PERF_RECORD_SAMPLE && perf_sample_parse(rec.body, rec.body_size, &sample) == 0) {
			unsigned char x = 0;

			for (uint32_t i = 0; i < sample.raw_size; i++)
				x ^= sample.raw[i];
			sink = x;
		} else if (rec.type == PERF_RECORD_LOST)
			(void) perf_lost_parse(rec.body, rec.body_size, &id, &lost);
	}

	free(ring);
	return 0;
}
