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
 *
 * HiSilicon HIP PCIe controller ("PCIe local") error section (type
 * b2889fc9-e7d7-4f9d-a867-af42e98be772), as Linux reads it
 * (drivers/pci/controller/pcie-hisi-error.c, struct hisi_pcie_error_data):
 *   0  validation bits (u64): 0 version, 1 SoC, 2 socket, 3 nimbus,
 *      4 submodule, 5 core, 6 port, 7 error type, 8 severity, 9 + i misc[i]
 *   8 version, 9 SoC, 10 socket, 11 nimbus, 12 submodule (0 AP, 1 TL, 2 MAC,
 *   3 DL, 4 SDI layer), 13 core, 14 port, 15 severity (u8 each),
 *   16 error type (u16), 20 33 error-misc registers (u32)
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

/* A one-byte id at offset, present when its validation bit is set. */
struct hisi_id {
	unsigned valid_bit, offset;
	const char *key;
};

static void add_ids(struct arm_out *o, const uint8_t *d, uint64_t valid, const struct hisi_id *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (valid & (UINT64_C(1) << ids[i].valid_bit))
			arm_added(o, ras_record_add_uint(o->r, ids[i].key, d[ids[i].offset]));
}

static const struct hisi_id ids[] = {
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
	add_ids(o, d, valid, ids, ELEMENTSOF(ids));
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

/* ---- PCIe local ---- */

#define PCIE_LEN (20 + 4 * PCIE_MISC_REGS)
#define PCIE_MISC_REGS 33

enum {
	P_VERSION, P_SOC, P_SOCKET, P_NIMBUS, P_SUBMODULE, P_CORE, P_PORT, P_ERR_TYPE, P_SEVERITY, P_MISC0,
};

static const char *const pcie_layers[] = { "AP layer", "TL layer", "MAC layer", "DL layer", "SDI layer" };

static const struct hisi_id pcie_ids[] = {
	{ P_VERSION, 8, "vendor_section_version" }, { P_SOC, 9, "soc_id" }, { P_SOCKET, 10, "socket" },
	{ P_NIMBUS, 11, "nimbus" }, { P_CORE, 13, "core" }, { P_PORT, 14, "port" },
};

void arm_vendor_hisilicon_pcie_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size)
{
	uint64_t valid;
	char text[PCIE_MISC_REGS * 20];
	size_t len = 0;

	if (n < PCIE_LEN) {
		arm_problem(o, 0, "HiSilicon PCIe section: the layout needs %d bytes, the section has %zu", PCIE_LEN, n);
		return;
	}
	valid = arm_le64(d);
	arm_added(o, ras_record_add_string(o->r, "vendor", "HiSilicon", SIZE_MAX));
	add_ids(o, d, valid, pcie_ids, ELEMENTSOF(pcie_ids));
	if (valid & (UINT64_C(1) << P_SUBMODULE))
		ARM_ADD_NAME(o, "submodule", pcie_layers, d[12]);
	if (valid & (UINT64_C(1) << P_ERR_TYPE))
		arm_added(o, ras_record_add_hex(o->r, "vendor_error_type", arm_le16(d + 16)));
	if (valid & (UINT64_C(1) << P_SEVERITY))
		ARM_ADD_NAME(o, "vendor_severity", severities, d[15]);
	for (unsigned i = 0; i < PCIE_MISC_REGS; i++)
		if (valid & (UINT64_C(1) << (P_MISC0 + i)))
			len += (size_t) snprintf(text + len, sizeof(text) - len, "%smisc%02u=0x%08" PRIx32,
						 len ? " " : "", i, arm_le32(d + 20 + 4 * i));
	if (len)
		arm_added(o, ras_record_add_string(o->r, "registers", text, SIZE_MAX));

	len = (size_t) snprintf(what, what_size, "HiSilicon PCIe controller error");
	if ((valid & (UINT64_C(1) << P_SOCKET)) && len < what_size)
		len += (size_t) snprintf(what + len, what_size - len, ", socket %u", d[10]);
	if ((valid & (UINT64_C(1) << P_CORE)) && len < what_size)
		len += (size_t) snprintf(what + len, what_size - len, ", core %u", d[13]);
	if ((valid & (UINT64_C(1) << P_PORT)) && len < what_size)
		len += (size_t) snprintf(what + len, what_size - len, ", port %u", d[14]);
	if ((valid & (UINT64_C(1) << P_SUBMODULE)) && d[12] < ELEMENTSOF(pcie_layers) && len < what_size)
		snprintf(what + len, what_size - len, ": %s", pcie_layers[d[12]]);
}
