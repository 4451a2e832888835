/* SPDX-License-Identifier: MIT */
/*
 * EDAC DIMM label → board slot (lib/dimm-slots.c): the override file, its
 * bad lines, and the matches against SMBIOS Locator / Bank Locator.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "dimm-slot-record.h"
#include "dimm-slots.h"
#include "ras-record.h"

static char said[1024];

static void collect(const char *path, unsigned line, const char *what, void *userdata)
{
	size_t at = strlen(said);

	(void) userdata;
	snprintf(said + at, sizeof(said) - at, "%s:%u: %s\n", path, line, what);
}

static const struct smbios_memdev devs[] = {
	{ .handle = 0x1100, .locator = "P1-DIMMA1", .bank_locator = "P0_Node0_Channel0_Dimm0", .size_known = true,
	  .size_kib = UINT64_C(32) << 20 },
	{ .handle = 0x1101, .locator = "P1-DIMMB1", .bank_locator = "P0_Node0_Channel1_Dimm0", .size_known = true },
	{ .handle = 0x1102, .locator = "", .bank_locator = "NO LOCATOR" },
};

static void test_smbios_matches(void **state)
{
	struct dimm_slot r;

	(void) state;
	/* ghes_edac's label: "<Bank Locator> <Locator>". */
	r = dimm_slot_find(NULL, devs, 3, "P0_Node0_Channel1_Dimm0 P1-DIMMB1");
	assert_int_equal(r.from, DIMM_SLOT_SMBIOS);
	assert_string_equal(r.slot, "P1-DIMMB1");
	assert_ptr_equal(r.dev, &devs[1]);
	/* A label database's: the Locator itself. */
	r = dimm_slot_find(NULL, devs, 3, "P1-DIMMA1");
	assert_ptr_equal(r.dev, &devs[0]);
	/* skx/i10nm numbers, a partial name, a bank locator alone, nothing: unknown. */
	assert_int_equal(dimm_slot_find(NULL, devs, 3, "CPU_SrcID#0_MC#0_Chan#0_DIMM#0").from, DIMM_SLOT_UNKNOWN);
	assert_int_equal(dimm_slot_find(NULL, devs, 3, "P0_Node0_Channel1_Dimm0 P1-DIMMB").from, DIMM_SLOT_UNKNOWN);
	assert_int_equal(dimm_slot_find(NULL, devs, 3, "P0_Node0_Channel1_Dimm0").from, DIMM_SLOT_UNKNOWN);
	assert_int_equal(dimm_slot_find(NULL, devs, 3, "NO LOCATOR ").from, DIMM_SLOT_UNKNOWN);
	assert_int_equal(dimm_slot_find(NULL, devs, 3, "").from, DIMM_SLOT_UNKNOWN);
	assert_int_equal(dimm_slot_find(NULL, devs, 3, NULL).from, DIMM_SLOT_UNKNOWN);
	assert_int_equal(dimm_slot_find(NULL, NULL, 0, "P1-DIMMA1").from, DIMM_SLOT_UNKNOWN);
}

