/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "line-reader.h"
#include "macro.h"

/* Bytes per read(2): large reads keep mcectl decode fast on big logs. */
#define READ_BLOCK (1u << 20)

int read_lines(int fd, line_fn fn, void *userdata)
{
	_cleanup_free_ char *buf = malloc(READ_BLOCK);
	size_t have = 0;
	bool skipping = false;    /* inside the rest of an over-long line */
	int k;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n = read(fd, buf + have, READ_BLOCK - have);
		size_t start = 0;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return negative_errno();
		}
		have += (size_t) n;
		for (;;) {
			char *nl = memchr(buf + start, '\n', have - start);
			size_t len;

			if (!nl)
				break;
			len = (size_t) (nl - (buf + start));
			if (!skipping) {
				k = fn(buf + start, len > LINE_READER_MAX ? LINE_READER_MAX : len,
				       len > LINE_READER_MAX, userdata);
				if (k < 0)
					return k;
			}
			skipping = false;
			start += len + 1;
		}
		/* Keep the unfinished line; cut it when it can no longer fit. */
		if (have - start > LINE_READER_MAX) {
			if (!skipping) {
				k = fn(buf + start, LINE_READER_MAX, true, userdata);
				if (k < 0)
					return k;
				skipping = true;
			}
			start = have;
		}
		memmove(buf, buf + start, have - start);
		have -= start;
		if (n == 0) {
			if (have > 0 && !skipping) {
				k = fn(buf, have, false, userdata);
				if (k < 0)
					return k;
			}
			return 0;
		}
	}
}
