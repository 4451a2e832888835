/* SPDX-License-Identifier: MIT */
/* PLACEHOLDER until the full systemd.time(7) grammar lands: "@epoch" and bare spans. */
#include <errno.h>
#include <stdlib.h>

#include "timespec.h"

int parse_time_span(const char *s, int64_t *ret_usec)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	int64_t mult;

	switch (*end) {
	case 's': mult = 1000000; break;
	case 'm': mult = 60 * 1000000LL; break;
	case 'h': mult = 3600 * 1000000LL; break;
	case 'd': mult = 86400 * 1000000LL; break;
	default: return -EINVAL;
	}
	if (end[1] || v < 0)
		return -EINVAL;
	*ret_usec = v * mult;
	return 0;
}

int parse_time_spec(const char *s, int64_t now_usec, int64_t *ret_usec)
{
	int64_t span;

	if (s[0] == '@') {
		char *end;
		long long v = strtoll(s + 1, &end, 10);

		if (*end || end == s + 1)
			return -EINVAL;
		*ret_usec = v * 1000000LL;
		return 0;
	}
	if (parse_time_span(s, &span) < 0)
		return -EINVAL;
	*ret_usec = now_usec - span;
	return 0;
}
