/* SPDX-License-Identifier: MIT */
/*
 * The text record parser: every form, framing, prefixes and diagnostics.
 * Samples are shaped after what the kernel, the AMD EDAC decoder, mcelog
 * and rasdaemon print (see tests/data/decode/ for whole files).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>

#include "record-text.h"
#include "text/forms.h"
#include "text/scanner.h"
#include "text/span.h"

#include "decode.h"
#include "text-seen.h"

/* One of the sample files of tests/data/decode (its name relative to there). */
static FILE *open_sample(const char *name)
{
	const char *srcdir = getenv("srcdir");
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/data/decode/%s", srcdir ? srcdir : ".", name);
	f = fopen(path, "r");
	assert_non_null(f);
	return f;
}

static void kernel_console(void **state)
{
	struct seen s = { 0 };
	const struct mce_record *r = &s.rec[0];

	(void) state;
	parse(&s,
	      "[    0.612345] mce: CPU0: Thermal monitoring enabled (TM1)\n"
	      "[ 5123.456789] mce: [Hardware Error]: CPU 3: Machine Check: 0 Bank 5: bea0000000000108\n"
	      "[ 5123.456801] mce: [Hardware Error]: RIP 10:<ffffffff81a3c1f6> {native_safe_halt+0x6/0x10}\n"
	      "[ 5123.456812] mce: [Hardware Error]: TSC 1c8e0af8d4 ADDR 3fff88000 MISC 2140040486 "
	      "SYND 4d000000 IPID 1002e00000000 PPIN 2b5a3f0c9d1e\n"
	      "[ 5123.456820] mce: [Hardware Error]: PROCESSOR 2:a20f10 TIME 1700000000 SOCKET 0 "
	      "APIC 6 microcode a201016\n"
	      "[ 5123.456830] mce: [Hardware Error]: Run the above through 'mcelog --ascii'\n"
	      "[ 5123.456840] mce: [Hardware Error]: Machine check: Processor context corrupt\n"
	      "[ 5123.456850] Kernel panic - not syncing: Fatal machine check\n");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.nd, 0);          /* noise lines are silent */
	assert_int_equal(s.first[0], 2);
	assert_int_equal(s.last[0], 5);
	assert_int_equal(r->cpu, 3);
	assert_int_equal(r->bank, 5);
	assert_true(mce_record_has(r, MCE_HAVE_STATUS | MCE_HAVE_MCGSTATUS | MCE_HAVE_IP |
				      MCE_HAVE_CS | MCE_HAVE_TSC | MCE_HAVE_ADDR | MCE_HAVE_MISC |
				      MCE_HAVE_SYND | MCE_HAVE_IPID | MCE_HAVE_PPIN | MCE_HAVE_TIME |
				      MCE_HAVE_SOCKET | MCE_HAVE_APICID | MCE_HAVE_MICROCODE |
				      MCE_HAVE_CPUID | MCE_HAVE_VENDOR));
	assert_true(r->status == 0xbea0000000000108ull);
	assert_true(r->mcgstatus == 0);
	assert_true(r->ip == 0xffffffff81a3c1f6ull);
	assert_int_equal(r->cs, 0x10);
	assert_true(r->tsc == 0x1c8e0af8d4ull);
	assert_true(r->addr == 0x3fff88000ull);
	assert_true(r->misc == 0x2140040486ull);
	assert_true(r->synd == 0x4d000000ull);
	assert_true(r->ipid == 0x1002e00000000ull);
	assert_true(r->ppin == 0x2b5a3f0c9d1eull);
	assert_int_equal(r->vendor, MCE_VENDOR_AMD);
	assert_int_equal(r->family, 0x19);
	assert_int_equal(r->model, 0x21);
	assert_int_equal(r->stepping, 0);
	assert_true(r->time_usec == 1700000000ll * 1000000);
	assert_int_equal(r->socket, 0);
	assert_int_equal(r->apicid, 6);
	assert_int_equal(r->microcode, 0xa201016);
}

/*
 * A syslog paste whose month and day were cut off: "08:01:58 host kernel: ".
 * The clock time is a prefix only with the "host ident:" after it; a line
 * that is a clock time and then anything else is not taken for a record line.
 */
static void syslog_without_date(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "08:01:58 ubuntu kernel: [10858.536253] CPU0: Core temperature above threshold, cpu clock throttled (total events = 11)\n"
	      "08:01:58 ubuntu kernel: [10858.536791] mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 1: b200000000000150\n"
	      "08:01:58.25 ubuntu kernel: mce: [Hardware Error]: TSC 13c277fe8ba0\n"
	      "08:01:58 ubuntu kernel: [10858.536800] mce: [Hardware Error]: PROCESSOR 0:30678 TIME 1506780118 SOCKET 0 APIC 0 microcode 82d\n"
	      "08:01:58 CPU 1: Machine Check: 0 Bank 1: b200000000000150\n"
	      "24:01:58 ubuntu kernel: CPU 2: Machine Check: 0 Bank 1: b200000000000150\n");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.rec[0].cpu, 0);
	assert_true(s.rec[0].tsc == 0x13c277fe8ba0ull);
	assert_int_equal(s.rec[0].model, 0x37);
	assert_int_equal(s.first[0], 2);
	assert_int_equal(s.last[0], 4);
	/* the two lines that are no syslog prefix: named, each by its number */
	assert_int_equal(s.nd, 2);
	assert_int_equal(s.dline[0], 5);
	assert_int_equal(s.dline[1], 6);
}

static void kernel_prefixes(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "Nov 20 10:00:01 web01 kernel: [ 8812.004125] mce: [Hardware Error]: CPU 12: Machine Check: 0 Bank 7: 8c00004000010091\n"
	      "Nov 20 10:00:01 web01 kernel: [ 8812.004130] mce: [Hardware Error]: TSC 0 ADDR 1f3a5c4c0 MISC 140070086\n"
	      "Nov 20 10:00:01 web01 kernel: [ 8812.004135] mce: [Hardware Error]: PROCESSOR 0:50654 TIME 1700474401 SOCKET 1 APIC 38 microcode 2007006\n"
	      "Nov 20 10:00:02 web01 systemd[1]: Started session-42.scope - Session 42 of User admin.\n"
	      "2026-11-20T10:05:00+0100 db02 kernel: mce: [Hardware Error]: CPU 0: Machine Check Exception: 5 Bank 1: b200000000000150\n"
	      "2026-11-20T10:05:00+0100 db02 kernel: mce: [Hardware Error]: RIP !INEXACT! 33:<00007f31d6f5a0b2>\n"
	      "2026-11-20T10:05:00+0100 db02 kernel: mce: [Hardware Error]: TSC 2a4c1b6e8f0\n"
	      "Nov 20 10:06:00.123456 db02 kernel: mce: [Hardware Error]: CPU 8: Machine Check: 0 Bank 13: 8c000040000800c1\n");
	assert_int_equal(s.n, 3);
	/* the unrelated systemd line is another log line, not garbage */
	for (unsigned i = 0; i < s.nd; i++)
		assert_int_equal(s.dkind[i], MCE_TEXT_PARTIAL);

	assert_int_equal(s.rec[0].cpu, 12);
	assert_int_equal(s.rec[0].vendor, MCE_VENDOR_INTEL);
	assert_int_equal(s.rec[0].family, 6);
	assert_int_equal(s.rec[0].model, 0x55);
	assert_int_equal(s.rec[0].stepping, 4);
	assert_int_equal(s.rec[0].apicid, 0x38);
	assert_int_equal(s.rec[0].socket, 1);
	assert_int_equal(s.first[0], 1);
	assert_int_equal(s.last[0], 3);

	/* "Machine Check Exception", !INEXACT! RIP; ended by the next CPU line */
	assert_int_equal(s.rec[1].cpu, 0);
	assert_true(s.rec[1].mcgstatus == 5);
	assert_true(s.rec[1].ip == 0x7f31d6f5a0b2ull);
	assert_int_equal(s.rec[1].cs, 0x33);
	assert_int_equal(s.first[1], 5);
	assert_int_equal(s.last[1], 7);
	/* no TIME in its text: the short-iso prefix dates it (10:05 +01:00 = 09:05 UTC) */
	assert_true(mce_record_has(&s.rec[1], MCE_HAVE_TIME));
	assert_true(s.rec[1].time_usec == 1795165500ll * 1000000);
	assert_false(mce_record_has(&s.rec[1], MCE_HAVE_CPUID));
	assert_int_equal(s.rec[2].bank, 13);

	/* both records without PROCESSOR are partial: one warning each, at their first line */
	assert_int_equal(s.nd, 2);
	assert_int_equal(s.dline[0], 5);
	assert_int_equal(s.dline[1], 8);
	assert_non_null(strstr(s.dmsg[0], "CPU identity"));
}

/* dmesg -H: a "[May19 19:57]" stamp, then deltas "[  +0.000013]" before the EDAC driver's lines */
static void dmesg_human_deltas(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "[May19 19:57] CMCI storm detected: switching to poll mode\n"
	      "[  +0.000013] EDAC skx MC3: HANDLING MCE MEMORY ERROR\n"
	      "[  +0.000001] EDAC skx MC3: CPU 10: Machine Check Event: 0 Bank 8: fc00010001010092\n"
	      "[  +0.000001] EDAC skx MC3: ADDR b757589dc0 \n"
	      "[  +0.000002] EDAC skx MC3: PROCESSOR 0:50657 TIME 1653015421 SOCKET 1 APIC 20\n");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.rec[0].cpu, 10);
	assert_int_equal(s.rec[0].bank, 8);
	assert_true(s.rec[0].status == 0xfc00010001010092ull);
	assert_true(s.rec[0].addr == 0xb757589dc0ull);
	assert_int_equal(s.rec[0].model, 0x55);
	assert_int_equal(s.first[0], 3);
	for (unsigned i = 0; i < s.nd; i++)
		assert_int_equal(s.dkind[i], MCE_TEXT_PARTIAL);
}

static void default_cpu(void **state)
{
	struct seen s = { 0 };
	struct mce_text_parser *p = mce_text_parser_new(&callbacks, &s);

	(void) state;
	mce_text_parser_set_default_cpu(p, MCE_VENDOR_AMD, 0x19, 0x11);
	mce_text_parser_set_source(p, MCE_SOURCE_DECODE);
	assert_int_equal(feed_text(p,
		"mce: [Hardware Error]: CPU 1: Machine Check: 0 Bank 16: dc2040000000011b\n"
		"CPU 0 BANK 4\nSTATUS 0x9c00000000000000\nPROCESSOR 0:806f8\n"), 0);
	mce_text_parser_free(p);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.nd, 0);
	assert_int_equal(s.rec[0].vendor, MCE_VENDOR_AMD);
	assert_int_equal(s.rec[0].family, 0x19);
	assert_int_equal(s.rec[0].model, 0x11);
	assert_int_equal(s.rec[0].source, MCE_SOURCE_DECODE);
	/* the record's own identity wins over the default */
	assert_int_equal(s.rec[1].vendor, MCE_VENDOR_INTEL);
	assert_int_equal(s.rec[1].model, 0x8f);
}

static void edac_amd(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "[ 1234.567890] mce: [Hardware Error]: Machine check events logged\n"
	      "[ 1234.567901] [Hardware Error]: Corrected error, no action required.\n"
	      "[ 1234.567910] [Hardware Error]: CPU:2 (19:21:0) MC5_STATUS[Over|CE|MiscV|AddrV|-|-|SyndV|CECC|-|-|-]: 0x9c2040000000011b\n"
	      "[ 1234.567920] [Hardware Error]: Error Addr: 0x0000000abcd00000\n"
	      "[ 1234.567930] [Hardware Error]: IPID: 0x0000009600050f00, Syndrome: 0x000000005a020001\n"
	      "[ 1234.567940] [Hardware Error]: Unified Memory Controller Ext. Error Code: 0, DRAM ECC error.\n"
	      "[ 1234.567950] [Hardware Error]: cache level: L3/GEN, tx: GEN, mem-tx: RD\n"
	      "[Hardware Error]: Uncorrected, software restartable error.\n"
	      "[Hardware Error]: CPU:0 (18:0:2) MC1_STATUS[-|UE|MiscV|-|PCC|-|-|-|-|-|-]: 0xb200000000000150\n");
	assert_int_equal(s.n, 2);
	assert_int_equal(s.nd, 0);
	assert_int_equal(s.first[0], 2);
	assert_int_equal(s.last[0], 7);
	assert_int_equal(s.rec[0].cpu, 2);
	assert_int_equal(s.rec[0].bank, 5);
	assert_int_equal(s.rec[0].vendor, MCE_VENDOR_AMD);
	assert_int_equal(s.rec[0].family, 0x19);
	assert_int_equal(s.rec[0].model, 0x21);
	assert_true(s.rec[0].status == 0x9c2040000000011bull);
	assert_true(s.rec[0].addr == 0xabcd00000ull);
	assert_true(s.rec[0].ipid == 0x9600050f00ull);
	assert_true(s.rec[0].synd == 0x5a020001ull);
	/* family 18h is Hygon; ended by end of input */
	assert_int_equal(s.rec[1].vendor, MCE_VENDOR_HYGON);
	assert_int_equal(s.rec[1].stepping, 2);
	assert_false(mce_record_has(&s.rec[1], MCE_HAVE_ADDR));
	assert_int_equal(s.first[1], 8);
}

/*
 * The kernel's "Machine check events logged" is skipped wherever it stands
 * in a line (it is looked for by its "logged"); text that only comes close
 * is garbage as any other.
 */
static void events_logged_anywhere(void **state)
{
	static const struct {
		const char *line;
		unsigned nd;
	} cases[] = {
		{ "Machine check events logged\n", 0 },
		{ "12: Machine check events logged\n", 0 },
		{ "logged: Machine check events logged\n", 0 },     /* a first "logged" that is not it */
		{ "Machine check events logged.\n", 0 },
		{ "logged Machine check events\n", 1 },
		{ "12: Machine check events: logged\n", 1 },
		{ "12: machine check events logged\n", 1 },
		{ "achine check events logged\n", 1 },               /* too short before "logged" */
	};

	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct seen s = { 0 };

		parse(&s, cases[i].line);
		if (s.nd != cases[i].nd || s.n != 0)
			fail_msg("\"%s\": %u diagnostics, %u records", cases[i].line, s.nd, s.n);
	}
}

