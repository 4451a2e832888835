/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * How big each CPU's tracepoint ring is, and what all of them cost.  Pure:
 * the counts come from the caller (tracepoint.c reads
 * /sys/devices/system/cpu/possible, the page size and MCELOGD_RING_PAGES).
 *
 * Every online CPU has one ring, so the ring's size is the per-CPU cost of
 * the tracepoint source; it does not depend on the CPU count, and the total
 * grows linearly with CPUs.  The reasoning is in ring-size.c.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest MCELOGD_RING_PAGES accepted (a testing aid). */
#define RING_PAGES_OVERRIDE_MAX 1024

struct ring_size {
	unsigned data_pages;     /* a power of two, as perf requires */
	size_t page_size;
	uint64_t map_bytes;      /* one CPU's mapping: the control page and the data pages */
	uint64_t samples;        /* samples of the largest size allowed for that the data pages hold */
	uint64_t pool_records;   /* the kernel's MCE record pool on a machine of this many possible CPUs */
	bool overridden;         /* data_pages came from MCELOGD_RING_PAGES */
};

/*
 * One CPU's ring.  possible_cpus: the count in /sys/devices/system/cpu/possible
 * (0: unknown); page_size: a power of two; override_pages: 0, or the data
 * pages MCELOGD_RING_PAGES asks for.  Returns 0, or -EINVAL for a page size
 * or an override that is not a power of two (or an override above
 * RING_PAGES_OVERRIDE_MAX).
 */
int ring_size_plan(unsigned possible_cpus, size_t page_size, unsigned override_pages, struct ring_size *ret);

/* Bytes of n_cpus such rings: what counts against perf_event_mlock_kb and RLIMIT_MEMLOCK. */
uint64_t ring_size_total(const struct ring_size *r, unsigned n_cpus);

/*
 * A full MCE pool, drained on one CPU in one pass, does not fit that CPU's
 * ring on its own: it is then read while it arrives, and what the ring drops
 * is given back by the trace instance (see ring-size.c).
 */
bool ring_size_pool_exceeds_ring(const struct ring_size *r);

/*
 * Whether a ring with `used` bytes unread would be over half full (where it
 * is read whole) ahead_ns from now, should records keep coming as fast as
 * the last `arrived` bytes did, over over_ns.  A reader may sleep until the
 * hold-back timer only when this is false for the time until it, so that a
 * ring filling fast is read as it fills.
 */
bool ring_size_half_full_by(const struct ring_size *r, uint64_t used, uint64_t arrived, uint64_t over_ns,
			    uint64_t ahead_ns);

/*
 * MCELOGD_RING_PAGES' text: a power of two from 1 to RING_PAGES_OVERRIDE_MAX.
 * Returns 0, or -EINVAL (not a number, or not a power of two in range).
 */
int ring_size_parse_override(const char *text, unsigned *ret);
