/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include "macro.h"
#include "record.h"

const char *const mce_vendor_names[_MCE_VENDOR_MAX] = {
	[MCE_VENDOR_UNKNOWN] = "unknown",
	[MCE_VENDOR_INTEL]   = "intel",
	[MCE_VENDOR_AMD]     = "amd",
	[MCE_VENDOR_HYGON]   = "hygon",
	[MCE_VENDOR_ZHAOXIN] = "zhaoxin",
	[MCE_VENDOR_CENTAUR] = "centaur",
	[MCE_VENDOR_ARM]     = "arm",
};

const char *const mce_source_names[_MCE_SOURCE_MAX] = {
	[MCE_SOURCE_UNKNOWN]       = "unknown",
	[MCE_SOURCE_TRACEPOINT]    = "tracepoint",
	[MCE_SOURCE_REPLAY]        = "replay",
	[MCE_SOURCE_DEV_MCELOG]    = "dev_mcelog",
	[MCE_SOURCE_MSR_POLL]      = "msr_poll",
	[MCE_SOURCE_PREVIOUS_BOOT] = "previous_boot",
	[MCE_SOURCE_DECODE]        = "decode",
	[MCE_SOURCE_RAS_MC_EVENT]             = "ras:mc_event",
	[MCE_SOURCE_RAS_AER_EVENT]            = "ras:aer_event",
	[MCE_SOURCE_RAS_MEMORY_FAILURE_EVENT] = "ras:memory_failure_event",
	[MCE_SOURCE_RAS_EXTLOG_MEM_EVENT]     = "ras:extlog_mem_event",
	[MCE_SOURCE_RAS_ARM_EVENT]            = "ras:arm_event",
	[MCE_SOURCE_RAS_NON_STANDARD_EVENT]   = "ras:non_standard_event",
	[MCE_SOURCE_CXL_AER_UNCORRECTABLE] = "cxl:cxl_aer_uncorrectable_error",
	[MCE_SOURCE_CXL_AER_CORRECTABLE] = "cxl:cxl_aer_correctable_error",
	[MCE_SOURCE_CXL_PORT_AER_UNCORRECTABLE] = "cxl:cxl_port_aer_uncorrectable_error",
	[MCE_SOURCE_CXL_PORT_AER_CORRECTABLE] = "cxl:cxl_port_aer_correctable_error",
	[MCE_SOURCE_CXL_OVERFLOW] = "cxl:cxl_overflow",
	[MCE_SOURCE_CXL_GENERIC_EVENT] = "cxl:cxl_generic_event",
	[MCE_SOURCE_CXL_GENERAL_MEDIA] = "cxl:cxl_general_media",
	[MCE_SOURCE_CXL_DRAM] = "cxl:cxl_dram",
	[MCE_SOURCE_CXL_MEMORY_MODULE] = "cxl:cxl_memory_module",
	[MCE_SOURCE_CXL_POISON] = "cxl:cxl_poison",
	[MCE_SOURCE_CXL_MEMORY_SPARING] = "cxl:cxl_memory_sparing",
	[MCE_SOURCE_PCI_HP_EVENT] = "pci:pci_hp_event",
	[MCE_SOURCE_PCIE_LINK_EVENT] = "pci:pcie_link_event",
	[MCE_SOURCE_DEVLINK_HEALTH_REPORT] = "devlink:devlink_health_report",
	[MCE_SOURCE_DEVLINK_RECOVER_ABORTED] = "devlink:devlink_health_recover_aborted",
	[MCE_SOURCE_SIGNAL_GENERATE] = "signal:signal_generate",
	[MCE_SOURCE_BLOCK_RQ_ERROR] = "block:block_rq_error",
	[MCE_SOURCE_BLOCK_RQ_COMPLETE] = "block:block_rq_complete",
};

/*
 * Linux's X86_VENDOR_* numbering (arch/x86/include/asm/processor.h), which the
 * tracepoint's cpuvendor field and mcelog's "PROCESSOR v:cpuid" line carry.
 */
static const enum mce_vendor linux_x86_vendors[] = {
	[0]  = MCE_VENDOR_INTEL,
	[2]  = MCE_VENDOR_AMD,
	[5]  = MCE_VENDOR_CENTAUR,
	[9]  = MCE_VENDOR_HYGON,
	[10] = MCE_VENDOR_ZHAOXIN,
};

