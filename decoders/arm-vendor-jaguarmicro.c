/* SPDX-License-Identifier: MIT */
/*
 * JaguarMicro (Corsica DPU) vendor CPER sections.  JaguarMicro publishes
 * the layout in the decoder it contributed to rasdaemon (events-arch-arm/
 * non-standard-jaguarmicro.h and .c, 2023), read here for the facts only.
 * Five section types, one per payload, share a 16-byte header and a tail:
 *   0  u32 validation bits: 0 version, 1 SoC, 2 subsystem, 3 module,
 *      4 submodule, 5 device, 6 error type, 7 severity, 11 register array
 *   4  version  5 SoC (0: Corsica1.0)  6 subsystem  7 module  8 submodule
 *   9  device  10 u16 error type  12 severity (0 recoverable, 1 fatal,
 *      2 corrected, 3 none)  13 reserved[3]
 *   16 the payload's registers (table below), then u32 count and that many
 *      u32 extra registers.
 * The module, submodule and device names depend on the subsystem (tables
 * below, as rasdaemon names them).  rasdaemon prints the version under the
 * SoC's validation bit; we take bit 0, as its own enumeration names it.
 */
#include <stdio.h>
#include <string.h>

#include "arm-internal.h"
#include "ras-record.h"

#define JM_HDR_LEN 16

enum { JM_V_VERSION, JM_V_SOC, JM_V_SUBSYSTEM, JM_V_MODULE, JM_V_SUBMODULE, JM_V_DEVICE, JM_V_ERR_TYPE,
       JM_V_SEVERITY, JM_V_REG_ARRAY = 11 };

enum jm_subsystem {
	JM_CSUB, JM_CMN, JM_DDRH, JM_DDRV, JM_GIC, JM_IOSUB, JM_SCP, JM_MCP, JM_IMU0, JM_DPE, JM_RPE, JM_PSUB,
	JM_HAC, JM_TCM, JM_IMU1,
};

static const char *const socs[] = { "Corsica1.0" };
static const char *const subsystems[] = {
	[JM_CSUB] = "AP", [JM_CMN] = "CMN", [JM_DDRH] = "DDRH", [JM_DDRV] = "DDRV", [JM_GIC] = "GIC",
	[JM_IOSUB] = "IOSUB", [JM_SCP] = "SCP", [JM_MCP] = "MCP", [JM_IMU0] = "IMU0", [JM_DPE] = "DPE",
	[JM_RPE] = "RPE", [JM_PSUB] = "PSUB", [JM_HAC] = "HAC", [JM_TCM] = "TCM", [JM_IMU1] = "IMU1",
};
static const char *const severities[] = { "recoverable", "fatal", "corrected", "none" };

static const char *const csub_modules[] = { "CORE" };
static const char *const cmn_modules[] = { "MXP", "HNI", "HNF", "SBSX", "CCG", "HND" };
static const char *const ddr_modules[] = { "DDRCtrl", "DDRPHY", "SRAM" };
static const char *const gic_modules[] = { "GICIP", "GICSRAM" };
static const char *const iosub_modules[] = { "SMMU", "NIC450", "OTHER" };
static const char *const scp_modules[] = { "SRAM", "WDT", "PLL" };
static const char *const sram_wdt_modules[] = { "SRAM", "WDT" };
static const char *const dpe_modules[] = {
	"EPG", "PIPE", "EMEP", "IMEP", "EPAE", "IPAE", "ETH", "TPG", "MIG", "HIG", "DPETOP", "SMMU",
};
static const char *const rpe_modules[] = { "TOP", "TXP_RXP", "SMMU" };
static const char *const psub_modules[] = {
	"PCIE0", "UP_MIX", "PCIE1", "PTOP", "N2IF", "VPE0_RAS", "VPE1_RAS", "X2RC_SMMU", "X16RC_SMMU", "SDMA_SMMU",
};
static const char *const hac_modules[] = { "SRAM", "SMMU" };
static const char *const tcm_modules[] = { "SRAM", "SMMU", "IP" };

