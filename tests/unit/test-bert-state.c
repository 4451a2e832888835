/* SPDX-License-Identifier: MIT */
/* The once-per-boot marker of the boot error region: its file form and the decision. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bert-state.h"

#define BOOT_A "0123456789abcdef0123456789abcdef"
#define BOOT_B "fedcba9876543210fedcba9876543210"

static void test_round_trip(void **state)
{
	struct bert_state s = { .boot_id = BOOT_A, .digest = 0xaf63dc4c8601ec8cULL, .length = 392 }, t;
	char text[256];
	int n;

	(void) state;
	n = bert_state_format(&s, text, sizeof(text));
	assert_true(n > 0 && (size_t) n < sizeof(text));
	assert_int_equal(bert_state_parse(text, (size_t) n, &t), 0);
	assert_string_equal(t.boot_id, BOOT_A);
	assert_int_equal(t.digest, s.digest);
	assert_int_equal(t.length, 392);
}

static void test_bad_files(void **state)
{
	static const char *const bad[] = {
		"",
		"boot_id=" BOOT_A "\ndigest=1\n",                              /* no length */
		"boot_id=0123\ndigest=1\nlength=2\n",                          /* short boot id */
		"boot_id=" BOOT_A "\ndigest=xyz\nlength=2\n",
		"boot_id=" BOOT_A "\ndigest=1\nlength=-2\n",
		"boot_id=" BOOT_A "\ndigest=1\nlength=99999999999999999999999\n",
		"garbage\n",
	};
	struct bert_state t;

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(bert_state_parse(bad[i], strlen(bad[i]), &t), -EINVAL);
	/* unknown keys from a later version are fine */
	static const char good[] = "# x\nboot_id=" BOOT_A "\ndigest=ff\nlength=2\nnew_key=1\n";
	assert_int_equal(bert_state_parse(good, strlen(good), &t), 0);
	assert_int_equal(t.digest, 0xff);
}

static void test_decide(void **state)
{
	struct bert_state s = { .boot_id = BOOT_A, .digest = 7, .length = 100 };

	(void) state;
	assert_int_equal(bert_state_decide(NULL, BOOT_A, 7, 100), BERT_LOG);
	assert_int_equal(bert_state_decide(&s, BOOT_A, 7, 100), BERT_SKIP_SAME_BOOT);
	/* same boot even if the bytes read differently: never log twice in one boot */
	assert_int_equal(bert_state_decide(&s, BOOT_A, 8, 100), BERT_SKIP_SAME_BOOT);
	assert_int_equal(bert_state_decide(&s, BOOT_B, 7, 100), BERT_SKIP_SAME_REGION);
	assert_int_equal(bert_state_decide(&s, BOOT_B, 8, 100), BERT_LOG);
	assert_int_equal(bert_state_decide(&s, BOOT_B, 7, 101), BERT_LOG);
	/* no boot id known: only the region decides */
	assert_int_equal(bert_state_decide(&s, "", 8, 100), BERT_LOG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_decide),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
