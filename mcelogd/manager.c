/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-id128.h>
#include <time.h>
#include <unistd.h>

#include "control.h"
#include "cpu-hotplug.h"
#include "decode.h"
#include "log.h"
#include "mce-dedup.h"
#include "manager.h"
#include "ras-record.h"
#include "manager-storm.h"
#include "record-json.h"
#include "sink-journal.h"
#include "trace-buffer.h"
#include "source-dev-mcelog.h"
#include "source-msr.h"
#include "source-tracepoint.h"

int manager_init(struct manager *m)
{
	sd_id128_t boot;
	int r;

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
	return 0;
}

static void close_json_output(struct manager *m)
{
	if (m->json_out) {
		fflush(m->json_out);
		if (m->json_out_close)
			fclose(m->json_out);
	}
	m->json_out = NULL;
	m->json_out_close = false;
}

void manager_done(struct manager *m)
{
	/* Normally closed at SIGTERM already; counts must reach the outputs before they close. */
	manager_storm_close(m, STORM_END_STOP);
	m->storm_timer = sd_event_source_unref(m->storm_timer);
	close_json_output(m);
	json_writer_done(&m->json);
	m->control = control_free(m->control);
	json_writer_done(&m->status_json);
	m->hotplug = cpu_hotplug_free(m->hotplug);
	m->status_refresh = sd_event_source_disable_unref(m->status_refresh);
	m->tracepoint = tracepoint_source_free(m->tracepoint);
	m->trace_buffer = trace_buffer_free(m->trace_buffer);
	m->msr = msr_source_free(m->msr);
	m->dev_mcelog = dev_mcelog_source_free(m->dev_mcelog);
	m->event = sd_event_unref(m->event);
}

int manager_apply_config(struct manager *m)
{
	const char *json = m->arg_json_output ? m->arg_json_output : m->config.json_output;

	if (m->arg_no_journal)
		m->config.sink_journal = false;
	log_set_max_level(m->arg_log_level >= 0 ? m->arg_log_level : m->config.log_level);

	close_json_output(m);
	if (json[0] == '\0')
		return 0;
	if (streq(json, "-")) {
		m->json_out = stdout;
		return 0;
	}
	/* Appending: records already written by an earlier run must stay. */
	int fd = open(json, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0640);
	if (fd < 0)
		return log_error_errno(negative_errno(), "Failed to open JSON output %s: %m", json);
	m->json_out = fdopen(fd, "a");
	if (!m->json_out) {
		int r = negative_errno();

		close(fd);
		return log_error_errno(r, "Failed to open JSON output %s: %m", json);
	}
	m->json_out_close = true;
	return 0;
}

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
		m->sources[source].n_records++;
		m->sources[source].last_record_usec = now;
	}
	m->last_record_usec = now;
}

/* The journal write's result and the JSON-lines sink, the same for every record type. */
static int finish_sinks(struct manager *m, int journal_result, const char *json)
{
	int ret = 0;

	if (m->config.sink_journal) {
		if (journal_result >= 0)
			m->n_journal_written++;
		else {
			m->n_sink_failures++;
			ret = log_error_errno(journal_result, "Failed to write record to the journal: %m; "
					      "record was: %s", json);
		}
	}
	if (m->json_out) {
		if (fputs(json, m->json_out) < 0 || fputc('\n', m->json_out) < 0 ||
		    (m->json_flush_each && fflush(m->json_out) != 0)) {
			m->n_sink_failures++;
			ret = log_error_errno(-EIO, "Failed to write record to JSON output");
		}
	}
	return ret;
}

int manager_submit_record(struct manager *m, struct mce_record *rec)
{
	struct mce_decoded d;
	const char *json;

	if (m->mce_dedup && (rec->source == MCE_SOURCE_TRACEPOINT || rec->source == MCE_SOURCE_DEV_MCELOG) &&
	    mce_dedup_check(m->mce_dedup, rec)) {
		log_debug("CPU %u bank %u status 0x%016llx: already logged from the other live source",
			  rec->cpu, rec->bank, (unsigned long long) rec->status);
		return 0;
	}

	/* Identity of the machine that logs it, unless the record already names its own
	 * (a replayed record from another host keeps where it came from). */
	if (!rec->hostname[0])
		memcpy(rec->hostname, m->hostname, sizeof(rec->hostname));
	if (!rec->boot_id[0] && rec->source != MCE_SOURCE_REPLAY)
		memcpy(rec->boot_id, m->boot_id, sizeof(rec->boot_id));

	mce_decode(rec, &d);
	/* Counted in a storm: it reaches the outputs in the storm's summaries (manager-storm.h). */
	if (manager_storm_suppress(m, rec, &d)) {
		count_record(m, rec->source);
		return 0;
	}
	json_writer_reset(&m->json);
	mce_record_write_json(rec, &d, &m->json);
	if (json_writer_failed(&m->json))
		return log_error_errno(-ENOMEM, "Out of memory rendering a record");
	json = json_writer_str(&m->json);

	count_record(m, rec->source);
	return finish_sinks(m, m->config.sink_journal ? sink_journal_write(rec, &d, json) : 0, json);
}

