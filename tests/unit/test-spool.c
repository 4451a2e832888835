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
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "spool-walk.h"
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
	int cut;

	(void) state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(spool_open(dir, &s), 0);
	assert_int_equal(spool_append(s, a, 1), 0);
	assert_int_equal(spool_append(s, b, 1), 0);
	assert_int_equal(spool_append(s, c, 1), 0);
	assert_int_equal(spool_entries(s), 3);
	/* journald takes two, then refuses: the third stays, and a new one goes behind it. */
	assert_int_equal(spool_replay(s, collect, &g, &cut), 2);
	assert_string_equal(g.text[0], "MESSAGE=first");
	assert_string_equal(g.text[1], "MESSAGE=second");
	assert_int_equal(spool_entries(s), 1);
	assert_int_equal(spool_append(s, d, 1), 0);
	/* The rewritten spool is read again within the same run (the daemon's retry timer). */
	g = (struct got) { .refuse_after = 1 };
	assert_int_equal(spool_replay(s, collect, &g, &cut), 1);
	assert_string_equal(g.text[0], "MESSAGE=third");
	assert_int_equal(spool_append(s, c, 1), 0);
	spool_close(s);

	/* A restart finds them, in order, once. */
	assert_int_equal(spool_open(dir, &s), 0);
	assert_int_equal(spool_entries(s), 2);
	g = (struct got) { 0 };
	assert_int_equal(spool_replay(s, collect, &g, &cut), 2);
	assert_int_equal(g.n_entries, 2);
	assert_string_equal(g.text[0], "MESSAGE=fourth");
	assert_string_equal(g.text[1], "MESSAGE=third");
	assert_int_equal(spool_entries(s), 0);
	assert_int_equal(spool_bytes(s), 0);
	g = (struct got) { 0 };
	assert_int_equal(spool_replay(s, collect, &g, &cut), 0);
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
	assert_int_equal(spool_repaired(s)->torn_bytes, 12);
	assert_string_equal(spool_repaired(s)->set_aside, "");
	g = (struct got) { 0 };
	assert_int_equal(spool_replay(s, collect, &g, &cut), 1);
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
	int cut;

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
	/* Nor after another entry that stays: the spool is not read again for it. */
	seen = 0;
	assert_int_equal(spool_append_kept(s, d, 2), 0);
	assert_int_equal(spool_shrink(s, one, corrected, &seen), 0);
	assert_int_equal(seen, 0);
	/* An entry that may leave makes the next shrink look again, and it goes. */
	assert_int_equal(spool_append(s, e, 2), 0);
	assert_int_equal(spool_shrink(s, one, corrected, &seen), 1);
	assert_int_equal(seen, 4);
	assert_int_equal(spool_entries(s), 3);
	spool_close(s);
	/* What stays is in order, across a restart. */
	assert_int_equal(spool_open(dir, &s), 0);
	assert_int_equal(spool_replay(s, collect, &g, &cut), 3);
	assert_string_equal(g.text[0], "MESSAGE=b|SEV=fatal");
	assert_string_equal(g.text[1], "MESSAGE=d|SEV=fatal");
	assert_string_equal(g.text[2], "MESSAGE=d|SEV=fatal");
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

/* A spool's file, for tests that write or damage it behind the spool's back. */
static void spool_file(const char *dir, char *path, size_t size)
{
	snprintf(path, size, "%s/journal.spool", dir);
}

