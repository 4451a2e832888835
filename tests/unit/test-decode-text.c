/* SPDX-License-Identifier: MIT */
/*
 * mcectl decode's text (mcectl/decode-text.c) keeps what one record leaves
 * known for the next: static strings' lengths by address, the last time's
 * date.  Each record must print as it does with nothing known, whatever
 * came before it.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "decode-text.h"

static uint64_t next(uint64_t *x)
{
	/* xorshift64: the same values every run */
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* r printed with known as it is, and with nothing known: the same text. */
static void check_same(struct decode_text_known *known, unsigned index, const struct mce_record *r)
{
	static struct decode_text_known fresh;
	/* a record's text stays in the buffer: nothing is written (fd -1 would fail) */
	static struct decode_text_out a = { .fd = -1 }, b = { .fd = -1 };
	struct mce_decoded d;

	mce_decode(r, &d);
	memset(&fresh, 0, sizeof(fresh));
	a.known = known;
	b.known = &fresh;
	a.n = b.n = 0;
	decode_print_text(&a, index, r, &d, index, index + 2, NULL);
	decode_print_text(&b, index, r, &d, index, index + 2, NULL);
	assert_int_equal(a.error, 0);
	assert_int_equal(b.error, 0);
	assert_true(a.n > 0);
	assert_int_equal(a.n, b.n);
	assert_memory_equal(a.buf, b.buf, a.n);
}

static struct mce_record record(enum mce_vendor vendor, uint32_t family, uint32_t model, uint32_t bank,
				uint64_t status)
{
	return (struct mce_record) {
		.have = MCE_HAVE_CPU | MCE_HAVE_BANK | MCE_HAVE_STATUS | MCE_HAVE_VENDOR |
			MCE_HAVE_CPUID | MCE_HAVE_ADDR | MCE_HAVE_MISC,
		.vendor = vendor, .family = family, .model = model, .bank = bank, .cpu = bank * 3,
		.status = status, .addr = status >> 7, .misc = 0x86,
	};
}

/* Times in runs of one day and across days, years, the epoch and the ends of four-digit years. */
static void test_times(void **state)
{
	static const int64_t secs[] = {
		1700000000, 1700000000, 1700000001, 1700003599, 1700003600, 1700006399, 1700006400,
		1700086399, 1700086400, -1, -1, 0, 0, 86399, 86400, 86401, -86400, -86401, -3601,
		-30610224001LL, -30610224000LL, -30610223999LL, -30610137600LL,
		253402300799LL, 253402300800LL, 253402214400LL, 253402214399LL, 1700000000,
		-62167219200LL, 4102444800LL, 4102444799LL,
	};
	static struct decode_text_known known;
	struct mce_record r = record(MCE_VENDOR_INTEL, 6, 0x8f, 13, 0x8c000040000800c1ull);

	(void) state;
	r.have |= MCE_HAVE_TIME;
	for (size_t i = 0; i < sizeof(secs) / sizeof(secs[0]); i++) {
		r.time_usec = secs[i] * 1000000;
		check_same(&known, (unsigned) i + 1, &r);
	}
}

/*
 * Many decodes, so many static strings, each seen again after others
 * that may have taken its slot.
 */
static void test_strings(void **state)
{
	static const struct { enum mce_vendor v; uint32_t family, model; } cpus[] = {
		{ MCE_VENDOR_INTEL, 6, 0x8f }, { MCE_VENDOR_INTEL, 6, 0x55 }, { MCE_VENDOR_INTEL, 6, 0x6a },
		{ MCE_VENDOR_AMD, 0x19, 0x01 }, { MCE_VENDOR_AMD, 0x17, 0x31 }, { MCE_VENDOR_INTEL, 6, 0x3f },
	};
	static struct decode_text_known known;
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void) state;
	for (unsigned i = 0; i < 4000; i++) {
		unsigned c = (unsigned) (next(&x) % (sizeof(cpus) / sizeof(cpus[0])));
		uint64_t status = next(&x) | 1ull << 63;
		struct mce_record r;

		/* architectural codes most of the time, where the names are */
		if (i % 3)
			status = (status & ~0xffffull) | (next(&x) % 0x1000);
		r = record(cpus[c].v, cpus[c].family, cpus[c].model, (unsigned) (next(&x) % 32), status);
		check_same(&known, i + 1, &r);
	}
}

