/* SPDX-License-Identifier: MIT */
/*
 * The text parser's form for FreeBSD's machine-check lines
 * (lib/text/freebsd-mca.c): FreeBSD 8 and later, FreeBSD 7's shorter form,
 * the prefixes they come with, and the lines out of place.
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

/* pcengines/apu2-documentation#251, as the console printed it */
#define APU2                                                              \
	"MCA: Bank 1, Status 0x9400000000000151\n"                        \
	"MCA: Global Cap 0x0000000000000106, Status 0x0000000000000000\n" \
	"MCA: Vendor \"AuthenticAMD\", ID 0x730f01, APIC ID 0\n"          \
	"MCA: CPU 0 COR ICACHE L1 IRD error\n"                            \
	"MCA: Address 0x282060\n"

static void apu2_record(void **state)
{
	struct seen s = { 0 };
	const struct mce_record *r = &s.rec[0];

	(void) state;
	parse(&s, APU2);
	assert_int_equal(s.nd, 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(r->bank, 1);
	assert_true(r->status == 0x9400000000000151ull);
	assert_true(r->mcgcap == 0x106);
	assert_true(r->have & MCE_HAVE_MCGSTATUS);
	assert_true(r->mcgstatus == 0);
	assert_int_equal(r->vendor, MCE_VENDOR_AMD);
	/* ID 0x730f01 is CPUID(1).EAX: family 0Fh + 07h, model 30h, stepping 1 */
	assert_int_equal(r->family, 0x16);
	assert_int_equal(r->model, 0x30);
	assert_int_equal(r->stepping, 1);
	assert_true(r->have & MCE_HAVE_APICID);
	assert_int_equal(r->apicid, 0);
	assert_true(r->have & MCE_HAVE_CPU);
	assert_int_equal(r->cpu, 0);
	assert_true(r->addr == 0x282060);
	assert_false(r->have & MCE_HAVE_MISC);
	assert_int_equal(s.first[0], 1);
	assert_int_equal(s.last[0], 5);
}

/* A record ends at the last line its STATUS announces: the next line is not its. */
static void record_ends_at_its_last_line(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "MCA: Bank 1, Status 0x8000002000000135\n"
	      "MCA: Global Cap 0x0000000000180204, Status 0x0000000000000000\n"
	      "MCA: Vendor \"GenuineIntel\", ID 0xf49, APIC ID 6\n"
	      "MCA: CPU 3 COR DCACHE L1 DRD error\n"
	      "MCA: Address 0x1015b00\n"
	      "MCA: Bank 0, Status 0xcc00000120040189\n"
	      "MCA: Global Cap 0x0000000000180204, Status 0x0000000000000000\n"
	      "MCA: Vendor \"GenuineIntel\", ID 0xf49, APIC ID 6\n"
	      "MCA: CPU 3 COR OVER GCACHE L1 SNOOP error\n"
	      "MCA: Address 0x1015b00\n"
	      "MCA: Misc 0x140002d800aa0\n");
	assert_int_equal(s.n, 2);
	assert_int_equal(s.last[0], 4);
	assert_false(s.rec[0].have & MCE_HAVE_ADDR);
	assert_int_equal(s.rec[0].cpu, 3);
	assert_int_equal(s.rec[0].apicid, 6);
	/* no ADDRV in 8000002000000135: the Address line is no part of it */
	assert_int_equal(s.nd, 1);
	assert_rejected(&s, 0, 5, "MCA: Address: expected an 'MCA: Bank' line before it");
	assert_int_equal(s.first[1], 6);
	assert_int_equal(s.last[1], 11);
	assert_true(s.rec[1].addr == 0x1015b00);
	assert_true(s.rec[1].misc == 0x140002d800aa0ull);
}

