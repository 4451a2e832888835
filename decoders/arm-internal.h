/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Shared by the Arm decoders (arm-processor.c, arm-ras-status.c,
 * arm-vendor*.c): little-endian readers and the output a decoder writes to.
 * Not for use outside decoders/.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arm-processor.h"
#include "macro.h"

struct arm_out {
	struct ras_record *r;
	struct arm_problem *problem;
	bool oom;
};

static inline uint16_t arm_le16(const uint8_t *p) { return (uint16_t) (p[0] | p[1] << 8); }
static inline uint32_t arm_le32(const uint8_t *p) { return (uint32_t) arm_le16(p) | (uint32_t) arm_le16(p + 2) << 16; }
static inline uint64_t arm_le64(const uint8_t *p) { return (uint64_t) arm_le32(p) | (uint64_t) arm_le32(p + 4) << 32; }

/* The result of a ras_record_add_*(): -E2BIG (record full) is kept as "truncated"; -ENOMEM sticks. */
void arm_added(struct arm_out *o, int r);
/* Records the first problem only: the one that stopped the walk. */
_printf_(3, 4)
void arm_problem(struct arm_out *o, size_t offset, const char *fmt, ...);
/* 0, -EBADMSG or -ENOMEM, for what the decoder returns. */
int arm_result(const struct arm_out *o);
/* Adds names[v] under key, or "reserved (v)" for a value the table does not name. */
void arm_add_name(struct arm_out *o, const char *key, const char *const *names, size_t n, uint64_t v);
#define ARM_ADD_NAME(o, key, table, v) arm_add_name(o, key, table, ELEMENTSOF(table), v)
/* "a|b" for the set bits of v that names[] names, "bit N" for the others; "" for none. */
void arm_bit_names(const char *const *names, size_t n, uint64_t v, char *buf, size_t size);

/* A vendor's register at a fixed offset of its section: 4 or 8 bytes, added as hex under key. */
struct arm_reg {
	const char *key;
	unsigned offset, width;
};
/* The caller has checked that d holds every register of the table. */
void arm_add_registers(struct arm_out *o, const uint8_t *d, const struct arm_reg *regs, size_t n);

/* Arm RAS ERR<n>STATUS and its companions (arm-ras-status.c). */
void arm_ras_status_add(struct arm_out *o, uint64_t status);

/* The vendor sections (arm-vendor.c's table): fields added to o, a few words in what. */
void arm_vendor_ampere_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size);
void arm_vendor_nvidia_grace_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size);
void arm_vendor_nvidia_vera_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size);
void arm_vendor_hisilicon_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size);
void arm_vendor_hisilicon_pcie_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size);
void arm_vendor_yitian_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size);
/* arm-vendor-jaguarmicro.c: one section type per payload */
void arm_vendor_jaguarmicro_ram_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size);
void arm_vendor_jaguarmicro_smmu_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size);
void arm_vendor_jaguarmicro_hac_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size);
void arm_vendor_jaguarmicro_cmn_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size);
void arm_vendor_jaguarmicro_gic_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size);
