/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The health ledger of each memory module (issue 37): which DIMM or CXL
 * memory device to replace, and when.  Pure: no I/O, no clock; the daemon
 * (mcelogd/module-stage.c) feeds it and keeps it in modules.state
 * (rules/module-state.h), mcectl reads that file.
 *
 * A module is known by what names it for life, not by where it sits:
 *   dimm  its SMBIOS type-17 serial and part number (lib/smbios-memdev.h);
 *         the slot (Locator, or an override: lib/dimm-slots.h) is where it
 *         was last seen, so a module moved to another slot keeps its
 *         history, and another module in the slot (another serial) starts
 *         a fresh entry while the old one stays under its own serial;
 *   cxl   the memory device's serial number (its PCIe Device Serial Number),
 *         the memdev name ("mem0") its slot.
 * Where the firmware gives no serial (blank, or a placeholder such as "Not
 * Specified", "Unknown", "00000000"; QEMU's CXL devices say 0), the key
 * falls back to the place: this machine's id (/etc/machine-id) and the slot
 * (the SMBIOS Locator with its part number, else the EDAC label, else the
 * memory controller's coordinates socket/mc/channel/dimm, else the memdev
 * name).  Such an entry is marked fallback.  It is safe because it cannot
 * merge two machines' modules (a cloned disk or a moved state file has
 * another machine id and starts fresh) nor two slots; what it cannot tell is
 * a module swapped in the same slot for one of the same part number, which
 * is documented (mcectl dimms --forget is the remedy) and is no worse than
 * counting by slot, the best the firmware allows.
 *
 * Bounds (stated in mcelogd(8), MODULE LEDGER, and measured by
 * bench/ledger-cost.sh): MODULE_LEDGER_MAX entries (8 sockets x 24 DIMMs,
 * 1,000 CXL devices, and room for replaced modules), each of fixed size:
 * the fault pattern keeps at most MODULE_CELLS_MAX distinct cells,
 * MODULE_ROWS_MAX rows, MODULE_COLUMNS_MAX columns and MODULE_BANKS_MAX
 * banks (beyond that it counts that there were more), ranks as a bit set.
 * A ledger that is full takes no new module and counts what it refused.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dram-pattern.h"

enum module_kind {
	MODULE_DIMM,
	MODULE_CXL,
	_MODULE_KIND_MAX,
	_MODULE_KIND_INVALID = -1,
};

/* Worst last: a verdict only ever compares by this order. */
enum module_verdict {
	MODULE_OK,
	MODULE_WATCH,             /* corrected errors: more are likely (Schroeder et al. 2009) */
	MODULE_ISOLATING,         /* pages or rows retired: the faulty memory is kept out of use */
	MODULE_REPAIR_EXHAUSTED,  /* no spare left, or repairs failed or hit their limit */
	MODULE_REPLACE,           /* uncorrected errors, a corrected-error storm, or a multi-bank fault */
	_MODULE_VERDICT_MAX,
	_MODULE_VERDICT_INVALID = -1,
};

enum module_severity {
	MODULE_CORRECTED,
	MODULE_UNCORRECTED,       /* uncorrected, deferred or fatal: the data was lost or poisoned */
};

enum module_repair {
	MODULE_REPAIR_DONE,
	MODULE_REPAIR_REFUSED,
	MODULE_REPAIR_FAILED,
	_MODULE_REPAIR_MAX,
};

#define MODULE_LEDGER_MAX   2048
#define MODULE_NAME_MAX     65      /* SMBIOS_NAME_MAX + 1 */
#define MODULE_SLOT_MAX     130     /* DIMM_SLOT_MAX + 1 */
#define MODULE_KEY_MAX      192
#define MODULE_REASON_MAX   128
#define MODULE_ERROR_MAX    96
#define MODULE_CELLS_MAX    32
#define MODULE_ROWS_MAX     32
#define MODULE_COLUMNS_MAX  16
#define MODULE_BANKS_MAX    32
/* The largest threshold [Modules] takes: above it, a typo. */
#define MODULE_THRESHOLD_MAX 1000000
#define MODULE_WEEK_USEC    (7 * 24 * 3600 * UINT64_C(1000000))

