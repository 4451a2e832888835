/* SPDX-License-Identifier: MIT */
/*
 * The ARM Processor Error Section's blocks (decoders/arm-processor.c) and Arm
 * RAS ERR<n>STATUS (decoders/arm-ras-status.c).  Structures are built byte by
 * byte from UEFI 2.10 §N.2.4.4; the golden cases use the bytes and values of
 * a published log:
 *
 *   [QEMU-CPER] Mauro Carvalho Chehab, "[PATCH v2 0/7] Add ACPI CPER firmware
 *   first error injection for Arm Processor", linux-edac, 12 Jul 2024,
 *   https://lore.kernel.org/linux-edac/cover.1720789921.git.mchehab+huawei@kernel.org/
 *   It shows an arm_event's raw "ARM Processor Err Info raw data" and the
 *   kernel's own decode of the same records (cper_print_proc_arm()).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "arm-processor.h"
#include "ras-record.h"

static const struct ras_field *field(const struct ras_record *r, const char *key)
{
	const struct ras_field *f = ras_record_find(r, key);

	if (!f)
		fail_msg("no field \"%s\"", key);
	return f;
}

static const char *text(const struct ras_record *r, const char *key)
{
	const struct ras_field *f = field(r, key);

	assert_int_equal(f->type, RAS_FIELD_STRING);
	return f->data;
}

static uint64_t number(const struct ras_record *r, const char *key)
{
	const struct ras_field *f = field(r, key);

	assert_true(f->type == RAS_FIELD_UINT || f->type == RAS_FIELD_HEX || f->type == RAS_FIELD_HEX64);
	return f->u;
}

static bool flag(const struct ras_record *r, const char *key)
{
	const struct ras_field *f = field(r, key);

	assert_int_equal(f->type, RAS_FIELD_BOOL);
	return f->b;
}

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t) v; p[1] = (uint8_t) (v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t) v); put16(p + 2, (uint16_t) (v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t) v); put32(p + 4, (uint32_t) (v >> 32)); }

/* One Error Information structure (§N.2.4.4.1). */
static void error_info(uint8_t *ei, uint16_t valid, uint8_t type, uint16_t multiple, uint8_t flags,
		       uint64_t info, uint64_t va, uint64_t pa)
{
	memset(ei, 0, ARM_ERROR_INFO_LEN);
	ei[1] = ARM_ERROR_INFO_LEN;
	put16(ei + 2, valid);
	ei[4] = type;
	put16(ei + 5, multiple);
	ei[7] = flags;
	put64(ei + 8, info);
	put64(ei + 16, va);
	put64(ei + 24, pa);
}

/* The raw pei bytes of the arm_event in [QEMU-CPER], as rasdaemon printed them. */
static const uint8_t qemu_cache_pei[32] = {
	0x00, 0x20, 0x06, 0x00, 0x02, 0x00, 0x00, 0x05, 0x7f, 0x00, 0x54, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/*
 * The kernel printed for these bytes: flags first + propagated, error_type
 * 0x02 cache, error_info 0x54007f: transaction type Instruction, operation
 * Instruction fetch, cache level 1, processor context not corrupted, not
 * corrected, PC imprecise.
 */
static void test_golden_qemu_cache_error(void **state)
{
	struct ras_record r;
	struct arm_problem pb;
	char what[96];

	(void) state;
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_error_info_decode(&r, qemu_cache_pei, sizeof(qemu_cache_pei),
					       ARM_COUNT_FROM_LENGTH, &pb), 0);
	assert_false(pb.found);
	assert_string_equal(text(&r, "error_type"), "cache");
	assert_int_equal(number(&r, "error_flags"), 0x05);
	assert_string_equal(text(&r, "error_flag_names"), "first|propagated");
	assert_int_equal(number(&r, "error_info"), 0x54007f);
	assert_string_equal(text(&r, "transaction_type"), "instruction");
	assert_string_equal(text(&r, "operation"), "instruction fetch");
	assert_int_equal(number(&r, "level"), 1);
	assert_false(flag(&r, "processor_context_corrupt"));
	assert_false(flag(&r, "corrected"));
	assert_false(flag(&r, "precise_pc"));
	assert_false(flag(&r, "restartable_pc"));
	/* not marked valid in the structure: absent, not zero */
	assert_null(ras_record_find(&r, "multiple_error"));
	assert_null(ras_record_find(&r, "physical_fault_address"));
	/* bus-only fields never appear for a cache error */
	assert_null(ras_record_find(&r, "participation_type"));
	assert_string_equal(text(&r, "pei_decoded"), "cache level 1 instruction fetch uncorrected flags first|propagated");
	assert_true(arm_error_describe(&r, what, sizeof(what)));
	assert_string_equal(what, "cache error, level 1");
	ras_record_done(&r);
}

