/* SPDX-License-Identifier: MIT */
/*
 * The text parser's form for a Mac's "MCA Error Report" (lib/text/macos-efi.c)
 * and the passing over of a macOS panic report's own text
 * (text_macos_report_text() in lib/text/macos-mca.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "record-text.h"

#include "text-seen.h"

#define HEAD "CPU Machine Check Architecture Error Dump (CPU: Intel(R) Core(TM) i7-5557U CPU @ 3.10GHz, CPUID: 0x306D4)\n"

/* docker/for-mac#1068's first and third blocks: a record each, the head's CPU in both. */
static void blocks_are_records(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "*** MCA Error Report ***\n"
	      HEAD
	      "Core: 0 \n"
	      "  IA32_MC3_STATUS=0xBE00000000800400\n"
	      "  IA32_MC3_CTL=0x0\n"
	      "  IA32_MC3_ADDR=0xFFFFFFFF8134FFFD\n"
	      "  IA32_MC3_MISC=0xFFFFFFFF8134FFFD\n"
	      "Core: 0 \n"
	      "  IA32_MC5_STATUS=0xEE0000000040110B\n"
	      "  IA32_MC5_CTL=0x0\n"
	      "  IA32_MC5_ADDR=0xFF7075C0\n"
	      "  IA32_MC5_MISC=0x3880000086\n");
	assert_int_equal(s.nd, 0);
	assert_int_equal(s.n, 2);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(s.rec[i].vendor, MCE_VENDOR_INTEL);
		assert_int_equal(s.rec[i].family, 6);
		assert_int_equal(s.rec[i].model, 0x3d);
		assert_int_equal(s.rec[i].stepping, 4);
		/* "Core: N" is not a logical CPU number */
		assert_false(s.rec[i].have & MCE_HAVE_CPU);
		assert_true(s.rec[i].have & MCE_HAVE_ADDR);
		assert_true(s.rec[i].have & MCE_HAVE_MISC);
	}
	assert_int_equal(s.rec[0].bank, 3);
	assert_true(s.rec[0].status == 0xbe00000000800400ull);
	assert_true(s.rec[0].addr == 0xffffffff8134fffdull);
	assert_int_equal(s.first[0], 2);
	assert_int_equal(s.last[0], 7);
	assert_int_equal(s.rec[1].bank, 5);
	assert_true(s.rec[1].status == 0xee0000000040110bull);
	assert_true(s.rec[1].addr == 0xff7075c0);
	assert_true(s.rec[1].misc == 0x3880000086ull);
	assert_int_equal(s.last[1], 12);
}

/* ADDR and MISC are printed for every bank; kept only under ADDRV and MISCV. */
static void addr_misc_only_when_valid(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      HEAD
	      "Core: 1\n"
	      "  IA32_MC0_STATUS=0x9000000000000150\n"
	      "  IA32_MC0_CTL=0xFFFFFFFFFFFFFFFF\n"
	      "  IA32_MC0_ADDR=0x1234\n"
	      "  IA32_MC0_MISC=0x86\n"
	      "  IA32_MC1_STATUS=0x9400000000000150\n"
	      "  IA32_MC1_ADDR=0x5678\n"
	      "  IA32_MC1_MISC=0x86\n");
	assert_int_equal(s.nd, 0);
	assert_int_equal(s.n, 2);
	assert_false(s.rec[0].have & (MCE_HAVE_ADDR | MCE_HAVE_MISC));
	/* a STATUS line without its "Core:" line begins a block of its own */
	assert_int_equal(s.rec[1].bank, 1);
	assert_true(s.rec[1].have & MCE_HAVE_ADDR);
	assert_true(s.rec[1].addr == 0x5678);
	assert_false(s.rec[1].have & MCE_HAVE_MISC);
}

