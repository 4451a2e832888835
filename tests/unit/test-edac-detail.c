/* SPDX-License-Identifier: MIT */
/*
 * The DRAM location in an EDAC mc_event's driver_detail (lib/edac-detail.c):
 * every form the kernel's drivers print, from real published strings where
 * there are any (cited at each), the record glue, and broken and hostile
 * text: a clear problem, the rest kept, never a crash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "edac-detail.h"
#include "ras-record.h"

static void assert_loc(const struct edac_location *l, enum edac_loc f, uint32_t v)
{
	if (!edac_location_has(l, f))
		fail_msg("%s absent", edac_loc_to_string(f));
	assert_int_equal(l->v[f], v);
}

/*
 * i10nm_edac's firmware (ADXL) decode on Ice Lake-SP, as printed in Tony
 * Luck's dmesg, https://lore.kernel.org/lkml/20210812152548.GA1579021@agluck-desk2.amr.corp.intel.com/
 * (the EDAC core prints the driver detail after "err_code").
 */
static const char adxl_real[] =
	"err_code:0x00a0:0x0090  SystemAddress:0x7e025e400 ProcessorSocketId:0x0 MemoryControllerId:0x3 "
	"ChannelAddress:0xec04bc00 ChannelId:0x0 RankAddress:0x76025c00 PhysicalRankId:0x1 DimmSlotId:0x0 "
	"Row:0x3b01 Column:0x380 Bank:0x0 BankGroup:0x2 ChipSelect:0x1 ChipId:0x0";

static void test_adxl_real(void **state)
{
	struct edac_location l;

	(void) state;
	assert_int_equal(edac_detail_parse(adxl_real, sizeof(adxl_real), &l), 10);
	assert_int_equal(l.n_problems, 0);
	assert_loc(&l, EDAC_LOC_SOCKET, 0);
	assert_loc(&l, EDAC_LOC_MEMORY_CONTROLLER, 3);
	assert_loc(&l, EDAC_LOC_CHANNEL, 0);
	assert_loc(&l, EDAC_LOC_DIMM, 0);
	assert_loc(&l, EDAC_LOC_RANK, 1);
	assert_loc(&l, EDAC_LOC_ROW, 0x3b01);
	assert_loc(&l, EDAC_LOC_COLUMN, 0x380);
	assert_loc(&l, EDAC_LOC_BANK, 0);
	assert_loc(&l, EDAC_LOC_BANK_GROUP, 2);
	assert_loc(&l, EDAC_LOC_CHIP_SELECT, 1);
}

/*
 * The register-decode form: skx_common.c's format string
 * " err_code:0x%04x:0x%04x ProcessorSocketId:0x%x MemoryControllerId:0x%x
 * PhysicalRankId:0x%x Row:0x%x Column:0x%x Bank:0x%x BankGroup:0x%x"
 * with illustrative values (no published capture found).
 */
/*
 * imh_edac (Diamond Rapids) prints through skx_common.c's firmware form:
 * "%s%s err_code:0x%04x:0x%04x %s" with the ADXL components as " %s:0x%llx"
 * (skx_mce_output_error(), skx_adxl_decode()).  No imh log has been
 * published that we could find: these are built from that format, with the
 * component names of Intel's ADXL _DSM list.  A hub's controllers are
 * numbered 0-7 north and 8-15 south, so MemoryControllerId passes 7.
 */
static const char imh_1lm[] =
	" err_code:0x0000:0x009f  SystemAddress:0x2f1a3c0c0 ProcessorSocketId:0x1 MemoryControllerId:0xb "
	"ChannelId:0x0 PhysicalRankId:0x1 DimmSlotId:0x0 Row:0x1e2a Column:0x1f0 Bank:0x1 BankGroup:0x5 "
	"ChipSelect:0x1";

/* 2-level memory: both memories' coordinates; MCACOD says which one failed. */
#define IMH_2LM_COMPONENTS \
	"  SystemAddress:0x4a00c1040 ProcessorSocketId:0x0 MemoryControllerId:0x2 NmMemoryControllerId:0xa " \
	"ChannelId:0x0 NmChannelId:0x0 PhysicalRankId:0x0 NmPhysicalRankId:0x1 DimmSlotId:0x0 NmDimmSlotId:0x1 " \
	"Row:0x10 NmRow:0x2b3c Column:0x20 NmCol:0x3f8 Bank:0x3 NmBank:0x2 BankGroup:0x1 NmBankGroup:0x6 " \
	"ChipSelect:0x0 NmChipSelect:0x1"

