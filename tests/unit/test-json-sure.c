/* SPDX-License-Identifier: MIT */
/*
 * lib/json-sure: a text it is sure of is an object json-c parses, and what
 * it is not sure of is left to json-c (never the other way: then mcectl
 * query would print a damaged MCE_JSON as a record).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "json-sure.h"

/* What query.c's entry_json() asks of json-c. */
static bool json_c_object(const char *s)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *o = json_tokener_parse_ex(tok, s, (int) strlen(s));
	bool ok = o && json_tokener_get_error(tok) == json_tokener_success && json_object_is_type(o, json_type_object);

	json_object_put(o);
	json_tokener_free(tok);
	return ok;
}

static bool sure(const char *s)
{
	return json_object_text_sure(s, strlen(s));
}

static void test_sure_of_what_mcelogd_writes(void **state)
{
	static const char *const texts[] = {
		"{}",
		" {\"a\":1} \n",
		("{\"time\":\"2026-11-01T00:00:00.000000Z\",\"cpu\":63,\"socket\":1,\"flags\":[\"VAL\",\"MISCV\"],"
		 "\"details\":{\"memory_controller\":3},\"x\":-0.5e-3,\"t\":true,\"f\":false,\"n\":null,\"e\":[]}"),
		"{\"s\":\"a \\\"quoted\\\" \\\\ \\/ \\b\\f\\n\\r\\t word\"}",
		"{\"utf8\":\"\xc3\xa9\"}",
	};

	(void) state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		assert_true(sure(texts[i]));
		assert_true(json_c_object(texts[i]));
	}
}

static void test_not_sure_of_the_rest(void **state)
{
	static const char *const texts[] = {
		"", "   ", "[]", "1", "\"s\"", "null", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{\"a\":1 \"b\":2}",
		"{a:1}", "{'a':1}", "{\"a\":01}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":1e}", "{\"a\":+1}",
		"{\"a\":tru}", "{\"a\":True}", "{\"a\":NaN}", "{\"a\":\"tab\there\"}", "{\"a\":\"\\u0041\"}",
		"{\"a\":\"\\x\"}", "{\"a\":12345678901234567890}", "{\"a\":1} x", "{\"a\":1}{}", "{\"a\":\"open}",
		"{\"a\":[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]}", "{\"a\":1}/* c */",
	};

	(void) state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		assert_false(sure(texts[i]));
	/* A NUL inside the length, and a length that cuts the object short. */
	assert_false(json_object_text_sure("{\"a\":\"x\0y\"}", 11));
	assert_false(json_object_text_sure("{\"a\":1}", 6));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sure_of_what_mcelogd_writes),
		cmocka_unit_test(test_not_sure_of_the_rest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