static void remove_dir(const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Entry i of the big spools below: its size varies, some are larger than a read window. */
static void big_entry(unsigned i, char field[3][20000], struct iovec iov[3])
{
	unsigned pad = i % 97 == 0 ? 3 * SPOOL_WINDOW_BYTES : 40 + (i * 37) % 900;

	assert_true(pad < sizeof(field[2]) - 64);
	snprintf(field[0], sizeof(field[0]), "MESSAGE=record %u\nsecond line", i);
	snprintf(field[1], sizeof(field[1]), "MCE_STATUS=%u", i);
	snprintf(field[2], sizeof(field[2]), "MCE_JSON={\"status\":%u,\"pad\":\"%0*u\"}", i, (int) pad, i);
	for (unsigned k = 0; k < 3; k++)
		iov[k] = (struct iovec) { .iov_base = field[k], .iov_len = strlen(field[k]) };
}

/* Writes n entries to the spool file directly (spool_append syncs each: too slow for many). */
static uint64_t write_big_spool(const char *path, unsigned n)
{
	static char field[3][20000];
	static uint8_t buf[70000];
	struct iovec iov[3];
	uint64_t total = 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	for (unsigned i = 0; i < n; i++) {
		size_t len;

		big_entry(i, field, iov);
		len = journal_export_encode(iov, 3, buf, sizeof(buf));
		assert_true(len <= sizeof(buf));
		assert_int_equal(write(fd, buf, len), (ssize_t) len);
		total += len;
	}
	close(fd);
	return total;
}

struct seq {
	unsigned next, refuse_at;   /* refuse_at 0: take all */
	bool ok;
};

static int check_seq(const struct iovec *iov, unsigned n, void *userdata)
{
	static char field[3][20000];
	struct seq *q = userdata;
	struct iovec want[3];

	if (q->refuse_at && q->next == q->refuse_at)
		return -EAGAIN;
	big_entry(q->next, field, want);
	if (n != 3)
		q->ok = false;
	for (unsigned k = 0; k < 3 && k < n; k++)
		if (iov[k].iov_len != want[k].iov_len || memcmp(iov[k].iov_base, want[k].iov_base, want[k].iov_len))
			q->ok = false;
	q->next++;
	return 0;
}

/*
 * A spool many times larger than what is read at once (the test builds the
 * spool with a 4 KiB window and a 64 KiB entry bound; the daemon reads 1 MiB
 * at a time): opened, replayed in two parts, every entry whole and in order.
 * Reading it whole, as before, refused spools over 256 MiB for good.
 */
static void test_stream_big(void **state)
{
	char dir[] = "/tmp/test-spool.XXXXXX", path[64];
	struct seq q = { .refuse_at = 700, .ok = true };
	struct spool *s;
	uint64_t size;
	int cut;

	(void) state;
	assert_non_null(mkdtemp(dir));
	spool_file(dir, path, sizeof(path));
	size = write_big_spool(path, 1000);
	assert_true(size > 8 * SPOOL_ENTRY_MAX);
	assert_int_equal(spool_open(dir, &s), 0);
	assert_int_equal(spool_entries(s), 1000);
	assert_int_equal(spool_bytes(s), size);
	assert_string_equal(spool_repaired(s)->set_aside, "");
	/* journald takes 700 and then its queue is full. */
	assert_int_equal(spool_replay(s, check_seq, &q, &cut), 700);
	assert_int_equal(cut, 0);
	assert_true(q.ok);
	assert_int_equal(spool_entries(s), 300);
	spool_close(s);
	/* The rest, after a restart: from 700 on. */
	assert_int_equal(spool_open(dir, &s), 0);
	assert_int_equal(spool_entries(s), 300);
	q.refuse_at = 0;
	assert_int_equal(spool_replay(s, check_seq, &q, &cut), 300);
	assert_true(q.ok);
	assert_int_equal(q.next, 1000);
	assert_int_equal(spool_entries(s), 0);
	assert_int_equal(spool_bytes(s), 0);
	spool_close(s);
	remove_dir(dir);
}

/* Shrinking a spool larger than a window keeps what may not go, whole and in order. */
static void test_stream_shrink(void **state)
{
	char dir[] = "/tmp/test-spool.XXXXXX", path[64];
	struct seq q = { .ok = true };
	struct spool *s;
	uint64_t size;
	unsigned seen = 0, left;
	int cut;

	(void) state;
	assert_non_null(mkdtemp(dir));
	spool_file(dir, path, sizeof(path));
	size = write_big_spool(path, 400);
	assert_int_equal(spool_open(dir, &s), 0);
	assert_int_equal(spool_shrink(s, size / 2, corrected, &seen), 0);   /* none droppable */
	assert_int_equal(seen, 400);
	assert_int_equal(spool_entries(s), 400);
	/* Another rule of what may leave: a spool opened anew (the daemon keeps one rule). */
	spool_close(s);
	assert_int_equal(spool_open(dir, &s), 0);
	assert_true(spool_shrink(s, size / 2, always, NULL) > 0);
	assert_true(spool_bytes(s) <= size / 2);
	spool_close(s);
	assert_int_equal(spool_open(dir, &s), 0);
	/* What stays is the newest, from some entry on, each whole and in order. */
	left = (unsigned) spool_entries(s);
	assert_true(left > 0 && left < 400);
	q.next = 400 - left;
	assert_int_equal(spool_replay(s, check_seq, &q, &cut), (int) left);
	assert_true(q.ok);
	assert_int_equal(q.next, 400);
	spool_close(s);
	remove_dir(dir);
}

static bool file_equal(const char *path, const uint8_t *data, size_t len)
{
	uint8_t buf[4096];
	int fd = open(path, O_RDONLY);
	ssize_t k;

	if (fd < 0)
		return false;
	k = read(fd, buf, sizeof(buf));
	close(fd);
	return k == (ssize_t) len && memcmp(buf, data, len) == 0;
}

/*
 * One damaged byte in the first of three acknowledged entries: the file is
 * kept aside as it was, and the two others still read.  Before, the spool
 * was cut at the damage, losing both, without a word.
 */
static void test_damaged_set_aside(void **state)
{
	char dir[] = "/tmp/test-spool.XXXXXX", path[64];
	const struct iovec a[] = { IOV("MESSAGE=first\nbinary"), IOV("MCE_CPU=1") },
			   b[] = { IOV("MESSAGE=second"), IOV("MCE_CPU=2") },
			   c[] = { IOV("MESSAGE=third"), IOV("MCE_CPU=3") };
	uint8_t before[4096];
	struct got g = { 0 };
	struct spool *s;
	ssize_t len;
	int fd, cut;

	(void) state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(spool_open(dir, &s), 0);
	assert_int_equal(spool_append(s, a, 2), 0);
	assert_int_equal(spool_append(s, b, 2), 0);
	assert_int_equal(spool_append(s, c, 2), 0);
	spool_close(s);
	spool_file(dir, path, sizeof(path));
	/* "MESSAGE\n" then the value's 64-bit length: a bit of it flipped. */
	fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "\x7f", 1, 8 + 3), 1);
	len = pread(fd, before, sizeof(before), 0);
	assert_true(len > 0);
	close(fd);

	assert_int_equal(spool_open(dir, &s), 0);
	assert_int_equal(spool_entries(s), 2);
	assert_int_equal(spool_repaired(s)->damaged_at, 0);
	assert_int_equal(spool_repaired(s)->kept, 2);
	assert_int_equal(spool_repaired(s)->torn_bytes, 0);
	assert_non_null(strstr(spool_repaired(s)->set_aside, "/journal.spool.damaged-"));
	assert_true(file_equal(spool_repaired(s)->set_aside, before, (size_t) len));
	assert_int_equal(spool_replay(s, collect, &g, &cut), 2);
	assert_string_equal(g.text[0], "MESSAGE=second|MCE_CPU=2");
	assert_string_equal(g.text[1], "MESSAGE=third|MCE_CPU=3");
	spool_close(s);
	remove_dir(dir);
}

