/* SPDX-License-Identifier: MIT */
/*
 * Pages of the ftrace ring buffer as trace_pipe_raw returns them, laid out
 * byte by byte to the kernel's header_page / header_event description: every
 * event kind, the lost-events flags, and pages that lie about their size.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ftrace-page.h"

#define PAGE 4096

struct page {
	unsigned char b[PAGE];
	size_t pos;
};

static void put32(struct page *p, uint32_t v)
{
	memcpy(p->b + p->pos, &v, 4);
	p->pos += 4;
}

static void begin(struct page *p, uint64_t ts)
{
	memset(p->b, 0, sizeof(p->b));
	memcpy(p->b, &ts, 8);
	p->pos = FTRACE_PAGE_HEADER;
}

/* commit = bytes of events, with the lost-events flag bits above. */
static void finish(struct page *p, uint64_t flags)
{
	uint64_t commit = (p->pos - FTRACE_PAGE_HEADER) | flags;

	memcpy(p->b + 8, &commit, 8);
}

static uint32_t head(uint32_t type_len, uint32_t delta)
{
	return type_len | delta << 5;
}

/* A data event of len bytes (a multiple of 4) filled with fill: short form when it fits. */
static void data_event(struct page *p, uint32_t delta, size_t len, unsigned char fill, int force_long)
{
	if (len <= 28 * 4 && !force_long)
		put32(p, head((uint32_t) len / 4, delta));
	else {
		put32(p, head(0, delta));
		put32(p, (uint32_t) len + 4);
	}
	memset(p->b + p->pos, fill, len);
	p->pos += len;
}

struct seen {
	int n;
	uint64_t ts[16];
	size_t size[16];
	unsigned char first[16];
};

static int on_event(const unsigned char *data, size_t size, uint64_t ts, void *userdata)
{
	struct seen *s = userdata;

	s->ts[s->n] = ts;
	s->size[s->n] = size;
	s->first[s->n] = data[0];
	s->n++;
	return 0;
}

static void test_every_kind(void **state)
{
	(void) state;
	struct page p;
	struct seen s = {};
	struct ftrace_page_info info;

	begin(&p, 1000000);
	data_event(&p, 5, 24, 0xa1, 0);                 /* short form, ts 1000005 */
	data_event(&p, 7, 200, 0xa2, 0);                /* too long for the short form */
	put32(&p, head(30, 3));                         /* time extend: (2 << 27) + 3 */
	put32(&p, 2);
	data_event(&p, 1, 16, 0xa3, 0);
	put32(&p, head(29, 9));                         /* a discarded event: skipped, no time; */
	put32(&p, 16);                                  /* its length counts this word */
	p.pos += 12;
	data_event(&p, 4, 40, 0xa4, 1);                 /* long form though short enough */
	finish(&p, 0);

	assert_int_equal(ftrace_page_parse(p.b, PAGE, &info, on_event, &s), 4);
	assert_false(info.missed);
	assert_int_equal(s.n, 4);
	assert_true(s.ts[0] == 1000005);
	assert_int_equal(s.size[0], 24);
	assert_int_equal(s.first[0], 0xa1);
	assert_true(s.ts[1] == 1000012);
	assert_int_equal(s.size[1], 200);
	assert_int_equal(s.first[1], 0xa2);
	assert_true(s.ts[2] == 1000012 + (UINT64_C(2) << 27) + 3 + 1);
	assert_int_equal(s.first[2], 0xa3);
	assert_true(s.ts[3] == s.ts[2] + 4);
	assert_int_equal(s.size[3], 40);
	assert_int_equal(s.first[3], 0xa4);
}

static void test_absolute_stamp_and_tail_padding(void **state)
{
	(void) state;
	struct page p;
	struct seen s = {};

	begin(&p, 50);
	put32(&p, head(31, 0x10));                       /* absolute: (1 << 27) | 0x10 */
	put32(&p, 1);
	data_event(&p, 2, 8, 0xb1, 0);
	put32(&p, head(29, 0));                          /* the rest of the page is unused */
	put32(&p, 0);
	p.pos += 64;                                     /* inside commit, but never read */
	finish(&p, 0);
	assert_int_equal(ftrace_page_parse(p.b, PAGE, NULL, on_event, &s), 1);
	assert_true(s.ts[0] == (UINT64_C(1) << 27 | 0x10) + 2);
}

