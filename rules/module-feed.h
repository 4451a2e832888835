/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * One record into the module ledger (module-ledger.h): the daemon counts its
 * records through this (mcelogd/rules-stage.c), and `mcectl dimms --rebuild`
 * counts the journal's records again through it, so that a rebuilt ledger
 * and the live one agree on the same records.  Pure: the machine's SMBIOS
 * structures and id come in (struct module_host).
 *
 * A record gives its module's error, or a CXL device's spares left
 * (module-record.h).  A memory error reported twice (a machine check and its
 * EDAC copy, one error id: error-pair.h) is counted once; when the machine
 * check came first and named its DIMM by coordinates only, the EDAC copy's
 * module (its slot and serial) takes the error over.  The errors counted last
 * are remembered by error id for that, as many as error-pair keeps.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "module-ledger.h"
#include "module-record.h"

struct rule_input;
struct smbios_memdev;

#define MODULE_RECENT 64

struct module_recent {
	uint64_t error_id;           /* 0: unused */
	bool from_mce;
	enum module_severity severity;
	char key[MODULE_KEY_MAX];
};

struct module_feed {
	struct module_recent recent[MODULE_RECENT];
	unsigned next;
};

typedef void (*module_changed_fn)(const struct module_change *c, void *userdata);

/*
 * The record in (time_usec: its time, CLOCK_REALTIME; paired: in is the
 * second copy of its error, error_pair_input() said so) into l.  changed()
 * is called for each verdict that moved (a take-over can move two).
 * Returns 1 when the ledger changed, 0 when the record tells it nothing,
 * -ENOSPC (the ledger is full: counted) or -ENOMEM.
 */
int module_feed_record(struct module_ledger *l, struct module_feed *f, const struct module_host *h,
		       const struct rule_input *in, int64_t time_usec, bool paired, module_changed_fn changed,
		       void *userdata);
