/* SPDX-License-Identifier: MIT */
#include <errno.h>

#include "parse-number.h"

int parse_unsigned(const char *s, size_t n, int base, uint64_t max, uint64_t *ret)
{
	const char *end = s + n;
	uint64_t v = 0;

	if ((base == 16 || base == 0) && n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
	} else if (base == 0)
		base = 10;
	if (s == end)
		return -EINVAL;
	for (; s < end; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned) (*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned) (*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned) (*s - 'A' + 10);
		else
			return -EINVAL;
		if (v > (UINT64_MAX - d) / (unsigned) base)
			return -ERANGE;
		v = v * (unsigned) base + d;
	}
	if (v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}
