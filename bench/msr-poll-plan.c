/* SPDX-License-Identifier: MIT */
/*
 * MSR reads per poll round, naive (every bank on every CPU) against the
 * plan mcelogd uses (decoders/msr-plan.c), for a synthetic two-socket
 * machine: 2 packages x 32 cores x 2 threads = 128 CPUs, numbered as Linux
 * does (CPU n and n + 64 are the threads of one core).
 *
 *   bench/msr-poll-plan          (from a build directory after `make`)
 *
 * Counts are STATUS reads on a quiet machine; a bank holding an error costs
 * up to 2 more (ADDR, MISC; 3 with SMCA's SYND) and 1 write to clear.  Each
 * read is one IPI to the target CPU.  The counts are exact for the layouts
 * below; how real a layout is, is said next to it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "msr-plan.h"

#define PACKAGES 2
#define CORES    32   /* per package */
#define THREADS  2
#define N_CPUS   (PACKAGES * CORES * THREADS)

struct layout {
	const char *name;
	struct msr_cpu_kind kind;
	unsigned n_banks;                    /* IA32_MCG_CAP[7:0] */
	uint64_t present_all;                /* banks visible on every CPU */
	uint64_t present_leader;             /* banks visible on one CPU per package only */
	const char *note;
};

static const struct layout layouts[] = {
	{
		.name = "Intel Xeon Scalable (06_55H, Skylake-SP), 20 banks",
		.kind = { .vendor = MCE_VENDOR_INTEL, .family = 6, .model = 0x55 },
		.n_banks = 20,
		.present_all = (UINT64_C(1) << 20) - 1,
		.note = "scope from the table in msr-plan.c: banks 0-3 per core, 4-19 per package",
	},
	{
		.name = "AMD Family 19h Model 01h (SMCA), 23 banks",
		.kind = { .vendor = MCE_VENDOR_AMD, .family = 0x19, .model = 0x01, .smca = true },
		.n_banks = 23,
		/* core banks LS IF L2 DE EX FP (0-3, 5, 6); bank 4 reserved (MCA_IPID 0) */
		.present_all = 0x6f,
		/* synthetic: the 16 non-core banks (L3, UMC, CS, PIE, PSP, SMU, NBIO ...) owned by one
		   CPU of the package and read-as-zero on the others */
		.present_leader = ((UINT64_C(1) << 23) - 1) & ~UINT64_C(0x7f),
		.note = "SMCA: read where MCA_IPID != 0; which CPU owns a non-core bank is synthetic here",
	},
	{
		.name = "Any CPU under a hypervisor (CPUID.1:ECX[31]), 10 banks as QEMU",
		.kind = { .vendor = MCE_VENDOR_INTEL, .family = 6, .model = 0x55, .hypervisor = true },
		.n_banks = 10,
		.present_all = (UINT64_C(1) << 10) - 1,
		.note = "every bank per vCPU: the plan reads everything, as it must",
	},
};

int main(void)
{
	static struct msr_topo_cpu cpus[N_CPUS];
	static struct msr_read reads[N_CPUS * MSR_MAX_BANKS];

	printf("Synthetic layout: %d packages x %d cores x %d threads = %d CPUs\n\n", PACKAGES, CORES,
	       THREADS, N_CPUS);
	printf("%-64s %8s %8s %7s\n", "layout", "naive", "planned", "ratio");
	for (size_t l = 0; l < sizeof(layouts) / sizeof(layouts[0]); l++) {
		const struct layout *lay = &layouts[l];
		size_t n;

		for (unsigned cpu = 0; cpu < N_CPUS; cpu++) {
			unsigned core = cpu % (PACKAGES * CORES), pkg = core / CORES;

			cpus[cpu] = (struct msr_topo_cpu) {
				.cpu = cpu,
				.core_leader = core,
				.package_leader = pkg * CORES,
				.present = lay->present_all | (cpu == pkg * CORES ? lay->present_leader : 0),
			};
		}
		n = msr_plan_build(&lay->kind, cpus, N_CPUS, lay->n_banks, reads);
		printf("%-64s %8u %8zu %6.1fx\n", lay->name, N_CPUS * lay->n_banks, n,
		       (double) (N_CPUS * lay->n_banks) / (double) n);
		printf("  (%s)\n", lay->note);
	}
	return EXIT_SUCCESS;
}
