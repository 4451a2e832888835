/* SPDX-License-Identifier: MIT */
/* lib/edac-label: which EDAC labels name one DIMM, against the kernel's own placeholder texts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "edac-label.h"

static void test_dimm_labels(void **state)
{
	(void) state;
	/* skx/i10nm, amd64_edac's defaults, ghes_edac's SMBIOS "bank device". */
	assert_int_equal(edac_label_kind("CPU_SrcID#0_MC#3_Chan#0_DIMM#0"), EDAC_LABEL_ONE_DIMM);
	assert_int_equal(edac_label_kind("mc#0csrow#1channel#0"), EDAC_LABEL_ONE_DIMM);
	assert_int_equal(edac_label_kind("P0_Node0_Channel0_Dimm0 DIMM_A0"), EDAC_LABEL_ONE_DIMM);
	/* Placeholders only when whole: a label that merely contains the words is a label. */
	assert_int_equal(edac_label_kind("unknown memory slot"), EDAC_LABEL_ONE_DIMM);
	assert_true(edac_label_names_one_dimm("DIMM_A1"));
}

static void test_placeholders(void **state)
{
	(void) state;
	assert_int_equal(edac_label_kind(NULL), EDAC_LABEL_UNKNOWN);
	assert_int_equal(edac_label_kind(""), EDAC_LABEL_UNKNOWN);
	assert_int_equal(edac_label_kind("  "), EDAC_LABEL_UNKNOWN);
	/* edac_mc_handle_error() with no populated DIMM at the layers; ghes_edac without a module handle. */
	assert_int_equal(edac_label_kind("unknown memory"), EDAC_LABEL_UNKNOWN);
	/* ghes_edac before it took labels from SMBIOS. */
	assert_int_equal(edac_label_kind("unknown label"), EDAC_LABEL_UNKNOWN);
	assert_int_equal(edac_label_kind("unknown"), EDAC_LABEL_UNKNOWN);
	assert_false(edac_label_names_one_dimm("unknown memory"));
}

static void test_several_dimms(void **state)
{
	(void) state;
	/* edac_mc_handle_error(): no layer known, or too many DIMMs to list. */
	assert_int_equal(edac_label_kind("any memory"), EDAC_LABEL_SEVERAL);
	/* Its labels of every DIMM that matches, joined by OTHER_LABEL. */
	assert_int_equal(edac_label_kind("CPU0_DIMM_A1 or CPU0_DIMM_B1"), EDAC_LABEL_SEVERAL);
	assert_int_equal(edac_label_kind("A or B or C"), EDAC_LABEL_SEVERAL);
	assert_false(edac_label_names_one_dimm("any memory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dimm_labels),
		cmocka_unit_test(test_placeholders),
		cmocka_unit_test(test_several_dimms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
