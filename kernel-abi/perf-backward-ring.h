/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * A perf ring the kernel writes backward (perf_event_attr.write_backward,
 * Linux 4.7) and mapped read-only, so that it overwrites the oldest records
 * when full and never waits for a reader: a flight recorder.  data_head
 * starts at 0 and goes down by each record's size; the newest record starts
 * at data_head, and the older ones follow it upwards, wrapping at the end of
 * the data area, until the bytes the newest record overwrote.
 *
 * Pure: the caller pauses the ring (PERF_EVENT_IOC_PAUSE_OUTPUT), reads
 * data_head with acquire order, hands the data area here, and resumes it.
 */

#include <stddef.h>
#include <stdint.h>

/* One record, newest first.  body: the bytes after its perf_event_header,
 * copied out of the ring so that a record that wraps is contiguous. */
typedef void (*perf_backward_record_fn)(uint32_t type, const void *body, size_t body_size, void *userdata);

/*
 * Walks the records of a data area of `size` bytes (a power of two) whose
 * data_head is `head`, newest first, calling fn for at most max_records.
 * Stops at a header of size 0 (never written), at a record that would reach
 * into what the newest overwrote, or at a header shorter than a header.
 * Returns how many records fn got, or -EINVAL for a size that is not a power
 * of two of at least 8 bytes.
 */
int perf_backward_ring_walk(const void *data, size_t size, uint64_t head, size_t max_records,
			    perf_backward_record_fn fn, void *userdata);
