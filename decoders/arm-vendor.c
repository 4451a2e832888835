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