/* What names a module: made by module_id_dimm() and module_id_cxl(). */
struct module_id {
	enum module_kind kind;
	bool fallback;                    /* no serial: keyed by machine and place */
	char serial[MODULE_NAME_MAX];     /* DIMM: SMBIOS serial; CXL: "0x..."; "" with fallback */
	char part[MODULE_NAME_MAX];       /* DIMM: SMBIOS part number, "" unknown */
	char slot[MODULE_SLOT_MAX];       /* where it was last seen: Locator, label, coordinates, memdev */
	char key[MODULE_KEY_MAX];         /* what the ledger looks it up by */
};

/*
 * A DIMM: serial and part from its slot's SMBIOS structure (NULL or
 * placeholder: none), slot its Locator or, lacking one, the EDAC label or
 * coordinates; machine_id for the fallback.  -EINVAL when slot is empty
 * (nothing names the module).
 */
int module_id_dimm(const char *serial, const char *part, const char *slot, const char *machine_id,
		   struct module_id *ret);
/* A CXL memory device: its serial (0: none), its memdev name. */
int module_id_cxl(uint64_t serial, const char *memdev, const char *machine_id, struct module_id *ret);
/* True for a serial that names no module: blank, "Not Specified", "Unknown", all zeros, ... */
bool module_serial_is_placeholder(const char *serial);

/* One error's place in the DRAM, as far as the record gives it. */
struct module_error {
	enum module_severity severity;
	int64_t time_usec;                /* CLOCK_REALTIME; 0 unknown */
	bool have_cell;                   /* bank (group << 8 | bank), row, column */
	struct dram_cell cell;
	bool have_rank;
	uint32_t rank;
	bool have_address;
	uint64_t address;                 /* physical, or the CXL DPA */
};

struct module_row {
	uint32_t bank, row;
	uint32_t corrected;
};

struct module_pattern {
	struct dram_tracker tracker;      /* the class (dram-pattern.h) */
	struct dram_cell cells[MODULE_CELLS_MAX];
	struct module_row rows[MODULE_ROWS_MAX];
	struct { uint32_t bank, column; } columns[MODULE_COLUMNS_MAX];
	uint32_t banks[MODULE_BANKS_MAX];
	uint8_t n_cells, n_rows, n_columns, n_banks;
	bool more_cells, more_rows, more_columns, more_banks;
	uint32_t ranks;                   /* bit n: rank n (n < 32) had an error */
};

struct module_entry {
	struct module_id id;
	uint64_t corrected, uncorrected;
	/* The corrected errors of the 7 days from week_start_usec (a tumbling window). */
	int64_t week_start_usec;
	uint64_t week_corrected;
	struct module_pattern pattern;
	/* The last uncorrected error's row, and its corrected errors before it. */
	bool ue_on_row;
	uint32_t ue_bank, ue_row, ue_row_corrected;
	uint32_t pages_retired, rows_retired;
	uint32_t repairs[_MODULE_REPAIR_MAX];
	bool repair_limit_reached;        /* a repair refused for a per-device or per-day limit */
	int64_t spares_left;              /* CXL: spare resources the device says it has; -1 unknown */
	int64_t first_usec, last_usec;    /* first and latest error */
	char last_error[MODULE_ERROR_MAX];/* "uncorrected bank 3 row 0x4d2 column 0x10" */
	enum module_verdict verdict;
	char reason[MODULE_REASON_MAX];
};

/*
 * The verdict's thresholds, [Modules] in mcelogd.conf(5); the defaults and
 * the field studies they come from are in mcelogd.conf(5), MODULES.
 */
