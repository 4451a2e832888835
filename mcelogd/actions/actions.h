/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * What the daemon does when a rule fires (mcelogd.rules(5), ACTIONS), one
 * file each: alert.c renders an alert for every sink; page-offline.c asks
 * the kernel to take a page out of use; repair-memory.c asks a memory device
 * to repair a location (rules/mem-repair.h plans it).  The rules stage (rules-stage.c)
 * calls them in the rule's order.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem-repair.h"

struct json_writer;
struct module_change;
struct rule_input;

/* An alert, as the sinks see it (SINK_ENTRY_ALERT). */
struct rule_alert {
	const char *rule;
	const char *key;             /* "" for a rule without Key= */
	unsigned count;              /* N of "N in T" */
	uint64_t window_usec;        /* T; 0: every record */
	int64_t first_usec;          /* CLOCK_REALTIME of the first of the N records */
	int64_t time_usec;           /* of the record that tripped it */
	int priority;                /* syslog level, from the rule */
	const char *actions;         /* "alert soft-offline" */
	const char *failed_action;   /* NULL, or the action whose failure this alert reports */
	const char *message;         /* the journal's MESSAGE */
	const struct rule_input *input;   /* the record that tripped it */
	/* Set for the report of a memory repair (Action=repair): its own MESSAGE_ID and fields. */
	const struct mem_repair_report *repair;
	/* Set for a module's change of verdict (mcelogd(8), MODULE LEDGER): its own MESSAGE_ID and fields. */
	const struct module_change *module;
};

struct mem_repair_report {
	enum mem_repair_outcome outcome;
	const struct mem_repair_plan *plan;
	const char *memdev;
	const char *failed_attr;     /* FAILED: the attribute whose write the kernel refused */
	int error;                   /* FAILED: its negative errno */
	bool counted;                /* FAILED: counts against the limits (the device may have acted) */
	const char *dpa_flags;       /* the record's DPA flags, "" none */
};

/* "repair": {outcome, memdev, device, instance, type, persist_mode, location, unit, refused,
 * reason, writes, failed_attribute, error, errno, counted, dpa_flags}, inside an alert's object. */
void mem_repair_write_json(const struct mem_repair_report *rep, struct json_writer *w);

/* The alert's JSON object ({"event":"alert",...}) into w, which is reset first. */
void alert_write_json(const struct rule_alert *a, const char *hostname, const char *boot_id,
		      struct json_writer *w);

/*
 * Asks the kernel to offline the 4 KiB page at pfn: writes its physical
 * address to DIR/soft_offline_page or DIR/hard_offline_page, DIR being
 * sysfs_memory (NULL: /sys/devices/system/memory).  Returns 0 or the
 * negative errno the kernel gave (EBUSY, EIO: the page could not be taken).
 */
int page_offline(const char *sysfs_memory, uint64_t pfn, bool hard);

/*
 * Asks the kernel to take CPU cpu offline: writes 0 to DIR/cpuN/online, DIR
 * being sysfs_cpu (NULL: /sys/devices/system/cpu).  Never the last online
 * CPU (-EBUSY), never one without an online file, which the kernel does not
 * let go offline (-EOPNOTSUPP); a CPU already offline is -EALREADY.  Returns
 * 0 or negative errno.
 */
int cpu_offline(const char *sysfs_cpu, unsigned cpu);

/*
 * The memory repair features of EDAC device `device` ("cxl_mem0") under
 * devices_dir (NULL: /sys/bus/edac/devices): each mem_repairN's type,
 * persist mode, safety in use, DPA range and control files, by instance; at
 * most max.  Returns how many (0: the device or the feature is absent).
 */
size_t mem_repair_offers_read(const char *devices_dir, const char *device, struct mem_repair_offer *ret,
			      size_t max);

struct mem_repair_result {
	unsigned failed;             /* the write that failed, or whose value read back differs */
	char read_back[32];          /* -ESTALE: what that attribute read */
};

/*
 * Makes plan p's writes in order under devices_dir (NULL: /sys/bus/edac/
 * devices), reads every attribute back before the last write (repair=1) and
 * makes that only if each holds what was written: the files are shared, and
 * another writer between two writes would make a repair of a mixed location.
 * Returns 0; the negative errno of the first write the kernel refused,
 * nothing after it written; or -ESTALE for an attribute that read back
 * otherwise (or could not be read), repair not written.  ret->failed is the
 * index of that write.
 */
int mem_repair_execute(const char *devices_dir, const struct mem_repair_plan *p, struct mem_repair_result *ret);

/*
 * Triggers: programs a rule runs (Trigger=), without a shell.  The alert's
 * fields and the tripping record's are in the environment (MCELOGD_RULE,
 * MCELOGD_KEY, ..., MCE_CPU, MCE_PAGE, ...), the alert as JSON on standard
 * input.  At most TRIGGER_MAX_RUNNING run at once; more wait in a queue of
 * TRIGGER_MAX_QUEUED, and a trigger that finds the queue full is logged as
 * not run, never dropped silently.  One that runs past its TriggerTimeout=
 * is killed.  Each one's output lines, exit status or signal are logged.
 *
 * With the daemon's event loop the runs proceed while records keep being
 * captured; without one (--replay) the runner makes its own, and
 * trigger_runner_free() waits for every run.
 */
#define TRIGGER_MAX_RUNNING 4
#define TRIGGER_MAX_QUEUED  64
#define TRIGGER_OUTPUT_MAX  (64u << 10)   /* bytes of output logged per run */

struct rule;
struct trigger_runner;
typedef struct sd_event sd_event;

/* event NULL: a private loop, run by trigger_runner_free(). */
int trigger_runner_new(sd_event *event, struct trigger_runner **ret);
/* Waits for the runs in progress and the queued ones (each bounded by its timeout), then frees. */
struct trigger_runner *trigger_runner_free(struct trigger_runner *t);

/*
 * Starts r's Trigger= for alert a (or queues it).  alert_json goes to its
 * standard input.  Returns 0, -ENOSPC when the queue is full (logged), or
 * another negative errno (logged).
 */
int trigger_submit(struct trigger_runner *t, const struct rule *r, const struct rule_alert *a,
		   const char *alert_json);
