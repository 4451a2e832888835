/* SPDX-License-Identifier: MIT */
/*
 * Vendor CPER sections of Arm servers (decoders/arm-vendor*.c).
 *
 * Golden: [ALTRA] Aristeu Rozanski, "Error reports at boot time in Ampere
 * Altra machines since c733ebb7c", linux-kernel, 2 Mar 2023,
 * https://lore.kernel.org/all/20230302201732.pwnhg46mum6st2bv@redhat.com/
 * Two 0x30-byte sections of type e8ed898d-df16-43cc-8ecc-54f060ef157f as the
 * kernel dumped them (32-bit little-endian words), on real Altra machines.
 * The NVIDIA Grace and Vera, Alibaba Yitian, HiSilicon and JaguarMicro sections are built
 * from their published layouts (each decoder's file names its source): no raw
 * section of theirs has been published that we could find.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "arm-vendor.h"
#include "cper.h"
#include "ras-record.h"

static const struct cper_guid ampere = {
	0xe8ed898d, 0xdf16, 0x43cc, { 0x8e, 0xcc, 0x54, 0xf0, 0x60, 0xef, 0x15, 0x7f } };
static const struct cper_guid yitian = {
	0xa6980811, 0x16ea, 0x4e4d, { 0xb9, 0x36, 0xfb, 0x00, 0xa2, 0x3f, 0xf2, 0x9c } };
static const struct cper_guid hisilicon = {
	0xc8b328a8, 0x9917, 0x4af6, { 0x9a, 0x13, 0x2e, 0x08, 0xab, 0x2e, 0x75, 0x86 } };
static const struct cper_guid vera = {
	0x9068e568, 0x6ca0, 0x11f0, { 0xae, 0xaf, 0x15, 0x93, 0x43, 0x59, 0x1e, 0xac } };
static const struct cper_guid hisilicon_pcie = {
	0xb2889fc9, 0xe7d7, 0x4f9d, { 0xa8, 0x67, 0xaf, 0x42, 0xe9, 0x8b, 0xe7, 0x72 } };
static const struct cper_guid grace = {
	0x6d5244f2, 0x2712, 0x11ec, { 0xbe, 0xa7, 0xcb, 0x3f, 0xdb, 0x95, 0xc7, 0x86 } };
static const struct cper_guid jm_ram = {
	0x82d78ba3, 0xfa14, 0x407a, { 0xba, 0x0e, 0xf3, 0xba, 0x81, 0x70, 0x01, 0x3c } };
static const struct cper_guid jm_smmu = {
	0xf9723053, 0x2558, 0x49b1, { 0xb5, 0x8a, 0x1c, 0x1a, 0x82, 0x49, 0x2a, 0x62 } };
static const struct cper_guid jm_cmn = {
	0xdac80d69, 0x0a72, 0x4eba, { 0x81, 0x14, 0x14, 0x8e, 0xe3, 0x44, 0xaf, 0x06 } };
static const struct cper_guid jm_gic = {
	0x746f06fe, 0x405e, 0x451f, { 0x8d, 0x09, 0x02, 0xe8, 0x02, 0xed, 0x98, 0x4a } };

static const char *text(const struct ras_record *r, const char *key)
{
	const struct ras_field *f = ras_record_find(r, key);

	if (!f)
		fail_msg("no field \"%s\"", key);
	assert_int_equal(f->type, RAS_FIELD_STRING);
	return f->data;
}

static uint64_t number(const struct ras_record *r, const char *key)
{
	const struct ras_field *f = ras_record_find(r, key);

	if (!f)
		fail_msg("no field \"%s\"", key);
	return f->u;
}

/* print_hex_dump()'s 32-bit words back to the bytes they were read from. */
static void words(uint8_t *p, const uint32_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 4; b++)
			p[4 * i + b] = (uint8_t) (w[i] >> (8 * b));
}