/*
 * The kernel's "Machine check events logged" is noise wherever it stands,
 * even where reading a line as pairs passes over text unread (a symbol, a
 * date, an old bank name) or after a bad value: such a line adds nothing
 * and is no error.  Without it, the same lines are read.
 */
static void kernel_noise_in_record(void **state)
{
	static const struct {
		const char *line;
		uint32_t have;           /* what the line adds when it is no noise; 0: noise */
	} cases[] = {
		{ "RIP 10:<ffffffff81a3c1f6> {Machine check events logged}", 0 },
		{ "RIP 10:<ffffffff81a3c1f6> {native_safe_halt+0x6/0x10}", MCE_HAVE_IP | MCE_HAVE_CS },
		{ "TIME 1700000001 Mon Machine check events logged", 0 },
		{ "TIME 1700000001 Mon Nov 20 10:00:01 2023", MCE_HAVE_TIME },
		{ "TSC 1c8e0af8d4 Machine check events logged", 0 },
		{ "TSC 1c8e0af8d4 ADDR 3fff88000", MCE_HAVE_TSC | MCE_HAVE_ADDR },
		{ "TSC 1c8e0af8d4 xMachine check events logged", 0 },
	};
	char text[512];

	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct seen s = { 0 };

		snprintf(text, sizeof(text),
			 "mce: [Hardware Error]: CPU 3: Machine Check: 0 Bank 5: bea0000000000108\n"
			 "mce: [Hardware Error]: %s\n"
			 "mce: [Hardware Error]: PROCESSOR 2:a20f10 SOCKET 0 APIC 6 microcode a201016\n",
			 cases[i].line);
		parse(&s, text);
		if (s.n != 1 || s.nd != 0)
			fail_msg("\"%s\": %u records, %u diagnostics", cases[i].line, s.n, s.nd);
		if ((s.rec[0].have & (MCE_HAVE_IP | MCE_HAVE_CS | MCE_HAVE_TIME | MCE_HAVE_TSC |
				      MCE_HAVE_ADDR)) != cases[i].have)
			fail_msg("\"%s\": have %#x", cases[i].line, s.rec[0].have);
	}
	/* an old bank name passed over on a CPU line: noise, so no record begins */
	{
		struct seen s = { 0 };

		parse(&s, "mce: [Hardware Error]: CPU 0 4 xMachine check events logged\n");
		assert_int_equal(s.n, 0);
		assert_int_equal(s.nd, 0);
		parse(&s, "mce: [Hardware Error]: CPU 0 4 northbridge\n");
		assert_int_equal(s.nd, 1);       /* a record without STATUS: skipped, and said so */
	}
}

/*
 * Old sb_edac's DIMM line in the EDAC core's FB-DIMM layout (constructed
 * from the kernel's format strings): Ivy Bridge's "ha=", an uncorrected
 * error's "UE row ... labels", a label set by hand, and another driver's
 * message (test-edac-intel.c has the DIMM lines that come after later
 * records, and those for no record).
 */
static void edac_intel_old_layout(void **state)
{
#define OLD_REGS(bank, status, addr) \
	"sbridge: HANDLING MCE MEMORY ERROR\n" \
	"CPU 0: Machine Check Exception: 0 Bank " bank ": " status "\n" \
	"TSC 0 ADDR " addr " MISC 0 PROCESSOR 0:306e4 TIME 1400000000 SOCKET 0 APIC 0\n"
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      OLD_REGS("7", "8c00004000010091", "1000")
	      "EDAC MC0: CE row 4, channel 0, label \"CPU_SrcID#0_Ha#1_Channel#2_DIMM#1\": 1 Unknown "
	      "error(s): memory read on FATAL area : cpu=0 Err=0001:0091 (ch=1), addr = 0x1000 => "
	      "socket=0, ha=1, Channel=2(mask=4), rank=5\n"
	      OLD_REGS("8", "bd80000000100134", "2000")
	      "EDAC MC0: UE row 0, channel-a= 0 channel-b= 0 labels \"CPU_SrcID#0_Channel#1_DIMM#2-"
	      "CPU_SrcID#0_Channel#1_DIMM#2\": 1 Unknown error(s): memory read on FATAL area "
	      "recoverable: cpu=0 Err=0010:0134 (ch=4), addr = 0x2000 => socket=0, Channel=1(mask=2), "
	      "rank=8\n"
	      OLD_REGS("7", "8c00004000010091", "3000")
	      "EDAC MC0: CE row 1, channel 0, label \"P1-DIMMA1\": 1 Unknown error(s): memory read on "
	      "FATAL area : cpu=0 Err=0001:0091 (ch=1), addr = 0x3000 => socket=0, Channel=0(mask=1), rank=0\n"
	      OLD_REGS("7", "8c00004000010091", "4000")
	      "EDAC MC0: CE row 1, channel 0, label \"DIMM_A1\": i5000 error\n"
	      "EDAC MC0: CE row 1, channel 0, label \"CPU_SrcID#0_Channel#0_DIMM#0\": 1 Unknown error(s): "
	      "memory read on FATAL area : cpu=0 Err=0001:0091 (ch=1), addr = 0x4000 => socket=0, "
	      "Channel=0(mask=1), rank=0\n");
#undef OLD_REGS
	assert_int_equal(s.n, 4);

	assert_true(mce_record_has(&s.rec[0], MCE_HAVE_DIMM_SOCKET | MCE_HAVE_DIMM_MC |
					      MCE_HAVE_DIMM_CHANNEL | MCE_HAVE_DIMM_SLOT | MCE_HAVE_DIMM_RANK));
	assert_int_equal(s.rec[0].dimm_mc, 1);
	assert_int_equal(s.rec[0].dimm_channel, 2);
	assert_int_equal(s.rec[0].dimm_slot, 1);
	assert_int_equal(s.rec[0].dimm_rank, 5);
	assert_int_equal(s.last[0], 4);      /* the DIMM line, not PROCESSOR, ended it */

	/* "labels "A-B"": the first label's slot */
	assert_true(mce_record_has(&s.rec[1], MCE_HAVE_DIMM_CHANNEL | MCE_HAVE_DIMM_SLOT));
	assert_false(mce_record_has(&s.rec[1], MCE_HAVE_DIMM_MC));
	assert_int_equal(s.rec[1].dimm_channel, 1);
	assert_int_equal(s.rec[1].dimm_slot, 2);
	assert_int_equal(s.rec[1].dimm_rank, 8);

	/* a label set by hand names no slot; the rest is read */
	assert_true(mce_record_has(&s.rec[2], MCE_HAVE_DIMM_SOCKET | MCE_HAVE_DIMM_CHANNEL));
	assert_false(mce_record_has(&s.rec[2], MCE_HAVE_DIMM_SLOT));

	/*
	 * another driver's message: said, and the record ends without a
	 * DIMM; held for one, it gets sb_edac's, which names it
	 */
	assert_true(mce_record_has(&s.rec[3], MCE_HAVE_DIMM_CHANNEL));
	assert_int_equal(s.last[3], 17);
	assert_int_equal(s.nd, 1);
	assert_int_equal(s.dline[0], 16);
	assert_int_equal(s.dkind[0], MCE_TEXT_PARTIAL);
	assert_non_null(strstr(s.dmsg[0], "without sb_edac's"));
}

/* skx_edac/i10nm print the registers with "0x"; the DIMM line uses their key names. */
static void edac_intel_skx(void **state)
{
	struct seen s = { 0 };
	const struct mce_record *r = &s.rec[0];

	(void) state;
	parse(&s,
	      "[ 77.1] EDAC skx MC6: HANDLING MCE MEMORY ERROR\n"
	      "[ 77.1] EDAC skx MC6: CPU 12: Machine Check Event: 0x0 Bank 13: 0x9c00004001010090\n"
	      "[ 77.1] EDAC skx MC6: TSC 0x0 \n"
	      "[ 77.1] EDAC skx MC6: ADDR 0x2a5b8c000 \n"
	      "[ 77.1] EDAC skx MC6: MISC 0x200000c000001086 \n"
	      "[ 77.1] EDAC skx MC6: PROCESSOR 0:0x50654 TIME 1600000000 SOCKET 1 APIC 0x20\n"
	      "[ 77.1] EDAC MC6: 1 CE memory read error on CPU_SrcID#1_MC#0_Chan#1_DIMM#0 "
	      "(channel:1 slot:0 page:0x2a5b8c offset:0x0 grain:32 syndrome:0x0 - err_code:0x0101:0x0090 "
	      "socket:1 imc:0 rank:-1 bg:0 ba:1 row:0x1a col:0x8)\n"
	      "[ 78.0] EDAC sbridge MC0: CPU 0: Machine Check Event: 0 Bank 7: 8c00004000010090\n"
	      "[ 78.0] EDAC sbridge MC0: PROCESSOR 0:306e4 TIME 1418298929 SOCKET 0 APIC 0\n");
	assert_int_equal(s.n, 2);
	assert_int_equal(s.nd, 0);
	assert_int_equal(s.first[0], 2);
	assert_int_equal(s.last[0], 7);
	assert_int_equal(r->cpu, 12);
	assert_int_equal(r->bank, 13);
	assert_true(r->status == 0x9c00004001010090ull);
	assert_true(r->addr == 0x2a5b8c000ull);
	assert_int_equal(r->apicid, 0x20);
	assert_true(mce_record_has(r, MCE_HAVE_DIMM_SOCKET | MCE_HAVE_DIMM_MC | MCE_HAVE_DIMM_CHANNEL |
				      MCE_HAVE_DIMM_SLOT));
	assert_int_equal(r->dimm_socket, 1);
	assert_int_equal(r->dimm_mc, 0);
	assert_int_equal(r->dimm_channel, 1);
	assert_int_equal(r->dimm_slot, 0);
	assert_false(r->have & MCE_HAVE_DIMM_RANK);     /* "rank:-1": not known */
	/* registers without a DIMM line still make a record, at the end */
	assert_int_equal(s.rec[1].cpu, 0);
	assert_int_equal(s.rec[1].bank, 7);
	assert_false(s.rec[1].have & MCE_HAVE_DIMM_CHANNEL);
}

/* Old kernels: a head line, then one line per bank; the poller; wall messages. */
static void panic_old_forms(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "\n"
	      "Message from syslogd@db01 at Jan 10 12:00:01 ...\n"
	      "kernel:CPU 2: Machine Check Exception: 0000000000000005\n"
	      "kernel:Bank 0: b200000000000800\n"
	      "kernel:Bank 4: f600000100000813[0000000000000001] at 000000001fd3a000\n"
	      "kernel:Kernel panic - not syncing: CPU context corrupt\n"
	      "\n"
	      /* constructed after the i386 poller's format (no published copy found) */
	      "MCE: The hardware reports a non fatal, correctable incident occurred on CPU 1.\n"
	      "Bank 1: d40040000000017a\n"
	      "\n"
	      "[ 1234.5] CPU 3: Machine Check Exception: 5 Bank 4: b200000000070f0f\n"
	      "\n"
	      "CPU 0: Machine Check Exception: 4\n"
	      "Kernel panic: CPU context corrupt\n");
	assert_int_equal(s.n, 4);
	assert_int_equal(s.rec[0].cpu, 2);
	assert_int_equal(s.rec[0].bank, 0);
	assert_true(s.rec[0].mcgstatus == 5);
	assert_true(s.rec[0].status == 0xb200000000000800ull);
	assert_int_equal(s.first[0], 3);
	assert_int_equal(s.last[0], 4);
	assert_int_equal(s.rec[1].cpu, 2);   /* the same head for the next bank */
	assert_int_equal(s.rec[1].bank, 4);
	assert_true(s.rec[1].mcgstatus == 5);
	assert_true(s.rec[1].misc == 1);
	assert_true(s.rec[1].addr == 0x1fd3a000ull);
	assert_int_equal(s.rec[2].cpu, 1);
	assert_int_equal(s.rec[2].bank, 1);
	assert_false(s.rec[2].have & MCE_HAVE_MCGSTATUS);
	assert_true(s.rec[2].status == 0xd40040000000017aull);
	/* a dmesg line whose message starts "CPU 3:" keeps its words */
	assert_int_equal(s.rec[3].cpu, 3);
	assert_int_equal(s.rec[3].bank, 4);
	/* a head with no bank line: said, not dropped silently */
	assert_int_equal(s.nd, 5);
	assert_int_equal(s.dkind[4], MCE_TEXT_PARTIAL);
	assert_int_equal(s.dline[4], 13);
	assert_non_null(strstr(s.dmsg[4], "no STATUS"));
}

/*
 * Early x86_64 kernels' K8 northbridge lines: the poller's "Silent" report
 * (www.aslab.com/support/kb/86.html), the exception's head and the newer
 * HIGH:LOW status under the handler's own head (shaped after that kernel's
 * print order), and a record quoted in a reply (LKML, March 2004).
 */
static void k8_northbridge_lines(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "CPU 1: Silent Northbridge MCE\n"
	      "Northbridge status a60000010005001b\n"
	      "GART TLB error generic level generic\n"
	      "extended error gart error\n"
	      "link number 0\n"
	      "err cpu1\n"
	      "processor context corrupt\n"
	      "error address valid\n"
	      "error uncorrected\n"
	      "previous error lost\n"
	      "error address 00000000f7fe0008\n"
	      "\n"
	      "CPU 0: Machine Check Exception: 0000000000000004\n"
	      "Northbridge Machine Check exception b60000010005001b 0\n"
	      "Uncorrectable condition\n"
	      "Northbridge status b6000001:0005001b\n"
	      "    Error gart error\n"
	      "    NB error address 00000000f7fe0010\n"
	      "Address: 00000000f7fe0010\n"
	      "Bank 0: b200000000000800\n"
	      "\n"
	      "> > CPU 2: Silent Northbridge MCE\n"
	      "> > Northbridge status 9471c00000000a13\n"
	      "> >     bus error local node response, request didn't time out\n"
	      "> >     generic read\n"
	      "> >     memory access, level generic\n"
	      "> > Do you use AGP?\n");
	assert_int_equal(s.n, 4);
	/* the poller's record: its CPU, the NB's status as MC4, the address */
	assert_int_equal(s.rec[0].cpu, 1);
	assert_int_equal(s.rec[0].bank, 4);
	assert_int_equal(s.rec[0].vendor, MCE_VENDOR_AMD);
	assert_true(s.rec[0].have & MCE_HAVE_VENDOR);
	assert_false(s.rec[0].have & MCE_HAVE_CPUID);
	assert_true(s.rec[0].status == 0xa60000010005001bull);
	assert_true(s.rec[0].addr == 0xf7fe0008ull);
	assert_int_equal(s.first[0], 1);
	assert_int_equal(s.last[0], 11);
	/* the exception's record takes the handler's head, and the MSR's STATUS */
	assert_int_equal(s.rec[1].cpu, 0);
	assert_true(s.rec[1].mcgstatus == 4);
	assert_int_equal(s.rec[1].bank, 4);
	assert_true(s.rec[1].status == 0xb60000010005001bull);
	assert_true(s.rec[1].addr == 0xf7fe0010ull);
	assert_int_equal(s.last[1], 19);
	/* the bank line after it is a record of its own */
	assert_int_equal(s.rec[2].bank, 0);
	assert_true(s.rec[2].status == 0xb200000000000800ull);
	/* quoted in a reply; the reply's own words end the record */
	assert_int_equal(s.rec[3].cpu, 2);
	assert_true(s.rec[3].status == 0x9471c00000000a13ull);
	assert_false(s.rec[3].have & MCE_HAVE_ADDR);
	assert_int_equal(s.last[3], 26);
	for (unsigned i = 0; i < s.nd; i++) {
		assert_int_equal(s.dkind[i], MCE_TEXT_PARTIAL);
		/* the handler's head went into the northbridge's record */
		assert_null(strstr(s.dmsg[i], "no STATUS"));
	}
}

