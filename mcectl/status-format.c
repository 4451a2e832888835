/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <json-c/json.h>
#include <stdint.h>
#include <string.h>

#include "macro.h"
#include "rfc3339.h"
#include "status-format.h"

static const char *get_str(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static int get_u64(json_object *o, const char *key, uint64_t *ret)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return -ENOENT;
	*ret = (uint64_t) json_object_get_int64(v);
	return 0;
}

static void format_span(uint64_t sec, char *buf, size_t size)
{
	if (sec >= 86400)
		snprintf(buf, size, "%llud %lluh", (unsigned long long) (sec / 86400),
			 (unsigned long long) (sec % 86400 / 3600));
	else if (sec >= 3600)
		snprintf(buf, size, "%lluh %llumin", (unsigned long long) (sec / 3600),
			 (unsigned long long) (sec % 3600 / 60));
	else if (sec >= 60)
		snprintf(buf, size, "%llumin %llus", (unsigned long long) (sec / 60),
			 (unsigned long long) (sec % 60));
	else
		snprintf(buf, size, "%llus", (unsigned long long) sec);
}

/* "2026-11-21T01:04:24.717083Z (3min 2s ago)", or the text as sent if it does not parse. */
static void format_when(const char *t, long long now_usec, char *buf, size_t size)
{
	int64_t usec;
	char ago[32];

	if (parse_rfc3339_usec(t, &usec) < 0 || usec > now_usec) {
		snprintf(buf, size, "%s", t);
		return;
	}
	format_span((uint64_t) (now_usec - usec) / 1000000, ago, sizeof(ago));
	snprintf(buf, size, "%s (%s ago)", t, ago);
}

static void format_sources(json_object *sources, FILE *out)
{
	size_t n = json_object_array_length(sources);

	fprintf(out, "\n%-26s %-12s %10s %8s  %s\n", "SOURCE", "STATE", "RECORDS", "LOST", "DETAIL");
	for (size_t i = 0; i < n; i++) {
		json_object *s = json_object_array_get_idx(sources, i);
		const char *name = get_str(s, "name"), *state = get_str(s, "state");
		const char *reason = get_str(s, "reason");
		uint64_t records = 0, lost = 0;

		if (!name || !state)
			continue;
		(void) get_u64(s, "records", &records);
		(void) get_u64(s, "lost", &lost);
		fprintf(out, "%-26s %-12s %10llu %8llu%s%s\n", name, state,
			(unsigned long long) records, (unsigned long long) lost, reason ? "  " : "",
			reason ? reason : "");
	}
}

/* A storm table's line of totals; its list of storms in progress, or NULL when empty. */
static json_object *storms_heading(json_object *storms, const char *title, FILE *out)
{
	json_object *list;
	uint64_t active = 0, suppressed = 0, started = 0;

	(void) get_u64(storms, "active", &active);
	(void) get_u64(storms, "suppressed", &suppressed);
	(void) get_u64(storms, "started", &started);
	fprintf(out, "\n%s: %llu in progress, %llu since start; %llu records counted in "
		"summaries instead of logged one by one\n", title, (unsigned long long) active,
		(unsigned long long) started, (unsigned long long) suppressed);
	if (!json_object_object_get_ex(storms, "list", &list) ||
	    !json_object_is_type(list, json_type_array) || json_object_array_length(list) == 0)
		return NULL;
	return list;
}

static void format_storms(json_object *storms, FILE *out)
{
	json_object *list = storms_heading(storms, "Storms", out);

	if (!list)
		return;
	fprintf(out, "%-6s %-5s %-12s %12s  %s\n", "CPU", "BANK", "CODE", "SUPPRESSED", "SINCE");
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *s = json_object_array_get_idx(list, i);
		const char *code = get_str(s, "code"), *since = get_str(s, "start");
		uint64_t cpu, bank = 0, n = 0;
		char cpu_s[16] = "any";

		if (get_u64(s, "cpu", &cpu) == 0)
			snprintf(cpu_s, sizeof(cpu_s), "%llu", (unsigned long long) cpu);
		(void) get_u64(s, "bank", &bank);
		(void) get_u64(s, "suppressed", &n);
		fprintf(out, "%-6s %-5llu %-12s %12llu  %s\n", cpu_s, (unsigned long long) bank,
			code ? code : "?", (unsigned long long) n, since ? since : "");
	}
}