static void test_imh_form(void **state)
{
	struct edac_location l;

	(void) state;
	assert_int_equal(edac_detail_parse(imh_1lm, sizeof(imh_1lm), &l), 10);
	assert_int_equal(l.n_problems, 0);
	assert_loc(&l, EDAC_LOC_SOCKET, 1);
	assert_loc(&l, EDAC_LOC_MEMORY_CONTROLLER, 11);
	assert_loc(&l, EDAC_LOC_CHANNEL, 0);
	assert_loc(&l, EDAC_LOC_DIMM, 0);
	assert_loc(&l, EDAC_LOC_RANK, 1);
	assert_loc(&l, EDAC_LOC_ROW, 0x1e2a);
	assert_loc(&l, EDAC_LOC_COLUMN, 0x1f0);
	assert_loc(&l, EDAC_LOC_BANK, 1);
	assert_loc(&l, EDAC_LOC_BANK_GROUP, 5);
	assert_loc(&l, EDAC_LOC_CHIP_SELECT, 1);
}

static void test_imh_2lm(void **state)
{
	static const char near[] = " recoverable err_code:0x0000:0x0280" IMH_2LM_COMPONENTS;
	static const char far[] = " err_code:0x0000:0x0090" IMH_2LM_COMPONENTS;
	static const char near_filtered[] = " err_code:0x0000:0x1293" IMH_2LM_COMPONENTS;
	static const char far_filtered[] = " err_code:0x0000:0x1093" IMH_2LM_COMPONENTS;
	static const char near_no_dimm[] =
		" err_code:0x0000:0x0281  ProcessorSocketId:0x0 MemoryControllerId:0x2 NmMemoryControllerId:0xa "
		"ChannelId:0x0 NmChannelId:0x0 DimmSlotId:0x1 Row:0x10";
	struct edac_location l;

	(void) state;
	/* near memory (MCACOD 0280H): the Nm* coordinates are the error's */
	edac_detail_parse(near, sizeof(near), &l);
	assert_int_equal(l.n_problems, 0);
	assert_loc(&l, EDAC_LOC_SOCKET, 0);
	assert_loc(&l, EDAC_LOC_MEMORY_CONTROLLER, 10);
	assert_loc(&l, EDAC_LOC_DIMM, 1);
	assert_loc(&l, EDAC_LOC_RANK, 1);
	assert_loc(&l, EDAC_LOC_ROW, 0x2b3c);
	assert_loc(&l, EDAC_LOC_COLUMN, 0x3f8);
	assert_loc(&l, EDAC_LOC_BANK, 2);
	assert_loc(&l, EDAC_LOC_BANK_GROUP, 6);
	assert_loc(&l, EDAC_LOC_CHIP_SELECT, 1);

	/* far memory (0090H): the plain ones */
	edac_detail_parse(far, sizeof(far), &l);
	assert_loc(&l, EDAC_LOC_MEMORY_CONTROLLER, 2);
	assert_loc(&l, EDAC_LOC_DIMM, 0);
	assert_loc(&l, EDAC_LOC_ROW, 0x10);
	assert_loc(&l, EDAC_LOC_BANK, 3);

	/* the kernel masks MCACOD with EF80H: the filtering bit (12) and the channel do not count */
	edac_detail_parse(near_filtered, sizeof(near_filtered), &l);
	assert_loc(&l, EDAC_LOC_MEMORY_CONTROLLER, 10);
	edac_detail_parse(far_filtered, sizeof(far_filtered), &l);
	assert_loc(&l, EDAC_LOC_MEMORY_CONTROLLER, 2);

	/* near memory, but the firmware gave no near DIMM: unknown, not the far memory's */
	edac_detail_parse(near_no_dimm, sizeof(near_no_dimm), &l);
	assert_loc(&l, EDAC_LOC_MEMORY_CONTROLLER, 10);
	assert_false(edac_location_has(&l, EDAC_LOC_DIMM));
	assert_false(edac_location_has(&l, EDAC_LOC_ROW));
}

