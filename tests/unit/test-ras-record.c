/* SPDX-License-Identifier: MIT */
/* The non-MCA record: typed fields, bounds, and its JSON form. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "json-writer.h"
#include "ras-record.h"

static json_object *render(const struct ras_record *r, struct json_writer *w)
{
	json_object *o;

	json_writer_reset(w);
	ras_record_write_json(r, w);
	assert_false(json_writer_failed(w));
	o = json_tokener_parse(json_writer_str(w));
	assert_non_null(o);
	return o;
}

static const char *str(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return NULL;
	return json_object_get_string(v);
}

static void test_fields_in_order_and_typed(void **state)
{
	struct ras_record r;
	struct json_writer w;
	json_object *o, *v;
	static const uint8_t raw[] = { 0x00, 0xab, 0x10, 0xff };

	(void) state;
	json_writer_init(&w);
	ras_record_init(&r, RAS_EVENT_MEMORY_CONTROLLER, MCE_SOURCE_RAS_MC_EVENT);
	r.severity = RAS_SEV_CORRECTED;
	r.have_time = true;
	r.time_usec = 1795219758291691LL;
	r.have_cpu = true;
	r.cpu = 3;
	snprintf(r.summary, sizeof(r.summary), "1 corrected memory error on DIMM_A1");
	assert_int_equal(ras_record_add_uint(&r, "error_count", 1), 0);
	assert_int_equal(ras_record_add_string(&r, "label", "DIMM_A1\0garbage", 32), 0);
	assert_int_equal(ras_record_add_hex64(&r, "address", 0x123456789abcdef0ull), 0);
	assert_int_equal(ras_record_add_int(&r, "rank", -1), 0);
	assert_int_equal(ras_record_add_bytes(&r, "raw", raw, sizeof(raw)), 0);
	assert_int_equal(ras_record_add_string(&r, "quoted", "a\"b\nc", 5), 0);

	o = render(&r, &w);
	assert_string_equal(str(o, "source"), "ras:mc_event");
	assert_string_equal(str(o, "event"), "memory_controller");
	assert_string_equal(str(o, "severity"), "corrected");
	assert_string_equal(str(o, "time"), "2026-11-21T00:09:18.291691Z");
	assert_string_equal(str(o, "label"), "DIMM_A1");
	assert_string_equal(str(o, "address"), "0x123456789abcdef0");
	assert_string_equal(str(o, "raw"), "00ab10ff");
	assert_string_equal(str(o, "quoted"), "a\"b\nc");
	assert_true(json_object_object_get_ex(o, "rank", &v));
	assert_int_equal(json_object_get_int64(v), -1);
	assert_true(json_object_object_get_ex(o, "cpu", &v));
	assert_int_equal(json_object_get_int(v), 3);
	assert_false(json_object_object_get_ex(o, "truncated", &v));
	assert_non_null(ras_record_find(&r, "label"));
	assert_null(ras_record_find(&r, "nope"));
	json_object_put(o);
	ras_record_done(&r);
	json_writer_done(&w);
}

static void test_bounds_mark_truncated(void **state)
{
	struct ras_record r;
	struct json_writer w;
	json_object *o, *v;
	static char big[RAS_RECORD_MAX_DATA + 1];

	(void) state;
	json_writer_init(&w);
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	for (unsigned i = 0; i < RAS_RECORD_MAX_FIELDS; i++)
		assert_int_equal(ras_record_add_uint(&r, "n", i), 0);
	assert_int_equal(ras_record_add_uint(&r, "one_too_many", 1), -E2BIG);
	assert_true(r.truncated);
	ras_record_done(&r);

	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	assert_int_equal(ras_record_add_bytes(&r, "raw", big, sizeof(big)), -E2BIG);
	assert_int_equal(r.n_fields, 0);
	o = render(&r, &w);
	assert_true(json_object_object_get_ex(o, "truncated", &v));
	assert_true(json_object_get_boolean(v));
	/* an impossible severity is never rendered as harmless */
	r.severity = (enum ras_severity) 99;
	json_object_put(o);
	o = render(&r, &w);
	assert_string_equal(str(o, "severity"), "uncorrected");
	json_object_put(o);
	ras_record_done(&r);
	json_writer_done(&w);
}

static void test_names_round_trip(void **state)
{
	(void) state;
	for (int e = 0; e < _RAS_EVENT_MAX; e++)
		assert_int_equal(ras_event_from_string(ras_event_to_string((enum ras_event) e)), e);
	for (int s = 0; s < _RAS_SEV_MAX; s++)
		assert_int_equal(ras_severity_from_string(ras_severity_to_string((enum ras_severity) s)), s);
	assert_int_equal(ras_event_from_string("bogus"), _RAS_EVENT_INVALID);
	for (int s = MCE_SOURCE_RAS_MC_EVENT; s <= MCE_SOURCE_RAS_NON_STANDARD_EVENT; s++)
		assert_int_equal(mce_source_from_string(mce_source_to_string((enum mce_source) s)), s);
}

/*
 * ras_record_find() by the record's index: a key's first field, by its text
 * (a key from the input is no literal), none for a key not given, and
 * nothing left of a record's fields once it is done.
 */
static void test_find_by_key(void **state)
{
	static char keys[RAS_RECORD_MAX_FIELDS][8];
	struct ras_record r;
	char probe[8];
	const struct ras_field *f;

	(void) state;
	ras_record_init(&r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	for (unsigned i = 0; i < RAS_RECORD_MAX_FIELDS - 1; i++) {
		snprintf(keys[i], sizeof(keys[i]), "k%u", i);
		assert_int_equal(ras_record_add_uint(&r, keys[i], i), 0);
	}
	assert_int_equal(ras_record_add_uint(&r, keys[7], 1000), 0);   /* given twice: the first counts */
	for (unsigned i = 0; i < RAS_RECORD_MAX_FIELDS - 1; i++) {
		snprintf(probe, sizeof(probe), "k%u", i);
		f = ras_record_find(&r, probe);
		assert_non_null(f);
		assert_ptr_equal(f, &r.fields[i]);
		assert_int_equal(f->u, i);
	}
	assert_null(ras_record_find(&r, "k63"));
	assert_null(ras_record_find(&r, "k"));
	assert_null(ras_record_find(&r, ""));
	ras_record_done(&r);
	assert_null(ras_record_find(&r, "k7"));
	assert_int_equal(ras_record_add_string(&r, "k7", "again", 5), 0);
	f = ras_record_find(&r, "k7");
	assert_non_null(f);
	assert_string_equal(f->data, "again");
	ras_record_done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields_in_order_and_typed),
		cmocka_unit_test(test_bounds_mark_truncated),
		cmocka_unit_test(test_names_round_trip),
		cmocka_unit_test(test_find_by_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