enum mce_vendor mce_vendor_from_string(const char *s)
{
	for (size_t i = 0; i < ELEMENTSOF(mce_vendor_names); i++)
		if (strcasecmp(s, mce_vendor_names[i]) == 0)
			return (enum mce_vendor) i;
	/* CPUID vendor strings, as /proc/cpuinfo and mcelog print them */
	if (strcmp(s, "GenuineIntel") == 0)
		return MCE_VENDOR_INTEL;
	if (strcmp(s, "AuthenticAMD") == 0)
		return MCE_VENDOR_AMD;
	if (strcmp(s, "HygonGenuine") == 0)
		return MCE_VENDOR_HYGON;
	if (strcmp(s, "  Shanghai  ") == 0)
		return MCE_VENDOR_ZHAOXIN;
	if (strcmp(s, "CentaurHauls") == 0)
		return MCE_VENDOR_CENTAUR;
	return MCE_VENDOR_UNKNOWN;
}

enum mce_vendor mce_vendor_from_linux_x86(unsigned v)
{
	if (v >= ELEMENTSOF(linux_x86_vendors))
		return MCE_VENDOR_UNKNOWN;
	/* index 0 is Intel, so the holes (value 0 = MCE_VENDOR_UNKNOWN) need care */
	if (v != 0 && linux_x86_vendors[v] == MCE_VENDOR_UNKNOWN)
		return MCE_VENDOR_UNKNOWN;
	return linux_x86_vendors[v];
}

enum mce_source mce_source_from_string(const char *s)
{
	for (size_t i = 0; i < ELEMENTSOF(mce_source_names); i++)
		if (strcmp(s, mce_source_names[i]) == 0)
			return (enum mce_source) i;
	return MCE_SOURCE_UNKNOWN;
}

/*
 * Intel SDM Vol. 2A, CPUID leaf 01H, "Display Family / Display Model": the
 * extended family is added only when the base family is 0Fh; the extended
 * model is prepended when the base family is 06h or 0Fh.  AMD's CPUID
 * specification (pub. 25481) uses the same rule for family 0Fh and above and
 * has a zero extended model on its family-6 parts, so one rule serves both.
 *
 * Zhaoxin's family-7 parts (KH-40000 is 07_5BH, KH-50000 07_7BH, under
 * either vendor string) put the model's high nibble in the extended model
 * too, and Linux reads it for every base family from 06h up (x86_model(),
 * arch/x86/lib/cpu.c), as mcelog's Zhaoxin support does (andikleen/mcelog
 * pull request 126): so do we.  No Intel or AMD part has a base family
 * between 07h and 0Eh, so their numbers are unchanged.
 */
void mce_record_set_cpuid(struct mce_record *r, uint32_t eax)
{
	uint32_t base_family = (eax >> 8) & 0xf;
	uint32_t base_model = (eax >> 4) & 0xf;

	r->stepping = eax & 0xf;
	r->family = base_family;
	if (base_family == 0xf)
		r->family += (eax >> 20) & 0xff;
	r->model = base_model;
	if (base_family >= 0x6)
		r->model |= ((eax >> 16) & 0xf) << 4;
	r->have |= MCE_HAVE_CPUID;
}

int mce_record_set_bank_name(struct mce_record *r, const char *name, size_t len)
{
	/* Bank names are plain ASCII words; anything else is not one we could match. */
	if (len == 0)
		return -EINVAL;
	if (len >= sizeof(r->bank_name))
		return -ENAMETOOLONG;
	for (size_t i = 0; i < len; i++)
		if (name[i] < 0x20 || name[i] > 0x7e)
			return -EINVAL;
	memcpy(r->bank_name, name, len);
	r->bank_name[len] = '\0';
	r->have |= MCE_HAVE_BANK_NAME;
	return 0;
}

/* struct mce_hw_err's vendor union, AMD's member: u64 synd1, u64 synd2, in this order. */
#define VENDOR_AMD_SYND1 0
#define VENDOR_AMD_SYND2 8
#define VENDOR_AMD_SIZE  16

static uint64_t le64_at(const unsigned char *p)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < 8; i++)
		v |= (uint64_t) p[i] << (8 * i);
	return v;
}

int mce_record_set_vendor_data(struct mce_record *r, const unsigned char *p, size_t len)
{
	uint64_t synd1, synd2;

	/* The union is AMD's only on AMD and Hygon (Hygon runs the kernel's AMD MCA code). */
	if (!(r->have & MCE_HAVE_VENDOR) || (r->vendor != MCE_VENDOR_AMD && r->vendor != MCE_VENDOR_HYGON))
		return 0;
	if (len < VENDOR_AMD_SIZE)
		return -EMSGSIZE;
	synd1 = le64_at(p + VENDOR_AMD_SYND1);
	synd2 = le64_at(p + VENDOR_AMD_SYND2);
	/* Both zero: the kernel read neither (no SYNDV, or a bank before Zen 4 has none). */
	if (synd1 == 0 && synd2 == 0)
		return 0;
	r->synd1 = synd1;
	r->synd2 = synd2;
	r->have |= MCE_HAVE_SYND1 | MCE_HAVE_SYND2;
	return 0;
}
