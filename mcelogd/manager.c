/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-id128.h>
#include <unistd.h>

#include "clock.h"
#include "control.h"
#include "cpu-hotplug.h"
#include "uevent-listener.h"
#include "decode.h"
#include "log.h"
#include "manager.h"
#include "memory-online.h"
#include "ras-record.h"
#include "ras-record-json.h"
#include "record-json.h"
#include "snapshot-cpu.h"

/*
 * How long a stop waits for the sinks to store what they took.  journald
 * takes _COMM from /proc when it reads an entry; once we have exited it
 * cannot, and mcectl query shows only entries whose trusted _COMM is ours.
 * systemd's stop timeout is far longer.
 */
#define STOP_SYNC_USEC (10 * 1000000ULL)

static void count_record(struct manager *m, enum mce_source source);

/* ------------------------------------------------------------------ sinks */

static int emit(struct manager *m, const struct sink_entry *e)
{
	int ret = 0;

	for (size_t i = 0; i < m->n_sinks; i++) {
		struct sink_slot *k = &m->sinks[i];
		int r;

		if (!k->state)
			continue;
		r = k->ops->write(k->state, e);
		if (r > 0)
			continue;   /* not a kind of entry this sink writes */
		if (r < 0) {
			k->n_failures++;
			m->n_sink_failures++;
			ret = log_error_errno(r, "Failed to write %s to %s: %m; it was: %s",
					      sink_entry_kind_to_string(e->kind), k->ops->name,
					      e->json ? e->json : "(see the line above)");
			continue;
		}
		k->n_written++;
		if (e->kind == SINK_ENTRY_MCE || e->kind == SINK_ENTRY_RAS)
			k->n_records_written++;
	}
	return ret;
}

static int emit_from_stage(void *core, const struct sink_entry *e)
{
	return emit(core, e);
}

static void rules_acted(void *core, const char *action, bool done)
{
	struct manager *m = core;

	for (size_t i = 0; i < m->n_sinks; i++) {
		const struct sink_slot *k = &m->sinks[i];

		if (k->state && k->ops->action)
			k->ops->action(k->state, action, done);
	}
}

static int storm_logged(void *core, const struct storm_key *key, const struct ras_storm_key *ras,
			int64_t start_usec, const char *boot_id, uint64_t *ret_total, bool *ret_ended)
{
	struct manager *m = core;
	int ret = -ENODATA;

	*ret_total = 0;
	*ret_ended = false;
	for (size_t i = 0; i < m->n_sinks; i++) {
		const struct sink_slot *k = &m->sinks[i];
		uint64_t total = 0;
		bool ended = false;
		int r;

		if (!k->state || !k->ops->storm_logged)
			continue;
		r = k->ops->storm_logged(k->state, key, ras, start_usec, boot_id, &total, &ended);
		if (r < 0) {
			if (ret < 0)
				ret = r;
			continue;
		}
		/* The sink that holds the least decides: what it lacks is written to all. */
		if (ret < 0) {
			*ret_total = total;
			*ret_ended = ended;
		} else {
			*ret_total = total < *ret_total ? total : *ret_total;
			*ret_ended = *ret_ended && ended;
		}
		ret = ret > 0 || r > 0 ? 1 : 0;
	}
	return ret;
}

/* The storm stage wrote every count it held: tell the sources that keep cursors. */
static void storms_accounted(void *core)
{
	struct manager *m = core;

	for (size_t i = 0; i < m->n_sources; i++) {
		struct source_slot *s = &m->sources[i];

		if (s->state && s->ops->accounted)
			s->ops->accounted(s->state);
	}
}

int manager_set_sinks(struct manager *m, const struct sink_ops *const *table, size_t n)
{
	if (n > ELEMENTSOF(m->sinks))
		return -E2BIG;
	for (size_t i = 0; i < n; i++)
		m->sinks[i] = (struct sink_slot) { .ops = table[i] };
	m->n_sinks = n;
	return 0;
}

static void close_sinks(struct manager *m)
{
	for (size_t i = 0; i < m->n_sinks; i++)
		if (m->sinks[i].state) {
			m->sinks[i].ops->close(m->sinks[i].state);
			m->sinks[i].state = NULL;
		}
}

