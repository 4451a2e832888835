/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "actions/actions.h"
#include "clock.h"
#include "daemon-config.h"
#include "file-io.h"
#include "json-writer.h"
#include "log.h"
#include "memory-failure.h"
#include "module-prom.h"
#include "macro.h"
#include "prom-text.h"
#include "sink.h"
#include "sinks.h"

/*
 * Counters of what was logged, in Prometheus's text format: written to
 * [Output] Metrics= (a *.prom file for node_exporter's textfile collector,
 * replaced by rename, so a scrape never sees half of it) and given to
 * `mcectl export --prometheus` through the control socket.  Always open, so
 * the export works without a file; the file is written at most every
 * WRITE_MIN_USEC after a change, and every WRITE_MAX_USEC regardless, so its
 * age says whether the daemon runs.
 *
 * Names follow node_exporter's EDAC collector where they overlap
 * (node_edac_{correctable,uncorrectable}_errors_total by memory controller):
 * mcelogd_dimm_{correctable,uncorrectable}_errors_total by DIMM location.
 */
#define USEC_PER_SEC UINT64_C(1000000)
#define WRITE_MIN_USEC (5 * USEC_PER_SEC)
#define WRITE_MAX_USEC (60 * USEC_PER_SEC)
/* Labels come from records: bounded, so a flood of distinct DIMMs or pages cannot grow us. */
#define MAX_SERIES 4096
#define METRICS_FILE_MODE 0644

static const struct prom_metric metrics[] = {
	{ "mcelogd_records_total", PROM_COUNTER,
	  "Machine-check records logged one by one, by severity, error class, bank type and socket" },
	{ "mcelogd_dimm_correctable_errors_total", PROM_COUNTER,
	  "Corrected memory errors by DIMM location (socket, memory controller, channel, DIMM or label)" },
	{ "mcelogd_dimm_uncorrectable_errors_total", PROM_COUNTER,
	  "Uncorrected memory errors by DIMM location (socket, memory controller, channel, DIMM or label)" },
	{ "mcelogd_ras_records_total", PROM_COUNTER,
	  "Other hardware-error records (EDAC, PCIe AER, memory failure, ARM, firmware) by kind and severity" },
	{ "mcelogd_disk_errors_total", PROM_COUNTER,
	  "Failed disk requests logged one by one (block:block_rq_error), by disk and what failed" },
	{ "mcelogd_memory_error_sigbus_total", PROM_COUNTER,
	  "Processes the kernel sent SIGBUS for a memory error, by code (action_required: killed) and unit" },
	{ "mcelogd_storm_records_total", PROM_COUNTER,
	  "Corrected records counted in storm summaries instead of logged one by one, by bank" },
	{ "mcelogd_storms_ended_total", PROM_COUNTER, "Corrected-error storms that ended" },
	{ "mcelogd_lost_records_total", PROM_COUNTER, "Records the kernel reported lost, by source" },
	{ "mcelogd_alerts_total", PROM_COUNTER, "Alerts raised by mcelogd's rules, by rule" },
	{ "mcelogd_pages_offlined_total", PROM_COUNTER,
	  "Memory pages mcelogd's rules offlined (or failed to), by mode and result" },
	{ "mcelogd_cpus_offlined_total", PROM_COUNTER,
	  "CPUs mcelogd's rules took offline (or failed to), by result" },
	{ "mcelogd_memory_repairs_total", PROM_COUNTER,
	  "Memory repairs mcelogd's rules asked for (Action=repair), by result, and a refusal by its reason" },
	{ "mcelogd_memory_hardware_corrupted_bytes", PROM_GAUGE,
	  "Memory the kernel took out of use for hardware errors (HardwareCorrupted in /proc/meminfo)" },
	{ "mcelogd_kernel_memory_failure_pages_total", PROM_COUNTER,
	  "Pages the kernel's memory-failure handling saw, by result, summed over NUMA nodes "
	  "(/sys/devices/system/node/node*/memory_failure)" },
	{ "mcelogd_soft_offline_allowed", PROM_GAUGE,
	  "1 unless vm.enable_soft_offline=0 forbids soft offlining pages" },
	{ "mcelogd_metrics_series_dropped_total", PROM_COUNTER,
	  "Label sets not counted because the number of series is bounded" },
	{ "mcelogd_last_update_timestamp_seconds", PROM_GAUGE,
	  "When mcelogd last wrote this file (it does at least once a minute while it runs)" },
};

