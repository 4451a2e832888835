/* SPDX-License-Identifier: MIT */
/* mcelogd.conf parsing: values, and every error named with file, line and key. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <cmocka.h>

#include "daemon-config.h"
#include "macro.h"
#include "cpu-list.h"

struct errors {
	unsigned n;
	unsigned line[8];
	char msg[8][512];
};

static void collect(const char *file, unsigned line, const char *msg, void *userdata)
{
	struct errors *e = userdata;

	assert_string_equal(file, "test.conf");
	if (e->n < 8) {
		e->line[e->n] = line;
		snprintf(e->msg[e->n], sizeof(e->msg[0]), "%s", msg);
	}
	e->n++;
}

static int parse(const char *text, struct mcelogd_config *c, struct errors *e)
{
	config_set_defaults(c);
	*e = (struct errors) { 0 };
	return config_parse_text(text, strlen(text), "test.conf", c, collect, e);
}

static void test_defaults_and_values(void **state)
{
	struct mcelogd_config c;
	struct errors e;

	(void) state;
	assert_int_equal(parse("", &c, &e), 0);
	assert_true(c.source_tracepoint);
	assert_true(c.source_ras);
	assert_true(c.sink_journal);
	assert_string_equal(c.json_output, "");
	assert_int_equal(c.log_level, LOG_INFO);

	assert_int_equal(parse("# comment\n; other comment\n\n[Sources]\nTracepoint = no\n"
			       "[Output]\nJournal=off\nJSON=/var/log/mce.jsonl\n[Daemon]\nLogLevel=debug\n",
			       &c, &e), 0);
	assert_int_equal(e.n, 0);
	assert_false(c.source_tracepoint);
	assert_false(c.sink_journal);
	assert_string_equal(c.json_output, "/var/log/mce.jsonl");
	assert_int_equal(c.log_level, LOG_DEBUG);
	assert_true(c.source_ras);

	/* Metrics=: node_exporter's textfile collector reads *.prom files only. */
	assert_int_equal(parse("[Output]\nMetrics=/var/lib/prometheus/node-exporter/mcelogd.prom\n", &c, &e), 0);
	assert_string_equal(c.metrics_output, "/var/lib/prometheus/node-exporter/mcelogd.prom");
	assert_int_equal(parse("[Output]\nMetrics=\n", &c, &e), 0);
	assert_string_equal(c.metrics_output, "");
	assert_int_equal(parse("[Output]\nMetrics=/var/lib/mcelogd/metrics.txt\n", &c, &e), -EINVAL);
	assert_non_null(strstr(e.msg[0], "ending in .prom"));
	assert_int_equal(parse("[Output]\nMetrics=/var/lib/prometheus/.prom\n", &c, &e), -EINVAL);
	assert_int_equal(parse("[Output]\nMetrics=mcelogd.prom\n", &c, &e), -EINVAL);

	assert_int_equal(parse("[Sources]\nRAS=no\n", &c, &e), 0);
	assert_false(c.source_ras);
	assert_true(c.erst_remove);
	assert_int_equal(parse("[Sources]\nErstRemove=no\n", &c, &e), 0);
	assert_false(c.erst_remove);
	assert_true(c.source_tracepoint);
	assert_int_equal(parse("[Sources]\nRAS=sometimes\n", &c, &e), -EINVAL);
	assert_int_equal(e.line[0], 2);
	assert_non_null(strstr(e.msg[0], "RAS="));
}

static void test_errors_named(void **state)
{
	struct mcelogd_config c;
	struct errors e;

	(void) state;
	assert_int_equal(parse("[Sources]\nTracepiont=yes\nTracepoint=maybe\n[Bogus]\nX=1\n"
			       "[Output]\nJSON=relative/path\nno equals sign\n", &c, &e), -EINVAL);
	assert_int_equal(e.n, 5);
	assert_int_equal(e.line[0], 2);
	assert_non_null(strstr(e.msg[0], "unknown key 'Tracepiont'"));
	assert_non_null(strstr(e.msg[0], "[Sources]"));
	assert_int_equal(e.line[1], 3);
	assert_non_null(strstr(e.msg[1], "Tracepoint="));
	assert_non_null(strstr(e.msg[1], "maybe"));
	assert_int_equal(e.line[2], 4);
	assert_non_null(strstr(e.msg[2], "unknown section [Bogus]"));
	/* keys of an unknown section are not reported again */
	assert_int_equal(e.line[3], 7);
	assert_non_null(strstr(e.msg[3], "absolute path"));
	assert_int_equal(e.line[4], 8);
	assert_non_null(strstr(e.msg[4], "Key=Value"));
	/* a good value before or after a bad one still counts */
	assert_true(c.source_tracepoint);
}

