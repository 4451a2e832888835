/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "daemon-config.h"
#include "log.h"
#include "macro.h"
#include "parse-number.h"
#include "timespec.h"

void config_set_defaults(struct mcelogd_config *c)
{
	*c = (struct mcelogd_config) {
		.source_tracepoint = true,
		.trace_buffer = true,
		.source_dev_mcelog = CONFIG_TRISTATE_AUTO,
		.source_ras = true,
		.erst_remove = true,
		.sink_journal = true,
		.json_output = "",
		.spool_max_bytes = SPOOL_SIZE_DEFAULT,
		.log_level = LOG_INFO,
		.msr_poll = MSR_POLL_AUTO,
		.msr_poll_interval_usec = MSR_POLL_INTERVAL_DEFAULT_USEC,
		.storm_enable = true,
		.offline_again_at_boot = true,
		.repairs_per_device = REPAIRS_PER_DEVICE_DEFAULT,
		.repairs_per_day = REPAIRS_PER_DAY_DEFAULT,
		.modules = MODULE_THRESHOLDS_DEFAULT,
		.storm = {
			.burst = STORM_DEFAULT_BURST,
			.window_usec = STORM_DEFAULT_WINDOW_USEC,
			.summary_interval_usec = STORM_DEFAULT_SUMMARY_USEC,
			.quiet_usec = STORM_DEFAULT_QUIET_USEC,
			.max_signatures = STORM_DEFAULT_MAX_SIGNATURES,
		},
		.snapshot = {
			.counters = true,
			.interval_usec = SNAPSHOT_INTERVAL_DEFAULT_USEC,
			.history = SNAPSHOT_HISTORY_DEFAULT,
			.pt_buffer_size = SNAPSHOT_PT_BUFFER_DEFAULT,
			.pt_max_files = SNAPSHOT_PT_MAX_FILES_DEFAULT,
			.pt_max_bytes = SNAPSHOT_PT_MAX_BYTES_DEFAULT,
		},
	};
}

typedef int (*value_parser)(const char *value, void *dst, char *why, size_t why_len);

static int parse_bool(const char *v, void *dst, char *why, size_t why_len)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };

	for (size_t i = 0; i < ELEMENTSOF(yes); i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*(bool *) dst = true;
			return 0;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*(bool *) dst = false;
			return 0;
		}
	}
	snprintf(why, why_len, "expected a boolean (yes or no), got '%s'", v);
	return -EINVAL;
}

static int parse_tristate(const char *v, void *dst, char *why, size_t why_len)
{
	bool b;

	if (strcasecmp(v, "auto") == 0) {
		*(int *) dst = CONFIG_TRISTATE_AUTO;
		return 0;
	}
	if (parse_bool(v, &b, why, why_len) < 0) {
		snprintf(why, why_len, "expected auto, yes or no, got '%s'", v);
		return -EINVAL;
	}
	*(int *) dst = b ? CONFIG_TRISTATE_YES : CONFIG_TRISTATE_NO;
	return 0;
}

static int parse_output_path(const char *v, void *dst, char *why, size_t why_len)
{
	char *out = dst;
	size_t n = strlen(v);

	if (n >= sizeof(((struct mcelogd_config *) NULL)->json_output)) {
		snprintf(why, why_len, "path is too long");
		return -EINVAL;
	}
	if (n > 0 && !streq(v, "-") && v[0] != '/') {
		snprintf(why, why_len, "expected an absolute path, '-' for standard output, "
			 "or nothing to disable; got '%s'", v);
		return -EINVAL;
	}
	memcpy(out, v, n + 1);
	return 0;
}

/* node_exporter's textfile collector reads only *.prom files. */
static int parse_metrics_path(const char *v, void *dst, char *why, size_t why_len)
{
	char *out = dst;
	size_t n = strlen(v);

	if (n >= sizeof(((struct mcelogd_config *) NULL)->metrics_output)) {
		snprintf(why, why_len, "path is too long");
		return -EINVAL;
	}
	if (n > 0 && (v[0] != '/' || n < 6 || !streq(v + n - 5, ".prom") || v[n - 6] == '/')) {
		snprintf(why, why_len, "expected an absolute path to a file ending in .prom (the only "
			 "files node_exporter's textfile collector reads), or nothing to disable; got '%s'", v);
		return -EINVAL;
	}
	memcpy(out, v, n + 1);
	return 0;
}