static void test_golden_altra_gic(void **state)
{
	/* [ALTRA] sections {1} (source 0) and {2} (source 3), 0x30 bytes each */
	static const uint32_t first[12] = { 0x00000005, 0xec30000e, 0x00080110, 0x80001001, 0x00000300 };
	static const uint32_t second[12] = { 0x40000005, 0xec30000e, 0x00080110, 0x80005001, 0x00000300 };
	uint8_t d[48];
	struct ras_record r;
	struct arm_problem pb;
	char what[160];

	(void) state;
	assert_string_equal(arm_vendor_section_name(&ampere), "Ampere RAS error");
	words(d, first, 12);
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&ampere, &r, d, sizeof(d), what, sizeof(what), &pb), 1);
	assert_string_equal(text(&r, "vendor"), "Ampere");
	assert_string_equal(text(&r, "error_source"), "GIC");
	assert_string_equal(text(&r, "payload_type"), "Arm RAS error record");
	assert_int_equal(number(&r, "socket"), 0);
	assert_int_equal(number(&r, "instance"), 0);
	assert_int_equal(number(&r, "err_status"), 0xec30000e);
	/* AV V UE OF MV, UET 0b11, SERR 0x0e: an uncorrected, recoverable illegal access */
	assert_string_equal(text(&r, "err_status_flags"), "MV|OF|UE|V|AV");
	assert_string_equal(text(&r, "err_status_uet"), "signaled or recoverable (UER)");
	assert_string_equal(text(&r, "err_status_serr"), "illegal access (software fault)");
	assert_int_equal(number(&r, "err_addr"), 0x8000100100080110ULL);
	assert_int_equal(number(&r, "err_misc0"), 0x300);
	assert_int_equal(number(&r, "err_misc3"), 0);
	assert_string_equal(what, "Ampere GIC error, socket 0, instance 0: illegal access (software fault)");
	ras_record_done(&r);

	words(d, second, 12);
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&ampere, &r, d, sizeof(d), what, sizeof(what), &pb), 1);
	assert_int_equal(number(&r, "socket"), 1);
	assert_int_equal(number(&r, "err_addr"), 0x8000500100080110ULL);
	assert_string_equal(what, "Ampere GIC error, socket 1, instance 0: illegal access (software fault)");
	ras_record_done(&r);
}

/* Payload type 1 (bits 7:6 of byte 0): PCIe AER registers under the CPER PCIe section's keys. */
static void test_ampere_pcie_aer(void **state)
{
	static const uint32_t sec[12] = {
		0x00a10047, 0x00004000, 0x00400000, 0x00462030, 0x00000041, 0x0000e000, 0x7, 0x0000007c, 0x00300008,
	};
	uint8_t d[48];
	struct ras_record r;
	struct arm_problem pb;
	char what[160];

	(void) state;
	words(d, sec, 12);
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&ampere, &r, d, sizeof(d), what, sizeof(what), &pb), 1);
	assert_string_equal(text(&r, "error_source"), "PCIe AER");
	assert_string_equal(text(&r, "payload_type"), "PCIe AER");
	assert_int_equal(number(&r, "instance"), 0xa1);
	assert_int_equal(number(&r, "uncorrectable_status"), 0x4000);
	assert_int_equal(number(&r, "uncorrectable_severity"), 0x462030);
	assert_int_equal(number(&r, "correctable_status"), 0x41);
	assert_int_equal(number(&r, "error_source_id"), 0x300008);
	assert_null(ras_record_find(&r, "err_status"));
	assert_string_equal(what, "Ampere PCIe AER error, socket 0, instance 161");
	ras_record_done(&r);
}

static void test_ampere_hostile(void **state)
{
	uint8_t d[48] = { 0x05 };
	struct ras_record r;
	struct arm_problem pb;
	char what[160];

	(void) state;
	/* the header alone: it is decoded, the missing payload named */
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&ampere, &r, d, 20, what, sizeof(what), &pb), -EBADMSG);
	assert_int_equal(pb.offset, 4);
	assert_string_equal(pb.what, "Ampere section: payload type 0 needs 48 bytes, the section has 20");
	assert_string_equal(text(&r, "error_source"), "GIC");
	assert_null(ras_record_find(&r, "err_status"));
	ras_record_done(&r);

	/* less than a header; and nothing at all */
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&ampere, &r, d, 3, what, sizeof(what), &pb), -EBADMSG);
	assert_string_equal(pb.what, "Ampere section: the header needs 4 bytes, the section has 3");
	assert_int_equal(arm_vendor_decode(&ampere, &r, d, 0, what, sizeof(what), &pb), -EBADMSG);
	assert_int_equal(r.n_fields, 0);
	ras_record_done(&r);

	/* a source type Ampere does not name, firmware payload: header only */
	d[0] = 3 << 6 | 40;
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&ampere, &r, d, 4, what, sizeof(what), &pb), 1);
	assert_string_equal(text(&r, "error_source"), "reserved (40)");
	assert_string_equal(text(&r, "payload_type"), "firmware-specific data");
	assert_string_equal(what, "Ampere error from source 40, socket 0, instance 0");
	ras_record_done(&r);
}

