/* SPDX-License-Identifier: MIT */
/*
 * Older sb_edac's DIMM lines that come after later records (lib/text/
 * edac-intel.c, the hold in lib/text/assemble.c): joined to the record
 * they name, records out in input order, and the bounds on the hold.
 * The lines are the layout of tests/data/decode/edac-intel-old.txt (a
 * real paste) with other addresses.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "macro.h"
#include "record-text.h"

#define MAX_SEEN 24     /* the bound's test hands out 17 records */
#include "text-seen.h"

struct text {
	char buf[16384];
	size_t len;
};

_printf_(2, 3)
static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, sizeof(t->buf) - t->len, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t) n < sizeof(t->buf) - t->len);
	t->len += (size_t) n;
}

/* One record as older sb_edac printed it: bank 5, a memory read CE with ADDRV (3 lines). */
static void add_regs(struct text *t, uint64_t addr)
{
	add(t, "sbridge: HANDLING MCE MEMORY ERROR\n"
	       "CPU 0: Machine Check Exception: 0 Bank 5: 8c00004000010093\n"
	       "TSC 0 ADDR %" PRIx64 " MISC 20400e0e86 PROCESSOR 0:206d7 TIME 1613850532 SOCKET 0 APIC 0\n",
	    addr);
}

/* n records, at addresses 0x1000, 0x2000, ... */
static void add_records(struct text *t, unsigned n)
{
	for (uint64_t a = 1; a <= n; a++)
		add_regs(t, a << 12);
}

/* The EDAC core's DIMM line for it, naming channel c. */
static void add_dimm(struct text *t, uint64_t addr, unsigned c)
{
	add(t, "EDAC MC0: CE row 3, channel 0, label \"CPU_SrcID#0_Channel#%u_DIMM#1\": 1 Unknown "
	       "error(s): memory read on FATAL area : cpu=0 Err=0001:0093 (ch=3), addr = 0x%" PRIx64
	       " => socket=0, Channel=%u(mask=8), rank=2\n", c, addr, c);
}

/* A parser fed by hand, to look at what went out before the end of input. */
static struct mce_text_parser *new_parser(struct seen *s)
{
	struct mce_text_parser *p = mce_text_parser_new(&callbacks, s);

	assert_non_null(p);
	return p;
}

/* The lines of t, without finishing: what is held stays held. */
static void feed_only(struct mce_text_parser *p, const char *text)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t) (nl - text) : strlen(text);

		assert_int_equal(mce_text_parser_feed(p, text, len), 0);
		text += len + (nl ? 1 : 0);
	}
}

/* The end of input: what is still held goes out. */
static void finish(struct mce_text_parser *p)
{
	assert_int_equal(mce_text_parser_finish(p), 0);
	mce_text_parser_free(p);
}

/* Diagnostic i is a warning on line n whose message holds want. */
static void assert_said(const struct seen *s, unsigned i, unsigned line, const char *want)
{
	assert_true(i < s->nd);
	if (s->dkind[i] != MCE_TEXT_PARTIAL || s->dline[i] != line || !strstr(s->dmsg[i], want))
		fail_msg("diagnostic %u: kind %d line %u '%s'; want a warning on line %u with '%s'", i,
			 s->dkind[i], s->dline[i], s->dmsg[i], line, want);
}

static void assert_dimm(const struct seen *s, unsigned i, uint64_t addr, unsigned c)
{
	const struct mce_record *r = &s->rec[i];

	assert_true(r->addr == addr);
	assert_true(mce_record_has(r, MCE_HAVE_DIMM_SOCKET | MCE_HAVE_DIMM_CHANNEL |
				      MCE_HAVE_DIMM_SLOT | MCE_HAVE_DIMM_RANK));
	assert_int_equal(r->dimm_channel, c);
	assert_int_equal(r->dimm_slot, 1);
	assert_int_equal(r->dimm_rank, 2);
}

static void assert_no_dimm(const struct seen *s, unsigned i, uint64_t addr)
{
	assert_true(s->rec[i].addr == addr);
	assert_false(mce_record_has(&s->rec[i], MCE_HAVE_DIMM_CHANNEL));
}

/* Three records, then their DIMM lines in another order: each joins its own. */
static void three_out_of_order(void **state)
{
	struct text t = { .len = 0 };
	struct seen s = { 0 };

	(void) state;
	add_records(&t, 3);
	add_dimm(&t, 0x3000, 3);
	add_dimm(&t, 0x1000, 1);
	add_dimm(&t, 0x2000, 2);
	parse(&s, t.buf);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.nd, 0);
	assert_dimm(&s, 0, 0x1000, 1);
	assert_dimm(&s, 1, 0x2000, 2);
	assert_dimm(&s, 2, 0x3000, 3);
	/* from the register lines to the DIMM line, as when it comes next */
	assert_int_equal(s.first[0], 2);
	assert_int_equal(s.last[0], 11);
	assert_int_equal(s.first[1], 5);
	assert_int_equal(s.last[1], 12);
	assert_int_equal(s.first[2], 8);
	assert_int_equal(s.last[2], 10);
}

