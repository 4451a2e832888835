/* SPDX-License-Identifier: MIT */
/*
 * The text parser's form for the machine-check dump of a macOS panic log
 * (lib/text/macos-mca.c): records per bank and processor, the head's
 * fields in each, the older releases' lines, and every malformed line
 * named with what was expected.
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

/*
 * A 10.12 dump as panic reports hold it (indented by a blog), with a
 * second processor, a second bank and a bank without ADDR and MISC added
 * to the published one: one record per STATUS line.
 */
static void two_processors_three_banks(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "    Machine-check capabilities: 0x0000000001000c07\n"
	      "     family: 6 model: 61 stepping: 4 microcode: 33\n"
	      "     signature: 0x306d4\n"
	      "     Intel(R) Core(TM) i7-5557U CPU @ 3.10GHz\n"
	      "     7 error-reporting banks\n"
	      "    Processor 0: IA32_MCG_STATUS: 0x0000000000000005\n"
	      "     IA32_MC1_STATUS(0x405): 0xbf80000000000114\n"
	      "     IA32_MC1_ADDR(0x406):   0x0000000333a6d840\n"
	      "     IA32_MC1_MISC(0x407):   0x0000000000000086\n"
	      "     IA32_MC4_STATUS(0x411): 0xb200000000000402\n"
	      "    Processor 3: IA32_MCG_STATUS: 0x0000000000000004\n"
	      "     IA32_MC6_STATUS(0x419): 0x8c00004000010090\n"
	      "     IA32_MC6_ADDR(0x41a):   0x0000000012345000\n");
	assert_int_equal(s.nd, 0);
	assert_int_equal(s.n, 3);
	for (unsigned i = 0; i < 3; i++) {
		assert_true(s.rec[i].mcgcap == 0x1000c07);
		assert_int_equal(s.rec[i].vendor, MCE_VENDOR_INTEL);
		assert_int_equal(s.rec[i].family, 6);
		assert_int_equal(s.rec[i].model, 61);
		assert_int_equal(s.rec[i].stepping, 4);
		assert_int_equal(s.rec[i].microcode, 33);
		assert_true(s.rec[i].have & MCE_HAVE_CPUID);
		assert_int_equal(s.first[i], 1);
	}
	assert_int_equal(s.rec[0].cpu, 0);
	assert_int_equal(s.rec[0].bank, 1);
	assert_true(s.rec[0].status == 0xbf80000000000114ull);
	assert_true(s.rec[0].addr == 0x333a6d840ull);
	assert_true(s.rec[0].misc == 0x86);
	assert_true(s.rec[0].mcgstatus == 5);
	assert_int_equal(s.last[0], 9);
	assert_int_equal(s.rec[1].cpu, 0);
	assert_int_equal(s.rec[1].bank, 4);
	assert_false(s.rec[1].have & (MCE_HAVE_ADDR | MCE_HAVE_MISC));  /* not the bank above's */
	assert_true(s.rec[1].addr == 0 && s.rec[1].misc == 0);
	assert_int_equal(s.last[1], 10);
	assert_int_equal(s.rec[2].cpu, 3);
	assert_true(s.rec[2].mcgstatus == 4);
	assert_int_equal(s.rec[2].bank, 6);
	assert_true(s.rec[2].addr == 0x12345000ull);
	assert_false(s.rec[2].have & MCE_HAVE_MISC);
	assert_int_equal(s.last[2], 13);
}

/*
 * 10.6's dump, constructed from XNU's format strings of that release (no
 * published copy found): "valid"/"invalid" after STATUS, notes spelling
 * out the bits, and processors that logged nothing.  10.5's head names
 * the CPU and gives one IA32_MCG_STATUS.
 */
