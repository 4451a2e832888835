/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The saved Intel PT snapshot: what the daemon writes under
 * /var/lib/mcelogd/pt/ and `mcectl pt` reads.  A fixed little-endian header,
 * the PT capabilities as text, then the trace bytes as the CPU wrote them
 * (documented in mcectl(1), "PT SNAPSHOT FILES"):
 *
 *   0  magic "MCELOGPT"          48 time_zero (u64)
 *   8  header_bytes (u32)        56 time_mult (u32)
 *  12  version = 1 (u32)         60 time_shift (u16)
 *  16  cpu (u32)                 62 flags (u16): PT_FILE_HAVE_*
 *  20  aux_flags (u32)           64 trace_bytes (u64)
 *  24  tsc_begin (u64)           72 caps_bytes (u32)
 *  32  tsc_end (u64)             76 zero (u32)
 *  40  error_tsc (u64)           80 caps: "name value\n" lines, caps_bytes long
 *  header_bytes = 80 + caps_bytes: the trace, trace_bytes long
 *
 * Pure: encoding into and parsing from memory only.
 */

#include <stddef.h>
#include <stdint.h>

#define PT_FILE_MAGIC "MCELOGPT"
#define PT_FILE_VERSION 1
#define PT_FILE_FIXED_BYTES 80
#define PT_FILE_CAPS_MAX 4096

enum {
	PT_FILE_HAVE_TIME_CONV = 1u << 0,   /* time_zero/mult/shift are valid */
	PT_FILE_HAVE_TSC_RANGE = 1u << 1,   /* tsc_begin/tsc_end are valid */
	PT_FILE_HAVE_ERROR_TSC = 1u << 2,   /* error_tsc is valid */
};

struct pt_file_info {
	uint32_t cpu;
	uint32_t aux_flags;            /* PERF_AUX_FLAG_* of the copied data */
	uint64_t tsc_begin, tsc_end;
	uint64_t error_tsc;
	uint64_t time_zero;
	uint32_t time_mult;
	uint16_t time_shift;
	uint16_t flags;
	uint64_t trace_bytes;
	const char *caps;              /* not NUL-terminated; caps_bytes long */
	uint32_t caps_bytes;
};

/* The header for info into buf (cap bytes).  Returns its size, -ENOBUFS if
 * cap is too small, -E2BIG if the caps exceed PT_FILE_CAPS_MAX. */
int pt_file_header_encode(const struct pt_file_info *info, uint8_t *buf, size_t cap);

/* True if the bytes start with the magic: a snapshot file, not a raw stream. */
int pt_file_is_snapshot(const uint8_t *buf, size_t len);

/*
 * Parses a whole snapshot file.  On success fills *ret (caps point into buf)
 * and *ret_trace_offset.  Errors: -EBADMSG with *ret_error naming the field
 * and its offset (a wrong version, a header size that does not add up);
 * -EPIPE if the file is shorter than its header says (truncated), with the
 * trace that is there still described: *ret and *ret_trace_offset are set and
 * ret->trace_bytes is cut to what the file holds.
 */
int pt_file_parse(const uint8_t *buf, size_t len, struct pt_file_info *ret, size_t *ret_trace_offset,
		  const char **ret_error);