/* A status neither 16 digits nor HIGH:LOW is rejected, not guessed at. */
static void k8_northbridge_bad_status(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "CPU 1: Silent Northbridge MCE\n"
	      "Northbridge status a600000:10005001b\n"
	      "Northbridge status a6000001005001b\n");
	assert_int_equal(s.n, 0);
	assert_int_equal(s.nd, 3);
	assert_int_equal(s.dkind[0], MCE_TEXT_MALFORMED);
	assert_int_equal(s.dline[0], 2);
	assert_int_equal(s.dkind[1], MCE_TEXT_MALFORMED);
	assert_int_equal(s.dline[1], 3);
	assert_int_equal(s.dkind[2], MCE_TEXT_PARTIAL);   /* the head alone: no STATUS */
}

/* The poller's lines as the kernel printed them, "occured" and all (LKML, March 2002). */
static void panic_poller_as_printed(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "MCE: The hardware reports a non fatal, correctable incident occured on CPU 0.\n"
	      "Bank 0: 1000000000000000\n"
	      "MCE: The hardware reports a non fatal, correctable incident occured on CPU 0.\n"
	      "Bank 4: 2200000000000011\n");
	assert_int_equal(s.n, 2);
	assert_int_equal(s.rec[0].cpu, 0);
	assert_true(s.rec[0].have & MCE_HAVE_CPU);
	assert_int_equal(s.rec[0].bank, 0);
	assert_true(s.rec[0].status == 0x1000000000000000ull);
	assert_int_equal(s.first[0], 1);
	assert_int_equal(s.rec[1].cpu, 0);
	assert_true(s.rec[1].have & MCE_HAVE_CPU);
	assert_int_equal(s.rec[1].bank, 4);
	assert_int_equal(s.first[1], 3);
	for (unsigned i = 0; i < s.nd; i++)
		assert_int_equal(s.dkind[i], MCE_TEXT_PARTIAL);
}

/* A panic quoted in a mail reply (LKML, July 2001), and quoted twice. */
static void panic_quoted_in_mail(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "> I was running 2.4.6-stable in SMP mode on a dual P3-1GHz machine\n"
	      "> CPU 1: Machine Check Exception: 0000000000000004\n"
	      "> Bank 1: b200000000000115\n"
	      "> Kernel panic: CPU context corrupt\n"
	      "\n"
	      " > > CPU 1: Machine Check Exception: 0000000000000004\n"
	      " > > Bank 4: b200000000040151\n");
	assert_int_equal(s.n, 2);
	assert_int_equal(s.rec[0].cpu, 1);
	assert_int_equal(s.rec[0].bank, 1);
	assert_true(s.rec[0].mcgstatus == 4);
	assert_true(s.rec[0].status == 0xb200000000000115ull);
	assert_int_equal(s.rec[1].cpu, 1);
	assert_int_equal(s.rec[1].bank, 4);
	assert_true(s.rec[1].status == 0xb200000000040151ull);
	for (unsigned i = 0; i < s.nd; i++)
		assert_int_equal(s.dkind[i], MCE_TEXT_PARTIAL);
}

/* 2.2's bank line with the panic glued on, "<0>" level and all (LKML, February 2001). */
static void panic_glued_printk_level(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "CPU 1: Machine Check Exception: 0000000000000004\n"
	      "Bank 4: b200000000040151<0>Kernel panic: CPU context corrupt\n"
	      "\n"
	      "CPU 0: Machine Check Exception: 0000000000000004\n"
	      "Bank 4: b200000000040151<0>Kernel panic: CPU context corrupt\n");
	assert_int_equal(s.n, 2);
	assert_int_equal(s.rec[0].cpu, 1);
	assert_int_equal(s.rec[0].bank, 4);
	assert_true(s.rec[0].status == 0xb200000000040151ull);
	assert_true(s.rec[0].mcgstatus == 4);
	assert_int_equal(s.rec[1].cpu, 0);
	for (unsigned i = 0; i < s.nd; i++)
		assert_int_equal(s.dkind[i], MCE_TEXT_PARTIAL);
}

/* sysklogd's wall messages, "host kernel:" without a date, quoted in mail (LKML, December 2002). */
static void panic_wall_with_host(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "> >>>Message from syslogd@localhost at Tue Dec 24 11:30:31 2002 ...\n"
	      "> >>>localhost kernel: CPU 1: Machine Check Exception: 0000000000000004\n"
	      "> >>>\n"
	      "> >>>Message from syslogd@localhost at Tue Dec 24 11:30:32 2002 ...\n"
	      "> >>>localhost kernel: Bank 4: b200000000040151\n"
	      "> >>>\n"
	      "> >>>Message from syslogd@localhost at Tue Dec 24 11:30:32 2002 ...\n"
	      "> >>>localhost kernel: Kernel panic: CPU context corrupt\n");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.rec[0].cpu, 1);
	assert_true(s.rec[0].mcgstatus == 4);
	assert_int_equal(s.rec[0].bank, 4);
	assert_true(s.rec[0].status == 0xb200000000040151ull);
	for (unsigned i = 0; i < s.nd; i++)
		assert_int_equal(s.dkind[i], MCE_TEXT_PARTIAL);
}

/* The RIP symbol split off onto a line of its own (linux-edac, November 2020). */
static void kernel_rip_symbol_split(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "[  106.962373] mce: [Hardware Error]: CPU 18: Machine Check Exception: 5 Bank 7: be00000001010091\n"
	      "[  106.962377] mce: [Hardware Error]: RIP !INEXACT! 10:<ffffffffac58472a>\n"
	      "[  106.996488] {acpi_idle_do_entry+0x4a/0x60}\n"
	      "[  107.001057] mce: [Hardware Error]: TSC ae4b410af0b8 ADDR 314d193000 MISC 200400c008002086\n"
	      "[  107.010283] mce: [Hardware Error]: PROCESSOR 0:50657 TIME 1605843017 SOCKET 1 APIC 40 microcode 5000021\n");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.rec[0].cpu, 18);
	assert_true(s.rec[0].ip == 0xffffffffac58472aull);
	assert_true(s.rec[0].addr == 0x314d193000ull);
	assert_int_equal(s.first[0], 1);
	assert_int_equal(s.last[0], 5);
	assert_int_equal(s.nd, 0);
}

/* The x86_64 panic banner around a record (LKML, May 2006). */
static void panic_banner_x86_64(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "HARDWARE ERROR\n"
	      "CPU 1: Machine Check Exception:                4 Bank 4: b60a200170080813\n"
	      "TSC 89cfb4725b17 ADDR 1025cb3f0 \n"
	      "This is not a software problem!\n"
	      "Run through mcelog --ascii to decode and contact your hardware vendor\n"
	      "Kernel panic - not syncing: Machine check\n");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.rec[0].cpu, 1);
	assert_true(s.rec[0].status == 0xb60a200170080813ull);
	assert_true(s.rec[0].addr == 0x1025cb3f0ull);
	for (unsigned i = 0; i < s.nd; i++)
		assert_int_equal(s.dkind[i], MCE_TEXT_PARTIAL);
}

/* The AMD decoder of 3.x kernels: "CPU:2" and the bank, no (family:model:stepping). */
static void edac_amd_cpu_without_tuple(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "[Hardware Error]: CPU:3    MC2_STATUS[-|CE|MiscV|-|AddrV|-|-|CECC]: 0x9c4840f001040136\n"
	      "[Hardware Error]:     MC2_ADDR: 0x000000020dbd7248\n"
	      "[Hardware Error]: Combined Unit Error: Fill ECC error on data fills.\n"
	      "[Hardware Error]: cache level: L2, tx: DATA, mem-tx: DRD\n");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.rec[0].cpu, 3);
	assert_int_equal(s.rec[0].bank, 2);
	assert_int_equal(s.rec[0].vendor, MCE_VENDOR_AMD);
	assert_true(s.rec[0].status == 0x9c4840f001040136ull);
	assert_true(s.rec[0].addr == 0x20dbd7248ull);
	for (unsigned i = 0; i < s.nd; i++)
		assert_int_equal(s.dkind[i], MCE_TEXT_PARTIAL);
}

/* The lines not read (malformed or unknown, not warnings), and the first of them. */
static unsigned malformed(const struct seen *s, unsigned *first_line)
{
	unsigned n = 0;

	for (unsigned i = 0; i < s->nd; i++)
		if (s->dkind[i] != MCE_TEXT_PARTIAL && n++ == 0)
			*first_line = s->dline[i];
	return n;
}

/*
 * A console's 80-column wrap cut STATUS and the PROCESSOR line (shaped after
 * the Kaby Lake record in the golden corpus): the rests are joined only
 * right after a line exactly 80 columns wide, its printk stamp counted
 * as the kernel pads it.
 */
static void kernel_wrapped_at_80(void **state)
{
	struct seen s = { 0 };
	unsigned line = 0;

	(void) state;
	parse(&s,
	      "[ 0.149524] mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 7: ee20000000\n"
	      "40110a\n"
	      "[ 0.149525] mce: [Hardware Error]: TSC 0 ADDR fef1ce40 MISC 47880010086\n"
	      "[ 0.149528] mce: [Hardware Error]: PROCESSOR 0:906e9 TIME 1567293075 SOCKET 0\n"
	      " APIC 2 microcode b4\n");
	assert_int_equal(s.nd, 0);
	assert_int_equal(s.n, 1);
	assert_true(s.rec[0].status == 0xee2000000040110aull);
	assert_int_equal(s.rec[0].apicid, 2);
	assert_int_equal(s.rec[0].microcode, 0xb4);
	assert_int_equal(s.last[0], 5);

	/* 79 columns: no wrap, so the hex line is no rest of STATUS */
	memset(&s, 0, sizeof(s));
	parse(&s,
	      "[ 0.149524] mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 7: ee2000000\n"
	      "040110a\n");
	assert_int_equal(s.n, 1);
	assert_true(s.rec[0].status == 0xee2000000ull);
	assert_int_equal(malformed(&s, &line), 1);
	assert_int_equal(line, 2);

	/* not the next line, or digits that would make more than 16 */
	memset(&s, 0, sizeof(s));
	parse(&s,
	      "[ 0.149524] mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 7: ee20000000\n"
	      "[ 0.149525] mce: [Hardware Error]: TSC 0\n"
	      "40110a\n"
	      "[ 0.149524] mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 7: ee20000000\n"
	      "40110a0\n");
	assert_int_equal(s.n, 2);
	assert_true(s.rec[0].status == 0xee20000000ull);
	assert_true(s.rec[1].status == 0xee20000000ull);
	assert_int_equal(malformed(&s, &line), 2);
	assert_int_equal(line, 3);

	/* a PROCESSOR line at 80 columns waits one line for its APIC, no more */
	memset(&s, 0, sizeof(s));
	parse(&s,
	      "[    0.149524] mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 7: ee2000000040110a\n"
	      "[    0.149528] mce: [Hardware Error]: PROCESSOR 0:906e9 TIME 1567293075 SOCKET 0\n"
	      "[    0.149529] mce: [Hardware Error]: TSC 5\n");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.last[0], 2);
	assert_false(s.rec[0].have & MCE_HAVE_APICID);
	assert_int_equal(malformed(&s, &line), 0);
	assert_int_equal(s.nd, 1);
	assert_int_equal(s.dline[0], 3);        /* its own record, with no STATUS */

	/* a syslog prefix: no console's line, so no wrap */
	memset(&s, 0, sizeof(s));
	parse(&s,
	      "Nov 20 10:00:01 host kernel: mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 7: ee20000\n"
	      "00040110a\n");
	assert_int_equal(s.n, 1);
	assert_true(s.rec[0].status == 0xee20000ull);
	assert_int_equal(malformed(&s, &line), 1);
	assert_int_equal(line, 2);
}

/*
 * STATUS cut after each number of digits a line of 80 columns can keep,
 * after a space or a tab and the padding that makes the 80: the check of
 * a line's last 16 bytes that spares whole STATUS values the walk back
 * must leave every cut one to the walk.  And a last word of 16 bytes or
 * more, control bytes in it, is never cut.
 */
static void kernel_wrapped_every_cut(void **state)
{
	static const char head[] = "[    0.149524] mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 7:";
	static const char status[] = "ee2000000040110a";
	const size_t cols = strlen(head);

	(void) state;
	for (unsigned sep = 0; sep < 2; sep++)
		for (size_t k = 1; cols + 1 + k <= 80; k++) {
			struct seen s = { 0 };
			unsigned line = 0;
			char text[256];
			size_t n = 0, pad = 80 - cols - k;

			memcpy(text, head, cols);
			n = cols;
			for (size_t i = 0; i < pad; i++)
				text[n++] = sep && i == 0 ? '\t' : ' ';
			memcpy(text + n, status, k);
			n += k;
			n += (size_t) snprintf(text + n, sizeof(text) - n, "\n%s\n", status + k);
			assert_true(n < sizeof(text));
			parse(&s, text);
			assert_int_equal(malformed(&s, &line), 0);
			assert_int_equal(s.n, 1);
			assert_true(s.rec[0].status == 0xee2000000040110aull);
		}
	for (unsigned ctl = 0; ctl < 2; ctl++) {
		struct seen s = { 0 };
		unsigned line = 0;
		char text[256];

		/* 80 columns ending in 16 bytes without white space: no cut, the next line is garbage */
		snprintf(text, sizeof(text), "[  0.1] mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 7: %s\n40\n",
			 ctl ? "e\001000000040110a" : "ee2000000040110a");
		parse(&s, text);
		assert_int_equal(malformed(&s, &line), ctl ? 2 : 1);
		assert_int_equal(line, ctl ? 1 : 2);
	}
}