static void older_releases(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "Machine-check capabilities 0x0000000000000c09:\n"
	      " family: 6 model: 26 stepping: 5 microcode: 17\n"
	      " Intel(R) Xeon(R) CPU           W3520  @ 2.67GHz\n"
	      " 9 error-reporting banks\n"
	      " threshold-based error status present\n"
	      " extended corrected memory error handling present\n"
	      "Processor 0: no machine-check status reported\n"
	      "Processor 1: machine-check status 0x0000000000000005:\n"
	      " restart IP valid\n"
	      " machine-check in progress\n"
	      "MCA error-reporting registers:\n"
	      " IA32_MC0_STATUS(0x401): 0x0000000000000000 invalid\n"
	      " IA32_MC1_STATUS(0x405): 0xb200000000000800 valid\n"
	      "  MCA error code:            0x0800\n"
	      "  Model specific error code: 0x0000\n"
	      "  Other information:         0x00000000\n"
	      "  Threshold-based status:    Undefined\n"
	      "  Status bits:\n"
	      "   Processor context corrupt\n"
	      "   Error enabled\n"
	      "   Uncorrected error\n"
	      " Package 0 logged:\n"
	      " IA32_MC8_STATUS(0x421): 0x8c0000400001009f valid\n"
	      "  Channel number:         15 (unknown)\n"
	      "  Memory Operation:       read\n"
	      "  Machine-specific error: Read ECC \n"
	      "  COR_ERR_CNT:            1\n"
	      "  Status bits:\n"
	      "   ADDR register valid\n"
	      "   MISC register valid\n"
	      "   Error enabled\n"
	      " IA32_MC8_ADDR(0x422): 0x00000001b4c4a000\n"
	      " IA32_MC8_MISC(0x423): 0x0000000000010000\n"
	      "  RTID:     0\n"
	      "  DIMM:     1\n"
	      "  Channel:  0\n"
	      "  Syndrome: 0x0\n"
	      "Processor 2: no valid machine-check state\n"
	      "\n"
	      "Machine-check capabilities (cpu 2) 0x0000000000000806:\n"
	      "family: 6 model: 15 stepping: 6 microcode revision 198\n"
	      "Intel(R) Core(TM)2 CPU         T7400  @ 2.16GHz\n"
	      " 6 error-reporting banks\n"
	      "Machine-check status 0x0000000000000004:\n"
	      " machine-check in progress\n"
	      "MCA error-reporting registers:\n"
	      " IA32_MC5_STATUS(0x415): 0xb200000000000813 valid\n");
	assert_int_equal(s.nd, 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.rec[0].cpu, 1);
	assert_int_equal(s.rec[0].bank, 1);
	assert_true(s.rec[0].mcgstatus == 5);
	assert_int_equal(s.rec[0].model, 26);
	assert_int_equal(s.rec[0].microcode, 17);
	assert_false(s.rec[0].have & (MCE_HAVE_ADDR | MCE_HAVE_MISC));
	assert_int_equal(s.last[0], 21);       /* its notes are its lines */
	assert_int_equal(s.rec[1].cpu, 1);
	assert_int_equal(s.rec[1].bank, 8);
	assert_true(s.rec[1].addr == 0x1b4c4a000ull);
	assert_true(s.rec[1].misc == 0x10000);
	assert_int_equal(s.last[1], 37);
	assert_int_equal(s.rec[2].cpu, 2);
	assert_int_equal(s.rec[2].bank, 5);
	assert_int_equal(s.rec[2].model, 15);
	assert_int_equal(s.rec[2].microcode, 198);
	assert_true(s.rec[2].mcgstatus == 4);
	assert_true(s.rec[2].mcgcap == 0x806);
	assert_int_equal(s.first[2], 40);
}

/* A processor's block pasted without the head: a record, said to lack the CPU identity. */
static void block_without_head(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "Processor 12: IA32_MCG_STATUS: 0x0000000000000004\n"
	      "IA32_MC1_STATUS(0x405): 0xbe00000000400e0f\n"
	      "IA32_MC1_ADDR(0x406): 0x000000e1e7e1e000\n"
	      "\n"
	      "IA32_MC3_STATUS(0x40d): 0x9000000000000150\n");
	assert_int_equal(s.n, 2);
	assert_int_equal(s.rec[0].cpu, 12);
	assert_true(s.rec[0].addr == 0xe1e7e1e000ull);
	assert_false(s.rec[0].have & (MCE_HAVE_CPUID | MCE_HAVE_MCGCAP));
	assert_int_equal(s.rec[1].bank, 3);
	assert_false(s.rec[1].have & MCE_HAVE_CPU);
	assert_int_equal(s.nd, 2);
	assert_int_equal(s.dkind[0], MCE_TEXT_PARTIAL);
	assert_int_equal(s.dkind[1], MCE_TEXT_PARTIAL);
}

/*
 * macOS 12's .ips report: its header line is read as the report's, and the
 * dump begins inside the JSON line after it (Xiashangning/BigSurface#100).
 * Other JSON is not taken.
 */