static void test_key_outside_section(void **state)
{
	struct mcelogd_config c;
	struct errors e;

	(void) state;
	assert_int_equal(parse("Tracepoint=yes\n[Sources\n", &c, &e), -EINVAL);
	assert_int_equal(e.n, 2);
	assert_non_null(strstr(e.msg[0], "outside of any section"));
	assert_non_null(strstr(e.msg[1], "malformed section header"));
}

static void test_hostile_input(void **state)
{
	struct mcelogd_config c;
	struct errors e;
	static char big[10000];
	static const char nul[] = "[Sources]\nTrace\0point=yes\n";

	(void) state;
	memset(big, 'A', sizeof(big) - 1);
	assert_int_equal(parse(big, &c, &e), -EINVAL);
	assert_non_null(strstr(e.msg[0], "too long"));
	config_set_defaults(&c);
	e = (struct errors) { 0 };
	assert_int_equal(config_parse_text(nul, sizeof(nul) - 1, "test.conf", &c, collect, &e), -EINVAL);
	assert_non_null(strstr(e.msg[0], "NUL"));
}

/* Field by field: memcmp would compare padding, which assignment leaves unspecified. */
static bool config_equal(const struct mcelogd_config *a, const struct mcelogd_config *b)
{
	return a->source_tracepoint == b->source_tracepoint && a->trace_buffer == b->trace_buffer &&
	       a->source_dev_mcelog == b->source_dev_mcelog && a->source_ras == b->source_ras &&
	       a->erst_remove == b->erst_remove &&
	       a->sink_journal == b->sink_journal && streq(a->json_output, b->json_output) &&
	       streq(a->metrics_output, b->metrics_output) &&
	       a->spool_max_bytes == b->spool_max_bytes && a->log_level == b->log_level &&
	       streq(a->socket_group, b->socket_group) && a->msr_poll == b->msr_poll &&
	       a->msr_poll_interval_usec == b->msr_poll_interval_usec && a->storm_enable == b->storm_enable &&
	       a->storm.burst == b->storm.burst && a->storm.window_usec == b->storm.window_usec &&
	       a->storm.summary_interval_usec == b->storm.summary_interval_usec &&
	       a->storm.quiet_usec == b->storm.quiet_usec && a->storm.max_signatures == b->storm.max_signatures;
}

/*
 * Every key against values an operator could type by mistake: each is one
 * error on its line naming the key and the value, and leaves the setting as
 * it was (the defaults here), so a typo never half-applies.
 */
static void test_bad_value_matrix(void **state)
{
	static const struct {
		const char *section, *key;
		bool empty_ok;    /* "" is a value: JSON= off, SocketGroup= root only */
		bool name;        /* any portable name is a value (a group, resolved at start) */
	} keys[] = {
		{ "Sources", "Tracepoint" }, { "Sources", "TraceBuffer" }, { "Sources", "MSRPoll" },
		{ "Sources", "MSRPollInterval" }, { "Sources", "DevMcelog" }, { "Sources", "RAS" },
		{ "Output", "Journal" }, { "Output", "JSON", true }, { "Output", "SpoolSize" }, { "Output", "Metrics", true },
		{ "Daemon", "LogLevel" },
		{ "Daemon", "SocketGroup", true, true }, { "Storm", "Enable" }, { "Storm", "Burst" },
		{ "Storm", "Window" }, { "Storm", "SummaryInterval" }, { "Storm", "QuietTime" },
		{ "Storm", "MaxSignatures" }, { "Memory", "Repair" }, { "Memory", "RepairsPerDevice" },
		{ "Memory", "RepairsPerDay" }, { "Memory", "RepairPersist" },
		{ "Modules", "WatchCorrected" }, { "Modules", "ReplaceUncorrected" },
		{ "Modules", "ReplaceCorrectedPerWeek" }, { "Modules", "ReplaceBanks" },
		{ "Modules", "IsolatingPages" }, { "Modules", "RepairExhaustedFailures" },
	};
	/* Wrong for every key: no key takes any of these. */
	static const char *const values[] = {
		"", "maybe", "-1", "99999999999999999999999999", "0x", "1e3", "yes please",
		"\xff\xfe", "relative/path", "10 parsecs", "$(reboot)", "1s2",
	};
	struct mcelogd_config defaults, c;
	struct errors e;
	char text[256];

	(void) state;
	config_set_defaults(&defaults);
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); v++) {
			if ((keys[k].empty_ok && !values[v][0]) ||
			    (keys[k].name && values[v][0] && values[v][0] != '-' &&
			     strspn(values[v], "abcdefghijklmnopqrstuvwxyz0123456789_.-") == strlen(values[v])))
				continue;
			snprintf(text, sizeof(text), "# a comment\n[%s]\n%s=%s\n", keys[k].section, keys[k].key,
				 values[v]);
			if (parse(text, &c, &e) != -EINVAL || e.n != 1 || e.line[0] != 3 ||
			    !strstr(e.msg[0], keys[k].key) ||
			    (values[v][0] && !strstr(e.msg[0], values[v])) ||
			    !config_equal(&c, &defaults))
				fail_msg("%s=%s: %u error(s), line %u: %s", keys[k].key, values[v], e.n,
					 e.line[0], e.n ? e.msg[0] : "(none)");
		}
}

