/* SPDX-License-Identifier: MIT */
/*
 * Ampere Altra / AmpereOne vendor CPER section (type
 * e8ed898d-df16-43cc-8ecc-54f060ef157f).  Ampere publishes the layout in the
 * vendor decoder it contributed to rasdaemon (events-arch-arm/
 * non-standard-ampere.h, "ARMv8 RAS Compliant Error Record"), read here for
 * the facts only:
 *   0  bits 5:0 error source type, bits 7:6 payload type
 *   1  subtype (per source type)
 *   2  u16: bits 13:0 instance, bits 15:14 socket
 *   payload 0 (Arm RAS error record, 48 bytes): 4 ERR<n>STATUS (u32),
 *      8 ERR<n>ADDR, 16/24/32/40 ERR<n>MISC0..3
 *   payload 1 (PCIe AER, 48 bytes): 4 uncorrectable status, 8 mask,
 *      12 severity, 16 correctable status, 20 mask, 24 root error command,
 *      28 root error status, 32 error source ID
 *   payload 2 (PCIe RAS data path) and 3 (firmware-specific data): header
 *      decoded, the rest kept as the section's raw bytes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arm-internal.h"
#include "ras-record.h"

#define AMPERE_HDR_LEN 4

static const char *const source_types[64] = {
	[0] = "CPU", [1] = "MCU", [2] = "Mesh", [3] = "2P Link (QS)", [4] = "2P Link (MQ)",
	[5] = "GIC", [6] = "SMMU", [7] = "PCIe AER", [8] = "PCIe RASDP", [9] = "OCM",
	[10] = "SMpro", [11] = "PMpro", [12] = "ATF firmware", [13] = "SMpro firmware",
	[14] = "PMpro firmware", [63] = "BERT",
};

static const char *const payload_types[] = {
	[0] = "Arm RAS error record", [1] = "PCIe AER", [2] = "PCIe RAS data path",
	[3] = "firmware-specific data",
};

static const struct arm_reg ras_record_regs[] = {
	{ "err_addr", 8, 8 }, { "err_misc0", 16, 8 }, { "err_misc1", 24, 8 },
	{ "err_misc2", 32, 8 }, { "err_misc3", 40, 8 },
};

/* The same keys as a CPER PCI Express section's AER registers (lib/cper.c). */
static const struct arm_reg pcie_aer_regs[] = {
	{ "uncorrectable_status", 4, 4 }, { "uncorrectable_mask", 8, 4 },
	{ "uncorrectable_severity", 12, 4 }, { "correctable_status", 16, 4 },
	{ "correctable_mask", 20, 4 }, { "root_error_command", 24, 4 },
	{ "root_error_status", 28, 4 }, { "error_source_id", 32, 4 },
};

static const struct payload {
	const struct arm_reg *regs;
	size_t n_regs;
	size_t len;
} payloads[] = {
	[0] = { ras_record_regs, ELEMENTSOF(ras_record_regs), 48 },
	[1] = { pcie_aer_regs, ELEMENTSOF(pcie_aer_regs), 48 },
	[2] = { NULL, 0, AMPERE_HDR_LEN },
	[3] = { NULL, 0, AMPERE_HDR_LEN },
};

void arm_vendor_ampere_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size)
{
	unsigned source, payload, socket, instance;
	const struct payload *p;
	const char *name;

	if (n < AMPERE_HDR_LEN) {
		arm_problem(o, 0, "Ampere section: the header needs %d bytes, the section has %zu",
			    AMPERE_HDR_LEN, n);
		return;
	}
	source = d[0] & 0x3f;
	payload = d[0] >> 6;
	socket = arm_le16(d + 2) >> 14;
	instance = arm_le16(d + 2) & 0x3fff;
	name = source_types[source];
	arm_added(o, ras_record_add_string(o->r, "vendor", "Ampere", SIZE_MAX));
	ARM_ADD_NAME(o, "error_source", source_types, source);
	ARM_ADD_NAME(o, "payload_type", payload_types, payload);
	arm_added(o, ras_record_add_uint(o->r, "subtype", d[1]));
	arm_added(o, ras_record_add_uint(o->r, "socket", socket));
	arm_added(o, ras_record_add_uint(o->r, "instance", instance));
	if (name)
		snprintf(what, what_size, "Ampere %s error, socket %u, instance %u", name, socket, instance);
	else
		snprintf(what, what_size, "Ampere error from source %u, socket %u, instance %u", source, socket,
			 instance);
	p = &payloads[payload];
	if (n < p->len) {
		arm_problem(o, AMPERE_HDR_LEN, "Ampere section: payload type %u needs %zu bytes, the section "
			    "has %zu", payload, p->len, n);
		return;
	}
	if (payload == 0) {
		const struct ras_field *serr;

		arm_ras_status_add(o, arm_le32(d + 4));
		serr = ras_record_find(o->r, "err_status_serr");
		if (serr && serr->type == RAS_FIELD_STRING) {
			size_t len = strlen(what);

			snprintf(what + len, what_size - len, ": %s", serr->data);
		}
	}
	arm_add_registers(o, d, p->regs, p->n_regs);
}