static void ips_report(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "{\"timestamp\":\"2023-04-03 13:43:45.00 -0700\",\"bug_type\":\"210\",\"os_version\":\"macOS 12.6.4\"}\n"
	      "{\"macOSProcessedStackshotData\":\"bm8=\",\"macOSPanicString\":\"Machine-check capabilities: 0x0000000000000c09\n"
	      " family: 6 model: 142 stepping: 9 microcode: 240\n"
	      " signature: 0x806e9\n"
	      " Intel(R) Core(TM) i7-7660U CPU @ 2.50GHz\n"
	      " 9 error-reporting banks\n"
	      "Processor 0: IA32_MCG_STATUS: 0x0000000000000005\n"
	      " IA32_MC6_STATUS(0x419): 0xfe0000000100110a\n"
	      "\n"
	      "{\"macOSPanicString\":\"panic(cpu 0 caller 0x1): Machine-check capabilities: 0x1\"}\n"
	      "{\"timestamp\":\"2023-04-03 13:43:45.00 -0700\",\"bug_type\":\"288\"}\n");
	assert_int_equal(s.n, 1);
	assert_true(s.rec[0].mcgcap == 0xc09);
	assert_int_equal(s.rec[0].model, 142);
	assert_int_equal(s.rec[0].bank, 6);
	assert_int_equal(s.first[0], 2);
	/* neither the panic string that does not begin with the dump nor another report's header */
	assert_int_equal(s.nd, 2);
	assert_int_equal(s.dline[0], 10);
	assert_int_equal(s.dline[1], 11);
}

/* The AMD brand of a patched kernel's dump names the vendor. */
static void brand_names_vendor(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "Machine-check capabilities: 0x0000000000000117\n"
	      " family: 23 model: 113 stepping: 0 microcode: 0\n"
	      " signature: 0x870f10\n"
	      " AMD Ryzen 7 3700X 8-Core Processor\n"
	      " 23 error-reporting banks\n"
	      "Processor 5: IA32_MCG_STATUS: 0x0000000000000005\n"
	      " IA32_MC5_STATUS(0x415): 0xbea0000000000108\n");
	assert_int_equal(s.nd, 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.rec[0].vendor, MCE_VENDOR_AMD);
	assert_int_equal(s.rec[0].family, 0x17);
	assert_int_equal(s.rec[0].model, 0x71);
}

/* Lines of the form that do not add up: each named with what was expected, none a record. */
static void malformed_lines(void **state)
{
	static const char head[] =
		"Machine-check capabilities: 0x0000000000001c09\n"
		"family: 6 model: 44 stepping: 2 microcode: 31\n"
		"signature: 0x206c2\n"
		"Intel(R) Xeon(R) CPU X5690 @ 3.47GHz\n"
		"9 error-reporting banks\n"
		"Processor 12: IA32_MCG_STATUS: 0x0000000000000004\n";
	static const struct {
		const char *line;
		const char *want;
	} bad[] = {
		{ "IA32_MC1_STATUS(0x405): 0xzz", "IA32_MC1_STATUS: 'zz' is not a hexadecimal number" },
		{ "IA32_MC1_STATUS(0x405): be00000000400e0f", "IA32_MC1_STATUS: expected 0x and hex digits" },
		{ "IA32_MC9_STATUS(0x425): 0xbe00000000400e0f",
		  "IA32_MC9_STATUS: bank 9 out of range: IA32_MCG_CAP counts 9 banks" },
		{ "IA32_MC1_STATUS(0x409): 0xbe00000000400e0f",
		  "IA32_MC1_STATUS: MSR 0x409 is not bank 1's STATUS (0x405)" },
		{ "IA32_MC1_STATUS(0x405) 0xbe00000000400e0f", "IA32_MC1_STATUS: expected '(0xMSR):'" },
		{ "IA32_MC1_STATUS(0x405): 0xbe00000000400e0f junk",
		  "IA32_MC1_STATUS: expected 'valid' or 'invalid'" },
		{ "IA32_MC1_STATUS(0x405): 0x3e00000000400e0f valid",
		  "IA32_MC1_STATUS: says 'valid' but VAL (bit 63) is clear" },
		{ "IA32_MC2_ADDR(0x40a): 0x000000e1e7e1e000",
		  "IA32_MC2_ADDR: expected IA32_MC2_STATUS before it" },
		{ "Processor x: IA32_MCG_STATUS: 0x4", "Processor: 'x' is not a decimal number" },
		{ "Processor 3: IA32_MCG_STATUS 0x4", "Processor 3: expected 'IA32_MCG_STATUS: 0x...'" },
		{ "Machine-check capabilities: 1c09", "IA32_MCG_CAP: expected 0x and hex digits" },
	};

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct seen s = { 0 };
		char text[1024];

		snprintf(text, sizeof(text), "%s%s\n", head, bad[i].line);
		parse(&s, text);
		assert_int_equal(s.n, 0);            /* the head alone is no record: said */
		assert_int_equal(s.nd, 2);
		assert_rejected(&s, 0, 7, bad[i].want);
		assert_int_equal(s.dkind[1], MCE_TEXT_PARTIAL);
	}
}