/*
 * A mailer wrapped the AMD decoder's lines (the Zen+ LS record in the golden
 * corpus): "CPU:n (f:m:s)" takes the next line's MCb_STATUS, and a word the
 * decoder's text lost is no garbage, only where it could not have fit.
 */
static void edac_amd_mail_wrapped(void **state)
{
	struct seen s = { 0 };
	unsigned line = 0;

	(void) state;
	parse(&s,
	      "[20605.288327] [Hardware Error]: Uncorrected, software restartable error.\n"
	      "[20605.288330] [Hardware Error]: CPU:1 (17:8:2)\n"
	      "MC0_STATUS[-|UE|MiscV|AddrV|-|-|-|UECC|-|Poison|-]: 0xbc002800000c0135\n"
	      "[20605.288335] [Hardware Error]: Error Addr: 0x00000000e8ac0000\n"
	      "[20605.288339] [Hardware Error]: Load Store Unit Ext. Error Code: 12, DC Data\n"
	      "error type 1 and poison consumption.\n"
	      "[20605.288341] [Hardware Error]: cache level: L1, tx: DATA, mem-tx: DRD\n");
	assert_int_equal(s.nd, 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.rec[0].cpu, 1);
	assert_int_equal(s.rec[0].family, 0x17);
	assert_int_equal(s.rec[0].bank, 0);
	assert_true(s.rec[0].status == 0xbc002800000c0135ull);
	assert_true(s.rec[0].addr == 0xe8ac0000ull);

	/* a short word that would have fit: the text line was not wrapped */
	memset(&s, 0, sizeof(s));
	parse(&s,
	      "[Hardware Error]: CPU:1 (17:8:2) MC0_STATUS[-|UE]: 0xbc002800000c0135\n"
	      "[Hardware Error]: Load Store Unit Ext. Error Code: 12, DC Data\n"
	      "error type 1\n"
	      "[Hardware Error]: cache level: L1, tx: DATA, mem-tx: DRD\n");
	assert_int_equal(s.n, 1);
	assert_int_equal(malformed(&s, &line), 1);
	assert_int_equal(line, 3);

	/* words that do not end the sentence: no rest of it, and another
	 * form's record line there is read as that */
	memset(&s, 0, sizeof(s));
	parse(&s,
	      "[Hardware Error]: CPU:1 (17:8:2) MC0_STATUS[-|UE]: 0xbc002800000c0135\n"
	      "[20605.288339] [Hardware Error]: Load Store Unit Ext. Error Code: 12, DC Data\n"
	      "error type 1 and poison consumption\n"
	      "[20605.288339] [Hardware Error]: Load Store Unit Ext. Error Code: 12, DC Data\n"
	      "EDAC sbridge MC0: CPU 0: Machine Check Event: 0 Bank 5: 8c00004000010092\n");
	assert_int_equal(s.n, 2);
	assert_true(s.rec[1].status == 0x8c00004000010092ull);
	assert_int_equal(malformed(&s, &line), 1);
	assert_int_equal(line, 3);

	/* the cut CPU line without its MCb_STATUS next: named, and no CPU taken */
	memset(&s, 0, sizeof(s));
	parse(&s,
	      "[Hardware Error]: Uncorrected, software restartable error.\n"
	      "[Hardware Error]: CPU:1 (17:8:2)\n"
	      "[Hardware Error]: MC0_STATUS[-|UE]: 0xbc002800000c0135\n");
	assert_int_equal(s.n, 1);
	assert_false(s.rec[0].have & MCE_HAVE_CPU);
	assert_int_equal(malformed(&s, &line), 1);
	assert_int_equal(line, 2);
	assert_non_null(strstr(s.dmsg[0], "expected 'MCn_STATUS'"));
}

/* The two records the quoted copies of these cuts hold, each whole. */
static void assert_wrapped_pair(const struct seen *s)
{
	assert_int_equal(s->n, 2);
	assert_int_equal(s->rec[0].cpu, 2);
	assert_int_equal(s->rec[0].family, 0x15);
	assert_int_equal(s->rec[0].bank, 2);
	assert_true(s->rec[0].status == 0x98444000010c0176ull);
	assert_int_equal(s->rec[1].cpu, 3);
	assert_true(s->rec[1].status == 0x98444000010c0177ull);
	for (unsigned i = 0; i < s->nd; i++)
		assert_int_equal(s->dkind[i], MCE_TEXT_PARTIAL);
}

/*
 * The same cuts quoted in a reply: each rest carries the quote, and the
 * widths are the lines' before they were quoted.
 */
static void edac_amd_mail_wrapped_quoted(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "> [  723.595042] [Hardware Error]: Corrected error, no action required.\n"
	      "> [  723.595050] [Hardware Error]: CPU:2 (15:2:0)\n"
	      "> MC2_STATUS[-|CE|MiscV|-|-|-|-|CECC]: 0x98444000010c0176\n"
	      "> [  723.595062] [Hardware Error]: cache level: L2, tx: DATA, mem-tx: EV\n"
	      "\n"
	      ">> [  723.595042] [Hardware Error]: CPU:3 (15:2:0)\n"
	      "MC2_STATUS[-|CE|MiscV|-|-|-|-|CECC]: 0x98444000010c0177\n");
	assert_wrapped_pair(&s);
}

/*
 * The same cuts quoted with bars, as Pine and some archives quote
 * (constructed: no bar-quoted machine-check paste was found published):
 * "| " and "|> " are taken off as "> " is, and the widths are still the
 * lines' before they were quoted.
 */
static void edac_amd_mail_wrapped_bar_quoted(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "| [  723.595042] [Hardware Error]: Corrected error, no action required.\n"
	      "| [  723.595050] [Hardware Error]: CPU:2 (15:2:0)\n"
	      "| MC2_STATUS[-|CE|MiscV|-|-|-|-|CECC]: 0x98444000010c0176\n"
	      "|> [  723.595062] [Hardware Error]: cache level: L2, tx: DATA, mem-tx: EV\n"
	      "\n"
	      "> | [  723.595042] [Hardware Error]: CPU:3 (15:2:0)\n"
	      "|>| MC2_STATUS[-|CE|MiscV|-|-|-|-|CECC]: 0x98444000010c0177\n");
	assert_wrapped_pair(&s);
}

/* What text_unquote() leaves of line. */
static void assert_unquoted(const char *line, const char *want)
{
	struct span u = text_unquote((struct span) { line, line + strlen(line) });

	if (span_len(u) != strlen(want) || memcmp(u.p, want, strlen(want)) != 0)
		fail_msg("'%s' unquoted to '%.*s', not '%s'", line, (int) span_len(u), u.p, want);
}

/*
 * Bars quote only before a space, a tab, '>' or the line's end, and a
 * Markdown table's row keeps its bars: only the '>' in front of it goes,
 * as before bars were read.
 */
static void bar_quoting(void **state)
{
	struct seen s = { 0 };

	(void) state;
	assert_unquoted("| CPU 1: Machine Check Exception: 4", "CPU 1: Machine Check Exception: 4");
	assert_unquoted("|> Bank 4: b200000000040151", "Bank 4: b200000000040151");
	assert_unquoted("> | > Bank 4: b200000000040151", "Bank 4: b200000000040151");
	assert_unquoted("| |\tBank 4: b200000000040151", "Bank 4: b200000000040151");
	assert_unquoted("||Bank 4", "||Bank 4");
	assert_unquoted("|", "");
	assert_unquoted("> > Bank 4: b200000000040151", "Bank 4: b200000000040151");
	/* Markdown's */
	assert_unquoted("| CPU | Bank | Status |", "| CPU | Bank | Status |");
	assert_unquoted("| 0 | 4 | 0x9c00 |", "| 0 | 4 | 0x9c00 |");
	assert_unquoted("| CPU |", "| CPU |");
	assert_unquoted("|---|---|", "|---|---|");
	assert_unquoted("|CPU|Bank|", "|CPU|Bank|");
	assert_unquoted("> | CPU | Bank |", "| CPU | Bank |");
	assert_unquoted("  |---|", "  |---|");
	/* an AMD register line's flags are no column bars */
	assert_unquoted("| MC2_STATUS[-|CE|MiscV|-|-|-|-|CECC]: 0x98444000010c0176",
			"MC2_STATUS[-|CE|MiscV|-|-|-|-|CECC]: 0x98444000010c0176");
	assert_unquoted("CPU 1 BANK 4", "CPU 1 BANK 4");

	/* so a table's rows are told as they were before: each named as no record line */
	parse(&s, "| CPU | Bank | Status |\n|---|---|---|\n| 0 | 4 | 0x9c00 |\n");
	assert_int_equal(s.n, 0);
	assert_int_equal(s.nd, 3);
	for (unsigned i = 0; i < s.nd; i++) {
		assert_int_equal(s.dkind[i], MCE_TEXT_UNKNOWN);
		assert_int_equal(s.dline[i], i + 1);
	}
	assert_non_null(strstr(s.dmsg[0], "'| CPU | Bank | Status |'"));
}


/* 4.x kernels named the address "MC2 Error Address:" (Ubuntu forum, April 2016). */
static void edac_amd_error_address(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "Apr  6 15:47:19 neredium kernel: [  301.323443] [Hardware Error]: Corrected error, no action required.\n"
	      "Apr  6 15:47:19 neredium kernel: [  301.323448] [Hardware Error]: CPU:3 (15:2:0) MC2_STATUS[Over|CE|MiscV|-|AddrV|-|-|CECC]: 0xdc25405000040136\n"
	      "Apr  6 15:47:19 neredium kernel: [  301.323450] [Hardware Error]: MC2 Error Address: 0x00000007a16bc838\n"
	      "Apr  6 15:47:19 neredium kernel: [  301.323451] [Hardware Error]: MC2 Error: Fill ECC error on data fills.\n"
	      "Apr  6 15:47:19 neredium kernel: [  301.323453] [Hardware Error]: cache level: L2, tx: DATA, mem-tx: DRD\n");
	assert_int_equal(s.n, 1);
	assert_true(s.rec[0].have & MCE_HAVE_ADDR);
	assert_true(s.rec[0].addr == 0x7a16bc838ull);
	assert_int_equal(s.nd, 0);
}

/* journalctl -u mcelog after a reboot, its "-- Reboot --" marker and all (linux-edac, November 2024). */
static void journal_markers(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "   -- Reboot --\n"
	      "   systemd[1]: Started Machine Check Exception Logging Daemon.\n"
	      "   mcelog[2783]: Hardware event. This is not a software error.\n"
	      "   mcelog[2783]: MCE 0\n"
	      "   mcelog[2783]: CPU 0 BANK 16 TSC 2307d829a77\n"
	      "   mcelog[2783]: STATUS be00000200a00091 MCGSTATUS 5\n"
	      "   mcelog[2783]: CPUID Vendor Intel Family 6 Model 143 Step 4\n");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.rec[0].bank, 16);
	assert_true(s.rec[0].status == 0xbe00000200a00091ull);
	for (unsigned i = 0; i < s.nd; i++)
		assert_int_equal(s.dkind[i], MCE_TEXT_PARTIAL);
}

/* Older AMD EDAC layouts, damaged copies, wall messages split by blank lines. */
static void edac_amd_old(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "Message from syslogd@h at Nov 10 08:58:06 ...\n"
	      " kernel:[Hardware Error]: CPU:18 (10:9:1) MC4_STATUS[Over|CE|MiscV|-|AddrV|CECC]: 0xdc5c410004080a13\n"
	      "\n"
	      "Message from syslogd@h at Nov 10 08:58:06 ...\n"
	      " kernel:[Hardware Error]: MC4_ADDR: 0x0000001891a88210\n"
	      "\n"
	      "[Hardware Error]: MC4_STATUS[-|CE|-|-|AddrV|CECC]: 0x9c00400000000813\n"
	      "\n"
	      "Error: CPU:2 (19:21:0) MC5_STATUS0x9c2040000000011b\n"
	      "[Hardware Error: Error Addr: 0x0000000abcd00000\n"
	      "Error: some decoded text\n"
	      "[Hardware Error]: MC12_STATUSOver|CE|-: 0x9c2040000000011c\n");
	assert_int_equal(s.n, 4);
	assert_int_equal(s.rec[0].cpu, 18);
	assert_int_equal(s.rec[0].family, 0x10);
	assert_true(s.rec[0].addr == 0x1891a88210ull);     /* across the wall's blank line */
	assert_int_equal(s.first[0], 2);
	assert_int_equal(s.last[0], 5);
	assert_false(s.rec[1].have & (MCE_HAVE_CPU | MCE_HAVE_CPUID));
	assert_int_equal(s.rec[1].vendor, MCE_VENDOR_AMD);
	assert_int_equal(s.rec[1].bank, 4);
	assert_false(s.rec[1].have & MCE_HAVE_ADDR);       /* a real blank line ended it */
	assert_int_equal(s.rec[2].cpu, 2);
	assert_int_equal(s.rec[2].bank, 5);
	assert_true(s.rec[2].status == 0x9c2040000000011bull);
	assert_true(s.rec[2].addr == 0xabcd00000ull);
	assert_int_equal(s.rec[3].bank, 12);                  /* flags without brackets */
	assert_true(s.rec[3].status == 0x9c2040000000011cull);
	/* the flag list names the ECC bits, or does not */
	assert_true(mce_record_has(&s.rec[0], MCE_HAVE_AMD_ECC_NAMED));
	assert_true(mce_record_has(&s.rec[1], MCE_HAVE_AMD_ECC_NAMED));
	assert_false(mce_record_has(&s.rec[2], MCE_HAVE_AMD_ECC_NAMED));
	assert_false(mce_record_has(&s.rec[3], MCE_HAVE_AMD_ECC_NAMED));
	for (unsigned i = 0; i < s.nd; i++)
		assert_int_equal(s.dkind[i], MCE_TEXT_PARTIAL); /* no line called garbage */
}

/*
 * Every keyword of the "KEY value" lines, each found by its own name only
 * (the key lookup is a hash), and values at the edges of the one-pass
 * reading: with "0x", upper case, more than 16 digits, too large for the
 * field, cut short or glued to junk.
 */