static size_t grace_section(uint8_t *d, const char *sig, uint8_t regs, size_t pairs)
{
	memset(d, 0, 32 + 16 * pairs);
	memcpy(d, sig, strlen(sig));
	d[16] = 0x12; d[17] = 0x00;   /* error type 0x12 */
	d[18] = 0x03;                 /* instance 3 */
	d[20] = 2;                    /* severity */
	d[21] = 1;                    /* socket 1 */
	d[22] = regs;
	for (int b = 0; b < 8; b++)
		d[24 + b] = (uint8_t) (0x0000001140000000ULL >> (8 * b));
	for (size_t i = 0; i < pairs; i++)
		for (int b = 0; b < 8; b++) {
			d[32 + 16 * i + b] = (uint8_t) ((0x1000 + 8 * i) >> (8 * b));
			d[40 + 16 * i + b] = (uint8_t) ((0xa0 + i) >> (8 * b));
		}
	return 32 + 16 * pairs;
}

static void test_nvidia_grace(void **state)
{
	uint8_t d[32 + 16 * 3];
	struct ras_record r;
	struct arm_problem pb;
	char what[160];
	size_t n;

	(void) state;
	assert_string_equal(arm_vendor_section_name(&grace), "NVIDIA Grace error");
	n = grace_section(d, "MCF-SOC\x01", 3, 3);
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&grace, &r, d, n, what, sizeof(what), &pb), 1);
	assert_string_equal(text(&r, "vendor"), "NVIDIA");
	/* a control byte in the signature never reaches the journal as it is */
	assert_string_equal(text(&r, "signature"), "MCF-SOC?");
	assert_int_equal(number(&r, "vendor_error_type"), 0x12);
	assert_int_equal(number(&r, "error_instance"), 3);
	assert_int_equal(number(&r, "vendor_severity"), 2);
	assert_int_equal(number(&r, "socket"), 1);
	assert_int_equal(number(&r, "register_count"), 3);
	assert_int_equal(number(&r, "instance_base"), 0x1140000000ULL);
	assert_string_equal(text(&r, "registers"), "0x1000=0xa0 0x1008=0xa1 0x1010=0xa2");
	assert_string_equal(what, "NVIDIA MCF-SOC? error type 18, instance 3, socket 1");
	ras_record_done(&r);

	/* the count says 5 pairs, the section holds 3: those 3 decoded, the count named */
	d[22] = 5;
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&grace, &r, d, n, what, sizeof(what), &pb), -EBADMSG);
	assert_int_equal(pb.offset, 22);
	assert_string_equal(pb.what, "NVIDIA section: 5 register pairs need 112 bytes, the section has 80");
	assert_string_equal(text(&r, "registers"), "0x1000=0xa0 0x1008=0xa1 0x1010=0xa2");
	ras_record_done(&r);

	/* shorter than the header */
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&grace, &r, d, 31, what, sizeof(what), &pb), -EBADMSG);
	assert_string_equal(pb.what, "NVIDIA section: the header needs 32 bytes, the section has 31");
	assert_int_equal(r.n_fields, 0);
	ras_record_done(&r);
}

/* A 255-pair section: the text is bounded and says it was cut. */
static void test_nvidia_many_registers(void **state)
{
	static uint8_t d[32 + 16 * 255];
	struct ras_record r;
	struct arm_problem pb;
	char what[160];
	const char *t;
	size_t n;

	(void) state;
	n = grace_section(d, "", 255, 255);
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&grace, &r, d, n, what, sizeof(what), &pb), 1);
	assert_null(ras_record_find(&r, "signature"));
	t = text(&r, "registers");
	assert_true(strlen(t) < 2048);
	assert_string_equal(t + strlen(t) - 3, "...");
	assert_string_equal(what, "NVIDIA (no signature) error type 18, instance 3, socket 1");
	ras_record_done(&r);
}

