/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The intel_pt perf PMU as sysfs describes it, and the perf_event_attr the
 * PT flight recorder opens from that description.
 *
 *   /sys/bus/event_source/devices/intel_pt/type      the PMU's attr.type (decimal)
 *   .../intel_pt/format/NAME   "config:0", "config:14-17", "config1:0-3,8" (the
 *                              kernel ABI document sysfs-bus-event_source-devices-format)
 *   .../intel_pt/caps/NAME     one hexadecimal value each (kernel
 *                              Documentation: the intel_pt PMU's caps, read from CPUID 0x14)
 *
 * Pure: the caller reads the files (mcelogd/snapshot/pt-sysfs.c) and passes the texts.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct perf_event_attr;

#define PMU_NAME_MAX 32
#define PMU_FORMATS_MAX 32
#define PMU_CAPS_MAX 32

struct pmu_format {
	char name[PMU_NAME_MAX];
	unsigned config;               /* 0: attr.config, 1: config1, 2: config2 */
	uint64_t mask;                 /* the attr bits the field occupies, low to high */
};

/* Parses one format file's text.  -EINVAL for a text that is not
 * "configN:LO[-HI][,LO[-HI]...]" with bits 0..63, or a name too long. */
int pmu_format_parse(const char *name, const char *text, struct pmu_format *ret);

/* Puts value into config[0..2] through the field's bits, low value bits to the
 * lowest mask bits.  -ERANGE if the value needs more bits than the field has. */
int pmu_format_put(const struct pmu_format *f, uint64_t value, uint64_t config[3]);

struct pmu_cap {
	char name[PMU_NAME_MAX];
	uint64_t value;
};

struct intel_pt_pmu {
	uint32_t type;
	bool have_type;
	struct pmu_cap caps[PMU_CAPS_MAX];
	size_t n_caps;
	struct pmu_format formats[PMU_FORMATS_MAX];
	size_t n_formats;
};

/* Each returns 0, -EINVAL for a text it cannot read, -E2BIG when full.
 * A cap whose text is not one hex number (e.g. tsc_art_ratio "2:100") is
 * skipped with -EINVAL: the caller notes it and goes on. */
int intel_pt_pmu_set_type(struct intel_pt_pmu *p, const char *text);
int intel_pt_pmu_add_cap(struct intel_pt_pmu *p, const char *name, const char *text);
int intel_pt_pmu_add_format(struct intel_pt_pmu *p, const char *name, const char *text);

/* -ENOENT if the PMU has no such cap / format. */
int intel_pt_pmu_cap(const struct intel_pt_pmu *p, const char *name, uint64_t *ret);
const struct pmu_format *intel_pt_pmu_format(const struct intel_pt_pmu *p, const char *name);

/*
 * The attr for one CPU's recorder: the intel_pt type, config with
 * pt (the config is explicit), tsc and branch, and psb_period when the
 * PMU has both the format and the psb_cyc cap.  Enabled at once, all
 * privilege levels.  On -ENOENT *ret_missing names the missing part
 * ("type", or the format's name).
 */
int intel_pt_build_attr(const struct intel_pt_pmu *p, unsigned psb_period, struct perf_event_attr *attr,
			const char **ret_missing);

