/* SPDX-License-Identifier: MIT */
/* rules/ras-storm*: which ras records storm and under what signature, floods
 * summarised with every record accounted for, and how the summaries read. */
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

#include "json-writer.h"
#include "ras-storm-event.h"
#include "ras-storm-key.h"
#include "ras-storm.h"

#define SEC STORM_USEC_PER_SEC
#define REAL0 INT64_C(1795168800000000)
#define MONO0 (5000 * SEC)

/* An EDAC corrected error as the ras:mc_event tracepoint gives it. */
static void mc_event(struct ras_record *r, enum ras_severity sev, unsigned mc, int64_t channel,
		     const char *label, uint64_t address)
{
	ras_record_init(r, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
	r->severity = sev;
	assert_int_equal(ras_record_add_uint(r, "error_count", 1), 0);
	assert_int_equal(ras_record_add_string(r, "label", label, SIZE_MAX), 0);
	assert_int_equal(ras_record_add_string(r, "message", "memory read error", SIZE_MAX), 0);
	assert_int_equal(ras_record_add_uint(r, "mc", mc), 0);
	assert_int_equal(ras_record_add_int(r, "top_layer", 0), 0);
	assert_int_equal(ras_record_add_int(r, "middle_layer", channel), 0);
	assert_int_equal(ras_record_add_hex64(r, "address", address), 0);
	assert_int_equal(ras_record_add_hex64(r, "syndrome", address ^ 0x55), 0);
}

static void aer_event(struct ras_record *r, enum ras_severity sev, const char *dev, uint64_t status)
{
	ras_record_init(r, RAS_EVENT_PCIE_AER, MCE_SOURCE_RAS_AER_EVENT);
	r->severity = sev;
	assert_int_equal(ras_record_add_string(r, "dev_name", dev, SIZE_MAX), 0);
	assert_int_equal(ras_record_add_hex(r, sev == RAS_SEV_CORRECTED ? "correctable_status"
								       : "uncorrectable_status", status), 0);
	assert_int_equal(ras_record_add_string(r, "errors", "Receiver Error", SIZE_MAX), 0);
}

static void test_key_per_kind(void **state)
{
	struct ras_record r, r2;
	struct ras_storm_key k, k2;

	(void) state;
	/* mc_event: controller, location and label; the address and syndrome do not split it. */
	mc_event(&r, RAS_SEV_CORRECTED, 1, 2, "CPU_SrcID#0_MC#1_Chan#2_DIMM#0", 0x1000);
	assert_true(ras_storm_key_from_record(&r, &k));
	assert_int_equal(k.event, RAS_EVENT_MEMORY_CONTROLLER);
	assert_string_equal(k.text, "mc=1 top_layer=0 middle_layer=2 label=CPU_SrcID#0_MC#1_Chan#2_DIMM#0");
	mc_event(&r2, RAS_SEV_CORRECTED, 1, 2, "CPU_SrcID#0_MC#1_Chan#2_DIMM#0", 0x2040);
	assert_true(ras_storm_key_from_record(&r2, &k2));
	assert_true(ras_storm_key_equal(&k, &k2));
	ras_record_done(&r2);
	/* Another channel is another part. */
	mc_event(&r2, RAS_SEV_CORRECTED, 1, 3, "CPU_SrcID#0_MC#1_Chan#3_DIMM#0", 0x1000);
	assert_true(ras_storm_key_from_record(&r2, &k2));
	assert_false(ras_storm_key_equal(&k, &k2));
	ras_record_done(&r2);
	ras_record_done(&r);

	/* aer_event: device and status bits. */
	aer_event(&r, RAS_SEV_CORRECTED, "0000:00:1c.0", 0x1);
	assert_true(ras_storm_key_from_record(&r, &k));
	assert_int_equal(k.event, RAS_EVENT_PCIE_AER);
	assert_string_equal(k.text, "dev_name=0000:00:1c.0 correctable_status=0x1");
	ras_record_done(&r);
	aer_event(&r, RAS_SEV_CORRECTED, "0000:00:1c.0", 0x40);
	assert_true(ras_storm_key_from_record(&r, &k2));
	assert_false(ras_storm_key_equal(&k, &k2));
	ras_record_done(&r);

	/* A control character in a label cannot break the line it is written on. */
	mc_event(&r, RAS_SEV_CORRECTED, 0, 0, "DIMM\nA1", 0);
	assert_true(ras_storm_key_from_record(&r, &k));
	assert_string_equal(k.text, "mc=0 top_layer=0 middle_layer=0 label=DIMM?A1");
	ras_record_done(&r);

	/* ARM processor errors by MPIDR. */
	ras_record_init(&r, RAS_EVENT_ARM_PROCESSOR, MCE_SOURCE_RAS_ARM_EVENT);
	r.severity = RAS_SEV_CORRECTED;
	assert_int_equal(ras_record_add_hex64(&r, "mpidr", 0x81000100), 0);
	assert_true(ras_storm_key_from_record(&r, &k));
	assert_string_equal(k.text, "mpidr=0x81000100");
	ras_record_done(&r);
}

static void test_never_counted(void **state)
{
	struct ras_record r;
	struct ras_storm_key k;
	char label[300];

	(void) state;
	/* Not corrected: every one is logged. */
	for (enum ras_severity s = RAS_SEV_DEFERRED; s < _RAS_SEV_MAX; s++) {
		mc_event(&r, s, 0, 0, "DIMM_A1", 0);
		assert_false(ras_storm_key_from_record(&r, &k));
		ras_record_done(&r);
		aer_event(&r, s, "0000:00:1c.0", 0x20);
		assert_false(ras_storm_key_from_record(&r, &k));
		ras_record_done(&r);
	}
	/* A page the kernel acted on: never, whatever its severity. */
	ras_record_init(&r, RAS_EVENT_MEMORY_FAILURE, MCE_SOURCE_RAS_MEMORY_FAILURE_EVENT);
	r.severity = RAS_SEV_CORRECTED;
	assert_int_equal(ras_record_add_hex(&r, "pfn", 0x1234), 0);
	assert_false(ras_storm_key_from_record(&r, &k));
	ras_record_done(&r);
	/* History: the previous boot's and replayed records. */
	mc_event(&r, RAS_SEV_CORRECTED, 0, 0, "DIMM_A1", 0);
	r.source = MCE_SOURCE_PREVIOUS_BOOT;
	assert_false(ras_storm_key_from_record(&r, &k));
	r.source = MCE_SOURCE_REPLAY;
	assert_false(ras_storm_key_from_record(&r, &k));
	/* Its own live source, but read back from the trace instance at start. */
	r.source = MCE_SOURCE_RAS_MC_EVENT;
	assert_true(ras_storm_key_from_record(&r, &k));
	r.recovered = true;
	assert_false(ras_storm_key_from_record(&r, &k));
	r.recovered = false;
	/* A live source, but not this kind's. */
	r.source = MCE_SOURCE_RAS_AER_EVENT;
	assert_false(ras_storm_key_from_record(&r, &k));
	ras_record_done(&r);
	/* Nothing that names the part. */
	ras_record_init(&r, RAS_EVENT_PCIE_AER, MCE_SOURCE_RAS_AER_EVENT);
	r.severity = RAS_SEV_CORRECTED;
	assert_false(ras_storm_key_from_record(&r, &k));
	ras_record_done(&r);
	/* A signature too long to keep whole. */
	memset(label, 'x', sizeof(label) - 1);
	label[sizeof(label) - 1] = '\0';
	mc_event(&r, RAS_SEV_CORRECTED, 0, 0, label, 0);
	assert_false(ras_storm_key_from_record(&r, &k));
	ras_record_done(&r);
}

struct collected {
	uint64_t summarised, summaries, ends;
	char text[RAS_STORM_KEY_MAX];
	enum ras_event event;
};

static void collect(const struct storm_event *ev, const struct ras_storm_key *key, void *userdata)
{
	struct collected *c = userdata;

	snprintf(c->text, sizeof(c->text), "%s", key->text);
	c->event = key->event;
	if (ev->type == STORM_EVENT_SUMMARY) {
		c->summarised += ev->count;
		c->summaries++;
	} else
		c->ends++;
}

/* A corrected flood: the burst is logged, the rest counted, and the summaries hold every one counted. */
static void test_flood_summarised(void **state)
{
	_cleanup_ras_storm_ struct ras_storm *s = NULL;
	struct storm_counters k;
	struct collected c = {};
	struct ras_record r, ue;
	struct ras_storm_key key, other;
	uint64_t logged = 0, suppressed = 0, t = MONO0, collisions = 99;
	const unsigned n = 5000;

	(void) state;
	assert_int_equal(ras_storm_new(NULL, &s), 0);
	mc_event(&r, RAS_SEV_CORRECTED, 0, 1, "DIMM_B1", 0x4000);
	assert_true(ras_storm_key_from_record(&r, &key));
	aer_event(&ue, RAS_SEV_CORRECTED, "0000:3a:00.0", 0x1);
	assert_true(ras_storm_key_from_record(&ue, &other));

	for (unsigned i = 0; i < n; i++, t += 1000) {
		if (t >= ras_storm_next_deadline(s))
			ras_storm_tick(s, t, collect, &c);
		if (ras_storm_account(s, &key, t) == STORM_LOG)
			logged++;
		else
			suppressed++;
		/* A slow trickle from another part is never swallowed by the storm. */
		if (i % 1000 == 0)
			assert_int_equal(ras_storm_account(s, &other, t), STORM_LOG);
	}
	assert_int_equal(logged, STORM_DEFAULT_BURST);
	assert_int_equal(suppressed, n - STORM_DEFAULT_BURST);
	ras_storm_get_counters(s, &k, &collisions);
	assert_int_equal(k.active, 1);
	assert_int_equal(collisions, 0);

	/* Quiet long enough: the last summary and the end. */
	ras_storm_tick(s, t + STORM_DEFAULT_QUIET_USEC, collect, &c);
	assert_int_equal(c.summarised, suppressed);
	assert_true(c.summaries >= 1);
	assert_int_equal(c.ends, 1);
	assert_string_equal(c.text, key.text);
	assert_int_equal(c.event, RAS_EVENT_MEMORY_CONTROLLER);
	ras_storm_get_counters(s, &k, NULL);
	assert_int_equal(k.active, 0);
	assert_int_equal(k.seen, k.logged + k.suppressed);
	ras_record_done(&r);
	ras_record_done(&ue);
}

struct per_key {
	uint64_t summarised[2];
	const struct ras_storm_key *keys[2];
};

static void collect_per_key(const struct storm_event *ev, const struct ras_storm_key *key, void *userdata)
{
	struct per_key *c = userdata;

	if (ev->type != STORM_EVENT_SUMMARY)
		return;
	for (unsigned i = 0; i < 2; i++)
		if (ras_storm_key_equal(key, c->keys[i]))
			c->summarised[i] += ev->count;
}

/* Two floods at once, of two ports of one device: two storms, each summary named and counted apart. */
static void test_two_storms_apart(void **state)
{
	_cleanup_ras_storm_ struct ras_storm *s = NULL;
	struct ras_storm_key a = { .event = RAS_EVENT_PCIE_AER }, b = { .event = RAS_EVENT_PCIE_AER };
	struct per_key c = { .keys = { &a, &b } };
	uint64_t t = MONO0, suppressed[2] = { 0, 0 };
	struct storm_counters k;

	(void) state;
	snprintf(a.text, sizeof(a.text), "dev_name=0000:00:01.0 correctable_status=0x1");
	snprintf(b.text, sizeof(b.text), "dev_name=0000:00:01.1 correctable_status=0x1");
	assert_false(ras_storm_key_digest(&a).code == ras_storm_key_digest(&b).code);
	assert_int_equal(ras_storm_new(NULL, &s), 0);
	for (unsigned i = 0; i < 3000; i++, t += 500) {
		if (t >= ras_storm_next_deadline(s))
			ras_storm_tick(s, t, collect_per_key, &c);
		suppressed[0] += ras_storm_account(s, &a, t) == STORM_SUPPRESS;
		/* b at a third of a's rate. */
		if (i % 3 == 0)
			suppressed[1] += ras_storm_account(s, &b, t) == STORM_SUPPRESS;
	}
	ras_storm_get_counters(s, &k, NULL);
	assert_int_equal(k.active, 2);
	assert_int_equal(suppressed[0], 3000 - STORM_DEFAULT_BURST);
	assert_int_equal(suppressed[1], 1000 - STORM_DEFAULT_BURST);
	/* Closing (as at a stop) flushes both. */
	ras_storm_tick(s, UINT64_MAX, collect_per_key, &c);
	assert_int_equal(c.summarised[0], suppressed[0]);
	assert_int_equal(c.summarised[1], suppressed[1]);
}

static void test_rendering(void **state)
{
	struct ras_storm_key key = { .event = RAS_EVENT_PCIE_AER };
	struct storm_output o = {
		.now_usec = REAL0 + 60 * (int64_t) SEC, .offset_usec = REAL0 - (int64_t) MONO0,
		.hostname = "vm", .reason = STORM_END_QUIET,
	};
	struct storm_event ev = {
		.type = STORM_EVENT_SUMMARY, .count = 1234, .total = 2000, .logged = 10,
		.first_usec = MONO0 + SEC, .last_usec = MONO0 + 11 * SEC, .start_usec = MONO0,
	};
	struct json_writer w;
	json_object *o_json, *v;
	char msg[512];

	(void) state;
	snprintf(key.text, sizeof(key.text), "dev_name=0000:00:1c.0 correctable_status=0x1");
	ras_storm_event_message(&ev, &key, &o, msg, sizeof(msg));
	assert_string_equal(msg, "Corrected pcie_aer error storm on dev_name=0000:00:1c.0 correctable_status=0x1: "
			    "1234 more records in 10.0 s, 2000 since the storm began");
	json_writer_init(&w);
	ras_storm_event_write_json(&ev, &key, &o, &w);
	assert_false(json_writer_failed(&w));
	o_json = json_tokener_parse(json_writer_str(&w));
	assert_non_null(o_json);
	assert_true(json_object_object_get_ex(o_json, "event", &v));
	assert_string_equal(json_object_get_string(v), "storm_summary");
	assert_true(json_object_object_get_ex(o_json, "ras_event", &v));
	assert_string_equal(json_object_get_string(v), "pcie_aer");
	assert_true(json_object_object_get_ex(o_json, "source", &v));
	assert_string_equal(json_object_get_string(v), "ras:aer_event");
	assert_true(json_object_object_get_ex(o_json, "signature", &v));
	assert_string_equal(json_object_get_string(v), key.text);
	assert_true(json_object_object_get_ex(o_json, "count", &v));
	assert_int_equal(json_object_get_int64(v), 1234);
	assert_true(json_object_object_get_ex(o_json, "storm_start", &v));
	assert_string_equal(json_object_get_string(v), "2026-11-20T10:00:00.000000Z");
	json_object_put(o_json);

	ev.type = STORM_EVENT_END;
	o.reason = STORM_END_STOP;
	ras_storm_event_message(&ev, &key, &o, msg, sizeof(msg));
	assert_string_equal(msg, "Corrected pcie_aer error storm on dev_name=0000:00:1c.0 correctable_status=0x1 "
			    "closed as mcelogd stops after 11.0 s: 2000 records in summaries, 10 logged "
			    "individually before it");
	json_writer_done(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_per_kind),
		cmocka_unit_test(test_never_counted),
		cmocka_unit_test(test_flood_summarised),
		cmocka_unit_test(test_two_storms_apart),
		cmocka_unit_test(test_rendering),
	};

	return cmocka_run_group_tests_name("ras-storm", tests, NULL, NULL);
}
