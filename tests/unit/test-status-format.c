/* SPDX-License-Identifier: MIT */
/* mcectl status's table, from the daemon's status document. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "status-format.h"

/* 2026-11-21T01:00:00Z */
#define NOW_USEC 1795222800000000LL

static char *render(const char *doc_text, int *ret)
{
	json_object *doc = json_tokener_parse(doc_text);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(doc);
	assert_non_null(f);
	*ret = status_format_table(doc, NOW_USEC, f);
	fclose(f);
	json_object_put(doc);
	return buf;
}

static void test_full_document(void **state)
{
	int r;
	char *out = render(
		"{\"version\":\"0.1.0\",\"pid\":42,\"started\":\"2026-11-20T23:00:00.000000Z\","
		"\"uptime_sec\":7200,\"records\":12,\"journal_entries\":5,\"sink_failures\":0,"
		"\"last_record\":\"2026-11-21T00:57:00.000000Z\","
		"\"sources\":[{\"name\":\"tracepoint\",\"state\":\"active\",\"reason\":\"mce:mce_record on 2 CPUs\","
		"\"records\":12,\"lost\":3},{\"name\":\"msr_poll\",\"state\":\"disabled\",\"records\":0,\"lost\":0}],"
		"\"sinks\":[{\"name\":\"journal\",\"open\":true,\"entries\":5,\"records\":5,\"failures\":0,"
		"\"spool\":{\"path\":\"/var/lib/mcelogd/journal.spool\",\"entries\":7,\"bytes\":900,\"spooled\":7,"
		"\"refused\":0,\"retries\":3,\"last_error\":\"Connection refused\"}}],"
		"\"storms\":{\"active\":1,\"started\":2,\"suppressed\":7,\"list\":[{\"cpu\":1,\"bank\":4,"
		"\"code\":\"0x0000000000000090\",\"suppressed\":7,\"start\":\"2026-11-21T00:58:00.000000Z\"}]},"
		"\"ras_storms\":{\"active\":1,\"started\":1,\"suppressed\":4990,\"list\":[{\"ras_event\":"
		"\"memory_controller\",\"signature\":\"mc=0 top_layer=1 label=DIMM_A1\",\"suppressed\":4990,"
		"\"start\":\"2026-11-21T00:59:00.000000Z\"}]}}",
		&r);

	(void) state;
	assert_int_equal(r, 0);
	assert_non_null(strstr(out, "mcelogd 0.1.0, pid 42, running for 2h 0min"));
	assert_non_null(strstr(out, "Records: 12; journal entries written: 5; sink failures: 0\n"));
	assert_non_null(strstr(out, "Last record: 2026-11-21T00:57:00.000000Z (3min 0s ago)\n"));
	assert_non_null(strstr(out, "tracepoint                 active               12        3  mce:mce_record on 2 CPUs\n"));
	/* no reason: no trailing blanks */
	assert_non_null(strstr(out, "msr_poll                   disabled              0        0\n"));
	assert_non_null(strstr(out, "Storms: 1 in progress, 2 since start; 7 records counted"));
	assert_non_null(strstr(out, "Spool (journal): 7 entries wait for it in /var/lib/mcelogd/journal.spool "
				    "(last refusal: Connection refused)\n"));
	assert_non_null(strstr(out, "1      4     0x0000000000000090            7  2026-11-21T00:58:00"));
	assert_non_null(strstr(out, "Ras storms: 1 in progress, 1 since start; 4990 records counted"));
	assert_non_null(strstr(out, "memory_controller          4990  2026-11-21T00:59:00.000000Z  "
				    "mc=0 top_layer=1 label=DIMM_A1\n"));
	free(out);
}

