/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "cpu-hotplug.h"
#include "uevent-listener.h"
#include "edac-features.h"
#include "json-writer.h"
#include "kernel-cec.h"
#include "macro.h"
#include "manager.h"
#include "status-json.h"

/* The live sources, in the order an operator reads them: MCA first, then the rest. */
static const enum mce_source live_sources[] = {
	MCE_SOURCE_TRACEPOINT,
	MCE_SOURCE_MSR_POLL,
	MCE_SOURCE_DEV_MCELOG,
	MCE_SOURCE_PREVIOUS_BOOT,
	MCE_SOURCE_RAS_MC_EVENT,
	MCE_SOURCE_RAS_AER_EVENT,
	MCE_SOURCE_RAS_MEMORY_FAILURE_EVENT,
	MCE_SOURCE_RAS_EXTLOG_MEM_EVENT,
	MCE_SOURCE_RAS_ARM_EVENT,
	MCE_SOURCE_RAS_NON_STANDARD_EVENT,
	MCE_SOURCE_CXL_AER_UNCORRECTABLE,
	MCE_SOURCE_CXL_AER_CORRECTABLE,
	MCE_SOURCE_CXL_PORT_AER_UNCORRECTABLE,
	MCE_SOURCE_CXL_PORT_AER_CORRECTABLE,
	MCE_SOURCE_CXL_OVERFLOW,
	MCE_SOURCE_CXL_GENERIC_EVENT,
	MCE_SOURCE_CXL_GENERAL_MEDIA,
	MCE_SOURCE_CXL_DRAM,
	MCE_SOURCE_CXL_MEMORY_MODULE,
	MCE_SOURCE_CXL_POISON,
	MCE_SOURCE_CXL_MEMORY_SPARING,
	MCE_SOURCE_PCI_HP_EVENT,
	MCE_SOURCE_PCIE_LINK_EVENT,
	MCE_SOURCE_DEVLINK_HEALTH_REPORT,
	MCE_SOURCE_DEVLINK_RECOVER_ABORTED,
	MCE_SOURCE_SIGNAL_GENERATE,
	MCE_SOURCE_BLOCK_RQ_ERROR,
	MCE_SOURCE_BLOCK_RQ_COMPLETE,
};

static void write_source(struct json_writer *w, enum mce_source id, const struct source_status *st)
{
	json_object_begin(w, NULL);
	json_put_string(w, "name", mce_source_to_string(id));
	json_put_string(w, "state", source_state_to_string(st->state));
	if (st->reason[0])
		json_put_string(w, "reason", st->reason);
	json_put_u64(w, "records", st->n_records);
	json_put_u64(w, "lost", st->n_lost);
	if (st->last_record_usec > 0)
		json_put_time_usec(w, "last_record", st->last_record_usec);
	json_object_end(w);
}

static void write_sink(struct json_writer *w, const struct sink_slot *k)
{
	json_object_begin(w, NULL);
	json_put_string(w, "name", k->ops->name);
	json_put_bool(w, "open", k->state != NULL);
	json_put_u64(w, "entries", k->n_written);
	json_put_u64(w, "records", k->n_records_written);
	json_put_u64(w, "failures", k->n_failures);
	if (k->state && k->ops->status)
		k->ops->status(k->state, w);
	json_object_end(w);
}

/* "journal_entries": the records the journal took, as mcectl status has always shown. */
/* Bytes of this process's perf mappings (tracepoint and counter rings): what counts
 * against perf_event_mlock_kb and RLIMIT_MEMLOCK. */
static int perf_mapped_bytes(uint64_t *ret)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	uint64_t sum = 0;

	if (!f)
		return negative_errno();
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end;
		if (strstr(line, "[perf_event]") && sscanf(line, "%llx-%llx", &start, &end) == 2 && end > start)
			sum += end - start;
	}
	*ret = sum;
	return 0;
}

/* What the machine's CPU count costs in descriptors (fd-budget.h), now and at the
 * snapshot providers' start, and in perf ring memory. */
static void write_descriptors(struct json_writer *w, const struct manager *m)
{
	uint64_t open_now = 0, ring = 0;

	json_object_begin(w, "descriptors");
	if (fd_count_open(&open_now) >= 0)
		json_put_u64(w, "open", open_now);
	if (perf_mapped_bytes(&ring) >= 0)
		json_put_u64(w, "perf_ring_bytes", ring);
	if (m->fds.limit > 0 && m->fds.limit != UINT64_MAX) {
		json_put_u64(w, "limit", m->fds.limit);
		json_put_u64(w, "open_before_snapshots", m->fds.in_use);
		json_put_u64(w, "kept_back", m->fds.reserve);
		json_put_u64(w, "snapshots", m->fds.granted);
	}
	json_object_end(w);
}