/* FreeBSD 7: no Global Cap or Vendor line, and "CPU N" is the APIC ID. */
static void freebsd7_form(void **state)
{
	struct seen s = { 0 };
	const struct mce_record *r = &s.rec[0];

	(void) state;
	parse(&s,
	      "MCA: bank 4, status 0x940c4001fe080813\n"
	      "MCA: CPU 2 COR BUSLG Source RD Memory\n"
	      "MCA: Address 0x7ff6b0\n");
	/* nothing names the CPU model: the parser says so, and the line is good */
	assert_int_equal(s.nd, 1);
	assert_int_not_equal(s.dkind[0], MCE_TEXT_MALFORMED);
	assert_non_null(strstr(s.dmsg[0], "no CPU identity"));
	assert_int_equal(s.n, 1);
	assert_int_equal(r->bank, 4);
	assert_true(r->have & MCE_HAVE_APICID);
	assert_int_equal(r->apicid, 2);
	assert_false(r->have & (MCE_HAVE_CPU | MCE_HAVE_MCGCAP | MCE_HAVE_CPUID | MCE_HAVE_VENDOR));
	assert_true(r->addr == 0x7ff6b0);
	assert_int_equal(s.last[0], 3);
}

/* syslog's prefix (its date with a year: a time) and "kernel:", and periodic(8)'s security mail's '+'. */
static void prefixes(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "2024-03-01T12:00:00+00:00 host kernel: MCA: Bank 4, Status 0x940c4001fe080813\n"
	      "2024-03-01T12:00:00+00:00 host kernel: MCA: Global Cap 0x0000000000000105, Status 0x0000000000000000\n"
	      "2024-03-01T12:00:00+00:00 host kernel: MCA: Vendor \"AuthenticAMD\", ID 0xf5a, APIC ID 0\n"
	      "2024-03-01T12:00:00+00:00 host kernel: MCA: CPU 0 COR BUSLG Source RD Memory\n"
	      "2024-03-01T12:00:00+00:00 host kernel: MCA: Address 0x7ff6b0\n"
	      "+MCA: Bank 1, Status 0x8000002000000135\n"
	      "+MCA: Global Cap 0x0000000000180204, Status 0x0000000000000000\n"
	      "+MCA: Vendor \"GenuineIntel\", ID 0xf49, APIC ID 0\n"
	      "+MCA: CPU 0 COR DCACHE L1 DRD error\n");
	assert_int_equal(s.nd, 0);
	assert_int_equal(s.n, 2);
	assert_true(s.rec[0].have & MCE_HAVE_TIME);
	assert_int_equal(s.rec[0].family, 0xf);
	assert_int_equal(s.rec[0].model, 5);
	assert_int_equal(s.rec[1].vendor, MCE_VENDOR_INTEL);
	assert_int_equal(s.last[1], 9);
}

/* A Global Cap line a mailer wrapped after its comma: its rest on the next line only. */
static void global_cap_wrapped(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "> MCA: Bank 4, Status 0x940c4001fe080813\n"
	      "> MCA: Global Cap 0x0000000000000105,\n"
	      "> Status 0x0000000000000007\n"
	      "> MCA: Vendor \"AuthenticAMD\", ID 0x40fb2, APIC ID 0\n"
	      "> MCA: CPU 0 COR BUSLG Source RD Memory\n"
	      "> MCA: Address 0x7ff6b0\n"
	      "MCA: Bank 4, Status 0x940c4001fe080813\n"
	      "MCA: Global Cap 0x0000000000000105,\n"
	      "MCA: Vendor \"AuthenticAMD\", ID 0x40fb2, APIC ID 0\n"
	      "Status 0x0000000000000007\n"
	      "MCA: Bank 4, Status 0x940c4001fe080813\n"
	      "MCA: Global Cap 0x105, Status 0x7,\n");
	assert_int_equal(s.n, 3);
	assert_true(s.rec[0].mcgcap == 0x105);
	assert_true(s.rec[0].mcgstatus == 7);
	assert_int_equal(s.rec[0].model, 0x4b);
	assert_int_equal(s.last[0], 6);
	/* the rest must come next: a line between, and the record waits for it in vain */
	assert_true(s.rec[1].have & MCE_HAVE_MCGCAP);
	assert_false(s.rec[1].have & (MCE_HAVE_MCGSTATUS | MCE_HAVE_VENDOR));
	assert_rejected(&s, 0, 9, "MCA: Vendor: expected after 'MCA: Global Cap', not after 'MCA: Global Cap (cut");
	assert_int_equal(s.dline[1], 10);
	assert_int_not_equal(s.dkind[1], MCE_TEXT_MALFORMED);
	/* then the record without a CPU identity ends at the next Bank line */
	assert_non_null(strstr(s.dmsg[2], "no CPU identity"));
	/* a whole line with a comma at its end is no cut one */
	assert_rejected(&s, 3, 12, "MCG_CAP: '105, Status 0x7' is not a hexadecimal number");
}

