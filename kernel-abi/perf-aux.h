/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The perf AUX area as the PT flight recorder uses it (uapi
 * linux/perf_event.h): PERF_RECORD_AUX and PERF_RECORD_ITRACE_START bodies,
 * the PERF_AUX_FLAG_* bits, where the data of an overwrite-mode AUX buffer
 * lies, and the TSC <-> perf time conversion of struct perf_event_mmap_page
 * (time_zero, time_mult, time_shift; valid when cap_user_time_zero is set).
 * Pure: the mmap and the ioctls are in mcelogd/snapshot/pt.c.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_writer;
struct perf_event_mmap_page;

/* PERF_RECORD_AUX: a span of the AUX area was written (or lost). */
struct perf_aux_record {
	uint64_t aux_offset;
	uint64_t aux_size;
	uint64_t flags;                /* PERF_AUX_FLAG_* */
};

/* The body of a PERF_RECORD_AUX (its sample_id trailer, if any, ignored).
 * Returns 0, or -EBADMSG if it is shorter than the three u64s. */
int perf_aux_parse(const unsigned char *body, size_t size, struct perf_aux_record *ret);

/* PERF_RECORD_ITRACE_START: tracing started for pid/tid. -EBADMSG if short. */
int perf_itrace_start_parse(const unsigned char *body, size_t size, uint32_t *ret_pid, uint32_t *ret_tid);

/* Writes key: ["truncated", "overwrite", ...] for the flags set; unknown
 * bits as "0x..."; the PMU format type (bits 15:8) is not a flag and is left out. */
void perf_aux_flags_json(struct json_writer *w, const char *key, uint64_t flags);

/* Where the bytes of an overwrite (snapshot) mode AUX buffer are, oldest
 * first.  head is aux_head: a running byte count for some PMUs, for intel_pt
 * in snapshot mode the write position inside the buffer, so a head below
 * size cannot tell by itself whether the buffer has wrapped; the caller says
 * so (seen_wrap: e.g. bytes written past the head, in a buffer that started
 * zeroed, as perf's own snapshot code tests).  Fills up to two spans and
 * returns how many (0 if nothing was written). */
struct perf_aux_span {
	uint64_t offset, len;
};
unsigned perf_aux_snapshot_spans(uint64_t head, uint64_t size, bool seen_wrap, struct perf_aux_span ret[2]);

struct perf_time_conv {
	uint64_t time_zero;
	uint32_t time_mult;
	uint16_t time_shift;
	bool valid;                    /* cap_user_time_zero, and time_mult != 0 */
};

/* The conversion as the kernel published it in the ring's first page. */
struct perf_time_conv perf_time_conv_from_page(const struct perf_event_mmap_page *pg);

/* perf time (ns, the clock of PERF_SAMPLE_TIME) of a TSC value, and back.
 * The math splits the multiply so that it does not overflow 64 bits. */
uint64_t perf_tsc_to_time(const struct perf_time_conv *c, uint64_t tsc);
uint64_t perf_time_to_tsc(const struct perf_time_conv *c, uint64_t time);