int config_set_metrics_output(struct mcelogd_config *c, const char *path, char *why, size_t why_len)
{
	return parse_metrics_path(path, c->metrics_output, why, why_len);
}

static int parse_spool_size(const char *v, void *dst, char *why, size_t why_len)
{
	uint64_t bytes;

	if (parse_size(v, UINT64_MAX, &bytes) < 0 || bytes < SPOOL_SIZE_MIN || bytes > SPOOL_SIZE_MAX) {
		snprintf(why, why_len, "expected a size from 64K to 64G such as '64M', got '%s'", v);
		return -EINVAL;
	}
	*(uint64_t *) dst = bytes;
	return 0;
}

static int parse_log_level(const char *v, void *dst, char *why, size_t why_len)
{
	static const char *const names[] = {
		[LOG_EMERG] = "emerg", [LOG_ALERT] = "alert", [LOG_CRIT] = "crit",
		[LOG_ERR] = "err", [LOG_WARNING] = "warning", [LOG_NOTICE] = "notice",
		[LOG_INFO] = "info", [LOG_DEBUG] = "debug",
	};

	for (size_t i = 0; i < ELEMENTSOF(names); i++)
		if (strcasecmp(v, names[i]) == 0) {
			*(int *) dst = (int) i;
			return 0;
		}
	snprintf(why, why_len, "expected one of emerg, alert, crit, err, warning, notice, info, "
		 "debug; got '%s'", v);
	return -EINVAL;
}

static int parse_group_name(const char *v, void *dst, char *why, size_t why_len)
{
	size_t n = strlen(v);

	/* The POSIX portable name set, as useradd/groupadd accept it; resolved at start. */
	if (n >= sizeof(((struct mcelogd_config *) NULL)->socket_group)) {
		snprintf(why, why_len, "group name is too long");
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		char ch = v[i];

		if (!(isalnum((unsigned char) ch) || ch == '_' || ch == '.' || (ch == '-' && i > 0) ||
		      (ch == '$' && i == n - 1))) {
			snprintf(why, why_len, "'%s' is not a valid group name", v);
			return -EINVAL;
		}
	}
	memcpy(dst, v, n + 1);
	return 0;
}

static int parse_msr_poll(const char *v, void *dst, char *why, size_t why_len)
{
	bool b;

	if (strcasecmp(v, "auto") == 0) {
		*(enum msr_poll_mode *) dst = MSR_POLL_AUTO;
		return 0;
	}
	if (parse_bool(v, &b, why, why_len) < 0) {
		snprintf(why, why_len, "expected auto, yes or no; got '%s'", v);
		return -EINVAL;
	}
	*(enum msr_poll_mode *) dst = b ? MSR_POLL_YES : MSR_POLL_NO;
	return 0;
}

/* A time span within [min, max]; example and range name them in the error. */
static int parse_interval(const char *v, uint64_t min, uint64_t max, const char *example,
			  const char *range, uint64_t *dst, char *why, size_t why_len)
{
	int64_t usec;

	if (parse_time_span(v, &usec) < 0) {
		snprintf(why, why_len, "expected a time span such as %s; got '%s'", example, v);
		return -EINVAL;
	}
	if (usec < (int64_t) min || usec > (int64_t) max) {
		snprintf(why, why_len, "'%s' is out of range: between %s", v, range);
		return -EINVAL;
	}
	*dst = (uint64_t) usec;
	return 0;
}

static int parse_poll_interval(const char *v, void *dst, char *why, size_t why_len)
{
	return parse_interval(v, MSR_POLL_INTERVAL_MIN_USEC, MSR_POLL_INTERVAL_MAX_USEC,
			      "60s, 5min or 1h", "1s and 24h", dst, why, why_len);
}

/* A positive count; 0 is refused because it can only be a mistake (Enable=no turns storms off). */
static int parse_count(const char *v, uint64_t max, unsigned *dst, char *why, size_t why_len)
{
	uint64_t n;
	int r = parse_unsigned(v, strlen(v), 10, max, &n);

	if (r == -ERANGE || (r >= 0 && n == 0)) {
		snprintf(why, why_len, "expected a number from 1 to %llu, got '%s'",
			 (unsigned long long) max, v);
		return -EINVAL;
	}
	if (r < 0) {
		snprintf(why, why_len, "expected a whole number, got '%s'", v);
		return -EINVAL;
	}
	*dst = (unsigned) n;
	return 0;
}

