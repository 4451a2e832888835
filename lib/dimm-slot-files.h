/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Reading what names the board's slots from the running system, for
 * `mcectl slots` and the daemon alike: the firmware's SMBIOS Memory Device
 * structures (DIR/17-N/raw, DIR normally /sys/firmware/dmi/entries) and the
 * administrator's overrides (the *.conf files of a slots.d directory,
 * lib/dimm-slots.h).  A missing directory is no problem (no SMBIOS: a VM
 * without it, a board without type 17); every file that cannot be read or
 * parsed is told to `problem` with its path, and the rest is kept.
 */

#include <stddef.h>

#include "dimm-slots.h"

#define DMI_ENTRIES_DEFAULT     "/sys/firmware/dmi/entries"
#define SLOTS_DIR_DEFAULT       SYSCONFDIR "/mcelogd/slots.d"   /* the administrator's overrides */
#define DIMM_SLOTS_SUFFIX       ".conf"
#define SMBIOS_MEMDEVS_MAX      1024     /* type-17 structures read; far above any board */

/*
 * The type-17 structures of dir, in entry order (17-0, 17-1, ...), into a
 * malloc'ed array; more than SMBIOS_MEMDEVS_MAX are told and left out.
 * Returns 0 or -ENOMEM.
 */
int smbios_memdevs_read(const char *dir, struct smbios_memdev **ret, size_t *ret_n,
			dimm_slots_problem_fn problem, void *userdata);

/* The override files of dir into s.  Returns 0 or -ENOMEM. */
int dimm_slots_read_dir(struct dimm_slots *s, const char *dir, dimm_slots_problem_fn problem, void *userdata);
