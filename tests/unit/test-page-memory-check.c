/* SPDX-License-Identifier: MIT */
/*
 * Before a known-bad page is offlined again at start: is its memory still
 * the memory that erred (mcelogd/page-memory-check.c)?  Against a stand-in
 * sysfs: memory blocks, CXL memdevs and regions, and SMBIOS slots.
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

#include "page-memory-check.h"
#include "rule-state.h"
#include "smbios-memdev.h"

static char root[] = "/tmp/test-page-memory-check.XXXXXX";
static char memory[300], cxl[300];

static void put(const char *dir, const char *name, const char *text)
{
	char path[700];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (char *s = strchr(path + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		(void) mkdir(path, 0755);
		*s = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void rm(const char *dir, const char *name)
{
	char path[700];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(unlink(path), 0);
}

static struct rule_state_page page(uint64_t pfn, const char *identity)
{
	struct rule_state_page p = { .pfn = pfn, .ok = true };

	snprintf(p.machine_id, sizeof(p.machine_id), "0123456789abcdef0123456789abcdef");
	snprintf(p.identity, sizeof(p.identity), "%s", identity);
	return p;
}

static struct page_memory_now pass(const struct smbios_memdev *devs, size_t n)
{
	return (struct page_memory_now) {
		.machine_id = "0123456789abcdef0123456789abcdef", .sysfs_memory = memory, .sysfs_cxl = cxl,
		.memory_block_bytes = page_memory_block_bytes(memory), .devs = devs, .n_devs = n,
	};
}

/* The verdict of a pass of its own (nothing read before it). */
static enum page_memory_verdict check(const struct rule_state_page *p, const struct smbios_memdev *devs, size_t n,
				      char *why)
{
	struct page_memory_now now = pass(devs, n);
	enum page_memory_verdict v = page_memory_check(p, &now, why, 300);

	page_memory_now_done(&now);
	return v;
}

static bool unchanged(const struct rule_state_page *p, const struct smbios_memdev *devs, size_t n, char *why)
{
	return check(p, devs, n, why) == PAGE_MEMORY_SAME;
}

