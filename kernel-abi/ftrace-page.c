/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include "ftrace-page.h"

#define TYPE_LEN_MAX_DATA 28
#define TYPE_PADDING 29
#define TYPE_TIME_EXTEND 30
#define TYPE_TIME_STAMP 31
#define DELTA_SHIFT 27
#define COMMIT_MISSED (UINT64_C(1) << 31)
#define COMMIT_MISSED_STORED (UINT64_C(1) << 30)
#define COMMIT_SIZE_MASK ((UINT64_C(1) << 30) - 1)

static uint32_t get_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t get_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int ftrace_page_parse(const unsigned char *page, size_t size, struct ftrace_page_info *info,
		      ftrace_page_event_t on_event, void *userdata)
{
	struct ftrace_page_info ignored;
	uint64_t commit, ts;
	size_t pos, end;
	int n = 0, r;

	if (!info)
		info = &ignored;
	*info = (struct ftrace_page_info) {};
	if (size < FTRACE_PAGE_HEADER)
		return -EBADMSG;
	ts = get_u64(page);
	commit = get_u64(page + 8);
	if ((commit & COMMIT_SIZE_MASK) > size - FTRACE_PAGE_HEADER)
		return -EBADMSG;
	end = FTRACE_PAGE_HEADER + (size_t) (commit & COMMIT_SIZE_MASK);
	info->missed = commit & COMMIT_MISSED;
	if (info->missed && (commit & COMMIT_MISSED_STORED) && end + 8 <= size) {
		info->missed_counted = true;
		info->n_missed = get_u64(page + end);
	}

	for (pos = FTRACE_PAGE_HEADER; pos < end;) {
		uint32_t head, type_len, delta;
		size_t data, len;

		if (end - pos < 4)
			return -EBADMSG;
		head = get_u32(page + pos);
		type_len = head & 0x1f;
		delta = head >> 5;
		if (type_len >= 1 && type_len <= TYPE_LEN_MAX_DATA) {
			data = pos + 4;
			len = (size_t) type_len * 4;
		} else {
			/* Every other kind carries a u32 after its header. */
			uint32_t word;

			if (end - pos < 8)
				return -EBADMSG;
			word = get_u32(page + pos + 4);
			if (type_len == TYPE_TIME_EXTEND || type_len == TYPE_TIME_STAMP) {
				uint64_t t = ((uint64_t) word << DELTA_SHIFT) | delta;

				/* An absolute stamp holds the low 59 bits; the page's keeps the rest. */
				ts = type_len == TYPE_TIME_EXTEND ? ts + t : (ts & ~((UINT64_C(1) << 59) - 1)) | t;
				pos += 8;
				continue;
			}
			if (type_len == TYPE_PADDING) {
				if (delta == 0)
					break;   /* the rest of the page is unused */
				/* A discarded event: the kernel's own reader takes no time from it. */
				if (word > end - pos - 4)
					return -EBADMSG;
				pos += 4 + (size_t) word;
				continue;
			}
			/* type_len 0: the length word counts itself. */
			if (word < 4)
				return -EBADMSG;
			data = pos + 8;
			len = ((size_t) word - 4 + 3) & ~(size_t) 3;
		}
		if (len > end - data)
			return -EBADMSG;
		ts += delta;
		n++;
		if (on_event) {
			r = on_event(page + data, len, ts, userdata);
			if (r < 0)
				return r;
		}
		pos = data + len;
	}
	return n;
}
