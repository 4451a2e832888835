/* SPDX-License-Identifier: MIT */
/*
 * The snapshot stage: which records get a snapshot, the "snapshot" object
 * every provider writes into (or is written for, when it is off or failed),
 * the flat fields, hotplug and status.  The providers here are small tables
 * of our own; the real counter provider runs on the real kernel in
 * tests/vm/scenarios/70-snapshot-counters.sh.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "json-writer.h"
#include "record.h"
#include "snapshot-cpu.h"
#include "snapshot-stage.h"

struct alpha {
	unsigned online, offline, closed;
};
static struct alpha alpha_state;

static int alpha_open(const struct snapshot_params *p, void **ret)
{
	(void) p;
	alpha_state = (struct alpha) {};
	*ret = &alpha_state;
	return 0;
}
static void alpha_close(void *s) { ((struct alpha *) s)->closed++; }
static void alpha_annotate(void *s, const struct snapshot_subject *sub, struct snapshot_out *out)
{
	(void) s;
	json_object_begin(out->json, "alpha");
	json_put_u64(out->json, "cpu", sub->cpu);
	json_object_end(out->json);
	snapshot_out_field(out, "SNAPSHOT_ALPHA_CPU", "%u", sub->cpu);
	/* too long for a journal value: dropped, never cut */
	snapshot_out_field(out, "SNAPSHOT_ALPHA_LONG", "%0100d", 1);
}
static void alpha_online(void *s, unsigned cpu) { ((struct alpha *) s)->online = cpu; }
static void alpha_offline(void *s, unsigned cpu) { ((struct alpha *) s)->offline = cpu; }
static void alpha_status(void *s, struct json_writer *w) { json_put_u64(w, "closed", ((struct alpha *) s)->closed); }

static const struct snapshot_ops alpha_ops = {
	.name = "alpha", .open = alpha_open, .close = alpha_close, .annotate = alpha_annotate,
	.cpu_online = alpha_online, .cpu_offline = alpha_offline, .status = alpha_status,
};

/* Opens, but can record nothing here (rtit without Intel PT). */
static int blind_open(const struct snapshot_params *p, void **ret) { (void) p; *ret = &alpha_state; return 0; }
static const char *blind_unavailable(void *s) { (void) s; return "no Intel PT on this CPU"; }
static void blind_status(void *s, struct json_writer *w) { (void) s; json_put_u64(w, "annotated", 0); }

static int off_open(const struct snapshot_params *p, void **ret) { (void) p; *ret = NULL; return 0; }
static int failing_open(const struct snapshot_params *p, void **ret) { (void) p; *ret = NULL; return -EACCES; }
static void never_close(void *s) { (void) s; fail(); }
static void never_annotate(void *s, const struct snapshot_subject *sub, struct snapshot_out *out)
{
	(void) s; (void) sub; (void) out;
	fail();
}
static const struct snapshot_ops off_ops = {
	.name = "off", .open = off_open, .close = never_close, .annotate = never_annotate,
};
static const struct snapshot_ops failing_ops = {
	.name = "failing", .open = failing_open, .close = never_close, .annotate = never_annotate,
};

static const struct snapshot_ops *const table[] = { &alpha_ops, &off_ops, &failing_ops };

static void test_wants(void **state)
{
	(void) state;
	struct mce_record r = { .source = MCE_SOURCE_TRACEPOINT };

	assert_true(snapshot_stage_wants(&r, true));
	assert_false(snapshot_stage_wants(&r, false));     /* --replay */
	r.source = MCE_SOURCE_DEV_MCELOG;
	assert_true(snapshot_stage_wants(&r, true));
	r.source = MCE_SOURCE_MSR_POLL;
	assert_true(snapshot_stage_wants(&r, true));
	r.source = MCE_SOURCE_REPLAY;
	assert_false(snapshot_stage_wants(&r, true));
	r.source = MCE_SOURCE_PREVIOUS_BOOT;
	assert_false(snapshot_stage_wants(&r, true));
}

