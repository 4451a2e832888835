/* SPDX-License-Identifier: MIT */
/*
 * Diamond Rapids (family 19, model 1) model-specific banks
 * (decoders/intel-server.c names the source).  The one Diamond Rapids
 * machine check published that we could find is a core-bank record (see
 * test_core_banks_architectural_only); every other record here is built
 * from the layout: each MISC field set to a value of its own, so a field
 * read from the wrong bits cannot pass.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "decode.h"
#include "decoded-details.h"
#include "record.h"

#define BIT(n) (UINT64_C(1) << (n))
#define VAL   BIT(63)
#define UC    BIT(61)
#define EN    BIT(60)
#define MISCV BIT(59)
#define ADDRV BIT(58)
#define OTHER_INFO_1 BIT(33)
#define MSCOD(v) ((uint64_t) (v) << 16)

static struct mce_record rec(uint32_t bank, uint64_t status)
{
	return (struct mce_record) {
		.have = MCE_HAVE_STATUS | MCE_HAVE_VENDOR | MCE_HAVE_CPUID | MCE_HAVE_BANK,
		.vendor = MCE_VENDOR_INTEL, .family = 19, .model = 1, .bank = bank, .status = status,
	};
}

/* CPUID(1).EAX 0x00400f10: base family 0FH + extended 04H = 19, model 01H. */
static void test_identity(void **state)
{
	struct mce_record r = { 0 };
	struct mce_decoded d;

	(void) state;
	mce_record_set_cpuid(&r, 0x00400f10);
	assert_int_equal(r.family, 19);
	assert_int_equal(r.model, 1);
	r.have |= MCE_HAVE_VENDOR | MCE_HAVE_BANK | MCE_HAVE_STATUS;
	r.vendor = MCE_VENDOR_INTEL;
	r.bank = 18;
	r.status = VAL | EN | MSCOD(0x0203) | 0x0e0f;
	mce_decode(&r, &d);
	assert_false(d.unknown_model);
	assert_string_equal(d.cpu_model, "Diamond Rapids");
	assert_string_equal(d.bank_type, "UPI");
	assert_string_equal(d.description, "Link degraded");
}

static void test_bank_names(void **state)
{
	static const struct { uint32_t bank; const char *type; } banks[] = {
		{ 4, "CBB_PUNIT" }, { 11, "IMH_PUNIT" }, { 18, "UPI" }, { 19, "MCCHAN" }, { 26, "MCCHAN" },
	};
	struct mce_decoded d;

	(void) state;
	for (size_t i = 0; i < sizeof(banks) / sizeof(banks[0]); i++) {
		struct mce_record r = rec(banks[i].bank, VAL | 0x0005);

		mce_decode(&r, &d);
		assert_string_equal(d.bank_type, banks[i].type);
	}
	/* the banks the source leaves unnamed stay unknown, not borrowed from Granite Rapids */
	for (uint32_t b = 0; b < 32; b++) {
		struct mce_record r = rec(b, VAL | 0x0005);

		if (b == 4 || b == 11 || (b >= 18 && b <= 26))
			continue;
		mce_decode(&r, &d);
		assert_null(d.bank_name);
	}
}

static void test_cbb_punit(void **state)
{
	struct mce_record r = rec(4, VAL | UC | EN | MSCOD(0x0830) | 0x0402);
	struct mce_decoded d;

	(void) state;
	mce_decode(&r, &d);
	assert_string_equal(d.description, "Power-management firmware (pcode) watchdog expired");
	assert_detail(&d, "mnemonic", 0x0830, "MCA_PCODE_WATCHDOG");

	/* MCACOD 040BH is a Scan-at-Field error whatever MSCOD holds */
	r.status = VAL | UC | EN | MSCOD(0x0830) | 0x040b;
	mce_decode(&r, &d);
	assert_string_equal(d.description, "Scan-at-Field (in-field scan) test found a fault");

	r.status = VAL | UC | EN | MSCOD(0x1402) | 0x0402;
	mce_decode(&r, &d);
	assert_detail(&d, "mnemonic", 0x1402, "MCA_FIVR_HI_RED");
	/* a group the source does not list: no text */
	r.status = VAL | UC | EN | MSCOD(0x0401) | 0x0402;
	mce_decode(&r, &d);
	assert_null(d.description);
}

