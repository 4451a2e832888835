/* SPDX-License-Identifier: MIT */
/*
 * lib/line-reader.c: read_lines_marked() says of each line whether it holds
 * the mark, as a memchr of that line alone would, though it looks for the
 * mark once for many lines: across the reader's 1 MiB reads, the lines it
 * moves to the front of its buffer, over-long lines (only their first
 * LINE_READER_MAX bytes count) and a last line without its '\n'.  And it
 * gives the same lines as read_lines().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "line-reader.h"

struct seen {
	size_t n, cap;
	struct line {
		size_t len;
		bool cut, marked;
		uint64_t sum;     /* of the bytes: the line is the one expected */
	} *lines;
};

/* A fixed sequence (xorshift64), so that a failure repeats. */
static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static uint64_t sum(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char) s[i]) * 1099511628211ull;
	return h;
}

static void add(struct seen *s, const char *line, size_t len, bool cut, bool marked)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->lines = realloc(s->lines, s->cap * sizeof(s->lines[0]));
		assert_non_null(s->lines);
	}
	s->lines[s->n++] = (struct line) { len, cut, marked, sum(line, len) };
}

static int on_marked(const char *line, size_t len, bool cut, bool marked, void *userdata)
{
	add(userdata, line, len, cut, marked);
	return 0;
}

static int on_line(const char *line, size_t len, bool cut, void *userdata)
{
	add(userdata, line, len, cut, false);
	return 0;
}

/* A file of the text, read back from its start. */
static FILE *file_of(const char *text, size_t n)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, n, f), n);
	assert_int_equal(fflush(f), 0);
	rewind(f);
	return f;
}

/* What each line should be said to be: the text split by hand, each line searched alone. */
static void expected(const char *text, size_t n, char mark, struct seen *want)
{
	size_t at = 0;

	while (at < n) {
		const char *nl = memchr(text + at, '\n', n - at);
		size_t len = nl ? (size_t) (nl - (text + at)) : n - at, kept = len;

		if (kept > LINE_READER_MAX)
			kept = LINE_READER_MAX;
		add(want, text + at, kept, len > LINE_READER_MAX, memchr(text + at, mark, kept) != NULL);
		at += len + 1;
	}
}

static void check(const char *text, size_t n, char mark)
{
	struct seen want = { 0 }, got = { 0 }, plain = { 0 };
	FILE *f;

	expected(text, n, mark, &want);
	f = file_of(text, n);
	assert_int_equal(read_lines_marked(fileno(f), mark, on_marked, &got), 0);
	fclose(f);
	f = file_of(text, n);
	assert_int_equal(read_lines(fileno(f), on_line, &plain), 0);
	fclose(f);

	assert_int_equal(got.n, want.n);
	assert_int_equal(plain.n, want.n);
	for (size_t i = 0; i < want.n; i++) {
		assert_int_equal(got.lines[i].len, want.lines[i].len);
		assert_int_equal(got.lines[i].cut, want.lines[i].cut);
		assert_int_equal(got.lines[i].sum, want.lines[i].sum);
		if (got.lines[i].marked != want.lines[i].marked)
			fail_msg("line %zu (%zu bytes): marked %d, expected %d", i + 1, want.lines[i].len,
				 got.lines[i].marked, want.lines[i].marked);
		assert_int_equal(plain.lines[i].len, want.lines[i].len);
		assert_int_equal(plain.lines[i].cut, want.lines[i].cut);
		assert_int_equal(plain.lines[i].sum, want.lines[i].sum);
	}
	free(want.lines);
	free(got.lines);
	free(plain.lines);
}

/*
 * Some 3 MiB of lines of every length up to 300 bytes, a few of them marked
 * at any place, so that reads end inside lines and marks lie before, in and
 * after the lines moved to the front; runs of unmarked lines long enough to
 * span a read.
 */
static void test_many_lines_across_reads(void **state)
{
	const size_t n = 3u << 20;
	char *text = malloc(n);
	uint64_t rng = 0x5eed1234u;
	size_t at = 0;

	(void) state;
	assert_non_null(text);
	while (at < n) {
		size_t len = next(&rng) % 300, quiet = next(&rng) % 4;

		for (size_t i = 0; i < len && at < n; i++)
			text[at++] = (char) ('a' + next(&rng) % 26);
		/* one line in four holds marks, one to three anywhere in it */
		if (quiet == 0 && len > 0)
			for (unsigned k = 0; k <= next(&rng) % 3; k++)
				text[at - 1 - next(&rng) % len] = '_';
		if (at < n)
			text[at++] = '\n';
	}
	check(text, n, '_');
	/* the last line without its '\n', or cut short */
	check(text, n - 1, '_');
	free(text);
}

/* Over-long lines: a mark only past LINE_READER_MAX does not count; one before it does. */
static void test_cut_lines(void **state)
{
	const size_t long_len = LINE_READER_MAX + 5000, n = 4 * (long_len + 1) + 64;
	char *text = malloc(n);
	size_t at = 0;

	(void) state;
	assert_non_null(text);
	for (unsigned l = 0; l < 4; l++) {
		memset(text + at, 'x', long_len);
		if (l == 1)
			text[at + LINE_READER_MAX + 10] = '_';    /* in the part skipped */
		if (l == 2)
			text[at + LINE_READER_MAX - 1] = '_';     /* the last byte kept */
		at += long_len;
		text[at++] = '\n';
	}
	memcpy(text + at, "short_line\nplain\n_", 18);
	at += 18;
	check(text, at, '_');
	free(text);
}

/* No mark anywhere, and marks on every line. */
static void test_none_and_all(void **state)
{
	static const char none[] = "[ 1.0] mce: [Hardware Error]: CPU 1: Machine Check: 0 Bank 5: be00\nTSC 0\n\nlast";
	static const char all[] = "a_b\n_\nx_\n\n_x";

	(void) state;
	check(none, sizeof(none) - 1, '_');
	check(all, sizeof(all) - 1, '_');
	check("", 0, '_');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_lines_across_reads),
		cmocka_unit_test(test_cut_lines),
		cmocka_unit_test(test_none_and_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