int manager_apply_config(struct manager *m)
{
	struct sink_params p = {
		.config = &m->config,
		.live = m->live,
		.event = m->event,
		.state_directory = m->paths.state_directory,
		.read_memory_failure = m->rules.read_memory_failure,
		.procfs = m->rules.procfs,
		.sysfs_node = m->rules.sysfs_node,
		.modules = &m->rules.modules.ledger,
	};
	int r;

	/* The command line wins over the file, at start and at every reload. */
	if (m->arg_no_journal)
		m->config.sink_journal = false;
	if (m->arg_json_output)
		snprintf(m->config.json_output, sizeof(m->config.json_output), "%s", m->arg_json_output);
	/*
	 * A replay's records are another host's, or another time's: they never go
	 * into this host's own files (the configuration's JSON= and Metrics=,
	 * which collectors and node_exporter read as this host's), only where its
	 * command line sends them (--output-file, --metrics-file), and to the
	 * journal, marked.
	 */
	if (!m->live) {
		if (!m->arg_json_output)
			m->config.json_output[0] = '\0';
		m->config.metrics_output[0] = '\0';
	}
	if (m->arg_metrics_output)
		snprintf(m->config.metrics_output, sizeof(m->config.metrics_output), "%s", m->arg_metrics_output);
	log_set_max_level(m->arg_log_level >= 0 ? m->arg_log_level : m->config.log_level);

	close_sinks(m);
	for (size_t i = 0; i < m->n_sinks; i++) {
		struct sink_slot *k = &m->sinks[i];

		r = k->ops->open(&p, &k->state);
		if (r < 0) {
			/* One output that cannot open never stops the others: the records still
			 * go where they can, and the failure shows in mcectl status and the exit
			 * status of --replay. */
			k->state = NULL;
			k->n_failures++;
			m->n_sink_failures++;
			log_error("The %s output is off: it could not be opened; records go to the "
				  "other outputs", k->ops->name);
		}
	}
	return 0;
}

int manager_sync_sinks(struct manager *m, uint64_t timeout_usec)
{
	int ret = 0;

	for (size_t i = 0; i < m->n_sinks; i++) {
		const struct sink_slot *k = &m->sinks[i];
		int r;

		if (!k->state || !k->ops->sync)
			continue;
		r = k->ops->sync(k->state, timeout_usec);
		if (r < 0 && ret == 0)
			ret = r;
	}
	return ret;
}

/* ------------------------------------------------- what sources call */

/*
 * Identity of the machine that logs a record, unless the record already names
 * its own.  A replay stamps nothing: its records keep where they came from, or
 * say nothing, but never pass for this host's, this boot's.
 */
static void stamp_identity(const struct manager *m, char hostname[static MCE_HOSTNAME_MAX],
			   char boot_id[static MCE_BOOT_ID_LEN + 1], enum mce_source source)
{
	if (!m->live)
		return;
	if (!hostname[0])
		memcpy(hostname, m->hostname, MCE_HOSTNAME_MAX);
	if (!boot_id[0] && source != MCE_SOURCE_REPLAY)
		memcpy(boot_id, m->boot_id, MCE_BOOT_ID_LEN + 1);
}

/* ------------------------------------------------------------ snapshots */

static void open_snapshots(struct manager *m)
{
	const struct snapshot_params p = {
		.config = &m->config,
		.paths = &m->paths,
		.event = m->event,
		.fds = &m->fds,
	};
	int r;

	/* Measured with the old providers closed: what they held is free again. */
	snapshot_stage_close(&m->snapshots);
	r = fd_budget_measure(&m->fds, FD_RESERVE_BASE + m->fd_reserve);
	if (r < 0) {
		log_warning_errno(r, "Cannot count this process's descriptors: %m; the snapshot providers "
				  "open without a descriptor budget");
		m->fds = (struct fd_budget) { .limit = UINT64_MAX };
	}
	snapshot_stage_open(&m->snapshots, &p);
}

void manager_open_snapshots(struct manager *m, const struct snapshot_ops *const *table, size_t n)
{
	if (snapshot_stage_set(&m->snapshots, table, n) < 0) {
		log_error("Too many snapshot providers; records are logged without snapshots");
		return;
	}
	open_snapshots(m);
}