/* Storms of ras records: named by kind and signature, which can be long, so it comes last. */
static void format_ras_storms(json_object *storms, FILE *out)
{
	json_object *list = storms_heading(storms, "Ras storms", out);

	if (!list)
		return;
	fprintf(out, "%-18s %12s  %-27s  %s\n", "KIND", "SUPPRESSED", "SINCE", "SIGNATURE");
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *s = json_object_array_get_idx(list, i);
		const char *kind = get_str(s, "ras_event"), *sig = get_str(s, "signature");
		const char *since = get_str(s, "start");
		uint64_t n = 0;

		(void) get_u64(s, "suppressed", &n);
		fprintf(out, "%-18s %12llu  %-27s  %s\n", kind ? kind : "?", (unsigned long long) n,
			since ? since : "", sig ? sig : "?");
	}
}

/* A sink's spool, when something waits in it: an operator must see records that journald has not. */
static void format_spools(json_object *sinks, FILE *out)
{
	size_t n = json_object_array_length(sinks);

	for (size_t i = 0; i < n; i++) {
		json_object *k = json_object_array_get_idx(sinks, i), *spool;
		uint64_t entries = 0, refused = 0;
		const char *path, *err;

		if (!json_object_object_get_ex(k, "spool", &spool) ||
		    !json_object_is_type(spool, json_type_object))
			continue;
		(void) get_u64(spool, "entries", &entries);
		(void) get_u64(spool, "refused", &refused);
		if (entries == 0 && refused == 0)
			continue;
		path = get_str(spool, "path");
		err = get_str(spool, "last_error");
		fprintf(out, "Spool (%s): %llu entr%s wait for it in %s%s%s%s",
			get_str(k, "name") ? get_str(k, "name") : "?", (unsigned long long) entries,
			entries == 1 ? "y" : "ies", path ? path : "?", err ? " (last refusal: " : "",
			err ? err : "", err ? ")" : "");
		if (refused)
			fprintf(out, "; %llu corrected record(s) refused with the spool full (counted in its summaries)",
				(unsigned long long) refused);
		fputc('\n', out);
	}
}

/* The names of an object's keys, comma-separated: the events a snapshot lacks. */
static void key_names(json_object *o, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	json_object_object_foreach(o, key, value) {
		(void) value;
		int k = snprintf(buf + n, size - n, "%s%s", n ? ", " : "", key);
		if (k < 0 || (size_t) k >= size - n)
			break;
		n += (size_t) k;
	}
}

/* One line: what the CPU count costs in descriptors, against the limit. */
static void format_descriptors(json_object *doc, FILE *out)
{
	json_object *d;
	uint64_t open_now = 0, limit = 0, snapshots = 0, kept = 0, ring = 0;

	if (!json_object_object_get_ex(doc, "descriptors", &d) || !json_object_is_type(d, json_type_object) ||
	    get_u64(d, "open", &open_now) < 0)
		return;
	if (get_u64(d, "limit", &limit) < 0) {
		fprintf(out, "Descriptors: %llu open\n", (unsigned long long) open_now);
		return;
	}
	(void) get_u64(d, "snapshots", &snapshots);
	(void) get_u64(d, "kept_back", &kept);
	(void) get_u64(d, "perf_ring_bytes", &ring);
	fprintf(out, "Descriptors: %llu open of %llu (snapshot providers %llu, %llu kept back); perf rings %llu KiB\n",
		(unsigned long long) open_now, (unsigned long long) limit, (unsigned long long) snapshots,
		(unsigned long long) kept, (unsigned long long) (ring / 1024));
}