static void test_missed_events(void **state)
{
	(void) state;
	struct page p;
	struct ftrace_page_info info;
	uint64_t n = 17;

	begin(&p, 1);
	data_event(&p, 1, 8, 0xc1, 0);
	finish(&p, UINT64_C(1) << 31 | UINT64_C(1) << 30);
	memcpy(p.b + p.pos, &n, 8);                      /* the count follows the events */
	assert_int_equal(ftrace_page_parse(p.b, PAGE, &info, NULL, NULL), 1);
	assert_true(info.missed);
	assert_true(info.missed_counted);
	assert_true(info.n_missed == 17);

	finish(&p, UINT64_C(1) << 31);
	assert_int_equal(ftrace_page_parse(p.b, PAGE, &info, NULL, NULL), 1);
	assert_true(info.missed);
	assert_false(info.missed_counted);
}

static void test_hostile_pages(void **state)
{
	(void) state;
	struct page p;
	struct seen s = {};

	/* shorter than its header */
	begin(&p, 1);
	assert_int_equal(ftrace_page_parse(p.b, 15, NULL, NULL, NULL), -EBADMSG);

	/* a commit size beyond the page */
	begin(&p, 1);
	finish(&p, 0);
	memcpy(p.b + 8, &(uint64_t) { PAGE }, 8);
	assert_int_equal(ftrace_page_parse(p.b, PAGE, NULL, NULL, NULL), -EBADMSG);

	/* an empty page is no error */
	begin(&p, 1);
	finish(&p, 0);
	assert_int_equal(ftrace_page_parse(p.b, PAGE, NULL, NULL, NULL), 0);

	/* an event running past the commit size: the one before it still comes */
	begin(&p, 1);
	data_event(&p, 1, 8, 0xd1, 0);
	put32(&p, head(28, 1));                          /* claims 112 bytes, holds 8 */
	p.pos += 8;
	finish(&p, 0);
	assert_int_equal(ftrace_page_parse(p.b, PAGE, NULL, on_event, &s), -EBADMSG);
	assert_int_equal(s.n, 1);

	/* a long-form length that does not count itself */
	begin(&p, 1);
	put32(&p, head(0, 1));
	put32(&p, 3);
	finish(&p, 0);
	assert_int_equal(ftrace_page_parse(p.b, PAGE, NULL, NULL, NULL), -EBADMSG);

	/* a header word cut by the commit size */
	begin(&p, 1);
	put32(&p, head(30, 1));
	finish(&p, 0);
	assert_int_equal(ftrace_page_parse(p.b, PAGE, NULL, NULL, NULL), -EBADMSG);

	/* padding longer than what is left */
	begin(&p, 1);
	put32(&p, head(29, 1));
	put32(&p, 4000);
	finish(&p, 0);
	assert_int_equal(ftrace_page_parse(p.b, PAGE, NULL, NULL, NULL), -EBADMSG);
}

static int stop_at_second(const unsigned char *data, size_t size, uint64_t ts, void *userdata)
{
	(void) data, (void) size, (void) ts;
	return ++*(int *) userdata == 2 ? -ECANCELED : 0;
}

static void test_callback_stops_the_walk(void **state)
{
	(void) state;
	struct page p;
	int n = 0;

	begin(&p, 1);
	for (int i = 0; i < 3; i++)
		data_event(&p, 1, 8, 0xe0, 0);
	finish(&p, 0);
	assert_int_equal(ftrace_page_parse(p.b, PAGE, NULL, stop_at_second, &n), -ECANCELED);
	assert_int_equal(n, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kind),
		cmocka_unit_test(test_absolute_stamp_and_tail_padding),
		cmocka_unit_test(test_missed_events),
		cmocka_unit_test(test_hostile_pages),
		cmocka_unit_test(test_callback_stops_the_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