/*
 * A few kinds of records in turns, and records that differ from one
 * another only in a value a kept run prints (a corrected count, a
 * channel, a CPU's stepping, a model the decoders do not know): each
 * prints as with nothing kept, whichever runs it finds kept.
 */
static void test_runs(void **state)
{
	static const struct { enum mce_vendor v; uint32_t family, model; uint64_t status; } kinds[] = {
		{ MCE_VENDOR_INTEL, 6, 0x8f, 0x8c000040000800c1ull },   /* patrol scrub, channel 1 */
		{ MCE_VENDOR_INTEL, 6, 0x8f, 0x8c000080000800c3ull },   /* channel 3, another count */
		{ MCE_VENDOR_INTEL, 6, 0x8f, 0xbe00000000800400ull },
		{ MCE_VENDOR_INTEL, 6, 0x55, 0xbe00000000800400ull },
		{ MCE_VENDOR_INTEL, 6, 0x7f, 0x9c00000000010090ull },   /* a model no decoder knows */
		{ MCE_VENDOR_AMD, 0x19, 0x11, 0x9c2040000000011bull },
		{ MCE_VENDOR_AMD, 0x17, 0x31, 0xdc2040000000011bull },
		{ MCE_VENDOR_INTEL, 6, 0x8f, 0xfe00000000000e0bull },
	};
	static struct decode_text_known known;
	uint64_t x = 0x2545f4914f6cdd1dull;

	(void) state;
	for (unsigned i = 0; i < 6000; i++) {
		unsigned c = (unsigned) (next(&x) % (sizeof(kinds) / sizeof(kinds[0])));
		struct mce_record r = record(kinds[c].v, kinds[c].family, kinds[c].model, 13, kinds[c].status);

		/* now and then the same but for its stepping, bank or CPU identity */
		if (i % 7 == 0)
			r.stepping = i % 3;
		if (i % 11 == 0)
			r.bank = 1 + i % 5;
		if (i % 13 == 0)
			r.have &= ~MCE_HAVE_CPUID;
		check_same(&known, i + 1, &r);
	}
}

/* An AMD UMC record with FRU text in MCA_SYND1/2: the Where line names the part, the registers show both. */
static void test_fru_text(void **state)
{
	static struct decode_text_known known;
	static struct decode_text_out out = { .fd = -1 };
	struct mce_record r = record(MCE_VENDOR_AMD, 0x19, 0x11, 17, 0x9c2040000000011bull);
	struct mce_decoded d;

	(void) state;
	r.have |= MCE_HAVE_IPID | MCE_HAVE_SYND | MCE_HAVE_SYND1 | MCE_HAVE_SYND2;
	r.ipid = 0x0000009600150f00ull;
	r.synd = 0x5a020001;
	r.synd1 = 0x4d49445f30555043ull;   /* "CPU0_DIM" */
	r.synd2 = 0x31415f4d;              /* "M_A1" */
	mce_decode(&r, &d);
	out.known = &known;
	out.n = 0;
	decode_print_text(&out, 1, &r, &d, 1, 1, NULL);
	assert_int_equal(out.error, 0);
	out.buf[out.n < sizeof(out.buf) ? out.n : sizeof(out.buf) - 1] = '\0';
	assert_non_null(strstr(out.buf, "(Unified Memory Controller, UMC), channel 1, chip select 1, FRU \"CPU0_DIMM_A1\"\n"));
	assert_non_null(strstr(out.buf, " SYND1 0x4d49445f30555043 SYND2 0x0000000031415f4d "));
	/* the summary (the journal's MESSAGE too) names it */
	assert_non_null(strstr(out.buf, ": corrected: Generic-level cache read error, channel 1, FRU CPU0_DIMM_A1: "
				       "DRAM ECC error\n"));
	check_same(&known, 2, &r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_fru_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