struct metrics_sink {
	struct prom_registry *registry;
	char path[4096];
	sd_event_source *timer;
	uint64_t last_write_usec;     /* CLOCK_MONOTONIC */
	bool dirty;
	bool read_memory_failure;
	const char *procfs, *sysfs_node;
	const struct module_ledger *modules;   /* the module ledger's series, rendered at each writing */
	uint64_t n_writes, n_write_failures;
	int last_error;
};

static const char *str_of(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return NULL;
	return json_object_get_string(v);   /* numbers too, as their text */
}

static void add(struct metrics_sink *k, const char *name, const char *const *labels, double v)
{
	int r = prom_add(k->registry, name, labels, v);

	if (r < 0 && r != -E2BIG)
		log_debug_errno(r, "Cannot count %s: %m", name);
	k->dirty = true;
}

static const char *or_unknown(const char *s)
{
	return s && s[0] ? s : "unknown";
}

/* Where a memory error's DIMM is, as far as its record says. */
struct dimm_place {
	const char *socket, *mc, *channel, *dimm, *label;
};

static void dimm_place_of_json(json_object *o, struct dimm_place *p)
{
	*p = (struct dimm_place) {
		.socket = str_of(o, "dimm_socket") ?: str_of(o, "socket"),
		.mc = str_of(o, "dimm_mc") ?: str_of(o, "mc"),
		.channel = str_of(o, "dimm_channel") ?: str_of(o, "channel"),
		.dimm = str_of(o, "dimm_slot") ?: str_of(o, "dimm"),
		.label = str_of(o, "label"),
	};
}

/* The text of n in buf, or NULL when the record does not have it. */
static const char *number(bool have, int64_t n, char buf[16])
{
	if (!have)
		return NULL;
	snprintf(buf, 16, "%" PRId64, n);
	return buf;
}

/* The same from the record and its decode, as its JSON would say it; buf holds the numbers. */
static void dimm_place_of_record(const struct mce_record *r, const struct mce_decoded *d, char buf[4][16],
				 struct dimm_place *p)
{
	bool edac_socket = r->have & MCE_HAVE_DIMM_SOCKET, edac_channel = r->have & MCE_HAVE_DIMM_CHANNEL,
	     edac_slot = r->have & MCE_HAVE_DIMM_SLOT;

	*p = (struct dimm_place) {
		.socket = number(edac_socket || (r->have & MCE_HAVE_SOCKET),
				 edac_socket ? r->dimm_socket : r->socket, buf[0]),
		.mc = number(r->have & MCE_HAVE_DIMM_MC, r->dimm_mc, buf[1]),
		.channel = number(edac_channel || d->channel >= 0, edac_channel ? (int64_t) r->dimm_channel : d->channel, buf[2]),
		.dimm = number(edac_slot || d->dimm >= 0, edac_slot ? (int64_t) r->dimm_slot : d->dimm, buf[3]),
	};
}

static void count_memory(struct metrics_sink *k, const struct dimm_place *p, const char *severity, double n)
{
	const char *labels[] = { "socket", or_unknown(p->socket), "controller", or_unknown(p->mc),
				 "channel", or_unknown(p->channel), "dimm", or_unknown(p->dimm),
				 "label", p->label ? p->label : "", NULL };

	/* A record that does not place its DIMM is counted by the other families only. */
	if (!(p->channel && p->dimm) && !(p->label && p->label[0]))
		return;
	if (streq(severity, "corrected"))
		add(k, "mcelogd_dimm_correctable_errors_total", labels, n);
	else if (streq(severity, "uncorrected") || streq(severity, "fatal") || streq(severity, "deferred"))
		add(k, "mcelogd_dimm_uncorrectable_errors_total", labels, n);
}