/* Up to a million records per window: a bigger burst would itself flood the journal. */
#define STORM_BURST_MAX 1000000U

static int parse_storm_burst(const char *v, void *dst, char *why, size_t why_len)
{
	return parse_count(v, STORM_BURST_MAX, dst, why, why_len);
}

static int parse_storm_signatures(const char *v, void *dst, char *why, size_t why_len)
{
	return parse_count(v, STORM_MAX_SIGNATURES_LIMIT, dst, why, why_len);
}

/* A day is far beyond any sensible storm timing, and keeps sums of spans far from overflow. */
#define STORM_SPAN_MAX_USEC (UINT64_C(86400) * STORM_USEC_PER_SEC)

/* A time span as systemd writes them ("10s", "1min 30s", "500ms"; a bare number is seconds). */
static int parse_storm_span(const char *v, void *dst, char *why, size_t why_len)
{
	int64_t usec;

	if (parse_time_span(v, &usec) < 0) {
		snprintf(why, why_len, "expected a time span such as '10s', '1min' or '500ms', got '%s'", v);
		return -EINVAL;
	}
	if (usec <= 0 || (uint64_t) usec > STORM_SPAN_MAX_USEC) {
		snprintf(why, why_len, "expected a time span from 1us to 1d, got '%s'", v);
		return -EINVAL;
	}
	*(uint64_t *) dst = (uint64_t) usec;
	return 0;
}

/*
 * Counters=: event names separated by white space, as perf and libpfm4 spell
 * them ("cycles", "INST_RETIRED:ANY_P", "amd64_fam19h::RETIRED_OPS");
 * "no" turns the recorder off, nothing keeps the default set.
 */
static int parse_counter_events(const char *v, void *dst, char *why, size_t why_len)
{
	struct snapshot_config *s = dst;
	struct snapshot_config out = *s;
	const char *p = v;

	if (strcasecmp(v, "no") == 0 || strcasecmp(v, "off") == 0 || strcasecmp(v, "false") == 0) {
		s->counters = false;
		s->n_counter_events = 0;
		return 0;
	}
	out.counters = true;
	out.n_counter_events = 0;
	for (;;) {
		while (isspace((unsigned char) *p))
			p++;
		if (!*p)
			break;
		size_t n = 0;
		while (p[n] && !isspace((unsigned char) p[n]))
			n++;
		if (out.n_counter_events >= SNAPSHOT_COUNTER_EVENTS_MAX) {
			snprintf(why, why_len, "more than %d events", SNAPSHOT_COUNTER_EVENTS_MAX);
			return -EINVAL;
		}
		if (n >= SNAPSHOT_EVENT_NAME_MAX) {
			snprintf(why, why_len, "event name '%.*s...' is longer than %d bytes", 32, p,
				 SNAPSHOT_EVENT_NAME_MAX - 1);
			return -EINVAL;
		}
		for (size_t i = 0; i < n; i++) {
			unsigned char ch = (unsigned char) p[i];
			/* libpfm4's syntax: pmu::EVENT:UMASK:mod=value; perf's generic names have '-' */
			if (!(isalnum(ch) || strchr("_-.:=", ch))) {
				snprintf(why, why_len, "'%.*s' is not an event name (character '%c')",
					 (int) n, p, ch);
				return -EINVAL;
			}
		}
		for (size_t i = 0; i < out.n_counter_events; i++)
			if (strlen(out.counter_events[i]) == n && memcmp(out.counter_events[i], p, n) == 0) {
				snprintf(why, why_len, "event '%.*s' is named twice", (int) n, p);
				return -EINVAL;
			}
		memcpy(out.counter_events[out.n_counter_events], p, n);
		out.counter_events[out.n_counter_events][n] = '\0';
		out.n_counter_events++;
		p += n;
	}
	*s = out;
	return 0;
}

static int parse_snapshot_interval(const char *v, void *dst, char *why, size_t why_len)
{
	return parse_interval(v, SNAPSHOT_INTERVAL_MIN_USEC, SNAPSHOT_INTERVAL_MAX_USEC, "1s or 500ms",
			      "10ms and 1h", dst, why, why_len);
}

