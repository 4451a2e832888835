/* SPDX-License-Identifier: MIT */
/*
 * The word-at-a-time hex helpers (lib/hex-digits.h, lib/hex-scan.h) against
 * the plain ways: snprintf() for writing, a digit at a time for reading.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hex-digits.h"

static uint64_t next(uint64_t *x)
{
	/* xorshift64: the same values every run */
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void check16(uint64_t v)
{
	char want[17], got[17];

	snprintf(want, sizeof(want), "%016" PRIx64, v);
	memset(got, '?', sizeof(got));
	hex_digits16(got, v);
	assert_memory_equal(got, want, 16);
	assert_int_equal(got[16], '?');           /* nothing written past the 16 digits */
}

static void test_digits16(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void) state;
	check16(0);
	check16(UINT64_MAX);
	check16(0x0123456789abcdefull);
	check16(0xfedcba9876543210ull);
	/* every byte value in every position */
	for (unsigned pos = 0; pos < 8; pos++)
		for (uint64_t b = 0; b < 256; b++)
			check16(b << (8 * pos));
	for (unsigned bit = 0; bit < 64; bit++)
		check16(1ull << bit);
	for (unsigned i = 0; i < 100000; i++)
		check16(next(&x) >> (i % 64));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digits16),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