static void test_register_form(void **state)
{
	static const char s[] = " err_code:0x0000:0x009f ProcessorSocketId:0x1 MemoryControllerId:0x1 "
				"PhysicalRankId:0x0 Row:0x1a2f Column:0x3f8 Bank:0x2 BankGroup:0x1";
	struct edac_location l;

	(void) state;
	assert_int_equal(edac_detail_parse(s, sizeof(s), &l), 7);
	assert_loc(&l, EDAC_LOC_SOCKET, 1);
	assert_loc(&l, EDAC_LOC_MEMORY_CONTROLLER, 1);
	assert_loc(&l, EDAC_LOC_RANK, 0);
	assert_loc(&l, EDAC_LOC_ROW, 0x1a2f);
	assert_loc(&l, EDAC_LOC_COLUMN, 0x3f8);
	assert_loc(&l, EDAC_LOC_BANK, 2);
	assert_loc(&l, EDAC_LOC_BANK_GROUP, 1);
	assert_false(edac_location_has(&l, EDAC_LOC_CHANNEL));
	assert_false(edac_location_has(&l, EDAC_LOC_DIMM));
}

/*
 * skx_edac before the ADXL names.  Real (cut where the reporter's line was
 * cut): https://github.com/mchehab/rasdaemon/issues/33 "... OVERFLOW
 * err_code:0x0101:0x0091 socket:1 imc:1 rank:0 b..."; then the full form
 * from that kernel's format "socket:%d imc:%d rank:%d bg:%d ba:%d row:0x%x col:0x%x".
 */
static void test_old_skx_form(void **state)
{
	static const char cut[] = " OVERFLOW err_code:0x0101:0x0091 socket:1 imc:1 rank:0 b";
	static const char full[] = "err_code:0x0101:0x0091 socket:1 imc:1 rank:3 bg:2 ba:1 row:0x1f00 col:0x3f8";
	struct edac_location l;

	(void) state;
	assert_int_equal(edac_detail_parse(cut, sizeof(cut), &l), 3);
	assert_int_equal(l.n_problems, 0);
	assert_loc(&l, EDAC_LOC_SOCKET, 1);
	assert_loc(&l, EDAC_LOC_MEMORY_CONTROLLER, 1);
	assert_loc(&l, EDAC_LOC_RANK, 0);

	assert_int_equal(edac_detail_parse(full, sizeof(full), &l), 7);
	assert_loc(&l, EDAC_LOC_RANK, 3);
	assert_loc(&l, EDAC_LOC_BANK_GROUP, 2);
	assert_loc(&l, EDAC_LOC_BANK, 1);
	assert_loc(&l, EDAC_LOC_ROW, 0x1f00);
	assert_loc(&l, EDAC_LOC_COLUMN, 0x3f8);
}

/* sb_edac's detail (its format: "area:%s err_code:%04x:%04x socket:%d ha:%d channel_mask:%ld rank:%d"). */
static void test_sb_edac_form(void **state)
{
	static const char s[] = " area:DRAM err_code:0001:0092 socket:0 ha:1 channel_mask:4 rank:2";
	struct edac_location l;

	(void) state;
	assert_int_equal(edac_detail_parse(s, sizeof(s), &l), 3);
	assert_int_equal(l.n_problems, 0);
	assert_loc(&l, EDAC_LOC_MEMORY_CONTROLLER, 1);
	assert_loc(&l, EDAC_LOC_RANK, 2);
}

/*
 * ghes_edac: "APEI location: " + cper_mem_err_location() (decimal, bank
 * packed as group << 8 | address) + the DIMM location and status text.
 */