int manager_submit_from_ring(struct manager *m, unsigned ring_cpu, struct mce_record *rec)
{
	int r;

	if (!trace_buffer_admit(m->trace_buffer, ring_cpu, rec))
		return 0;
	r = manager_submit_record(m, rec);
	trace_buffer_logged(m->trace_buffer, ring_cpu, rec);
	return r;
}

int manager_submit_ras(struct manager *m, struct ras_record *rec)
{
	const char *json;

	if (!rec->hostname[0])
		memcpy(rec->hostname, m->hostname, sizeof(rec->hostname));
	if (!rec->boot_id[0] && rec->source != MCE_SOURCE_REPLAY)
		memcpy(rec->boot_id, m->boot_id, sizeof(rec->boot_id));

	json_writer_reset(&m->json);
	ras_record_write_json(rec, &m->json);
	if (json_writer_failed(&m->json))
		return log_error_errno(-ENOMEM, "Out of memory rendering a record");
	json = json_writer_str(&m->json);

	count_record(m, rec->source);
	return finish_sinks(m, m->config.sink_journal ? sink_journal_write_ras(rec, json) : 0, json);
}

void manager_report_loss(struct manager *m, enum mce_source source, unsigned cpu, uint64_t lost)
{
	const char *name = mce_source_to_string(source);
	int r;

	if ((unsigned) source < _MCE_SOURCE_MAX)
		m->sources[source].n_lost += lost;
	log_error("Kernel reported %llu machine-check record(s) lost from %s on CPU %u",
		  (unsigned long long) lost, name, cpu);
	if (m->config.sink_journal) {
		r = sink_journal_write_loss(name, cpu, lost);
		if (r < 0)
			log_error_errno(r, "Failed to write loss record to the journal: %m");
	}
}

void manager_cpu_changed(struct manager *m, unsigned cpu, bool online)
{
	bool changed = false;

	/* Every per-CPU source follows here; each sets its own state and reason. */
	changed |= tracepoint_source_cpu_changed(m->tracepoint, cpu, online) > 0;
	if (changed)
		manager_update_status(m);
}

void manager_cpus_resync(struct manager *m, const bool *online, size_t n_online)
{
	(void) tracepoint_source_cpus_resync(m->tracepoint, online, n_online);
	manager_update_status(m);
}

void manager_update_status(struct manager *m)
{
	char what[160] = "";
	unsigned n_ras = 0;
	size_t n = 0;

	for (enum mce_source src = MCE_SOURCE_RAS_MC_EVENT; src <= MCE_SOURCE_RAS_NON_STANDARD_EVENT; src++)
		if (m->sources[src].state == SOURCE_ACTIVE)
			n_ras++;
	if (m->tracepoint && tracepoint_source_active(m->tracepoint)) {
		bool mce = m->sources[MCE_SOURCE_TRACEPOINT].state == SOURCE_ACTIVE;

		n += (size_t) snprintf(what + n, sizeof(what) - n, "Watching %s%s", mce ? "mce:mce_record" : "",
				       mce && n_ras ? " and " : "");
		if (n_ras && n < sizeof(what))
			n += (size_t) snprintf(what + n, sizeof(what) - n, "%u ras:* tracepoint(s)", n_ras);
		if (n < sizeof(what))
			n += (size_t) snprintf(what + n, sizeof(what) - n, " on %u CPUs",
					       tracepoint_source_n_cpus(m->tracepoint));
	}
	if (m->sources[MCE_SOURCE_MSR_POLL].state == SOURCE_ACTIVE && n < sizeof(what))
		n += (size_t) snprintf(what + n, sizeof(what) - n, "%sPolling MCA banks", n ? "; " : "");
	if (n == 0)
		snprintf(what, sizeof(what), "No machine-check source active");
	sd_notifyf(false, "STATUS=%s; %llu records logged%s", what, (unsigned long long) m->n_records,
		   m->hotplug ? "" : "; CPU hotplug not followed");
}

static const char *const source_state_names[_SOURCE_STATE_MAX] = {
	[SOURCE_DISABLED]    = "disabled",
	[SOURCE_UNAVAILABLE] = "unavailable",
	[SOURCE_ACTIVE]      = "active",
};

const char *source_state_to_string(enum source_state s)
{
	if ((unsigned) s >= _SOURCE_STATE_MAX)
		return "unknown";
	return source_state_names[s];
}

void manager_source_set_state(struct manager *m, enum mce_source source, enum source_state state,
			      const char *reason_fmt, ...)
{
	struct source_status *st;
	va_list ap;

	if ((unsigned) source >= _MCE_SOURCE_MAX)
		return;
	st = &m->sources[source];
	st->state = state;
	st->reason[0] = '\0';
	if (reason_fmt) {
		va_start(ap, reason_fmt);
		vsnprintf(st->reason, sizeof(st->reason), reason_fmt, ap);
		va_end(ap);
	}
}

uint64_t now_monotonic_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000 + (uint64_t) ts.tv_nsec / 1000;
}

int64_t now_realtime_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