static int parse_snapshot_history(const char *v, void *dst, char *why, size_t why_len)
{
	uint64_t n;

	if (parse_unsigned(v, strlen(v), 10, SNAPSHOT_HISTORY_MAX, &n) < 0 || n < SNAPSHOT_HISTORY_MIN) {
		snprintf(why, why_len, "expected a number of reads from %d to %d, got '%s'",
			 SNAPSHOT_HISTORY_MIN, SNAPSHOT_HISTORY_MAX, v);
		return -EINVAL;
	}
	*(unsigned *) dst = (unsigned) n;
	return 0;
}

/* A size in bytes with an optional K, M or G (powers of 1024), as systemd reads them. */
static int parse_bytes(const char *v, uint64_t max, uint64_t *ret)
{
	size_t n = strlen(v);
	unsigned shift = 0;

	if (n > 0) {
		switch (v[n - 1]) {
		case 'K': shift = 10; break;
		case 'M': shift = 20; break;
		case 'G': shift = 30; break;
		}
		if (shift)
			n--;
	}
	uint64_t x;
	if (parse_unsigned(v, n, 10, max >> shift, &x) < 0)
		return -EINVAL;
	*ret = x << shift;
	return 0;
}

static int parse_pt_buffer_size(const char *v, void *dst, char *why, size_t why_len)
{
	uint64_t b;

	/* The perf AUX area is a power-of-two number of pages. */
	if (parse_bytes(v, SNAPSHOT_PT_BUFFER_MAX, &b) < 0 || b < SNAPSHOT_PT_BUFFER_MIN || (b & (b - 1))) {
		snprintf(why, why_len, "expected a power of two from 4K to 1G, got '%s'", v);
		return -EINVAL;
	}
	*(uint64_t *) dst = b;
	return 0;
}

/* RepairPersist=: soft (the default) or hard, said in words so that nobody allows a permanent repair by "yes". */
static int parse_repair_persist(const char *v, void *dst, char *why, size_t why_len)
{
	if (strcasecmp(v, "soft") != 0 && strcasecmp(v, "hard") != 0) {
		snprintf(why, why_len, "expected soft or hard, got '%s'", v);
		return -EINVAL;
	}
	*(bool *) dst = strcasecmp(v, "hard") == 0;
	return 0;
}

/* A repair limit: at least one (Repair=no is how to have none). */
static int parse_repair_limit(const char *v, void *dst, char *why, size_t why_len)
{
	return parse_count(v, REPAIRS_MAX, dst, why, why_len);
}

/* A verdict threshold: a count, 0 for never (mcelogd.conf(5), MODULES). */
static int parse_module_threshold(const char *v, void *dst, char *why, size_t why_len)
{
	uint64_t n;

	if (parse_unsigned(v, strlen(v), 10, MODULE_THRESHOLD_MAX, &n) < 0) {
		snprintf(why, why_len, "expected a number from 0 (never) to %u, got '%s'", MODULE_THRESHOLD_MAX, v);
		return -EINVAL;
	}
	*(unsigned *) dst = (unsigned) n;
	return 0;
}

static int parse_pt_max_files(const char *v, void *dst, char *why, size_t why_len)
{
	return parse_count(v, SNAPSHOT_PT_MAX_FILES_MAX, dst, why, why_len);
}

static int parse_pt_max_bytes(const char *v, void *dst, char *why, size_t why_len)
{
	uint64_t b;

	if (parse_bytes(v, UINT64_C(1) << 40, &b) < 0 || b == 0) {
		snprintf(why, why_len, "expected a size such as 256M or 1G (at most 1T), got '%s'", v);
		return -EINVAL;
	}
	*(uint64_t *) dst = b;
	return 0;
}