/* Yitian's DDR payload: the ECC block's registers by name, at the published offsets. */
static void test_yitian_ddr(void **state)
{
	uint32_t w[32];
	uint8_t d[128];
	struct ras_record r;
	struct arm_problem pb;
	char what[160];

	(void) state;
	assert_string_equal(arm_vendor_section_name(&yitian), "Alibaba Yitian error");
	for (unsigned i = 0; i < 32; i++)
		w[i] = 0x1000 + i;
	w[0] = 0x00070150;    /* type 0x50 (DDR), subtype 1, instance 7 */
	words(d, w, 32);
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&yitian, &r, d, sizeof(d), what, sizeof(what), &pb), 1);
	assert_string_equal(text(&r, "vendor"), "Alibaba");
	assert_string_equal(text(&r, "error_source"), "DDR");
	assert_int_equal(number(&r, "subtype"), 1);
	assert_int_equal(number(&r, "instance"), 7);
	assert_int_equal(number(&r, "ecccfg0"), 0x1001);
	assert_int_equal(number(&r, "eccstat"), 0x1003);
	assert_int_equal(number(&r, "ecccaddr0"), 0x1005);
	assert_int_equal(number(&r, "eccerrcnt1"), 0x101c);
	assert_null(ras_record_find(&r, "reserved0"));
	assert_string_equal(what, "Alibaba Yitian DDR error, subtype 1, instance 7");
	ras_record_done(&r);

	/* cut short: the header stays, the payload is named */
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&yitian, &r, d, 100, what, sizeof(what), &pb), -EBADMSG);
	assert_int_equal(pb.offset, 4);
	assert_string_equal(pb.what, "Yitian section: the DDR payload needs 128 bytes, the section has 100");
	assert_int_equal(number(&r, "instance"), 7);
	assert_null(ras_record_find(&r, "ecccfg0"));
	ras_record_done(&r);

	/* a type Alibaba has not published: header only */
	d[0] = 0x51;
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&yitian, &r, d, 4, what, sizeof(what), &pb), 1);
	assert_string_equal(text(&r, "error_source"), "type 0x51");
	assert_string_equal(what, "Alibaba Yitian error of type 0x51, instance 7");
	assert_int_equal(arm_vendor_decode(&yitian, &r, d, 3, what, sizeof(what), &pb), -EBADMSG);
	ras_record_done(&r);
}

/* HiSilicon's common section: every header field under its validation bit, then the register array. */
static void test_hisilicon_common(void **state)
{
	uint8_t d[32 + 12] = {};
	struct ras_record r;
	struct arm_problem pb;
	char what[160];

	(void) state;
	assert_string_equal(arm_vendor_section_name(&hisilicon), "HiSilicon common error");
	d[0] = 0xff; d[1] = 0x1f;                    /* validation: bits 0..12 */
	d[4] = 2;                                    /* version */
	d[5] = 1;                                    /* Kunpeng920 */
	d[6] = 1; d[7] = 3; d[8] = 4; d[9] = 5;      /* socket, totem, nimbus, subsystem */
	d[10] = 16;                                  /* module: DDRC */
	d[11] = 6; d[12] = 47; d[13] = 9;            /* submodule, core, port */
	d[14] = 0x34; d[15] = 0x12;                  /* error type 0x1234 */
	d[16] = 3; d[17] = 4; d[18] = 0x23; d[19] = 0x01; d[20] = 0x56;  /* 0123:56:04.3 */
	d[24] = 2;                                   /* corrected */
	d[28] = 12;                                  /* 12 bytes of registers */
	d[32] = 0x78; d[33] = 0x56; d[34] = 0x34; d[35] = 0x12;
	d[36] = 0x01; d[37] = 0xef; d[38] = 0xcd; d[39] = 0xab;
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&hisilicon, &r, d, sizeof(d), what, sizeof(what), &pb), 1);
	assert_string_equal(text(&r, "vendor"), "HiSilicon");
	assert_int_equal(number(&r, "vendor_section_version"), 2);
	assert_string_equal(text(&r, "soc"), "Kunpeng920");
	assert_int_equal(number(&r, "socket"), 1);
	assert_int_equal(number(&r, "totem"), 3);
	assert_int_equal(number(&r, "subsystem"), 5);
	assert_string_equal(text(&r, "module"), "DDRC");
	assert_int_equal(number(&r, "core"), 47);
	assert_int_equal(number(&r, "vendor_error_type"), 0x1234);
	assert_string_equal(text(&r, "dev_name"), "0123:56:04.3");
	assert_string_equal(text(&r, "vendor_severity"), "corrected");
	assert_string_equal(text(&r, "registers"), "reg00=0x12345678 reg01=0xabcdef01 reg02=0x00000000");
	assert_string_equal(what, "HiSilicon DDRC error, socket 1, core 47");
	ras_record_done(&r);

	/* only the module valid, a module number past the list */
	d[0] = 1u << 5; d[1] = 0;
	d[10] = 200;
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&hisilicon, &r, d, 32, what, sizeof(what), &pb), 1);
	assert_string_equal(text(&r, "module"), "reserved (200)");
	assert_null(ras_record_find(&r, "socket"));
	assert_null(ras_record_find(&r, "registers"));
	assert_string_equal(what, "HiSilicon SoC error");
	ras_record_done(&r);
}

