/* SPDX-License-Identifier: MIT */
/*
 * devlink:devlink_health_report and devlink:devlink_health_recover_aborted
 * samples → struct ras_record, and what the rules and the storm detector
 * make of them, against the format files Linux 7.3 and 6.1 wrote in the
 * tests/vm guest (tests/data/tracefs/{7.3,6.1}/devlink: see its README).
 * Samples are built byte by byte to the format's offsets,
 * __data_loc payloads behind the fixed fields, as the kernel does.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "message-ids.h"
#include "ras-record.h"
#include "ras-storm-event.h"
#include "ras-storm-key.h"
#include "ras-storm.h"
#include "ras-trace.h"
#include "rule-field.h"
#include "tracefs-format.h"
#include "tracepoint-sample.h"

#define REPORT "tracefs/7.3/devlink/devlink_health_report.format"
#define ABORTED "tracefs/7.3/devlink/devlink_health_recover_aborted.format"
/* Captured from Debian 12's 6.1 kernel (tests/vm, 61-aer). */
#define REPORT_61 "tracefs/6.1/devlink/devlink_health_report.format"
#define ABORTED_61 "tracefs/6.1/devlink/devlink_health_recover_aborted.format"

/* The names every devlink event starts with, against the given format. */
static void names(struct ras_tp_layout *l, struct sample *s, enum ras_tp tp, const char *format,
		  const char *bus, const char *dev, const char *driver, const char *reporter)
{
	load(l, tp, format);
	sample_init(s, l);
	put_str(s, l, "bus_name", bus);
	put_str(s, l, "dev_name", dev);
	put_str(s, l, "driver_name", driver);
	put_str(s, l, "reporter_name", reporter);
}

/* A report as mlx5 sends one when its firmware asserts. */
static void report(struct ras_tp_layout *l, struct sample *s, const char *dev, const char *reporter,
		   const char *msg)
{
	names(l, s, RAS_TP_DEVLINK_HEALTH_REPORT, REPORT, "pci", dev, "mlx5_core", reporter);
	put_str(s, l, "msg", msg);
}

static void aborted(struct ras_tp_layout *l, struct sample *s, const char *dev, uint64_t state,
		    uint64_t since)
{
	names(l, s, RAS_TP_DEVLINK_RECOVER_ABORTED, ABORTED, "pci", dev, "mlx5_core", "fw_fatal");
	put(s, l, "health_state", state);
	put(s, l, "time_since_last_recover", since);
}

static void test_formats(void **state)
{
	struct ras_tp_layout l;

	(void) state;
	load(&l, RAS_TP_DEVLINK_HEALTH_REPORT, REPORT);
	assert_string_equal(ras_tp_name(RAS_TP_DEVLINK_HEALTH_REPORT), "devlink_health_report");
	assert_string_equal(mce_source_to_string(ras_tp_source(RAS_TP_DEVLINK_HEALTH_REPORT)),
			    "devlink:devlink_health_report");
	assert_true(field(&l, "msg")->is_data_loc);
	load(&l, RAS_TP_DEVLINK_RECOVER_ABORTED, ABORTED);
	assert_string_equal(ras_tp_name(RAS_TP_DEVLINK_RECOVER_ABORTED), "devlink_health_recover_aborted");
	assert_int_equal(field(&l, "health_state")->size, 1);
	assert_int_equal(field(&l, "time_since_last_recover")->offset, 32);
	assert_string_equal(ras_event_to_string(RAS_EVENT_DEVLINK_HEALTH), "devlink_health");
	assert_int_equal(ras_event_from_string("devlink_recover_aborted"), RAS_EVENT_DEVLINK_RECOVER_ABORTED);
	/* Each kind its own journal class, as query and the catalog know it. */
	assert_string_equal(ras_event_message_id(RAS_EVENT_DEVLINK_HEALTH), MCELOGD_MSGID_DEVLINK_HEALTH);
	assert_string_equal(ras_event_message_id(RAS_EVENT_DEVLINK_RECOVER_ABORTED),
			    MCELOGD_MSGID_DEVLINK_RECOVER_ABORTED);
}

