/* SPDX-License-Identifier: MIT */
#pragma once

/* Reading the intel_pt PMU's sysfs directory into kernel-abi/intel-pt-pmu.h. */

#include <stddef.h>

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
