/* SPDX-License-Identifier: MIT */
/* The span helpers too large to inline: searching a line and showing a piece of it. */
#include "span.h"

const bool span_space_byte[256] = {
	[' '] = true, ['\t'] = true, ['\n'] = true, ['\v'] = true, ['\f'] = true, ['\r'] = true,
};

const char *span_find_n(struct span s, const char *lit, size_t n)
{
	if (n == 0)
		return s.p;
	while (span_len(s) >= n) {
		const char *c = memchr(s.p, lit[0], span_len(s) - n + 1);

		if (!c)
			return NULL;
		if (memcmp(c, lit, n) == 0)
			return c;
		s.p = c + 1;
	}
	return NULL;
}

const char *span_show(struct span s, char *buf, size_t size)
{
	size_t n = 0;

	for (const char *c = s.p; c < s.end && n + 4 < size; c++)
		buf[n++] = ((unsigned char) *c < 0x20 || (unsigned char) *c >= 0x7f) ? '?' : *c;
	if (span_len(s) > n && n + 4 <= size) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}