static int setup(void **state)
{
	(void) state;
	if (!mkdtemp(root))
		return -1;
	snprintf(memory, sizeof(memory), "%s/memory", root);
	snprintf(cxl, sizeof(cxl), "%s/cxl", root);
	put(memory, "block_size_bytes", "8000000\n");         /* 128 MiB blocks */
	put(memory, "memory0/online", "1\n");
	put(memory, "memory40/online", "1\n");                 /* 0x140000000.. */
	put(cxl, "mem0/serial", "0x1234\n");
	put(cxl, "region0/resource", "0x140000000\n");
	put(cxl, "region0/size", "0x10000000\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[400];

	(void) state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_dimm_page(void **state)
{
	struct smbios_memdev dev = { .locator = "DIMM A1", .serial = "S1" };
	struct rule_state_page p = page(0x1234, "slot=DIMM A1;serial=S1;mc=0");
	char why[300];

	(void) state;
	assert_true(unchanged(&p, &dev, 1, why));
	assert_string_equal(why, "");
	/* the module in its slot replaced */
	snprintf(dev.serial, sizeof(dev.serial), "S2");
	assert_int_equal(check(&p, &dev, 1, why), PAGE_MEMORY_CHANGED);
	assert_non_null(strstr(why, "slot DIMM A1 now holds module serial S2, not S1"));
	/* another machine's state */
	snprintf(p.machine_id, sizeof(p.machine_id), "fedcba9876543210fedcba9876543210");
	assert_int_equal(check(&p, NULL, 0, why), PAGE_MEMORY_CHANGED);
	assert_non_null(strstr(why, "recorded on machine fedcba98"));
	/* no memory block holds it */
	p = page(0x90000, "mc=0");
	assert_int_equal(check(&p, NULL, 0, why), PAGE_MEMORY_ABSENT);
	assert_non_null(strstr(why, "no memory block holds it"));
}

/* A block the kernel added but has not onlined (a CXL region's, before kmem onlines it): absent for now. */
static void test_block_offline(void **state)
{
	struct rule_state_page p = page(0x140010, "mc=0");
	char why[300];

	(void) state;
	put(memory, "memory40/state", "offline\n");
	assert_int_equal(check(&p, NULL, 0, why), PAGE_MEMORY_ABSENT);
	assert_non_null(strstr(why, "its memory block (memory40) is not online in this boot"));
	put(memory, "memory40/state", "going-offline\n");
	assert_int_equal(check(&p, NULL, 0, why), PAGE_MEMORY_ABSENT);
	put(memory, "memory40/state", "online\n");
	assert_true(unchanged(&p, NULL, 0, why));
	rm(memory, "memory40/state");
}

static void test_cxl_page(void **state)
{
	struct rule_state_page p = page(0x140010, "cxl_serial=0x1234;dpa=0x10000;region=region0");
	char why[300];

	(void) state;
	assert_true(unchanged(&p, NULL, 0, why));
	/* the region made again at another address: other memory at this one, for good */
	put(cxl, "region0/resource", "0x150000000\n");
	assert_int_equal(check(&p, NULL, 0, why), PAGE_MEMORY_CHANGED);
	assert_non_null(strstr(why, "the CXL region that mapped it (region0) no longer holds its address"));
	/* made, but no address allocated yet (the kernel prints all ones and size 0): it may still come */
	put(cxl, "region0/resource", "0xffffffffffffffff\n");
	put(cxl, "region0/size", "0x0\n");
	assert_int_equal(check(&p, NULL, 0, why), PAGE_MEMORY_ABSENT);
	assert_non_null(strstr(why, "the CXL region that mapped it (region0) is not there in this boot, or has no "
				    "address yet"));
	put(cxl, "region0/resource", "0x140000000\n");
	/* the region gone: absent, it may be made again */
	rm(cxl, "region0/size");
	assert_int_equal(check(&p, NULL, 0, why), PAGE_MEMORY_ABSENT);
	put(cxl, "region0/size", "0x10000000\n");
	assert_true(unchanged(&p, NULL, 0, why));
	/* a region name that would be a path is never followed */
	p = page(0x140010, "cxl_serial=0x1234;dpa=0x10000;region=../cxl/region0");
	assert_int_equal(check(&p, NULL, 0, why), PAGE_MEMORY_CHANGED);
	/* the device gone: absent, it may come back */
	p = page(0x140010, "cxl_serial=0x5678;dpa=0x10000;region=region0");
	assert_int_equal(check(&p, NULL, 0, why), PAGE_MEMORY_ABSENT);
	assert_non_null(strstr(why, "the CXL memory device it was on (serial 0x5678) is not present"));
	/* an identity of before regions were kept: the device alone decides */
	p = page(0x140010, "cxl_serial=0x1234;dpa=0x10000");
	assert_true(unchanged(&p, NULL, 0, why));
}

/* The memdevs' serials are read once per pass, at its first CXL page, not once per page. */
static void test_cxl_serials_once_per_pass(void **state)
{
	struct rule_state_page p = page(0x140010, "cxl_serial=0x1234;dpa=0x10000;region=region0");
	struct rule_state_page q = page(0x140020, "cxl_serial=0x1234;dpa=0x20000;region=region0");
	struct page_memory_now now = pass(NULL, 0);
	char why[300];

	(void) state;
	assert_int_equal(page_memory_check(&p, &now, why, sizeof(why)), PAGE_MEMORY_SAME);
	assert_true(now.cxl_serials_read);
	assert_int_equal(now.n_cxl_serials, 1);
	/* gone after the pass read it: the same pass does not read again */
	rm(cxl, "mem0/serial");
	assert_int_equal(page_memory_check(&q, &now, why, sizeof(why)), PAGE_MEMORY_SAME);
	page_memory_now_done(&now);
	assert_false(now.cxl_serials_read);
	/* the next pass does */
	assert_int_equal(check(&q, NULL, 0, why), PAGE_MEMORY_ABSENT);
	put(cxl, "mem0/serial", "0x1234\n");
	/* a pass whose pages are none on CXL reads nothing */
	now = pass(NULL, 0);
	p = page(0x1234, "mc=0");
	assert_int_equal(page_memory_check(&p, &now, why, sizeof(why)), PAGE_MEMORY_SAME);
	assert_false(now.cxl_serials_read);
	page_memory_now_done(&now);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dimm_page),
		cmocka_unit_test(test_block_offline),
		cmocka_unit_test(test_cxl_page),
		cmocka_unit_test(test_cxl_serials_once_per_pass),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
