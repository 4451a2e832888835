/* SPDX-License-Identifier: MIT */
/* The journal spool: export-format round trip, order, partial replay, a crash mid-append. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "spool.h"

#define IOV(s) { .iov_base = (void *) (s), .iov_len = sizeof(s) - 1 }

struct got {
	unsigned n_entries;
	unsigned refuse_after;     /* 0: take all */
	char text[8][512];         /* each entry's fields joined by '|' */
};

static int collect(const struct iovec *iov, unsigned n, void *userdata)
{
	struct got *g = userdata;
	size_t at = 0;

	if (g->refuse_after && g->n_entries == g->refuse_after)
		return -ENOTCONN;
	assert_true(g->n_entries < 8);
	for (unsigned i = 0; i < n; i++) {
		at += (size_t) snprintf(g->text[g->n_entries] + at, sizeof(g->text[0]) - at, "%s%.*s",
					i ? "|" : "", (int) iov[i].iov_len, (const char *) iov[i].iov_base);
	}
	g->n_entries++;
	return 0;
}

static void test_encode_decode(void **state)
{
	/* A value with a newline is binary-framed, as journal export format says. */
	const struct iovec e[] = { IOV("MESSAGE=two\nlines"), IOV("MCE_CPU=3"), IOV("MCE_JSON={\"a\":1}") };
	uint8_t buf[256];
	size_t n = journal_export_encode(e, 3, buf, sizeof(buf)), used;
	struct got g = { 0 };

	(void) state;
	assert_int_equal(n, journal_export_encode(e, 3, NULL, 0));   /* the size is known without a buffer */
	assert_memory_equal(buf, "MESSAGE\n\x09\0\0\0\0\0\0\0two\nlines\nMCE_CPU=3\n", 8 + 8 + 10 + 10);
	assert_true(journal_export_decode(buf, n, collect, &g, &used) >= 0);
	assert_int_equal(used, n);
	assert_int_equal(g.n_entries, 1);
	assert_string_equal(g.text[0], "MESSAGE=two\nlines|MCE_CPU=3|MCE_JSON={\"a\":1}");
	/* Cut anywhere inside: malformed, and nothing of the cut entry is sent. */
	for (size_t cut = 1; cut < n; cut++) {
		g = (struct got) { 0 };
		assert_int_equal(journal_export_decode(buf, cut, collect, &g, &used), -EBADMSG);
		assert_int_equal(g.n_entries, 0);
		assert_int_equal(used, 0);
	}
}

static void test_append_replay_in_order(void **state)
{
	char dir[] = "/tmp/test-spool.XXXXXX";
	const struct iovec a[] = { IOV("MESSAGE=first") }, b[] = { IOV("MESSAGE=second") },
			   c[] = { IOV("MESSAGE=third") }, d[] = { IOV("MESSAGE=fourth") };
	struct spool *s;
	struct got g = { .refuse_after = 2 };
	char path[64];

	(void) state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(spool_open(dir, &s), 0);
	assert_int_equal(spool_append(s, a, 1), 0);
	assert_int_equal(spool_append(s, b, 1), 0);
	assert_int_equal(spool_append(s, c, 1), 0);
	assert_int_equal(spool_entries(s), 3);
	/* journald takes two, then refuses: the third stays, and a new one goes behind it. */
	assert_int_equal(spool_replay(s, collect, &g), 2);
	assert_string_equal(g.text[0], "MESSAGE=first");
	assert_string_equal(g.text[1], "MESSAGE=second");
	assert_int_equal(spool_entries(s), 1);
	assert_int_equal(spool_append(s, d, 1), 0);
	/* The rewritten spool is read again within the same run (the daemon's retry timer). */
	g = (struct got) { .refuse_after = 1 };
	assert_int_equal(spool_replay(s, collect, &g), 1);
	assert_string_equal(g.text[0], "MESSAGE=third");
	assert_int_equal(spool_append(s, c, 1), 0);
	spool_close(s);

	/* A restart finds them, in order, once. */
	assert_int_equal(spool_open(dir, &s), 0);
	assert_int_equal(spool_entries(s), 2);
	g = (struct got) { 0 };
	assert_int_equal(spool_replay(s, collect, &g), 2);
	assert_int_equal(g.n_entries, 2);
	assert_string_equal(g.text[0], "MESSAGE=fourth");
	assert_string_equal(g.text[1], "MESSAGE=third");
	assert_int_equal(spool_entries(s), 0);
	assert_int_equal(spool_bytes(s), 0);
	g = (struct got) { 0 };
	assert_int_equal(spool_replay(s, collect, &g), 0);
	assert_int_equal(g.n_entries, 0);
	spool_close(s);

	/* A crash mid-append leaves half an entry: it was never acknowledged, so it goes. */
	assert_int_equal(spool_open(dir, &s), 0);
	assert_int_equal(spool_append(s, a, 1), 0);
	spool_close(s);
	snprintf(path, sizeof(path), "%s/journal.spool", dir);
	{
		int fd = open(path, O_WRONLY | O_APPEND);

		assert_true(fd >= 0);
		assert_int_equal(write(fd, "MESSAGE=half", 12), 12);
		close(fd);
	}
	assert_int_equal(spool_open(dir, &s), 0);
	assert_int_equal(spool_entries(s), 1);
	g = (struct got) { 0 };
	assert_int_equal(spool_replay(s, collect, &g), 1);
	assert_string_equal(g.text[0], "MESSAGE=first");
	spool_close(s);
	unlink(path);
	rmdir(dir);
}