/* Field by field: the structs' padding is not part of the configuration. */
static bool snapshot_config_equal(const struct snapshot_config *a, const struct snapshot_config *b)
{
	if (a->counters != b->counters || a->n_counter_events != b->n_counter_events ||
	    a->interval_usec != b->interval_usec || a->history != b->history ||
	    a->processor_trace != b->processor_trace || a->pt_buffer_size != b->pt_buffer_size ||
	    a->pt_max_files != b->pt_max_files || a->pt_max_bytes != b->pt_max_bytes)
		return false;
	for (size_t i = 0; i < a->n_counter_events; i++)
		if (!streq(a->counter_events[i], b->counter_events[i]))
			return false;
	return true;
}

struct snapshot_call {
	struct manager *m;
	struct snapshot_subject subject;
	bool snapshot;
	uint64_t error_id;
};

/* What the daemon adds to a record's JSON: the error id of a machine check's memory error, the snapshot. */
static void write_extra(struct json_writer *w, void *userdata)
{
	const struct snapshot_call *call = userdata;

	if (call->error_id)
		json_put_hex(w, "error_id", call->error_id);
	if (call->snapshot)
		snapshot_stage_annotate(&call->m->snapshots, &call->subject, w);
}

static int submit_record(void *core, struct mce_record *rec, enum record_origin origin)
{
	struct manager *m = core;
	struct sink_entry e = { .kind = SINK_ENTRY_MCE };
	struct mce_decoded d;
	uint64_t error_id;

	/* The previous boot's records too: a kernel with /dev/mcelog hands its first reader the
	 * machine checks it kept in ERST, which pstore's mce-erst-* files already gave. */
	if (m->dedup && (rec->source == MCE_SOURCE_TRACEPOINT || rec->source == MCE_SOURCE_DEV_MCELOG ||
			 rec->source == MCE_SOURCE_PREVIOUS_BOOT) &&
	    mce_dedup_check(m->dedup, rec)) {
		log_debug("CPU %u bank %u status 0x%016llx: already logged from the other live source",
			  rec->cpu, rec->bank, (unsigned long long) rec->status);
		return 0;
	}

	stamp_identity(m, rec->hostname, rec->boot_id, rec->source);

	mce_decode(rec, &d);
	/* Rules see every record, those a storm only counts included. */
	error_id = rules_stage_record(&m->rules, &(struct rule_input) { .mce = rec, .decoded = &d },
				      rec->have & MCE_HAVE_TIME ? rec->time_usec : now_realtime_usec());
	if (!m->live)
		error_id = 0;   /* as for ras records: the id is for live entries */
	/* Counted in a storm: it reaches the sinks in the storm's summaries. */
	if (origin == RECORD_LIVE && storm_stage_suppress(&m->storm, rec, &d)) {
		count_record(m, rec->source);
		return SOURCE_RECORD_COUNTED;
	}
	json_writer_reset(&m->json);
	/* After decode and storms: a snapshot only for what reaches the sinks on its own. */
	bool snapshot = m->snapshots.n > 0 && origin == RECORD_LIVE && snapshot_stage_wants(rec, m->live);
	struct snapshot_call call = { .m = m, .snapshot = snapshot, .error_id = error_id };
	snapshot_subject_of_mce(rec, &call.subject);
	mce_record_write_json_extra(rec, &d, &m->json, snapshot || error_id ? write_extra : NULL, &call);
	if (json_writer_failed(&m->json))
		return log_error_errno(-ENOMEM, "Out of memory rendering a record");
	e.json = json_writer_str(&m->json);
	e.mce.rec = rec;
	e.mce.decoded = &d;
	e.mce.error_id = error_id;
	if (snapshot) {
		e.snapshot_fields = m->snapshots.out.fields;
		e.n_snapshot_fields = m->snapshots.out.n_fields;
	}
	count_record(m, rec->source);
	return emit(m, &e);
}