struct module_thresholds {
	unsigned watch_corrected;          /* WatchCorrected=: corrected errors for watch (0: never) */
	unsigned replace_uncorrected;      /* ReplaceUncorrected= (0: never) */
	unsigned replace_corrected_week;   /* ReplaceCorrectedPerWeek= (0: never) */
	unsigned replace_banks;            /* ReplaceBanks=: distinct banks with errors (0: never) */
	unsigned isolating_pages;          /* IsolatingPages=: pages or rows retired (0: never) */
	unsigned exhausted_failed;         /* RepairExhaustedFailures=: failed repairs (0: never) */
};

#define MODULE_THRESHOLDS_DEFAULT ((struct module_thresholds) { \
	.watch_corrected = 1, .replace_uncorrected = 1, .replace_corrected_week = 100, \
	.replace_banks = 3, .isolating_pages = 1, .exhausted_failed = 1, })

struct module_ledger {
	struct module_entry *e;
	size_t n, cap;
	uint32_t *index;                  /* open addressing over e by key hash; 0 empty, else i + 1 */
	size_t index_size;
	uint64_t n_refused;               /* events for modules past MODULE_LEDGER_MAX */
	struct module_thresholds thresholds;
};

/* What a change of verdict says (the journal's MCE_MODULE_* fields). */
struct module_change {
	const struct module_entry *module;
	enum module_verdict from, to;
};

void module_ledger_init(struct module_ledger *l, const struct module_thresholds *t);
void module_ledger_done(struct module_ledger *l);

/* The entry of id, made (empty, verdict ok) when new; NULL when full or out of memory. */
struct module_entry *module_ledger_get(struct module_ledger *l, const struct module_id *id);
const struct module_entry *module_ledger_find(const struct module_ledger *l, const char *key);

/*
 * The events.  Each updates the entry (and its slot: where it was seen) and
 * its verdict; returns 1 and fills *ret when the verdict changed, 0 when not,
 * -ENOSPC (full, counted) or -ENOMEM.
 */
int module_ledger_error(struct module_ledger *l, const struct module_id *id, const struct module_error *err,
			struct module_change *ret);
int module_ledger_retired(struct module_ledger *l, const struct module_id *id, unsigned pages, unsigned rows,
			  struct module_change *ret);
int module_ledger_repair(struct module_ledger *l, const struct module_id *id, enum module_repair outcome,
			 bool limit_reached, struct module_change *ret);
int module_ledger_spares(struct module_ledger *l, const struct module_id *id, uint64_t spares_left,
			 struct module_change *ret);

/* The thresholds changed (a reload): every verdict anew; calls changed() for each that moved. */
void module_ledger_set_thresholds(struct module_ledger *l, const struct module_thresholds *t,
				  void (*changed)(const struct module_change *c, void *userdata), void *userdata);

/* The verdict of m under t, and its reason in words (reason_size bytes).  Pure. */
enum module_verdict module_verdict_of(const struct module_entry *m, const struct module_thresholds *t,
				      char *reason, size_t reason_size);

/* The entries worst first (verdict, then uncorrected, then corrected), as indexes into l->e. */
void module_ledger_order(const struct module_ledger *l, uint32_t *ret);

const char *module_kind_to_string(enum module_kind k);
enum module_kind module_kind_from_string(const char *s);
const char *module_verdict_to_string(enum module_verdict v);
enum module_verdict module_verdict_from_string(const char *s);
const char *module_repair_to_string(enum module_repair r);

/* "single-row, 3 rows, 2 columns, 1 bank, ranks 0,1": the pattern in short. */
void module_pattern_describe(const struct module_pattern *p, char *buf, size_t size);
/* Cells, rows, columns, banks and ranks seen, with "more" counted as one past the bound. */
unsigned module_pattern_ranks(const struct module_pattern *p);

/* Adds one error's place to p (shared with the state's parser, which replays cells). */
void module_pattern_add(struct module_pattern *p, const struct dram_cell *c, enum module_severity sev);