static void kv_every_key_and_value_edges(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "CPU 7 BANK 9\n"
	      "PROCESSOR 0:806f8\n"
	      "TSC 1 ADDR 2 MISC 3 PPIN 4 SOCKET 5 APIC 6 microcode 7 SYND 8 IPID 9\n"
	      "STATUS 0xA MCGSTATUS 0000000000000000b MCGCAP C\n"
	      "TIME 1700000000\n"
	      "RIP 10:<ffffffff81000000>\n"
	      "\n"
	      "CPU 1 BANK 2\n"
	      "APICID 11 SOCKETID 12 MICROCODE 13 STATUS 8000000000000000\n"
	      "CPUID Vendor Intel Family 6 Model 143 Step 8\n"
	      "\n"
	      "CPU 2 BANK 3\n"
	      "PROCESSOR 0:806f8 STATUS 1\n"
	      "SOCKET 4294967296\n"          /* too large for its 32 bits */
	      "MISC 12345678901234567\n"     /* 17 digits, no leading zero */
	      "ADDR 12x4\n"
	      "TSC\n"
	      "APIC 0x\n"
	      "BANKS 1\n"                    /* a key's name, one byte longer */
	      "SYND 5 CPUX 1\n");
	assert_int_equal(s.n, 3);
	assert_int_equal(s.rec[0].cpu, 7);
	assert_int_equal(s.rec[0].bank, 9);
	assert_true(s.rec[0].tsc == 1 && s.rec[0].addr == 2 && s.rec[0].misc == 3 && s.rec[0].ppin == 4);
	assert_int_equal(s.rec[0].socket, 5);
	assert_int_equal(s.rec[0].apicid, 6);
	assert_int_equal(s.rec[0].microcode, 7);
	assert_true(s.rec[0].synd == 8 && s.rec[0].ipid == 9);
	assert_true(s.rec[0].status == 0xa && s.rec[0].mcgstatus == 0xb && s.rec[0].mcgcap == 0xc);
	assert_true(s.rec[0].time_usec == 1700000000ll * 1000000);
	assert_true(s.rec[0].cs == 0x10 && s.rec[0].ip == 0xffffffff81000000ull);
	assert_int_equal(s.rec[0].model, 0x8f);
	assert_int_equal(s.rec[1].apicid, 0x11);
	assert_int_equal(s.rec[1].socket, 12);
	assert_int_equal(s.rec[1].microcode, 0x13);
	assert_int_equal(s.rec[1].model, 143);
	assert_false(mce_record_has(&s.rec[2], MCE_HAVE_SOCKET));
	assert_false(mce_record_has(&s.rec[2], MCE_HAVE_MISC));
	assert_false(mce_record_has(&s.rec[2], MCE_HAVE_ADDR));
	assert_false(mce_record_has(&s.rec[2], MCE_HAVE_TSC));
	assert_false(mce_record_has(&s.rec[2], MCE_HAVE_APICID));
	assert_false(mce_record_has(&s.rec[2], MCE_HAVE_SYND));
	assert_int_equal(s.nd, 7);
	assert_non_null(strstr(s.dmsg[0], "SOCKET: value '4294967296' out of range"));
	assert_non_null(strstr(s.dmsg[1], "MISC: value '12345678901234567' out of range"));
	assert_non_null(strstr(s.dmsg[2], "ADDR: '12x4' is not a hexadecimal number"));
	assert_non_null(strstr(s.dmsg[3], "TSC: value missing"));
	assert_non_null(strstr(s.dmsg[4], "APIC: '0x' is not a hexadecimal number"));
	assert_non_null(strstr(s.dmsg[6], "unknown key 'CPUX'"));
}

/*
 * What may follow TIME's number: mcelog's date (skipped, the line not
 * checked further) only when the next word, after any white space, is a
 * day's name of three letters; anything else is read as pairs.  The word
 * is looked at without being cut out when it plainly is longer.
 */
static void kv_time_then_date(void **state)
{
	static const char *const after[] = {
		"", " ", "  ", " Mon", " Mon Nov 20 10:00:00 2023", "  Tue Nov", "\tWed", " \tThu x",
		" Fri\t", " Sat ", " Sun", " Mond", " Mo", " SOCKET 1", "  SOCKET 1", "\tSOCKET 1",
		" SOC 1", " SOCK 1", " APIC 1", " Sunday", " mon", " Sat1", " Sa t", " M", " Monx",
	};
	static const char *const days[] = { "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun" };
	struct mce_text_parser *p = mce_text_parser_new(&callbacks, NULL);

	(void) state;
	assert_non_null(p);
	for (size_t i = 0; i < ELEMENTSOF(after); i++) {
		char line[128];
		const char *w = after[i], *e;
		bool day = false;
		struct mce_record r = { 0 };
		struct kv_line info;
		int n = snprintf(line, sizeof(line), "TIME 1700000000%s", after[i]);
		enum kv_result res;

		/* the oracle: the next word, however much white space comes before it */
		while (*w == ' ' || *w == '\t')
			w++;
		for (e = w; *e && *e != ' ' && *e != '\t'; e++)
			;
		for (size_t d = 0; d < ELEMENTSOF(days); d++)
			day |= e - w == 3 && memcmp(w, days[d], 3) == 0;
		res = text_kv_line(p, (struct span) { line, line + n }, &r, &info);
		assert_true(r.time_usec == 1700000000ll * 1000000);
		assert_int_equal(info.unchecked, day);
		if (day)
			assert_int_equal(res, KV_OK);
		/* otherwise the word is read as a key: known, unknown or none */
		else if (strstr(after[i], "SOCKET 1"))
			assert_true(res == KV_OK && r.socket == 1);
		else if (*w)
			assert_true(res == KV_BAD || strstr(after[i], "APIC 1"));
	}
	mce_text_parser_free(p);
}

/*
 * text_kv_line(), which checks the key a line's order foretells in place,
 * and text_kv_line_unforeseen(), which cuts every key out and looks it
 * up, read body alike: the result, every byte of the record, what the
 * line was, and the message of a bad line.
 */
static void kv_same(struct mce_text_parser *pa, struct mce_text_parser *pb, const char *body, size_t len)
{
	struct span s = { body, body + len };
	struct mce_record ra, rb;
	struct kv_line ia, ib;
	enum kv_result a, b;

	memset(&ra, 0x3c, sizeof(ra));
	rb = ra;
	pa->msg[0] = pb->msg[0] = '\0';
	a = text_kv_line(pa, s, &ra, &ia);
	b = text_kv_line_unforeseen(pb, s, &rb, &ib);
	assert_int_equal(a, b);
	assert_memory_equal(&ra, &rb, sizeof(ra));
	assert_int_equal(ia.names_cpu, ib.names_cpu);
	assert_int_equal(ia.kernel_first, ib.kernel_first);
	assert_int_equal(ia.processor, ib.processor);
	assert_int_equal(ia.unchecked, ib.unchecked);
	assert_string_equal(pa->msg, pb->msg);
}

static void kv_foreseen_same(void **state)
{
	static const char *const lines[] = {
		"TSC d83b3e29a2 ADDR b3e29a2140 MISC 9001000f0000286 PPIN 2b5a3f0c9d1e",
		"TSC 1c8e0af8d4 ADDR 3fff88000 MISC 2140040486 SYND 4d000000 IPID 1002e00000000 PPIN 2b5a3f0c9d1e",
		"TSC 0 ADDR fef1ce40 MISC 47880010086 PPIN 1 SYND 2 IPID 3",
		"PROCESSOR 0:806f8 TIME 1700000000 SOCKET 1 APIC 74 microcode 2b000461",
		"PROCESSOR 2:a20f10 TIME 1700000000 Mon Nov 20 10:00:00 2023 SOCKET 0 APIC 6 microcode a201016",
		"STATUS 0x8c000040000800c1 MCGSTATUS 0 MCGCAP 0x1000c14 APICID 2 SOCKETID 1",
		"STATUS 8c000040000800c1 MCGSTATUS 5",
		"CPU 3: Machine Check: 0 Bank 5: bea0000000000108",
		"CPU 1 BANK 2 TSC 1 ADDR 2 MISC 3",
		"TSC 1 ADDRS 2", "TSC 1  ADDR 2", "TSC 1\tADDR 2", "TSC 1 ADDR", "TSC 1 ADD", "TSC 1 ADDR\t",
		"TSC 1 ADDR 0x2", "TSC 1 ADDR 12345678901234567", "TSC 1 ADDR x", "TSC 1 addr 2",
		"TIME 1 SOCKET 4294967296", "SOCKET 1 APIC 0x", "APIC 1 microcodes 2", "APIC 1 microcode",
		"PPIN 1 SYND", "SYND 1 IPID 2 IPIDS 3", "MCGCAP 1 APICID 2 SOCKETID 3 SOCKETIDX 4",
		"TSC 1 RIP 10:<ffffffff81000000> ADDR 2",
	};
	static const char alphabet[] = { ' ', '\t', '0', '9', 'a', 'f', 'x', ':', 'A', 'D', 'R', 'S', 'I', '\0', '\x80' };
	static const char *const files[] = {
		"bad-forms.txt", "bad.txt", "edac-amd-old.txt", "kernel-dmesg.txt", "kernel-syslog.txt",
		"mcelog-decoded.txt", "mcelog-old.txt", "mcelog.txt", "panic-old.txt", "partial.txt",
		"../real-records.txt",
	};
	struct mce_text_parser *pa = mce_text_parser_new(&callbacks, NULL);
	struct mce_text_parser *pb = mce_text_parser_new(&callbacks, NULL);
	unsigned seed = 11, tried = 0;

	(void) state;
	assert_non_null(pa);
	assert_non_null(pb);
	for (size_t i = 0; i < ELEMENTSOF(lines); i++) {
		size_t n = strlen(lines[i]);
		char line[256];

		/* every cut, and every byte changed from the alphabet, one at a time and at random */
		for (size_t len = 0; len <= n; len++, tried++)
			kv_same(pa, pb, lines[i], len);
		for (size_t at = 0; at < n; at++)
			for (size_t c = 0; c < sizeof(alphabet); c++, tried++) {
				memcpy(line, lines[i], n);
				line[at] = alphabet[c];
				kv_same(pa, pb, line, n);
			}
		for (unsigned k = 0; k < 2000; k++, tried++) {
			memcpy(line, lines[i], n);
			for (unsigned m = 0; m < 3; m++) {
				seed = seed * 1103515245u + 12345u;
				line[(seed >> 8) % n] = alphabet[(seed >> 20) % sizeof(alphabet)];
			}
			kv_same(pa, pb, line, n);
		}
	}
	for (size_t i = 0; i < ELEMENTSOF(files); i++) {
		char line[8192];
		FILE *f = open_sample(files[i]);

		while (fgets(line, sizeof(line), f)) {
			struct span s = { line, line + strlen(line) };
			struct text_line l;

			span_trim(&s);
			kv_same(pa, pb, s.p, span_len(s));
			tried++;
			if (!text_line_split(s, &l))
				continue;
			kv_same(pa, pb, l.msg.p, span_len(l.msg));
			if (l.tagged.p)
				kv_same(pa, pb, l.tagged.p, span_len(l.tagged));
			tried += 2;
		}
		fclose(f);
	}
	assert_true(tried > 50000);
	mce_text_parser_free(pa);
	mce_text_parser_free(pb);
}

/*
 * span_starts_case_n() compares as strncasecmp() does in the C locale
 * (and a NUL in the text never matches): every pair of bytes, and words
 * of the tables with each byte's case flipped or bent by one.
 */
static void span_case_as_strncasecmp(void **state)
{
	static const char *const words[] = { "vendor data", "PROCESSOR", "time", "socket", "MICROCODE REVISION", "microcode", "APIC" };

	(void) state;
	for (unsigned a = 0; a < 256; a++)
		for (unsigned b = 1; b < 256; b++) {
			char x[2] = { (char) a, 0 }, y[2] = { (char) b, 0 };
			bool want = a != 0 && strncasecmp(x, y, 1) == 0;

			assert_int_equal(span_starts_case_n((struct span) { x, x + 1 }, y, 1), want);
		}
	for (size_t w = 0; w < ELEMENTSOF(words); w++) {
		size_t n = strlen(words[w]);

		for (size_t at = 0; at < n; at++)
			for (int d = -1; d <= 1; d++) {
				char t[32];

				memcpy(t, words[w], n);
				t[at] = (char) (d ? t[at] + d : t[at] ^ 0x20);
				assert_int_equal(span_eq_case_n((struct span) { t, t + n }, words[w], n),
						 strncasecmp(t, words[w], n) == 0 && !memchr(t, '\0', n));
			}
	}
}

/* text_line_split() and text_line_general() split l alike; returns whether it is a dmesg line with the tag. */
static bool split_same(const char *l, size_t len)
{
	struct span s = { l, l + len };
	struct text_line a, b;
	bool ka, kb;

	/* as mce_text_parser_feed() hands lines over: trimmed */
	span_trim(&s);
	memset(&a, 0x5a, sizeof(a));
	memset(&b, 0x5a, sizeof(b));
	ka = text_line_split(s, &a);
	kb = text_line_general(s, &b);
	assert_int_equal(ka, kb);
	if (!ka)
		return false;
	assert_ptr_equal(a.line.p, b.line.p);
	assert_ptr_equal(a.line.end, b.line.end);
	assert_ptr_equal(a.msg.p, b.msg.p);
	assert_ptr_equal(a.msg.end, b.msg.end);
	assert_ptr_equal(a.tagged.p, b.tagged.p);
	if (a.tagged.p)
		assert_ptr_equal(a.tagged.end, b.tagged.end);
	assert_int_equal(a.prefixed, b.prefixed);
	assert_int_equal(a.kernel_tag, b.kernel_tag);
	assert_int_equal(a.have_time, b.have_time);
	if (a.have_time)
		assert_int_equal(a.time_usec, b.time_usec);
	return s.p[0] == '[' && a.tagged.p && a.msg.p[0] == 'm';
}