/*
 * A machine check, from the record and its decode: they are at hand, and
 * the most frequent entry is not worth parsing back from its own JSON.
 */
static void count_mce(struct metrics_sink *k, const struct mce_record *r, const struct mce_decoded *d)
{
	const char *severity = or_unknown(mce_severity_to_string(d->severity));
	char socket[16], buf[4][16];
	struct dimm_place place;
	const char *labels[] = { "severity", severity, "class", mce_error_class_to_string(d->error_class),
				 "bank_type", or_unknown(d->bank_type),
				 "socket", or_unknown(number(r->have & MCE_HAVE_SOCKET, r->socket, socket)), NULL };

	add(k, "mcelogd_records_total", labels, 1);
	dimm_place_of_record(r, d, buf, &place);
	count_memory(k, &place, severity, 1);
}

/* Every repair report (mcelogd.rules(5), REPAIR): done, failed, would, or refused and why. */
static void count_repair(struct metrics_sink *k, const struct mem_repair_report *rep)
{
	const char *labels[] = { "result", mem_repair_outcome_to_string(rep->outcome), "reason",
				 mem_repair_refusal_to_string(rep->plan->refusal), NULL };

	if (rep->outcome != MEM_REPAIR_REFUSED)
		labels[2] = NULL;
	add(k, "mcelogd_memory_repairs_total", labels, 1);
}


/* The disk of a failed request, and the process a memory error's SIGBUS was for. */
static void count_disk_or_sigbus(struct metrics_sink *k, json_object *o)
{
	const char *event = str_of(o, "event");

	if (event && streq(event, "disk_error")) {
		const char *disk = str_of(o, "disk") ?: str_of(o, "dev");
		const char *labels[] = { "disk", or_unknown(disk), "error_type", or_unknown(str_of(o, "error_type")),
					 NULL };

		add(k, "mcelogd_disk_errors_total", labels, 1);
	} else if (event && streq(event, "sigbus")) {
		const char *labels[] = { "code", or_unknown(str_of(o, "code")), "unit", or_unknown(str_of(o, "unit")),
					 NULL };

		add(k, "mcelogd_memory_error_sigbus_total", labels, 1);
	}
}
static void count_entry(struct metrics_sink *k, const struct sink_entry *e, json_object *o)
{
	const char *severity = or_unknown(str_of(o, "severity"));

	switch (e->kind) {
	case SINK_ENTRY_RAS: {
		const char *labels[] = { "event", or_unknown(str_of(o, "event")), "severity", severity, NULL };
		const char *count = str_of(o, "error_count");
		double n = count && atof(count) > 0 ? atof(count) : 1;
		struct dimm_place place;

		add(k, "mcelogd_ras_records_total", labels, 1);
		count_disk_or_sigbus(k, o);
		dimm_place_of_json(o, &place);
		count_memory(k, &place, severity, n);
		break;
	}
	case SINK_ENTRY_STORM: {
		const char *event = str_of(o, "event"), *count = str_of(o, "count");
		const char *scope = str_of(o, "scope");
		/* A ras storm has no bank: its source stands in, as in mcectl summary --by bank. */
		const char *bank = scope && streq(scope, "ras") ? str_of(o, "source") : str_of(o, "bank");
		const char *labels[] = { "bank", or_unknown(bank), NULL };

		if (event && streq(event, "storm_summary") && count)
			add(k, "mcelogd_storm_records_total", labels, atof(count));
		else if (event && streq(event, "storm_end"))
			add(k, "mcelogd_storms_ended_total", NULL, 1);
		break;
	}
	case SINK_ENTRY_LOSS: {
		const char *labels[] = { "source", or_unknown(e->loss.source), NULL };

		add(k, "mcelogd_lost_records_total", labels, (double) e->loss.lost);
		break;
	}
	case SINK_ENTRY_ALERT: {
		const char *labels[] = { "rule", or_unknown(str_of(o, "rule")), NULL };

		add(k, "mcelogd_alerts_total", labels, 1);
		if (e->alert && e->alert->repair)
			count_repair(k, e->alert->repair);
		break;
	}
	default:
		break;
	}
}