/* Section.Key → parser → field.  Keep in the order mcelogd.conf(5) documents them. */
static const struct config_key {
	const char *section;
	const char *key;
	value_parser parse;
	size_t offset;
} config_keys[] = {
	{ "Sources", "Tracepoint", parse_bool,        offsetof(struct mcelogd_config, source_tracepoint) },
	{ "Sources", "TraceBuffer", parse_bool,       offsetof(struct mcelogd_config, trace_buffer) },
	{ "Sources", "MSRPoll",    parse_msr_poll,    offsetof(struct mcelogd_config, msr_poll) },
	{ "Sources", "MSRPollInterval", parse_poll_interval,
	  offsetof(struct mcelogd_config, msr_poll_interval_usec) },
	{ "Sources", "DevMcelog",  parse_tristate,    offsetof(struct mcelogd_config, source_dev_mcelog) },
	{ "Sources", "RAS",        parse_bool,        offsetof(struct mcelogd_config, source_ras) },
	{ "Sources", "ErstRemove", parse_bool,        offsetof(struct mcelogd_config, erst_remove) },
	{ "Output",  "Journal",    parse_bool,        offsetof(struct mcelogd_config, sink_journal) },
	{ "Output",  "JSON",       parse_output_path, offsetof(struct mcelogd_config, json_output) },
	{ "Output",  "SpoolSize",  parse_spool_size,  offsetof(struct mcelogd_config, spool_max_bytes) },
	{ "Output",  "Metrics",    parse_metrics_path, offsetof(struct mcelogd_config, metrics_output) },
	{ "Daemon",  "LogLevel",   parse_log_level,   offsetof(struct mcelogd_config, log_level) },
	{ "Daemon",  "SocketGroup", parse_group_name, offsetof(struct mcelogd_config, socket_group) },
	{ "Storm",   "Enable",     parse_bool,        offsetof(struct mcelogd_config, storm_enable) },
	{ "Storm",   "Burst",      parse_storm_burst, offsetof(struct mcelogd_config, storm.burst) },
	{ "Storm",   "Window",     parse_storm_span,  offsetof(struct mcelogd_config, storm.window_usec) },
	{ "Storm",   "SummaryInterval", parse_storm_span,
	  offsetof(struct mcelogd_config, storm.summary_interval_usec) },
	{ "Storm",   "QuietTime",  parse_storm_span,  offsetof(struct mcelogd_config, storm.quiet_usec) },
	{ "Storm",   "MaxSignatures", parse_storm_signatures,
	  offsetof(struct mcelogd_config, storm.max_signatures) },
	{ "Snapshot", "Counters",  parse_counter_events, offsetof(struct mcelogd_config, snapshot) },
	{ "Snapshot", "Interval",  parse_snapshot_interval,
	  offsetof(struct mcelogd_config, snapshot.interval_usec) },
	{ "Snapshot", "History",   parse_snapshot_history, offsetof(struct mcelogd_config, snapshot.history) },
	{ "Snapshot", "ProcessorTrace", parse_bool,  offsetof(struct mcelogd_config, snapshot.processor_trace) },
	{ "Memory",  "OfflineAgainAtBoot", parse_bool, offsetof(struct mcelogd_config, offline_again_at_boot) },
	{ "Memory",  "Repair",     parse_bool,        offsetof(struct mcelogd_config, memory_repair) },
	{ "Memory",  "RepairPersist", parse_repair_persist, offsetof(struct mcelogd_config, repair_hard) },
	{ "Memory",  "RepairsPerDevice", parse_repair_limit, offsetof(struct mcelogd_config, repairs_per_device) },
	{ "Memory",  "RepairsPerDay", parse_repair_limit, offsetof(struct mcelogd_config, repairs_per_day) },
	{ "Modules", "WatchCorrected", parse_module_threshold,
	  offsetof(struct mcelogd_config, modules.watch_corrected) },
	{ "Modules", "ReplaceUncorrected", parse_module_threshold,
	  offsetof(struct mcelogd_config, modules.replace_uncorrected) },
	{ "Modules", "ReplaceCorrectedPerWeek", parse_module_threshold,
	  offsetof(struct mcelogd_config, modules.replace_corrected_week) },
	{ "Modules", "ReplaceBanks", parse_module_threshold, offsetof(struct mcelogd_config, modules.replace_banks) },
	{ "Modules", "IsolatingPages", parse_module_threshold,
	  offsetof(struct mcelogd_config, modules.isolating_pages) },
	{ "Modules", "RepairExhaustedFailures", parse_module_threshold,
	  offsetof(struct mcelogd_config, modules.exhausted_failed) },
	{ "Snapshot", "PTBufferSize", parse_pt_buffer_size,
	  offsetof(struct mcelogd_config, snapshot.pt_buffer_size) },
	{ "Snapshot", "PTMaxFiles", parse_pt_max_files, offsetof(struct mcelogd_config, snapshot.pt_max_files) },
	{ "Snapshot", "PTMaxBytes", parse_pt_max_bytes, offsetof(struct mcelogd_config, snapshot.pt_max_bytes) },
};