/* Every line of the sample files, as the shortcut for plain dmesg lines and the general path split it. */
static void line_split_samples_same(void **state)
{
	static const char *const files[] = {
		"bad-forms.txt", "bad.txt", "edac-amd-old.txt", "edac-amd.txt", "edac-intel.txt",
		"json.txt", "kernel-dmesg.txt", "kernel-syslog.txt", "mcelog-decoded.txt",
		"mcelog-old.txt", "mcelog.txt", "no-status.txt", "panic-old.txt", "partial.txt",
		"ras-mc-ctl.txt", "rasdaemon.txt", "trace.txt", "../real-records.txt",
	};
	unsigned lines = 0, dmesg = 0;

	(void) state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char line[8192];
		FILE *f = open_sample(files[i]);

		while (fgets(line, sizeof(line), f)) {
			dmesg += split_same(line, strlen(line));
			lines++;
		}
		fclose(f);
	}
	/* the files were read, and lines the shortcut takes were among them */
	assert_true(lines > 250);
	assert_true(dmesg >= 10);
}

/*
 * The form table's kernel_skip sets against the recognisers: a line with
 * the kernel's tag whose head a row skips is one its recogniser does not
 * take, in any state of the open record.  Tried on every byte as the head
 * before the starts of every form's lines, and on every sample line put
 * under the tag.  The rows must take lines of the heads they keep, or
 * the test would show nothing.
 */
static bool skip_holds(struct mce_text_parser *p, const struct text_form *forms, size_t n,
		       const char *body, size_t len, unsigned *taken)
{
	static const char tag[] = "[    1.000000] mce: [Hardware Error]: ";
	char line[8400];
	struct text_line l;
	struct span s;

	memcpy(line, tag, sizeof(tag) - 1);
	memcpy(line + sizeof(tag) - 1, body, len);
	s = (struct span) { line, line + sizeof(tag) - 1 + len };
	span_trim(&s);
	if (!text_line_split(s, &l))
		return false;
	assert_true(l.kernel_tag);
	for (size_t i = 0; i < n; i++) {
		struct span b = l.msg;
		unsigned kind = forms[i].recognise(p, &l, &b);

		if (forms[i].kernel_skip & text_head(l.tagged))
			assert_int_equal(kind, 0);
		else if (kind)
			taken[i]++;
	}
	return true;
}

static void kernel_skip_sets(void **state)
{
	static const char *const tails[] = {
		"", " ", "PU 0: Machine Check Exception: 4", "PU 1: Machine Check Exception",
		"PU 0.", "PU:1 (17:1:2) MC4_STATUS[Over|CE|-|AddrV]: 0x9c2040000000011b",
		"PU 3: Machine Check: 0 Bank 5: bea0000000000108", "ank 4: b200000000070f0f",
		"Bank 4: b200000000070f0f", "C4_STATUS[-|CE|-]: 0x9c2040000000011b",
		"C4_ADDR: 0x1", "C4 Error Address: 0x1", "orrected error, no action required.",
		"ncorrected, software restartable error.", "eferred error, no action required.",
		"rror Addr: 0x0000000000001000", "PID: 0x0000009600050f00, Syndrome: 0x1",
		"PIN: 0x2b5a3f0c9d1e", "ache level: L3/GEN, tx: GEN, mem-tx: RD", "us error",
		"achine Check Exception", "achine check polling handler occurred on CPU 0.",
		"achine check poller occured on", "ilent Northbridge MCE",
		"orthbridge status a60000010005001b", "orthbridge Machine Check exception 1 0",
		"rror address 00000000f7fe0008", "B error address 1", "ddress: 1", "SC 1", "ROCESSOR 0:806f8",
		"rror uncorrected", "eneric read", "emory access", "un the above through 'mcelog --ascii'",
	};
	static const enum open_record opens[] = {
		OPEN_NONE, OPEN_KERNEL, OPEN_EDAC_AMD, OPEN_MCELOG, OPEN_MCELOG_DECODED, OPEN_RASDAEMON,
		OPEN_EDAC_INTEL, OPEN_PANIC, OPEN_RAS_MC_CTL, OPEN_K8_NB,
	};
	static const enum text_wrap wraps[] = { WRAP_NONE, WRAP_EDAC_CPU, WRAP_STATUS };
	static const char *const files[] = {
		"edac-amd-old.txt", "edac-amd.txt", "kernel-dmesg.txt", "kernel-syslog.txt",
		"mcelog-old.txt", "mcelog.txt", "panic-old.txt", "../real-records.txt",
	};
	struct mce_text_parser *p = mce_text_parser_new(&callbacks, NULL);
	unsigned taken[32] = { 0 }, lines = 0;
	size_t n;
	const struct text_form *forms = text_form_table(&n);

	(void) state;
	assert_non_null(p);
	assert_true(n <= 32);
	for (size_t o = 0; o < ELEMENTSOF(opens); o++)
		for (size_t w = 0; w < ELEMENTSOF(wraps); w++) {
			p->open = opens[o];
			p->wrap = wraps[w];
			p->rec.have = 0;
			p->emitted = false;
			p->last = 10;
			p->line = p->wrap_line = 11;
			for (unsigned c = 1; c < 256; c++)
				for (size_t t = 0; t < ELEMENTSOF(tails); t++) {
					char body[128];
					int len = snprintf(body, sizeof(body), "%c%s", c, tails[t]);

					lines += skip_holds(p, forms, n, body, (size_t) len, taken);
				}
			for (size_t i = 0; i < ELEMENTSOF(files); i++) {
				char line[8192];
				FILE *f = open_sample(files[i]);

				while (fgets(line, sizeof(line), f)) {
					struct text_line l;
					struct span s = { line, line + strlen(line) };

					/* the sample's message, its own prefix off, under the kernel's tag */
					span_trim(&s);
					if (!text_line_split(s, &l))
						continue;
					lines += skip_holds(p, forms, n, l.msg.p, span_len(l.msg), taken);
					if (l.tagged.p && span_len(l.tagged) > 0)
						lines += skip_holds(p, forms, n, l.tagged.p, span_len(l.tagged), taken);
				}
				fclose(f);
			}
		}
	assert_true(lines > 100000);
	/* every row that skips heads took lines of the heads it keeps */
	for (size_t i = 0; i < n; i++)
		if (forms[i].kernel_skip && forms[i].kernel_skip != TEXT_HEADS_ALL)
			assert_true(taken[i] > 0);
	mce_text_parser_free(p);
}

/*
 * Lines made to sit at the shortcut's edges: stamps of every shape and
 * length around the 41 bytes a stamp may have, what follows them, and
 * random bytes put in them.
 */
static void line_split_edges_same(void **state)
{
	static const char *const stamps[] = {
		"[0.0]", "[    0.000000]", "[  123.456789]", "[1.]", "[.1]", "[1.1", "[1]", "[]", "[",
		"[ 1.1 ]", "[1.1.1]", "[1:1.1]", "[a1.1]", "[1.1a]", "[+0.000013]", "[  +0.000013]",
		"[Mon Nov 20 10:00:01 2026]", "[May19 19:57]", "[\t1.1]", "[-1.1]", "[1.1]]",
	};
	static const char *const rests[] = {
		" mce: [Hardware Error]: CPU 1: Machine Check: 0 Bank 4: b200000000070f0f",
		" mce: [Hardware Error]: ", " mce: [Hardware Error]:", "mce: [Hardware Error]: TSC 1",
		"\t\tmce: [Hardware Error]:   PROCESSOR 0:806f8", " mce: [Hardware Error]", " mce:",
		" mce: [Hardware error]: x", " kernel: mce: [Hardware Error]: x", " host kernel: x",
		" EDAC MC0: [Hardware Error]: x", "", " ", " mce: [Hardware Error]:x",
		" mce:  [Hardware Error]: x", " [Hardware Error]: CPU:0 (19:1:1)",
	};
	static const char alphabet[] = { ' ', '\t', '.', ']', '[', '0', '9', ':', 'a', 'Z', '+', '\x80', '\0' };
	unsigned seed = 7;

	(void) state;
	for (size_t i = 0; i < sizeof(stamps) / sizeof(stamps[0]); i++)
		for (size_t j = 0; j < sizeof(rests) / sizeof(rests[0]); j++) {
			char line[256];
			int n = snprintf(line, sizeof(line), "%s%s", stamps[i], rests[j]);

			/* and every cut of it: a stamp at the end of the line */
			for (int len = 0; len <= n; len++)
				(void) split_same(line, (size_t) len);
		}
	/* spaces and digits that put the ']' before, at and after the 41st byte */
	for (unsigned spaces = 0; spaces < 44; spaces++)
		for (unsigned digits = 1; digits < 12; digits++) {
			char line[256];
			size_t n = 0;

			line[n++] = '[';
			for (unsigned k = 0; k < spaces; k++)
				line[n++] = ' ';
			line[n++] = '1';
			line[n++] = '.';
			for (unsigned k = 0; k < digits; k++)
				line[n++] = (char) ('0' + k % 10);
			n += (size_t) snprintf(line + n, sizeof(line) - n, "] mce: [Hardware Error]: MISC 1");
			(void) split_same(line, n);
		}
	/* each of the six microsecond digits and the ']' replaced by the bytes around the digits' */
	for (unsigned at = 0; at < 8; at++) {
		static const char bad[] = { '/', ':', '?', '@', 'a', ' ', '\xb0', '\x39', '\x30', '\xff' };

		for (size_t b = 0; b < sizeof(bad); b++) {
			char line[] = "[    0.123456] mce: [Hardware Error]: TSC 1";

			line[7 + at] = bad[b];
			(void) split_same(line, strlen(line));
		}
	}
	/* a good line with bytes changed at random */
	for (unsigned round = 0; round < 50000; round++) {
		char line[80] = "[   12.345678] mce: [Hardware Error]: TSC 1c8e0af8d4 ADDR 3fff88000";
		size_t len = strlen(line);

		for (unsigned k = 0; k < 1 + round % 3; k++) {
			seed = seed * 1103515245u + 12345u;
			line[(seed >> 16) % 40] = alphabet[(seed >> 8) % sizeof(alphabet)];
		}
		(void) split_same(line, len);
	}
}

/*
 * span_token() reads eight bytes a step: the same tokens as a byte at a
 * time, for lines of every length made of white space, control bytes,
 * bytes above 0x7f and plain ones, the token ends in every place of a word.
 */
static void span_token_words(void **state)
{
	static const char alphabet[] = { ' ', '\t', '\n', '\v', '\f', '\r', '\0', '\x01', '\x1f',
					 '!', 'A', 'z', '\x7f', '\x80', '\xa0', '\xff', '0', ':' };
	unsigned seed = 1;

	(void) state;
	for (unsigned round = 0; round < 20000; round++) {
		char line[48];
		size_t len = round % sizeof(line);
		struct span s, ref;

		for (size_t i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			/* mostly plain letters, so that tokens run long */
			line[i] = (seed >> 16) % 3 ? 'a' + (char) ((seed >> 20) % 26)
						   : alphabet[(seed >> 16) % sizeof(alphabet)];
		}
		s = (struct span) { line, line + len };
		ref = s;
		for (;;) {
			struct span t = span_token(&s), u;

			/* by hand, a byte at a time */
			while (ref.p < ref.end && is_space(*ref.p))
				ref.p++;
			u.p = ref.p;
			while (ref.p < ref.end && !is_space(*ref.p))
				ref.p++;
			u.end = ref.p;
			assert_ptr_equal(t.p, u.p);
			assert_ptr_equal(t.end, u.end);
			assert_ptr_equal(s.p, ref.p);
			if (span_len(t) == 0)
				break;
		}
	}
}

/*
 * The kernel's lines that belong to no record, found by their first byte:
 * every head is noise alone and with text after it; a head with its last
 * byte changed, or cut one byte short, is not, nor are a record's lines.
 */
static void kernel_noise_heads(void **state)
{
	static const char *const heads[] = {
		"Machine check events logged", "Run the above through", "Machine check: ",
		"Kernel panic", "Kernel Panic", "kernel panic", "Some CPUs didn't answer",
		"Timeout: Not all CPUs", "Hardware error from APEI", "event severity:", "Error ",
		"section_type:", "MCE records pool", "Fake kernel panic", "-- Reboot --", "-- Boot ",
		"-- Logs begin at ", "-- Journal begins at ", "-- No entries --", "HARDWARE ERROR",
		"This is not a software problem", "Run through mcelog --ascii",
	};
	static const char *const record_lines[] = {
		"CPU 58: Machine Check: 0 Bank 13: be00000000800400",
		"TSC d83b3e29a2 ADDR b3e29a2140 MISC 9001000f0000286 PPIN 2b5a3f0c9d1e",
		"PROCESSOR 0:806f8 TIME 1700000000 SOCKET 1 APIC 74 microcode 2b000461",
		"RIP 10:<ffffffff81a3c1f6> {native_safe_halt+0x6/0x10}", "", "-", "M", "T",
	};
	char buf[128];

	(void) state;
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		size_t n = strlen(heads[i]);

		assert_true(text_kernel_noise((struct span) { heads[i], heads[i] + n }));
		snprintf(buf, sizeof(buf), "%s and more", heads[i]);
		assert_true(text_kernel_noise((struct span) { buf, buf + strlen(buf) }));
		memcpy(buf, heads[i], n);
		buf[n - 1] = '#';
		assert_false(text_kernel_noise((struct span) { buf, buf + n }));
		assert_false(text_kernel_noise((struct span) { heads[i], heads[i] + n - 1 }));
	}
	for (size_t i = 0; i < sizeof(record_lines) / sizeof(record_lines[0]); i++) {
		const char *l = record_lines[i];

		assert_false(text_kernel_noise((struct span) { l, l + strlen(l) }));
	}
}

/*
 * "Machine check events logged" is looked for eight bytes a step: the same
 * answer as a plain search, for lines of every length holding the phrase
 * whole, cut, or with a byte changed, at every place, among many 'g's.
 */
static void kernel_noise_logged_anywhere(void **state)
{
	static const char phrase[] = "Machine check events logged";
	static const char fill[] = "gggl eodMachine check events lo";
	unsigned seed = 3;

	(void) state;
	for (unsigned round = 0; round < 50000; round++) {
		char line[80];
		size_t len = 1 + round % (sizeof(line) - 1), plen = sizeof(phrase) - 1, at;
		bool want = false;

		line[0] = 'x';          /* no noise head: the phrase alone decides */
		for (size_t i = 1; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			line[i] = fill[(seed >> 16) % (sizeof(fill) - 1)];
		}
		seed = seed * 1103515245u + 12345u;
		at = 1 + (seed >> 16) % len;
		if (at + plen <= len) {
			memcpy(line + at, phrase, plen);
			if (round % 3 == 0)
				line[at + (seed >> 24) % plen] ^= 0x20;   /* a byte changed */
		} else if (at < len)
			memcpy(line + at, phrase, len - at);          /* cut by the end */
		for (size_t i = 0; i + plen <= len && !want; i++)
			want = memcmp(line + i, phrase, plen) == 0;
		assert_int_equal(text_kernel_noise((struct span) { line, line + len }), want);
	}
}

