/* SPDX-License-Identifier: MIT */
/*
 * The counter recorder's kernel-kept history on this machine's real kernel:
 * the provider opened on CPU 0 with software events (they count without a
 * PMU, in VMs too), left alone while the kernel samples, then asked for a
 * record.  Not pure: it needs perf_event_open of CPU-wide events (root, or
 * kernel.perf_event_paranoid <= 0), as mcelogd does.
 */
#include <errno.h>
#include <json-c/json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <cmocka.h>

#include "clock.h"
#include "daemon-config.h"
#include "json-writer.h"
#include "record.h"
#include "snapshot-stage.h"
#include "snapshots.h"
#include "source.h"

static json_object *annotate_cpu0(struct snapshot_stage *st)
{
	struct json_writer w;
	const struct snapshot_subject sub = {
		.have_cpu = true,
		.cpu = 0,
		.have_time = true,
		.time_usec = now_realtime_usec(),
	};
	json_object *doc;

	json_writer_init(&w);
	json_object_begin(&w, NULL);
	snapshot_stage_annotate(st, &sub, &w);
	json_object_end(&w);
	doc = json_tokener_parse(json_writer_str(&w));
	json_writer_done(&w);
	return doc;
}

static json_object *get(json_object *o, const char *path)
{
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k && o; k = strtok_r(NULL, ".", &save))
		if (!json_object_object_get_ex(o, k, &o))
			return NULL;
	return o;
}

static void test_history_from_the_kernel(void **state)
{
	struct mcelogd_config config;
	struct source_paths paths = { .state_directory = "/tmp" };
	struct snapshot_stage st = {};
	struct json_writer w;

	(void) state;
	/* Can this process open a CPU-wide event at all?  If not, say so and stop. */
	struct perf_event_attr probe = { .size = sizeof(probe), .type = PERF_TYPE_SOFTWARE,
					 .config = PERF_COUNT_SW_CPU_CLOCK };
	int fd = (int) syscall(SYS_perf_event_open, &probe, -1, 0, -1, 0);
	if (fd < 0) {
		print_message("CPU-wide perf events refused here (%s): needs root\n", strerror(errno));
		skip();
	}
	close(fd);

	config_set_defaults(&config);
	config.snapshot.interval_usec = 100000;
	config.snapshot.history = 10;
	const char *events[] = { "cpu-clock", "context-switches", "page-faults" };
	for (size_t i = 0; i < 3; i++)
		snprintf(config.snapshot.counter_events[i], sizeof(config.snapshot.counter_events[i]), "%s", events[i]);
	config.snapshot.n_counter_events = 3;
	const struct snapshot_params p = { .config = &config, .paths = &paths, .event = NULL };
	assert_int_equal(snapshot_stage_set(&st, snapshots_live, snapshots_live_count), 0);
	snapshot_stage_open(&st, &p);

	json_writer_init(&w);
	json_object_begin(&w, NULL);
	snapshot_stage_status(&st, &w);
	json_object_end(&w);
	json_object *status = json_tokener_parse(json_writer_str(&w));
	json_writer_done(&w);
	assert_non_null(status);
	json_object *counters = NULL, *snaps = get(status, "snapshots");
	assert_non_null(snaps);
	for (size_t i = 0; i < json_object_array_length(snaps); i++) {
		json_object *s = json_object_array_get_idx(snaps, i);
		if (!strcmp(json_object_get_string(get(s, "name")), "counters"))
			counters = s;
	}
	assert_non_null(counters);
	assert_string_equal(json_object_get_string(get(counters, "history_kept_by")), "kernel");
	json_object_put(status);

	/* 0.75 s idle: the kernel samples CPU 0 every 0.1 s and nobody reads.  (At least
	 * that long; a loaded host only makes it longer, and the kernel samples more.) */
	usleep(750000);
	json_object *doc = annotate_cpu0(&st);
	assert_non_null(doc);
	json_object *win = get(doc, "snapshot.counters.window");
	if (!win)
		fail_msg("no window: %s", json_object_to_json_string(doc));
	/*
	 * What tells the kernel's history from the open read alone is not how long
	 * the window is (that depends on when this thread ran again, and on a loaded
	 * host the kernel's timer may be late too), but that there is a history:
	 * readings between the open and ours, so intervals besides the error's to
	 * compare it with.  With only the open read and ours there would be none.
	 * How the window and the baseline are chosen from given times:
	 * test-counter-history.
	 */
	assert_true(json_object_get_int(get(doc, "snapshot.counters.baseline_intervals")) >= 1);
	assert_non_null(get(doc, "snapshot.counters.change"));
	assert_true(json_object_get_double(get(win, "seconds")) > 0.0);
	/* cpu-clock in that window: the CPU's time, more than nothing. */
	int64_t clock_ns = json_object_get_int64(get(doc, "snapshot.counters.events.cpu-clock"));
	assert_true(clock_ns > 0);
	json_object_put(doc);
	snapshot_stage_close(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_history_from_the_kernel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
