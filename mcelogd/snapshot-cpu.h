/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Which CPU a record's snapshot is of, and why that one.  A machine check
 * names its CPU.  A ras:* record was delivered by the tracepoint of one CPU
 * (the perf ring it came from, PERF_SAMPLE_CPU), and some carry a CPU field
 * of their own; whether either CPU was doing anything that explains the
 * error depends on the kind of record, decided by one table row per kind
 * (snapshot-cpu.c).  Where no CPU is known to mean something, there is no
 * snapshot: never the counters of a CPU that merely ran a poller.
 *
 * Pure: no I/O, no clock.
 */

#include <stdbool.h>

#include "snapshot.h"

struct mce_record;
struct ras_record;

/* A machine check's subject: the CPU and time it names, its TSC. */
void snapshot_subject_of_mce(const struct mce_record *rec, struct snapshot_subject *ret);

/*
 * A ras record's subject, or false when a snapshot of any CPU would say
 * nothing about this kind of error (EDAC polling, PCIe, CXL devices), or the
 * CPU that would is not known.
 */
bool snapshot_subject_of_ras(const struct ras_record *rec, struct snapshot_subject *ret);
