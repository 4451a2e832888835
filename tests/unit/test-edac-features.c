/* SPDX-License-Identifier: MIT */
/*
 * mcelogd/edac-features.c: the EDAC scrub, ECS and memory repair controls,
 * read from stand-in trees laid out as the kernel's
 * Documentation/ABI/testing/sysfs-edac-scrub, sysfs-edac-ecs and
 * sysfs-edac-memory-repair describe them (Linux 6.15), with the device name
 * a CXL memdev registers under (cxl_mem0) and EDAC's own "mc" beside it.
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

#include "edac-features.h"
#include "json-writer.h"
#include "stand-in-tree.h"

static int setup(void **state)
{
	(void) state;
	assert_int_equal(stand_in_create("test-edac-features"), 0);
	dir("mc");
	dir("mc/mc0");
	dir("cxl_mem0");
	/* Patrol scrub as the CXL driver registers it: every attribute of the ABI. */
	dir("cxl_mem0/scrub0");
	put("cxl_mem0/scrub0/enable_background", "1\n");
	put("cxl_mem0/scrub0/min_cycle_duration", "3600\n");
	put("cxl_mem0/scrub0/max_cycle_duration", "918000\n");
	put("cxl_mem0/scrub0/current_cycle_duration", "43200\n");
	put("cxl_mem0/scrub0/addr", "0x0\n");
	put("cxl_mem0/scrub0/size", "0x0\n");
	/* DDR5 ECS, two media FRUs, listed out of order. */
	dir("cxl_mem0/ecs_fru1");
	put("cxl_mem0/ecs_fru1/log_entry_type", "1\n");
	put("cxl_mem0/ecs_fru1/mode", "0\n");
	put("cxl_mem0/ecs_fru1/threshold", "1024\n");
	put("cxl_mem0/ecs_fru1/reset", "");
	dir("cxl_mem0/ecs_fru0");
	put("cxl_mem0/ecs_fru0/log_entry_type", "0\n");
	put("cxl_mem0/ecs_fru0/mode", "1\n");
	put("cxl_mem0/ecs_fru0/threshold", "256\n");
	/* Soft PPR, safe at runtime; cacheline sparing without persist_mode (not implemented). */
	dir("cxl_mem0/mem_repair0");
	put("cxl_mem0/mem_repair0/repair_type", "ppr\n");
	put("cxl_mem0/mem_repair0/persist_mode", "0\n");
	put("cxl_mem0/mem_repair0/repair_safe_when_in_use", "1\n");
	put("cxl_mem0/mem_repair0/dpa", "0x0\n");
	put("cxl_mem0/mem_repair0/nibble_mask", "0x0\n");
	dir("cxl_mem0/mem_repair1");
	put("cxl_mem0/mem_repair1/repair_type", "cacheline-sparing\n");
	put("cxl_mem0/mem_repair1/repair_safe_when_in_use", "two words\n");
	/* Not features: a power directory, a name that only starts like one. */
	dir("cxl_mem0/power");
	dir("cxl_mem0/scrubber");
	return 0;
}

static int teardown(void **state)
{
	(void) state;
	return stand_in_remove();
}

static void test_parse_dir(void **state)
{
	enum edac_feature_kind k;
	unsigned i;

	(void) state;
	assert_int_equal(edac_feature_parse_dir("scrub0", &k, &i), 0);
	assert_int_equal(k, EDAC_FEATURE_SCRUB);
	assert_int_equal(i, 0);
	assert_int_equal(edac_feature_parse_dir("ecs_fru12", &k, &i), 0);
	assert_int_equal(k, EDAC_FEATURE_ECS);
	assert_int_equal(i, 12);
	assert_int_equal(edac_feature_parse_dir("mem_repair3", &k, &i), 0);
	assert_int_equal(k, EDAC_FEATURE_MEM_REPAIR);
	assert_int_equal(i, 3);
	assert_int_equal(edac_feature_parse_dir("scrub", &k, &i), -EINVAL);
	assert_int_equal(edac_feature_parse_dir("scrubber", &k, &i), -EINVAL);
	assert_int_equal(edac_feature_parse_dir("scrub1x", &k, &i), -EINVAL);
	assert_int_equal(edac_feature_parse_dir("ecs0", &k, &i), -EINVAL);
	assert_int_equal(edac_feature_parse_dir("mc0", &k, &i), -EINVAL);
	assert_int_equal(edac_feature_parse_dir("scrub256", &k, &i), -EINVAL);
}