/* Corrected records may leave a full spool, oldest first; nothing else ever does. */
static bool corrected(const struct iovec *iov, unsigned n, void *userdata)
{
	unsigned *seen = userdata;

	(*seen)++;
	for (unsigned i = 0; i < n; i++)
		if (iov[i].iov_len == strlen("SEV=corrected") && memcmp(iov[i].iov_base, "SEV=corrected", 13) == 0)
			return true;
	return false;
}

static void test_shrink(void **state)
{
	char dir[] = "/tmp/test-spool.XXXXXX";
	const struct iovec a[] = { IOV("MESSAGE=a"), IOV("SEV=corrected") },
			   b[] = { IOV("MESSAGE=b"), IOV("SEV=fatal") },
			   c[] = { IOV("MESSAGE=c"), IOV("SEV=corrected") },
			   d[] = { IOV("MESSAGE=d"), IOV("SEV=fatal") },
			   e[] = { IOV("MESSAGE=e"), IOV("SEV=corrected") };
	size_t one = journal_export_encode(a, 2, NULL, 0);
	struct got g = { 0 };
	unsigned seen = 0;
	struct spool *s;
	char path[64];

	(void) state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(spool_open(dir, &s), 0);
	assert_int_equal(spool_append(s, a, 2), 0);
	assert_int_equal(spool_append(s, b, 2), 0);
	assert_int_equal(spool_append(s, c, 2), 0);
	assert_int_equal(spool_append(s, d, 2), 0);
	assert_int_equal(spool_append(s, e, 2), 0);
	/* Within the bound: nothing to do, nothing looked at. */
	assert_int_equal(spool_shrink(s, 5 * one, corrected, &seen), 0);
	assert_int_equal(seen, 0);
	/* Room for three: the two oldest corrected go (a, c); b and d were looked at and stay. */
	assert_int_equal(spool_shrink(s, 3 * one, corrected, &seen), 2);
	assert_int_equal(seen, 3);
	assert_int_equal(spool_entries(s), 3);
	assert_int_equal(spool_bytes(s), journal_export_encode(b, 2, NULL, 0) * 2 + one);
	/* Room for one: only e may go; the fatal ones stay over the bound. */
	seen = 0;
	assert_int_equal(spool_shrink(s, one, corrected, &seen), 1);
	assert_int_equal(spool_entries(s), 2);
	/* Nothing more may go. */
	assert_int_equal(spool_shrink(s, one, corrected, &seen), 0);
	spool_close(s);
	/* What stays is in order, across a restart. */
	assert_int_equal(spool_open(dir, &s), 0);
	assert_int_equal(spool_replay(s, collect, &g), 2);
	assert_string_equal(g.text[0], "MESSAGE=b|SEV=fatal");
	assert_string_equal(g.text[1], "MESSAGE=d|SEV=fatal");
	spool_close(s);
	snprintf(path, sizeof(path), "%s/journal.spool", dir);
	unlink(path);
	rmdir(dir);
}

static bool always(const struct iovec *iov, unsigned n, void *userdata)
{
	(void) iov;
	(void) n;
	(void) userdata;
	return true;
}

/* What a scan of the spool found: consecutive records from first on, each whole. */
struct run {
	unsigned first, n;
	bool ok;
};

static int check_entry(const struct iovec *iov, unsigned n, void *userdata)
{
	struct run *g = userdata;
	unsigned msg, status, json;

	if (n != 3 || sscanf(iov[0].iov_base, "MESSAGE=record %u", &msg) != 1 ||
	    sscanf(iov[1].iov_base, "MCE_STATUS=%u", &status) != 1 ||
	    sscanf(iov[2].iov_base, "MCE_JSON={\"status\":%u", &json) != 1 || msg != status || msg != json) {
		g->ok = false;
		return 0;
	}
	if (g->n == 0)
		g->first = msg;
	else if (msg != g->first + g->n)
		g->ok = false;
	g->n++;
	return 0;
}

/* Entries that stay through many shrinks are whole and in order. */
static void test_shrink_many(void **state)
{
	char dir[] = "/tmp/test-spool.XXXXXX", path[64], field[3][700];
	struct run g = { .ok = true };
	struct spool *s;

	(void) state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(spool_open(dir, &s), 0);
	for (unsigned i = 0; i < 150; i++) {
		struct iovec iov[3];

		snprintf(field[0], sizeof(field[0]), "MESSAGE=record %u", i);
		snprintf(field[1], sizeof(field[1]), "MCE_STATUS=%u", i);
		snprintf(field[2], sizeof(field[2]), "MCE_JSON={\"status\":%u,\"pad\":\"%0600u\"}", i, i);
		for (unsigned k = 0; k < 3; k++)
			iov[k] = (struct iovec) { .iov_base = field[k], .iov_len = strlen(field[k]) };
		if (spool_bytes(s) >= 32768)
			assert_true(spool_shrink(s, 28672, always, NULL) > 0);
		assert_int_equal(spool_append(s, iov, 3), 0);
	}
	assert_int_equal(spool_scan(s, check_entry, &g), 0);
	assert_true(g.ok);
	assert_true(g.n > 0);
	assert_int_equal(g.first + g.n, 150);   /* the newest stay, none missing between */
	assert_int_equal(spool_entries(s), g.n);
	spool_close(s);
	snprintf(path, sizeof(path), "%s/journal.spool", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode_decode),
		cmocka_unit_test(test_append_replay_in_order),
		cmocka_unit_test(test_shrink),
		cmocka_unit_test(test_shrink_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
