/* SPDX-License-Identifier: MIT */
/*
 * The PT snapshot providers as the snapshot stage drives them, on whatever
 * machine runs the test: ProcessorTrace=no opens no recorder; a record with
 * no CPU, and a machine without PT (AMD, a VM: every CI host so far), give
 * {"unavailable": "<reason>"} and never a missing key or a failure; and
 * status says the same.  What only hardware with PT shows is in README
 * ("On real hardware").
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "daemon-config.h"
#include "json-writer.h"
#include "pt-providers.h"
#include "record.h"
#include "source.h"

static json_object *annotate(const struct snapshot_ops *ops, void *s, const struct snapshot_subject *sub)
{
	struct json_writer w;
	struct snapshot_out out = { .json = &w };
	json_object *o, *v = NULL;

	json_writer_init(&w);
	json_object_begin(&w, NULL);
	ops->annotate(s, sub, &out);
	json_object_end(&w);
	o = json_tokener_parse(json_writer_str(&w));
	json_writer_done(&w);
	assert_non_null(o);
	/* exactly one key, the provider's own */
	assert_int_equal(json_object_object_length(o), 1);
	assert_true(json_object_object_get_ex(o, ops->name, &v));
	json_object_get(v);
	json_object_put(o);
	return v;
}

static const char *unavailable(json_object *v)
{
	json_object *u;

	return json_object_object_get_ex(v, "unavailable", &u) ? json_object_get_string(u) : NULL;
}

static void test_pt_off_by_default(void **state)
{
	struct mcelogd_config c;
	struct source_paths paths = { .state_directory = "/nonexistent" };
	struct snapshot_params p = { .config = &c, .paths = &paths };
	void *s = (void *) 1;
	(void) state;

	config_set_defaults(&c);
	assert_false(c.snapshot.processor_trace);
	assert_int_equal(snapshot_pt_ops.open(&p, &s), 0);
	assert_null(s);
}

static void test_no_cpu_or_no_pt_is_unavailable(void **state)
{
	static const struct snapshot_ops *const ops[] = { &snapshot_rtit_ops, &snapshot_pt_ops };
	struct mcelogd_config c;
	char dir[] = "/tmp/test-pt-providers.XXXXXX";
	struct source_paths paths = { .state_directory = mkdtemp(dir) };
	struct snapshot_params p = { .config = &c, .paths = &paths };
	const struct snapshot_subject no_cpu = { .have_time = true };
	(void) state;

	assert_non_null(paths.state_directory);
	config_set_defaults(&c);
	c.snapshot.processor_trace = true;
	for (size_t i = 0; i < 2; i++) {
		void *s = NULL;
		json_object *v;
		struct json_writer w;

		assert_int_equal(ops[i]->open(&p, &s), 0);
		assert_non_null(s);
		v = annotate(ops[i], s, &no_cpu);
		assert_non_null(unavailable(v));
		assert_true(strlen(unavailable(v)) > 10);
		json_object_put(v);

		json_writer_init(&w);
		json_object_begin(&w, NULL);
		ops[i]->status(s, &w);
		json_object_end(&w);
		assert_false(json_writer_failed(&w));
		json_object *st = json_tokener_parse(json_writer_str(&w));
		assert_non_null(st);
		json_object_put(st);
		json_writer_done(&w);
		ops[i]->close(s);
	}
	rmdir(dir);   /* nothing was saved: the record had no CPU */
	assert_int_equal(access(dir, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pt_off_by_default),
		cmocka_unit_test(test_no_cpu_or_no_pt_is_unavailable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