/* A register array larger than the section: what is there is shown, the size named. */
static void test_hisilicon_hostile(void **state)
{
	uint8_t d[32 + 8] = { [1] = 0x10, [28] = 0xff, [29] = 0xff, [30] = 0xff, [31] = 0xff, [32] = 1, [36] = 2 };
	struct ras_record r;
	struct arm_problem pb;
	char what[160];

	(void) state;
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&hisilicon, &r, d, sizeof(d), what, sizeof(what), &pb), -EBADMSG);
	assert_int_equal(pb.offset, 28);
	assert_string_equal(pb.what, "HiSilicon section: register array of 4294967295 bytes runs past the end "
			    "(8 bytes left)");
	assert_string_equal(text(&r, "registers"), "reg00=0x00000001 reg01=0x00000002");
	ras_record_done(&r);

	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&hisilicon, &r, d, 31, what, sizeof(what), &pb), -EBADMSG);
	assert_string_equal(pb.what, "HiSilicon section: the header needs 32 bytes, the section has 31");
	assert_int_equal(r.n_fields, 0);
	ras_record_done(&r);
}

static void le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned b = 0; b < n; b++)
		p[b] = (uint8_t) (v >> (8 * b));
}

/* A Vera section: event header, CPU information, then count contexts of the given formats. */
static size_t vera_section(uint8_t *d, unsigned count)
{
	size_t off = 64;

	memset(d, 0, 256);
	d[0] = 1;                          /* version */
	d[1] = (uint8_t) count;
	le(d + 4, 7, 2);                   /* event type 7 */
	le(d + 6, 2, 2);                   /* subtype 2 */
	le(d + 8, 0xfeed, 8);              /* link id */
	memcpy(d + 16, "VERA-CORE", 9);
	d[32 + 2] = 32;                    /* CPU information size */
	d[32 + 3] = 1;                     /* socket 1 */
	le(d + 32 + 4, 0x41, 4);           /* architecture */
	d[32 + 8] = 0xab;                  /* serial number */
	le(d + 32 + 24, 0x2000000000ULL, 8);
	/* context 0: two 64-bit address/value pairs, size = the header alone */
	le(d + off, 16, 4); le(d + off + 8, 1, 2); le(d + off + 12, 32, 4);
	le(d + off + 16, 0x1000, 8); le(d + off + 24, 0xa0, 8); le(d + off + 32, 0x1008, 8); le(d + off + 40, 0xa1, 8);
	off += 48;
	/* context 1: two 32-bit values, with 4 bytes of padding inside its size */
	le(d + off, 28, 4); le(d + off + 8, 4, 2); le(d + off + 12, 8, 4);
	le(d + off + 16, 0x11, 4); le(d + off + 20, 0x22, 4);
	off += 28;
	/* context 2: 5 opaque bytes */
	le(d + off, 16, 4); le(d + off + 8, 0, 2); le(d + off + 12, 5, 4);
	memset(d + off + 16, 0xee, 5);
	return off + 21;
}

