/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include "state-text.h"

int state_text_lines(const char *text, size_t len, int (*fn)(char *line, void *userdata), void *userdata)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t) (end - p));
		size_t n = nl ? (size_t) (nl - p) : (size_t) (end - p);
		char line[STATE_TEXT_LINE_MAX];
		int r;

		if (n >= sizeof(line))
			return -EINVAL;
		memcpy(line, p, n);
		line[n] = '\0';
		p = nl ? nl + 1 : end;
		if (line[0] == '#' || line[0] == '\0')
			continue;
		r = fn(line, userdata);
		if (r < 0)
			return r;
	}
	return 0;
}
