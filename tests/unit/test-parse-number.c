/* SPDX-License-Identifier: MIT */
/* The shared unsigned-number parser: bases, "0x", bounds, junk. */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "parse-number.h"

static int p(const char *s, int base, uint64_t max, uint64_t *v)
{
	return parse_unsigned(s, strlen(s), base, max, v);
}

static void test_bases(void **state)
{
	uint64_t v;

	(void) state;
	assert_int_equal(p("025", 0, UINT64_MAX, &v), 0);
	assert_int_equal(v, 25);                       /* decimal, not octal */
	assert_int_equal(p("0x19", 0, UINT64_MAX, &v), 0);
	assert_int_equal(v, 0x19);
	assert_int_equal(p("9c2040000000011b", 16, UINT64_MAX, &v), 0);
	assert_int_equal(v, 0x9c2040000000011bull);
	assert_int_equal(p("0XaBc", 16, UINT64_MAX, &v), 0);
	assert_int_equal(v, 0xabc);
	assert_int_equal(p("0", 10, UINT64_MAX, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(p("18446744073709551615", 10, UINT64_MAX, &v), 0);
	assert_int_equal(v, UINT64_MAX);
	/* only the n bytes given are read */
	assert_int_equal(parse_unsigned("12:34", 2, 10, UINT64_MAX, &v), 0);
	assert_int_equal(v, 12);
}

static void test_rejects(void **state)
{
	static const char *const bad[] = { "", "0x", "-1", "+1", " 1", "1 ", "1a", "0x1g", "\t5" };
	uint64_t v = 77;

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(p(bad[i], 0, UINT64_MAX, &v), -EINVAL);
	assert_int_equal(p("ff", 10, UINT64_MAX, &v), -EINVAL);
	assert_int_equal(v, 77);                        /* untouched on failure */
}

static void test_range(void **state)
{
	uint64_t v = 77;

	(void) state;
	assert_int_equal(p("18446744073709551616", 10, UINT64_MAX, &v), -ERANGE);
	assert_int_equal(p("0x10000000000000000", 0, UINT64_MAX, &v), -ERANGE);
	assert_int_equal(p("4294967296", 10, UINT32_MAX, &v), -ERANGE);
	assert_int_equal(p("256", 10, UINT8_MAX, &v), -ERANGE);
	assert_int_equal(v, 77);
	assert_int_equal(p("4294967295", 10, UINT32_MAX, &v), 0);
	assert_int_equal(v, UINT32_MAX);
}

/*
 * Up to 16 hex or 19 decimal digits take a loop without overflow checks,
 * longer numbers the checked one: both sides of that line read alike.
 */
static void test_digit_counts(void **state)
{
	static const struct {
		const char *text;
		int base;
		int r;
		uint64_t v;
	} cases[] = {
		{ "ffffffffffffffff", 16, 0, UINT64_MAX },               /* 16 digits */
		{ "0xffffffffffffffff", 0, 0, UINT64_MAX },
		{ "0ffffffffffffffff", 16, 0, UINT64_MAX },              /* 17, a leading zero */
		{ "00000000000000000001", 16, 0, 1 },
		{ "1ffffffffffffffff", 16, -ERANGE, 0 },
		{ "fffffffffffffffg", 16, -EINVAL, 0 },                  /* junk, short */
		{ "ffffffffffffffffg", 16, -EINVAL, 0 },                 /* a digit is checked before its room */
		{ "fffffffffffffffff", 16, -ERANGE, 0 },
		{ "0000000000000000g", 16, -EINVAL, 0 },
		{ "9999999999999999999", 10, 0, 9999999999999999999ull }, /* 19 digits */
		{ "09999999999999999999", 10, 0, 9999999999999999999ull },
		{ "18446744073709551615", 10, 0, UINT64_MAX },            /* 20 */
		{ "99999999999999999999", 10, -ERANGE, 0 },
		{ "999999999999999999a", 10, -EINVAL, 0 },
		{ "1234567", 8, 0, 01234567 },                            /* other bases: the checked loop */
		{ "18", 8, -EINVAL, 0 },
	};

	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 77;
		int r = p(cases[i].text, cases[i].base, UINT64_MAX, &v);

		if (r != cases[i].r || v != (cases[i].r == 0 ? cases[i].v : 77))
			fail_msg("parse_unsigned(\"%s\", %d): %d, %" PRIu64, cases[i].text, cases[i].base, r, v);
	}
	/* the bound applies to short numbers too */
	uint64_t v;
	assert_int_equal(p("100", 16, 0xff, &v), -ERANGE);
	assert_int_equal(p("256", 10, UINT8_MAX, &v), -ERANGE);
	assert_int_equal(p("ff", 16, 0xff, &v), 0);
	assert_int_equal(v, 0xff);
}

static void test_size(void **state)
{
	static const struct {
		const char *text;
		int r;
		uint64_t v;
	} cases[] = {
		{ "4096", 0, 4096 }, { "64K", 0, 64 << 10 }, { "64M", 0, 64ULL << 20 }, { "64MiB", 0, 64ULL << 20 },
		{ "2G", 0, 2ULL << 30 }, { "1T", 0, 1ULL << 40 }, { "512B", 0, 512 }, { "1KB", 0, 1024 },
		{ "", -EINVAL, 0 }, { "M", -EINVAL, 0 }, { "-1", -EINVAL, 0 }, { "1.5M", -EINVAL, 0 },
		{ "64 M", -EINVAL, 0 }, { "64m", -EINVAL, 0 }, { "64MX", -EINVAL, 0 }, { "0x10", -EINVAL, 0 },
		{ "16777216T", -ERANGE, 0 }, { "99999999999999999999", -ERANGE, 0 },
	};
	uint64_t v;

	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v = 0;
		if (parse_size(cases[i].text, UINT64_MAX, &v) != cases[i].r || (cases[i].r == 0 && v != cases[i].v))
			fail_msg("parse_size(\"%s\"): %" PRIu64, cases[i].text, v);
	}
	assert_int_equal(parse_size("2G", 1ULL << 30, &v), -ERANGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bases),
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_range),
		cmocka_unit_test(test_digit_counts),
		cmocka_unit_test(test_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
