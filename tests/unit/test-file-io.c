/* SPDX-License-Identifier: MIT */
/*
 * Atomic writes (mcelogd/file-io.c): the whole new content or the old, and
 * never through a name someone made beforehand (review M16).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "file-io.h"
#include "macro.h"
#include "read-file.h"

static char dir[] = "/tmp/test-file-io.XXXXXX";

static void path_in(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

static void assert_file(const char *path, const char *want)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;

	assert_int_equal(read_whole_file(path, 4096, &text, &len), 0);
	assert_string_equal(text, want);
}

static void test_replaces_whole(void **state)
{
	char path[256];
	struct stat st;

	(void) state;
	path_in(path, sizeof(path), "metrics.prom");
	assert_int_equal(write_file_atomic_mode(path, "one\n", 4, false, 0644), 0);
	assert_int_equal(write_file_atomic_mode(path, "two\n", 4, true, 0644), 0);
	assert_file(path, "two\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
}

/* A hard link made at the temporary's name keeps its file as it was, mode and all. */
static void test_premade_link_untouched(void **state)
{
	char path[256], tmp[256], victim[256];
	struct stat st;
	int fd;

	(void) state;
	path_in(path, sizeof(path), "state");
	path_in(tmp, sizeof(tmp), ".state.tmp");
	path_in(victim, sizeof(victim), "victim");
	fd = open(victim, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "secret\n", 7), 7);
	close(fd);
	assert_int_equal(link(victim, tmp), 0);
	assert_int_equal(write_file_atomic_mode(path, "new\n", 4, false, 0644), 0);
	assert_file(victim, "secret\n");
	assert_int_equal(stat(victim, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_file(path, "new\n");
	/* and a symlink there is not followed either */
	assert_int_equal(symlink(victim, tmp), 0);
	assert_int_equal(write_file_atomic(path, "newer\n", 6, false), 0);
	assert_file(victim, "secret\n");
	assert_file(path, "newer\n");
}

/* What a crash left at the temporary's name is no obstacle. */
static void test_leftover_temporary(void **state)
{
	char path[256], tmp[256];
	int fd;

	(void) state;
	path_in(path, sizeof(path), "cursor");
	path_in(tmp, sizeof(tmp), ".cursor.tmp");
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(write_file_atomic(path, "c\n", 2, false), 0);
	assert_file(path, "c\n");
	assert_int_equal(access(tmp, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replaces_whole),
		cmocka_unit_test(test_premade_link_untouched),
		cmocka_unit_test(test_leftover_temporary),
	};
	int r;

	if (!mkdtemp(dir))
		return 1;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	if (r == 0) {
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			return 1;
	}
	return r;
}
