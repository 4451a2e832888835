/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include "parse-number.h"
#include "ring-size.h"

/*
 * What one CPU's ring must hold.
 *
 * The kernel does not emit mce:mce_record where the error is found.  The
 * machine-check handler, CMCI and the poller put records into one pool
 * (arch/x86/kernel/cpu/mce/genpool.c), and a single work item,
 * mce_gen_pool_process(), later takes the whole pool and fires the
 * tracepoint for each record back to back (mce_early_notifier() on the
 * decoder chain) on the CPU it runs on.  So a broadcast machine check that
 * logs on every CPU lands in one ring, not one record per ring; and in the
 * same pass an EDAC decoder on that chain may add a ras:mc_event per memory
 * error, into the same ring.  The pool holds max(80, 2 x possible CPUs)
 * records on current kernels ("a sliding scale based on number of CPUs"),
 * a fixed two pages, about 80 records, on older ones (6.1 included).
 *
 * So the CPU count does enter what one ring may be sent at once, and a ring
 * sized for a whole pool grows with CPUs.  With one ring per CPU the total
 * then grows with the square of the CPU count (128 MiB at 512 CPUs, every
 * ring sized for a pool that only one of them receives at a time), and it
 * all counts against perf_event_mlock_kb, which the kernel grants per user,
 * shared with every other perf user of that user.  So the ring is capped at
 * a flat size instead: it holds the smallest pool, 80 records each with a
 * ras sample beside it, of RING_SAMPLE_MAX bytes (a sample is the 8-byte
 * header, identifier, time, cpu and the raw record: 152 bytes for 6.1's
 * mce_record, some 176 with 6.10's ppin and microcode; the ras:* events
 * and fields yet to come get the rest).  That is a full pool with a ras
 * sample per record up to 40 possible CPUs, and a pool of machine checks
 * alone (256 samples) up to 128.
 *
 * A larger pool drained in one pass is read while it arrives: perf wakes the
 * reader at every sample, and a ring over half full is read whole at once
 * (tracepoint.c, HOLD_BACK_NS).  A reader in a storm may sleep until the
 * hold-back timer (some 15 ms), but only while its ring, at the rate it has
 * been filling, stays under half full until then (ring_size_half_full_by());
 * a pool emitted back to back fills far faster, so its reader stays awake.
 * If mcelogd is not scheduled for
 * all of that, the machine checks its ring drops are logged from the trace
 * instance (trace-buffer.h: 128 KiB per CPU of kernel memory, about 850
 * records, not counted against the perf limits), and anything neither has
 * is reported lost with its count (PERF_RECORD_LOST), never silently.  A
 * storm is no burst: it outlasts any ring, and whether mcelogd keeps up
 * decides it, not the ring's size.  The VM rig's 1,000-record burst
 * (40-burst), 20,000-record storm (45-storm) and forced ring loss
 * (41-ring-loss) run with exactly this ring: their 2-CPU guests always had it.
 *
 * Page sizes: 40 KiB rounds up to 16 pages of 4 KiB, 4 of 16 KiB or 1 of
 * 64 KiB: 64 KiB of data in each case.
 */
#define POOL_MIN_RECORDS 80
#define POOL_RECORDS_PER_CPU 2
#define SAMPLES_PER_POOL_RECORD 2   /* the mce_record, and a ras:mc_event an EDAC decoder may add */
#define RING_SAMPLE_MAX 256

static bool power_of_two(uint64_t v)
{
	return v > 0 && (v & (v - 1)) == 0;
}

int ring_size_plan(unsigned possible_cpus, size_t page_size, unsigned override_pages, struct ring_size *ret)
{
	uint64_t want = (uint64_t) POOL_MIN_RECORDS * SAMPLES_PER_POOL_RECORD * RING_SAMPLE_MAX, pages = 1;
	uint64_t pool = (uint64_t) possible_cpus * POOL_RECORDS_PER_CPU;

	if (!power_of_two(page_size))
		return -EINVAL;
	if (override_pages && (!power_of_two(override_pages) || override_pages > RING_PAGES_OVERRIDE_MAX))
		return -EINVAL;
	if (override_pages)
		pages = override_pages;
	else
		/* perf wants a power of two number of data pages. */
		while (pages * page_size < want)
			pages *= 2;
	*ret = (struct ring_size) {
		.data_pages = (unsigned) pages,
		.page_size = page_size,
		.map_bytes = (1 + pages) * page_size,
		.samples = pages * page_size / RING_SAMPLE_MAX,
		.pool_records = pool > POOL_MIN_RECORDS ? pool : POOL_MIN_RECORDS,
		.overridden = override_pages > 0,
	};
	return 0;
}

uint64_t ring_size_total(const struct ring_size *r, unsigned n_cpus)
{
	return r->map_bytes * n_cpus;
}

bool ring_size_pool_exceeds_ring(const struct ring_size *r)
{
	return r->pool_records > r->samples;
}

bool ring_size_half_full_by(const struct ring_size *r, uint64_t used, uint64_t arrived, uint64_t over_ns,
			    uint64_t ahead_ns)
{
	uint64_t half = (uint64_t) r->data_pages * r->page_size / 2;

	if (used >= half)
		return true;
	if (arrived == 0 || ahead_ns == 0)
		return false;
	/* It all came in no measurable time: the rate is unknown, so assume the worst. */
	if (over_ns == 0)
		return true;
	return (double) used + (double) arrived * (double) ahead_ns / (double) over_ns >= (double) half;
}

int ring_size_parse_override(const char *text, unsigned *ret)
{
	uint64_t v;

	if (parse_unsigned(text, strlen(text), 10, RING_PAGES_OVERRIDE_MAX, &v) < 0 || !power_of_two(v))
		return -EINVAL;
	*ret = (unsigned) v;
	return 0;
}