static void test_snapshots(void **state)
{
	int r;
	char *out = render(
		"{\"version\":\"0.1.0\",\"sources\":[],"
		"\"snapshots\":[{\"name\":\"counters\",\"state\":\"active\",\"cpus\":2,"
		"\"interval_usec\":1000000,\"history\":10,\"events\":[\"cpu-clock\",\"page-faults\"],"
		"\"unavailable\":{\"cycles\":\"no PMU driver\",\"instructions\":\"no PMU driver\"}},"
		"{\"name\":\"pt\",\"state\":\"disabled\",\"reason\":\"off in the configuration\"}]}",
		&r);

	(void) state;
	assert_int_equal(r, 0);
	assert_non_null(strstr(out, "\nSNAPSHOT                   STATE         DETAIL\n"));
	assert_non_null(strstr(out, "counters                   active        2 event(s) on 2 CPU(s), every 1s; "
				    "unavailable: cycles, instructions\n"));
	assert_non_null(strstr(out, "pt                         disabled      off in the configuration\n"));
	free(out);

	/* no snapshot providers (an older daemon): no table at all */
	out = render("{\"version\":\"0.1.0\",\"sources\":[],\"snapshots\":[]}", &r);
	assert_int_equal(r, 0);
	assert_null(strstr(out, "SNAPSHOT"));
	free(out);
}

static void test_memory(void **state)
{
	int r;
	char *out = render(
		"{\"version\":\"0.1.0\",\"sources\":[],\"memory\":{\"soft_offline_allowed\":false,"
		"\"enable_soft_offline\":0,\"hardware_corrupted_kib\":8,\"memory_failure\":{\"nodes\":2,"
		"\"total\":11,\"ignored\":2,\"failed\":3,\"delayed\":4,\"recovered\":5},"
		"\"pages_known_bad\":3,\"pages_offlined_this_boot\":2,\"pages_offlined_again_at_start\":1,"
		"\"offlinings_refused\":1,\"repair_enabled\":true,\"repairs_done\":1,\"repairs_refused\":2,"
		"\"repairs_failed\":3,\"repairs_would\":0,\"repairs_known\":4,\"repair_persist\":\"soft\","
		"\"repairs_refused_by_reason\":{\"not-media-fault\":1,\"injected\":1}}}",
		&r);

	(void) state;
	assert_int_equal(r, 0);
	assert_non_null(strstr(out, "Memory: HardwareCorrupted 8 kB; kernel memory failures on 2 nodes: total 11, "
				    "recovered 5, delayed 4, ignored 2, failed 3; soft offlining FORBIDDEN "
				    "(vm.enable_soft_offline=0)\n"));
	assert_non_null(strstr(out, "Pages offlined by the rules: 2 this boot (1 again at start), 3 known bad; "
				    "1 refused\n"));
	assert_non_null(strstr(out, "Memory repairs by the rules (on, soft only): 1 done, 2 refused, 3 failed, "
				    "0 would; 4 in the state\n  refused: not-media-fault 1, injected 1\n"));
	free(out);

	/* A kernel without the sysctl or the counters: only what there is. */
	out = render("{\"version\":\"0.1.0\",\"sources\":[],\"memory\":{\"soft_offline_allowed\":true}}", &r);
	assert_int_equal(r, 0);
	assert_non_null(strstr(out, "Memory: soft offlining allowed\n"));
	assert_null(strstr(out, "Memory repairs"));
	free(out);
}

/* The EDAC memory RAS controls, as the daemon lists them (edac-features.h). */
static void test_edac_features(void **state)
{
	int r;
	char *out = render(
		"{\"version\":\"0.1.0\",\"sources\":[],\"edac_features\":["
		"{\"device\":\"cxl_mem0\",\"feature\":\"scrub\",\"instance\":0,\"enable_background\":\"1\","
		"\"current_cycle_duration\":\"43200\"},"
		"{\"device\":\"cxl_mem0\",\"feature\":\"mem_repair\",\"instance\":1,\"repair_type\":\"ppr\"},"
		"{\"feature\":\"scrub\",\"instance\":2}]}",
		&r);

	(void) state;
	assert_int_equal(r, 0);
	assert_non_null(strstr(out, "Memory RAS controls (EDAC):\n"
				    "  cxl_mem0 scrub0: enable_background=1 current_cycle_duration=43200\n"
				    "  cxl_mem0 mem_repair1: repair_type=ppr\n"));
	assert_null(strstr(out, "scrub2"));   /* no device: not shown */
	free(out);

	/* A kernel that offers none says so; a daemon that sends nothing, nothing. */
	out = render("{\"version\":\"0.1.0\",\"sources\":[],\"edac_features\":[]}", &r);
	assert_non_null(strstr(out, "Memory RAS controls (EDAC): none offered\n"));
	free(out);
	out = render("{\"version\":\"0.1.0\",\"sources\":[]}", &r);
	assert_null(strstr(out, "EDAC"));
	free(out);
}