static void test_nvidia_vera(void **state)
{
	uint8_t d[256];
	struct ras_record r;
	struct arm_problem pb;
	char what[160];
	size_t n;

	(void) state;
	assert_string_equal(arm_vendor_section_name(&vera), "NVIDIA Vera error");
	n = vera_section(d, 3);
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&vera, &r, d, n, what, sizeof(what), &pb), 1);
	assert_string_equal(text(&r, "signature"), "VERA-CORE");
	assert_int_equal(number(&r, "vendor_error_type"), 7);
	assert_int_equal(number(&r, "vendor_error_subtype"), 2);
	assert_int_equal(number(&r, "event_link_id"), 0xfeed);
	assert_int_equal(number(&r, "socket"), 1);
	assert_int_equal(number(&r, "architecture"), 0x41);
	assert_int_equal(number(&r, "instance_base"), 0x2000000000ULL);
	assert_int_equal(ras_record_find(&r, "chip_serial_number")->len, 16);
	assert_string_equal(text(&r, "registers"), "c0:0x1000=0xa0 c0:0x1008=0xa1 c1:0x11 c1:0x22");
	assert_string_equal(what, "NVIDIA Vera VERA-CORE error type 7.2, socket 1");
	ras_record_done(&r);

	/* the count says 5, the section holds 3 */
	d[1] = 5;
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&vera, &r, d, n, what, sizeof(what), &pb), -EBADMSG);
	assert_int_equal(pb.offset, n);
	assert_string_equal(pb.what, "NVIDIA Vera section: context 4 of 5: header needs 16 bytes, 0 left");
	assert_string_equal(text(&r, "registers"), "c0:0x1000=0xa0 c0:0x1008=0xa1 c1:0x11 c1:0x22");
	ras_record_done(&r);

	/* context 1's size is smaller than its data */
	n = vera_section(d, 3);
	le(d + 64 + 48, 20, 4);
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&vera, &r, d, n, what, sizeof(what), &pb), -EBADMSG);
	assert_int_equal(pb.offset, 64 + 48);
	assert_string_equal(pb.what, "NVIDIA Vera section: context 2: size 20 does not hold its 8 data bytes "
			    "within the section");
	assert_string_equal(text(&r, "registers"), "c0:0x1000=0xa0 c0:0x1008=0xa1");
	ras_record_done(&r);

	/* context 0's data runs past the section */
	n = vera_section(d, 3);
	le(d + 64 + 12, 0xffffffff, 4);
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&vera, &r, d, n, what, sizeof(what), &pb), -EBADMSG);
	assert_int_equal(pb.offset, 64 + 12);
	assert_null(ras_record_find(&r, "registers"));
	ras_record_done(&r);

	/* CPU information size below its layout; a version not published; too short for the headers */
	n = vera_section(d, 3);
	d[32 + 2] = 10;
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&vera, &r, d, n, what, sizeof(what), &pb), -EBADMSG);
	assert_string_equal(pb.what, "NVIDIA Vera section: CPU information size 10 is not between 32 and the "
			    "129 bytes left");
	ras_record_done(&r);
	d[32 + 2] = 32;
	d[0] = 2;
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&vera, &r, d, n, what, sizeof(what), &pb), -EBADMSG);
	assert_string_equal(pb.what, "NVIDIA Vera section: version 2, only version 1 is known");
	assert_int_equal(number(&r, "vendor_section_version"), 2);
	ras_record_done(&r);
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&vera, &r, d, 63, what, sizeof(what), &pb), -EBADMSG);
	assert_int_equal(r.n_fields, 0);
	ras_record_done(&r);
}

/* The PCIe controller section Linux's pcie-hisi-error.c reads: ids, layer, and the misc registers marked valid. */
static void test_hisilicon_pcie(void **state)
{
	uint8_t d[152] = {};
	struct ras_record r;
	struct arm_problem pb;
	char what[160];

	(void) state;
	assert_string_equal(arm_vendor_section_name(&hisilicon_pcie), "HiSilicon PCIe controller error");
	le(d, 0x1ff | 1u << 9 | 1u << 11, 8);     /* ids, type, severity; misc0 and misc2 */
	d[8] = 1; d[9] = 1; d[10] = 0; d[11] = 2; d[12] = 1; d[13] = 3; d[14] = 5; d[15] = 0;
	le(d + 16, 0x95, 2);
	le(d + 20, 0xdeadbeef, 4);
	le(d + 24, 0x11111111, 4);                /* misc1, not marked valid */
	le(d + 28, 0x2, 4);
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&hisilicon_pcie, &r, d, sizeof(d), what, sizeof(what), &pb), 1);
	assert_int_equal(number(&r, "socket"), 0);
	assert_int_equal(number(&r, "nimbus"), 2);
	assert_string_equal(text(&r, "submodule"), "TL layer");
	assert_int_equal(number(&r, "core"), 3);
	assert_int_equal(number(&r, "port"), 5);
	assert_int_equal(number(&r, "vendor_error_type"), 0x95);
	assert_string_equal(text(&r, "vendor_severity"), "recoverable");
	assert_string_equal(text(&r, "registers"), "misc00=0xdeadbeef misc02=0x00000002");
	assert_string_equal(what, "HiSilicon PCIe controller error, socket 0, core 3, port 5: TL layer");
	ras_record_done(&r);

	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&hisilicon_pcie, &r, d, 151, what, sizeof(what), &pb), -EBADMSG);
	assert_string_equal(pb.what, "HiSilicon PCIe section: the layout needs 152 bytes, the section has 151");
	assert_int_equal(r.n_fields, 0);
	ras_record_done(&r);
}

