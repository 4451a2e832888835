/* SPDX-License-Identifier: MIT */
/* Which ERST records were logged: the state file's form, and what it keeps. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "erst-state.h"

static const struct erst_logged a = { .backend = "erst", .id = 7723151386046693377ULL, .digest = 0xaf63dc4c8601ec8cULL };
static const struct erst_logged b = { .backend = "erst", .id = 7723151386046693378ULL, .digest = 0x1ULL };

static void test_round_trip(void **state)
{
	struct erst_state s = { .n = 0 }, t;
	char *text;
	size_t len;

	(void) state;
	erst_state_add(&s, &a);
	erst_state_add(&s, &b);
	erst_state_add(&s, &a);       /* once */
	assert_int_equal(s.n, 2);
	assert_int_equal(erst_state_format(&s, &text, &len), 0);
	assert_int_equal(strlen(text), len);
	assert_non_null(strstr(text, "record=erst 7723151386046693377 af63dc4c8601ec8c\n"));
	assert_int_equal(erst_state_parse(text, len, &t), 0);
	free(text);
	assert_int_equal(t.n, 2);
	assert_true(erst_state_has(&t, &a));
	assert_true(erst_state_has(&t, &b));
}

/* The same id with other bytes is another error: a store that reuses ids hides nothing. */
static void test_identity(void **state)
{
	struct erst_state s = { .n = 0 };
	struct erst_logged other = a;

	(void) state;
	erst_state_add(&s, &a);
	other.digest ^= 1;
	assert_false(erst_state_has(&s, &other));
	other = a;
	snprintf(other.backend, sizeof(other.backend), "efi");
	assert_false(erst_state_has(&s, &other));
}

static void test_keep(void **state)
{
	struct erst_state s = { .n = 0 };
	bool keep[2] = { false, true };

	(void) state;
	erst_state_add(&s, &a);
	erst_state_add(&s, &b);
	assert_int_equal(erst_state_keep(&s, keep), 1);
	assert_int_equal(s.n, 1);
	assert_true(erst_state_has(&s, &b));
	assert_false(erst_state_has(&s, &a));
}

static void test_full(void **state)
{
	struct erst_state *s = calloc(1, sizeof(*s));
	struct erst_logged e = a;

	(void) state;
	assert_non_null(s);
	for (unsigned i = 0; i < ERST_STATE_MAX + 1; i++) {
		e.id = i;
		erst_state_add(s, &e);
	}
	assert_int_equal(s->n, ERST_STATE_MAX);
	e.id = 0;
	assert_false(erst_state_has(s, &e));     /* the oldest gave way */
	e.id = ERST_STATE_MAX;
	assert_true(erst_state_has(s, &e));
	free(s);
}

static void test_foreign_text(void **state)
{
	struct erst_state s;
	static const char later[] = "# comment\nformat=2\nrecord=erst 5 00000000000000ff\n";
	static const char *const bad[] = {
		"record=erst 5\n", "record=erst x 5\n", "record= 5 5\n", "record=erst 5 zz\n", "garbage\n",
		"record=erst 5 5 5\n",
	};

	(void) state;
	assert_int_equal(erst_state_parse(later, strlen(later), &s), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.entries[0].digest, 0xff);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(erst_state_parse(bad[i], strlen(bad[i]), &s), -EINVAL);
	assert_int_equal(erst_state_parse("", 0, &s), 0);
	assert_int_equal(s.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_keep),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_foreign_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