/* IMH Punit: a firmware code in MSCOD[15:8] wins over whatever MSCOD[7:0] holds. */
static void test_imh_punit(void **state)
{
	struct mce_record r = rec(11, VAL | UC | EN | MSCOD(0x7e55) | 0x0402);
	struct mce_decoded d;

	(void) state;
	mce_decode(&r, &d);
	assert_string_equal(d.description, "Die too hot, recoverable thermal event");
	assert_detail(&d, "mnemonic", 0x7e55, "MCA_RECOVERABLE_DIE_THERMAL_TOO_HOT");
	r.status = VAL | UC | EN | MSCOD(0x00a0) | 0x0402;
	mce_decode(&r, &d);
	assert_string_equal(d.description, "Double-bit ECC error in the HPM SRAM");
	r.status = VAL | UC | EN | MSCOD(0x0003) | 0x0402;
	mce_decode(&r, &d);
	assert_string_equal(d.description, "Power-management microcontroller: double-bit ECC error");
}

static void test_upi(void **state)
{
	struct mce_record r = rec(18, VAL | EN | MSCOD(0x002b) | 0x0e0f);
	struct mce_decoded d;

	(void) state;
	mce_decode(&r, &d);
	assert_string_equal(d.description, "Power-management transition timed out");
	r.status = VAL | EN | MSCOD(0x0030) | 0x0e0f;
	mce_decode(&r, &d);
	assert_string_equal(d.description, "Poison received while poisoning is disabled");
}

/* Every MISC field at a value of its own. */
#define M_COLUMN    UINT64_C(0x155)     /* [18:9], in units of 4 */
#define M_ROW       UINT64_C(0x2a5a5)   /* [36:19] */
#define M_BANK      UINT64_C(2)         /* [38:37] */
#define M_BG        UINT64_C(5)         /* [41:39] */
#define M_FDEV      UINT64_C(0x13)      /* [48:44], valid with [42] */
#define M_SUBRANK   UINT64_C(9)         /* [54:51] */
#define M_CS        UINT64_C(2)         /* [56:55] */
#define M_ECC       UINT64_C(4)         /* [61:58]: ADDDC 80b 1LM */
#define MISC_ALL (M_COLUMN << 9 | M_ROW << 19 | M_BANK << 37 | M_BG << 39 | BIT(42) | M_FDEV << 44 | \
		  BIT(49) | M_SUBRANK << 51 | M_CS << 55 | M_ECC << 58)

static void test_mcchan_misc(void **state)
{
	struct mce_record r = rec(22, VAL | EN | MISCV | ADDRV | OTHER_INFO_1 | MSCOD(0x0080) | 0x009f);
	struct mce_decoded d;

	(void) state;
	r.have |= MCE_HAVE_MISC;
	r.misc = MISC_ALL;
	mce_decode(&r, &d);
	assert_string_equal(d.description, "Transient or corrected error on a demand or underfill read");
	assert_detail(&d, "mnemonic", 0x0080, "Transient or Correctable Error for Demand or Underfill Reads");
	assert_int_equal(d.column, M_COLUMN << 2);
	assert_int_equal(d.row, M_ROW);
	assert_int_equal(d.dram_bank, M_BANK);
	assert_int_equal(d.bank_group, M_BG);
	assert_int_equal(d.chip_select, M_CS);
	assert_detail(&d, "sub_channel", 1, NULL);
	assert_detail(&d, "sub_rank", M_SUBRANK, NULL);
	assert_detail(&d, "failed_device", M_FDEV, NULL);
	assert_detail(&d, "ecc_mode", M_ECC, "ADDDC 80b 1LM");
	assert_null(detail(&d, "transient"));

	/* transient: no failed device nor ECC mode, as the source prints none */
	r.misc = MISC_ALL | BIT(63);
	mce_decode(&r, &d);
	assert_detail(&d, "transient", 1, "transient");
	assert_null(detail(&d, "failed_device"));
	assert_null(detail(&d, "ecc_mode"));
	assert_int_equal(d.row, M_ROW);

	/* the failed device only when MISC[42] says it is valid */
	r.misc = MISC_ALL & ~BIT(42);
	mce_decode(&r, &d);
	assert_null(detail(&d, "failed_device"));

	/* without STATUS[33], MISC holds no location */
	r.status &= ~OTHER_INFO_1;
	r.misc = MISC_ALL;
	mce_decode(&r, &d);
	assert_int_equal(d.row, -1);
	assert_int_equal(d.chip_select, -1);
	assert_null(detail(&d, "sub_rank"));

	/* from MSCOD 0800H on, MISC is proprietary: no location */
	r.status = VAL | EN | MISCV | ADDRV | OTHER_INFO_1 | MSCOD(0x0832) | 0x009f;
	mce_decode(&r, &d);
	assert_string_equal(d.description, "Memory controller internal error");
	assert_int_equal(d.row, -1);
	assert_int_equal(d.chip_select, -1);
	assert_null(detail(&d, "ecc_mode"));
}