static uint64_t journal_records(const struct manager *m)
{
	for (size_t i = 0; i < m->n_sinks; i++)
		if (streq(m->sinks[i].ops->name, "journal"))
			return m->sinks[i].n_records_written;
	return 0;
}

/*
 * What the EDAC memory RAS controls offer (scrub, ECS, repair).  In the
 * kernel each scrub or ECS attribute read is a Get Feature mailbox command
 * to the device (review M12), so a status polled in a loop would keep the
 * devices busy: read at most once per EDAC_FEATURES_TTL_USEC, the last
 * reading reused in between.  A value changed by hand shows within that.
 */
#define EDAC_FEATURES_MAX 64
#define EDAC_FEATURES_TTL_USEC (10 * 1000000ULL)

static void write_edac_features(struct json_writer *w, struct manager *m)
{
	uint64_t now = now_monotonic_usec();

	if (!m->edac_features) {
		m->edac_features = calloc(EDAC_FEATURES_MAX, sizeof(*m->edac_features));
		if (!m->edac_features)
			return;
	}
	if (m->edac_features_usec == 0 || now >= m->edac_features_usec + EDAC_FEATURES_TTL_USEC) {
		m->n_edac_features = edac_features_read(NULL, m->edac_features, EDAC_FEATURES_MAX);
		m->edac_features_usec = now;
	}
	edac_features_write_json(m->edac_features, m->n_edac_features, w);
}

/* Read now, at each status: the threshold can be changed by hand at any time. */
static void write_kernel_cec(struct json_writer *w, const struct manager *m)
{
	struct kernel_cec c;

	kernel_cec_read(m->paths.debugfs, &c);
	kernel_cec_write_status(&c, w);
}

const char *status_json_render(struct manager *m)
{
	struct json_writer *w = &m->status_json;
	uint64_t uptime = now_monotonic_usec() - m->started_monotonic_usec;

	json_writer_reset(w);
	json_object_begin(w, NULL);
	json_put_string(w, "version", PACKAGE_VERSION);
	json_put_i64(w, "pid", (int64_t) getpid());
	json_put_time_usec(w, "started", m->started_realtime_usec);
	json_put_u64(w, "uptime_sec", uptime / 1000000);
	if (m->hostname[0])
		json_put_string(w, "hostname", m->hostname);
	if (m->boot_id[0])
		json_put_string(w, "boot_id", m->boot_id);
	json_put_u64(w, "records", m->n_records);
	json_put_u64(w, "journal_entries", journal_records(m));
	json_put_u64(w, "sink_failures", m->n_sink_failures);
	if (m->last_record_usec > 0)
		json_put_time_usec(w, "last_record", m->last_record_usec);
	json_put_bool(w, "cpu_hotplug_followed", m->hotplug != NULL);
	ras_daemon_active_write_status(&m->ras_daemon_active, w);
	if (m->hotplug) {
		struct uevent_listener_counts l;
		struct cpu_hotplug_counts k;

		cpu_hotplug_get_counts(m->hotplug, &k);
		uevent_listener_get_counts(m->uevents, &l);
		json_object_begin(w, "cpu_hotplug");
		json_put_u64(w, "events", k.events);
		/* The socket's, kept here where they were before other followers shared it. */
		json_put_u64(w, "foreign_dropped", l.foreign);
		json_put_u64(w, "overruns", l.overruns);
		json_put_u64(w, "resumes", k.resumes);
		json_object_end(w);
	}
	write_descriptors(w, m);
	json_array_begin(w, "sources");
	for (size_t i = 0; i < ELEMENTSOF(live_sources); i++)
		write_source(w, live_sources[i], &m->record_sources[live_sources[i]]);
	json_array_end(w);
	json_array_begin(w, "sinks");
	for (size_t i = 0; i < m->n_sinks; i++)
		write_sink(w, &m->sinks[i]);
	json_array_end(w);
	snapshot_stage_status(&m->snapshots, w);
	storm_stage_write_status(&m->storm, w);
	rules_stage_write_memory_status(&m->rules, w);
	rules_stage_write_module_status(&m->rules, w);
	write_edac_features(w, m);
	write_kernel_cec(w, m);
	json_object_end(w);
	if (json_writer_failed(w))
		return NULL;
	return json_writer_str(w);
}