static void test_overrides(void **state)
{
	static const char file1[] =
		"# Supermicro X11DPi: i10nm labels to silkscreen\n"
		"CPU_SrcID#0_MC#0_Chan#0_DIMM#0 = P1-DIMMA1\n"
		"  CPU_SrcID#0_MC#0_Chan#1_DIMM#0\t=\tP1-DIMMB1  \r\n"
		"\n"
		"P0_Node0_Channel1_Dimm0 P1-DIMMB1 = P1-DIMMB1 (left bank)\n"
		"no equals sign here\n"
		"= P1-DIMMC1\n"
		"CPU_SrcID#0_MC#1_Chan#0_DIMM#0 =\n"
		"CPU_SrcID#1\x01 = X\n";
	static const char file2[] = "CPU_SrcID#0_MC#0_Chan#0_DIMM#0 = P1-DIMMA2";
	struct dimm_slots s = { 0 };
	struct dimm_slot r;

	(void) state;
	said[0] = '\0';
	assert_int_equal(dimm_slots_parse(&s, "a.conf", file1, sizeof(file1) - 1, collect, NULL), 0);
	assert_string_equal(said,
			    "a.conf:6: expected LABEL = SLOT\n"
			    "a.conf:7: no label before '='\n"
			    "a.conf:8: no slot after '='\n"
			    "a.conf:9: control or non-ASCII bytes\n");
	assert_int_equal(s.n, 3);
	r = dimm_slot_find(&s, devs, 3, "CPU_SrcID#0_MC#0_Chan#1_DIMM#0");
	assert_int_equal(r.from, DIMM_SLOT_OVERRIDE);
	assert_string_equal(r.slot, "P1-DIMMB1");
	assert_ptr_equal(r.dev, &devs[1]);
	/* An override wins over the SMBIOS names, and may name a slot SMBIOS does not know. */
	r = dimm_slot_find(&s, devs, 3, "P0_Node0_Channel1_Dimm0 P1-DIMMB1");
	assert_int_equal(r.from, DIMM_SLOT_OVERRIDE);
	assert_string_equal(r.slot, "P1-DIMMB1 (left bank)");
	assert_null(r.dev);
	/* A later file replaces the same label. */
	said[0] = '\0';
	assert_int_equal(dimm_slots_parse(&s, "b.conf", file2, sizeof(file2) - 1, collect, NULL), 0);
	assert_string_equal(said, "");
	assert_int_equal(s.n, 3);
	r = dimm_slot_find(&s, devs, 3, "CPU_SrcID#0_MC#0_Chan#0_DIMM#0");
	assert_string_equal(r.slot, "P1-DIMMA2");
	assert_null(r.dev);
	dimm_slots_done(&s);
	assert_int_equal(s.n, 0);
}

static void test_limits(void **state)
{
	struct dimm_slots s = { 0 };
	char line[400];

	(void) state;
	said[0] = '\0';
	memset(line, 'L', sizeof(line));
	memcpy(line + 200, " = X\n", 5);
	assert_int_equal(dimm_slots_parse(&s, "c.conf", line, 205, collect, NULL), 0);
	assert_string_equal(said, "c.conf:1: label longer than 95 bytes\n");
	said[0] = '\0';
	/* One '=' only: the last one ends the label. */
	memcpy(line, "A = ", 4);
	memset(line + 200, 'L', 4);
	assert_int_equal(dimm_slots_parse(&s, "c.conf", line, 205, collect, NULL), 0);
	assert_string_equal(said, "c.conf:1: slot name longer than 129 bytes\n");
	assert_int_equal(s.n, 0);
	/* Past the cap: said, the earlier ones kept, replacing one still works. */
	said[0] = '\0';
	for (unsigned i = 0; i <= DIMM_SLOTS_MAX_OVERRIDES; i++) {
		int n = snprintf(line, sizeof(line), "L%u = S%u", i, i);

		assert_int_equal(dimm_slots_parse(&s, "d.conf", line, (size_t) n, collect, NULL), 0);
	}
	assert_int_equal(s.n, DIMM_SLOTS_MAX_OVERRIDES);
	assert_string_equal(said, "d.conf:1: more than 4096 overrides\n");
	assert_int_equal(dimm_slots_parse(&s, "d.conf", "L7 = moved", 10, collect, NULL), 0);
	assert_string_equal(dimm_slot_find(&s, NULL, 0, "L7").slot, "moved");
	dimm_slots_done(&s);
}

/* The string field key of rec, NULL if it has none. */
static const char *text_of(const struct ras_record *rec, const char *key)
{
	const struct ras_field *f = ras_record_find(rec, key);

	return f && f->type == RAS_FIELD_STRING ? f->data : NULL;
}