/*
 * [QEMU-CPER]'s second event: the kernel's decode of error_info 0x80d6460fff
 * for a TLB error and 0x78da03ff for a bus error, value for value.
 */
static void test_golden_qemu_tlb_and_bus(void **state)
{
	uint8_t pei[2 * ARM_ERROR_INFO_LEN];
	struct ras_record r;
	struct arm_problem pb;

	(void) state;
	error_info(pei, 0x07, 0x04, 0, 0x05, 0x80d6460fffULL, 0, 0);
	error_info(pei + 32, 0x07, 0x08, 0, 0x05, 0x78da03ffULL, 0, 0);
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_error_info_decode(&r, pei, sizeof(pei), 2, &pb), 0);
	/* TLB: Generic, "Generic read", TLB level 1, context corrupted, corrected, imprecise, restartable */
	assert_string_equal(text(&r, "error_type"), "tlb");
	assert_string_equal(text(&r, "transaction_type"), "generic");
	assert_string_equal(text(&r, "operation"), "generic read");
	assert_int_equal(number(&r, "level"), 1);
	assert_true(flag(&r, "processor_context_corrupt"));
	assert_true(flag(&r, "corrected"));
	assert_false(flag(&r, "precise_pc"));
	assert_true(flag(&r, "restartable_pc"));
	assert_int_equal(number(&r, "multiple_error"), 0);
	/* the bus error, second: only in the text; Prefetch, affinity level 3, precise, not corrected */
	assert_string_equal(text(&r, "pei_decoded"),
			    "tlb level 1 generic read corrected flags first|propagated; "
			    "bus level 3 prefetch uncorrected flags first|propagated");
	ras_record_done(&r);

	/* The bus error first: its own fields, as the kernel printed them. */
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_error_info_decode(&r, pei + 32, 32, 1, &pb), 0);
	assert_string_equal(text(&r, "operation"), "prefetch");
	assert_int_equal(number(&r, "level"), 3);
	assert_true(flag(&r, "precise_pc"));
	assert_true(flag(&r, "restartable_pc"));
	assert_string_equal(text(&r, "participation_type"), "generic");
	assert_false(flag(&r, "timed_out"));
	assert_string_equal(text(&r, "address_space"), "external memory access");
	/* valid bits 10 and 11 are clear in 0x3ff */
	assert_null(ras_record_find(&r, "memory_attributes"));
	assert_null(ras_record_find(&r, "access_mode"));
	ras_record_done(&r);
}

/* Every bus field, at the edges of its bits; the same operation number reads per type. */
static void test_bus_fields_and_operation_tables(void **state)
{
	uint64_t info = 0xfff | 1ULL << 16 | 8ULL << 18 | 7ULL << 22 | 1ULL << 25 | 1ULL << 29 | 1ULL << 31 |
			3ULL << 32 | 0x1a5ULL << 34 | 1ULL << 43;
	uint8_t ei[32];
	struct ras_record r;
	struct arm_problem pb;

	(void) state;
	error_info(ei, 0x1f, 0x08, 2, 0x0a, info, 0xffff000012345678ULL, 0x80001000ULL);
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_error_info_decode(&r, ei, 32, 1, &pb), 0);
	/* operation 8 is not a bus operation */
	assert_string_equal(text(&r, "operation"), "reserved (8)");
	assert_int_equal(number(&r, "level"), 7);
	assert_string_equal(text(&r, "participation_type"), "local processor responded to request");
	assert_true(flag(&r, "timed_out"));
	assert_string_equal(text(&r, "address_space"), "device memory access");
	assert_int_equal(number(&r, "memory_attributes"), 0x1a5);
	assert_string_equal(text(&r, "access_mode"), "normal");
	assert_int_equal(number(&r, "multiple_error"), 2);
	assert_string_equal(text(&r, "error_flag_names"), "last|overflow");
	assert_int_equal(number(&r, "virtual_fault_address"), 0xffff000012345678ULL);
	assert_int_equal(number(&r, "physical_fault_address"), 0x80001000ULL);
	ras_record_done(&r);

	error_info(ei, 0x04, 0x02, 0, 0, 0x2ULL | 8ULL << 18, 0, 0);
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_error_info_decode(&r, ei, 32, 1, &pb), 0);
	assert_string_equal(text(&r, "operation"), "snooping");
	ras_record_done(&r);

	error_info(ei, 0x04, 0x04, 0, 0, 0x2ULL | 8ULL << 18, 0, 0);
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_error_info_decode(&r, ei, 32, 1, &pb), 0);
	assert_string_equal(text(&r, "operation"), "external management operation");
	ras_record_done(&r);
}

