/* SPDX-License-Identifier: MIT */
/*
 * The PT stream summary of `mcectl pt` (lib/pt-decode.c) on streams built
 * by libipt's own encoder (tests/pt/pt-stream.c): exact packet counts, TSC,
 * CBR, CR3, modes and the rebuilt IPs in order; the IP compression rules one
 * by one; and truncated, garbage and undecodable streams, which must give an
 * error at the right offset and never crash.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <intel-pt.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pt-decode.h"
#include "pt-stream.h"

static void test_ip_compression(void **state)
{
	struct pt_last_ip last = {};
	uint64_t ip = 0;
	(void) state;

	/* 16/32/48-bit updates need a last IP */
	assert_int_equal(pt_ip_reconstruct(&last, 1, 0x1234, &ip), -ENODATA);
	assert_int_equal(pt_ip_reconstruct(&last, 2, 0x1234, &ip), -ENODATA);
	assert_int_equal(pt_ip_reconstruct(&last, 4, 0x1234, &ip), -ENODATA);
	/* sext48: bit 47 set extends with ones, clear with zeros */
	assert_int_equal(pt_ip_reconstruct(&last, 3, 0xffff800000000000 | 0x800012345678, &ip), 1);
	assert_int_equal(ip, 0xffff800012345678);
	assert_int_equal(pt_ip_reconstruct(&last, 3, 0x7fff12345678, &ip), 1);
	assert_int_equal(ip, 0x00007fff12345678);
	/* update_16 keeps bits 63:16 of the last IP, ignores payload bits above 15 */
	assert_int_equal(pt_ip_reconstruct(&last, 1, 0xffffabcd, &ip), 1);
	assert_int_equal(ip, 0x00007fff1234abcd);
	assert_int_equal(pt_ip_reconstruct(&last, 2, 0x9999aaaa, &ip), 1);
	assert_int_equal(ip, 0x00007fff9999aaaa);
	/* full, then update_48 keeps bits 63:48 */
	assert_int_equal(pt_ip_reconstruct(&last, 6, 0xdead000000000000, &ip), 1);
	assert_int_equal(ip, 0xdead000000000000);
	assert_int_equal(pt_ip_reconstruct(&last, 4, 0x0000111122223333, &ip), 1);
	assert_int_equal(ip, 0xdead111122223333);
	/* suppressed: no IP, last IP unchanged */
	ip = 7;
	assert_int_equal(pt_ip_reconstruct(&last, 0, 0x42, &ip), 0);
	assert_int_equal(ip, 7);
	assert_int_equal(last.ip, 0xdead111122223333);
	/* 5 and 7 are reserved, and do not touch the last IP */
	assert_int_equal(pt_ip_reconstruct(&last, 5, 0, &ip), -EBADMSG);
	assert_int_equal(pt_ip_reconstruct(&last, 7, 0, &ip), -EBADMSG);
	assert_int_equal(last.ip, 0xdead111122223333);
}

static uint64_t count(const struct pt_summary *s, enum pt_packet_type t)
{
	return s->counts[t];
}

static void test_reference_stream(void **state)
{
	static const struct { enum pt_ip_kind kind; uint64_t ip; } ips[] = {
		{ PT_IP_TIP_PGE, 0xffffffff81000100 },
		{ PT_IP_TIP,     0xffffffff81000234 },
		{ PT_IP_FUP,     0xffffffff81001000 },
		{ PT_IP_TIP_PGE, 0x401000 },
		{ PT_IP_TIP,     0x401234 },
		{ PT_IP_TIP_PGD, 0x401300 },
	};
	uint8_t buf[1024];
	int n = pt_stream_reference(buf, sizeof(buf));
	struct pt_summary s;
	const struct pt_ip_event *e;
	const struct pt_value_event *v;
	(void) state;

	assert_true(n > 0);
	assert_int_equal(pt_summarize(buf, (size_t) n, &s), 0);
	assert_int_equal(s.n_errors, 0);
	assert_int_equal(s.bytes, n);
	assert_int_equal(s.sync_offset, 0);
	assert_int_equal(count(&s, ppt_psb), 2);
	assert_int_equal(count(&s, ppt_psbend), 2);
	assert_int_equal(count(&s, ppt_tsc), 2);
	assert_int_equal(count(&s, ppt_cbr), 2);
	assert_int_equal(count(&s, ppt_mode), 2);
	assert_int_equal(count(&s, ppt_tip_pge), 2);
	assert_int_equal(count(&s, ppt_tnt_8), 1);
	assert_int_equal(count(&s, ppt_tip), 3);
	assert_int_equal(count(&s, ppt_fup), 1);
	assert_int_equal(count(&s, ppt_pip), 1);
	assert_int_equal(count(&s, ppt_tip_pgd), 2);
	assert_int_equal(count(&s, ppt_pad), 1);
	assert_int_equal(s.n_packets, 21);

	assert_true(s.have_tsc);
	assert_int_equal(s.tsc_first, 0x1000);
	assert_int_equal(s.tsc_last, 0x2000);
	v = s.cbr.v;
	assert_int_equal(s.cbr.n, 2);
	assert_int_equal(v[0].value, 36);
	assert_int_equal(v[1].value, 40);
	v = s.pip.v;
	assert_int_equal(s.pip.n, 1);
	assert_int_equal(v[0].value, 0x12345000);
	assert_false(v[0].flag);
	v = s.modes.v;
	assert_int_equal(s.modes.n, 2);
	assert_int_equal(v[0].value, 64);
	assert_int_equal(v[1].value, 32);

	e = s.ips.v;
	assert_int_equal(s.ips.n, 6);
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(e[i].kind, ips[i].kind);
		assert_int_equal(e[i].ip, ips[i].ip);
		assert_true(i == 0 || e[i].offset > e[i - 1].offset);
	}
	assert_int_equal(s.ips_suppressed, 1);
	assert_int_equal(s.ips_without_base, 1);
	pt_summary_done(&s);
}