/* What the kernel says of failed memory now: gauges, and its own counters as they stand. */
static void set_memory_failure(struct metrics_sink *k)
{
	struct memory_failure_view v;

	memory_failure_read(k->procfs, k->sysfs_node, &v);
	if (v.have_hardware_corrupted)
		(void) prom_set(k->registry, "mcelogd_memory_hardware_corrupted_bytes", NULL,
				(double) v.hardware_corrupted_kib * 1024);
	/* "total" is the sum of the others: Prometheus sums labels itself. */
	for (unsigned i = 1; v.n_nodes > 0 && i < MEMORY_FAILURE_COUNTERS; i++) {
		const char *labels[] = { "result", memory_failure_counter_names[i], NULL };

		(void) prom_set(k->registry, "mcelogd_kernel_memory_failure_pages_total", labels,
				(double) v.counters[i]);
	}
	(void) prom_set(k->registry, "mcelogd_soft_offline_allowed", NULL,
			memory_failure_soft_offline_allowed(&v) ? 1 : 0);
}

/*
 * The exposition text, with the time of this writing and the dropped
 * series, then the module ledger's families (metrics/module-prom.h): within
 * what MAX_SERIES leaves after the counters, the modules left out counted
 * among the dropped.
 */
static int render(struct metrics_sink *k, char **ret)
{
	_cleanup_free_ char *counters = NULL, *modules = NULL;
	size_t used = prom_series(k->registry), room = used < MAX_SERIES ? MAX_SERIES - used : 0;
	uint64_t modules_dropped = 0;
	int n, m = 0;
	char *text;

	if (k->read_memory_failure)
		set_memory_failure(k);
	(void) prom_set(k->registry, "mcelogd_last_update_timestamp_seconds", NULL,
			(double) now_realtime_usec() / 1e6);
	if (k->modules && k->modules->n > 0) {
		m = module_prom_format(k->modules, room, &modules, &modules_dropped);
		if (m < 0)
			return m;
	}
	if (prom_dropped(k->registry) + modules_dropped > 0)
		(void) prom_set(k->registry, "mcelogd_metrics_series_dropped_total", NULL,
				(double) (prom_dropped(k->registry) + modules_dropped));
	n = prom_format(k->registry, &counters);
	if (n < 0)
		return n;
	text = malloc((size_t) n + (size_t) m + 1);
	if (!text)
		return -ENOMEM;
	memcpy(text, counters, (size_t) n);
	if (m > 0)
		memcpy(text + n, modules, (size_t) m);
	text[n + m] = '\0';
	*ret = text;
	return n + m;
}

static void write_now(struct metrics_sink *k)
{
	_cleanup_free_ char *text = NULL;
	int n, r;

	if (!k->path[0])
		return;
	n = render(k, &text);
	/* Readable by all: node_exporter runs as its own user (Debian: prometheus); counts are not secret. */
	r = n < 0 ? n : write_file_atomic_mode(k->path, text, (size_t) n, false, METRICS_FILE_MODE);
	if (r < 0) {
		/* Said once per kind of failure, not at every attempt. */
		if (r != k->last_error)
			log_warning_errno(r, "Cannot write the metrics file %s: %m", k->path);
		k->last_error = r;
		k->n_write_failures++;
		return;
	}
	k->last_error = 0;
	k->n_writes++;
	k->dirty = false;
	k->last_write_usec = now_monotonic_usec();
}