#define NAMES(t) { t, ELEMENTSOF(t) }
static const struct names {
	const char *const *v;
	size_t n;
} modules_of[] = {
	[JM_CSUB] = NAMES(csub_modules), [JM_CMN] = NAMES(cmn_modules), [JM_DDRH] = NAMES(ddr_modules),
	[JM_DDRV] = NAMES(ddr_modules), [JM_GIC] = NAMES(gic_modules), [JM_IOSUB] = NAMES(iosub_modules),
	[JM_SCP] = NAMES(scp_modules), [JM_MCP] = NAMES(sram_wdt_modules), [JM_IMU0] = NAMES(sram_wdt_modules),
	[JM_DPE] = NAMES(dpe_modules), [JM_RPE] = NAMES(rpe_modules), [JM_PSUB] = NAMES(psub_modules),
	[JM_HAC] = NAMES(hac_modules), [JM_TCM] = NAMES(tcm_modules), [JM_IMU1] = NAMES(sram_wdt_modules),
};

/* Submodules are named for a few (subsystem, module) pairs only. */
static const char *const iosub_smmu_subs[] = { "TBU", "TCU" };
static const char *const iosub_other_subs[] = { "RAM" };
static const char *const smmu_subs[] = { "TCU", "TBU" };
static const char *const pcie0_subs[] = { "RAS0", "RAS1" };
static const struct submodules {
	uint8_t subsystem, module;
	struct names names;
} submodules_of[] = {
	{ JM_IOSUB, 0, NAMES(iosub_smmu_subs) }, { JM_IOSUB, 2, NAMES(iosub_other_subs) },
	{ JM_DPE, 11, NAMES(smmu_subs) }, { JM_RPE, 2, NAMES(smmu_subs) }, { JM_PSUB, 0, NAMES(pcie0_subs) },
	{ JM_PSUB, 7, NAMES(smmu_subs) }, { JM_PSUB, 8, NAMES(smmu_subs) }, { JM_PSUB, 9, NAMES(smmu_subs) },
	{ JM_TCM, 1, NAMES(smmu_subs) },
};

/* What the device number counts: a core, a CMN node, a DDR channel, or a plain device. */
static const char *device_kind(unsigned subsystem)
{
	switch (subsystem) {
	case JM_CSUB:
		return "CORE";
	case JM_CMN:
		return "NID";
	case JM_DDRH:
	case JM_DDRV:
		return "CHNL";
	default:
		return "DEV";
	}
}

/* ras_csr_por: the RAS registers of a RAM (payload 0) */
static const struct arm_reg payload0_regs[] = {
	{ "lock_control", 16, 4 }, { "lock_function", 20, 4 }, { "cfg_ram_id", 24, 4 },
	{ "err_fr_low32", 28, 4 }, { "err_fr_high32", 32, 4 }, { "err_ctlr_low32", 36, 4 },
	{ "ecc_status_low32", 40, 4 }, { "ecc_addr_low32", 44, 4 }, { "ecc_addr_high32", 48, 4 },
	{ "ecc_misc0_low32", 52, 4 }, { "ecc_misc0_high32", 56, 4 }, { "ecc_misc1_low32", 60, 4 },
	{ "ecc_misc1_high32", 64, 4 }, { "ecc_misc2_low32", 68, 4 }, { "ecc_misc2_high32", 72, 4 },
};
static const struct arm_reg smmu_regs[] = {
	{ "csr_int_status", 16, 4 }, { "err_fr", 20, 4 }, { "err_ctlr", 24, 4 }, { "err_status", 28, 4 },
	{ "err_gen", 32, 4 },
};
static const struct arm_reg hac_sram_regs[] = {
	{ "ecc_1bit_info_low32", 16, 4 }, { "ecc_1bit_info_high32", 20, 4 },
	{ "ecc_2bit_info_low32", 24, 4 }, { "ecc_2bit_info_high32", 28, 4 },
};
static const struct arm_reg cmn_regs[] = {
	{ "cfgm_mxp_0", 16, 8 }, { "cfgm_hnf_0", 24, 8 }, { "cfgm_hni_0", 32, 8 }, { "cfgm_sbsx_0", 40, 8 },
	{ "err_fr_ns", 48, 8 }, { "err_ctlr_ns", 56, 8 }, { "err_status_ns", 64, 8 }, { "err_addr_ns", 72, 8 },
	{ "err_misc_ns", 80, 8 }, { "err_fr", 88, 8 }, { "err_ctlr", 96, 8 }, { "err_status", 104, 8 },
	{ "err_addr", 112, 8 }, { "err_misc", 120, 8 },
};
static const struct arm_reg gic_regs[] = {
	{ "record_id", 16, 8 }, { "gict_err_fr", 24, 8 }, { "gict_err_ctlr", 32, 8 },
	{ "gict_err_status", 40, 8 }, { "gict_err_addr", 48, 8 }, { "gict_err_misc0", 56, 8 },
	{ "gict_err_misc1", 64, 8 }, { "gict_errgsr", 72, 8 },
};