/* Every prefix: no crash, and a cut inside a packet is named at that packet's offset. */
static void test_every_truncation(void **state)
{
	uint8_t buf[1024];
	int n = pt_stream_reference(buf, sizeof(buf));
	struct pt_summary whole;
	const struct pt_ip_event *e;
	(void) state;

	assert_true(n > 0);
	assert_int_equal(pt_summarize(buf, (size_t) n, &whole), 0);
	e = whole.ips.v;
	for (int len = 1; len < n; len++) {
		struct pt_summary s;

		assert_int_equal(pt_summarize(buf, (size_t) len, &s), 0);
		assert_true(s.n_packets <= whole.n_packets);
		/* cut one byte into the first TIP.PGE: truncated at its offset */
		if ((uint64_t) len == e[0].offset + 1) {
			assert_int_equal(s.n_errors, 1);
			assert_int_equal(s.errors[0].offset, e[0].offset);
			assert_non_null(strstr(s.errors[0].message, "truncated"));
		}
		pt_summary_done(&s);
	}
	pt_summary_done(&whole);
}

static void test_bad_opcode(void **state)
{
	uint8_t buf[256];
	int n = pt_stream_bad_opcode(buf, sizeof(buf));
	struct pt_summary s;
	(void) state;

	assert_true(n > 2);
	assert_int_equal(pt_summarize(buf, (size_t) n, &s), 0);
	assert_int_equal(count(&s, ppt_psb), 1);
	assert_int_equal(count(&s, ppt_psbend), 1);
	assert_int_equal(s.n_errors, 1);
	assert_int_equal(s.errors[0].offset, n - 2);
	assert_non_null(strstr(s.errors[0].message, "resuming at the next PSB"));
	pt_summary_done(&s);
}

static void test_garbage_and_empty(void **state)
{
	uint8_t junk[4096];
	struct pt_summary s;
	uint32_t x = 12345;
	(void) state;

	for (size_t i = 0; i < sizeof(junk); i++) {
		x = x * 1103515245 + 12345;
		junk[i] = (uint8_t) (x >> 16);
	}
	assert_int_equal(pt_summarize(junk, sizeof(junk), &s), 0);
	assert_true(s.n_errors >= 1);
	assert_int_equal(s.n_packets, 0);
	assert_non_null(strstr(s.errors[0].message, "no PSB"));
	pt_summary_done(&s);

	assert_int_equal(pt_summarize(junk, 0, &s), 0);
	assert_int_equal(s.n_errors, 1);
	assert_string_equal(s.errors[0].message, "empty trace");
	pt_summary_done(&s);
}

/* A PSB in the middle of junk: decoding starts there, and the offset says so. */
static void test_sync_mid_stream(void **state)
{
	uint8_t buf[2048];
	int n;
	struct pt_summary s;
	(void) state;

	memset(buf, 0xff, 100);
	n = pt_stream_reference(buf + 100, sizeof(buf) - 100);
	assert_true(n > 0);
	assert_int_equal(pt_summarize(buf, (size_t) n + 100, &s), 0);
	assert_int_equal(s.sync_offset, 100);
	assert_int_equal(s.n_errors, 0);
	assert_int_equal(s.ips.n, 6);
	/* PSB 16 bytes, TSC 8, CBR 4, MODE 2, PSBEND 2: the first TIP.PGE at 32 */
	assert_int_equal(((const struct pt_ip_event *) s.ips.v)[0].offset, 100 + 32);
	pt_summary_done(&s);
}