static void test_msr_poll(void **state)
{
	struct mcelogd_config c;
	struct errors e;

	(void) state;
	assert_int_equal(parse("", &c, &e), 0);
	assert_int_equal(c.msr_poll, MSR_POLL_AUTO);
	assert_int_equal(c.msr_poll_interval_usec, 60 * 1000000ULL);

	assert_int_equal(parse("[Sources]\nMSRPoll=yes\nMSRPollInterval=5min\n", &c, &e), 0);
	assert_int_equal(c.msr_poll, MSR_POLL_YES);
	assert_int_equal(c.msr_poll_interval_usec, 300 * 1000000ULL);
	assert_int_equal(parse("[Sources]\nMSRPoll=off\nMSRPoll=auto\nMSRPollInterval=2\n", &c, &e), 0);
	assert_int_equal(c.msr_poll, MSR_POLL_AUTO);
	assert_int_equal(c.msr_poll_interval_usec, 2 * 1000000ULL);   /* bare number: seconds */

	assert_int_equal(parse("[Sources]\nMSRPoll=sometimes\nMSRPollInterval=soon\n"
			       "MSRPollInterval=500ms\nMSRPollInterval=2d\nMSRPollInterval=\n", &c, &e), -EINVAL);
	assert_int_equal(e.n, 5);
	assert_int_equal(e.line[0], 2);
	assert_non_null(strstr(e.msg[0], "MSRPoll="));
	assert_non_null(strstr(e.msg[0], "expected auto, yes or no; got 'sometimes'"));
	assert_int_equal(e.line[1], 3);
	assert_non_null(strstr(e.msg[1], "MSRPollInterval="));
	assert_non_null(strstr(e.msg[1], "time span"));
	assert_int_equal(e.line[2], 4);
	assert_non_null(strstr(e.msg[2], "'500ms' is out of range: between 1s and 24h"));
	assert_int_equal(e.line[3], 5);
	assert_non_null(strstr(e.msg[3], "'2d' is out of range"));
	assert_int_equal(e.line[4], 6);
	/* the bad values left the defaults alone */
	assert_int_equal(c.msr_poll, MSR_POLL_AUTO);
	assert_int_equal(c.msr_poll_interval_usec, 60 * 1000000ULL);
}

static void test_storm_section(void **state)
{
	struct mcelogd_config c;
	struct errors e;

	(void) state;
	assert_int_equal(parse("", &c, &e), 0);
	assert_true(c.storm_enable);
	assert_int_equal(c.storm.burst, STORM_DEFAULT_BURST);
	assert_int_equal(c.storm.window_usec, STORM_DEFAULT_WINDOW_USEC);
	assert_int_equal(c.storm.summary_interval_usec, STORM_DEFAULT_SUMMARY_USEC);
	assert_int_equal(c.storm.quiet_usec, STORM_DEFAULT_QUIET_USEC);
	assert_int_equal(c.storm.max_signatures, STORM_DEFAULT_MAX_SIGNATURES);
	assert_int_equal(storm_config_validate(&c.storm), 0);

	assert_int_equal(parse("[Storm]\nEnable=no\nBurst=25\nWindow=500ms\nSummaryInterval=1min 30s\n"
			       "QuietTime=2\nMaxSignatures=64\n", &c, &e), 0);
	assert_int_equal(e.n, 0);
	assert_false(c.storm_enable);
	assert_int_equal(c.storm.burst, 25);
	assert_int_equal(c.storm.window_usec, 500 * 1000);
	assert_int_equal(c.storm.summary_interval_usec, 90 * STORM_USEC_PER_SEC);
	assert_int_equal(c.storm.quiet_usec, 2 * STORM_USEC_PER_SEC);   /* a bare number is seconds */
	assert_int_equal(c.storm.max_signatures, 64);
	assert_int_equal(storm_config_validate(&c.storm), 0);
}