static int submit_ras(void *core, struct ras_record *rec)
{
	struct manager *m = core;
	struct sink_entry e = { .kind = SINK_ENTRY_RAS, .ras = rec };
	uint64_t error_id;

	stamp_identity(m, rec->hostname, rec->boot_id, rec->source);
	/* Before the rules and the sinks: both see the killed process, or the page. */
	(void) memory_kill_join_note(&m->kills, rec);
	rules_stage_name_slot(&m->rules, rec);
	error_id = rules_stage_record(&m->rules, &(struct rule_input) { .ras = rec },
				      rec->have_time ? rec->time_usec : now_realtime_usec());
	/* A replayed record is written back as it came: the id is for live entries. */
	if (error_id && m->live)
		(void) ras_record_add_hex(rec, "error_id", error_id);
	/* Like a machine check's: counted in a storm, it reaches the sinks in the summaries. */
	if (storm_stage_suppress_ras(&m->storm, rec)) {
		count_record(m, rec->source);
		return SOURCE_RECORD_COUNTED;
	}

	json_writer_reset(&m->json);
	/* A snapshot only where the kind of record names a CPU that means something
	 * (snapshot-cpu.h), and only as it happens: a recovered record is of the past. */
	struct snapshot_call call = { .m = m };
	call.snapshot = m->snapshots.n > 0 && m->live && !rec->recovered &&
			snapshot_subject_of_ras(rec, &call.subject);
	ras_record_write_json_extra(rec, &m->json, call.snapshot ? write_extra : NULL, &call);
	if (json_writer_failed(&m->json))
		return log_error_errno(-ENOMEM, "Out of memory rendering a record");
	e.json = json_writer_str(&m->json);
	if (call.snapshot) {
		e.snapshot_fields = m->snapshots.out.fields;
		e.n_snapshot_fields = m->snapshots.out.n_fields;
	}
	count_record(m, rec->source);
	return emit(m, &e);
}

static bool already_logged(void *core, const struct mce_record *rec)
{
	struct manager *m = core;

	for (size_t i = 0; i < m->n_sinks; i++) {
		const struct sink_slot *k = &m->sinks[i];

		if (k->state && k->ops->holds && k->ops->holds(k->state, rec) > 0) {
			log_debug("CPU %u bank %u status 0x%016llx: already in the %s output, from an "
				  "earlier run", rec->cpu, rec->bank, (unsigned long long) rec->status,
				  k->ops->name);
			return true;
		}
	}
	return false;
}

static void report_loss(void *core, enum mce_source source, unsigned cpu, uint64_t lost, bool at_start)
{
	struct manager *m = core;
	const char *name = mce_source_to_string(source);
	struct sink_entry e = { .kind = SINK_ENTRY_LOSS,
				.loss = { .source = name, .cpu = cpu, .lost = lost, .at_start = at_start } };

	if ((unsigned) source < _MCE_SOURCE_MAX)
		m->record_sources[source].n_lost += lost;
	log_error("Kernel reported %llu machine-check record(s) lost from %s on CPU %u%s",
		  (unsigned long long) lost, name, cpu, at_start ? LOSS_AT_START_TEXT : "");
	/* An object of its own, so mcectl query shows the gap among the records. */
	json_writer_reset(&m->json);
	json_object_begin(&m->json, NULL);
	json_put_time_usec(&m->json, "time", now_realtime_usec());
	json_put_string(&m->json, "event", "loss");
	if (m->hostname[0])
		json_put_string(&m->json, "hostname", m->hostname);
	if (m->boot_id[0])
		json_put_string(&m->json, "boot_id", m->boot_id);
	json_put_string(&m->json, "source", name);
	json_put_u64(&m->json, "cpu", cpu);
	json_put_u64(&m->json, "lost", lost);
	if (at_start)
		json_put_bool(&m->json, "at_start", true);
	json_object_end(&m->json);
	if (!json_writer_failed(&m->json))
		e.json = json_writer_str(&m->json);
	(void) emit(m, &e);
}

static void set_state(void *core, enum mce_source source, enum source_state state, const char *reason)
{
	struct manager *m = core;
	struct source_status *st;

	if ((unsigned) source >= _MCE_SOURCE_MAX)
		return;
	st = &m->record_sources[source];
	st->state = state;
	snprintf(st->reason, sizeof(st->reason), "%s", reason);
}

/* SOURCE_ACTIVE > SOURCE_UNAVAILABLE > SOURCE_DISABLED: one source that reads is enough. */
static void add_state(void *core, enum mce_source source, enum source_state state, const char *reason)
{
	struct manager *m = core;
	struct source_status *st;
	size_t n;

	if ((unsigned) source >= _MCE_SOURCE_MAX)
		return;
	st = &m->record_sources[source];
	if (state > st->state)
		st->state = state;
	n = strlen(st->reason);
	if (reason[0] && n + 2 < sizeof(st->reason))
		snprintf(st->reason + n, sizeof(st->reason) - n, "%s%s", n ? "; " : "", reason);
}