/* A vendor string we do not know is no error: the record has no vendor, its CPUID stays. */
static void unknown_vendor(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "MCA: Bank 1, Status 0x8000002000000135\n"
	      "MCA: Global Cap 0x0000000000000106, Status 0x0000000000000000\n"
	      "MCA: Vendor \"Unknown CPU\", ID 0x6f2, APIC ID 1\n"
	      "MCA: CPU 1 COR DCACHE L1 DRD error\n");
	assert_int_equal(s.nd, 0);
	assert_int_equal(s.n, 1);
	assert_false(s.rec[0].have & MCE_HAVE_VENDOR);
	assert_true(s.rec[0].have & MCE_HAVE_CPUID);
	assert_int_equal(s.rec[0].model, 0xf);
}

/* Each malformed line named with what was expected; the record keeps only good lines. */
static void malformed_lines(void **state)
{
	struct seen s = { 0 };
	const struct mce_record *r = &s.rec[0];

	(void) state;
	parse(&s,
	      "MCA: Bank 1, Status 0x9400000000000151\n"                          /* 1 */
	      "MCA: Global Cap 0x0000000000000106\n"                              /* 2 */
	      "MCA: Global Cap 0x0000000000000106, Status 0x0000000000000000\n"   /* 3 */
	      "MCA: Vendor AuthenticAMD, ID 0x730f01, APIC ID 0\n"                /* 4 */
	      "MCA: CPU 0 COR ICACHE L1 IRD error\n"                              /* 5 */
	      "MCA: Vendor \"AuthenticAMD\", ID 0x730f01, APIC ID x0\n"           /* 6 */
	      "MCA: Vendor \"AuthenticAMD\", ID 0x730f01, APIC ID 0 extra\n"      /* 7 */
	      "MCA: Vendor \"AuthenticAMD\", ID 0x730f01, APIC ID 0\n"            /* 8 */
	      "MCA: Misc 0x1234\n"                                                /* 9 */
	      "MCA: Address 0x282060\n"                                           /* 10 */
	      "MCA: CPU zero COR ICACHE L1 IRD error\n"                           /* 11 */
	      "MCA: CPU 0 COR ICACHE L1 IRD error\n"                              /* 12 */
	      "MCA: Address 282060\n"                                             /* 13 */
	      "MCA: Address 0x282060\n"                                           /* 14 */
	      "MCA: Bank 1; Status 0x9400000000000151\n");                        /* 15 */
	assert_int_equal(s.n, 1);
	assert_int_equal(s.first[0], 1);
	assert_int_equal(s.last[0], 14);
	assert_int_equal(r->vendor, MCE_VENDOR_AMD);
	assert_int_equal(r->apicid, 0);
	assert_true(r->addr == 0x282060);
	assert_int_equal(s.nd, 10);
	assert_rejected(&s, 0, 2, "MCA: Global Cap: expected ', Status 0x...'");
	assert_rejected(&s, 1, 4, "MCA: Vendor: expected a quoted CPUID vendor string, got 'AuthenticAMD");
	assert_rejected(&s, 2, 5, "MCA: CPU: expected after 'MCA: Vendor', not after 'MCA: Global Cap'");
	assert_rejected(&s, 3, 6, "APIC ID: 'x0' is not a decimal number");
	assert_rejected(&s, 4, 7, "APIC ID: '0 extra' is not a decimal number");
	assert_rejected(&s, 5, 9, "MCA: Misc: STATUS 0x9400000000000151 has no MISCV");
	assert_rejected(&s, 6, 10, "MCA: Address: expected after 'MCA: CPU', not after 'MCA: Vendor'");
	assert_rejected(&s, 7, 11, "CPU: 'zero' is not a decimal number");
	assert_rejected(&s, 8, 13, "Address: expected 0x and hex digits, got '282060'");
	assert_rejected(&s, 9, 15, "bank: '1; Status 0x9400000000000151' is not a decimal number");
}

