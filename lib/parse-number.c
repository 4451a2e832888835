/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

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
		/* not a division per digit: every register of every record comes here */
		if (__builtin_mul_overflow(v, (unsigned) base, &v) || __builtin_add_overflow(v, d, &v))
			return -ERANGE;
	}
	if (v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int parse_size(const char *s, uint64_t max, uint64_t *ret)
{
	static const char units[] = "KMGT";
	size_t n = strspn(s, "0123456789");
	const char *u = s + n, *p;
	unsigned shift = 0;
	uint64_t v;
	int r;

	if (n == 0)
		return -EINVAL;
	if (*u && (p = strchr(units, *u))) {
		shift = 10 * (unsigned) (p - units + 1);
		u++;
		if (*u == 'i')
			u++;
	}
	if (*u == 'B')
		u++;
	if (*u)
		return -EINVAL;
	r = parse_unsigned(s, n, 10, UINT64_MAX >> shift, &v);
	if (r < 0)
		return r;
	v <<= shift;
	if (v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}