/* A micro-architectural error's information is the vendor's: kept as a number, never read as cache bits. */
static void test_micro_architectural_and_no_type(void **state)
{
	uint8_t ei[32];
	struct ras_record r;
	struct arm_problem pb;
	char what[96];

	(void) state;
	error_info(ei, 0x04, 0x10, 0, 0, 0x7f | 1ULL << 26, 0, 0);
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_error_info_decode(&r, ei, 32, 1, &pb), 0);
	assert_string_equal(text(&r, "error_type"), "micro-architectural");
	assert_int_equal(number(&r, "error_info"), 0x7f | 1ULL << 26);
	assert_null(ras_record_find(&r, "corrected"));
	ras_record_done(&r);

	/* type bits 0 and 5..7 are reserved; no type at all names nothing */
	error_info(ei, 0, 0x21, 0, 0, 0, 0, 0);
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_error_info_decode(&r, ei, 32, 1, &pb), 0);
	assert_string_equal(text(&r, "error_type"), "bit 0|bit 5");
	ras_record_done(&r);
	error_info(ei, 0, 0, 0, 0, 0, 0, 0);
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_error_info_decode(&r, ei, 32, 1, &pb), 0);
	assert_string_equal(text(&r, "error_type"), "none");
	assert_false(arm_error_describe(&r, what, sizeof(what)));
	ras_record_done(&r);
}

/* Hostile blocks: what fits is decoded, the first problem is named with its offset. */
static void test_hostile_error_info(void **state)
{
	uint8_t pei[3 * 32 + 4];
	struct ras_record r;
	struct arm_problem pb;

	(void) state;
	for (int i = 0; i < 3; i++)
		error_info(pei + 32 * i, 0x04, 0x02, 0, 0, 0x4 | 2ULL << 22, 0, 0);

	/* 36 bytes from the tracepoint: one structure and 4 bytes over */
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_error_info_decode(&r, pei, 36, ARM_COUNT_FROM_LENGTH, &pb), -EBADMSG);
	assert_true(pb.found);
	assert_int_equal(pb.offset, 32);
	assert_non_null(strstr(pb.what, "36 bytes are not a whole number of 32-byte structures"));
	assert_int_equal(number(&r, "level"), 2);
	ras_record_done(&r);

	/* the section says 0xffff structures, the bytes hold 3 */
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_error_info_decode(&r, pei, 96, 0xffff, &pb), -EBADMSG);
	assert_int_equal(pb.offset, 96);
	assert_non_null(strstr(pb.what, "count 65535 needs 2097120 bytes, the block has 96"));
	assert_string_equal(text(&r, "pei_decoded"), "cache level 2; cache level 2; cache level 2");
	ras_record_done(&r);

	/* the second structure's length byte lies: the walk stops there, before the count problem */
	pei[32 + 1] = 16;
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_error_info_decode(&r, pei, 96, 0xffff, &pb), -EBADMSG);
	assert_int_equal(pb.offset, 33);
	assert_non_null(strstr(pb.what, "error information 2: length byte says 16, the structure is 32 bytes"));
	assert_string_equal(text(&r, "pei_decoded"), "cache level 2");
	ras_record_done(&r);

	/* the first one lies: nothing decoded, still no crash */
	pei[1] = 0;
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_error_info_decode(&r, pei, 96, 3, &pb), -EBADMSG);
	assert_int_equal(pb.offset, 1);
	assert_null(ras_record_find(&r, "error_type"));
	assert_int_equal(r.n_fields, 0);
	ras_record_done(&r);

	/* zero-length block and a zero count */
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_error_info_decode(&r, pei, 0, ARM_COUNT_FROM_LENGTH, &pb), 0);
	assert_int_equal(arm_error_info_decode(&r, pei, 96, 0, &pb), 0);
	assert_int_equal(r.n_fields, 0);
	ras_record_done(&r);
}

/* A pei_decoded text that would not fit ends in "..." and stays a valid string. */
static void test_many_structures(void **state)
{
	static uint8_t pei[200 * 32];
	struct ras_record r;
	struct arm_problem pb;
	const char *t;

	(void) state;
	for (int i = 0; i < 200; i++)
		error_info(pei + 32 * i, 0x14, 0x08, 0, 0, 0x6 | 1ULL << 18 | 2ULL << 22, 0, 0x1000u * i);
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_error_info_decode(&r, pei, sizeof(pei), ARM_COUNT_FROM_LENGTH, &pb), 0);
	t = text(&r, "pei_decoded");
	assert_true(strlen(t) < 1024);
	assert_string_equal(t + strlen(t) - 3, "...");
	assert_non_null(strstr(t, "bus level 2 generic read PA 0x1000; bus level 2"));
	ras_record_done(&r);
}