/* Lines that only begin like ours are somebody else's. */
static void not_ours(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "MCA: Unable to allocate space for an event.\n"
	      "MCA:Bank 1, Status 0x9400000000000151\n"
	      "+MCA: Banks 1\n");
	assert_int_equal(s.n, 0);
	for (unsigned i = 0; i < s.nd; i++)
		assert_int_not_equal(s.dkind[i], MCE_TEXT_MALFORMED);
}

/*
 * The console's login prompt run into the front of a line (constructed:
 * the APU2 record with "login: " before its first line, as getty leaves
 * the prompt waiting where the kernel then prints).
 */
static void console_run_in(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s, "login: " APU2 "\napu2 login: " APU2 "\nPassword:" APU2);
	assert_int_equal(s.nd, 0);
	assert_int_equal(s.n, 3);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(s.rec[i].bank, 1);
		assert_true(s.rec[i].status == 0x9400000000000151ull);
		assert_true(s.rec[i].addr == 0x282060);
		assert_int_equal(s.first[i], 1 + 6 * i);
		assert_int_equal(s.last[i], 5 + 6 * i);
	}
	/* a run-in line read in part is named as any other */
	memset(&s, 0, sizeof(s));
	parse(&s, "login: MCA: Bank 1, Status 0x94000000000zz151\n");
	assert_int_equal(s.n, 0);
	assert_rejected(&s, 0, 1, "STATUS: '94000000000zz151' is not a hexadecimal number");
}

/* Only a prompt of one or two words runs in, and only before the exact wording. */
static void run_in_kept_tight(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "the apu2 login: MCA: Bank 1, Status 0x9400000000000151\n"   /* three words */
	      "apu2  login: MCA: Bank 1, Status 0x9400000000000151\n"      /* not one prompt */
	      "12:00 MCA: Bank 1, Status 0x9400000000000151\n"             /* no word */
	      "login: MCA:Bank 1, Status 0x9400000000000151\n"
	      "login: MCA: Banks 1\n"
	      "login: MCA: Unable to allocate space for an event.\n"
	      "login: mca: Bank 1, Status 0x9400000000000151\n"
	      "a prompt far longer than any that getty prints: MCA: Bank 1, Status 0x9400000000000151\n");
	assert_int_equal(s.n, 0);
	assert_int_equal(s.nd, 8);
	for (unsigned i = 0; i < s.nd; i++)
		assert_int_equal(s.dkind[i], MCE_TEXT_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(apu2_record),
		cmocka_unit_test(record_ends_at_its_last_line),
		cmocka_unit_test(freebsd7_form),
		cmocka_unit_test(prefixes),
		cmocka_unit_test(global_cap_wrapped),
		cmocka_unit_test(unknown_vendor),
		cmocka_unit_test(malformed_lines),
		cmocka_unit_test(not_ours),
		cmocka_unit_test(console_run_in),
		cmocka_unit_test(run_in_kept_tight),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