static void test_report(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	report(&l, &s, "0000:3b:00.0", "fw_fatal", "FW fatal error");
	decode_ok(&l, &s, &r);
	assert_int_equal(r.event, RAS_EVENT_DEVLINK_HEALTH);
	assert_int_equal(r.source, MCE_SOURCE_DEVLINK_HEALTH_REPORT);
	assert_int_equal(r.severity, RAS_SEV_CORRECTED);
	assert_string_equal(str(&r, "bus"), "pci");
	assert_string_equal(str(&r, "dev_name"), "0000:3b:00.0");
	assert_string_equal(str(&r, "driver"), "mlx5_core");
	assert_string_equal(str(&r, "reporter"), "fw_fatal");
	assert_string_equal(str(&r, "message"), "FW fatal error");
	assert_string_equal(str(&r, "health_state"), "error");
	assert_string_equal(r.summary, "devlink health: mlx5_core 0000:3b:00.0 reporter fw_fatal: FW fatal error");
	ras_record_done(&r);

	/* A driver message with a newline (netdevsim passes what was written) stays one line. */
	report(&l, &s, "netdevsim10", "dummy", "queue 3\nstuck");
	decode_ok(&l, &s, &r);
	assert_null(strchr(str(&r, "message"), '\n'));
	assert_null(strchr(r.summary, '\n'));
	ras_record_done(&r);
}

static void test_recover_aborted(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	aborted(&l, &s, "0000:3b:00.1", 1, 250);
	decode_ok(&l, &s, &r);
	assert_int_equal(r.event, RAS_EVENT_DEVLINK_RECOVER_ABORTED);
	assert_int_equal(r.source, MCE_SOURCE_DEVLINK_RECOVER_ABORTED);
	assert_int_equal(r.severity, RAS_SEV_UNCORRECTED);
	assert_string_equal(str(&r, "reporter"), "fw_fatal");
	assert_string_equal(str(&r, "health_state"), "error");
	assert_int_equal(num(&r, "jiffies_since_recovery"), 250);
	assert_string_equal(r.summary, "devlink health: mlx5_core 0000:3b:00.1 reporter fw_fatal stays in error: "
				       "recovery not attempted");
	ras_record_done(&r);
	/* A state newer than the uapi enum: kept as the kernel's number. */
	aborted(&l, &s, "0000:3b:00.1", 7, 0);
	decode_ok(&l, &s, &r);
	assert_null(ras_record_find(&r, "health_state"));
	assert_int_equal(num(&r, "health_state_code"), 7);
	ras_record_done(&r);
}

/* The same samples against the formats a real 6.1 kernel wrote: the same records. */
static void test_captured_6_1(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	names(&l, &s, RAS_TP_DEVLINK_HEALTH_REPORT, REPORT_61, "netdevsim", "netdevsim10", "netdevsim", "dummy");
	put_str(&s, &l, "msg", "break");
	decode_ok(&l, &s, &r);
	assert_string_equal(r.summary, "devlink health: netdevsim netdevsim10 reporter dummy: break");
	ras_record_done(&r);
	names(&l, &s, RAS_TP_DEVLINK_RECOVER_ABORTED, ABORTED_61, "netdevsim", "netdevsim10", "netdevsim", "dummy");
	put(&s, &l, "health_state", 1);
	put(&s, &l, "time_since_last_recover", 4294937296u);
	decode_ok(&l, &s, &r);
	assert_string_equal(str(&r, "health_state"), "error");
	assert_int_equal(num(&r, "jiffies_since_recovery"), 4294937296u);
	ras_record_done(&r);
}

/* A name that points outside the sample is refused by name, not read. */
static void test_hostile(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	char why[256];

	(void) state;
	report(&l, &s, "0000:3b:00.0", "fw_fatal", "x");
	memcpy(s.b + field(&l, "reporter_name")->offset, &(uint32_t) { 300u << 16 | 40 }, 4);
	assert_int_equal(ras_tp_decode(&l, s.b, s.size, &r, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "'reporter_name'"));
}

static const char *rule_text(const struct ras_record *r, enum rule_field f)
{
	static struct rule_value v;

	if (!rule_field_get(&(struct rule_input) { .ras = r }, f, &v))
		return NULL;
	assert_true(v.is_string);
	return rule_value_string(&v);
}