static void mcelog_ascii(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "# two records, the second right after the first\n"
	      "CPU 0 2\n"
	      "PROCESSOR 0:0x106a0\n"
	      "STATUS 0x8800000000000080\n"
	      "MISC 0\n"
	      "CPU 0 BANK 13\n"
	      "PROCESSOR 0:0x806f0\n"
	      "STATUS 0x8000000010100080 MCGSTATUS 0\n"
	      "ADDR 0x12345000 MISC 0x86 PPIN 0x2b5a3f0c9d1e SOCKET 1 APIC 1a microcode 2b000461 SYND 5 IPID 7\n"
	      "\n"
	      "CPU 4 BANK 1 TSC 4e1d1f3c0\n"
	      "MCGCAP 0x1000c14 APICID 8 SOCKETID 3\n"
	      "CPUID Vendor Intel Family 6 Model 143 Step 8\n"
	      "STATUS 0xbd80000010100134 MCGSTATUS 0x7\n"
	      "RIP 10:ffffffff81000000\n"
	      "TIME 1700000000\n");
	assert_int_equal(s.n, 3);
	assert_int_equal(s.nd, 0);
	assert_int_equal(s.first[0], 2);
	assert_int_equal(s.last[0], 5);
	assert_int_equal(s.rec[0].bank, 2);
	assert_int_equal(s.rec[0].model, 0x1a);
	assert_true(s.rec[0].misc == 0);
	assert_true(mce_record_has(&s.rec[0], MCE_HAVE_MISC));
	assert_false(mce_record_has(&s.rec[0], MCE_HAVE_ADDR));

	assert_int_equal(s.first[1], 6);
	assert_int_equal(s.last[1], 9);
	assert_int_equal(s.rec[1].bank, 13);
	assert_true(s.rec[1].ppin == 0x2b5a3f0c9d1eull);
	assert_int_equal(s.rec[1].socket, 1);
	assert_int_equal(s.rec[1].apicid, 0x1a);
	assert_int_equal(s.rec[1].microcode, 0x2b000461);
	assert_true(s.rec[1].synd == 5 && s.rec[1].ipid == 7);

	assert_int_equal(s.rec[2].cpu, 4);
	assert_true(s.rec[2].tsc == 0x4e1d1f3c0ull);
	assert_true(s.rec[2].mcgcap == 0x1000c14);
	assert_int_equal(s.rec[2].socket, 3);
	assert_int_equal(s.rec[2].family, 6);
	assert_int_equal(s.rec[2].model, 143);
	assert_int_equal(s.rec[2].stepping, 8);
	assert_int_equal(s.rec[2].vendor, MCE_VENDOR_INTEL);
	assert_true(s.rec[2].ip == 0xffffffff81000000ull);
	assert_true(s.rec[2].time_usec == 1700000000ll * 1000000);
}

static void mcelog_decoded(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "Hardware event. This is not a software error.\n"
	      "MCE 0\n"
	      "CPU 0 BANK 2 \n"
	      "MISC 0 \n"
	      "TIME 1700000000 Mon Nov 20 10:00:00 2023\n"
	      "MCG status:\n"
	      "MCA: MEMORY CONTROLLER GEN_CHANNEL0_ERR\n"
	      "Memory DIMM ID of error: 0\n"
	      "STATUS 8800000000000080 MCGSTATUS 0\n"
	      "CPUID Vendor Intel Family 6 Model 26 Step 0\n"
	      "Hardware event. This is not a software error.\n"
	      "CPU 0 BANK 1 \n"
	      "STATUS bd80000010100134 MCGSTATUS 0\n"
	      "CPUID Vendor Intel Family 19 Model 1 Step 0\n");
	assert_int_equal(s.n, 2);
	assert_int_equal(s.nd, 0);
	assert_int_equal(s.first[0], 1);
	assert_int_equal(s.last[0], 10);
	assert_true(s.rec[0].status == 0x8800000000000080ull);
	assert_int_equal(s.rec[0].bank, 2);
	assert_int_equal(s.rec[0].model, 26);
	assert_true(s.rec[0].time_usec == 1700000000ll * 1000000);
	assert_true(s.rec[1].status == 0xbd80000010100134ull);
	assert_int_equal(s.rec[1].family, 19);
}

/*
 * 6.13 and later print the vendor data last, as __print_array() prints a u8
 * array: on AMD, MCA_SYND1 and MCA_SYND2 (here FRU text, illustrative).  An
 * AMD record whose array cannot hold both registers, or is not the
 * kernel's "{0x..,...}", is said by name, and the record kept without them.
 */
static void trace_pipe_vendor_data(void **state)
{
	struct seen s = { 0 };
	static const char head[] =
		"     kworker/3:1-211     [003] d..1.  77.000001: mce_record: CPU: 3, MCGc/s: 11c/0, "
		"MC17: 9c2040000000011b, IPID: 0000009600150f00, ADDR: 0000000abcd00000, MISC: d01a0ffe00000000, "
		"SYND: 000000005a020001, RIP: 00:<0000000000000000>, TSC: 0, PPIN: 2b5a3f0c9d1e, vendor: 2, "
		"CPUID: a10f11, time: 1700000000, socket: 0, APIC: 6, microcode: a0011d1, vendor data: ";
	char text[2048];

	(void) state;
	snprintf(text, sizeof(text),
		 "%s{0x43,0x50,0x55,0x30,0x5f,0x44,0x49,0x4d,0x4d,0x5f,0x41,0x31,0x0,0x0,0x0,0x0}\n"
		 "%s{0x0,0x0,0x0,0x0,0x0,0x0,0x0,0x0,0x0,0x0,0x0,0x0,0x0,0x0,0x0,0x0}\n"
		 "%s{0x43,0x50}\n"
		 "%s0x43 0x50\n", head, head, head, head);
	parse(&s, text);
	assert_int_equal(s.n, 4);
	assert_true(mce_record_has(&s.rec[0], MCE_HAVE_SYND1 | MCE_HAVE_SYND2 | MCE_HAVE_MICROCODE));
	assert_true(s.rec[0].synd1 == 0x4d49445f30555043ull);
	assert_true(s.rec[0].synd2 == 0x31415f4dull);
	assert_int_equal(s.rec[0].microcode, 0xa0011d1);
	/* all zero: the kernel read neither register */
	assert_false(s.rec[1].have & (MCE_HAVE_SYND1 | MCE_HAVE_SYND2));
	for (unsigned i = 2; i < 4; i++) {
		assert_false(s.rec[i].have & (MCE_HAVE_SYND1 | MCE_HAVE_SYND2));
		assert_int_equal(s.rec[i].microcode, 0xa0011d1);
	}
	assert_int_equal(s.nd, 2);
	assert_int_equal(s.dline[0], 3);
	assert_non_null(strstr(s.dmsg[0], "vendor data: 2 bytes"));
	assert_int_equal(s.dline[1], 4);
	assert_non_null(strstr(s.dmsg[1], "vendor data: expected"));
}

/*
 * 6.13 and later: the AMD EDAC decoder prints MCA_SYND1/2 as "FRU Text:"
 * when the bank holds FRU text (illustrative text; the line as
 * drivers/edac/mce_amd.c prints it), and __print_mce() prints them as
 * "SYND1"/"SYND2" pairs.  Both give the registers back; the first record
 * then decodes to its FRU text.  A "FRU Text:" longer than the 16 bytes
 * the registers hold is no kernel's: that line is refused by name, its
 * record kept without the registers.
 */
static void amd_fru_text_and_synd12(void **state)
{
	struct seen s = { 0 };
	struct mce_decoded d;

	(void) state;
	parse(&s,
	      "[ 77.000001] [Hardware Error]: Corrected error, no action required.\n"
	      "[ 77.000002] [Hardware Error]: CPU:3 (19:11:1) MC17_STATUS[-|CE|MiscV|AddrV|-|-|SyndV|CECC|-|-|-]: 0x9c2040000000011b\n"
	      "[ 77.000003] [Hardware Error]: Error Addr: 0x0000000abcd00000\n"
	      "[ 77.000004] [Hardware Error]: IPID: 0x0000009600150f00, Syndrome: 0x000000005a020001\n"
	      "[ 77.000005] [Hardware Error]: FRU Text: CPU0_DIMM_A1\n"
	      "[ 77.000006] [Hardware Error]: Unified Memory Controller Ext. Error Code: 0, DRAM ECC error.\n"
	      "[ 77.000007] [Hardware Error]: cache level: L3/GEN, tx: GEN, mem-tx: RD\n"
	      "[ 78.000001] mce: [Hardware Error]: CPU 3: Machine Check: 0 Bank 17: 9c2040000000011b\n"
	      "[ 78.000002] mce: [Hardware Error]: TSC 0 ADDR abcd00000 MISC d01a0ffe00000000 "
	      "SYND 5a020001 SYND1 4d49445f30555043 SYND2 31415f4d IPID 9600150f00\n"
	      "[ 78.000003] mce: [Hardware Error]: PROCESSOR 2:a10f11 TIME 1700000000 SOCKET 0 APIC 6 microcode a0011d1\n"
	      "[ 79.000001] [Hardware Error]: Corrected error, no action required.\n"
	      "[ 79.000002] [Hardware Error]: CPU:3 (19:11:1) MC17_STATUS[-|CE|MiscV|AddrV|-|-|SyndV|CECC|-|-|-]: 0x9c2040000000011b\n"
	      "[ 79.000003] [Hardware Error]: FRU Text: CPU0_DIMM_A1_TOO_LONG\n"
	      "[ 79.000004] [Hardware Error]: cache level: L3/GEN, tx: GEN, mem-tx: RD\n");
	assert_int_equal(s.n, 3);
	assert_true(mce_record_has(&s.rec[0], MCE_HAVE_SYND1 | MCE_HAVE_SYND2));
	assert_true(s.rec[0].synd1 == 0x4d49445f30555043ull);
	assert_true(s.rec[0].synd2 == 0x31415f4dull);
	mce_decode(&s.rec[0], &d);
	assert_string_equal(d.fru_text, "CPU0_DIMM_A1");
	assert_true(mce_record_has(&s.rec[1], MCE_HAVE_SYND1 | MCE_HAVE_SYND2 | MCE_HAVE_IPID));
	assert_true(s.rec[1].synd1 == 0x4d49445f30555043ull);
	assert_true(s.rec[1].synd2 == 0x31415f4dull);
	assert_true(s.rec[1].ipid == 0x9600150f00ull);
	mce_decode(&s.rec[1], &d);
	assert_string_equal(d.fru_text, "CPU0_DIMM_A1");
	assert_true(s.rec[2].status == 0x9c2040000000011bull);
	assert_false(s.rec[2].have & (MCE_HAVE_SYND1 | MCE_HAVE_SYND2));
	assert_int_equal(s.nd, 1);
	assert_int_equal(s.dline[0], 13);
	assert_non_null(strstr(s.dmsg[0], "FRU Text: expected 1 to 16 characters"));
}

static void trace_pipe(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "     kworker/2:1-95      [002] d..1.  5123.457001: mce_record: CPU: 2, MCGc/s: 11c/0, "
	      "MC5: 9c2040000000011b, IPID: 0000009600050f00, ADDR: 0000000abcd00000, MISC: d01a0ffe00000000, "
	      "SYND: 000000005a020001, RIP: 00:<0000000000000000>, TSC: 0, PPIN: 2b5a3f0c9d1e, vendor: 2, "
	      "CPUID: a20f10, time: 1700000000, socket: 0, APIC: 4, microcode: a201016\n"
	      "     kworker/0:2-4101    [000] d..1.  9999.000001: mce_record: CPU: 0, MCGc/s: f000c14/0, "
	      "MC7: 8c00004000010091, IPID: 0000000000000000, ADDR/MISC/SYND: 00000001f3a5c4c0/0000000140070086/"
	      "0000000000000000, RIP: 00:<0000000000000000>, TSC: 0, PPIN: 0, PROCESSOR: 0:50654, TIME: 1700474401, "
	      "SOCKET: 1, APIC: 26, vendor data: {0x1,0x2}\n"
	      "mce_record: CPU: 1, MC4: 12zz\n");
	assert_int_equal(s.n, 2);
	assert_int_equal(s.rec[0].cpu, 2);
	assert_int_equal(s.rec[0].bank, 5);
	assert_true(s.rec[0].mcgcap == 0x11c);
	assert_true(s.rec[0].ipid == 0x9600050f00ull);
	assert_int_equal(s.rec[0].vendor, MCE_VENDOR_AMD);
	assert_int_equal(s.rec[0].family, 0x19);
	assert_int_equal(s.rec[0].apicid, 4);
	assert_int_equal(s.rec[0].microcode, 0xa201016);
	assert_true(s.rec[1].addr == 0x1f3a5c4c0ull);
	assert_true(s.rec[1].misc == 0x140070086ull);
	assert_true(mce_record_has(&s.rec[1], MCE_HAVE_SYND));
	assert_int_equal(s.rec[1].vendor, MCE_VENDOR_INTEL);
	assert_int_equal(s.rec[1].model, 0x55);
	assert_int_equal(s.rec[1].apicid, 0x26);
	assert_int_equal(s.rec[1].socket, 1);
	assert_int_equal(s.nd, 1);
	assert_int_equal(s.dkind[0], MCE_TEXT_MALFORMED);
	assert_int_equal(s.dline[0], 3);
	assert_non_null(strstr(s.dmsg[0], "12zz"));
}

/*
 * rasdaemon's cpu_type names the vendor; should a line hold it twice (a
 * bank's text quoting another), the vendor first in the parser's table
 * wins, wherever on the line: AMD, then Intel, Hygon, Zhaoxin.
 */
