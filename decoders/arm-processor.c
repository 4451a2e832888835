/* SPDX-License-Identifier: MIT */
/*
 * UEFI Specification 2.10, Appendix N, §N.2.4.4 "ARM Processor Error Section":
 *   §N.2.4.4.1 ARM Processor Error Information structure (32 bytes):
 *     0 version, 1 length, 2 validation bits (u16), 4 type (bitmap),
 *     5 multiple error (u16), 7 flags, 8 error information (u64),
 *     16 virtual fault address, 24 physical fault address.
 *     The type is a bitmap since the 2.9A errata: bit 1 cache, 2 TLB, 3 bus,
 *     4 micro-architectural (vendor-defined error information).
 *   §N.2.4.4.1 Cache / TLB / Bus Error Information (the u64 at offset 8):
 *     bits 0..11 say which fields are valid; 16:17 transaction type,
 *     18:21 operation, 22:24 level, 25 processor context corrupt,
 *     26 corrected, 27 precise PC, 28 restartable PC; bus only: 29:30
 *     participation type, 31 time out, 32:33 address space, 34:42 memory
 *     access attributes, 43 access mode.
 *   §N.2.4.4.2 ARM Processor Context Information: 0 version (u16), 2 register
 *     context type (u16), 4 register array size (u32), 8 the array.  The
 *     AArch64 EL1, EL2 and EL3 arrays begin ELR_ELx, ESR_ELx, FAR_ELx; a misc
 *     register array (type 8) is 10-byte entries: the MRS encoding (u16: op2
 *     2:0, CRm 6:3, CRn 10:7, op1 13:11, o0 14) and the 64-bit value.
 * The ERX* encodings are the Arm Architecture Reference Manual's (ARM DDI
 * 0487, "ERXSTATUS_EL1" etc.: op0 3, op1 0, CRn 5).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arm-internal.h"
#include "ras-record.h"

/* ---- Error Information structures ---- */

#define EI_VALID_MULTIPLE  (1u << 0)
#define EI_VALID_FLAGS     (1u << 1)
#define EI_VALID_INFO      (1u << 2)
#define EI_VALID_VA        (1u << 3)
#define EI_VALID_PA        (1u << 4)

#define TYPE_CACHE  (1u << 1)
#define TYPE_TLB    (1u << 2)
#define TYPE_BUS    (1u << 3)
#define TYPE_MICRO  (1u << 4)

static const char *const error_types[8] = {
	[1] = "cache", [2] = "tlb", [3] = "bus", [4] = "micro-architectural",
};

static const char *const error_flags[8] = {
	[0] = "first", [1] = "last", [2] = "propagated", [3] = "overflow",
};

static const char *const transaction_types[] = {
	[0] = "instruction", [1] = "data access", [2] = "generic",
};

#define COMMON_OPERATIONS \
	[0] = "generic error", [1] = "generic read", [2] = "generic write", [3] = "data read", \
	[4] = "data write", [5] = "instruction fetch", [6] = "prefetch"

static const char *const cache_operations[] = {
	COMMON_OPERATIONS, [7] = "eviction", [8] = "snooping", [9] = "snooped", [10] = "management",
};
static const char *const tlb_operations[] = {
	COMMON_OPERATIONS, [7] = "local management operation", [8] = "external management operation",
};
static const char *const bus_operations[] = { COMMON_OPERATIONS };

static const char *const participation_types[] = {
	[0] = "local processor originated request", [1] = "local processor responded to request",
	[2] = "local processor observed", [3] = "generic",
};
static const char *const address_spaces[] = {
	[0] = "external memory access", [1] = "internal memory access", [3] = "device memory access",
};
static const char *const access_modes[] = { [0] = "secure", [1] = "normal" };

enum info_kind { INFO_NAME, INFO_UINT, INFO_HEX, INFO_BOOL };

/* One field of the cache/TLB/bus error information: valid bit, position, and how it reads. */
struct info_field {
	unsigned valid_bit, shift, width;
	const char *key;
	enum info_kind kind;
	const char *const *names;
	size_t n_names;
};

#define NAMED(v, s, w, k, t) { v, s, w, k, INFO_NAME, t, ELEMENTSOF(t) }
#define PLAIN(v, s, w, k, kind) { v, s, w, k, kind, NULL, 0 }