static void format_snapshots(json_object *snapshots, FILE *out)
{
	size_t n = json_object_array_length(snapshots);

	if (n == 0)
		return;
	fprintf(out, "\n%-26s %-12s  %s\n", "SNAPSHOT", "STATE", "DETAIL");
	for (size_t i = 0; i < n; i++) {
		json_object *s = json_object_array_get_idx(snapshots, i), *events, *unavailable;
		const char *name = get_str(s, "name"), *state = get_str(s, "state");
		const char *reason = get_str(s, "reason");
		uint64_t cpus = 0, interval = 0;
		char detail[512] = "", missing[384];

		if (!name || !state)
			continue;
		if (reason)
			snprintf(detail, sizeof(detail), "%s", reason);
		else if (json_object_object_get_ex(s, "events", &events) &&
			 json_object_is_type(events, json_type_array)) {
			(void) get_u64(s, "cpus", &cpus);
			(void) get_u64(s, "interval_usec", &interval);
			snprintf(detail, sizeof(detail), "%zu event(s) on %llu CPU(s), every %.3gs",
				 json_object_array_length(events), (unsigned long long) cpus,
				 (double) interval / 1e6);
		}
		const char *budget = get_str(s, "budget");
		if (budget) {
			size_t len = strlen(detail);
			snprintf(detail + len, sizeof(detail) - len, "%sdescriptor budget: %s", len ? "; " : "", budget);
		}
		if (json_object_object_get_ex(s, "unavailable", &unavailable) &&
		    json_object_is_type(unavailable, json_type_object)) {
			key_names(unavailable, missing, sizeof(missing));
			size_t len = strlen(detail);
			snprintf(detail + len, sizeof(detail) - len, "%sunavailable: %s", len ? "; " : "", missing);
		}
		fprintf(out, "%-26s %-12s  %s\n", name, state, detail);
	}
}

/*
 * What the rules' Action=repair did this run (mcelogd.rules(5), REPAIR); a
 * daemon older than the action says nothing of it.
 */
static void format_repairs(json_object *memory, FILE *out)
{
	static const char *const outcomes[] = { "done", "refused", "failed", "would" };
	json_object *enabled, *persist, *reasons;
	uint64_t known = 0;
	bool first = true;

	if (!json_object_object_get_ex(memory, "repair_enabled", &enabled) ||
	    !json_object_is_type(enabled, json_type_boolean))
		return;
	fprintf(out, "Memory repairs by the rules (%s%s):", json_object_get_boolean(enabled) ? "on" :
		"off, [Memory] Repair=no",
		!json_object_object_get_ex(memory, "repair_persist", &persist) ? "" :
		streq(json_object_get_string(persist), "hard") ? ", hard allowed" : ", soft only");
	for (size_t i = 0; i < sizeof(outcomes) / sizeof(outcomes[0]); i++) {
		char key[32];
		uint64_t n = 0;

		snprintf(key, sizeof(key), "repairs_%s", outcomes[i]);
		(void) get_u64(memory, key, &n);
		fprintf(out, " %llu %s%s", (unsigned long long) n, outcomes[i], i + 1 < 4 ? "," : ";");
	}
	(void) get_u64(memory, "repairs_known", &known);
	fprintf(out, " %llu in the state\n", (unsigned long long) known);
	/* Each reason a repair was refused for, as MCE_REPAIR_REFUSED names it. */
	if (!json_object_object_get_ex(memory, "repairs_refused_by_reason", &reasons) ||
	    !json_object_is_type(reasons, json_type_object))
		return;
	json_object_object_foreach(reasons, reason, n) {
		fprintf(out, "%s%s %s", first ? "  refused: " : ", ", reason, json_object_get_string(n));
		first = false;
	}
	if (!first)
		fprintf(out, "\n");
}

