/* SPDX-License-Identifier: MIT */
/*
 * mcelogd/memory-failure.c: vm.enable_soft_offline, HardwareCorrupted and the
 * per-node memory_failure counters, read from stand-in trees.
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

#include "memory-failure.h"

/* The lines around it as a 6.x kernel prints them (fs/proc/meminfo.c). */
static const char meminfo[] =
	"MemTotal:       16318412 kB\n"
	"Mlocked:               0 kB\n"
	"HardwareCorrupted:     8 kB\n"
	"AnonHugePages:         0 kB\n";

static void test_meminfo(void **state)
{
	uint64_t kib = 0;

	(void) state;
	assert_int_equal(meminfo_hardware_corrupted(meminfo, &kib), 0);
	assert_int_equal(kib, 8);
	/* A kernel without CONFIG_MEMORY_FAILURE has no such line. */
	assert_int_equal(meminfo_hardware_corrupted("MemTotal:       16318412 kB\n", &kib), -ENOENT);
	assert_int_equal(meminfo_hardware_corrupted("HardwareCorrupted:  lots\n", &kib), -EINVAL);
	/* Only at the start of a line. */
	assert_int_equal(meminfo_hardware_corrupted("XHardwareCorrupted: 4 kB\n", &kib), -ENOENT);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mkdirs(const char *base, const char *sub)
{
	char path[4096], *p;

	snprintf(path, sizeof(path), "%s/%s", base, sub);
	for (p = path + strlen(base) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		(void) mkdir(path, 0755);
		*p = '/';
	}
	(void) mkdir(path, 0755);
}

static void test_read_trees(void **state)
{
	char root[] = "/tmp/mf-XXXXXX", proc[256], node[256], dir[4096];
	struct memory_failure_view v;
	static const char *const counters[] = { "total", "ignored", "failed", "delayed", "recovered" };

	(void) state;
	assert_non_null(mkdtemp(root));
	snprintf(proc, sizeof(proc), "%s/proc", root);
	snprintf(node, sizeof(node), "%s/node", root);

	/* Nothing there: everything absent, soft offlining assumed allowed. */
	memory_failure_read(proc, node, &v);
	assert_int_equal(v.enable_soft_offline, -1);
	assert_false(v.have_hardware_corrupted);
	assert_int_equal(v.n_nodes, 0);
	assert_true(memory_failure_soft_offline_allowed(&v));

	mkdirs(root, "proc/sys/vm");
	put(proc, "sys/vm/enable_soft_offline", "0\n");
	put(proc, "meminfo", meminfo);
	mkdirs(root, "node/node0/memory_failure");
	mkdirs(root, "node/node1/memory_failure");
	mkdirs(root, "node/possible_not_a_node");
	for (unsigned i = 0; i < 5; i++) {
		char value[16];

		snprintf(dir, sizeof(dir), "%s/node0/memory_failure", node);
		snprintf(value, sizeof(value), "%u\n", i + 1);
		put(dir, counters[i], value);
		snprintf(dir, sizeof(dir), "%s/node1/memory_failure", node);
		put(dir, counters[i], "10\n");
	}
	memory_failure_read(proc, node, &v);
	assert_int_equal(v.enable_soft_offline, 0);
	assert_false(memory_failure_soft_offline_allowed(&v));
	assert_true(v.have_hardware_corrupted);
	assert_int_equal(v.hardware_corrupted_kib, 8);
	assert_int_equal(v.n_nodes, 2);
	assert_int_equal(v.counters[0], 11);   /* total */
	assert_int_equal(v.counters[4], 15);   /* recovered */
	/* 1 and 2 (2: HugeTLB pages excluded) both allow it. */
	put(proc, "sys/vm/enable_soft_offline", "2\n");
	memory_failure_read(proc, node, &v);
	assert_true(memory_failure_soft_offline_allowed(&v));

	snprintf(dir, sizeof(dir), "rm -rf '%s'", root);
	assert_int_equal(system(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meminfo),
		cmocka_unit_test(test_read_trees),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