/* Within a dump: the head's lines that do not agree, and registers of the wrong bank. */
static void malformed_in_dump(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "Machine-check capabilities: 0x0000000000001c09\n"
	      "family: 6 model: 44 stepping: x microcode: 31\n"                 /* 2 */
	      "family: 6 model: 44 stepping: 2\n"                               /* 3 */
	      "family: 6 model: 44 stepping: 2 microcode: 31\n"
	      "signature: 0x306d4\n"                                            /* 5 */
	      "8 error-reporting banks\n"                                       /* 6 */
	      "Processor 12: IA32_MCG_STATUS: 0x0000000000000004\n"
	      "IA32_MC1_STATUS(0x405): 0xbe00000000400e0f\n"
	      "IA32_MC2_ADDR(0x40a): 0x000000e1e7e1e000\n"                      /* 9 */
	      "IA32_MC1_ADDR(0x406): 0x000000e1e7e1e000\n"
	      "IA32_MC1_ADDR(0x406): 0x000000e1e7e1e000\n"                      /* 11 */
	      "IA32_MC1_MISC(0x406): 0x0000000001000000\n"                      /* 12 */
	      "Processor 12: no such thing\n");                                 /* 13 */
	assert_int_equal(s.n, 1);
	assert_true(s.rec[0].addr == 0xe1e7e1e000ull);
	assert_false(s.rec[0].have & MCE_HAVE_MISC);
	assert_int_equal(s.nd, 8);
	assert_rejected(&s, 0, 2, "stepping: 'x' is not a decimal number");
	assert_rejected(&s, 1, 3, "family line: expected 'microcode:'");
	assert_rejected(&s, 2, 5, "signature: 0x306d4 is family 6 model 61 stepping 4, but the family "
			"line says 6, 44, 2");
	assert_rejected(&s, 3, 6, "8 error-reporting banks, but IA32_MCG_CAP 0x1c09 counts 9");
	assert_rejected(&s, 4, 9, "IA32_MC2_ADDR: expected a register of bank 1");
	assert_rejected(&s, 5, 11, "IA32_MC1_ADDR: bank 1's ADDR again");
	assert_rejected(&s, 6, 12, "IA32_MC1_MISC: MSR 0x406 is not bank 1's MISC (0x407)");
	assert_rejected(&s, 7, 13, "Processor 12: expected IA32_MCG_STATUS");
}

/* The head's free-text lines are the dump's only inside it: alone they are nobody's. */
static void free_text_only_in_dump(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "Intel(R) Xeon(R) CPU X5690 @ 3.47GHz\n"
	      "family: 6 model: 44 stepping: 2 microcode: 31\n"
	      "Machine-check capabilities: 0x0000000000001c09\n"
	      "family: 6 model: 44 stepping: 2 microcode: 31\n"
	      "signature: 0x206c2\n"
	      "Intel(R) Xeon(R) CPU X5690 @ 3.47GHz\n"
	      "Intel(R) Xeon(R) CPU X5690 @ 3.47GHz\n");   /* a second brand is none */
	assert_int_equal(s.n, 0);
	/* the second brand is no line of the dump, but under a dump it is the
	 * panic report's text (test-macos-efi), passed over */
	assert_int_equal(s.nd, 3);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(s.dkind[i], MCE_TEXT_UNKNOWN);
		assert_int_equal(s.dline[i], i + 1);
	}
	assert_int_equal(s.dkind[2], MCE_TEXT_PARTIAL);   /* the head without a bank */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_processors_three_banks),
		cmocka_unit_test(older_releases),
		cmocka_unit_test(block_without_head),
		cmocka_unit_test(brand_names_vendor),
		cmocka_unit_test(ips_report),
		cmocka_unit_test(malformed_lines),
		cmocka_unit_test(malformed_in_dump),
		cmocka_unit_test(free_text_only_in_dump),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