/* The rows every layout begins with, in this order (describe_one() reads them by position). */
enum { F_TRANSACTION, F_OPERATION, F_LEVEL, F_CONTEXT_CORRUPT, F_CORRECTED };

#define COMMON_FIELDS(ops) \
	NAMED(0, 16, 2, "transaction_type", transaction_types), \
	NAMED(1, 18, 4, "operation", ops), \
	PLAIN(2, 22, 3, "level", INFO_UINT), \
	PLAIN(3, 25, 1, "processor_context_corrupt", INFO_BOOL), \
	PLAIN(4, 26, 1, "corrected", INFO_BOOL), \
	PLAIN(5, 27, 1, "precise_pc", INFO_BOOL), \
	PLAIN(6, 28, 1, "restartable_pc", INFO_BOOL)

static const struct info_field cache_fields[] = { COMMON_FIELDS(cache_operations) };
static const struct info_field tlb_fields[] = { COMMON_FIELDS(tlb_operations) };
static const struct info_field bus_fields[] = {
	COMMON_FIELDS(bus_operations),
	NAMED(7, 29, 2, "participation_type", participation_types),
	PLAIN(8, 31, 1, "timed_out", INFO_BOOL),
	NAMED(9, 32, 2, "address_space", address_spaces),
	PLAIN(10, 34, 9, "memory_attributes", INFO_HEX),
	NAMED(11, 43, 1, "access_mode", access_modes),
};

/* Which layout the error information follows: the first of cache, TLB, bus the type names. */
static const struct info_field *info_layout(unsigned type, size_t *ret_n)
{
	if (type & TYPE_CACHE) {
		*ret_n = ELEMENTSOF(cache_fields);
		return cache_fields;
	}
	if (type & TYPE_TLB) {
		*ret_n = ELEMENTSOF(tlb_fields);
		return tlb_fields;
	}
	if (type & TYPE_BUS) {
		*ret_n = ELEMENTSOF(bus_fields);
		return bus_fields;
	}
	/* Micro-architectural only: the information is the vendor's. */
	*ret_n = 0;
	return NULL;
}

static uint64_t bits(uint64_t v, unsigned shift, unsigned width)
{
	return (v >> shift) & ((UINT64_C(1) << width) - 1);
}

static void add_info_fields(struct arm_out *o, unsigned type, uint64_t info)
{
	size_t n;
	const struct info_field *f = info_layout(type, &n);

	for (size_t i = 0; i < n; i++, f++) {
		uint64_t v = bits(info, f->shift, f->width);

		if (!(info & (UINT64_C(1) << f->valid_bit)))
			continue;
		switch (f->kind) {
		case INFO_NAME:
			arm_add_name(o, f->key, f->names, f->n_names, v);
			break;
		case INFO_UINT:
			arm_added(o, ras_record_add_uint(o->r, f->key, v));
			break;
		case INFO_HEX:
			arm_added(o, ras_record_add_hex(o->r, f->key, v));
			break;
		case INFO_BOOL:
			arm_added(o, ras_record_add_bool(o->r, f->key, v != 0));
			break;
		}
	}
}

