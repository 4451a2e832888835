/* SPDX-License-Identifier: MIT */
/*
 * The kernel's corrected-error collector as debugfs shows it: the pure
 * parser (kernel-abi/ras-cec.c) on text laid out exactly as Linux
 * drivers/ras/cec.c prints it (its seq_printf()/DEFINE_DEBUGFS_ATTRIBUTE
 * formats, current and the 4.13-era ones: no published dump of the array
 * file was found), and the daemon's reader (mcelogd/kernel-cec.c,
 * ras-debugfs.c) on stand-in debugfs trees.
 */
#include <errno.h>
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

#include "json-writer.h"
#include "kernel-cec.h"
#include "ras-cec.h"
#include "ras-debugfs.h"
#include "stand-in-tree.h"

/* array_show() of Linux 5.x and later: " %3d: [%016llx|%s|%03llx]" per page, "Decay interval". */
static const char array_now[] =
	"{ n: 3\n"
	"   0: [0000000000012345|11|001]\n"
	"   1: [00000000000abcde|10|003]\n"
	"   2: [0000000000fedcba|01|001]\n"
	"}\n"
	"Stats:\n"
	"CEs: 27\n"
	"offlined pages: 2\n"
	"Flags: 0x0\n"
	"Decay interval: 86400 seconds\n"
	"Decays: 4\n"
	"Action threshold: 2\n";

/* array_dump() of Linux 4.13: " %03d: [%016llx|%03llx]", "Timer interval", "Action threshold: %d". */
static const char array_4_13[] =
	"{ n: 1\n"
	" 000: [0000000000012345|c01]\n"
	"}\n"
	"Stats:\n"
	"CEs: 5\n"
	"offlined pages: 0\n"
	"Flags: 0x0\n"
	"Timer interval: 86400 seconds\n"
	"Decays: 0\n"
	"Action threshold: 1023\n";

static void test_number(void **state)
{
	uint64_t v = 7;

	(void) state;
	assert_int_equal(ras_cec_parse_number("2\n", 2, &v), 0);
	assert_int_equal(v, 2);
	assert_int_equal(ras_cec_parse_number("86400\n", 6, &v), 0);
	assert_int_equal(v, 86400);
	assert_int_equal(ras_cec_parse_number("1023", 4, &v), 0);   /* no newline: still the number */
	assert_int_equal(v, 1023);
	assert_int_equal(ras_cec_parse_number("", 0, &v), -EINVAL);
	assert_int_equal(ras_cec_parse_number("\n", 1, &v), -EINVAL);
	assert_int_equal(ras_cec_parse_number("-1\n", 3, &v), -EINVAL);
	assert_int_equal(ras_cec_parse_number("2 \n", 3, &v), -EINVAL);
	assert_int_equal(ras_cec_parse_number("0x2\n", 4, &v), -EINVAL);
	assert_int_equal(ras_cec_parse_number("2\n\n", 3, &v), -EINVAL);
	assert_int_equal(ras_cec_parse_number("99999999999999999999\n", 21, &v), -ERANGE);
	assert_int_equal(v, 1023);   /* untouched by the failures */
}

static void test_array_now(void **state)
{
	struct ras_cec_array a;

	(void) state;
	assert_int_equal(ras_cec_parse_array(array_now, strlen(array_now), &a), 0);
	assert_int_equal(a.pages_tracked, 3);
	assert_int_equal(a.errors_seen, 27);
	assert_int_equal(a.pages_offlined, 2);
	assert_true(a.have_decays);
	assert_int_equal(a.decays, 4);
}

static void test_array_4_13(void **state)
{
	struct ras_cec_array a;

	(void) state;
	assert_int_equal(ras_cec_parse_array(array_4_13, strlen(array_4_13), &a), 0);
	assert_int_equal(a.pages_tracked, 1);
	assert_int_equal(a.errors_seen, 5);
	assert_int_equal(a.pages_offlined, 0);
}

static void test_array_empty_collector(void **state)
{
	static const char text[] = "{ n: 0\n}\nStats:\nCEs: 0\nofflined pages: 0\nFlags: 0x0\n"
				   "Decay interval: 3600 seconds\nDecays: 0\nAction threshold: 1023\n";
	struct ras_cec_array a;

	(void) state;
	assert_int_equal(ras_cec_parse_array(text, strlen(text), &a), 0);
	assert_int_equal(a.pages_tracked, 0);
	assert_int_equal(a.errors_seen, 0);
}

