/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * One sub-buffer ("page") of the kernel's ftrace ring buffer, as a read() of
 * tracefs per_cpu/cpuN/trace_pipe_raw returns it.  The layout is the one
 * tracefs describes in events/header_page and events/header_event
 * (kernel/trace/ring_buffer.c; Documentation/trace/ring-buffer-design.rst):
 *
 *   u64 timestamp               of the page's first event
 *   long commit                 bytes of events that follow; on 64-bit kernels
 *                               8 bytes, bit 31 set when events were lost before
 *                               this page, bit 30 when their count is stored
 *                               as a long right after the events
 *   events                      each a u32 header: type_len in bits 0-4,
 *                               time_delta in bits 5-31, then
 *     type_len 1..28              type_len x 4 bytes of data
 *     type_len 0                  u32 length (itself included), then the data
 *     type_len 29 (padding)       u32 length of the space to skip; a delta of 0
 *                                 means the rest of the page is unused
 *     type_len 30 (time extend)   u32 upper bits of the delta (<< 27)
 *     type_len 31 (time stamp)    u32 upper bits of an absolute timestamp
 *
 * Only 64-bit little-endian kernels are read (the daemon runs on x86-64 and
 * arm64).  Pure: the daemon does the read() and hands the bytes here.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FTRACE_PAGE_HEADER 16

struct ftrace_page_info {
	bool missed;            /* the kernel dropped events before this page */
	bool missed_counted;    /* ... and says how many */
	uint64_t n_missed;
};

/* One event's data (common_type first) and its timestamp in the instance's clock. */
typedef int (*ftrace_page_event_t)(const unsigned char *data, size_t size, uint64_t timestamp, void *userdata);

/*
 * Walks one page of size bytes, calling on_event for each data event in
 * order.  A callback's negative return stops the walk and is returned.
 * Returns the number of events, or -EBADMSG when the page is shorter than its
 * header, its commit size exceeds the page, or an event runs past the commit
 * size (the events before it were still handed on).
 */
int ftrace_page_parse(const unsigned char *page, size_t size, struct ftrace_page_info *info,
		      ftrace_page_event_t on_event, void *userdata);
