/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>

#include "perf-ring.h"

int perf_ring_next(const unsigned char *data, uint64_t size, uint64_t head, uint64_t *tail,
		   unsigned char *scratch, struct perf_ring_record *ret)
{
	struct perf_event_header hdr;
	uint64_t off, avail;
	const unsigned char *rec;

	if (*tail >= head)
		return 0;
	avail = head - *tail;
	if (avail < sizeof(hdr))
		return -EBADMSG;
	off = *tail & (size - 1);
	/* The header itself may wrap. */
	for (size_t i = 0; i < sizeof(hdr); i++)
		((unsigned char *) &hdr)[i] = data[(off + i) & (size - 1)];
	if (hdr.size < sizeof(hdr) || hdr.size > avail || hdr.size > size)
		return -EBADMSG;
	if (off + hdr.size <= size)
		rec = data + off;
	else {
		uint64_t first = size - off;

		memcpy(scratch, data + off, first);
		memcpy(scratch + first, data, hdr.size - first);
		rec = scratch;
	}
	*ret = (struct perf_ring_record) {
		.type = hdr.type,
		.body = rec + sizeof(hdr),
		.body_size = hdr.size - sizeof(hdr),
	};
	*tail += hdr.size;
	return 1;
}

int perf_sample_parse(const unsigned char *body, size_t size, struct perf_sample *ret)
{
	/* In sample_type bit order: u64 identifier; u64 time; u32 cpu, u32 res; u32 raw size, raw bytes. */
	enum { OFF_ID = 0, OFF_TIME = PERF_SAMPLE_TIME_OFFSET, OFF_CPU = 16, OFF_RAW_SIZE = 24, OFF_RAW = 28 };
	uint32_t raw_size;

	if (size < OFF_RAW)
		return -EBADMSG;
	memcpy(&raw_size, body + OFF_RAW_SIZE, sizeof(raw_size));
	ret->raw_size = raw_size;
	if (raw_size > size - OFF_RAW)
		return -EOVERFLOW;
	memcpy(&ret->id, body + OFF_ID, sizeof(ret->id));
	memcpy(&ret->time, body + OFF_TIME, sizeof(ret->time));
	memcpy(&ret->cpu, body + OFF_CPU, sizeof(ret->cpu));
	ret->raw = body + OFF_RAW;
	return 0;
}

int perf_lost_parse(const unsigned char *body, size_t size, uint64_t *ret_id, uint64_t *ret_lost)
{
	/* u64 id, u64 lost, then sample_id fields when sample_id_all is set (it is not). */
	if (size < 16)
		return -EBADMSG;
	memcpy(ret_id, body, sizeof(*ret_id));
	memcpy(ret_lost, body + 8, sizeof(*ret_lost));
	return 0;
}

/*
 * How big one CPU's ring must be.
 *
 * The kernel does not emit mce:mce_record where the error is found: the
 * machine-check handler and the poller put records into a fixed pool
 * (arch/x86/kernel/cpu/mce/genpool.c) and one work item later walks the whole
 * pool on one CPU, firing the tracepoint for each record back to back.  So
 * the largest burst any single ring sees at once is one full pool, and a
 * record that does not fit then is gone (perf counts it in PERF_RECORD_LOST).
 * The pool holds max(80, 2 x possible CPUs) records on current kernels (a
 * fixed two pages, "~80 records at most", on older ones, 6.1 included), so a
 * ring sized for that many samples takes a whole pool even when mcelogd is
 * not scheduled at all while the work item runs.
 *
 * A sample is the 8-byte perf header, u64 identifier (which tracepoint of
 * those sharing the ring), u64 time, u32 cpu + u32 pad, u32 raw size and the
 * raw tracepoint record (its struct padded to 8 bytes, the raw part sized so
 * the sample ends on 8 bytes): 152 bytes with 6.1's 107-byte record, so 26
 * fill a 4 KiB page (without the identifier it was 144 and 28, as the VM
 * rig's one-page ring showed, tests/vm/scenarios/41-ring-loss.sh); some 168
 * plus the vendor data array with 6.10's (ppin, microcode).  The ras:*
 * events share the ring; they are rare, and RING_SAMPLE_MAX leaves room for
 * them and for fields yet to come.
 *
 * The floor keeps small machines well clear of the edge (64 KiB, some 450
 * 6.1 samples); the ceiling is 512 KiB because that plus the control page
 * is exactly the default kernel.perf_event_mlock_kb (516), which the kernel
 * allows per online CPU: the rings never need CAP_IPC_LOCK.  A ring at the
 * ceiling holds a full pool up to 1,024 possible CPUs; beyond that a burst
 * still fits unless mcelogd stays off-CPU for the whole of it, and if it
 * does not, the loss is reported, not silent.
 */
#define POOL_MIN_RECORDS 80
#define POOL_RECORDS_PER_CPU 2
#define RING_SAMPLE_MAX 256
#define RING_BYTES_MIN (64u * 1024)
#define RING_BYTES_MAX (512u * 1024)

unsigned perf_ring_pages(unsigned possible_cpus, size_t page_size)
{
	uint64_t records = (uint64_t) possible_cpus * POOL_RECORDS_PER_CPU, bytes, pages = 1;

	if (page_size == 0)
		return 1;
	if (records < POOL_MIN_RECORDS)
		records = POOL_MIN_RECORDS;
	bytes = records * RING_SAMPLE_MAX;
	if (bytes < RING_BYTES_MIN)
		bytes = RING_BYTES_MIN;
	if (bytes > RING_BYTES_MAX)
		bytes = RING_BYTES_MAX;
	/* perf wants a power of two number of data pages. */
	while (pages * page_size < bytes)
		pages *= 2;
	return (unsigned) pages;
}
