/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * mcectl dimms --rebuild: the module ledger built again from mcelogd's record
 * entries in a journal (this machine's, or a collector's journal-remote
 * files), through the daemon's own code (rules/module-feed.h), so that a
 * fleet that starts keeping the ledger gets its history at once.
 * mcectl(1), dimms, REBUILDING THE LEDGER.
 *
 * Only entries mcelogd wrote are read (_COMM and _UID, which journald sets
 * and no client can forge); every other field is input: a field that cannot
 * be read is named with its entry and the entry left out.  One machine at a
 * time (_MACHINE_ID): a journal of several is refused unless one is chosen.
 */

#include <stdbool.h>

#include "module-ledger.h"

#define DIMMS_REBUILD_FILES_MAX 64

struct dimms_rebuild_args {
	const char *directory;                          /* --directory */
	const char *files[DIMMS_REBUILD_FILES_MAX + 1]; /* --file, NULL-terminated */
	unsigned n_files;
	const char *machine;                            /* --machine: a machine id or a host name */
	const char *dmi_dir;                            /* --dmi-dir: that machine's SMBIOS entries */
	const char *slots_dir;                          /* --slots-dir: that machine's slot overrides */
	const char *config;                             /* --config: the [Modules] thresholds */
	bool config_explicit;
	bool include_replayed;                          /* --include-replayed */
};

/*
 * Fills l (initialised here, with the configuration's thresholds).  Returns
 * 0, or the exit status (1 failed, 2 a usage error) after saying why.
 */
int dimms_rebuild(const struct dimms_rebuild_args *a, struct module_ledger *l);
