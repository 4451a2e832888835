/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The memory RAS controls EDAC exposes from Linux 6.15 on, read for `mcectl
 * status`: per device under /sys/bus/edac/devices/<dev>/, patrol and
 * on-demand scrub (scrubX/), DDR5 error check scrub per media FRU (ecs_fruX/)
 * and memory repair such as PPR and sparing (mem_repairX/).  A CXL memory
 * device registers as cxl_memN when it offers the features.  Attribute names
 * and meanings: the kernel's Documentation/ABI/testing/sysfs-edac-scrub,
 * sysfs-edac-ecs and sysfs-edac-memory-repair.  Only what describes the
 * feature is read (capabilities and settings); the write-only triggers
 * (repair, reset) and per-request values (addresses to repair) are not.
 *
 * Read only here.  The one writer of these controls is the opt-in
 * Action=repair (actions/repair-memory.c, [Memory] Repair=yes), which reads
 * a device's mem_repairX/ with this module's parsers.  The root is a
 * parameter so that tests point it at a stand-in tree.
 */

#include <stddef.h>

struct json_writer;

enum edac_feature_kind {
	EDAC_FEATURE_SCRUB,
	EDAC_FEATURE_ECS,
	EDAC_FEATURE_MEM_REPAIR,
	_EDAC_FEATURE_KIND_MAX,
};

#define EDAC_FEATURE_ATTRS_MAX 8

struct edac_feature {
	char device[64];                 /* the EDAC device: "cxl_mem0" */
	enum edac_feature_kind kind;
	unsigned instance;               /* the X of scrubX, ecs_fruX, mem_repairX */
	unsigned n_attrs;
	struct {
		const char *name;        /* static: the ABI's attribute name */
		char value[32];
	} attrs[EDAC_FEATURE_ATTRS_MAX];
};

/* "scrub", "ecs_fru", "mem_repair": the directory prefix, also the name in JSON. */
const char *edac_feature_kind_to_string(enum edac_feature_kind k);

/*
 * A feature directory's name ("scrub0", "ecs_fru12", "mem_repair1") →
 * kind and instance.  Pure: 0, or -EINVAL for any other name.
 */
int edac_feature_parse_dir(const char *name, enum edac_feature_kind *ret_kind, unsigned *ret_instance);

/*
 * One attribute file's text → its value: the first line without its
 * newline, printable, no spaces inside, shorter than size.  Pure: 0, or
 * -EINVAL (empty, several words, control bytes), -E2BIG (too long).
 */
int edac_feature_parse_value(const char *text, size_t len, char *buf, size_t size);

/*
 * Every feature of every device under devices_dir (NULL:
 * /sys/bus/edac/devices), sorted by device, kind and instance; at most max.
 * Returns how many; a kernel or device without the features gives 0.
 * Attributes a driver did not implement are absent, as in sysfs.
 */
size_t edac_features_read(const char *devices_dir, struct edac_feature *ret, size_t max);

/* "edac_features": [ {device, feature, instance, ATTR: "VALUE", ...}, ... ] */
void edac_features_write_json(const struct edac_feature *f, size_t n, struct json_writer *w);
