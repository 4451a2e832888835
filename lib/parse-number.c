/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "parse-number.h"

const uint8_t parse_digit_value_1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* The digit's value, or a number >= 16 (UINT_MAX) if it is none. */
static unsigned digit(char c)
{
	return parse_digit_value_1[(unsigned char) c] - 1u;
}

/* Digits that cannot overflow 64 bits: 16 hex, 19 decimal.  No checks but the digits'. */
static inline bool short_number(const char *s, const char *end, unsigned base, uint64_t *ret)
{
	uint64_t v = 0;

	for (; s < end; s++) {
		unsigned d = digit(*s);

		if (d >= base)
			return false;
		v = v * base + d;
	}
	*ret = v;
	return true;
}

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
	/*
	 * Every register of every record read comes here, and all of a
	 * record's numbers are short enough for the loop without overflow
	 * checks; the rest take the checked one below.
	 */
	if ((base == 16 && end - s <= 16) || (base == 10 && end - s <= 19)) {
		/* a constant base each: shifts for hex */
		if (!(base == 16 ? short_number(s, end, 16, &v) : short_number(s, end, 10, &v)))
			return -EINVAL;
		s = end;
	}
	/* a table, shifts for hex */
	for (; s < end; s++) {
		unsigned d = digit(*s);

		if (d >= (unsigned) base)
			return -EINVAL;
		if (base == 16) {
			if (v >> 60)
				return -ERANGE;
			v = v << 4 | d;
		} else if (__builtin_mul_overflow(v, (unsigned) base, &v) || __builtin_add_overflow(v, d, &v))
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
