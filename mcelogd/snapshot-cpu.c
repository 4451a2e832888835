/* SPDX-License-Identifier: MIT */
#include <stddef.h>

#include "macro.h"
#include "ras-record.h"
#include "record.h"
#include "snapshot-cpu.h"

/*
 * Per kind of ras record: what the record's own CPU field is, and what the
 * CPU whose tracepoint fired was doing; NULL where that CPU means nothing.
 * The record's CPU wins when both are known.  A kind without a row gets no
 * snapshot:
 *  - mc_event: EDAC's polling worker or a GHES handler reports it, from any CPU;
 *  - aer_event, pci:*, cxl:*, devlink:*: a device's interrupt thread or poll, on any CPU;
 *  - extlog_mem_event: rides on a machine check, which has its own snapshot;
 *  - non_standard_event: a vendor section names no CPU, and the CPU handling
 *    it is the erring one only for a synchronous abort, which it cannot tell;
 *  - BERT's x86 sections: of the previous boot, never live.
 * Kernel sources for what runs where: mm/memory-failure.c (memory_failure()
 * from the consuming task, the injecting task, or GHES's work queued on the
 * CPU that took the report), drivers/ras/ras.c (log_arm_hw_error(): the
 * section's MPIDR turned into a logical CPU, -1 when none matches).
 */
struct ras_cpu_meaning {
	const char *record_cpu_is;
	const char *sample_cpu_is;
};

static const struct ras_cpu_meaning ras_cpu_meanings[_RAS_EVENT_MAX] = {
	[RAS_EVENT_MEMORY_FAILURE] = {
		.sample_cpu_is = "ran memory_failure(): the CPU that consumed the poisoned page, or whose "
				 "task injected or offlined it, or that took the firmware's report",
	},
	[RAS_EVENT_ARM_PROCESSOR] = {
		.record_cpu_is = "the processor the error section names (its MPIDR)",
		.sample_cpu_is = "handled the firmware's report; the erring CPU itself only for a "
				 "synchronous external abort",
	},
};

void snapshot_subject_of_mce(const struct mce_record *rec, struct snapshot_subject *ret)
{
	*ret = (struct snapshot_subject) {
		.have_cpu = rec->have & MCE_HAVE_CPU,
		.cpu = rec->cpu,
		.have_time = rec->have & MCE_HAVE_TIME,
		.time_usec = rec->time_usec,
		.tsc = rec->have & MCE_HAVE_TSC ? rec->tsc : 0,
		.cpu_from = "record",
		.cpu_is = "the CPU the machine check names",
	};
}

bool snapshot_subject_of_ras(const struct ras_record *rec, struct snapshot_subject *ret)
{
	const struct ras_cpu_meaning *m;

	if ((unsigned) rec->event >= ELEMENTSOF(ras_cpu_meanings))
		return false;
	m = &ras_cpu_meanings[rec->event];
	*ret = (struct snapshot_subject) {
		.have_cpu = true,
		.have_time = rec->have_time,
		.time_usec = rec->time_usec,
	};
	if (m->record_cpu_is && rec->have_cpu) {
		ret->cpu = rec->cpu;
		ret->cpu_from = "record";
		ret->cpu_is = m->record_cpu_is;
		return true;
	}
	if (m->sample_cpu_is && rec->have_sample_cpu) {
		ret->cpu = rec->sample_cpu;
		ret->cpu_from = "sample";
		ret->cpu_is = m->sample_cpu_is;
		return true;
	}
	return false;
}
