/* SPDX-License-Identifier: MIT */
/*
 * The daemon's diagnostics on a terminal shared with --output json: a log
 * line never lands inside a record's JSON line, because what standard
 * output holds is written out first.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "log.h"

static void test_stdout_first(void **state)
{
	char path[] = "/tmp/test-log.XXXXXX", buf[256];
	int fd = mkstemp(path), saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
	ssize_t n;

	(void) state;
	assert_true(fd >= 0 && saved_out >= 0 && saved_err >= 0);
	/* Both streams to one file, as both go to one terminal; stdout fully buffered, as in a pipe. */
	fflush(stdout);
	assert_true(dup2(fd, STDOUT_FILENO) >= 0);
	assert_true(dup2(fd, STDERR_FILENO) >= 0);
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	fputs("{\"severity\":\"corrected\"}\n", stdout);
	log_open();
	log_notice("Replayed %d record(s)", 8);
	fflush(stdout);
	assert_true(dup2(saved_out, STDOUT_FILENO) >= 0);
	assert_true(dup2(saved_err, STDERR_FILENO) >= 0);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf, "{\"severity\":\"corrected\"}\nmcelogd: Replayed 8 record(s)\n");
	close(fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stdout_first),
	};

	unsetenv("JOURNAL_STREAM");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