static void test_storm_errors_named(void **state)
{
	struct mcelogd_config c;
	struct errors e;

	(void) state;
	assert_int_equal(parse("[Storm]\nBurst=0\nBurst=ten\nWindow=0s\nSummaryInterval=soon\n"
			       "QuietTime=2d\nMaxSignatures=99999999\nEnable=maybe\nWindow=-1s\n",
			       &c, &e), -EINVAL);
	assert_int_equal(e.n, 8);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(e.line[i], i + 2);
	assert_non_null(strstr(e.msg[0], "Burst="));
	assert_non_null(strstr(e.msg[0], "from 1 to"));
	assert_non_null(strstr(e.msg[1], "'ten'"));
	assert_non_null(strstr(e.msg[2], "Window="));
	assert_non_null(strstr(e.msg[3], "SummaryInterval="));
	assert_non_null(strstr(e.msg[3], "'soon'"));
	assert_non_null(strstr(e.msg[4], "QuietTime="));
	assert_non_null(strstr(e.msg[4], "1d"));
	assert_non_null(strstr(e.msg[5], "MaxSignatures="));
	assert_non_null(strstr(e.msg[6], "Enable="));
	assert_non_null(strstr(e.msg[7], "Window="));
	/* Nothing bad was taken: the engine can still be built from what is left. */
	assert_int_equal(c.storm.burst, STORM_DEFAULT_BURST);
	assert_int_equal(c.storm.window_usec, STORM_DEFAULT_WINDOW_USEC);
	assert_int_equal(storm_config_validate(&c.storm), 0);
}

static void test_snapshot_section(void **state)
{
	struct mcelogd_config c;
	struct errors e;

	(void) state;
	assert_int_equal(parse("", &c, &e), 0);
	assert_true(c.snapshot.counters);
	assert_int_equal(c.snapshot.n_counter_events, 0);
	assert_int_equal(c.snapshot.interval_usec, 1000000);
	assert_int_equal(c.snapshot.history, SNAPSHOT_HISTORY_DEFAULT);
	assert_false(c.snapshot.processor_trace);
	assert_int_equal(c.snapshot.pt_buffer_size, SNAPSHOT_PT_BUFFER_DEFAULT);
	assert_int_equal(c.snapshot.pt_max_files, SNAPSHOT_PT_MAX_FILES_DEFAULT);
	assert_int_equal(c.snapshot.pt_max_bytes, SNAPSHOT_PT_MAX_BYTES_DEFAULT);

	assert_int_equal(parse("[Snapshot]\nCounters= cycles  INST_RETIRED:ANY_P\tamd64_fam19h::RETIRED_OPS:u=1 \n"
			       "Interval=250ms\nHistory=60\nProcessorTrace=yes\nPTBufferSize=16M\n"
			       "PTMaxFiles=4\nPTMaxBytes=1G\n", &c, &e), 0);
	assert_int_equal(e.n, 0);
	assert_true(c.snapshot.counters);
	assert_int_equal(c.snapshot.n_counter_events, 3);
	assert_string_equal(c.snapshot.counter_events[0], "cycles");
	assert_string_equal(c.snapshot.counter_events[1], "INST_RETIRED:ANY_P");
	assert_string_equal(c.snapshot.counter_events[2], "amd64_fam19h::RETIRED_OPS:u=1");
	assert_int_equal(c.snapshot.interval_usec, 250000);
	assert_int_equal(c.snapshot.history, 60);
	assert_true(c.snapshot.processor_trace);
	assert_int_equal(c.snapshot.pt_buffer_size, 16 << 20);
	assert_int_equal(c.snapshot.pt_max_files, 4);
	assert_int_equal(c.snapshot.pt_max_bytes, 1 << 30);

	/* no turns it off; a later empty value brings the default set back */
	assert_int_equal(parse("[Snapshot]\nCounters=no\n", &c, &e), 0);
	assert_false(c.snapshot.counters);
	assert_int_equal(parse("[Snapshot]\nCounters=no\nCounters=\n", &c, &e), 0);
	assert_true(c.snapshot.counters);
	assert_int_equal(c.snapshot.n_counter_events, 0);
}