/* A record names its slot: an EDAC event by its label, a CPER section by its module handle. */
static void test_records(void **state)
{
	static const char i10nm[] = "CPU_SrcID#0_MC#0_Chan#0_DIMM#0", ghes[] = "P0_Node0_Channel1_Dimm0 P1-DIMMB1";
	static const char file[] = "CPU_SrcID#0_MC#0_Chan#0_DIMM#0 = P1-DIMMA1\n";
	struct dimm_slots o = {};
	struct ras_record rec;

	(void) state;
	assert_int_equal(dimm_slots_parse(&o, "board.conf", file, sizeof(file) - 1, NULL, NULL), 0);

	ras_record_init(&rec, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_REPLAY);
	assert_int_equal(ras_record_add_string(&rec, "label", i10nm, sizeof(i10nm)), 0);
	assert_int_equal(dimm_slot_annotate(&o, devs, 3, &rec), 1);
	assert_string_equal(text_of(&rec, "dimm_slot"), "P1-DIMMA1");
	assert_string_equal(text_of(&rec, "dimm_bank_locator"), "P0_Node0_Channel0_Dimm0");
	/* Once: a record that has its slot (a replayed one) keeps it. */
	assert_int_equal(dimm_slot_annotate(&o, devs, 3, &rec), 0);
	ras_record_done(&rec);

	/* Without the override the numbered label names no slot, and nothing is added. */
	ras_record_init(&rec, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_REPLAY);
	assert_int_equal(ras_record_add_string(&rec, "label", i10nm, sizeof(i10nm)), 0);
	assert_int_equal(dimm_slot_annotate(NULL, devs, 3, &rec), 0);
	assert_null(ras_record_find(&rec, "dimm_slot"));
	ras_record_done(&rec);

	ras_record_init(&rec, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_REPLAY);
	assert_int_equal(ras_record_add_string(&rec, "label", ghes, sizeof(ghes)), 0);
	assert_int_equal(dimm_slot_annotate(NULL, devs, 3, &rec), 1);
	assert_string_equal(text_of(&rec, "dimm_slot"), "P1-DIMMB1");
	ras_record_done(&rec);

	/* CPER: the module's SMBIOS handle; a handle of no structure, or of one without a Locator, names none. */
	ras_record_init(&rec, RAS_EVENT_FIRMWARE_MEMORY, MCE_SOURCE_REPLAY);
	assert_int_equal(ras_record_add_hex(&rec, "module_handle", 0x1101), 0);
	assert_int_equal(dimm_slot_of_record(NULL, devs, 3, &rec).from, DIMM_SLOT_SMBIOS);
	assert_string_equal(dimm_slot_of_record(NULL, devs, 3, &rec).slot, "P1-DIMMB1");
	ras_record_done(&rec);
	ras_record_init(&rec, RAS_EVENT_FIRMWARE_MEMORY, MCE_SOURCE_REPLAY);
	assert_int_equal(ras_record_add_hex(&rec, "module_handle", 0x1102), 0);
	assert_int_equal(dimm_slot_of_record(NULL, devs, 3, &rec).from, DIMM_SLOT_UNKNOWN);
	ras_record_done(&rec);
	ras_record_init(&rec, RAS_EVENT_FIRMWARE_MEMORY, MCE_SOURCE_REPLAY);
	assert_int_equal(ras_record_add_hex(&rec, "module_handle", 0x2000), 0);
	assert_int_equal(dimm_slot_annotate(NULL, devs, 3, &rec), 0);
	ras_record_done(&rec);

	/* Other records (PCIe AER) name no DIMM, whatever their fields. */
	ras_record_init(&rec, RAS_EVENT_PCIE_AER, MCE_SOURCE_REPLAY);
	assert_int_equal(ras_record_add_string(&rec, "label", ghes, sizeof(ghes)), 0);
	assert_int_equal(dimm_slot_annotate(NULL, devs, 3, &rec), 0);
	ras_record_done(&rec);
	dimm_slots_done(&o);
}

/* The last '=' ends the label: a machine check's place is a label too. */
static void test_place_labels(void **state)
{
	static const char file[] = "socket=0 mc=0 channel=1 dimm=0 = P1-DIMMB1\n"
				   "socket=0 channel=2 dimm=1=P1-DIMMC1\n"
				   "socket=0 mc=0 channel=3 dimm=0 =\n";
	struct dimm_slots s = { 0 };
	struct dimm_slot r;

	(void) state;
	said[0] = '\0';
	assert_int_equal(dimm_slots_parse(&s, "p.conf", file, sizeof(file) - 1, collect, NULL), 0);
	assert_string_equal(said, "p.conf:3: no slot after '='\n");
	assert_int_equal(s.n, 2);
	r = dimm_slot_find(&s, devs, 3, "socket=0 mc=0 channel=1 dimm=0");
	assert_int_equal(r.from, DIMM_SLOT_OVERRIDE);
	assert_string_equal(r.slot, "P1-DIMMB1");
	r = dimm_slot_find(&s, devs, 3, "socket=0 channel=2 dimm=1");
	assert_string_equal(r.slot, "P1-DIMMC1");
	r = dimm_slot_find(&s, devs, 3, "socket=0");
	assert_int_equal(r.from, DIMM_SLOT_UNKNOWN);
	dimm_slots_done(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smbios_matches),
		cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_place_labels),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
