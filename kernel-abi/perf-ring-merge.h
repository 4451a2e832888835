/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Several perf rings read as one sequence in the order of their samples'
 * time (PERF_SAMPLE_TIME), so that records the kernel emitted on different
 * CPUs are handed on in the order they were emitted.  Each ring is already
 * in time order; this is the choice, record by record, of which ring's front
 * comes next (a k-way merge).  Pure: it looks at ring bytes and never copies
 * a record, so a caller holds at most one (perf_ring_next()'s scratch copy).
 */

#include <stddef.h>
#include <stdint.h>

/* One ring in a batch. */
struct perf_ring_cursor {
	const unsigned char *data;   /* the ring's data pages */
	uint64_t size;               /* a power of two */
	uint64_t head;               /* what the producer had published when the batch began */
	uint64_t tail;               /* the next record; perf_ring_next() advances it */
};

/*
 * The PERF_SAMPLE_TIME of the record at tail, read in place even if it wraps
 * the ring's end.  Returns 1 with *ret_time set; 0 when the record carries
 * no time the merge can use: it is not a PERF_RECORD_SAMPLE (a loss report),
 * or its header is too short or impossible (perf_ring_next() then says why);
 * -ENODATA when tail has reached head.
 */
int perf_ring_front_time(const struct perf_ring_cursor *c, uint64_t *ret_time);

/*
 * Which of rings[0..n) holds the record to take next, or -1 when all have
 * reached their head.  A record without a time goes first: it belongs to its
 * ring's sequence, not to the time order, and is only ever behind earlier
 * records of its own ring.  Otherwise the earliest time wins; on equal times
 * the ring listed first, and within one ring its own order always holds.
 */
int perf_ring_merge_pick(const struct perf_ring_cursor *rings, size_t n);

/*
 * The same, taking only records stamped before `before`: the kernel stamps a
 * sample before it publishes it, so a record of another CPU stamped just
 * before the newest one taken may not be in its ring yet.  A reader that
 * takes only what is old enough keeps the time order across CPUs.  Returns
 * -1 when nothing more may be taken now; *ret_held (if not NULL) is then the
 * earliest time still in the rings, UINT64_MAX when they are empty.  A record
 * without a time is taken as perf_ring_merge_pick() takes it.
 */
int perf_ring_merge_pick_before(const struct perf_ring_cursor *rings, size_t n, uint64_t before,
				uint64_t *ret_held);
