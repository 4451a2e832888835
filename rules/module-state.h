/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The ledger's file, /var/lib/mcelogd/modules.state (module-ledger.h).
 * Pure: text in, text out; the daemon writes it atomically off the record
 * path (mcelogd/module-stage.c), mcectl reads it.
 *
 * Format, version 1: a first line "mcelogd-modules 1", then per module one
 * "module" line of key=value items, followed by its pattern's lines:
 *
 *   module key=dimm|serial=1A2B|part=M393 kind=dimm fallback=0 serial=1A2B
 *          part=M393 slot=P1-DIMMA1 corrected=12 uncorrected=1 ...
 *   cell BANK ROW COLUMN
 *   row BANK ROW CORRECTED
 *   column BANK COLUMN
 *   bank BANK
 *
 * Values are percent-escaped (space, '%', '=' and control characters), so
 * slots and serials with blanks survive.  A line that cannot be read is told
 * to problem() with its number and skipped, and so is the rest of its module
 * when it is a module line: one damaged module never loses the others.  A
 * version that is not 1 is one problem, and nothing is read.
 */

#include <stddef.h>

#include "module-ledger.h"

#define MODULE_STATE_FILE "modules.state"
#define MODULE_STATE_VERSION 1
/* The file's bound: 2048 modules at most, each at most ~6 KiB of text. */
#define MODULE_STATE_MAX (16u << 20)

/* The ledger as text, *ret malloc'ed (NUL-terminated).  Returns the length or -ENOMEM. */
int module_state_format(const struct module_ledger *l, char **ret);

typedef void (*module_state_problem_fn)(unsigned line, const char *what, void *userdata);

/*
 * Adds the modules of text[0..len) to l (empty before).  Returns the number
 * of problems (each told to problem), or -ENOMEM.  Verdicts are as saved:
 * module_ledger_set_thresholds() settles them under the thresholds now.
 */
int module_state_parse(const char *text, size_t len, struct module_ledger *l, module_state_problem_fn problem,
		       void *userdata);