static int on_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct metrics_sink *k = userdata;

	if (k->dirty || usec >= k->last_write_usec + WRITE_MAX_USEC)
		write_now(k);
	(void) sd_event_source_set_time(s, usec + WRITE_MIN_USEC);
	return 0;
}

static void metrics_close(void *s)
{
	struct metrics_sink *k = s;

	if (!k)
		return;
	if (k->dirty || k->n_writes == 0)
		write_now(k);
	sd_event_source_disable_unref(k->timer);
	prom_registry_free(k->registry);
	free(k);
}

static int metrics_open(const struct sink_params *p, void **ret)
{
	_cleanup_free_ struct metrics_sink *k = calloc(1, sizeof(*k));
	int r;

	*ret = NULL;
	if (!k)
		return log_error_errno(-ENOMEM, "Out of memory");
	k->registry = prom_registry_new(metrics, ELEMENTSOF(metrics), MAX_SERIES);
	if (!k->registry)
		return log_error_errno(-ENOMEM, "Out of memory");
	snprintf(k->path, sizeof(k->path), "%s", p->config->metrics_output);
	k->read_memory_failure = p->read_memory_failure;
	k->procfs = p->procfs;
	k->sysfs_node = p->sysfs_node;
	k->modules = p->modules;
	if (k->path[0] && p->event) {
		r = sd_event_add_time_relative(p->event, &k->timer, CLOCK_MONOTONIC, WRITE_MIN_USEC,
					       USEC_PER_SEC, on_timer, k);
		if (r >= 0)
			r = sd_event_source_set_enabled(k->timer, SD_EVENT_ON);
		if (r < 0)
			log_warning_errno(r, "Cannot schedule metrics writes: %m; %s is written at stop only",
					  k->path);
		/* At once: a scrape right after the start finds the file. */
		write_now(k);
	}
	*ret = TAKE_PTR(k);
	return 0;
}

static int metrics_write(void *s, const struct sink_entry *e)
{
	struct metrics_sink *k = s;
	json_object *o;

	if (e->kind == SINK_ENTRY_MCE && e->mce.rec && e->mce.decoded) {
		count_mce(k, e->mce.rec, e->mce.decoded);
		return 0;
	}
	/* Counting is no record's home: what it cannot count is said, never made a failure
	 * that would hold a restart cursor back. */
	o = e->json ? json_tokener_parse(e->json) : NULL;
	if (e->kind != SINK_ENTRY_LOSS && !o) {
		log_debug("A %s entry could not be counted in the metrics", sink_entry_kind_to_string(e->kind));
		return 1;
	}
	count_entry(k, e, o);
	json_object_put(o);
	return 0;
}

static int metrics_text(void *s, char **ret)
{
	return render(s, ret);
}

static void metrics_status(void *s, struct json_writer *w)
{
	struct metrics_sink *k = s;

	json_put_string(w, "path", k->path);
	json_put_u64(w, "series", prom_series(k->registry));
	json_put_u64(w, "writes", k->n_writes);
	json_put_u64(w, "write_failures", k->n_write_failures);
}

static void metrics_action(void *s, const char *action, bool done)
{
	struct metrics_sink *k = s;
	const char *result = done ? "done" : "failed";

	if (streq(action, "soft-offline") || streq(action, "hard-offline")) {
		const char *labels[] = { "mode", streq(action, "soft-offline") ? "soft" : "hard",
					 "result", result, NULL };

		add(k, "mcelogd_pages_offlined_total", labels, 1);
	} else if (streq(action, "cpu-offline")) {
		const char *labels[] = { "result", result, NULL };

		add(k, "mcelogd_cpus_offlined_total", labels, 1);
	}
	/* A repair is counted from its report (count_repair), refusals and all. */
}

const struct sink_ops metrics_sink_ops = {
	.name = "metrics",
	.open = metrics_open,
	.close = metrics_close,
	.write = metrics_write,
	.metrics = metrics_text,
	.status = metrics_status,
	.action = metrics_action,
};