static void test_ghes_form(void **state)
{
	static const char s[] = "APEI location: node:1 card:0 module:3 rank:1 bank:513 bank_group:2 bank_address:1 "
				"device:4 row:4660 column:96 bit_position:7 requestor_id:0x0000000000000000 "
				"DIMM location: P1_Node1_Channel2_Dimm0 status(0x0000000000000400): Storage error in DRAM memory";
	static const char old[] = "APEI location: node:0 card:1 module:0 rank:0 bank:5 row:100 col:8 bit_pos:3 "
				  "DIMM location:CPU1 DIMM_A1 requestorID: 0x0000000000000000";
	struct edac_location l;

	(void) state;
	edac_detail_parse(s, sizeof(s), &l);
	assert_int_equal(l.n_problems, 0);
	assert_loc(&l, EDAC_LOC_SOCKET, 1);
	assert_loc(&l, EDAC_LOC_DIMM, 3);
	assert_loc(&l, EDAC_LOC_BANK_GROUP, 2);
	assert_loc(&l, EDAC_LOC_BANK, 1);     /* the address, not the packed 513 */
	assert_loc(&l, EDAC_LOC_ROW, 4660);
	assert_loc(&l, EDAC_LOC_COLUMN, 96);
	assert_loc(&l, EDAC_LOC_DEVICE, 4);
	assert_loc(&l, EDAC_LOC_BIT_POSITION, 7);

	edac_detail_parse(old, sizeof(old), &l);
	assert_int_equal(l.n_problems, 0);
	assert_loc(&l, EDAC_LOC_BANK, 5);     /* the whole bank: no group given */
	assert_false(edac_location_has(&l, EDAC_LOC_BANK_GROUP));
	assert_loc(&l, EDAC_LOC_ROW, 100);
	assert_loc(&l, EDAC_LOC_COLUMN, 8);
	assert_loc(&l, EDAC_LOC_BIT_POSITION, 3);
}

/* amd64_edac and drivers that give nothing. */
static void test_nothing(void **state)
{
	struct edac_location l;

	(void) state;
	assert_int_equal(edac_detail_parse("", 1, &l), 0);
	assert_int_equal(edac_detail_parse(NULL, 0, &l), 0);
	assert_int_equal(edac_detail_parse("   \t\n ", 7, &l), 0);
	assert_int_equal(l.n_problems, 0);
	assert_string_equal(l.problem, "");
}

static void test_broken(void **state)
{
	struct edac_location l;
	static const char many[] = "Row:0x1 Row: Column:0xzz Bank:0x100000000 Row:0x2 BankGroup:0x3";

	(void) state;
	/* Each kind of problem on its own, named with its offset and word; the rest kept. */
	edac_detail_parse("Row:0x12g Column:0x40", 22, &l);
	assert_int_equal(l.n_problems, 1);
	assert_string_equal(l.problem, "driver_detail at offset 0: 'Row:0x12g' is not a number");
	assert_false(edac_location_has(&l, EDAC_LOC_ROW));
	assert_loc(&l, EDAC_LOC_COLUMN, 0x40);

	edac_detail_parse("Bank:0x1 Row:", 14, &l);
	assert_string_equal(l.problem, "driver_detail at offset 9: 'Row:' has no value");
	assert_loc(&l, EDAC_LOC_BANK, 1);

	edac_detail_parse("Row:0x100000000", 16, &l);
	assert_string_equal(l.problem, "driver_detail at offset 0: 'Row:0x100000000' is wider than 32 bits");
	edac_detail_parse("row:99999999999999999999999999", 31, &l);
	assert_string_equal(l.problem, "driver_detail at offset 0: 'row:99999999999999999999999999' is wider than 32 bits");
	edac_detail_parse("Row:0xffffffff", 15, &l);
	assert_int_equal(l.n_problems, 0);
	assert_loc(&l, EDAC_LOC_ROW, UINT32_MAX);

	/* A key twice: the same value is no problem, a different one is; the first is kept. */
	edac_detail_parse("Row:0x5 row:5", 14, &l);
	assert_int_equal(l.n_problems, 0);
	edac_detail_parse("Row:0x5 Row:0x6", 16, &l);
	assert_int_equal(l.n_problems, 1);
	assert_string_equal(l.problem,
			    "driver_detail at offset 8: 'Row:0x6' repeats a key with a different value; the first is kept");
	assert_loc(&l, EDAC_LOC_ROW, 5);

	/* Several: counted, the first described, the good ones kept. */
	edac_detail_parse(many, sizeof(many), &l);
	assert_int_equal(l.n_problems, 4);
	assert_string_equal(l.problem, "driver_detail at offset 8: 'Row:' has no value");
	assert_loc(&l, EDAC_LOC_ROW, 1);
	assert_loc(&l, EDAC_LOC_BANK_GROUP, 3);
	assert_false(edac_location_has(&l, EDAC_LOC_COLUMN));
	assert_false(edac_location_has(&l, EDAC_LOC_BANK));

	/* -1 is the drivers' "unknown": absent, no problem; "-" alone and "-x" are problems. */
	edac_detail_parse("rank:-1 row:-", 14, &l);
	assert_false(edac_location_has(&l, EDAC_LOC_RANK));
	assert_int_equal(l.n_problems, 1);
	assert_string_equal(l.problem, "driver_detail at offset 8: 'row:-' is not a number");

	/* Cut mid-number by the length given: what is there is read. */
	edac_detail_parse("Row:0x1234", 8, &l);
	assert_loc(&l, EDAC_LOC_ROW, 0x12);
	/* "0x" alone is no number. */
	edac_detail_parse("Row:0x", 6, &l);
	assert_string_equal(l.problem, "driver_detail at offset 0: 'Row:0x' is not a number");
	/* Keys differ by case: "ROW" is no key of any form. */
	assert_int_equal(edac_detail_parse("ROW:0x5 Rows:1 :5 Row:", 22, &l), 0);
	assert_int_equal(l.n_problems, 1);
}