/* The channel across the socket: the bank's place in 19..26, plus 8 on the IMH that APIC ID bit 2 names. */
static void test_channel_from_bank_and_apicid(void **state)
{
	struct mce_record r = rec(21, VAL | EN | MSCOD(0x0080) | 0x009f);
	struct mce_decoded d;

	(void) state;
	mce_decode(&r, &d);
	assert_null(detail(&d, "imh"));
	assert_int_equal(d.channel, -1);   /* MCACOD says "unspecified" and no APIC ID */

	r.have |= MCE_HAVE_APICID;
	r.apicid = 0x2c;                   /* bit 2 set: the second IMH */
	mce_decode(&r, &d);
	assert_detail(&d, "imh", 1, NULL);
	assert_int_equal(d.channel, 2 + 8);

	r.apicid = 0x2b;
	mce_decode(&r, &d);
	assert_detail(&d, "imh", 0, NULL);
	assert_int_equal(d.channel, 2);

	/* not a memory error: the IMH is said, no channel invented */
	r.status = VAL | UC | EN | MSCOD(0x0109) | 0x0005;
	mce_decode(&r, &d);
	assert_detail(&d, "imh", 0, NULL);
	assert_int_equal(d.channel, -1);
	assert_string_equal(d.description, "Illegal incoming opcode");
}

/*
 * The core banks MC0-3.  No public source we could read decodes them for this
 * family (intel-server.c says which were read), so a core-bank record is
 * decoded by the architecture alone: MCACOD and the severity, the MSCOD kept
 * as a number, the bank unnamed.  The STATUS is the one public Diamond Rapids
 * record, mcelog's sample input/dmr_dcu_srar (commit 14de766: CPU 0, bank 1,
 * PROCESSOR 0:0x400f10), an L0 data-read cache error logged SRAR.
 */
#define DMR_DCU_SRAR UINT64_C(0xbd80000010100134)

static void test_core_banks_architectural_only(void **state)
{
	/* MSCODs that another Diamond Rapids bank names (CBB Punit 0830H, UPI
	 * 0203H, MC channel 0080H): in a core bank no table may lend them its text */
	static const uint16_t elsewhere[] = { 0x0830, 0x0203, 0x0080, 0x1010 };
	struct mce_record r = rec(1, DMR_DCU_SRAR);
	struct mce_decoded d;

	(void) state;
	mce_decode(&r, &d);
	assert_false(d.unknown_model);
	assert_string_equal(d.cpu_model, "Diamond Rapids");
	assert_int_equal(d.severity, MCE_SEV_UNCORRECTED);
	assert_int_equal(d.recovery, MCE_RECOVERY_SRAR);
	assert_int_equal(d.error_class, MCE_CLASS_CACHE);
	assert_int_equal(d.cache_level, MCE_LEVEL_0);
	assert_int_equal(d.transaction_type, MCE_TT_DATA);
	assert_int_equal(d.request, MCE_RQ_DATA_READ);
	assert_true(d.has_model_specific_code);
	assert_int_equal(d.model_specific_code, 0x1010);
	assert_null(d.bank_name);
	assert_null(d.bank_type);
	assert_null(d.description);
	assert_null(detail(&d, "mnemonic"));

	for (uint32_t b = 0; b <= 3; b++)
		for (size_t i = 0; i < sizeof(elsewhere) / sizeof(elsewhere[0]); i++) {
			r = rec(b, (DMR_DCU_SRAR & ~MSCOD(0xffff)) | MSCOD(elsewhere[i]));
			mce_decode(&r, &d);
			assert_int_equal(d.cache_level, MCE_LEVEL_0);
			assert_int_equal(d.model_specific_code, elsewhere[i]);
			assert_null(d.bank_name);
			assert_null(d.description);
			assert_null(detail(&d, "mnemonic"));
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_bank_names),
		cmocka_unit_test(test_cbb_punit),
		cmocka_unit_test(test_imh_punit),
		cmocka_unit_test(test_upi),
		cmocka_unit_test(test_mcchan_misc),
		cmocka_unit_test(test_channel_from_bank_and_apicid),
		cmocka_unit_test(test_core_banks_architectural_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
