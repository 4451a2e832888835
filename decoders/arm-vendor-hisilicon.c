/* SPDX-License-Identifier: MIT */
/*
 * HiSilicon (Kunpeng 916/920/930) common error section (type
 * c8b328a8-9917-4af6-9a13-2e08ab2e7586).  HiSilicon publishes the layout in
 * the decoder it contributed to rasdaemon (events-arch-arm/
 * non-standard-hisilicon.c, "struct hisi_common_error_section"), read here
 * for the facts only: the offsets, the validation bits, the SoC and module
 * numbers and the severity values.
 *   0  validation bits (u32): 0 SoC, 1 socket, 2 totem, 3 nimbus, 4 subsystem,
 *      5 module, 6 submodule, 7 core, 8 port, 9 error type, 10 PCIe device,
 *      11 severity, 12 register array size
 *   4 version, 5 SoC, 6 socket, 7 totem, 8 nimbus, 9 subsystem, 10 module,
 *   11 submodule, 12 core, 13 port (u8 each), 14 error type (u16)
 *   16 PCIe device: function, device (u8), segment (u16), bus (u8)
 *   24 severity (0 recoverable, 1 fatal, 2 corrected, 3 none)
 *   28 register array size in bytes (u32), 32 the 32-bit registers
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arm-internal.h"
#include "ras-record.h"

#define HISI_HDR_LEN 32

enum {
	V_SOC, V_SOCKET, V_TOTEM, V_NIMBUS, V_SUBSYSTEM, V_MODULE, V_SUBMODULE, V_CORE, V_PORT,
	V_ERR_TYPE, V_PCIE, V_SEVERITY, V_REG_SIZE,
};

static const char *const socs[] = { "Kunpeng916", "Kunpeng920", "Kunpeng930" };

static const char *const modules[] = {
	"MN", "PLL", "SLLC", "AA", "SIOE", "POE", "CPA", "DISP", "GIC", "ITS", "AVSBUS", "CS", "PPU",
	"SMMU", "PA", "HLLC", "DDRC", "L3TAG", "L3DATA", "PCS", "HHA", "PCIe Local", "SAS", "SATA",
	"NIC", "RoCE", "USB", "ZIP", "HPRE", "SEC", "RDE", "MEE", "L4D", "Tsensor", "ROH", "BTC",
	"HILINK", "STARS", "SDMA", "UC", "HBMC", "PMC", "SCHE", "ASMB_DFS", "ASMB_NTU", "UB", "UMMU",
	"PCU", "UCMI", "DJTAGM", "CFGBUS", "MPU", "CRG", "ACG3", "DCIP", "UMAU", "UPA", "AXI_MSTR_OOO",
	"RBIST", "LC300",
};

static const char *const severities[] = { "recoverable", "fatal", "corrected", "none" };

/* The one-byte ids, each under its validation bit. */
static const struct {
	unsigned valid_bit, offset;
	const char *key;
} ids[] = {
	{ V_SOCKET, 6, "socket" }, { V_TOTEM, 7, "totem" }, { V_NIMBUS, 8, "nimbus" },
	{ V_SUBSYSTEM, 9, "subsystem" }, { V_SUBMODULE, 11, "submodule" }, { V_CORE, 12, "core" },
	{ V_PORT, 13, "port" },
};

static void add_registers(struct arm_out *o, const uint8_t *d, size_t n, uint32_t size)
{
	char text[2048];
	size_t len = 0, count = size / 4;

	if (size > n - HISI_HDR_LEN) {
		arm_problem(o, 28, "HiSilicon section: register array of %" PRIu32 " bytes runs past the end "
			    "(%zu bytes left)", size, n - HISI_HDR_LEN);
		count = (n - HISI_HDR_LEN) / 4;
	}
	for (size_t i = 0; i < count && len < sizeof(text); i++)
		len += (size_t) snprintf(text + len, sizeof(text) - len, "%sreg%02zu=0x%08" PRIx32, len ? " " : "",
					 i, arm_le32(d + HISI_HDR_LEN + 4 * i));
	if (len >= sizeof(text))
		memcpy(text + sizeof(text) - 4, "...", 4);
	if (len)
		arm_added(o, ras_record_add_string(o->r, "registers", text, SIZE_MAX));
}

void arm_vendor_hisilicon_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size)
{
	uint32_t valid;
	size_t len;

	if (n < HISI_HDR_LEN) {
		arm_problem(o, 0, "HiSilicon section: the header needs %d bytes, the section has %zu", HISI_HDR_LEN, n);
		return;
	}
	valid = arm_le32(d);
	arm_added(o, ras_record_add_string(o->r, "vendor", "HiSilicon", SIZE_MAX));
	arm_added(o, ras_record_add_uint(o->r, "vendor_section_version", d[4]));
	if (valid & (1u << V_SOC))
		ARM_ADD_NAME(o, "soc", socs, d[5]);
	for (size_t i = 0; i < ELEMENTSOF(ids); i++)
		if (valid & (1u << ids[i].valid_bit))
			arm_added(o, ras_record_add_uint(o->r, ids[i].key, d[ids[i].offset]));
	if (valid & (1u << V_MODULE))
		ARM_ADD_NAME(o, "module", modules, d[10]);
	if (valid & (1u << V_ERR_TYPE))
		arm_added(o, ras_record_add_hex(o->r, "vendor_error_type", arm_le16(d + 14)));
	if (valid & (1u << V_PCIE)) {
		char dev[24];

		/* segment:bus:device.function, as the kernel names a PCI device */
		snprintf(dev, sizeof(dev), "%04x:%02x:%02x.%x", arm_le16(d + 18), d[20], d[17], d[16]);
		arm_added(o, ras_record_add_string(o->r, "dev_name", dev, SIZE_MAX));
	}
	if (valid & (1u << V_SEVERITY))
		ARM_ADD_NAME(o, "vendor_severity", severities, d[24]);

	len = (size_t) snprintf(what, what_size, "HiSilicon %s error",
				(valid & (1u << V_MODULE)) && d[10] < ELEMENTSOF(modules) ? modules[d[10]] : "SoC");
	if ((valid & (1u << V_SOCKET)) && len < what_size)
		len += (size_t) snprintf(what + len, what_size - len, ", socket %u", d[6]);
	if ((valid & (1u << V_CORE)) && len < what_size)
		snprintf(what + len, what_size - len, ", core %u", d[12]);

	if (valid & (1u << V_REG_SIZE))
		add_registers(o, d, n, arm_le32(d + 28));
}
