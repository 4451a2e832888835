/* SPDX-License-Identifier: MIT */
/* rules/storm-key and storm-event: which records storm, their scope, and how summaries read. */
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "decode.h"
#include "json-writer.h"
#include "storm-event.h"
#include "storm-key.h"

#define SEC STORM_USEC_PER_SEC
/* 2026-11-20T10:00:00Z, and a monotonic clock that reads 5000 s then. */
#define REAL0 INT64_C(1795168800000000)
#define MONO0 (5000 * SEC)

static struct storm_output output(enum storm_end_reason reason)
{
	return (struct storm_output) {
		.now_usec = REAL0 + 60 * (int64_t) SEC,
		.offset_usec = REAL0 - (int64_t) MONO0,
		.hostname = "vm",
		.boot_id = "",
		.reason = reason,
	};
}

static struct mce_record intel_record(unsigned cpu, unsigned bank, uint64_t status)
{
	struct mce_record r = {
		.have = MCE_HAVE_CPU | MCE_HAVE_BANK | MCE_HAVE_STATUS | MCE_HAVE_VENDOR |
			MCE_HAVE_CPUID,
		.source = MCE_SOURCE_TRACEPOINT,
		.cpu = cpu, .bank = bank, .status = status,
		.vendor = MCE_VENDOR_INTEL, .family = 6, .model = 0x3f,
	};
	return r;
}

static bool key_of(const struct mce_record *r, struct storm_key *k)
{
	struct mce_decoded d;

	mce_decode(r, &d);
	return storm_key_from_record(r, &d, k);
}

static void test_key_scope(void **state)
{
	struct mce_record r;
	struct storm_key k;

	(void) state;
	/* Haswell-EP MC1 is the core's data cache unit: per CPU. */
	r = intel_record(3, 1, UINT64_C(0x9000004000a50134));
	assert_true(key_of(&r, &k));
	assert_true(k.per_cpu);
	assert_int_equal(k.cpu, 3);
	assert_int_equal(k.bank, 1);
	/* The high half (corrected count, validity bits) is not part of the signature. */
	assert_int_equal(k.code, 0x00a50134);

	/* MC9 is an iMC channel, shared by the package: the CPU that saw it does not count. */
	r = intel_record(5, 9, UINT64_C(0x9000004000010091));
	assert_true(key_of(&r, &k));
	assert_false(k.per_cpu);
	assert_int_equal(k.cpu, 0);
	assert_int_equal(k.bank, 9);

	/* A bank no decoder knows: per CPU. */
	r = intel_record(2, 30, UINT64_C(0x9000004000010091));
	assert_true(key_of(&r, &k));
	assert_true(k.per_cpu);
	assert_int_equal(k.cpu, 2);

	assert_true(storm_bank_type_shared("UMC"));
	assert_true(storm_bank_type_shared("NB"));
	assert_false(storm_bank_type_shared("LS"));
	assert_false(storm_bank_type_shared(NULL));
}

static void test_only_corrected_storm(void **state)
{
	struct mce_record r;
	struct storm_key k;

	(void) state;
	/* UC: never counted, always logged. */
	r = intel_record(0, 1, UINT64_C(0xb000004000a50134));
	assert_false(key_of(&r, &k));
	/* No bank or no STATUS: nothing to form a signature from. */
	r = intel_record(0, 1, UINT64_C(0x9000004000a50134));
	r.have &= ~(uint32_t) MCE_HAVE_BANK;
	assert_false(key_of(&r, &k));
	r = intel_record(0, 1, UINT64_C(0x9000004000a50134));
	r.have &= ~(uint32_t) MCE_HAVE_STATUS;
	assert_false(key_of(&r, &k));
	/* Live sources only: history delivered at once is not a storm. */
	r = intel_record(0, 1, UINT64_C(0x9000004000a50134));
	r.source = MCE_SOURCE_MSR_POLL;
	assert_true(key_of(&r, &k));
	r.source = MCE_SOURCE_PREVIOUS_BOOT;
	assert_false(key_of(&r, &k));
	r.source = MCE_SOURCE_REPLAY;
	assert_false(key_of(&r, &k));
	r.source = (enum mce_source) 1000;
	assert_false(key_of(&r, &k));
}

