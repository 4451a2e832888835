/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include "cpu-list.h"
#include "macro.h"
#include "msr-plan.h"

/* Offsets within a bank's MSR block. */
static const uint32_t legacy_offset[_MSR_REG_MAX] = {
	/* Intel SDM Vol. 3B §15.3.2: IA32_MCi_CTL 0x400 + 4i, then STATUS, ADDR, MISC. */
	[MSR_REG_STATUS] = 1, [MSR_REG_ADDR] = 2, [MSR_REG_MISC] = 3,
};
static const uint32_t smca_offset[_MSR_REG_MAX] = {
	/* AMD SMCA: MCA_CTL 0xC0002000 + 0x10 b, STATUS +1, ADDR +2, MISC0 +3, IPID +5, SYND +6. */
	[MSR_REG_STATUS] = 1, [MSR_REG_ADDR] = 2, [MSR_REG_MISC] = 3, [MSR_REG_IPID] = 5,
	[MSR_REG_SYND] = 6,
};

uint32_t msr_bank_reg(bool smca, unsigned bank, enum msr_reg reg)
{
	if ((unsigned) reg >= _MSR_REG_MAX || bank >= MSR_MAX_BANKS)
		return 0;
	if (smca)
		return 0xC0002000u + 0x10u * bank + smca_offset[reg];
	if (legacy_offset[reg] == 0)
		return 0;
	return 0x400u + 4u * bank + legacy_offset[reg];
}

const char *msr_scope_to_string(enum msr_scope s)
{
	static const char *const names[_MSR_SCOPE_MAX] = {
		[MSR_SCOPE_THREAD] = "thread", [MSR_SCOPE_CORE] = "core", [MSR_SCOPE_PACKAGE] = "package",
	};

	return (unsigned) s < _MSR_SCOPE_MAX ? names[s] : "unknown";
}

/*
 * Bank scope by model.  Banks [0, core_end) are shared by the threads of a
 * core, banks [core_end, n) by the package; a model not listed is read on
 * every thread.  A row is added only with a public document that says so:
 *
 * 06_2DH (Xeon E5-1600/2600/4600, Sandy Bridge-EP): Intel Xeon Processor
 *   E5-1600/E5-2600/E5-4600 Product Families Datasheet Vol. 1, notes to
 *   Table 2-11: banks 0-3 are core-specific and "return the same value for a
 *   particular core independent of the thread", banks 4-19 "reside in the
 *   processor uncore and hence will return the same value independent of
 *   the processor ID".
 * 06_55H (Xeon Scalable, Skylake-SP / Cascade Lake): Intel SDM Vol. 4 (Vol.
 *   3C chapter 35 in older editions), the table of additional MSRs for
 *   06_55H: IA32_MC4 (PCU) up to the memory-controller banks are "Package".
 *   The same table prints "Package" for MC0/MC1 (IFU/DCU) too, which cannot
 *   hold for per-core units; banks 0-3 are taken as core-scope as on
 *   Sandy Bridge-EP, which reads more often than "Package" would, never less.
 *
 * SMCA (AMD Family 17h and later) has no row: every bank is read where it
 * is visible, and a shared (non-core) bank is visible on one CPU only and
 * reads as zero elsewhere (AMD's description in Linux commit 284b965c146f
 * "x86/mce/AMD: Do not perform shared bank check for future processors"),
 * which the caller reports through msr_topo_cpu.present (MCA_IPID != 0).
 */
static const struct scope_row {
	enum mce_vendor vendor;
	uint32_t family;
	uint32_t model;
	unsigned core_end;
} scope_rows[] = {
	{ .vendor = MCE_VENDOR_INTEL, .family = 6, .model = 0x2D, .core_end = 4 },
	{ .vendor = MCE_VENDOR_INTEL, .family = 6, .model = 0x55, .core_end = 4 },
};

enum msr_scope msr_bank_scope(const struct msr_cpu_kind *k, unsigned bank)
{
	/* A hypervisor emulates the banks per vCPU (QEMU: one bank array per vCPU). */
	if (k->hypervisor || k->smca)
		return MSR_SCOPE_THREAD;
	for (size_t i = 0; i < ELEMENTSOF(scope_rows); i++) {
		const struct scope_row *row = &scope_rows[i];

		if (row->vendor == k->vendor && row->family == k->family && row->model == k->model)
			return bank < row->core_end ? MSR_SCOPE_CORE : MSR_SCOPE_PACKAGE;
	}
	return MSR_SCOPE_THREAD;
}

size_t msr_plan_build(const struct msr_cpu_kind *k, const struct msr_topo_cpu *cpus, size_t n_cpus,
		      unsigned n_banks, struct msr_read *out)
{
	enum msr_scope scope[MSR_MAX_BANKS];
	size_t n = 0;

	if (n_banks > MSR_MAX_BANKS)
		n_banks = MSR_MAX_BANKS;
	for (unsigned b = 0; b < n_banks; b++)
		scope[b] = msr_bank_scope(k, b);

	for (size_t i = 0; i < n_cpus; i++) {
		const struct msr_topo_cpu *c = &cpus[i];

		for (unsigned b = 0; b < n_banks; b++) {
			bool leader;

			if (!(c->present & (UINT64_C(1) << b)))
				continue;
			switch (scope[b]) {
			case MSR_SCOPE_CORE:
				leader = c->cpu == c->core_leader;
				break;
			case MSR_SCOPE_PACKAGE:
				leader = c->cpu == c->package_leader;
				break;
			default:
				leader = true;
			}
			if (leader)
				out[n++] = (struct msr_read) { .cpu = c->cpu, .bank = b };
		}
	}
	return n;
}

int msr_topo_leader(const char *list, const bool *online, size_t max)
{
	bool set[CPU_LIST_MAX];

	if (max > CPU_LIST_MAX)
		max = CPU_LIST_MAX;
	memset(set, 0, sizeof(set));
	if (cpu_list_parse(list, set, max) < 0)
		return -EINVAL;
	for (size_t i = 0; i < max; i++)
		if (set[i] && online[i])
			return (int) i;
	return -ENOENT;
}

bool msr_seen_update(struct msr_seen *s, const struct msr_bank_regs *r)
{
	if (!(r->status & MSR_STATUS_VAL)) {
		s->valid = false;
		return false;
	}
	if (s->valid && memcmp(&s->last, r, sizeof(*r)) == 0)
		return false;
	s->valid = true;
	s->last = *r;
	return true;
}

bool msr_may_clear(uint64_t status)
{
	return (status & MSR_STATUS_VAL) && !(status & (MSR_STATUS_UC | MSR_STATUS_PCC));
}