static bool section_known(const char *s)
{
	for (size_t i = 0; i < ELEMENTSOF(config_keys); i++)
		if (streq(config_keys[i].section, s))
			return true;
	return false;
}

_printf_(5, 6)
static void report(config_error_fn err, void *userdata, const char *file, unsigned line,
		   const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err(file, line, msg, userdata);
}

int config_parse_text(const char *text, size_t len, const char *file, struct mcelogd_config *c,
		      config_error_fn err, void *userdata)
{
	char section[64] = "";
	bool section_ok = false;
	unsigned lineno = 0, errors = 0;
	const char *p = text, *end = text + len;

	/* A UTF-8 byte-order mark (some editors write one) is not part of the first line. */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t) (end - p));
		size_t n = nl ? (size_t) (nl - p) : (size_t) (end - p);
		char buf[4608], *line, *eq, *key, *value;
		const struct config_key *k = NULL;
		char why[512];

		const char *start = p;

		lineno++;
		p = nl ? nl + 1 : end;
		if (n >= sizeof(buf)) {
			report(err, userdata, file, lineno, "line is too long (%zu bytes)", n);
			errors++;
			continue;
		}
		memcpy(buf, start, n);
		buf[n] = '\0';
		if (memchr(buf, '\0', n)) {
			report(err, userdata, file, lineno, "line contains a NUL byte");
			errors++;
			continue;
		}
		line = strip(buf);
		if (!*line || *line == '#' || *line == ';')
			continue;

		if (*line == '[') {
			char *close = strchr(line, ']');

			if (!close || close[1] != '\0' || close - line - 1 >= (long) sizeof(section) ||
			    close == line + 1) {
				report(err, userdata, file, lineno, "malformed section header '%s'", line);
				errors++;
				section_ok = false;
				continue;
			}
			*close = '\0';
			snprintf(section, sizeof(section), "%s", line + 1);
			section_ok = section_known(section);
			if (!section_ok) {
				report(err, userdata, file, lineno, "unknown section [%s]", section);
				errors++;
			}
			continue;
		}

		eq = strchr(line, '=');
		if (!eq) {
			report(err, userdata, file, lineno, "expected 'Key=Value', got '%s'", line);
			errors++;
			continue;
		}
		*eq = '\0';
		key = strip(line);
		value = strip(eq + 1);
		if (!section[0]) {
			report(err, userdata, file, lineno, "key '%s' outside of any section", key);
			errors++;
			continue;
		}
		if (!section_ok)
			continue;   /* already reported the section */
		for (size_t i = 0; i < ELEMENTSOF(config_keys); i++)
			if (streq(config_keys[i].section, section) && streq(config_keys[i].key, key))
				k = &config_keys[i];
		if (!k) {
			report(err, userdata, file, lineno, "unknown key '%s' in section [%s]", key, section);
			errors++;
			continue;
		}
		if (k->parse(value, (char *) c + k->offset, why, sizeof(why)) < 0) {
			report(err, userdata, file, lineno, "bad value for %s=: %s", key, why);
			errors++;
		}
	}
	return errors ? -EINVAL : 0;
}

static void log_config_error(const char *file, unsigned line, const char *msg, void *userdata)
{
	(void) userdata;
	log_error("%s:%u: %s", file, line, msg);
}

int config_load(const char *path, bool missing_ok, struct mcelogd_config *c)
{
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *text = NULL;
	size_t len = 0, cap = 0;
	char chunk[4096];
	size_t n;

	f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT && missing_ok) {
			log_debug("No configuration file %s, using defaults", path);
			return 0;
		}
		return log_error_errno(negative_errno(), "Failed to open configuration file %s: %m", path);
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (len + n > 1024 * 1024)
			return log_error_errno(-EFBIG, "%s: configuration file larger than 1 MiB", path);
		if (len + n > cap) {
			char *p;

			cap = (len + n) * 2;
			p = realloc(text, cap);
			if (!p)
				return log_error_errno(-ENOMEM, "Out of memory");
			text = p;
		}
		memcpy(text + len, chunk, n);
		len += n;
	}
	if (ferror(f))
		return log_error_errno(-EIO, "Failed to read %s", path);
	return config_parse_text(text ? text : "", len, path, c, log_config_error, NULL);
}
