/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The daemon side of the rules (mcelogd.rules(5)): loading the rule files
 * from the drop-in directories, running every record through the engine
 * (rules/rule-engine.h) before storm suppression, so that rules see every
 * record, doing the actions of each firing (mcelogd/actions/), and keeping
 * the state (/var/lib/mcelogd/rules.state) across restarts.
 *
 * What changes is appended to the state's journal (rules.state.journal,
 * rule-state.h), never rewritten whole on the record path: the counts, rows
 * and alerts of the last second at most once a second while anything
 * changes (rules-save.h), synced, so that a crash loses at most that
 * second; an offlining's intent at once, synced before its sysfs write.
 * The state file itself is written whole (temporary file, fsync, rename)
 * when the journal outgrows it (JOURNAL_RATIO times its size, and at least
 * JOURNAL_MIN), at start if a journal was there, at stop, and for what a
 * journal line cannot say (a repair, a page forgotten or held, a reload):
 * an error storm costs a bounded number of bytes per record, not the whole
 * state every second.  At start the journal is applied over the state.  A
 * damaged state is logged, renamed aside (rules.state.damaged) and the
 * daemon starts counting afresh: never fatal; a damaged journal line is
 * logged with file and line, the lines before it kept, and the journal
 * copied aside (rules.state.journal.damaged).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dram-watch.h"
#include "error-pair.h"
#include "json-writer.h"
#include "mem-repair.h"
#include "module-stage.h"
#include "rule-engine.h"
#include "rule-state.h"
#include "rule.h"
#include "rules-save.h"
#include "slot-names.h"

struct ras_record;
struct sink_entry;
struct trigger_runner;
typedef struct sd_event sd_event;

#define RULES_MAX_DIRS 4
#define RULES_STATE_FILE "rules.state"

struct rules_stage {
	/* Set by the manager before setup. */
	int (*emit)(void *core, const struct sink_entry *e);
	/* An offlining was done or failed (sink.h, action).  Optional. */
	void (*acted)(void *core, const char *action, bool done);
	void *core;
	const char *hostname;
	const char *boot_id;
	const char *machine_id;      /* /etc/machine-id, bound to each offlined page; NULL unknown */
	sd_event *event;             /* NULL when replaying: triggers then run on their own loop */
	/* Offline pages, CPUs: live, or in a test that points --sysfs-memory/--sysfs-cpu elsewhere. */
	bool act_pages, act_cpus;
	bool run_triggers;           /* live, or --replay --run-triggers */
	const char *sysfs_memory;    /* NULL: /sys/devices/system/memory */
	const char *sysfs_cxl;       /* NULL: /sys/bus/cxl/devices (the memdevs' serials, at start) */
	/* The kernel's memory-failure controls and counters (memory-failure.h): read live, or in a
	 * test that points --procfs/--sysfs-node at stand-ins; a replay otherwise assumes none. */
	bool read_memory_failure;
	const char *procfs;          /* NULL: /proc */
	const char *sysfs_node;      /* NULL: /sys/devices/system/node */
	bool offline_again_at_boot;  /* [Memory] OfflineAgainAtBoot= */
	const char *sysfs_cpu;       /* NULL: /sys/devices/system/cpu */
	/* Memory repair (Action=repair): asked of the devices live, or in a test that points
	 * --sysfs-edac at a stand-in; [Memory] Repair=, RepairPersist=, RepairsPerDevice=,
	 * RepairsPerDay=. */
	bool act_repairs;
	const char *sysfs_edac;      /* NULL: /sys/bus/edac/devices */
	struct mem_repair_limits repair_limits;
	/* Name the board slot of memory records (slot-names.h): live, or a replay given the paths. */
	bool read_slots;
	const char *dmi_dir;         /* NULL: /sys/firmware/dmi/entries */
	const char *slots_dir;       /* NULL: /etc/mcelogd/slots.d */

	struct rule_set set;
	struct rule_engine *engine;
	struct rule_state state;     /* pages and alerts; buckets captured when saved */
	char *state_path;            /* NULL: nothing is persisted (replay) */
	char *journal_path;          /* state_path's journal (rule-state.h): changes between writes */
	int journal_fd;              /* open for appending while journal_open */
	bool journal_open;
	uint64_t journal_bytes;      /* in the journal now */
	uint64_t state_bytes;        /* of the state file as last written or read */
	bool save_whole;             /* a change no journal line says: the next write is whole */
	struct rules_save save;      /* when counts are written between firings */
	struct json_writer json;
	struct trigger_runner *triggers;   /* made at the first trigger */
	struct dram_watch dram;      /* DRAM fault patterns per DIMM (this run only) */
	struct error_pair pairs;     /* a memory error's machine check and its EDAC copy */
	struct slot_names slots;     /* SMBIOS and override slot names, read at setup and reload */
	/* The health ledger per memory module (module-stage.h), in state_directory/modules.state;
	 * module_thresholds: [Modules] of mcelogd.conf, set before setup. */
	struct module_thresholds module_thresholds;
	struct module_stage modules;
	bool module_full_logged;     /* the ledger's bound was reached: said once per run */
	uint64_t n_alerts;
	uint64_t n_actions_failed;
	uint64_t n_offlined_again;   /* known-bad pages of earlier boots offlined at start */
	uint64_t n_offline_refused;  /* offlinings the kernel refused or forbade */
	uint64_t n_hard_refused;     /* hard offlines refused or done soft instead (page-action.h) */
	uint64_t n_pages_held;       /* known-bad pages not offlined at start: their memory changed */
	uint64_t n_retried_offlined; /* held pages offlined later in this boot, when their memory came online */
	uint64_t n_pages_salvaged;   /* known-bad pages read from a damaged state: never offlined again */
	uint64_t n_repairs[_MEM_REPAIR_OUTCOME_MAX];   /* this run's repair reports, by outcome */
	/* Reasons (1u << enum rule_no_dimm) already logged for records no row could count. */
	unsigned no_dimm_logged;
	uint64_t n_repair_refusals[_MEM_REPAIR_REFUSAL_MAX];   /* of the refused, by reason */
	/* The record being run, for a row's page offlined at once (row-pages.h). */
	const struct rule_input *record;
	int64_t record_time_usec;
	bool row_page_acted;
};