/* The recorder's cheap look at where a copy begins in time. */
static void test_first_tsc(void **state)
{
	uint8_t buf[2048];
	uint64_t tsc = 0;
	int n;
	(void) state;

	n = pt_stream_reference(buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(pt_first_tsc(buf, (size_t) n, &tsc), 0);
	assert_int_equal(tsc, 0x1000);
	/* cut before the TSC packet's end (PSB 16 bytes, TSC 8): none */
	assert_int_equal(pt_first_tsc(buf, 23, &tsc), -ENODATA);
	assert_int_equal(pt_first_tsc(buf, 0, &tsc), -ENODATA);
	/* junk before the PSB */
	memset(buf, 0xff, 100);
	n = pt_stream_reference(buf + 100, sizeof(buf) - 100);
	tsc = 0;
	assert_int_equal(pt_first_tsc(buf, (size_t) n + 100, &tsc), 0);
	assert_int_equal(tsc, 0x1000);
	/* a stream with no TSC packet */
	n = pt_stream_bad_opcode(buf, sizeof(buf));
	assert_int_equal(pt_first_tsc(buf, (size_t) n, &tsc), -ENODATA);
}

/*
 * A trace whose last 8 bytes are PSB payload, ending where the mapping ends:
 * the next byte is unreadable.  libipt 2.0.5's pt_pkt_sync_forward() read it
 * (fuzz-pt-stream found it); here a read past the end is a SIGSEGV under
 * every build, sanitizers or not.
 */
static void test_psb_payload_at_the_very_end(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *map = mmap(NULL, 2 * (size_t) page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static const uint8_t tail[] = { 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82 };
	struct pt_summary s;
	uint64_t tsc;
	(void) state;

	assert_true(map != MAP_FAILED);
	assert_int_equal(mprotect(map + page, (size_t) page, PROT_NONE), 0);
	for (size_t len = sizeof(tail); len <= 40; len++) {
		uint8_t *buf = map + page - len;

		memset(buf, 0xff, len - sizeof(tail));
		memcpy(buf + len - sizeof(tail), tail, sizeof(tail));
		assert_int_equal(pt_summarize(buf, len, &s), 0);
		assert_int_equal(s.n_packets, 0);
		assert_int_equal(s.n_errors, 1);
		assert_non_null(strstr(s.errors[0].message, "no PSB"));
		pt_summary_done(&s);
		assert_int_equal(pt_first_tsc(buf, len, &tsc), -ENODATA);
	}
	munmap(map, 2 * (size_t) page);
}

/*
 * After a bad packet, decoding resumes at the first PSB that starts after
 * it, never at one that overlaps bytes already decoded.  Here a TSC payload
 * ends in 02 82 bytes, so 02 82 eight times starts inside it: libipt's own
 * resync went back there and counted those bytes twice.
 */
static void test_resume_after_the_bad_packet(void **state)
{
	uint8_t buf[64];
	size_t n = 0;
	struct pt_summary s;
	(void) state;

	for (int i = 0; i < 8; i++) {                     /* PSB at 0 */
		buf[n++] = 0x02;
		buf[n++] = 0x82;
	}
	buf[n++] = 0x19;                                 /* TSC at 16, payload 00 02 82 02 82 02 82 */
	buf[n++] = 0x00;
	for (int i = 0; i < 3; i++) {
		buf[n++] = 0x02;
		buf[n++] = 0x82;
	}
	for (int i = 0; i < 5; i++) {                     /* at 24: a PSB cut short */
		buf[n++] = 0x02;
		buf[n++] = 0x82;
	}
	memset(buf + n, 0, 8);                            /* PADs: the cut PSB is not at the end */
	n += 8;
	assert_int_equal(pt_summarize(buf, n, &s), 0);
	assert_int_equal(count(&s, ppt_psb), 1);
	assert_int_equal(count(&s, ppt_tsc), 1);
	assert_int_equal(s.n_errors, 1);
	assert_int_equal(s.errors[0].offset, 24);
	assert_non_null(strstr(s.errors[0].message, "resuming at the next PSB"));
	pt_summary_done(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ip_compression),
		cmocka_unit_test(test_reference_stream),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_bad_opcode),
		cmocka_unit_test(test_garbage_and_empty),
		cmocka_unit_test(test_sync_mid_stream),
		cmocka_unit_test(test_first_tsc),
		cmocka_unit_test(test_psb_payload_at_the_very_end),
		cmocka_unit_test(test_resume_after_the_bad_packet),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
