/* SPDX-License-Identifier: MIT */
/*
 * Alibaba Yitian 710 vendor CPER section (type
 * a6980811-16ea-4e4d-b936-fb00a23ff29c).  Alibaba publishes the layout in
 * the decoder it contributed to rasdaemon (events-arch-arm/
 * non-standard-yitian.h), read here for the facts only:
 *   0  error type (0x50: DDR)   1  subtype   2  instance (u16)
 *   DDR payload, 128 bytes: from offset 4, 31 32-bit registers of the DDR
 *   controller's ECC block, in the order of the table below (the last three
 *   reserved).  Their bit layouts are the memory controller vendor's and not
 *   published: the registers are named, not taken apart.
 */
#include <stdio.h>

#include "arm-internal.h"
#include "ras-record.h"

#define YITIAN_HDR_LEN 4
#define YITIAN_TYPE_DDR 0x50
#define YITIAN_DDR_LEN 128

static const struct arm_reg ddr_regs[] = {
	{ "ecccfg0", 4, 4 },   { "ecccfg1", 8, 4 },   { "eccstat", 12, 4 },  { "eccerrcnt", 16, 4 },
	{ "ecccaddr0", 20, 4 }, { "ecccaddr1", 24, 4 }, { "ecccsyn0", 28, 4 }, { "ecccsyn1", 32, 4 },
	{ "ecccsyn2", 36, 4 }, { "eccuaddr0", 40, 4 }, { "eccuaddr1", 44, 4 }, { "eccusyn0", 48, 4 },
	{ "eccusyn1", 52, 4 }, { "eccusyn2", 56, 4 },  { "eccbitmask0", 60, 4 }, { "eccbitmask1", 64, 4 },
	{ "eccbitmask2", 68, 4 }, { "adveccstat", 72, 4 }, { "eccapstat", 76, 4 }, { "ecccdata0", 80, 4 },
	{ "ecccdata1", 84, 4 }, { "eccudata0", 88, 4 }, { "eccudata1", 92, 4 }, { "eccsymbol", 96, 4 },
	{ "eccerrcntctl", 100, 4 }, { "eccerrcntstat", 104, 4 }, { "eccerrcnt0", 108, 4 },
	{ "eccerrcnt1", 112, 4 },
};

void arm_vendor_yitian_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size)
{
	if (n < YITIAN_HDR_LEN) {
		arm_problem(o, 0, "Yitian section: the header needs %d bytes, the section has %zu", YITIAN_HDR_LEN, n);
		return;
	}
	arm_added(o, ras_record_add_string(o->r, "vendor", "Alibaba", SIZE_MAX));
	if (d[0] == YITIAN_TYPE_DDR)
		arm_added(o, ras_record_add_string(o->r, "error_source", "DDR", SIZE_MAX));
	else {
		char text[16];

		snprintf(text, sizeof(text), "type 0x%02x", d[0]);
		arm_added(o, ras_record_add_string(o->r, "error_source", text, SIZE_MAX));
	}
	arm_added(o, ras_record_add_uint(o->r, "subtype", d[1]));
	arm_added(o, ras_record_add_uint(o->r, "instance", arm_le16(d + 2)));
	if (d[0] != YITIAN_TYPE_DDR) {
		snprintf(what, what_size, "Alibaba Yitian error of type 0x%02x, instance %u", d[0], arm_le16(d + 2));
		return;
	}
	snprintf(what, what_size, "Alibaba Yitian DDR error, subtype %u, instance %u", d[1], arm_le16(d + 2));
	if (n < YITIAN_DDR_LEN) {
		arm_problem(o, YITIAN_HDR_LEN, "Yitian section: the DDR payload needs %d bytes, the section has %zu",
			    YITIAN_DDR_LEN, n);
		return;
	}
	arm_add_registers(o, d, ddr_regs, ELEMENTSOF(ddr_regs));
}
