/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>

#include "perf-ring-merge.h"
#include "perf-ring.h"

/* Bytes at off of a ring, taken across its end if need be. */
static void ring_copy(const struct perf_ring_cursor *c, uint64_t off, void *dst, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((unsigned char *) dst)[i] = c->data[(off + i) & (c->size - 1)];
}

int perf_ring_front_time(const struct perf_ring_cursor *c, uint64_t *ret_time)
{
	struct perf_event_header hdr;
	uint64_t avail;

	if (c->tail >= c->head)
		return -ENODATA;
	avail = c->head - c->tail;
	if (avail < sizeof(hdr))
		return 0;
	ring_copy(c, c->tail, &hdr, sizeof(hdr));
	if (hdr.type != PERF_RECORD_SAMPLE || hdr.size > avail ||
	    hdr.size < sizeof(hdr) + PERF_SAMPLE_TIME_OFFSET + sizeof(*ret_time))
		return 0;
	ring_copy(c, c->tail + sizeof(hdr) + PERF_SAMPLE_TIME_OFFSET, ret_time, sizeof(*ret_time));
	return 1;
}

int perf_ring_merge_pick_before(const struct perf_ring_cursor *rings, size_t n, uint64_t before,
				uint64_t *ret_held)
{
	uint64_t best_time = 0, t;
	int best = -1;

	/* A linear scan: the caller lists only the rings that hold records, a
	 * handful even in a storm, since the kernel emits a whole pool on one CPU. */
	for (size_t i = 0; i < n; i++) {
		int r = perf_ring_front_time(&rings[i], &t);

		if (r == -ENODATA)
			continue;
		if (r == 0)
			return (int) i;
		/* Strictly earlier only: on a tie the ring listed first keeps it. */
		if (best < 0 || t < best_time) {
			best = (int) i;
			best_time = t;
		}
	}
	if (best >= 0 && best_time >= before) {
		if (ret_held)
			*ret_held = best_time;
		return -1;
	}
	if (best < 0 && ret_held)
		*ret_held = UINT64_MAX;
	return best;
}

int perf_ring_merge_pick(const struct perf_ring_cursor *rings, size_t n)
{
	return perf_ring_merge_pick_before(rings, n, UINT64_MAX, NULL);
}