static void test_parse_value(void **state)
{
	char buf[8];

	(void) state;
	assert_int_equal(edac_feature_parse_value("ppr\n", 4, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "ppr");
	assert_int_equal(edac_feature_parse_value("43200", 5, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "43200");
	assert_int_equal(edac_feature_parse_value("\n", 1, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(edac_feature_parse_value("", 0, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(edac_feature_parse_value("a b\n", 4, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(edac_feature_parse_value("a\tb", 3, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(edac_feature_parse_value("12345678\n", 9, buf, sizeof(buf)), -E2BIG);
}

static const char *attr(const struct edac_feature *f, const char *name)
{
	for (unsigned i = 0; i < f->n_attrs; i++)
		if (strcmp(f->attrs[i].name, name) == 0)
			return f->attrs[i].value;
	return NULL;
}

static void test_read_tree(void **state)
{
	struct edac_feature f[16];
	char devices[128];
	size_t n;

	(void) state;
	snprintf(devices, sizeof(devices), "%s", root);
	n = edac_features_read(devices, f, 16);
	assert_int_equal(n, 5);
	/* sorted: scrub, then ECS by FRU, then repair by instance */
	assert_string_equal(f[0].device, "cxl_mem0");
	assert_int_equal(f[0].kind, EDAC_FEATURE_SCRUB);
	assert_int_equal(f[0].n_attrs, 4);
	assert_string_equal(attr(&f[0], "enable_background"), "1");
	assert_string_equal(attr(&f[0], "current_cycle_duration"), "43200");
	assert_string_equal(attr(&f[0], "min_cycle_duration"), "3600");
	assert_string_equal(attr(&f[0], "max_cycle_duration"), "918000");
	assert_null(attr(&f[0], "addr"));   /* a request, not what the device offers */
	assert_int_equal(f[1].kind, EDAC_FEATURE_ECS);
	assert_int_equal(f[1].instance, 0);
	assert_string_equal(attr(&f[1], "mode"), "1");
	assert_string_equal(attr(&f[1], "threshold"), "256");
	assert_int_equal(f[2].kind, EDAC_FEATURE_ECS);
	assert_int_equal(f[2].instance, 1);
	assert_string_equal(attr(&f[2], "log_entry_type"), "1");
	assert_int_equal(f[3].kind, EDAC_FEATURE_MEM_REPAIR);
	assert_int_equal(f[3].instance, 0);
	assert_string_equal(attr(&f[3], "repair_type"), "ppr");
	assert_string_equal(attr(&f[3], "persist_mode"), "0");
	assert_string_equal(attr(&f[3], "repair_safe_when_in_use"), "1");
	/* an attribute the driver lacks is absent; a malformed one is left out, not guessed */
	assert_int_equal(f[4].instance, 1);
	assert_string_equal(attr(&f[4], "repair_type"), "cacheline-sparing");
	assert_null(attr(&f[4], "persist_mode"));
	assert_null(attr(&f[4], "repair_safe_when_in_use"));
	assert_int_equal(f[4].n_attrs, 1);

	/* the caller's bound holds (which ones then depends on the directory's order) */
	assert_int_equal(edac_features_read(devices, f, 2), 2);
}

static void test_absent_and_json(void **state)
{
	struct edac_feature f[16];
	struct json_writer w;
	char devices[128];
	size_t n;

	(void) state;
	/* A kernel before 6.15, or no EDAC at all: nothing, no failure. */
	assert_int_equal(edac_features_read("/nonexistent/edac/devices", f, 4), 0);

	snprintf(devices, sizeof(devices), "%s", root);
	n = edac_features_read(devices, f, 16);
	assert_int_equal(n, 5);
	json_writer_init(&w);
	json_object_begin(&w, NULL);
	edac_features_write_json(f, 1, &w);
	json_object_end(&w);
	assert_false(json_writer_failed(&w));
	assert_string_equal(json_writer_str(&w),
			    "{\"edac_features\":[{\"device\":\"cxl_mem0\",\"feature\":\"scrub\",\"instance\":0,"
			    "\"enable_background\":\"1\",\"current_cycle_duration\":\"43200\","
			    "\"min_cycle_duration\":\"3600\",\"max_cycle_duration\":\"918000\"}]}");
	json_writer_done(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_dir),
		cmocka_unit_test(test_parse_value),
		cmocka_unit_test(test_read_tree),
		cmocka_unit_test(test_absent_and_json),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
