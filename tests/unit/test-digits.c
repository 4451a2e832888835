/* SPDX-License-Identifier: MIT */
/*
 * The digit writers the record writers share (lib/hex-digits.h,
 * lib/dec-digits.h) against snprintf(), and the text parser's reader of
 * eight hex digits at once (lib/hex-scan.h) against one a byte at a time.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "dec-digits.h"
#include "hex-digits.h"
#include "hex-scan.h"

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

static void check_dec(uint64_t v)
{
	char want[24], got[24];
	int n = snprintf(want, sizeof(want), "%" PRIu64, v);

	assert_int_equal(dec_u64_len(v), n);
	memset(got, '?', sizeof(got));
	assert_ptr_equal(dec_u64_put(got, v, dec_u64_len(v)), got + n);
	assert_memory_equal(got, want, (size_t) n);
	assert_int_equal(got[n], '?');
}

static void test_decimal(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ull, p = 1;

	(void) state;
	for (uint64_t v = 0; v < 100000; v++)
		check_dec(v);
	/* each power of ten and its neighbours, and each power of two's */
	for (unsigned k = 0; k < 20; k++, p *= 10) {
		check_dec(p - 1);
		check_dec(p);
		check_dec(p + 1);
	}
	for (unsigned bit = 0; bit < 64; bit++) {
		check_dec((1ull << bit) - 1);
		check_dec(1ull << bit);
		check_dec((1ull << bit) + 1);
	}
	check_dec(UINT64_MAX);
	for (unsigned i = 0; i < 100000; i++)
		check_dec(next(&x) >> (i % 64));
}

#ifdef HEX_SCAN_WORDS
/* The bytewise reading hex_scan8() stands for: all eight bytes digits, and their value. */
static bool hex8_bytewise(const char *p, uint64_t *ret)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < 8; i++) {
		unsigned char c = (unsigned char) p[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return false;
		v = v << 4 | d;
	}
	*ret = v;
	return true;
}

static void check_scan8(const char *p)
{
	uint64_t want = 0, got = 0;
	bool ok = hex8_bytewise(p, &want);

	assert_int_equal(hex_scan8(p, &got), ok);
	if (ok)
		assert_int_equal(got, want);
}

/*
 * Every byte value in every place of digits of every kind (a byte that
 * carries or borrows in a sum would spoil its neighbours), and random
 * words of digits, near-digits and high bytes.
 */
static void test_hex_scan8(void **state)
{
	static const char near[] = "0123456789abcdefABCDEF/:@G`g \x80\xff\x7f\x00";
	uint64_t x = 0x2545f4914f6cdd1dull;
	char buf[9] = "9aF0b1C2";

	(void) state;
	for (unsigned at = 0; at < 8; at++)
		for (unsigned c = 0; c < 256; c++) {
			memcpy(buf, "9aF0b1C2", 8);
			buf[at] = (char) c;
			check_scan8(buf);
			memcpy(buf, "ffffffff", 8);
			buf[at] = (char) c;
			check_scan8(buf);
		}
	for (unsigned i = 0; i < 200000; i++) {
		uint64_t r = next(&x);

		for (unsigned k = 0; k < 8; k++)
			buf[k] = i % 2 ? (char) (r >> (8 * k)) : near[(r >> (8 * k)) % (sizeof(near) - 1)];
		check_scan8(buf);
	}
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digits16),
		cmocka_unit_test(test_decimal),
#ifdef HEX_SCAN_WORDS
		cmocka_unit_test(test_hex_scan8),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