static enum source_state get_state(void *core, enum mce_source source)
{
	const struct manager *m = core;

	if ((unsigned) source >= _MCE_SOURCE_MAX)
		return SOURCE_DISABLED;
	return m->record_sources[source].state;
}

/*
 * The live daemon tells the kernel it reads the ras:* events while it does
 * (ras-daemon-active.h), after the readers opened and whenever what they read
 * changed.  Any one of them read counts: RAS= switches them together, and
 * the one that matters (extlog_mem_event) exists only where ACPI extlog does.
 * If on such a kernel that one alone could not be opened, extlog's records
 * would go to the trace instance only, and be logged at the next start.
 */
static void follow_ras_consumers(struct manager *m)
{
	bool consuming = false;

	if (!m->live || m->stopping)
		return;
	/* The ras:* events proper (record.h keeps them together), not the cxl:* and pci:* ones. */
	for (enum mce_source s = MCE_SOURCE_RAS_MC_EVENT; s <= MCE_SOURCE_RAS_NON_STANDARD_EVENT; s++)
		consuming |= m->record_sources[s].state == SOURCE_ACTIVE;
	ras_daemon_active_update(&m->ras_daemon_active, consuming);
}

static void sources_changed(void *core)
{
	follow_ras_consumers(core);
	manager_update_status(core);
}

/* ------------------------------------------------------------- lifetime */

int manager_init(struct manager *m, bool live)
{
	sd_id128_t boot;
	int r;

	m->live = live;
	ras_daemon_active_init(&m->ras_daemon_active, m->paths.debugfs);
	json_writer_init(&m->json);
	json_writer_init(&m->status_json);
	m->started_realtime_usec = now_realtime_usec();
	m->started_monotonic_usec = now_monotonic_usec();
	if (gethostname(m->hostname, sizeof(m->hostname)) < 0)
		m->hostname[0] = '\0';
	m->hostname[sizeof(m->hostname) - 1] = '\0';
	r = sd_id128_get_boot(&boot);
	if (r >= 0)
		sd_id128_to_string(boot, m->boot_id);
	else
		log_debug_errno(r, "Cannot read the boot id, records will carry none: %m");
	/* Offlined pages are bound to it (rule-state.h): a copied state names another machine's. */
	r = sd_id128_get_machine(&boot);
	if (r >= 0)
		sd_id128_to_string(boot, m->machine_id);
	else
		log_debug_errno(r, "Cannot read the machine id, offlined pages will carry none: %m");

	m->host = (struct source_host) {
		.event = m->event,
		.config = &m->config,
		.paths = &m->paths,
		.boot_id = m->boot_id,
		.submit = submit_record,
		.submit_ras = submit_ras,
		.already_logged = already_logged,
		.report_loss = report_loss,
		.set_state = set_state,
		.add_state = add_state,
		.get_state = get_state,
		.changed = sources_changed,
		.core = m,
	};
	m->storm = (struct storm_stage) {
		.event = m->event,
		.hostname = m->hostname,
		.boot_id = m->boot_id,
		.emit = emit_from_stage,
		.accounted = storms_accounted,
		.storm_logged = storm_logged,
		.core = m,
		.timer_usec = UINT64_MAX,
	};
	json_writer_init(&m->storm.json);
	m->rules = (struct rules_stage) {
		.emit = emit_from_stage,
		.acted = rules_acted,
		.core = m,
		.hostname = m->hostname,
		.boot_id = m->boot_id,
		.machine_id = m->machine_id,
		.act_pages = live,
		.act_cpus = live,
		.run_triggers = live,
		.event = m->event,
	};
	if (live) {
		m->dedup = calloc(1, sizeof(*m->dedup));
		if (!m->dedup)
			return log_error_errno(-ENOMEM, "Out of memory");
	}
	return 0;
}

static void close_sources(struct manager *m)
{
	for (size_t i = 0; i < m->n_sources; i++) {
		struct source_slot *s = &m->sources[i];

		if (s->state && s->ops->close)
			s->ops->close(s->state);
		s->state = NULL;
	}
}