/*
 * Loads the rule files of dirs[0..n) (highest priority first) into *ret,
 * which is left empty on failure.  Returns 0, or -EINVAL when any file has
 * errors (each logged), or another negative errno (logged).
 */
int rules_load(const char *const *dirs, size_t n, struct rule_set *ret);

/*
 * Loads the rules and, with state_directory, the state.  Bad rule files are
 * an error (the daemon does not start with rules it cannot read); a damaged
 * state file is not.  Returns 0 or negative errno (logged).
 */
int rules_stage_setup(struct rules_stage *st, const char *const *dirs, size_t n_dirs,
		      const char *state_directory);

/*
 * SIGHUP: loads the rules anew; on any error keeps the running rules and
 * their counts.  Counts of rules whose name, Match=, Key= and Threshold= are
 * unchanged carry over.  Returns 0 or negative errno (logged).
 */
int rules_stage_reload(struct rules_stage *st, const char *const *dirs, size_t n_dirs);

/*
 * One record at time_usec (CLOCK_REALTIME): the rules, and the actions of what
 * fires.  A memory error (a machine check of a memory bank, an EDAC event) is
 * given an error id first, shared with its other copy (rules/error-pair.h),
 * and the rules count the error once.  Returns that id for the record's
 * entry, 0 for other records.
 */
uint64_t rules_stage_record(struct rules_stage *st, const struct rule_input *in, int64_t time_usec);

/*
 * An operator's forget of a known-bad page (mcectl pages --forget): dropped
 * from the state, which is saved at once, and said in an alert entry of its
 * own (rule "page-forgotten") naming who asked.  The kernel is not asked to
 * put the page back: it stays offline until the next boot, and is not
 * offlined again.  0, -ENOENT (no such page), or the save's error.
 */
int rules_stage_forget_page(struct rules_stage *st, uint64_t pfn, unsigned uid, int pid);

/*
 * Adds the board slot a memory record names to it (before the rules see it,
 * so that alerts name it too), with read_slots.
 */
void rules_stage_name_slot(struct rules_stage *st, struct ras_record *rec);

/*
 * At start, once the sinks are open: the kernel forgets offlined pages at a
 * reboot, so the pages offlined in earlier boots are offlined again (with
 * offline_again_at_boot), each refusal an alert.  Returns how many were.
 */
unsigned rules_stage_offline_again(struct rules_stage *st);

/*
 * Memory came online in this boot (mcelogd/memory-online.h; cause says
 * how, for the log): the pages held at start for memory that was not there
 * (rules/page-hold.h) are looked at again, and those whose memory is now
 * the memory that erred are offlined again as at start (soft only, the
 * same refusals), each intent synced to the journal before its write.
 * Pages held for other memory stay held.  Returns how many were offlined.
 */
unsigned rules_stage_retry_held(struct rules_stage *st, const char *cause);

/* What the kernel says of memory failures now (memory-failure.h), for status and metrics. */
struct memory_failure_view;
void rules_stage_memory_failure(const struct rules_stage *st, struct memory_failure_view *ret);

/* The "memory" object of `mcectl status` (mcectl(1), STATUS FORMAT). */
void rules_stage_write_memory_status(const struct rules_stage *st, struct json_writer *w);

/*
 * The verdicts under st->module_thresholds (at start once the sinks are
 * open, and after a reload changed [Modules]): each module whose verdict
 * moves gets its verdict-change entry.  Returns how many moved.
 */
unsigned rules_stage_settle_modules(struct rules_stage *st);

/* The "modules" object of `mcectl status`: modules by verdict, and the worst. */
void rules_stage_write_module_status(const struct rules_stage *st, struct json_writer *w);

/* Writes the state file whole now, emptying the journal.  Returns 0 or negative errno (logged). */
int rules_stage_save(struct rules_stage *st);
/*
 * Appends what changed since the last write to the journal, synced; the
 * state is written whole instead when the journal has outgrown it or a
 * change needs it.  Returns 0 or negative errno (logged).
 */
int rules_stage_flush(struct rules_stage *st);

/* Saves the state and frees everything but the module ledger, which the metrics' last writing
 * reads: module_stage_done(&st->modules) frees it once the sinks are closed. */
void rules_stage_done(struct rules_stage *st);
