/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Polling the MCA banks through /dev/cpu/N/msr: which CPU reads which bank
 * each round, where each bank register lives, and whether what a bank holds
 * is new.  Pure: no I/O, no logging (mcelogd/sources/msr.c does the reading).
 *
 * Every read is an IPI to the target CPU (kernel-interfaces.md §1f), so the
 * plan reads a bank shared by the threads of a core, or by a whole package,
 * from one CPU of that core or package only.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"

/* Intel SDM Vol. 3B §15.3.1 and §15.3.2; AMD SMCA: kernel-interfaces.md §2.2. */
#define MSR_IA32_MCG_CAP     0x179u
#define MSR_IA32_MCG_STATUS  0x17Au
#define MSR_MCG_CAP_COUNT    0xffu     /* bits 7:0: number of banks */
#define MSR_MAX_BANKS        64u       /* bank sets fit a uint64_t; the kernel's MAX_NR_BANKS too */

#define MSR_STATUS_VAL   (UINT64_C(1) << 63)
#define MSR_STATUS_OVER  (UINT64_C(1) << 62)
#define MSR_STATUS_UC    (UINT64_C(1) << 61)
#define MSR_STATUS_MISCV (UINT64_C(1) << 59)
#define MSR_STATUS_ADDRV (UINT64_C(1) << 58)
#define MSR_STATUS_PCC   (UINT64_C(1) << 57)
#define MSR_STATUS_SYNDV (UINT64_C(1) << 53)  /* AMD SMCA */

enum msr_reg {
	MSR_REG_STATUS,
	MSR_REG_ADDR,
	MSR_REG_MISC,
	MSR_REG_IPID,   /* SMCA only */
	MSR_REG_SYND,   /* SMCA only */
	_MSR_REG_MAX,
};

/* The MSR number of a bank register; 0 when this register does not exist (IPID/SYND without SMCA). */
uint32_t msr_bank_reg(bool smca, unsigned bank, enum msr_reg reg);

/* What the planner needs to know about the (homogeneous) CPUs. */
struct msr_cpu_kind {
	enum mce_vendor vendor;
	uint32_t family;
	uint32_t model;
	bool smca;          /* CPUID 0x80000007 EBX[3], /proc/cpuinfo flag "smca" */
	bool hypervisor;    /* CPUID 1 ECX[31], /proc/cpuinfo flag "hypervisor" */
};

/* Which CPUs see the same bank registers. */
enum msr_scope {
	MSR_SCOPE_THREAD,    /* every logical CPU has its own: read on each (the safe default) */
	MSR_SCOPE_CORE,      /* shared by the threads of a core */
	MSR_SCOPE_PACKAGE,   /* shared by the whole package (uncore) */
	_MSR_SCOPE_MAX,
};

const char *msr_scope_to_string(enum msr_scope s);

/* From the table in msr-plan.c; MSR_SCOPE_THREAD when the model or bank is not in it. */
enum msr_scope msr_bank_scope(const struct msr_cpu_kind *k, unsigned bank);

/*
 * One online CPU.  core_leader/package_leader: the lowest online CPU of its
 * core/package (from sysfs topology), which reads the shared banks for all.
 * present: bit b set when bank b is implemented and visible on this CPU
 * (SMCA banks read as zero on CPUs that do not own them: MCA_IPID == 0).
 */
struct msr_topo_cpu {
	unsigned cpu;
	unsigned core_leader;
	unsigned package_leader;
	uint64_t present;
};

struct msr_read {
	unsigned cpu;
	unsigned bank;
};

/*
 * Fills out (room for n_cpus * n_banks entries) with the (cpu, bank) pairs
 * to read each round, grouped by CPU in the order of cpus[].  Returns the
 * number of entries.
 */
size_t msr_plan_build(const struct msr_cpu_kind *k, const struct msr_topo_cpu *cpus, size_t n_cpus,
		      unsigned n_banks, struct msr_read *out);

/* Lowest CPU of a sysfs CPU list ("0,64", "0-1") that is online; -EINVAL or -ENOENT. */
int msr_topo_leader(const char *list, const bool *online, size_t max);

/* What one bank held when read. */
struct msr_bank_regs {
	uint64_t status;
	uint64_t addr;
	uint64_t misc;
	uint64_t synd;
	uint64_t ipid;
};

/* What one read slot (a CPU's view of a bank) last logged. */
struct msr_seen {
	bool valid;
	struct msr_bank_regs last;
};

/*
 * True when r is a record to log: VAL set and not what this slot logged
 * last.  Remembers r.  A bank found empty (VAL clear) is forgotten, so the
 * same values after a clear are a new error.
 */
bool msr_seen_update(struct msr_seen *s, const struct msr_bank_regs *r);

/*
 * Whether we may write STATUS = 0 after logging: only corrected or
 * deferred records (UC and PCC clear).  An uncorrected record belongs to
 * the kernel's machine-check handler even when we find it first.
 */
bool msr_may_clear(uint64_t status);