static void test_snapshot_errors_named(void **state)
{
	struct mcelogd_config c;
	struct errors e;
	char many[SNAPSHOT_COUNTER_EVENTS_MAX * 8 + 64] = "[Snapshot]\nCounters=";

	(void) state;
	assert_int_equal(parse("[Snapshot]\nCounters=cycles cyc$les\nCounters=cycles cycles\n"
			       "Interval=1ms\nInterval=2h\nHistory=1\nHistory=ten\nPTBufferSize=3M\n"
			       "PTMaxFiles=0\n", &c, &e), -EINVAL);
	assert_int_equal(e.n, 8);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(e.line[i], i + 2);
	assert_non_null(strstr(e.msg[0], "Counters="));
	assert_non_null(strstr(e.msg[0], "'cyc$les'"));
	assert_non_null(strstr(e.msg[1], "named twice"));
	assert_non_null(strstr(e.msg[2], "Interval="));
	assert_non_null(strstr(e.msg[2], "10ms"));
	assert_non_null(strstr(e.msg[3], "'2h' is out of range"));
	assert_non_null(strstr(e.msg[4], "History="));
	assert_non_null(strstr(e.msg[5], "'ten'"));
	assert_non_null(strstr(e.msg[6], "PTBufferSize="));
	assert_non_null(strstr(e.msg[6], "power of two"));
	assert_non_null(strstr(e.msg[7], "PTMaxFiles="));
	/* nothing bad was taken */
	assert_int_equal(c.snapshot.n_counter_events, 0);
	assert_int_equal(c.snapshot.interval_usec, SNAPSHOT_INTERVAL_DEFAULT_USEC);
	assert_int_equal(c.snapshot.history, SNAPSHOT_HISTORY_DEFAULT);
	assert_int_equal(c.snapshot.pt_buffer_size, SNAPSHOT_PT_BUFFER_DEFAULT);

	/* too many events, a name too long, sizes beyond their bounds */
	for (int i = 0; i <= SNAPSHOT_COUNTER_EVENTS_MAX; i++) {
		char one[8];
		snprintf(one, sizeof(one), "e%d ", i);
		strcat(many, one);
	}
	assert_int_equal(parse(many, &c, &e), -EINVAL);
	assert_non_null(strstr(e.msg[0], "more than 32 events"));
	char longname[SNAPSHOT_EVENT_NAME_MAX + 32] = "[Snapshot]\nCounters=";
	memset(longname + strlen(longname), 'A', SNAPSHOT_EVENT_NAME_MAX);
	assert_int_equal(parse(longname, &c, &e), -EINVAL);
	assert_non_null(strstr(e.msg[0], "longer than"));
	assert_int_equal(parse("[Snapshot]\nPTBufferSize=2G\nPTBufferSize=2K\nPTMaxBytes=0\nPTMaxBytes=2048G\n"
			       "PTBufferSize=99999999999999999999G\n", &c, &e), -EINVAL);
	assert_int_equal(e.n, 5);
	assert_int_equal(parse("[Snapshot]\nPTBufferSize=65536\nPTMaxBytes=100K\n", &c, &e), 0);
	assert_int_equal(c.snapshot.pt_buffer_size, 65536);
	assert_int_equal(c.snapshot.pt_max_bytes, 100 << 10);
}

static void test_cpu_list(void **state)
{
	bool set[64];

	(void) state;
	memset(set, 0, sizeof(set));
	assert_int_equal(cpu_list_parse("0-3,8,10-11\n", set, 64), 7);
	assert_true(set[0] && set[3] && set[8] && set[10] && set[11]);
	assert_false(set[4] || set[9] || set[12]);
	memset(set, 0, sizeof(set));
	assert_int_equal(cpu_list_parse("0\n", set, 64), 1);
	assert_int_equal(cpu_list_parse("", set, 64), 0);
	assert_int_equal(cpu_list_parse("3-1", set, 64), -EINVAL);
	assert_int_equal(cpu_list_parse("0-64", set, 64), -EINVAL);
	assert_int_equal(cpu_list_parse("1,,2", set, 64), -EINVAL);
	assert_int_equal(cpu_list_parse("a", set, 64), -EINVAL);
	assert_int_equal(cpu_list_parse("99999999999999999999", set, 64), -EINVAL);
}