/* A type no row names: nothing added, raw hex stays the caller's. */
/* The JaguarMicro header: validation bits, then one byte per ID (decoders/arm-vendor-jaguarmicro.c). */
static size_t jm_header(uint8_t *d, uint32_t valid, uint8_t subsystem, uint8_t module, uint8_t submodule,
			uint8_t dev, uint16_t err_type, uint8_t severity)
{
	memset(d, 0, 16);
	d[0] = (uint8_t) valid;
	d[1] = (uint8_t) (valid >> 8);
	d[4] = 1;              /* table version */
	d[5] = 0;              /* Corsica1.0 */
	d[6] = subsystem;
	d[7] = module;
	d[8] = submodule;
	d[9] = dev;
	d[10] = (uint8_t) err_type;
	d[11] = (uint8_t) (err_type >> 8);
	d[12] = severity;
	return 16;
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int b = 0; b < 8; b++)
		p[b] = (uint8_t) (v >> (8 * b));
}

/* CMN (payload 5): header names, 64-bit registers at their offsets, and the extra register array. */
static void test_jaguarmicro_cmn(void **state)
{
	uint8_t d[128 + 4 + 8];
	struct ras_record r;
	struct arm_problem pb;
	char what[160];

	(void) state;
	assert_string_equal(arm_vendor_section_name(&jm_cmn), "JaguarMicro CMN error");
	/* every header field valid (bits 0-7), and the register array (bit 11) */
	jm_header(d, 0x8ff, 1, 2, 0, 7, 0x0123, 2);
	for (unsigned i = 0; i < 14; i++)
		put64(d + 16 + 8 * i, UINT64_C(0x1100000000000000) + i);
	words(d + 128, (const uint32_t[]) { 2, 0xdeadbeef, 0x00c0ffee }, 3);
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&jm_cmn, &r, d, sizeof(d), what, sizeof(what), &pb), 1);
	assert_string_equal(text(&r, "vendor"), "JaguarMicro");
	assert_string_equal(text(&r, "payload_type"), "CMN");
	assert_int_equal(number(&r, "table_version"), 1);
	assert_string_equal(text(&r, "soc"), "Corsica1.0");
	assert_string_equal(text(&r, "subsystem"), "CMN");
	assert_string_equal(text(&r, "module"), "HNF");
	assert_string_equal(text(&r, "device_kind"), "NID");
	assert_int_equal(number(&r, "device_id"), 7);
	assert_int_equal(number(&r, "error_type"), 0x0123);
	assert_string_equal(text(&r, "error_severity"), "corrected");
	assert_int_equal(number(&r, "cfgm_mxp_0"), UINT64_C(0x1100000000000000));
	assert_int_equal(number(&r, "err_status_ns"), UINT64_C(0x1100000000000006));
	assert_int_equal(number(&r, "err_misc"), UINT64_C(0x110000000000000d));
	assert_int_equal(number(&r, "register_array_size"), 2);
	assert_int_equal(number(&r, "reg00"), 0xdeadbeef);
	assert_int_equal(number(&r, "reg01"), 0x00c0ffee);
	assert_null(ras_record_find(&r, "reg02"));
	assert_string_equal(what, "JaguarMicro CMN error in CMN HNF, NID 7");
	ras_record_done(&r);

	/* the count says more registers than the section holds: a problem, the rest kept */
	d[128] = 3;
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&jm_cmn, &r, d, sizeof(d), what, sizeof(what), &pb), -EBADMSG);
	assert_string_equal(pb.what, "JaguarMicro section: 3 extra registers do not fit in its 140 bytes");
	assert_int_equal(number(&r, "err_misc"), UINT64_C(0x110000000000000d));
	ras_record_done(&r);

	/* cut inside the registers: the header stays */
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&jm_cmn, &r, d, 100, what, sizeof(what), &pb), -EBADMSG);
	assert_int_equal(pb.offset, 16);
	assert_string_equal(pb.what, "JaguarMicro section: the CMN payload needs 128 bytes, the section has 100");
	assert_string_equal(text(&r, "module"), "HNF");
	assert_null(ras_record_find(&r, "cfgm_mxp_0"));
	ras_record_done(&r);
}

