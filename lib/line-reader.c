/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "line-reader.h"
#include "macro.h"

/* Bytes per read(2): large reads keep mcectl decode fast on big logs. */
#define READ_BLOCK (1u << 20)

/*
 * Whether the LEN bytes at BUF + AT hold the mark.  *next: where the
 * mark is next found from the line on (HAVE: nowhere in what was read),
 * known when *known; one memchr finds it for every line before it.
 */
static inline bool marked_at(const char *buf, size_t have, size_t at, size_t len, char mark, bool *known,
			     size_t *next)
{
	if (!*known || *next < at) {
		const char *m = memchr(buf + at, mark, have - at);

		*next = m ? (size_t) (m - buf) : have;
		*known = true;
	}
	return *next < at + len;
}

/*
 * The one reader, for both entry points: inlined into each, so that
 * read_lines() neither looks for a mark nor calls through an adapter.
 */
static inline __attribute__((always_inline)) int read_core(int fd, int mark, line_fn fn, marked_line_fn mfn,
							   void *userdata)
{
	_cleanup_free_ char *buf = malloc(READ_BLOCK);
	size_t have = 0, next = 0;
	bool skipping = false;    /* inside the rest of an over-long line */
	bool known = false;       /* next holds for what is in buf */
	int k;

#define LINE(at, n, cut) \
	(mfn ? mfn(buf + (at), (n), (cut), marked_at(buf, have, (at), (n), (char) mark, &known, &next), userdata) \
	     : fn(buf + (at), (n), (cut), userdata))
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
		known = false;
		for (;;) {
			char *nl = memchr(buf + start, '\n', have - start);
			size_t len;

			if (!nl)
				break;
			len = (size_t) (nl - (buf + start));
			if (!skipping) {
				k = LINE(start, len > LINE_READER_MAX ? LINE_READER_MAX : len, len > LINE_READER_MAX);
				if (k < 0)
					return k;
			}
			skipping = false;
			start += len + 1;
		}
		/* Keep the unfinished line; cut it when it can no longer fit. */
		if (have - start > LINE_READER_MAX) {
			if (!skipping) {
				k = LINE(start, LINE_READER_MAX, true);
				if (k < 0)
					return k;
				skipping = true;
			}
			start = have;
		}
		memmove(buf, buf + start, have - start);
		have -= start;
		known = false;
		if (n == 0) {
			if (have > 0 && !skipping) {
				k = LINE(0, have, false);
				if (k < 0)
					return k;
			}
			return 0;
		}
	}
#undef LINE
}

int read_lines(int fd, line_fn fn, void *userdata)
{
	return read_core(fd, -1, fn, NULL, userdata);
}

int read_lines_marked(int fd, char mark, marked_line_fn fn, void *userdata)
{
	return read_core(fd, (unsigned char) mark, NULL, fn, userdata);
}