const char *manager_metrics_text(struct manager *m)
{
	free(m->metrics_text);
	m->metrics_text = NULL;
	for (size_t i = 0; i < m->n_sinks; i++) {
		const struct sink_slot *k = &m->sinks[i];

		if (k->state && k->ops->metrics && k->ops->metrics(k->state, &m->metrics_text) >= 0)
			return m->metrics_text;
	}
	return NULL;
}

void manager_done(struct manager *m)
{
	free(m->edac_features);
	m->edac_features = NULL;
	free(m->metrics_text);
	m->metrics_text = NULL;
	/* First what only serves the running daemon: at the descriptor limit, what it frees
	 * (the control socket and its spare, the counters' events) is what saving the
	 * storms' and rules' state needs. */
	m->control = control_free(m->control);
	snapshot_stage_close(&m->snapshots);
	/* Normally closed at SIGTERM already; counts must reach the sinks before they close. */
	storm_stage_done(&m->storm);
	rules_stage_done(&m->rules);
	/* The listener first: its followers are what it hands the uevents to. */
	m->uevents = uevent_listener_free(m->uevents);
	m->hotplug = cpu_hotplug_free(m->hotplug);
	m->memory_online = memory_online_free(m->memory_online);
	m->status_refresh = sd_event_source_disable_unref(m->status_refresh);
	ras_daemon_active_release(&m->ras_daemon_active);
	close_sources(m);
	close_sinks(m);
	module_stage_done(&m->rules.modules);
	free(m->dedup);
	m->dedup = NULL;
	json_writer_done(&m->json);
	json_writer_done(&m->status_json);
	m->event = sd_event_unref(m->event);
}

/* -------------------------------------------------------------- sources */

int manager_set_sources(struct manager *m, const struct source_ops *const *table, size_t n)
{
	if (n > ELEMENTSOF(m->sources))
		return -E2BIG;
	for (size_t i = 0; i < n; i++)
		m->sources[i] = (struct source_slot) { .ops = table[i] };
	m->n_sources = n;
	return 0;
}

static int open_source(struct manager *m, struct source_slot *s)
{
	s->state = NULL;
	return s->ops->open(&m->host, &s->state);
}

int manager_open_sources(struct manager *m)
{
	int ret = 0;

	for (size_t i = 0; i < m->n_sources; i++) {
		int r = open_source(m, &m->sources[i]);

		if (r < 0 && ret == 0)
			ret = r;
	}
	follow_ras_consumers(m);
	return ret;
}

void manager_drain_sources(struct manager *m)
{
	for (size_t i = 0; i < m->n_sources; i++) {
		struct source_slot *s = &m->sources[i];

		if (s->state && s->ops->drain)
			s->ops->drain(s->state);
	}
}

void manager_reload_sources(struct manager *m, const struct mcelogd_config *old)
{
	for (size_t i = 0; i < m->n_sources; i++) {
		struct source_slot *s = &m->sources[i];

		if (!s->ops->reload_needed || !s->ops->reload_needed(old, &m->config))
			continue;
		/* What the old one holds is logged before it goes. */
		if (s->state && s->ops->drain)
			s->ops->drain(s->state);
		if (s->state && s->ops->close)
			s->ops->close(s->state);
		(void) open_source(m, s);
		/* As at start: what arrived while it opened is logged now. */
		if (s->state && s->ops->drain)
			s->ops->drain(s->state);
	}
	follow_ras_consumers(m);
	/* Changed [Snapshot] settings: the providers start afresh (their histories too). */
	if (m->snapshots.n > 0 && !snapshot_config_equal(&old->snapshot, &m->config.snapshot))
		open_snapshots(m);
	/* Changed [Storm] settings close the storms in progress and start afresh. */
	(void) storm_stage_setup(&m->storm, m->config.storm_enable, &m->config.storm);
}