/* What the rules see: driver, device, reporter, health state, a component of its own. */
static void test_rule_fields(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	report(&l, &s, "0000:3b:00.0", "tx", "TX timeout on queue: 5");
	decode_ok(&l, &s, &r);
	assert_string_equal(rule_text(&r, RULE_FIELD_KIND), "devlink_health");
	assert_string_equal(rule_text(&r, RULE_FIELD_SOURCE), "devlink:devlink_health_report");
	assert_string_equal(rule_text(&r, RULE_FIELD_SEVERITY), "corrected");
	assert_string_equal(rule_text(&r, RULE_FIELD_COMPONENT), "device");
	assert_string_equal(rule_text(&r, RULE_FIELD_DRIVER), "mlx5_core");
	assert_string_equal(rule_text(&r, RULE_FIELD_DEVICE), "0000:3b:00.0");
	assert_string_equal(rule_text(&r, RULE_FIELD_REPORTER), "tx");
	assert_string_equal(rule_text(&r, RULE_FIELD_HEALTH_STATE), "error");
	assert_null(rule_text(&r, RULE_FIELD_LABEL));
	ras_record_done(&r);
	assert_int_equal(rule_field_from_string("reporter"), RULE_FIELD_REPORTER);
	assert_true(rule_field_value_known(RULE_FIELD_HEALTH_STATE, "healthy"));
	assert_false(rule_field_value_known(RULE_FIELD_HEALTH_STATE, "sick"));
	assert_true(rule_field_value_known(RULE_FIELD_COMPONENT, "device"));
	assert_true(rule_field_value_known(RULE_FIELD_KIND, "devlink_recover_aborted"));
}

/*
 * A flapping reporter storms by device and reporter, whatever the message;
 * its aborted recoveries storm too, at their own severity, and the
 * summaries say which.
 */
static void test_storm(void **state)
{
	_cleanup_ras_storm_ struct ras_storm *st = NULL;
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	struct ras_storm_key k, k2, ka;
	struct storm_output o = { .reason = STORM_END_QUIET };
	struct storm_event ev = { .type = STORM_EVENT_SUMMARY, .count = 40, .total = 50, .logged = 10 };
	uint64_t t = 1000 * STORM_USEC_PER_SEC, suppressed = 0;
	char msg[512];

	(void) state;
	report(&l, &s, "0000:3b:00.0", "tx", "TX timeout on queue: 5");
	decode_ok(&l, &s, &r);
	assert_true(ras_storm_key_from_record(&r, &k));
	assert_string_equal(k.text, "bus=pci dev_name=0000:3b:00.0 reporter=tx");
	ras_record_done(&r);
	report(&l, &s, "0000:3b:00.0", "tx", "TX timeout on queue: 6");
	decode_ok(&l, &s, &r);
	assert_true(ras_storm_key_from_record(&r, &k2));
	assert_true(ras_storm_key_equal(&k, &k2));
	/* Read back from the trace instance at start: no rate, never counted. */
	r.recovered = true;
	assert_false(ras_storm_key_from_record(&r, &k2));
	ras_record_done(&r);
	/* Another port of the card is another part. */
	report(&l, &s, "0000:3b:00.1", "tx", "TX timeout on queue: 5");
	decode_ok(&l, &s, &r);
	assert_true(ras_storm_key_from_record(&r, &k2));
	assert_false(ras_storm_key_equal(&k, &k2));
	ras_record_done(&r);

	aborted(&l, &s, "0000:3b:00.0", 1, 3);
	decode_ok(&l, &s, &r);
	assert_true(ras_storm_key_from_record(&r, &ka));
	assert_int_equal(ka.event, RAS_EVENT_DEVLINK_RECOVER_ABORTED);
	assert_int_equal(ras_storm_source(ka.event), MCE_SOURCE_DEVLINK_RECOVER_ABORTED);
	ras_record_done(&r);

	/* A flood of reports: the burst logged, the rest counted. */
	assert_int_equal(ras_storm_new(NULL, &st), 0);
	for (unsigned i = 0; i < 500; i++, t += 10000)
		suppressed += ras_storm_account(st, &k, t) == STORM_SUPPRESS;
	assert_int_equal(suppressed, 500 - STORM_DEFAULT_BURST);

	ras_storm_event_message(&ev, &ka, &o, msg, sizeof(msg));
	assert_string_equal(msg, "Uncorrected devlink_recover_aborted error storm on bus=pci dev_name=0000:3b:00.0 "
			    "reporter=fw_fatal: 40 more records in 0.0 s, 50 since the storm began");
	ras_storm_event_message(&ev, &k, &o, msg, sizeof(msg));
	assert_non_null(strstr(msg, "Corrected devlink_health error storm on bus=pci"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_recover_aborted),
		cmocka_unit_test(test_captured_6_1),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_rule_fields),
		cmocka_unit_test(test_storm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