static void test_array_damaged(void **state)
{
	struct ras_cec_array a = { .errors_seen = 99 };
	static const char no_ces[] = "{ n: 0\n}\nStats:\nofflined pages: 0\n";
	static const char bad_ces[] = "{ n: 0\n}\nStats:\nCEs: many\nofflined pages: 0\n";
	static const char glued[] = "{ n: 0\n}\nStats:\nCEs: 5x\nofflined pages: 0\n";

	(void) state;
	assert_int_equal(ras_cec_parse_array(no_ces, strlen(no_ces), &a), -EINVAL);
	assert_int_equal(ras_cec_parse_array(bad_ces, strlen(bad_ces), &a), -EINVAL);
	assert_int_equal(ras_cec_parse_array(glued, strlen(glued), &a), -EINVAL);
	assert_int_equal(ras_cec_parse_array("", 0, &a), -EINVAL);
	/* Cut off before its stats (a read that ended early): not guessed. */
	assert_int_equal(ras_cec_parse_array(array_now, 60, &a), -EINVAL);
	assert_int_equal(a.errors_seen, 99);
}

/* -------------------------------------------------- the daemon's reader */

static int setup_root(void **state)
{
	(void) state;
	return stand_in_create("test-ras-cec");
}

static int teardown_root(void **state)
{
	(void) state;
	return stand_in_remove();
}

static const char *status_of(const struct kernel_cec *c, struct json_writer *w)
{
	json_writer_reset(w);
	json_object_begin(w, NULL);
	kernel_cec_write_status(c, w);
	json_object_end(w);
	return json_writer_str(w);
}

static void test_reader(void **state)
{
	struct json_writer w;
	struct kernel_cec c;
	char why[256];

	(void) state;
	json_writer_init(&w);

	/* An unmounted debugfs: an empty directory.  Nothing known. */
	kernel_cec_read(root, &c);
	assert_int_equal(c.state, KERNEL_CEC_UNKNOWN);
	assert_non_null(strstr(c.reason, "debugfs is not mounted at"));
	assert_int_equal(ras_debugfs_explain(root, "daemon_active", -ENOENT, why, sizeof(why)),
			 RAS_DEBUGFS_NOT_MOUNTED);

	/* debugfs with ras/ but no cec/: a kernel without the collector. */
	dir("ras");
	put("ras/daemon_active", "");
	kernel_cec_read(root, &c);
	assert_int_equal(c.state, KERNEL_CEC_ABSENT);
	assert_string_equal(status_of(&c, &w), "{\"kernel_cec\":{\"state\":\"absent\",\"reason\":\"not in "
			    "this kernel (CONFIG_RAS_CEC off, or ras=cec_disable on its command line)\"}}");

	/* The collector as Debian-like kernels have it: no CONFIG_RAS_CEC_DEBUG, so no array. */
	dir("ras/cec");
	put("ras/cec/action_threshold", "2\n");
	put("ras/cec/decay_interval", "86400\n");
	kernel_cec_read(root, &c);
	assert_int_equal(c.state, KERNEL_CEC_ACTIVE);
	assert_string_equal(status_of(&c, &w), "{\"kernel_cec\":{\"state\":\"active\",\"action_threshold\":2,"
			    "\"decay_interval_sec\":86400}}");

	/* With CONFIG_RAS_CEC_DEBUG: its counts too. */
	put("ras/cec/array", array_now);
	kernel_cec_read(root, &c);
	assert_string_equal(status_of(&c, &w), "{\"kernel_cec\":{\"state\":\"active\",\"action_threshold\":2,"
			    "\"decay_interval_sec\":86400,\"pages_tracked\":3,\"errors_seen\":27,"
			    "\"pages_offlined\":2}}");

	/* A damaged threshold is not guessed. */
	put("ras/cec/action_threshold", "two\n");
	kernel_cec_read(root, &c);
	assert_int_equal(c.state, KERNEL_CEC_UNKNOWN);

	json_writer_done(&w);
}

/* Before the 2019 rename the threshold file was count_threshold. */
static void test_reader_old_name(void **state)
{
	struct kernel_cec c;

	(void) state;
	dir("ras");
	dir("ras/cec");
	put("ras/cec/count_threshold", "1023\n");
	put("ras/cec/decay_interval", "86400\n");
	kernel_cec_read(root, &c);
	assert_int_equal(c.state, KERNEL_CEC_ACTIVE);
	assert_int_equal(c.action_threshold, 1023);
	assert_false(c.have_array);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_number),
		cmocka_unit_test(test_array_now),
		cmocka_unit_test(test_array_4_13),
		cmocka_unit_test(test_array_empty_collector),
		cmocka_unit_test(test_array_damaged),
		cmocka_unit_test_setup_teardown(test_reader, setup_root, teardown_root),
		cmocka_unit_test_setup_teardown(test_reader_old_name, setup_root, teardown_root),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
