/* SPDX-License-Identifier: MIT */
/*
 * A mapped file cut short under its reader: with the guard on, reading past
 * the new end gives zeros and is noted, instead of killing the process.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "sigbus-guard.h"

static void test_shrunk_file(void **state)
{
	char path[] = "/tmp/test-sigbus.XXXXXX";
	size_t page = (size_t) sysconf(_SC_PAGESIZE);
	int fd = mkstemp(path);
	volatile const uint8_t *p;
	uint8_t *fill = malloc(3 * page);
	unsigned sum = 0;

	(void) state;
	assert_true(fd >= 0 && fill);
	memset(fill, 0xab, 3 * page);
	assert_int_equal(write(fd, fill, 3 * page), (ssize_t) (3 * page));
	p = mmap(NULL, 3 * page, PROT_READ, MAP_PRIVATE, fd, 0);
	assert_true(p != MAP_FAILED);
	assert_int_equal(sigbus_guard_begin(), 0);
	assert_int_equal(sigbus_guard_add((const void *) p, 3 * page), 0);
	assert_false(sigbus_guard_tripped());
	assert_int_equal(p[2 * page], 0xab);
	/* The file loses its last two pages while mapped. */
	assert_int_equal(ftruncate(fd, (off_t) page), 0);
	assert_int_equal(p[page - 1], 0xab);
	for (size_t i = page; i < 3 * page; i += 512)
		sum += p[i];
	assert_int_equal(sum, 0);
	assert_true(sigbus_guard_tripped());
	sigbus_guard_end();
	munmap((void *) p, 3 * page);
	close(fd);
	unlink(path);
	free(fill);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shrunk_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