/*
 * What journald took is not sent again by this process when the file cannot
 * be cut (here the replacement cannot be created, as on a full disk).
 */
static void test_cut_fails(void **state)
{
	char dir[] = "/tmp/test-spool.XXXXXX", path[80];
	const struct iovec a[] = { IOV("MESSAGE=a") }, b[] = { IOV("MESSAGE=b") }, c[] = { IOV("MESSAGE=c") };
	struct got g = { .refuse_after = 1 };
	struct spool *s;
	int cut;

	(void) state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(spool_open(dir, &s), 0);
	assert_int_equal(spool_append(s, a, 1), 0);
	assert_int_equal(spool_append(s, b, 1), 0);
	snprintf(path, sizeof(path), "%s/journal.spool.new", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(spool_replay(s, collect, &g, &cut), 1);
	assert_true(cut < 0);
	assert_int_equal(spool_entries(s), 1);
	assert_int_equal(spool_append(s, c, 1), 0);
	assert_int_equal(spool_entries(s), 2);
	g = (struct got) { 0 };
	assert_int_equal(spool_replay(s, collect, &g, &cut), 2);
	assert_string_equal(g.text[0], "MESSAGE=b");
	assert_string_equal(g.text[1], "MESSAGE=c");
	assert_int_equal(cut, 0);
	assert_int_equal(spool_entries(s), 0);
	spool_close(s);
	remove_dir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode_decode),
		cmocka_unit_test(test_append_replay_in_order),
		cmocka_unit_test(test_shrink),
		cmocka_unit_test(test_shrink_many),
		cmocka_unit_test(test_stream_big),
		cmocka_unit_test(test_stream_shrink),
		cmocka_unit_test(test_damaged_set_aside),
		cmocka_unit_test(test_cut_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
