/* SPDX-License-Identifier: MIT */
/* The PT snapshot file header; layout in pt-file.h. */
#include <errno.h>
#include <string.h>

#include "pt-file.h"

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = v >> (8 * i);
}

static uint64_t get_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t) p[i] << (8 * i);
	return v;
}

int pt_file_header_encode(const struct pt_file_info *info, uint8_t *buf, size_t cap)
{
	size_t size = PT_FILE_FIXED_BYTES + info->caps_bytes;

	if (info->caps_bytes > PT_FILE_CAPS_MAX)
		return -E2BIG;
	if (cap < size)
		return -ENOBUFS;
	memcpy(buf, PT_FILE_MAGIC, 8);
	put_le(buf + 8, size, 4);
	put_le(buf + 12, PT_FILE_VERSION, 4);
	put_le(buf + 16, info->cpu, 4);
	put_le(buf + 20, info->aux_flags, 4);
	put_le(buf + 24, info->tsc_begin, 8);
	put_le(buf + 32, info->tsc_end, 8);
	put_le(buf + 40, info->error_tsc, 8);
	put_le(buf + 48, info->time_zero, 8);
	put_le(buf + 56, info->time_mult, 4);
	put_le(buf + 60, info->time_shift, 2);
	put_le(buf + 62, info->flags, 2);
	put_le(buf + 64, info->trace_bytes, 8);
	put_le(buf + 72, info->caps_bytes, 4);
	put_le(buf + 76, 0, 4);
	if (info->caps_bytes)
		memcpy(buf + PT_FILE_FIXED_BYTES, info->caps, info->caps_bytes);
	return (int) size;
}

int pt_file_is_snapshot(const uint8_t *buf, size_t len)
{
	return len >= 8 && memcmp(buf, PT_FILE_MAGIC, 8) == 0;
}

int pt_file_parse(const uint8_t *buf, size_t len, struct pt_file_info *ret, size_t *ret_trace_offset,
		  const char **ret_error)
{
	struct pt_file_info info;
	uint64_t header_bytes;

	if (len < PT_FILE_FIXED_BYTES) {
		*ret_error = "file shorter than the 80-byte header";
		return -EBADMSG;
	}
	if (!pt_file_is_snapshot(buf, len)) {
		*ret_error = "bad magic at offset 0";
		return -EBADMSG;
	}
	if (get_le(buf + 12, 4) != PT_FILE_VERSION) {
		*ret_error = "unsupported version at offset 12";
		return -EBADMSG;
	}
	header_bytes = get_le(buf + 8, 4);
	info = (struct pt_file_info) {
		.cpu = get_le(buf + 16, 4),
		.aux_flags = get_le(buf + 20, 4),
		.tsc_begin = get_le(buf + 24, 8),
		.tsc_end = get_le(buf + 32, 8),
		.error_tsc = get_le(buf + 40, 8),
		.time_zero = get_le(buf + 48, 8),
		.time_mult = get_le(buf + 56, 4),
		.time_shift = get_le(buf + 60, 2),
		.flags = get_le(buf + 62, 2),
		.trace_bytes = get_le(buf + 64, 8),
		.caps_bytes = get_le(buf + 72, 4),
	};
	if (info.caps_bytes > PT_FILE_CAPS_MAX) {
		*ret_error = "caps_bytes at offset 72 exceeds 4096";
		return -EBADMSG;
	}
	if (header_bytes != PT_FILE_FIXED_BYTES + info.caps_bytes) {
		*ret_error = "header_bytes at offset 8 is not 80 + caps_bytes";
		return -EBADMSG;
	}
	if (header_bytes > len) {
		*ret_error = "file ends inside the caps (offset 80)";
		return -EBADMSG;
	}
	info.caps = (const char *) buf + PT_FILE_FIXED_BYTES;
	*ret_trace_offset = header_bytes;
	if (info.trace_bytes > len - header_bytes) {
		info.trace_bytes = len - header_bytes;
		*ret = info;
		*ret_error = "file shorter than trace_bytes (offset 64) says: truncated";
		return -EPIPE;
	}
	*ret = info;
	*ret_error = NULL;
	return 0;
}