static const struct storm_event summary = {
	.type = STORM_EVENT_SUMMARY,
	.key = { .cpu = 3, .bank = 1, .code = 0x00010094, .per_cpu = true },
	.count = 48213,
	.total = 120345,
	.logged = 10,
	.first_usec = MONO0 + 20 * SEC,
	.last_usec = MONO0 + 29 * SEC + 950000,
	.start_usec = MONO0 + 1 * SEC,
};

static void test_message(void **state)
{
	struct storm_output o = output(STORM_END_QUIET);
	struct storm_event ev = summary;
	char buf[512];

	(void) state;
	storm_event_message(&ev, &o, buf, sizeof(buf));
	assert_string_equal(buf, "Corrected error storm on CPU 3 bank 1 (code 0x00010094): 48213 more "
			    "records in 10.0 s, 120345 since the storm began");
	ev.key = (struct storm_key) { .bank = 9, .code = 0x91, .per_cpu = false };
	storm_event_message(&ev, &o, buf, sizeof(buf));
	assert_string_equal(buf, "Corrected error storm on shared bank 9 (code 0x00000091): 48213 more "
			    "records in 10.0 s, 120345 since the storm began");

	ev = summary;
	ev.type = STORM_EVENT_END;
	ev.count = 0;
	storm_event_message(&ev, &o, buf, sizeof(buf));
	assert_string_equal(buf, "Corrected error storm on CPU 3 bank 1 (code 0x00010094) ended after "
			    "29.0 s: 120345 records in summaries, 10 logged individually before it");
	o.reason = STORM_END_STOP;
	storm_event_message(&ev, &o, buf, sizeof(buf));
	assert_non_null(strstr(buf, "closed as mcelogd stops after 29.0 s"));
}

static void test_json(void **state)
{
	struct storm_output o = output(STORM_END_STOP);
	struct storm_event ev = summary;
	struct json_writer w;

	(void) state;
	json_writer_init(&w);
	storm_event_write_json(&ev, &o, &w);
	assert_false(json_writer_failed(&w));
	assert_string_equal(json_writer_str(&w),
		"{\"time\":\"2026-11-20T10:01:00.000000Z\",\"event\":\"storm_summary\",\"hostname\":\"vm\","
		"\"severity\":\"corrected\",\"scope\":\"cpu\",\"cpu\":3,\"bank\":1,\"code\":\"0x00010094\","
		"\"count\":48213,\"pages\":0,\"total\":120345,\"logged\":10,"
		"\"first\":\"2026-11-20T10:00:20.000000Z\",\"last\":\"2026-11-20T10:00:29.950000Z\","
		"\"storm_start\":\"2026-11-20T10:00:01.000000Z\"}");

	/* An end of a shared-bank storm: no cpu, no count, a reason. */
	ev.type = STORM_EVENT_END;
	ev.count = 0;
	ev.key = (struct storm_key) { .bank = 9, .code = 0x91, .per_cpu = false };
	json_writer_reset(&w);
	storm_event_write_json(&ev, &o, &w);
	assert_string_equal(json_writer_str(&w),
		"{\"time\":\"2026-11-20T10:01:00.000000Z\",\"event\":\"storm_end\",\"hostname\":\"vm\","
		"\"severity\":\"corrected\",\"scope\":\"shared\",\"bank\":9,\"code\":\"0x00000091\","
		"\"total\":120345,\"logged\":10,"
		"\"first\":\"2026-11-20T10:00:20.000000Z\",\"last\":\"2026-11-20T10:00:29.950000Z\","
		"\"storm_start\":\"2026-11-20T10:00:01.000000Z\",\"reason\":\"stop\"}");
	json_writer_done(&w);
}

/* What the daemon does with the engine's events: render, then add up what was rendered. */
struct sums {
	struct json_writer w;
	struct storm_output out;
	uint64_t summarised, ended_total;
	unsigned summaries, ends;
	char last_reason[16];
};