/* One structure in words, for "pei_decoded": "cache level 2 data read corrected flags first PA 0x..". */
static size_t describe_one(const uint8_t *ei, char *buf, size_t size)
{
	uint16_t valid = arm_le16(ei + 2);
	uint64_t info = arm_le64(ei + 8);
	unsigned type = ei[4];
	size_t len, n;
	const struct info_field *layout = info_layout(type, &n);
	char names[96];

	arm_bit_names(error_types, ELEMENTSOF(error_types), type, names, sizeof(names));
	len = (size_t) snprintf(buf, size, "%s", names[0] ? names : "no type");
	if ((valid & EI_VALID_INFO) && layout) {
		const struct info_field *op = &layout[F_OPERATION], *level = &layout[F_LEVEL];
		const struct info_field *corr = &layout[F_CORRECTED];

		if (len < size && (info & (1u << level->valid_bit)))
			len += (size_t) snprintf(buf + len, size - len, " level %u",
						 (unsigned) bits(info, level->shift, level->width));
		if (len < size && (info & (1u << op->valid_bit))) {
			uint64_t v = bits(info, op->shift, op->width);

			if (v < op->n_names && op->names[v])
				len += (size_t) snprintf(buf + len, size - len, " %s", op->names[v]);
		}
		if (len < size && (info & (1u << corr->valid_bit)))
			len += (size_t) snprintf(buf + len, size - len, " %s",
						 bits(info, corr->shift, 1) ? "corrected" : "uncorrected");
	}
	if (len < size && (valid & EI_VALID_MULTIPLE) && arm_le16(ei + 5) > 0)
		len += (size_t) snprintf(buf + len, size - len, " multiple (%u)", arm_le16(ei + 5));
	if (len < size && (valid & EI_VALID_FLAGS)) {
		arm_bit_names(error_flags, ELEMENTSOF(error_flags), ei[7], names, sizeof(names));
		if (names[0])
			len += (size_t) snprintf(buf + len, size - len, " flags %s", names);
	}
	if (len < size && (valid & EI_VALID_PA))
		len += (size_t) snprintf(buf + len, size - len, " PA 0x%" PRIx64, arm_le64(ei + 24));
	if (len < size && (valid & EI_VALID_VA))
		len += (size_t) snprintf(buf + len, size - len, " VA 0x%" PRIx64, arm_le64(ei + 16));
	return len;
}

static void add_first(struct arm_out *o, const uint8_t *ei)
{
	uint16_t valid = arm_le16(ei + 2);
	char names[96];

	arm_added(o, ras_record_add_uint(o->r, "error_info_version", ei[0]));
	arm_bit_names(error_types, ELEMENTSOF(error_types), ei[4], names, sizeof(names));
	arm_added(o, ras_record_add_string(o->r, "error_type", names[0] ? names : "none", SIZE_MAX));
	if (valid & EI_VALID_MULTIPLE)
		arm_added(o, ras_record_add_uint(o->r, "multiple_error", arm_le16(ei + 5)));
	if (valid & EI_VALID_FLAGS) {
		arm_added(o, ras_record_add_hex(o->r, "error_flags", ei[7]));
		arm_bit_names(error_flags, ELEMENTSOF(error_flags), ei[7], names, sizeof(names));
		if (names[0])
			arm_added(o, ras_record_add_string(o->r, "error_flag_names", names, SIZE_MAX));
	}
	if (valid & EI_VALID_INFO) {
		arm_added(o, ras_record_add_hex64(o->r, "error_info", arm_le64(ei + 8)));
		add_info_fields(o, ei[4], arm_le64(ei + 8));
	}
	if (valid & EI_VALID_VA)
		arm_added(o, ras_record_add_hex64(o->r, "virtual_fault_address", arm_le64(ei + 16)));
	if (valid & EI_VALID_PA)
		arm_added(o, ras_record_add_hex64(o->r, "physical_fault_address", arm_le64(ei + 24)));
}

int arm_error_info_decode(struct ras_record *r, const uint8_t *pei, size_t n, uint32_t count,
			  struct arm_problem *problem)
{
	struct arm_out o = { .r = r, .problem = problem };
	char text[1024];
	size_t len = 0, have = n / ARM_ERROR_INFO_LEN;
	uint32_t i, walk = count;

	*problem = (struct arm_problem) {};
	if (count == ARM_COUNT_FROM_LENGTH || count > have)
		walk = (uint32_t) (have < UINT32_MAX ? have : UINT32_MAX - 1);
	for (i = 0; i < walk; i++) {
		const uint8_t *ei = pei + (size_t) i * ARM_ERROR_INFO_LEN;

		if (ei[1] != ARM_ERROR_INFO_LEN) {
			arm_problem(&o, (size_t) i * ARM_ERROR_INFO_LEN + 1, "error information %" PRIu32
				    ": length byte says %u, the structure is %d bytes", i + 1, ei[1],
				    ARM_ERROR_INFO_LEN);
			break;
		}
		if (i == 0)
			add_first(&o, ei);
		if (len + 2 < sizeof(text)) {
			if (len)
				len += (size_t) snprintf(text + len, sizeof(text) - len, "; ");
			len += describe_one(ei, text + len, sizeof(text) - len);
		}
	}
	/* Reported after the walk: a structure that lies about its length comes first. */
	if (count == ARM_COUNT_FROM_LENGTH && n % ARM_ERROR_INFO_LEN)
		arm_problem(&o, have * ARM_ERROR_INFO_LEN, "error information: %zu bytes are not a whole "
			    "number of %d-byte structures; %zu bytes left over", n, ARM_ERROR_INFO_LEN,
			    n % ARM_ERROR_INFO_LEN);
	else if (count != ARM_COUNT_FROM_LENGTH && count > have)
		arm_problem(&o, have * ARM_ERROR_INFO_LEN, "error information count %" PRIu32 " needs %" PRIu64
			    " bytes, the block has %zu", count, (uint64_t) count * ARM_ERROR_INFO_LEN, n);
	if (len >= sizeof(text))
		memcpy(text + sizeof(text) - 4, "...", 4);
	if (len)
		arm_added(&o, ras_record_add_string(r, "pei_decoded", text, SIZE_MAX));
	return arm_result(&o);
}

