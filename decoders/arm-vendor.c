/* SPDX-License-Identifier: MIT */
/*
 * Section type GUID → the vendor layout that decodes it.  Each row's file
 * names the public source its layout follows.
 */
#include <errno.h>
#include <string.h>

#include "arm-internal.h"
#include "arm-vendor.h"
#include "cper.h"

static const struct vendor_section {
	struct cper_guid guid;
	const char *name;
	void (*decode)(struct arm_out *o, const uint8_t *d, size_t n, char *what, size_t what_size);
} vendor_sections[] = {
	/* e8ed898d-df16-43cc-8ecc-54f060ef157f */
	{ { 0xe8ed898d, 0xdf16, 0x43cc, { 0x8e, 0xcc, 0x54, 0xf0, 0x60, 0xef, 0x15, 0x7f } },
	  "Ampere RAS error", arm_vendor_ampere_decode },
	/* 6d5244f2-2712-11ec-bea7-cb3fdb95c786 */
	{ { 0x6d5244f2, 0x2712, 0x11ec, { 0xbe, 0xa7, 0xcb, 0x3f, 0xdb, 0x95, 0xc7, 0x86 } },
	  "NVIDIA Grace error", arm_vendor_nvidia_grace_decode },
	/* 9068e568-6ca0-11f0-aeaf-159343591eac */
	{ { 0x9068e568, 0x6ca0, 0x11f0, { 0xae, 0xaf, 0x15, 0x93, 0x43, 0x59, 0x1e, 0xac } },
	  "NVIDIA Vera error", arm_vendor_nvidia_vera_decode },
	/* c8b328a8-9917-4af6-9a13-2e08ab2e7586 */
	{ { 0xc8b328a8, 0x9917, 0x4af6, { 0x9a, 0x13, 0x2e, 0x08, 0xab, 0x2e, 0x75, 0x86 } },
	  "HiSilicon common error", arm_vendor_hisilicon_decode },
	/* b2889fc9-e7d7-4f9d-a867-af42e98be772 */
	{ { 0xb2889fc9, 0xe7d7, 0x4f9d, { 0xa8, 0x67, 0xaf, 0x42, 0xe9, 0x8b, 0xe7, 0x72 } },
	  "HiSilicon PCIe controller error", arm_vendor_hisilicon_pcie_decode },
	/* a6980811-16ea-4e4d-b936-fb00a23ff29c */
	{ { 0xa6980811, 0x16ea, 0x4e4d, { 0xb9, 0x36, 0xfb, 0x00, 0xa2, 0x3f, 0xf2, 0x9c } },
	  "Alibaba Yitian error", arm_vendor_yitian_decode },
	/* 82d78ba3-fa14-407a-ba0e-f3ba8170013c */
	{ { 0x82d78ba3, 0xfa14, 0x407a, { 0xba, 0x0e, 0xf3, 0xba, 0x81, 0x70, 0x01, 0x3c } },
	  "JaguarMicro RAM RAS error", arm_vendor_jaguarmicro_ram_decode },
	/* f9723053-2558-49b1-b58a-1c1a82492a62 */
	{ { 0xf9723053, 0x2558, 0x49b1, { 0xb5, 0x8a, 0x1c, 0x1a, 0x82, 0x49, 0x2a, 0x62 } },
	  "JaguarMicro SMMU error", arm_vendor_jaguarmicro_smmu_decode },
	/* 2d31de54-3037-4f24-a283-f69ca1ec0b9a */
	{ { 0x2d31de54, 0x3037, 0x4f24, { 0xa2, 0x83, 0xf6, 0x9c, 0xa1, 0xec, 0x0b, 0x9a } },
	  "JaguarMicro HAC SRAM error", arm_vendor_jaguarmicro_hac_decode },
	/* dac80d69-0a72-4eba-8114-148ee344af06 */
	{ { 0xdac80d69, 0x0a72, 0x4eba, { 0x81, 0x14, 0x14, 0x8e, 0xe3, 0x44, 0xaf, 0x06 } },
	  "JaguarMicro CMN error", arm_vendor_jaguarmicro_cmn_decode },
	/* 746f06fe-405e-451f-8d09-02e802ed984a */
	{ { 0x746f06fe, 0x405e, 0x451f, { 0x8d, 0x09, 0x02, 0xe8, 0x02, 0xed, 0x98, 0x4a } },
	  "JaguarMicro GIC error", arm_vendor_jaguarmicro_gic_decode },
};

static const struct vendor_section *find(const struct cper_guid *type)
{
	for (size_t i = 0; i < ELEMENTSOF(vendor_sections); i++)
		if (cper_guid_equal(type, &vendor_sections[i].guid))
			return &vendor_sections[i];
	return NULL;
}

const char *arm_vendor_section_name(const struct cper_guid *type)
{
	const struct vendor_section *v = find(type);

	return v ? v->name : NULL;
}

int arm_vendor_decode(const struct cper_guid *type, struct ras_record *r, const uint8_t *d, size_t n,
		      char *what, size_t what_size, struct arm_problem *problem)
{
	const struct vendor_section *v = find(type);
	struct arm_out o = { .r = r, .problem = problem };

	*problem = (struct arm_problem) {};
	if (what_size > 0)
		what[0] = '\0';
	if (!v)
		return 0;
	v->decode(&o, d, n, what, what_size);
	return o.oom || o.problem->found ? arm_result(&o) : 1;
}