/* Validation bits govern: an invalid field is not reported, whatever its byte holds. */
static void test_jaguarmicro_valid_bits(void **state)
{
	uint8_t d[80];
	struct ras_record r;
	struct arm_problem pb;
	char what[160];

	(void) state;
	memset(d, 0, sizeof(d));
	/* RAM RAS payload (0): DDRH SRAM channel 3, fatal; the module not marked valid */
	jm_header(d, 0xe4 | 0x02, 2, 2, 0, 3, 9, 1);
	words(d + 16, (const uint32_t[]) { 0xa, 0xb, 0xc }, 3);
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&jm_ram, &r, d, 76, what, sizeof(what), &pb), 1);
	assert_string_equal(text(&r, "subsystem"), "DDRH");
	assert_null(ras_record_find(&r, "module"));
	assert_null(ras_record_find(&r, "table_version"));
	assert_string_equal(text(&r, "device_kind"), "CHNL");
	assert_int_equal(number(&r, "device_id"), 3);
	assert_string_equal(text(&r, "error_severity"), "fatal");
	assert_int_equal(number(&r, "lock_control"), 0xa);
	assert_int_equal(number(&r, "cfg_ram_id"), 0xc);
	assert_null(ras_record_find(&r, "register_array_size"));
	assert_string_equal(what, "JaguarMicro RAM RAS error in DDRH, CHNL 3");
	ras_record_done(&r);

	/* SMMU (payload 1): IOSUB's SMMU names its submodules; an unknown subsystem is reserved */
	jm_header(d, 0x1c, 5, 0, 1, 0, 0, 0);
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&jm_smmu, &r, d, 36, what, sizeof(what), &pb), 1);
	assert_string_equal(text(&r, "module"), "SMMU");
	assert_string_equal(text(&r, "submodule"), "TCU");
	ras_record_done(&r);
	jm_header(d, 0x0c, 20, 1, 0, 0, 0, 0);
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&jm_gic, &r, d, 80, what, sizeof(what), &pb), 1);
	assert_string_equal(text(&r, "subsystem"), "reserved (20)");
	assert_int_equal(number(&r, "module"), 1);
	assert_string_equal(what, "JaguarMicro GIC error");
	assert_int_equal(arm_vendor_decode(&jm_gic, &r, d, 15, what, sizeof(what), &pb), -EBADMSG);
	ras_record_done(&r);
}

static void test_unknown_type(void **state)
{
	static const struct cper_guid other = { 0x12345678, 0x1, 0x2, { 1, 2, 3, 4, 5, 6, 7, 8 } };
	uint8_t d[48] = {};
	struct ras_record r;
	struct arm_problem pb;
	char what[160] = "x";

	(void) state;
	assert_null(arm_vendor_section_name(&other));
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(arm_vendor_decode(&other, &r, d, sizeof(d), what, sizeof(what), &pb), 0);
	assert_int_equal(r.n_fields, 0);
	assert_string_equal(what, "");
	ras_record_done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_altra_gic),
		cmocka_unit_test(test_ampere_pcie_aer),
		cmocka_unit_test(test_ampere_hostile),
		cmocka_unit_test(test_nvidia_grace),
		cmocka_unit_test(test_nvidia_many_registers),
		cmocka_unit_test(test_yitian_ddr),
		cmocka_unit_test(test_nvidia_vera),
		cmocka_unit_test(test_hisilicon_common),
		cmocka_unit_test(test_hisilicon_hostile),
		cmocka_unit_test(test_hisilicon_pcie),
		cmocka_unit_test(test_jaguarmicro_cmn),
		cmocka_unit_test(test_jaguarmicro_valid_bits),
		cmocka_unit_test(test_unknown_type),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