bool arm_error_describe(const struct ras_record *r, char *buf, size_t size)
{
	const struct ras_field *type = ras_record_find(r, "error_type");
	const struct ras_field *level = ras_record_find(r, "level");

	if (!type || type->type != RAS_FIELD_STRING || strcmp(type->data, "none") == 0)
		return false;
	if (level && level->type == RAS_FIELD_UINT)
		snprintf(buf, size, "%s error, level %" PRIu64, type->data, level->u);
	else
		snprintf(buf, size, "%s error", type->data);
	return true;
}

/* ---- Context Information structures ---- */

#define CTX_HDR_LEN ARM_CONTEXT_HEADER_LEN

enum {
	CTX_AARCH64_EL1 = 5,
	CTX_AARCH64_EL2 = 6,
	CTX_AARCH64_EL3 = 7,
	CTX_MISC = 8,
};

static const char *const context_types[] = {
	[0] = "AArch32 general purpose registers",
	[1] = "AArch32 EL1 context registers",
	[2] = "AArch32 EL2 context registers",
	[3] = "AArch32 secure context registers",
	[4] = "AArch64 general purpose registers",
	[CTX_AARCH64_EL1] = "AArch64 EL1 context registers",
	[CTX_AARCH64_EL2] = "AArch64 EL2 context registers",
	[CTX_AARCH64_EL3] = "AArch64 EL3 context registers",
	[CTX_MISC] = "misc system registers",
};

/* The first three registers of an AArch64 ELx array: where the fault was taken, why, and at what address. */
static const char *const fault_keys[][3] = {
	[CTX_AARCH64_EL1] = { "elr_el1", "esr_el1", "far_el1" },
	[CTX_AARCH64_EL2] = { "elr_el2", "esr_el2", "far_el2" },
	[CTX_AARCH64_EL3] = { "elr_el3", "esr_el3", "far_el3" },
};

/* MRS encoding (o0 << 14 | op1 << 11 | CRn << 7 | CRm << 3 | op2) of the RAS error record registers. */
#define MRS(o0, op1, crn, crm, op2) ((o0) << 14 | (op1) << 11 | (crn) << 7 | (crm) << 3 | (op2))
static const struct {
	uint16_t mrs;
	const char *key;        /* NULL: ERXSTATUS_EL1, decoded bit by bit */
} ras_registers[] = {
	{ MRS(1, 0, 5, 3, 1), "errselr" },     /* ERRSELR_EL1: which record ERX* show */
	{ MRS(1, 0, 5, 4, 0), "err_fr" },      /* ERXFR_EL1 */
	{ MRS(1, 0, 5, 4, 1), "err_ctlr" },    /* ERXCTLR_EL1 */
	{ MRS(1, 0, 5, 4, 2), NULL },          /* ERXSTATUS_EL1 */
	{ MRS(1, 0, 5, 4, 3), "err_addr" },    /* ERXADDR_EL1 */
	{ MRS(1, 0, 5, 5, 0), "err_misc0" },   /* ERXMISC0_EL1 */
	{ MRS(1, 0, 5, 5, 1), "err_misc1" },   /* ERXMISC1_EL1 */
};

#define MISC_ENTRY_LEN 10