/* The kernel's view of failed memory and what mcelogd's page actions did, on two lines. */
static void format_memory(json_object *memory, FILE *out)
{
	uint64_t kib, sysctl, known = 0, this_boot = 0, again = 0, refused = 0, nodes = 0, hard_refused = 0, held = 0,
		 salvaged = 0;
	json_object *allowed, *mf;

	fprintf(out, "Memory:");
	if (get_u64(memory, "hardware_corrupted_kib", &kib) >= 0)
		fprintf(out, " HardwareCorrupted %llu kB;", (unsigned long long) kib);
	if (json_object_object_get_ex(memory, "memory_failure", &mf) && json_object_is_type(mf, json_type_object) &&
	    get_u64(mf, "nodes", &nodes) >= 0) {
		static const char *const names[] = { "total", "recovered", "delayed", "ignored", "failed" };

		fprintf(out, " kernel memory failures on %llu node%s:", (unsigned long long) nodes,
			nodes == 1 ? "" : "s");
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			uint64_t n = 0;

			(void) get_u64(mf, names[i], &n);
			fprintf(out, " %s %llu%s", names[i], (unsigned long long) n,
				i + 1 < sizeof(names) / sizeof(names[0]) ? "," : ";");
		}
	}
	if (json_object_object_get_ex(memory, "soft_offline_allowed", &allowed) &&
	    json_object_is_type(allowed, json_type_boolean)) {
		if (json_object_get_boolean(allowed))
			fprintf(out, " soft offlining allowed");
		else
			fprintf(out, " soft offlining FORBIDDEN");
		if (get_u64(memory, "enable_soft_offline", &sysctl) >= 0)
			fprintf(out, " (vm.enable_soft_offline=%llu)", (unsigned long long) sysctl);
	}
	/* hard_offline_page panics the kernel then: mcelogd refuses it (mcelogd.rules(5)). */
	if (get_u64(memory, "memory_failure_recovery", &sysctl) >= 0 && sysctl == 0)
		fprintf(out, "; hard offlining REFUSED (vm.memory_failure_recovery=0: the kernel would panic)");
	fprintf(out, "\n");
	(void) get_u64(memory, "pages_known_bad", &known);
	(void) get_u64(memory, "pages_offlined_this_boot", &this_boot);
	(void) get_u64(memory, "pages_offlined_again_at_start", &again);
	(void) get_u64(memory, "offlinings_refused", &refused);
	(void) get_u64(memory, "hard_offlines_refused", &hard_refused);
	(void) get_u64(memory, "pages_held_memory_changed", &held);
	(void) get_u64(memory, "pages_salvaged", &salvaged);
	fprintf(out, "Pages offlined by the rules: %llu this boot (%llu again at start), %llu known bad; "
		"%llu refused", (unsigned long long) this_boot, (unsigned long long) again,
		(unsigned long long) known, (unsigned long long) refused);
	if (hard_refused)
		fprintf(out, "; %llu hard offline%s refused or done soft", (unsigned long long) hard_refused,
			hard_refused == 1 ? "" : "s");
	if (held)
		fprintf(out, "; %llu held: their memory changed (mcectl pages)", (unsigned long long) held);
	if (salvaged)
		fprintf(out, "; %llu salvaged from a damaged state, not acted on (mcectl pages)",
			(unsigned long long) salvaged);
	fprintf(out, "\n");
	format_repairs(memory, out);
}

/*
 * The memory RAS controls EDAC offers (scrub, ECS, repair; Linux 6.15 and
 * later), one line per feature with its attributes as sysfs names them.
 */
static void format_edac_features(json_object *features, FILE *out)
{
	size_t n = json_object_array_length(features);

	if (n == 0) {
		fprintf(out, "Memory RAS controls (EDAC): none offered\n");
		return;
	}
	fprintf(out, "Memory RAS controls (EDAC):\n");
	for (size_t i = 0; i < n; i++) {
		json_object *f = json_object_array_get_idx(features, i);
		const char *device = get_str(f, "device"), *feature = get_str(f, "feature");
		uint64_t instance = 0;

		if (!device || !feature)
			continue;
		(void) get_u64(f, "instance", &instance);
		fprintf(out, "  %s %s%llu:", device, feature, (unsigned long long) instance);
		json_object_object_foreach(f, key, value) {
			if (streq(key, "device") || streq(key, "feature") || streq(key, "instance") ||
			    !json_object_is_type(value, json_type_string))
				continue;
			fprintf(out, " %s=%s", key, json_object_get_string(value));
		}
		fprintf(out, "\n");
	}
}

/*
 * The kernel side of page offlining and logging: whether the kernel knows a
 * RAS daemon reads its events (ras/daemon_active), and whether its own
 * corrected-error collector may offline pages beside mcelogd's rules.
 */
