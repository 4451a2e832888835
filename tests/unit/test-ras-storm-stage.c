/* SPDX-License-Identifier: MIT */
/*
 * The storm stage with ras records, on a real event loop and state directory:
 * a corrected EDAC flood is summarised with every record accounted for,
 * uncorrected ones never are, and a crash (a stage that never closes) leaves
 * counts the next start writes as a last summary and an end with reason crash.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "file-io.h"
#include "storm-stage.h"

#define BOOT "0123456789abcdef0123456789abcdef"
#define LABEL "CPU_SrcID#0_MC#0_Chan#1_DIMM#0"
#define SIGNATURE "mc=0 top_layer=0 middle_layer=1 label=" LABEL

struct captured {
	unsigned n, summaries, ends;
	uint64_t summarised, end_total;
	enum storm_end_reason end_reason;
	bool all_ras, all_named;
	char json[1024];
};

static int capture(void *core, const struct sink_entry *e)
{
	struct captured *c = core;

	assert_int_equal(e->kind, SINK_ENTRY_STORM);
	c->n++;
	c->all_ras = c->all_ras && e->storm.ras;
	c->all_named = c->all_named && e->storm.ras && strcmp(e->storm.ras->text, SIGNATURE) == 0 &&
		       e->storm.ras->event == RAS_EVENT_MEMORY_CONTROLLER;
	snprintf(c->json, sizeof(c->json), "%s", e->json);
	if (e->storm.event->type == STORM_EVENT_SUMMARY) {
		c->summaries++;
		c->summarised += e->storm.event->count;
	} else {
		c->ends++;
		c->end_total = e->storm.event->total;
		c->end_reason = e->storm.out->reason;
	}
	return 0;
}

static void mc_event(struct ras_record *r, enum ras_severity sev)
{
	ras_record_init(r, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
	r->severity = sev;
	assert_int_equal(ras_record_add_uint(r, "error_count", 1), 0);
	assert_int_equal(ras_record_add_string(r, "label", LABEL, SIZE_MAX), 0);
	assert_int_equal(ras_record_add_uint(r, "mc", 0), 0);
	assert_int_equal(ras_record_add_int(r, "top_layer", 0), 0);
	assert_int_equal(ras_record_add_int(r, "middle_layer", 1), 0);
	assert_int_equal(ras_record_add_hex64(r, "address", 0x12345000), 0);
}

static void stage_init(struct storm_stage *st, sd_event *ev, const char *dir, struct captured *c)
{
	struct storm_config config;

	*c = (struct captured) { .all_ras = true, .all_named = true };
	*st = (struct storm_stage) {
		.event = ev, .hostname = "vm", .boot_id = BOOT, .emit = capture, .core = c,
		.state_directory = dir, .timer_usec = UINT64_MAX,
	};
	json_writer_init(&st->json);
	storm_config_default(&config);
	assert_int_equal(storm_stage_setup(st, true, &config), 0);
}

static void test_flood_saved_and_recovered(void **state)
{
	char dir[] = "/tmp/test-ras-storm-stage.XXXXXX", path[128];
	struct storm_stage st, next;
	struct captured c, after_crash;
	struct ras_record ce, ue;
	sd_event *ev = NULL;
	unsigned suppressed = 0;
	char *text = NULL;
	size_t len = 0;
	const unsigned n = 5000;

	(void) state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/storms.state", dir);
	assert_int_equal(sd_event_new(&ev), 0);
	stage_init(&st, ev, dir, &c);

	mc_event(&ce, RAS_SEV_CORRECTED);
	mc_event(&ue, RAS_SEV_UNCORRECTED);
	for (unsigned i = 0; i < n; i++) {
		suppressed += storm_stage_suppress_ras(&st, &ce);
		/* Interleaved uncorrected errors of the same DIMM: every one is logged. */
		if (i % 100 == 0)
			assert_false(storm_stage_suppress_ras(&st, &ue));
	}
	/* The burst (10 in 1 s) is logged, the rest counted: the loop takes far less than the window. */
	assert_int_equal(suppressed, n - 10);

	/* The counts are saved within a second, while the storm goes on. */
	for (unsigned i = 0; i < 40 && access(path, F_OK) < 0; i++)
		assert_true(sd_event_run(ev, 100 * 1000) >= 0);
	assert_int_equal(read_full_file(path, 1 << 20, &text, &len), 0);
	assert_non_null(strstr(text, "\nras memory_controller "));
	assert_non_null(strstr(text, " 4990 10 " SIGNATURE "\n"));
	free(text);

	/* A crash: this stage never closes.  The next start writes what no summary holds. */
	stage_init(&next, ev, dir, &after_crash);
	storm_stage_recover(&next);
	assert_int_equal(after_crash.summaries, 1);
	assert_int_equal(after_crash.summarised, n - 10);
	assert_int_equal(after_crash.ends, 1);
	assert_int_equal(after_crash.end_total, n - 10);
	assert_int_equal(after_crash.end_reason, STORM_END_CRASH);
	assert_true(after_crash.all_ras);
	assert_true(after_crash.all_named);
	assert_non_null(strstr(after_crash.json, "\"scope\":\"ras\""));
	assert_non_null(strstr(after_crash.json, "\"signature\":\"" SIGNATURE "\""));
	assert_int_equal(access(path, F_OK), -1);
	storm_stage_done(&next);

	/* The first stage, stopped normally: its summaries count every suppressed record. */
	storm_stage_done(&st);
	assert_int_equal(c.summarised, n - 10);
	assert_int_equal(c.ends, 1);
	assert_int_equal(c.end_total, n - 10);
	assert_int_equal(c.end_reason, STORM_END_STOP);
	assert_true(c.all_named);
	assert_int_equal(access(path, F_OK), -1);

	ras_record_done(&ce);
	ras_record_done(&ue);
	sd_event_unref(ev);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flood_saved_and_recovered),
	};

	return cmocka_run_group_tests_name("ras-storm-stage", tests, NULL, NULL);
}