static const struct jm_payload {
	const char *name;
	const struct arm_reg *regs;
	size_t n_regs;
	size_t tail;            /* where the register array count sits */
} payloads[] = {
	[0] = { "RAM RAS", payload0_regs, ELEMENTSOF(payload0_regs), 76 },
	[1] = { "SMMU", smmu_regs, ELEMENTSOF(smmu_regs), 36 },
	[2] = { "HAC SRAM", hac_sram_regs, ELEMENTSOF(hac_sram_regs), 32 },
	[5] = { "CMN", cmn_regs, ELEMENTSOF(cmn_regs), 128 },
	[6] = { "GIC", gic_regs, ELEMENTSOF(gic_regs), 80 },
};

static void add_names(struct arm_out *o, const char *key, const struct names *t, unsigned v)
{
	if (t->v)
		arm_add_name(o, key, t->v, t->n, v);
	else
		arm_added(o, ras_record_add_uint(o->r, key, v));
}

static const struct names *submodule_names(unsigned subsystem, unsigned module)
{
	for (size_t i = 0; i < ELEMENTSOF(submodules_of); i++)
		if (submodules_of[i].subsystem == subsystem && submodules_of[i].module == module)
			return &submodules_of[i].names;
	return NULL;
}

/* The extra registers after the payload's own, as many as the count says and the section holds. */
static void add_register_array(struct arm_out *o, const uint8_t *d, size_t n, size_t tail)
{
	static const char *const keys[] = {
		"reg00", "reg01", "reg02", "reg03", "reg04", "reg05", "reg06", "reg07",
		"reg08", "reg09", "reg10", "reg11", "reg12", "reg13", "reg14", "reg15",
	};
	uint32_t count;
	size_t shown;

	if (n < tail + 4) {
		arm_problem(o, tail, "JaguarMicro section: the register array count at offset %zu is past its "
			    "end (%zu bytes)", tail, n);
		return;
	}
	count = arm_le32(d + tail);
	arm_added(o, ras_record_add_uint(o->r, "register_array_size", count));
	shown = count < ELEMENTSOF(keys) ? count : ELEMENTSOF(keys);
	if (n < tail + 4 + 4 * (size_t) shown) {
		arm_problem(o, tail + 4, "JaguarMicro section: %u extra registers do not fit in its %zu bytes",
			    count, n);
		return;
	}
	for (size_t i = 0; i < shown; i++) {
		struct arm_reg reg = { keys[i], (unsigned) (tail + 4 + 4 * i), 4 };

		arm_add_registers(o, d, &reg, 1);
	}
}