void manager_stop(struct manager *m)
{
	int r;

	/* First, so that from here on extlog prints what it would trace for readers about to go;
	 * and for good: a reader that hangs up in the last drain must not take it again. */
	m->stopping = true;
	ras_daemon_active_release(&m->ras_daemon_active);
	/* Whatever the kernel already handed us is logged before we go. */
	manager_drain_sources(m);
	/* No count is lost across a stop: storms in progress get their last summary and end. */
	storm_stage_close(&m->storm, STORM_END_STOP);
	r = manager_sync_sinks(m, STOP_SYNC_USEC);
	if (r < 0)
		log_warning_errno(r, "Not every entry written before this stop is stored yet: %m; "
				  "mcectl query may not show the last ones");
}

void manager_cpu_changed(struct manager *m, unsigned cpu, bool online)
{
	bool changed = false;

	snapshot_stage_cpu_changed(&m->snapshots, cpu, online);
	for (size_t i = 0; i < m->n_sources; i++) {
		const struct source_slot *s = &m->sources[i];
		int (*fn)(void *, unsigned) = online ? s->ops->cpu_online : s->ops->cpu_offline;

		if (s->state && fn)
			changed |= fn(s->state, cpu) > 0;
	}
	if (changed) {
		follow_ras_consumers(m);
		manager_update_status(m);
	}
}

void manager_cpus_resync(struct manager *m, const bool *online, size_t n_online)
{
	/* A CPU may have gone down and up unseen (missed uevents, a suspend): its counter
	 * groups would be detached for good, so every online one is opened afresh. */
	for (size_t cpu = 0; cpu < n_online; cpu++) {
		snapshot_stage_cpu_changed(&m->snapshots, (unsigned) cpu, false);
		if (online[cpu])
			snapshot_stage_cpu_changed(&m->snapshots, (unsigned) cpu, true);
	}
	for (size_t i = 0; i < m->n_sources; i++) {
		const struct source_slot *s = &m->sources[i];

		if (s->state && s->ops->cpus_resync)
			(void) s->ops->cpus_resync(s->state, online, n_online);
	}
	follow_ras_consumers(m);
	manager_update_status(m);
}

/* --------------------------------------------------------------- status */

static int on_status_refresh(sd_event_source *s, uint64_t usec, void *userdata)
{
	(void) s;
	(void) usec;
	manager_update_status(userdata);
	return 0;
}

/* STATUS= (systemctl status) shows the record count at most a second late,
 * without a sd_notify() per record in a burst. */
static void schedule_status_refresh(struct manager *m)
{
	int enabled = SD_EVENT_OFF;

	if (!m->event)
		return;
	if (m->status_refresh) {
		if (sd_event_source_get_enabled(m->status_refresh, &enabled) >= 0 &&
		    enabled != SD_EVENT_OFF)
			return;
		(void) sd_event_source_set_time_relative(m->status_refresh, 1000000);
		(void) sd_event_source_set_enabled(m->status_refresh, SD_EVENT_ONESHOT);
		return;
	}
	(void) sd_event_add_time_relative(m->event, &m->status_refresh, CLOCK_MONOTONIC, 1000000,
					  100000, on_status_refresh, m);
}

static void count_record(struct manager *m, enum mce_source source)
{
	int64_t now = now_realtime_usec();

	schedule_status_refresh(m);
	m->n_records++;
	if ((unsigned) source < _MCE_SOURCE_MAX) {
		m->record_sources[source].n_records++;
		m->record_sources[source].last_record_usec = now;
	}
	m->last_record_usec = now;
}

void manager_notify(struct manager *m, const char *state)
{
	char what[160] = "";
	size_t n = 0;

	for (size_t i = 0; i < m->n_sources && n < sizeof(what); i++) {
		const struct source_slot *s = &m->sources[i];

		if (!s->state || !s->ops->describe)
			continue;
		if (n > 0)
			n += (size_t) snprintf(what + n, sizeof(what) - n, "; ");
		if (n < sizeof(what))
			n += s->ops->describe(s->state, what + n, sizeof(what) - n);
	}
	if (n == 0)
		snprintf(what, sizeof(what), "No machine-check source active");
	sd_notifyf(false, "%s%sSTATUS=%s%s; %llu records logged%s", state ?: "", state ? "\n" : "",
		   m->reload_failed ? "Reload failed, previous configuration kept (see the log); " : "",
		   what, (unsigned long long) m->n_records, m->hotplug ? "" : "; CPU hotplug not followed");
}

void manager_update_status(struct manager *m)
{
	manager_notify(m, NULL);
}