static void test_annotate_and_status(void **state)
{
	(void) state;
	struct snapshot_stage st = {};
	const struct snapshot_params p = {};
	struct mce_record r = { .have = MCE_HAVE_CPU, .cpu = 3, .source = MCE_SOURCE_TRACEPOINT };
	struct snapshot_subject sub;
	struct json_writer w;

	assert_int_equal(snapshot_stage_set(&st, table, 3), 0);
	snapshot_stage_open(&st, &p);
	json_writer_init(&w);
	json_object_begin(&w, NULL);
	snapshot_subject_of_mce(&r, &sub);
	snapshot_stage_annotate(&st, &sub, &w);
	json_object_end(&w);
	assert_string_equal(json_writer_str(&w),
		"{\"snapshot\":{\"cpu\":3,\"cpu_from\":\"record\",\"cpu_is\":\"the CPU the machine check names\","
		"\"alpha\":{\"cpu\":3},\"off\":{\"unavailable\":\"off in the configuration\"},"
		"\"failing\":{\"unavailable\":\"failed to start: Permission denied\"}}}");
	assert_int_equal(st.out.n_fields, 2);
	assert_string_equal(st.out.fields[0].name, "SNAPSHOT_ALPHA_CPU");
	assert_string_equal(st.out.fields[0].value, "3");
	assert_string_equal(st.out.fields[1].name, "SNAPSHOT_CPU_FROM");
	assert_string_equal(st.out.fields[1].value, "record");

	/* the next record starts with no fields of the last */
	r.cpu = 1;
	json_writer_reset(&w);
	json_object_begin(&w, NULL);
	snapshot_subject_of_mce(&r, &sub);
	snapshot_stage_annotate(&st, &sub, &w);
	json_object_end(&w);
	assert_int_equal(st.out.n_fields, 2);
	assert_string_equal(st.out.fields[0].value, "1");

	snapshot_stage_cpu_changed(&st, 5, true);
	snapshot_stage_cpu_changed(&st, 4, false);
	assert_int_equal(alpha_state.online, 5);
	assert_int_equal(alpha_state.offline, 4);

	json_writer_reset(&w);
	json_object_begin(&w, NULL);
	snapshot_stage_status(&st, &w);
	json_object_end(&w);
	assert_string_equal(json_writer_str(&w),
		"{\"snapshots\":[{\"name\":\"alpha\",\"state\":\"active\",\"closed\":0},"
		"{\"name\":\"off\",\"state\":\"disabled\",\"reason\":\"off in the configuration\"},"
		"{\"name\":\"failing\",\"state\":\"unavailable\",\"reason\":\"failed to start: Permission denied\"}]}");

	/* reopening closes the open one first */
	snapshot_stage_open(&st, &p);
	assert_int_equal(alpha_state.closed, 0);   /* a fresh state after the reopen */
	snapshot_stage_close(&st);
	assert_int_equal(alpha_state.closed, 1);
	json_writer_done(&w);
}

/* `mcectl status` says what the log says: a provider that opened but has nothing to
 * record from is unavailable, with why, not active. */
static void test_status_of_an_open_but_useless_provider(void **state)
{
	static const struct snapshot_ops blind_ops = {
		.name = "blind", .open = blind_open, .close = alpha_close, .annotate = never_annotate,
		.status = blind_status, .unavailable = blind_unavailable,
	};
	static const struct snapshot_ops *const blind_table[] = { &blind_ops };
	struct snapshot_stage st = {};
	struct snapshot_params p = {};
	struct json_writer w;

	(void) state;
	assert_int_equal(snapshot_stage_set(&st, blind_table, 1), 0);
	snapshot_stage_open(&st, &p);
	json_writer_init(&w);
	json_object_begin(&w, NULL);
	snapshot_stage_status(&st, &w);
	json_object_end(&w);
	assert_string_equal(json_writer_str(&w),
		"{\"snapshots\":[{\"name\":\"blind\",\"state\":\"unavailable\","
		"\"reason\":\"no Intel PT on this CPU\",\"annotated\":0}]}");
	snapshot_stage_close(&st);
	json_writer_done(&w);
}

static void test_limits(void **state)
{
	(void) state;
	struct snapshot_stage st = {};
	const struct snapshot_ops *many[SNAPSHOT_PROVIDERS_MAX + 1];
	struct snapshot_out out = {};

	for (size_t i = 0; i < SNAPSHOT_PROVIDERS_MAX + 1; i++)
		many[i] = &off_ops;
	assert_int_equal(snapshot_stage_set(&st, many, SNAPSHOT_PROVIDERS_MAX + 1), -E2BIG);
	assert_int_equal(st.n, 0);

	for (unsigned i = 0; i < SNAPSHOT_FIELDS_MAX + 3; i++)
		snapshot_out_field(&out, "SNAPSHOT_N", "%u", i);
	assert_int_equal(out.n_fields, SNAPSHOT_FIELDS_MAX);
	assert_string_equal(out.fields[SNAPSHOT_FIELDS_MAX - 1].value, "15");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wants),
		cmocka_unit_test(test_annotate_and_status),
		cmocka_unit_test(test_status_of_an_open_but_useless_provider),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