/* ------------------------------------------------------------ contexts */

static size_t context(uint8_t *p, uint16_t type, const uint8_t *array, uint32_t size)
{
	put16(p, 0);
	put16(p + 2, type);
	put32(p + 4, size);
	memcpy(p + 8, array, size);
	return 8 + size;
}

/*
 * [QEMU-CPER]: "register context type: AArch64 EL1 context registers" and
 * its 40-byte array 0xdead, 0xbeef, 0xabba, 0xbaab, 0: the EL1 table begins
 * ELR_EL1, ESR_EL1, FAR_EL1.
 */
static void test_golden_qemu_el1_context(void **state)
{
	uint8_t array[40] = {}, ctx[64];
	struct ras_record r;
	struct arm_problem pb;
	size_t n, used = 0;

	(void) state;
	put64(array, 0xdead);
	put64(array + 8, 0xbeef);
	put64(array + 16, 0xabba);
	put64(array + 24, 0xbaab);
	n = context(ctx, 5, array, sizeof(array));
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_context_decode(&r, ctx, n, ARM_COUNT_FROM_LENGTH, &used, &pb), 0);
	assert_int_equal(used, 48);
	assert_int_equal(number(&r, "ctx_count"), 1);
	assert_string_equal(text(&r, "context_types"), "AArch64 EL1 context registers");
	assert_int_equal(number(&r, "elr_el1"), 0xdead);
	assert_int_equal(number(&r, "esr_el1"), 0xbeef);
	assert_int_equal(number(&r, "far_el1"), 0xabba);
	ras_record_done(&r);
}

/* MRS encoding o0 14, op1 13:11, CRn 10:7, CRm 6:3, op2 2:0. */
static uint16_t mrs(unsigned o0, unsigned op1, unsigned crn, unsigned crm, unsigned op2)
{
	return (uint16_t) (o0 << 14 | op1 << 11 | crn << 7 | crm << 3 | op2);
}

static size_t misc_register(uint8_t *p, uint16_t encoding, uint64_t v)
{
	put16(p, encoding);
	put64(p + 2, v);
	return 10;
}

/* An Arm RAS record read through ERX*: ERXSTATUS_EL1 is S3_0_C5_C4_2, ERXADDR_EL1 S3_0_C5_C4_3, ... */
static void test_misc_registers_carry_a_ras_record(void **state)
{
	uint8_t misc[60], ctx[200], gpr[256] = {};
	struct ras_record r;
	struct arm_problem pb;
	size_t m = 0, n = 0, used;

	(void) state;
	m += misc_register(misc + m, mrs(1, 3, 14, 0, 1), 0x123);          /* CNTPCT_EL0: not ours */
	m += misc_register(misc + m, mrs(1, 0, 5, 3, 1), 2);               /* ERRSELR_EL1 */
	m += misc_register(misc + m, mrs(1, 0, 5, 4, 2), 0xc4000402ULL);   /* ERXSTATUS_EL1 */
	m += misc_register(misc + m, mrs(1, 0, 5, 4, 3), 0x80000000deadb000ULL); /* ERXADDR_EL1 */
	m += misc_register(misc + m, mrs(1, 0, 5, 5, 0), 0x77);            /* ERXMISC0_EL1 */
	m += misc_register(misc + m, mrs(1, 0, 5, 5, 1), 0x88);            /* ERXMISC1_EL1 */
	n += context(ctx + n, 4, gpr, 32);
	n += context(ctx + n, 8, misc, (uint32_t) m);
	n += context(ctx + n, 99, gpr, 0);
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_context_decode(&r, ctx, n, 3, &used, &pb), 0);
	assert_int_equal(used, n);
	assert_string_equal(text(&r, "context_types"),
			    "AArch64 general purpose registers, misc system registers, reserved (99)");
	assert_int_equal(number(&r, "errselr"), 2);
	assert_int_equal(number(&r, "err_status"), 0xc4000402ULL);
	/* AV, V, MV; CE 0b00; SERR 2; IERR 4 */
	assert_string_equal(text(&r, "err_status_flags"), "MV|V|AV");
	assert_string_equal(text(&r, "err_status_serr"), "data value from (non-associative) internal memory");
	assert_int_equal(number(&r, "err_status_ierr"), 4);
	assert_null(ras_record_find(&r, "err_status_uet"));   /* UE clear */
	assert_null(ras_record_find(&r, "err_status_ce"));
	assert_int_equal(number(&r, "err_addr"), 0x80000000deadb000ULL);
	assert_int_equal(number(&r, "err_misc0"), 0x77);
	assert_int_equal(number(&r, "err_misc1"), 0x88);
	assert_null(ras_record_find(&r, "elr_el1"));
	ras_record_done(&r);
}