/* A DIMM line naming no record, open or held: today's warnings; the records go out without. */
static void dimm_for_no_record(void **state)
{
	struct text t = { .len = 0 };
	struct seen s = { 0 };

	(void) state;
	add_records(&t, 2);
	add_dimm(&t, 0x5000, 1);          /* line 7: the open record's address is another */
	add_dimm(&t, 0x6000, 1);          /* line 8: none open, none held names it */
	add(&t, "EDAC MC0: CE row 3, channel 0, label \"CPU_SrcID#0_Channel#3_DIMM#1\": 1 Unknown "
		"error(s): memory read on FATAL area : cpu=0 Err=0008:0093 (ch=3), addr = 0x1000 "
		"=> socket=0, Channel=3(mask=8), rank=2\n");   /* line 9: the address, not the error */
	parse(&s, t.buf);
	assert_int_equal(s.n, 2);
	assert_no_dimm(&s, 0, 0x1000);
	assert_no_dimm(&s, 1, 0x2000);
	assert_int_equal(s.nd, 3);
	assert_said(&s, 0, 7, "names another address than the record before it (ADDR 0x2000)");
	assert_said(&s, 1, 8, "without a machine-check record before it");
	assert_said(&s, 2, 9, "without a machine-check record before it");
}

/* 17 records awaiting: the 17th ends the hold, the 16 go out without; the 17th still joins. */
static void seventeen_awaiting(void **state)
{
	struct text t = { .len = 0 };
	struct seen s = { 0 };
	struct mce_text_parser *p = new_parser(&s);

	(void) state;
	add_records(&t, 16);
	feed_only(p, t.buf);
	assert_int_equal(s.n, 0);         /* 15 held, the 16th open */

	t.len = 0;
	add_regs(&t, 17 << 12);
	add(&t, "\n");                    /* the 17th ends: no room for it */
	feed_only(p, t.buf);
	assert_int_equal(s.n, 16);

	t.len = 0;
	add_dimm(&t, 1 << 12, 1);         /* the first's, too late */
	add_dimm(&t, 17 << 12, 7);
	feed_only(p, t.buf);
	finish(p);
	assert_int_equal(s.n, 17);
	for (unsigned i = 0; i < 16; i++)
		assert_no_dimm(&s, i, (uint64_t) (i + 1) << 12);
	assert_dimm(&s, 16, 17 << 12, 7);
	assert_int_equal(s.nd, 1);
	assert_said(&s, 0, 16 * 3 + 5, "without a machine-check record before it");
}

/* A DIMM line up to 64 lines after the record joins it; after 64 lines with none, the hold is over. */
static void line_bound(void **state)
{
	(void) state;
	for (unsigned blanks = 63; blanks <= 64; blanks++) {
		struct text t = { .len = 0 };
		struct seen s = { 0 };

		add_regs(&t, 0x1000);
		for (unsigned i = 0; i < blanks; i++)
			add(&t, "\n");
		add_dimm(&t, 0x1000, 1);
		parse(&s, t.buf);
		assert_int_equal(s.n, 1);
		if (blanks == 63) {
			assert_dimm(&s, 0, 0x1000, 1);
			assert_int_equal(s.nd, 0);
		} else {
			assert_no_dimm(&s, 0, 0x1000);
			assert_int_equal(s.nd, 1);
			assert_said(&s, 0, 3 + 65, "without a machine-check record before it");
		}
	}

	/* held, then the hold's lines run out while other lines come: it goes out then, not at the end */
	{
		struct text t = { .len = 0 };
		struct seen s = { 0 };
		struct mce_text_parser *p = new_parser(&s);

		add_regs(&t, 0x1000);
		add(&t, "\n");             /* the record ends: held */
		for (unsigned i = 0; i < 63; i++)
			add(&t, "Feb 21 04:48:53 localhost kernel: eth0: link up\n");
		feed_only(p, t.buf);
		assert_int_equal(s.n, 0);
		feed_only(p, "Feb 21 04:48:53 localhost kernel: eth0: link down\n");
		assert_int_equal(s.n, 1);
		finish(p);
		assert_no_dimm(&s, 0, 0x1000);
		assert_int_equal(s.nd, 0);
	}
}

/*
 * Held at the end of input: out at finish, in order, as they would have
 * been without the hold, their warnings on their own lines.
 */