static void malformed_lines(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      HEAD
	      "Core: 0\n"
	      "  IA32_MC3_CTL=0x0\n"
	      "  IA32_MC3_STATUS=0xBE00000000800400\n"
	      "  IA32_MC4_ADDR=0x1\n"
	      "  IA32_MC3_ADDR=0x2\n"
	      "  IA32_MC3_ADDR=0x3\n"
	      "  IA32_MC3_MISC=0xZZ\n"
	      "  IA32_MC3_CTL=7\n"
	      "Core: one\n"
	      "  IA32_MC40_STATUS=0x1\n"
	      "CPU Machine Check Architecture Error Dump (CPU: Intel)\n"
	      "CPU Machine Check Architecture Error Dump (CPU: Intel, CPUID: 0x1306D4F00)\n");
	assert_rejected(&s, 0, 3, "IA32_MC3_CTL: expected IA32_MC3_STATUS before it");
	assert_rejected(&s, 1, 5, "IA32_MC4_ADDR: expected a register of bank 3");
	assert_rejected(&s, 2, 7, "IA32_MC3_ADDR: bank 3's ADDR again");
	assert_rejected(&s, 3, 8, "IA32_MC3_MISC: 'ZZ' is not a hexadecimal number");
	assert_rejected(&s, 4, 9, "IA32_MC3_CTL: expected 0x and hex digits, got '7'");
	assert_rejected(&s, 5, 10, "Core: 'one' is not a decimal number");
	assert_rejected(&s, 6, 11, "IA32_MC40_STATUS: bank 40 out of range");
	assert_rejected(&s, 7, 12, "MCA error dump: expected '(CPU: <name>, CPUID: 0x...)'");
	assert_rejected(&s, 8, 13, "CPUID: value '1306D4F00' out of range");
	assert_int_equal(s.nd, 9);
	/* the good lines of the broken block still make its record */
	assert_int_equal(s.n, 1);
	assert_int_equal(s.rec[0].bank, 3);
	assert_true(s.rec[0].addr == 0x2);
}

/* Outside a dump "Core: 0" is nobody's line: an error as before. */
static void core_only_in_dump(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s, "Core: 0\n");
	assert_int_equal(s.n, 0);
	assert_int_equal(s.nd, 1);
	assert_int_equal(s.dkind[0], MCE_TEXT_UNKNOWN);
}

/*
 * A whole report: its own text is passed over once it shows, a line naming
 * an IA32_MC register is never, and the same text with no report above it
 * is still "not a machine-check record line".
 */
static void report_text_passed_over(void **state)
{
	static const char *const marks[] = {
		"*** Panic Report ***\n",
		"*** MCA Error Report ***\n",
		"Anonymous UUID:       6EC9C959-1935-64E3-89E8-47EFC08F4DDA\n",
		"panic(cpu 0 caller 0xffffff80084b8655): Machine Check at 0xffffff8008462af0\n",
		"{\"timestamp\":\"2023-04-03 13:43:45.00 -0700\",\"bug_type\":\"210\",\"os_version\":\"macOS 12.6.4\"}\n",
		"Machine-check capabilities: 0x0000000000000c09\n",
		HEAD,
	};
	const char *text =
		"Backtrace (CPU 0), Frame : Return Address\n"
		"0xffffff80e8fcba40 : 0xffffff800841d626\n"
		"BSD process name corresponding to current thread: mdworker\n"
		"Kernel version:\n"
		"Darwin Kernel Version 12.4.0: Wed May  1 17:57:12 PDT 2013; root:xnu-2050.24.15~1/RELEASE_X86_64\n"
		"Memory Module: BANK 0/DIMM0, 2 GB, DDR3, 1067 MHz\n"
		"com.apple.driver.AppleHWSensor  1.9.5d0\n";
	char buf[1024];
	struct seen s = { 0 };

	(void) state;
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		memset(&s, 0, sizeof(s));
		snprintf(buf, sizeof(buf), "%s%s IA32_MC7_STATUS (0x41d): 0xbe00000000300152\n", marks[i], text);
		parse(&s, buf);
		/* a dump's head alone also says it has no bank (MCE_TEXT_PARTIAL) */
		if (s.nd < 1 || s.nd > 2 || s.dline[0] != 9 || s.dkind[0] != MCE_TEXT_UNKNOWN ||
		    !strstr(s.dmsg[0], "IA32_MC7_STATUS (0x41d)") ||
		    (s.nd == 2 && s.dkind[1] != MCE_TEXT_PARTIAL))
			fail_msg("after '%.30s': %u diagnostics, the first line %u '%s'", marks[i], s.nd,
				 s.nd ? s.dline[0] : 0, s.nd ? s.dmsg[0] : "");
	}
	memset(&s, 0, sizeof(s));
	parse(&s, text);
	assert_int_equal(s.nd, 7);
	for (unsigned i = 0; i < s.nd; i++)
		assert_int_equal(s.dkind[i], MCE_TEXT_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(blocks_are_records),
		cmocka_unit_test(addr_misc_only_when_valid),
		cmocka_unit_test(malformed_lines),
		cmocka_unit_test(core_only_in_dump),
		cmocka_unit_test(report_text_passed_over),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