static void test_hostile(void **state)
{
	struct edac_location l;
	size_t n = 1 << 16;
	char *big = malloc(n + 1);
	static const char ctl[] = "Row:0x1\x01\x7f\xff";

	(void) state;
	assert_non_null(big);
	/* A long word: the problem text stays bounded and printable. */
	memset(big, 'f', n);
	memcpy(big, "Row:0x", 6);
	big[n] = '\0';
	edac_detail_parse(big, n, &l);
	assert_int_equal(l.n_problems, 1);
	assert_true(strlen(l.problem) < sizeof(l.problem));
	assert_non_null(strstr(l.problem, "...' is wider than 32 bits"));
	/* Many repeats of one key: linear, one problem per different value. */
	for (size_t i = 0; i + 8 <= n; i += 8)
		memcpy(big + i, "Row:0x1 ", 8);
	edac_detail_parse(big, n, &l);
	assert_int_equal(l.n_problems, 0);
	assert_loc(&l, EDAC_LOC_ROW, 1);
	free(big);
	/* Control and high bytes glued to a value. */
	edac_detail_parse(ctl, sizeof(ctl), &l);
	assert_int_equal(l.n_problems, 1);
	assert_string_equal(l.problem, "driver_detail at offset 0: 'Row:0x1?\?\?' is not a number");
}

static void test_record_glue(void **state)
{
	struct ras_record r;
	const struct ras_field *f;

	(void) state;
	ras_record_init(&r, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
	assert_int_equal(ras_record_add_string(&r, "driver_detail", adxl_real, SIZE_MAX), 0);
	/* A field the record already has is left as it is. */
	assert_int_equal(ras_record_add_uint(&r, "row", 7), 0);
	assert_int_equal(ras_record_add_edac_location(&r), 9);
	f = ras_record_find(&r, "row");
	assert_int_equal(f->u, 7);
	f = ras_record_find(&r, "bank_group");
	assert_non_null(f);
	assert_int_equal(f->type, RAS_FIELD_UINT);
	assert_int_equal(f->u, 2);
	assert_int_equal(ras_record_find(&r, "memory_controller")->u, 3);
	assert_null(ras_record_find(&r, "driver_detail_problem"));
	/* Again: nothing more to add. */
	assert_int_equal(ras_record_add_edac_location(&r), 0);
	ras_record_done(&r);

	/* A problem is kept in the record, next to the fields that were good. */
	ras_record_init(&r, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
	assert_int_equal(ras_record_add_string(&r, "driver_detail", "Row:0x10 Column:oops", SIZE_MAX), 0);
	assert_int_equal(ras_record_add_edac_location(&r), 1);
	f = ras_record_find(&r, "driver_detail_problem");
	assert_non_null(f);
	assert_string_equal(f->data, "driver_detail at offset 9: 'Column:oops' is not a number");
	ras_record_done(&r);

	/* No detail, or not a string: nothing. */
	ras_record_init(&r, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
	assert_int_equal(ras_record_add_edac_location(&r), 0);
	assert_int_equal(ras_record_add_uint(&r, "driver_detail", 5), 0);
	assert_int_equal(ras_record_add_edac_location(&r), 0);
	ras_record_done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_adxl_real),
		cmocka_unit_test(test_imh_form),
		cmocka_unit_test(test_imh_2lm),
		cmocka_unit_test(test_register_form),
		cmocka_unit_test(test_old_skx_form),
		cmocka_unit_test(test_sb_edac_form),
		cmocka_unit_test(test_ghes_form),
		cmocka_unit_test(test_nothing),
		cmocka_unit_test(test_broken),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_record_glue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
