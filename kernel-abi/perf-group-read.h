/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * What read() of a perf group leader returns when the leader was opened with
 * read_format PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED
 * | PERF_FORMAT_TOTAL_TIME_RUNNING (uapi linux/perf_event.h, "struct
 * read_format", the PERF_FORMAT_GROUP case): u64 nr, u64 time_enabled,
 * u64 time_running, then nr pairs { u64 value; u64 id; }, native byte order.
 * Pure: mcelogd/snapshot/counters.c does the read().
 */

#include <stddef.h>
#include <stdint.h>

/* A group never holds more: the counter groups we open are smaller, and a hostile nr is refused. */
#define PERF_GROUP_READ_MAX 64

struct perf_group_read {
	uint64_t time_enabled;   /* ns the group was enabled */
	uint64_t time_running;   /* ns it was on the PMU: less than enabled when multiplexed */
	size_t nr;
	struct {
		uint64_t value;
		uint64_t id;     /* PERF_EVENT_IOC_ID of the member */
	} values[PERF_GROUP_READ_MAX];
};

/* The bytes a read of a group of nr members takes: the buffer size to pass to read(). */
size_t perf_group_read_size(size_t nr);

/*
 * Parses size bytes.  Returns 0; -EBADMSG when the buffer is shorter than its
 * header or than nr members take, or carries bytes beyond them (another
 * read_format than the one above); -E2BIG when nr exceeds PERF_GROUP_READ_MAX;
 * -ERANGE when time_running exceeds time_enabled (the kernel never reports that).
 */
int perf_group_read_parse(const void *buf, size_t size, struct perf_group_read *ret);

/* The index of the member with this id in r, or -ENOENT. */
int perf_group_read_find(const struct perf_group_read *r, uint64_t id);

/*
 * The body of a PERF_RECORD_SAMPLE of sample_type PERF_SAMPLE_IDENTIFIER |
 * PERF_SAMPLE_TIME | PERF_SAMPLE_READ from a leader of the read_format above
 * (uapi linux/perf_event.h, "PERF_RECORD_SAMPLE": id, time, then the group as
 * read() gives it): the counter recorder's sampler writes these into its
 * ring.  Returns 0 or perf_group_read_parse()'s errors; -EBADMSG when shorter
 * than id and time.
 */
int perf_group_sample_parse(const void *body, size_t size, uint64_t *ret_id, uint64_t *ret_time,
			    struct perf_group_read *ret);
