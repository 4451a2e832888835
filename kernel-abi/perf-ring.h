/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The perf mmap ring as the tracepoint source reads it (uapi
 * linux/perf_event.h: struct perf_event_mmap_page, PERF_RECORD_*): walking
 * records between data_tail and data_head, the PERF_RECORD_SAMPLE body for
 * PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW
 * (the identifier says which of the tracepoints sharing a ring it is),
 * PERF_RECORD_LOST.  Pure: the mmap, the atomics and the
 * event loop are in mcelogd/sources/tracepoint.c.
 */

#include <stddef.h>
#include <stdint.h>

/* perf_event_header.size is a u16: no record is larger. */
#define PERF_RING_RECORD_MAX 65536

struct perf_ring_record {
	uint32_t type;                 /* PERF_RECORD_* */
	const unsigned char *body;     /* after the 8-byte header, contiguous */
	size_t body_size;
};

/*
 * The record at *tail in a ring of size bytes (a power of two) whose
 * producer has published up to head.  A record that wraps the end of the
 * ring is copied into scratch (PERF_RING_RECORD_MAX bytes).  Returns 1 and
 * advances *tail past it; 0 when tail has reached head; -EBADMSG when the
 * header is impossible (shorter than itself, or past head): the ring cannot
 * be walked any further and *tail is left alone.  head - *tail is trusted to
 * be at most size, as the kernel keeps it: it is not checked, and a larger
 * gap would walk the same bytes again, lap after lap.
 */
int perf_ring_next(const unsigned char *data, uint64_t size, uint64_t head, uint64_t *tail,
		   unsigned char *scratch, struct perf_ring_record *ret);

/* Where PERF_SAMPLE_TIME sits in a sample body of that sample_type: after the identifier. */
#define PERF_SAMPLE_TIME_OFFSET 8

struct perf_sample {
	uint64_t id;                   /* the event's id (PERF_EVENT_IOC_ID) */
	uint64_t time;
	uint32_t cpu;
	const unsigned char *raw;      /* the tracepoint's own bytes (common_type first) */
	uint32_t raw_size;
};

/*
 * A PERF_RECORD_SAMPLE body of sample_type IDENTIFIER|TIME|CPU|RAW.  Returns 0,
 * -EBADMSG if it is too short for the fixed part, or -EOVERFLOW if the raw
 * size it claims exceeds what it holds (*ret->raw_size is then that claim).
 */
int perf_sample_parse(const unsigned char *body, size_t size, struct perf_sample *ret);

/* A PERF_RECORD_LOST body (u64 id, u64 lost, ...): whose and how many, or -EBADMSG if too short. */
int perf_lost_parse(const unsigned char *body, size_t size, uint64_t *ret_id, uint64_t *ret_lost);