static void rasdaemon_cpu_type(void **state)
{
	static const struct { const char *types; enum mce_vendor want; } cases[] = {
		{ "cpu_type= AMD Scalable MCA,", MCE_VENDOR_AMD },
		{ "cpu_type= Intel,", MCE_VENDOR_INTEL },
		{ "cpu_type= Hygon,", MCE_VENDOR_HYGON },
		{ "cpu_type= Zhaoxin,", MCE_VENDOR_ZHAOXIN },
		{ "cpu_type= Intel, cpu_type= AMD Scalable MCA,", MCE_VENDOR_AMD },
		{ "cpu_type= Zhaoxin, cpu_type= Hygon,", MCE_VENDOR_HYGON },
		{ "cpu_type= Hygon, cpu_type= Zhaoxin,", MCE_VENDOR_HYGON },
		{ "cpu_type= cpu_type= Intel,", MCE_VENDOR_INTEL },
		{ "cpu_type=Intel, cpu_type= Other,", MCE_VENDOR_UNKNOWN },
		{ "xcpu_type= AMD,", MCE_VENDOR_AMD },
		{ "cpu_type= AM,", MCE_VENDOR_UNKNOWN },
	};

	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct seen s = { 0 };
		char text[512];

		snprintf(text, sizeof(text),
			 "           <...>-2412  [002]     0.000000: mce_record:            "
			 "2023-11-20 10:00:00 +0000 bank=17, status= 9c2040000000011b, %s cpu= 2, "
			 "socketid= 0, addr= abcd00000, mcgstatus= 0, mcgcap= 11c, apicid= 4\n",
			 cases[i].types);
		parse(&s, text);
		assert_int_equal(s.n, 1);
		assert_int_equal(s.rec[0].vendor, cases[i].want);
		assert_int_equal(mce_record_has(&s.rec[0], MCE_HAVE_VENDOR), cases[i].want != MCE_VENDOR_UNKNOWN);
	}
}

static void rasdaemon(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "           <...>-2412  [002]     0.000000: mce_record:            2023-11-20 10:00:00 +0000 "
	      "Unified Memory Controller (bank=17), status= 9c2040000000011b, Corrected error, no action "
	      "required., mci=CECC, mca= DRAM ECC error.\n"
	      " Memory Error 'mem-tx: generic read, tx: generic, level: L3/generic', memory_channel=0,csrow=0, "
	      "cpu_type= AMD Scalable MCA, cpu= 2, socketid= 0, misc= d01a0ffe00000000, addr= abcd00000, "
	      "synd= 5a020001, ipid= 9600050f00, mcgstatus= 0, mcgcap= 11c, apicid= 4\n"
	      "MCE events:\n"
	      "1 2023-11-20 10:05:00 +0000 error: Corrected error, bank Memory Controller, mcg mcgstatus=0, "
	      "mci Corrected_error, mcgcap=0x0f000c14, status=0x8c00004000010091, addr=0x1f3a5c4c0, "
	      "misc=0x140070086, walltime=0x6557b821, cpu=0x0000000c, cpuid=0x00050654, apicid=0x00000026, "
	      "socketid=0x00000001, bank=0x00000007\n");
	assert_int_equal(s.n, 2);
	assert_int_equal(s.first[0], 1);
	assert_int_equal(s.last[0], 2);
	assert_int_equal(s.rec[0].bank, 17);         /* "(bank=17)" is decimal */
	assert_int_equal(s.rec[0].cpu, 2);
	assert_int_equal(s.rec[0].vendor, MCE_VENDOR_AMD);
	assert_true(s.rec[0].ipid == 0x9600050f00ull);
	assert_true(s.rec[0].addr == 0xabcd00000ull);
	assert_int_equal(s.rec[0].apicid, 4);
	/* vendor but no family: one PARTIAL warning */
	assert_int_equal(s.nd, 1);
	assert_int_equal(s.dkind[0], MCE_TEXT_PARTIAL);

	assert_int_equal(s.rec[1].cpu, 12);
	assert_int_equal(s.rec[1].bank, 7);
	assert_int_equal(s.rec[1].model, 0x55);
	assert_int_equal(s.rec[1].vendor, MCE_VENDOR_INTEL);
	assert_true(s.rec[1].time_usec == 0x6557b821ll * 1000000);
	/* ras-mc-ctl leaves out zero columns: mcgstatus=0 is known */
	assert_true(mce_record_has(&s.rec[1], MCE_HAVE_MCGSTATUS));
}

static void json_lines(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "{\"cpu\":3,\"bank\":5,\"vendor\":\"amd\",\"family\":25,\"model\":33,\"status\":\"0xbea0000000000108\"}\n"
	      "Nov 20 10:00:01 host mcelogd[812]: {\"cpu\":1,\"bank\":4,\"status\":\"0x8c00004000010091\"}\n"
	      "{\"cpu\": 1, \"status\": \"0x1\"\n"
	      "{\"cpu\": 1, \"status\": \"0xzz\"}\n");
	assert_int_equal(s.n, 2);
	assert_int_equal(s.rec[0].family, 25);
	assert_int_equal(s.rec[1].cpu, 1);
	assert_int_equal(s.nd, 3);
	assert_int_equal(s.dkind[0], MCE_TEXT_PARTIAL);     /* record 2: no identity */
	assert_int_equal(s.dline[0], 2);
	assert_int_equal(s.dkind[1], MCE_TEXT_MALFORMED);
	assert_int_equal(s.dline[1], 3);
	assert_non_null(strstr(s.dmsg[1], "JSON"));
	assert_int_equal(s.dkind[2], MCE_TEXT_MALFORMED);
	assert_int_equal(s.dline[2], 4);
	assert_non_null(strstr(s.dmsg[2], "status"));
}

static void malformed_and_partial(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "CPU 0 BANK 4\n"                  /* 1 */
	      "STATUS zz\n"                     /* 2: malformed, names the key */
	      "STATUS 0x8c00004000010091\n"     /* 3 */
	      "ADDR 0x1ffffffffffffffff\n"      /* 4: overflow */
	      "\n"                              /* 5: ends record 1 */
	      "this is garbage\n"               /* 6: unknown */
	      "CPU 1 BANK 2\n"                  /* 7: record without STATUS */
	      "MISC 5\n"                        /* 8 */
	      "\n"
	      "TSC 10 BOGUS 12\n");             /* 10: unknown key in a keyword line */
	assert_int_equal(s.n, 1);
	assert_int_equal(s.first[0], 1);
	assert_int_equal(s.last[0], 3);
	assert_false(mce_record_has(&s.rec[0], MCE_HAVE_ADDR));

	assert_int_equal(s.dkind[0], MCE_TEXT_MALFORMED);
	assert_int_equal(s.dline[0], 2);
	assert_non_null(strstr(s.dmsg[0], "STATUS"));
	assert_non_null(strstr(s.dmsg[0], "zz"));
	assert_int_equal(s.dkind[1], MCE_TEXT_MALFORMED);
	assert_int_equal(s.dline[1], 4);
	assert_non_null(strstr(s.dmsg[1], "range"));
	assert_int_equal(s.dkind[2], MCE_TEXT_PARTIAL);     /* record 1: no identity */
	assert_int_equal(s.dkind[3], MCE_TEXT_UNKNOWN);
	assert_int_equal(s.dline[3], 6);
	assert_int_equal(s.dkind[4], MCE_TEXT_PARTIAL);     /* lines 7-8: no STATUS, dropped */
	assert_int_equal(s.dline[4], 7);
	assert_non_null(strstr(s.dmsg[4], "STATUS"));
	assert_int_equal(s.dkind[5], MCE_TEXT_MALFORMED);
	assert_int_equal(s.dline[5], 10);
	assert_non_null(strstr(s.dmsg[5], "BOGUS"));
	assert_int_equal(s.nd, 6);   /* a rejected line begins no record */
}

/*
 * Lines more than one form could take: the order of the form table.  The
 * kernel's hardware-error tag outranks every other marker, an open
 * rasdaemon record takes its next line whatever it starts with, and kernel
 * chatter neither ends an mcelog record nor counts as garbage.
 */
static void form_precedence(void **state)
{
	struct seen s = { 0 };

	(void) state;
	parse(&s,
	      "mce: [Hardware Error]: mce_record: CPU: 0, MCGc/s: 0/0, MC5: 9c2040000000011b\n"
	      "mce_record: Unified Memory Controller (bank=17), status= 9c2040000000011b, "
	      "Corrected error, no action required.\n"
	      "EDAC memory_channel=0, cpu_type= AMD Scalable MCA, cpu= 2, socketid= 0, apicid= 4\n"
	      "CPU 1 BANK 3\n"
	      "mce: CPU1: Thermal monitoring enabled (TM1)\n"
	      "STATUS 0x8800000000000080\n");
	assert_int_equal(s.n, 2);
	assert_int_equal(s.nd, 2);     /* the two records' missing CPU family/model */
	assert_int_equal(s.dkind[0], MCE_TEXT_PARTIAL);
	assert_int_equal(s.dkind[1], MCE_TEXT_PARTIAL);

	assert_int_equal(s.first[0], 2);
	assert_int_equal(s.last[0], 3);
	assert_int_equal(s.rec[0].bank, 17);
	assert_int_equal(s.rec[0].cpu, 2);
	assert_int_equal(s.rec[0].apicid, 4);
	assert_int_equal(s.rec[0].vendor, MCE_VENDOR_AMD);

	assert_int_equal(s.first[1], 4);
	assert_int_equal(s.last[1], 6);
	assert_int_equal(s.rec[1].cpu, 1);
	assert_int_equal(s.rec[1].bank, 3);
	assert_true(s.rec[1].status == 0x8800000000000080ull);
}

static void hostile(void **state)
{
	struct seen s = { 0 };
	struct mce_text_parser *p = mce_text_parser_new(&callbacks, &s);
	size_t big = 1 << 20;
	char *line = malloc(big);
	static const char nul_line[] = "STATUS 0x1\0 ADDR 5";
	static const char *const nasty[] = {
		"STATUS 99999999999999999999999999",
		"mce: [Hardware Error]: CPU 99999999999: Machine Check: 0 Bank 1: 1",
		"[Hardware Error]: CPU:1 (ffffffffff:1:1) MC1_STATUS[]: 0x1",
		"[Hardware Error]: CPU:1 (19:1",
		"[Hardware Error]: CPU:",
		"mce_record: CPU: 1, MCGc/s: , MC: 1",
		"mce_record: CPU: 1, ADDR/MISC/SYND: 1/2",
		"mce_record: status= , bank=",
		"RIP 10:<",
		"RIP",
		"PROCESSOR :",
		"CPUID Vendor",
		"TIME 9223372036854775807",
		"[",
		"{",
		"Nov 20 10:00:01",
		"2026-11-20T10:00:00+99:99 h k: STATUS 1",
	};

	(void) state;
	assert_non_null(line);
	memset(line, 'A', big);
	assert_int_equal(mce_text_parser_feed(p, line, big), 0);
	line[0] = '{';
	assert_int_equal(mce_text_parser_feed(p, line, big), 0);
	memcpy(line, "STATUS ", 7);
	memset(line + 7, 'f', big - 7);
	assert_int_equal(mce_text_parser_feed(p, line, big), 0);
	assert_int_equal(mce_text_parser_feed(p, nul_line, sizeof(nul_line) - 1), 0);
	for (size_t i = 0; i < sizeof(nasty) / sizeof(nasty[0]); i++)
		assert_int_equal(mce_text_parser_feed(p, nasty[i], strlen(nasty[i])), 0);
	assert_int_equal(mce_text_parser_finish(p), 0);
	mce_text_parser_free(p);
	free(line);
	assert_true(s.nd > 5);
}

static void callback_stops(void **state)
{
	struct seen s = { .stop_after = 1 };
	struct mce_text_parser *p = mce_text_parser_new(&callbacks, &s);
	const char *l1 = "{\"status\":\"0x1\",\"vendor\":\"intel\",\"family\":6,\"model\":85}";

	(void) state;
	assert_int_equal(mce_text_parser_feed(p, l1, strlen(l1)), -ECANCELED);
	/* stopped: later input is refused and not parsed */
	assert_int_equal(mce_text_parser_feed(p, l1, strlen(l1)), -ECANCELED);
	assert_int_equal(mce_text_parser_finish(p), -ECANCELED);
	assert_int_equal(s.n, 1);
	mce_text_parser_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernel_console),
		cmocka_unit_test(kernel_prefixes),
		cmocka_unit_test(syslog_without_date),
		cmocka_unit_test(dmesg_human_deltas),
		cmocka_unit_test(default_cpu),
		cmocka_unit_test(edac_amd),
		cmocka_unit_test(events_logged_anywhere),
		cmocka_unit_test(kernel_noise_in_record),
		cmocka_unit_test(edac_intel_skx),
		cmocka_unit_test(edac_intel_old_layout),
		cmocka_unit_test(panic_old_forms),
		cmocka_unit_test(k8_northbridge_lines),
		cmocka_unit_test(k8_northbridge_bad_status),
		cmocka_unit_test(panic_poller_as_printed),
		cmocka_unit_test(panic_quoted_in_mail),
		cmocka_unit_test(panic_glued_printk_level),
		cmocka_unit_test(panic_wall_with_host),
		cmocka_unit_test(kernel_rip_symbol_split),
		cmocka_unit_test(panic_banner_x86_64),
		cmocka_unit_test(edac_amd_cpu_without_tuple),
		cmocka_unit_test(edac_amd_error_address),
		cmocka_unit_test(kernel_wrapped_at_80),
		cmocka_unit_test(kernel_wrapped_every_cut),
		cmocka_unit_test(edac_amd_mail_wrapped),
		cmocka_unit_test(edac_amd_mail_wrapped_quoted),
		cmocka_unit_test(edac_amd_mail_wrapped_bar_quoted),
		cmocka_unit_test(bar_quoting),
		cmocka_unit_test(journal_markers),
		cmocka_unit_test(edac_amd_old),
		cmocka_unit_test(mcelog_ascii),
		cmocka_unit_test(kv_every_key_and_value_edges),
		cmocka_unit_test(kv_foreseen_same),
		cmocka_unit_test(kv_time_then_date),
		cmocka_unit_test(span_token_words),
		cmocka_unit_test(span_case_as_strncasecmp),
		cmocka_unit_test(line_split_samples_same),
		cmocka_unit_test(line_split_edges_same),
		cmocka_unit_test(kernel_skip_sets),
		cmocka_unit_test(kernel_noise_heads),
		cmocka_unit_test(kernel_noise_logged_anywhere),
		cmocka_unit_test(mcelog_decoded),
		cmocka_unit_test(trace_pipe),
		cmocka_unit_test(amd_fru_text_and_synd12),
		cmocka_unit_test(trace_pipe_vendor_data),
		cmocka_unit_test(rasdaemon),
		cmocka_unit_test(rasdaemon_cpu_type),
		cmocka_unit_test(json_lines),
		cmocka_unit_test(malformed_and_partial),
		cmocka_unit_test(form_precedence),
		cmocka_unit_test(hostile),
		cmocka_unit_test(callback_stops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