static void add_misc_registers(struct arm_out *o, const uint8_t *a, size_t size)
{
	for (size_t off = 0; off + MISC_ENTRY_LEN <= size; off += MISC_ENTRY_LEN) {
		uint16_t mrs = arm_le16(a + off) & 0x7fff;
		uint64_t v = arm_le64(a + off + 2);

		for (size_t i = 0; i < ELEMENTSOF(ras_registers); i++) {
			if (ras_registers[i].mrs != mrs || ras_record_find(o->r, ras_registers[i].key ?
									  ras_registers[i].key : "err_status"))
				continue;
			if (ras_registers[i].key)
				arm_added(o, ras_record_add_hex64(o->r, ras_registers[i].key, v));
			else
				arm_ras_status_add(o, v);
		}
	}
}

int arm_context_span(const uint8_t *ctx, size_t n, uint32_t count, size_t *ret_used)
{
	size_t off = 0;

	for (uint32_t i = 0; count == ARM_COUNT_FROM_LENGTH ? off < n : i < count; i++) {
		uint32_t size;

		if (n - off < CTX_HDR_LEN)
			return -EBADMSG;
		size = arm_le32(ctx + off + 4);
		if (size > n - off - CTX_HDR_LEN)
			return -EBADMSG;
		off += CTX_HDR_LEN + size;
	}
	*ret_used = off;
	return 0;
}

bool arm_contexts_plausible(const uint8_t *ctx, size_t n, uint32_t count)
{
	size_t off = 0;

	for (uint32_t i = 0; i < count; i++) {
		uint32_t size;

		if (n - off < CTX_HDR_LEN)
			return false;
		size = arm_le32(ctx + off + 4);
		if (size == 0 || size > n - off - CTX_HDR_LEN || arm_le16(ctx + off + 2) > CTX_MISC)
			return false;
		off += CTX_HDR_LEN + size;
	}
	return true;
}

int arm_context_decode(struct ras_record *r, const uint8_t *ctx, size_t n, uint32_t count,
		       size_t *ret_used, struct arm_problem *problem)
{
	struct arm_out o = { .r = r, .problem = problem };
	char types[512] = "";
	size_t off = 0, tlen = 0;
	uint32_t i;

	*problem = (struct arm_problem) {};
	for (i = 0; count == ARM_COUNT_FROM_LENGTH ? off < n : i < count; i++) {
		uint16_t type;
		uint32_t size;
		const uint8_t *a;

		if (n - off < CTX_HDR_LEN) {
			arm_problem(&o, off, "context information %" PRIu32 ": header needs %d bytes, %zu left",
				    i + 1, CTX_HDR_LEN, n - off);
			break;
		}
		type = arm_le16(ctx + off + 2);
		size = arm_le32(ctx + off + 4);
		if (size > n - off - CTX_HDR_LEN) {
			arm_problem(&o, off + 4, "context information %" PRIu32 ": register array size %" PRIu32
				    " runs past the end (%zu bytes left)", i + 1, size, n - off - CTX_HDR_LEN);
			break;
		}
		a = ctx + off + CTX_HDR_LEN;
		if (tlen < sizeof(types)) {
			const char *name = type < ELEMENTSOF(context_types) ? context_types[type] : NULL;

			if (name)
				tlen += (size_t) snprintf(types + tlen, sizeof(types) - tlen, "%s%s",
							  tlen ? ", " : "", name);
			else
				tlen += (size_t) snprintf(types + tlen, sizeof(types) - tlen, "%sreserved (%u)",
							  tlen ? ", " : "", type);
		}
		if (type >= CTX_AARCH64_EL1 && type <= CTX_AARCH64_EL3 && size >= 24 &&
		    !ras_record_find(r, fault_keys[type][0]))
			for (unsigned k = 0; k < 3; k++)
				arm_added(&o, ras_record_add_hex64(r, fault_keys[type][k], arm_le64(a + 8 * k)));
		else if (type == CTX_MISC)
			add_misc_registers(&o, a, size);
		off += CTX_HDR_LEN + size;
	}
	if (i > 0) {
		arm_added(&o, ras_record_add_uint(r, "ctx_count", i));
		if (types[0])
			arm_added(&o, ras_record_add_string(r, "context_types", types, SIZE_MAX));
	}
	*ret_used = off;
	return arm_result(&o);
}
