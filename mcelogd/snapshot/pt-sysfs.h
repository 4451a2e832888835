/* SPDX-License-Identifier: MIT */
#pragma once

/* Reading the intel_pt PMU's sysfs directory into kernel-abi/intel-pt-pmu.h. */

#include <stddef.h>

struct cpuinfo;
struct intel_pt_pmu;

#define INTEL_PT_SYSFS "/sys/bus/event_source/devices/intel_pt"

/*
 * Reads dir/type, dir/caps/ * and dir/format/ *.  Also writes the caps as
 * "name value\n" lines (the text of the PT snapshot file) into caps_text,
 * NUL-terminated, cut at caps_size.  A cap or format file that cannot be read
 * or parsed is skipped (the PMU still works without it).  Returns 0,
 * -ENOENT if dir has no intel_pt PMU (no PT: AMD, a VM), or negative errno
 * of reading dir/type.
 */
int intel_pt_sysfs_read(const char *dir, struct intel_pt_pmu *p, char *caps_text, size_t caps_size);

/*
 * Why these CPUs have no Intel PT, in an operator's words, from
 * /proc/cpuinfo's text: not x86, AMD, a VM whose CPU model hides it, an
 * Intel CPU without it; NULL if they have it (the intel_pt flag).
 */
const char *intel_pt_cpuinfo_unavailable(const char *cpuinfo_text);

/* Reads /proc/cpuinfo and says the same; a file that cannot be read is a reason too. */
const char *intel_pt_unavailable(void);