/* ERR<n>STATUS bit by bit: CE kinds, UET only with UE, SERR codes past the table. */
static void test_err_status_fields(void **state)
{
	uint8_t misc[10], ctx[32];
	struct ras_record r;
	struct arm_problem pb;
	size_t n, used;

	(void) state;
	/* V, CE 0b11 (persistent), DE, PN, CI, SERR 0x15 */
	misc_register(misc, mrs(1, 0, 5, 4, 2), 1u << 30 | 3u << 24 | 1u << 23 | 1u << 22 | 1u << 19 | 0x15);
	n = context(ctx, 8, misc, 10);
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_context_decode(&r, ctx, n, 1, &used, &pb), 0);
	assert_string_equal(text(&r, "err_status_flags"), "CI|PN|DE|V");
	assert_string_equal(text(&r, "err_status_ce"), "at least one persistent error corrected");
	assert_string_equal(text(&r, "err_status_serr"), "deferred error from slave not supported at master");
	assert_null(ras_record_find(&r, "err_status_uet"));
	ras_record_done(&r);

	/* UE with UET 0b00, SERR past the table */
	misc_register(misc, mrs(1, 0, 5, 4, 2), 1u << 30 | 1u << 29 | 0x30);
	n = context(ctx, 8, misc, 10);
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_context_decode(&r, ctx, n, 1, &used, &pb), 0);
	assert_string_equal(text(&r, "err_status_uet"), "uncontainable (UC)");
	assert_string_equal(text(&r, "err_status_serr"), "code 0x30");
	ras_record_done(&r);
}

static void test_hostile_contexts(void **state)
{
	uint8_t ctx[64] = {}, array[24] = {};
	struct ras_record r;
	struct arm_problem pb;
	size_t n, used;

	(void) state;
	n = context(ctx, 6, array, sizeof(array));

	/* a header cut short */
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_context_decode(&r, ctx, 5, ARM_COUNT_FROM_LENGTH, &used, &pb), -EBADMSG);
	assert_int_equal(pb.offset, 0);
	assert_non_null(strstr(pb.what, "context information 1: header needs 8 bytes, 5 left"));
	assert_int_equal(used, 0);
	ras_record_done(&r);

	/* a size that runs past the block */
	put32(ctx + 4, 1000);
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_context_decode(&r, ctx, n, ARM_COUNT_FROM_LENGTH, &used, &pb), -EBADMSG);
	assert_int_equal(pb.offset, 4);
	assert_non_null(strstr(pb.what, "register array size 1000 runs past the end (24 bytes left)"));
	assert_null(ras_record_find(&r, "ctx_count"));
	ras_record_done(&r);

	/* the section counts 3, the bytes hold 1: the one is decoded */
	put32(ctx + 4, sizeof(array));
	put64(ctx + 8 + 8, 0x96000045);
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_context_decode(&r, ctx, n, 3, &used, &pb), -EBADMSG);
	assert_int_equal(pb.offset, n);
	assert_non_null(strstr(pb.what, "context information 2: header needs 8 bytes, 0 left"));
	assert_int_equal(number(&r, "esr_el2"), 0x96000045);
	assert_int_equal(number(&r, "ctx_count"), 1);
	assert_int_equal(used, n);
	ras_record_done(&r);

	/* an EL3 array too short for ELR/ESR/FAR names none */
	n = context(ctx, 7, array, 16);
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	assert_int_equal(arm_context_decode(&r, ctx, n, 1, &used, &pb), 0);
	assert_null(ras_record_find(&r, "esr_el3"));
	ras_record_done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_qemu_cache_error),
		cmocka_unit_test(test_golden_qemu_tlb_and_bus),
		cmocka_unit_test(test_bus_fields_and_operation_tables),
		cmocka_unit_test(test_micro_architectural_and_no_type),
		cmocka_unit_test(test_hostile_error_info),
		cmocka_unit_test(test_many_structures),
		cmocka_unit_test(test_golden_qemu_el1_context),
		cmocka_unit_test(test_misc_registers_carry_a_ras_record),
		cmocka_unit_test(test_err_status_fields),
		cmocka_unit_test(test_hostile_contexts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