static void render(const struct storm_event *ev, void *userdata)
{
	struct sums *s = userdata;
	struct json_object *o, *v;

	json_writer_reset(&s->w);
	storm_event_write_json(ev, &s->out, &s->w);
	o = json_tokener_parse(json_writer_str(&s->w));
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "event", &v));
	if (strcmp(json_object_get_string(v), "storm_summary") == 0) {
		assert_true(json_object_object_get_ex(o, "count", &v));
		s->summarised += (uint64_t) json_object_get_int64(v);
		s->summaries++;
	} else {
		assert_string_equal(json_object_get_string(v), "storm_end");
		assert_false(json_object_object_get_ex(o, "count", &v));
		assert_true(json_object_object_get_ex(o, "total", &v));
		s->ended_total += (uint64_t) json_object_get_int64(v);
		assert_true(json_object_object_get_ex(o, "reason", &v));
		snprintf(s->last_reason, sizeof(s->last_reason), "%s", json_object_get_string(v));
		s->ends++;
	}
	json_object_put(o);
}

/*
 * The daemon closes storms at a stop or reload with a tick at UINT64_MAX:
 * every count reaches a rendered summary, and the end carries the total.
 */
static void test_close_loses_nothing(void **state)
{
	const struct storm_config cfg = {
		.burst = 10, .window_usec = SEC, .summary_interval_usec = 10 * SEC,
		.quiet_usec = 30 * SEC, .max_signatures = 16,
	};
	const struct storm_key key = { .cpu = 1, .bank = 1, .code = 0xa50094, .per_cpu = true };
	struct storm *st = NULL;
	struct sums s = { .out = output(STORM_END_STOP) };
	uint64_t logged = 0, t = MONO0;
	const unsigned n = 25000;

	(void) state;
	json_writer_init(&s.w);
	assert_int_equal(storm_new(&cfg, &st), 0);
	for (unsigned i = 0; i < n; i++, t += 1000) {   /* 1,000 a second for 25 s */
		if (t >= storm_next_deadline(st))
			storm_tick(st, t, render, &s);
		if (storm_account(st, &key, t) == STORM_LOG)
			logged++;
	}
	assert_int_equal(s.ends, 0);
	assert_true(s.summaries >= 2);
	storm_tick(st, UINT64_MAX, render, &s);
	assert_int_equal(s.ends, 1);
	assert_string_equal(s.last_reason, "stop");
	assert_int_equal(logged, cfg.burst);
	assert_int_equal(logged + s.summarised, n);
	assert_int_equal(s.ended_total, s.summarised);
	assert_int_equal(storm_next_deadline(st), UINT64_MAX);
	storm_free(st);
	json_writer_done(&s.w);
}

static void test_status(void **state)
{
	const struct storm_config cfg = {
		.burst = 2, .window_usec = SEC, .summary_interval_usec = 10 * SEC,
		.quiet_usec = 30 * SEC, .max_signatures = 16,
	};
	const struct storm_key cpu_key = { .cpu = 3, .bank = 1, .code = 0xa50094, .per_cpu = true };
	const struct storm_key shared_key = { .cpu = 7, .bank = 9, .code = 0x91, .per_cpu = false };
	struct storm *st = NULL;
	struct json_writer w;

	(void) state;
	json_writer_init(&w);
	assert_int_equal(storm_new(&cfg, &st), 0);
	for (unsigned i = 0; i < 5; i++)
		storm_account(st, &cpu_key, MONO0 + i * 1000);
	storm_account(st, &shared_key, MONO0 + 10000);
	json_object_begin(&w, NULL);
	storm_status_write_json(st, REAL0 - (int64_t) MONO0, &w);
	json_object_end(&w);
	assert_string_equal(json_writer_str(&w),
		"{\"storms\":{\"active\":1,\"started\":1,\"ended\":0,\"seen\":6,\"logged\":3,"
		"\"suppressed\":3,\"overflow\":0,\"evicted\":0,\"tracked\":2,\"list\":["
		"{\"scope\":\"cpu\",\"cpu\":3,\"bank\":1,\"code\":\"0x00a50094\",\"logged\":2,"
		"\"suppressed\":3,\"pending\":3,\"summaries\":0,"
		"\"start\":\"2026-11-20T10:00:00.002000Z\",\"last\":\"2026-11-20T10:00:00.004000Z\"}]}}");
	storm_free(st);
	json_writer_done(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_scope),
		cmocka_unit_test(test_only_corrected_storm),
		cmocka_unit_test(test_message),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_close_loses_nothing),
		cmocka_unit_test(test_status),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