static void decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size, unsigned type)
{
	const struct jm_payload *p = &payloads[type];
	uint32_t valid;
	unsigned subsystem, module;
	size_t len;

	if (n < JM_HDR_LEN) {
		arm_problem(o, 0, "JaguarMicro section: the header needs %d bytes, the section has %zu",
			    JM_HDR_LEN, n);
		return;
	}
	valid = arm_le32(d);
	subsystem = d[6];
	module = d[7];
	arm_added(o, ras_record_add_string(o->r, "vendor", "JaguarMicro", SIZE_MAX));
	arm_added(o, ras_record_add_string(o->r, "payload_type", p->name, SIZE_MAX));
	if (valid & (1u << JM_V_VERSION))
		arm_added(o, ras_record_add_uint(o->r, "table_version", d[4]));
	if (valid & (1u << JM_V_SOC))
		ARM_ADD_NAME(o, "soc", socs, d[5]);
	if (valid & (1u << JM_V_SUBSYSTEM))
		ARM_ADD_NAME(o, "subsystem", subsystems, subsystem);
	if (valid & (1u << JM_V_MODULE)) {
		static const struct names none = { NULL, 0 };

		add_names(o, "module", subsystem < ELEMENTSOF(modules_of) ? &modules_of[subsystem] : &none, module);
	}
	if (valid & (1u << JM_V_SUBMODULE)) {
		static const struct names unnamed = { NULL, 0 };
		const struct names *subs = submodule_names(subsystem, module);

		add_names(o, "submodule", subs ? subs : &unnamed, d[8]);
	}
	if (valid & (1u << JM_V_DEVICE)) {
		arm_added(o, ras_record_add_string(o->r, "device_kind", device_kind(subsystem), SIZE_MAX));
		arm_added(o, ras_record_add_uint(o->r, "device_id", d[9]));
	}
	if (valid & (1u << JM_V_ERR_TYPE))
		arm_added(o, ras_record_add_uint(o->r, "error_type", arm_le16(d + 10)));
	if (valid & (1u << JM_V_SEVERITY))
		ARM_ADD_NAME(o, "error_severity", severities, d[12]);

	len = (size_t) snprintf(what, what_size, "JaguarMicro %s error", p->name);
	if ((valid & (1u << JM_V_SUBSYSTEM)) && subsystem < ELEMENTSOF(subsystems) && len < what_size)
		len += (size_t) snprintf(what + len, what_size - len, " in %s", subsystems[subsystem]);
	if ((valid & (1u << JM_V_MODULE)) && subsystem < ELEMENTSOF(modules_of) &&
	    module < modules_of[subsystem].n && len < what_size)
		len += (size_t) snprintf(what + len, what_size - len, " %s", modules_of[subsystem].v[module]);
	if ((valid & (1u << JM_V_DEVICE)) && len < what_size)
		snprintf(what + len, what_size - len, ", %s %u", device_kind(subsystem), d[9]);

	if (n < p->tail) {
		arm_problem(o, JM_HDR_LEN, "JaguarMicro section: the %s payload needs %zu bytes, the section has %zu",
			    p->name, p->tail, n);
		return;
	}
	arm_add_registers(o, d, p->regs, p->n_regs);
	if (valid & (1u << JM_V_REG_ARRAY))
		add_register_array(o, d, n, p->tail);
}

void arm_vendor_jaguarmicro_ram_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size)
{
	decode(o, d, n, what, what_size, 0);
}

void arm_vendor_jaguarmicro_smmu_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what,
					size_t what_size)
{
	decode(o, d, n, what, what_size, 1);
}

void arm_vendor_jaguarmicro_hac_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size)
{
	decode(o, d, n, what, what_size, 2);
}

void arm_vendor_jaguarmicro_cmn_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size)
{
	decode(o, d, n, what, what_size, 5);
}

void arm_vendor_jaguarmicro_gic_decode(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size)
{
	decode(o, d, n, what, what_size, 6);
}
