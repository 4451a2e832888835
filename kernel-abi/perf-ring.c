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
