/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>

#include "perf-backward-ring.h"

/* Copies n bytes from offset `at` of the ring, across its end. */
static void ring_copy(const unsigned char *data, size_t size, uint64_t at, void *out, size_t n)
{
	size_t off = (size_t) (at & (size - 1));
	size_t first = n < size - off ? n : size - off;

	memcpy(out, data + off, first);
	memcpy((unsigned char *) out + first, data, n - first);
}

int perf_backward_ring_walk(const void *data, size_t size, uint64_t head, size_t max_records,
			    perf_backward_record_fn fn, void *userdata)
{
	/* A record is at most 64 KiB (its header's size is a u16). */
	unsigned char body[UINT16_MAX];
	/* What was ever written: -head, as the kernel counts down from 0. */
	uint64_t written = (uint64_t) 0 - head, avail = written < size ? written : size, used = 0;
	int n = 0;

	if (size < sizeof(struct perf_event_header) || (size & (size - 1)) != 0)
		return -EINVAL;
	while ((size_t) n < max_records && avail - used >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;

		ring_copy(data, size, head + used, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size > avail - used)
			break;
		ring_copy(data, size, head + used + sizeof(h), body, h.size - sizeof(h));
		fn(h.type, body, h.size - sizeof(h), userdata);
		used += h.size;
		n++;
	}
	return n;
}
