/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Decimal numbers two digits at a time: most of a record's numbers are
 * below 100, and a time is pairs of digits.  The JSON writer, the RFC 3339
 * times and mcectl's text output all write them this way.
 */

#include <stdint.h>
#include <string.h>

/* "00".."99": the pair for v < 100 at dec_pairs() + 2 * v. */
static inline const char *dec_pairs(void)
{
	static const char pairs[200] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";

	return pairs;
}

/* The two digits of v < 100 at o. */
static inline void dec_put2(char *o, unsigned v)
{
	memcpy(o, dec_pairs() + 2 * v, 2);
}

/*
 * How many digits v has: below 10 at once, as many numbers are; else
 * from its bit length, which tells it to within one (log10(2) is about
 * 1233 / 4096), and one comparison.
 */
static inline unsigned dec_u64_len(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
		10000000000000ull, 100000000000000ull, 1000000000000000ull,
		10000000000000000ull, 100000000000000000ull, 1000000000000000000ull,
		10000000000000000000ull,
	};
	unsigned t;

	if (v < 10)
		return 1;
	t = (unsigned) (64 - __builtin_clzll(v)) * 1233 >> 12;
	return t + (v >= pow10[t]);
}

/* v's n = dec_u64_len(v) digits at o; returns o + n. */
static inline char *dec_u64_put(char *o, uint64_t v, unsigned n)
{
	char *e = o + n;

	while (v >= 100) {
		e -= 2;
		dec_put2(e, (unsigned) (v % 100));
		v /= 100;
	}
	if (v >= 10)
		dec_put2(e - 2, (unsigned) v);
	else
		e[-1] = (char) ('0' + v);
	return o + n;
}

/* The last n digits of v at o, with leading zeros: a time's fields. */
static inline char *dec_put_width(char *o, unsigned v, unsigned n)
{
	unsigned i = n;

	for (; i >= 2; i -= 2, v /= 100)
		dec_put2(o + i - 2, v % 100);
	if (i)
		o[0] = (char) ('0' + v % 10);
	return o + n;
}