static void format_kernel_ras(json_object *doc, FILE *out)
{
	json_object *held, *cec;

	if (json_object_object_get_ex(doc, "ras_daemon_active", &held) &&
	    json_object_is_type(held, json_type_boolean)) {
		const char *why = get_str(doc, "ras_daemon_active_reason");

		if (json_object_get_boolean(held))
			fprintf(out, "Kernel told a RAS daemon runs (ras/daemon_active held): yes\n");
		else
			fprintf(out, "Kernel told a RAS daemon runs (ras/daemon_active held): no (%s)\n",
				why ? why : "no reason given");
	}
	if (json_object_object_get_ex(doc, "kernel_cec", &cec) && json_object_is_type(cec, json_type_object)) {
		const char *state = get_str(cec, "state"), *why = get_str(cec, "reason");
		uint64_t threshold = 0, decay = 0, seen = 0, offlined = 0;

		if (!state)
			return;
		if (!streq(state, "active") || get_u64(cec, "action_threshold", &threshold) < 0) {
			fprintf(out, "Kernel corrected-error collector (ras/cec): %s%s%s%s\n", state,
				why ? " (" : "", why ? why : "", why ? ")" : "");
			return;
		}
		fprintf(out, "Kernel corrected-error collector (ras/cec): active, soft-offlines a page at %llu "
			"corrected errors", (unsigned long long) threshold);
		if (get_u64(cec, "decay_interval_sec", &decay) >= 0)
			fprintf(out, ", counts age every %llu s", (unsigned long long) decay);
		if (get_u64(cec, "errors_seen", &seen) >= 0 && get_u64(cec, "pages_offlined", &offlined) >= 0)
			fprintf(out, "; %llu errors seen, %llu pages offlined", (unsigned long long) seen,
				(unsigned long long) offlined);
		fprintf(out, "; it acts beside mcelogd's page rules\n");
	}
}

int status_format_table(json_object *doc, long long now_usec, FILE *out)
{
	const char *version, *started, *last;
	json_object *sources, *storms, *ras_storms, *hotplug, *sinks, *snapshots, *memory, *edac;
	uint64_t pid = 0, uptime = 0, records = 0, entries = 0, failures = 0;
	char span[32], when[96];

	version = get_str(doc, "version");
	if (!version || !json_object_object_get_ex(doc, "sources", &sources) ||
	    !json_object_is_type(sources, json_type_array))
		return -EINVAL;
	(void) get_u64(doc, "pid", &pid);
	(void) get_u64(doc, "uptime_sec", &uptime);
	(void) get_u64(doc, "records", &records);
	(void) get_u64(doc, "journal_entries", &entries);
	(void) get_u64(doc, "sink_failures", &failures);
	format_span(uptime, span, sizeof(span));
	started = get_str(doc, "started");

	fprintf(out, "mcelogd %s, pid %llu, running for %s%s%s%s\n", version,
		(unsigned long long) pid, span, started ? " (since " : "", started ? started : "",
		started ? ")" : "");
	fprintf(out, "Records: %llu; journal entries written: %llu; sink failures: %llu\n",
		(unsigned long long) records, (unsigned long long) entries,
		(unsigned long long) failures);
	last = get_str(doc, "last_record");
	if (last) {
		format_when(last, now_usec, when, sizeof(when));
		fprintf(out, "Last record: %s\n", when);
	} else
		fprintf(out, "Last record: none since start\n");
	if (json_object_object_get_ex(doc, "cpu_hotplug_followed", &hotplug) &&
	    json_object_is_type(hotplug, json_type_boolean) && !json_object_get_boolean(hotplug))
		fprintf(out, "CPU hotplug: not followed (see mcelogd's log); per-CPU readers are fixed\n");
	format_descriptors(doc, out);
	if (json_object_object_get_ex(doc, "sinks", &sinks) && json_object_is_type(sinks, json_type_array))
		format_spools(sinks, out);
	if (json_object_object_get_ex(doc, "memory", &memory) && json_object_is_type(memory, json_type_object))
		format_memory(memory, out);
	if (json_object_object_get_ex(doc, "edac_features", &edac) && json_object_is_type(edac, json_type_array))
		format_edac_features(edac, out);
	format_kernel_ras(doc, out);
	format_sources(sources, out);
	if (json_object_object_get_ex(doc, "snapshots", &snapshots) &&
	    json_object_is_type(snapshots, json_type_array))
		format_snapshots(snapshots, out);
	if (json_object_object_get_ex(doc, "storms", &storms) &&
	    json_object_is_type(storms, json_type_object))
		format_storms(storms, out);
	if (json_object_object_get_ex(doc, "ras_storms", &ras_storms) &&
	    json_object_is_type(ras_storms, json_type_object))
		format_ras_storms(ras_storms, out);
	return 0;
}