/* The kernel's side (ras/daemon_active, ras/cec), as ras-daemon-active.h and kernel-cec.h send it. */
static void test_kernel_ras(void **state)
{
	int r;
	char *out = render(
		"{\"version\":\"0.1.0\",\"sources\":[],\"ras_daemon_active\":true,"
		"\"kernel_cec\":{\"state\":\"active\",\"action_threshold\":2,\"decay_interval_sec\":86400}}",
		&r);

	(void) state;
	assert_int_equal(r, 0);
	assert_non_null(strstr(out, "Kernel told a RAS daemon runs (ras/daemon_active held): yes\n"));
	assert_non_null(strstr(out, "Kernel corrected-error collector (ras/cec): active, soft-offlines a page "
				    "at 2 corrected errors, counts age every 86400 s; it acts beside mcelogd's "
				    "page rules\n"));
	free(out);

	out = render("{\"version\":\"0.1.0\",\"sources\":[],\"ras_daemon_active\":false,"
		     "\"ras_daemon_active_reason\":\"debugfs is not mounted at /sys/kernel/debug\","
		     "\"kernel_cec\":{\"state\":\"active\",\"action_threshold\":1023,"
		     "\"decay_interval_sec\":3600,\"pages_tracked\":1,\"errors_seen\":9,\"pages_offlined\":1}}", &r);
	assert_non_null(strstr(out, "(ras/daemon_active held): no (debugfs is not mounted at /sys/kernel/debug)\n"));
	assert_non_null(strstr(out, "at 1023 corrected errors, counts age every 3600 s; 9 errors seen, "
				    "1 pages offlined; it acts"));
	free(out);

	out = render("{\"version\":\"0.1.0\",\"sources\":[],\"kernel_cec\":{\"state\":\"absent\","
		     "\"reason\":\"not in this kernel\"}}", &r);
	assert_non_null(strstr(out, "Kernel corrected-error collector (ras/cec): absent (not in this kernel)\n"));
	assert_null(strstr(out, "daemon_active"));   /* not sent (an older daemon): not shown */
	free(out);
}

static void test_minimal_and_invalid(void **state)
{
	int r;
	char *out;

	(void) state;
	out = render("{\"version\":\"0.1.0\",\"sources\":[]}", &r);
	assert_int_equal(r, 0);
	assert_non_null(strstr(out, "Last record: none since start"));
	assert_null(strstr(out, "CPU hotplug"));   /* unknown: not claimed either way */
	assert_null(strstr(out, "Storms"));       /* not sent: not shown */
	assert_null(strstr(out, "Spool"));
	free(out);

	out = render("{\"sources\":[]}", &r);
	assert_int_equal(r, -EINVAL);
	free(out);
	out = render("{\"version\":\"0.1.0\",\"sources\":{}}", &r);
	assert_int_equal(r, -EINVAL);
	free(out);
	out = render("{\"version\":\"0.1.0\",\"cpu_hotplug_followed\":false,\"sources\":[]}", &r);
	assert_int_equal(r, 0);
	assert_non_null(strstr(out, "CPU hotplug: not followed"));
	free(out);
	/* a source entry missing its name or state is skipped, the rest shown */
	out = render("{\"version\":\"1\",\"sources\":[{\"state\":\"active\"},{\"name\":\"x\",\"state\":\"active\"}]}", &r);
	assert_int_equal(r, 0);
	assert_non_null(strstr(out, "\nx "));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_document),
		cmocka_unit_test(test_snapshots),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_edac_features),
		cmocka_unit_test(test_kernel_ras),
		cmocka_unit_test(test_minimal_and_invalid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