static void held_at_end(void **state)
{
	struct text t = { .len = 0 };
	struct seen s = { 0 };
	struct mce_text_parser *p = new_parser(&s);

	(void) state;
	add_regs(&t, 0x1000);
	add(&t, "sbridge: HANDLING MCE MEMORY ERROR\n"
		"CPU 2: Machine Check Exception: 0 Bank 5: 8c00004000010093\n"
		"TSC 0 ADDR 2000 MISC 20400e0e86\n");          /* no PROCESSOR: no CPU identity */
	add_regs(&t, 0x3000);
	feed_only(p, t.buf);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.nd, 0);
	finish(p);
	assert_int_equal(s.n, 3);
	assert_no_dimm(&s, 0, 0x1000);
	assert_no_dimm(&s, 1, 0x2000);
	assert_no_dimm(&s, 2, 0x3000);
	assert_int_equal(s.first[1], 5);
	assert_int_equal(s.last[1], 6);
	assert_int_equal(s.nd, 1);
	assert_said(&s, 0, 5, "record (lines 5-6) has no CPU identity");
}

/* Records of other forms while a hold is on are held too: all go out in input order. */
static void other_forms_in_order(void **state)
{
	struct text t = { .len = 0 };
	struct seen s = { 0 };

	(void) state;
	add_regs(&t, 0x1000);
	add(&t, "[ 5123.1] mce: [Hardware Error]: CPU 3: Machine Check: 0 Bank 1: 9000004000010005\n"
		"[ 5123.1] mce: [Hardware Error]: TSC 0\n"
		"[ 5123.1] mce: [Hardware Error]: PROCESSOR 0:206d7 TIME 1613850532 SOCKET 0 APIC 6\n");
	add_regs(&t, 0x2000);
	add(&t, "[ 5123.2] mce: [Hardware Error]: CPU 4: Machine Check: 0 Bank 2: 9000004000010005\n"
		"[ 5123.2] mce: [Hardware Error]: TSC 0\n"
		"[ 5123.2] mce: [Hardware Error]: PROCESSOR 0:206d7 TIME 1613850532 SOCKET 0 APIC 8\n");
	add_dimm(&t, 0x2000, 2);
	add_dimm(&t, 0x1000, 1);
	parse(&s, t.buf);
	assert_int_equal(s.n, 4);
	assert_int_equal(s.nd, 0);
	assert_dimm(&s, 0, 0x1000, 1);
	assert_int_equal(s.rec[1].cpu, 3);
	assert_false(mce_record_has(&s.rec[1], MCE_HAVE_DIMM_CHANNEL));
	assert_dimm(&s, 2, 0x2000, 2);
	assert_int_equal(s.rec[3].cpu, 4);
	for (unsigned i = 1; i < s.n; i++)
		assert_true(s.first[i] > s.first[i - 1]);
}

/* A record sb_edac placed in no DIMM (no ADDRV, or not a memory controller's) starts no hold. */
static void no_hold_without_addrv(void **state)
{
	struct seen s = { 0 };
	struct mce_text_parser *p = new_parser(&s);

	(void) state;
	feed_only(p, "sbridge: HANDLING MCE MEMORY ERROR\n"
		     "CPU 0: Machine Check Exception: 0 Bank 11: 8800004600800093\n"
		     "TSC 0 ADDR 0 MISC 4900002000200c8c PROCESSOR 0:206d7 TIME 1613850532 SOCKET 0 APIC 0\n"
		     "sbridge: HANDLING MCE MEMORY ERROR\n");
	assert_int_equal(s.n, 1);
	feed_only(p, "CPU 0: Machine Check Exception: 0 Bank 5: 8c00004000000005\n"
		     "TSC 0 ADDR 1000 MISC 0 PROCESSOR 0:206d7 TIME 1613850532 SOCKET 0 APIC 0\n"
		     "\n");
	assert_int_equal(s.n, 2);
	finish(p);
	assert_int_equal(s.nd, 0);
}

/* A callback's error while the held records go out stops the parser. */
static void stop_while_releasing(void **state)
{
	struct text t = { .len = 0 };
	struct seen s = { .stop_after = 1 };
	struct mce_text_parser *p = new_parser(&s);

	(void) state;
	add_records(&t, 2);
	add(&t, "\n");
	feed_only(p, t.buf);
	assert_int_equal(mce_text_parser_finish(p), -ECANCELED);
	assert_int_equal(s.n, 1);
	assert_int_equal(mce_text_parser_feed(p, "x", 1), -ECANCELED);
	mce_text_parser_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(three_out_of_order),
		cmocka_unit_test(dimm_for_no_record),
		cmocka_unit_test(seventeen_awaiting),
		cmocka_unit_test(line_bound),
		cmocka_unit_test(held_at_end),
		cmocka_unit_test(other_forms_in_order),
		cmocka_unit_test(no_hold_without_addrv),
		cmocka_unit_test(stop_while_releasing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