static void test_dev_mcelog_tristate(void **state)
{
	struct mcelogd_config c;
	struct errors e;

	(void) state;
	assert_int_equal(parse("", &c, &e), 0);
	assert_int_equal(c.source_dev_mcelog, CONFIG_TRISTATE_AUTO);
	assert_int_equal(parse("[Sources]\nDevMcelog=no\n", &c, &e), 0);
	assert_int_equal(c.source_dev_mcelog, CONFIG_TRISTATE_NO);
	assert_int_equal(parse("[Sources]\nDevMcelog=yes\n", &c, &e), 0);
	assert_int_equal(c.source_dev_mcelog, CONFIG_TRISTATE_YES);
	assert_int_equal(parse("[Sources]\nDevMcelog=no\nDevMcelog=Auto\n", &c, &e), 0);
	assert_int_equal(c.source_dev_mcelog, CONFIG_TRISTATE_AUTO);
	assert_int_equal(parse("[Sources]\n\nDevMcelog=sometimes\n", &c, &e), -EINVAL);
	assert_int_equal(e.n, 1);
	assert_int_equal(e.line[0], 3);
	assert_non_null(strstr(e.msg[0], "DevMcelog="));
	assert_non_null(strstr(e.msg[0], "expected auto, yes or no, got 'sometimes'"));
}

/* Editors on other systems save a byte-order mark: it is no character of the first line. */
static void test_utf8_bom(void **state)
{
	struct mcelogd_config c;
	struct errors e;

	(void) state;
	assert_int_equal(parse("\xef\xbb\xbf" "[Sources]\nDevMcelog=no\n", &c, &e), 0);
	assert_int_equal(e.n, 0);
	assert_int_equal(c.source_dev_mcelog, CONFIG_TRISTATE_NO);
	/* Only at the very start: elsewhere it is an error that says what it is. */
	assert_int_equal(parse("[Sources]\n\xef\xbb\xbf" "DevMcelog=no\n", &c, &e), -EINVAL);
	assert_int_equal(e.n, 1);
	assert_int_equal(e.line[0], 2);
}

/* Memory repair: off unless asked for, bounded by default, a limit of 0 refused (Repair=no is "none"). */
static void test_memory_repair(void **state)
{
	struct mcelogd_config c;
	struct errors e;

	(void) state;
	assert_int_equal(parse("", &c, &e), 0);
	assert_false(c.memory_repair);
	assert_int_equal(c.repairs_per_device, 4);
	assert_int_equal(c.repairs_per_day, 1);
	assert_int_equal(parse("[Memory]\nRepair=yes\nRepairsPerDevice=2\nRepairsPerDay=3\n", &c, &e), 0);
	assert_true(c.memory_repair);
	assert_int_equal(c.repairs_per_device, 2);
	assert_int_equal(c.repairs_per_day, 3);
	assert_int_equal(parse("[Memory]\nRepairsPerDay=0\nRepairsPerDevice=1001\n", &c, &e), -EINVAL);
	assert_int_equal(e.n, 2);
	assert_non_null(strstr(e.msg[0], "RepairsPerDay="));
	assert_non_null(strstr(e.msg[0], "from 1 to 1000"));
	assert_int_equal(e.line[1], 3);
	/* Permanent repairs: never unless said in words. */
	assert_int_equal(parse("", &c, &e), 0);
	assert_false(c.repair_hard);
	assert_int_equal(parse("[Memory]\nRepairPersist=hard\n", &c, &e), 0);
	assert_true(c.repair_hard);
	assert_int_equal(parse("[Memory]\nRepairPersist=yes\n", &c, &e), -EINVAL);
	assert_non_null(strstr(e.msg[0], "expected soft or hard"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_values),
		cmocka_unit_test(test_errors_named),
		cmocka_unit_test(test_key_outside_section),
		cmocka_unit_test(test_hostile_input),
		cmocka_unit_test(test_bad_value_matrix),
		cmocka_unit_test(test_msr_poll),
		cmocka_unit_test(test_storm_section),
		cmocka_unit_test(test_storm_errors_named),
		cmocka_unit_test(test_snapshot_section),
		cmocka_unit_test(test_snapshot_errors_named),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_dev_mcelog_tristate),
		cmocka_unit_test(test_utf8_bom),
		cmocka_unit_test(test_memory_repair),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
