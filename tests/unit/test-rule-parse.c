/* SPDX-License-Identifier: MIT */
/* rules/rule-parse: rule files, and every error they can give, with file and line. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <cmocka.h>

#include "macro.h"
#include "rule.h"

static char errors[4096];
static unsigned n_errors;

static void collect(const char *file, unsigned line, const char *msg, void *userdata)
{
	size_t used = strlen(errors);

	(void) userdata;
	n_errors++;
	snprintf(errors + used, sizeof(errors) - used, "%s:%u: %s\n", file, line, msg);
}

static int parse(struct rule_set *s, const char *text)
{
	errors[0] = '\0';
	n_errors = 0;
	return rule_set_parse(s, text, strlen(text), "t.rules", collect, NULL);
}

static void test_full_rule(void **state)
{
	struct rule_set s;
	const struct rule *r;

	(void) state;
	rule_set_init(&s);
	assert_int_equal(parse(&s,
		"# a comment\n"
		"[Rule]\n"
		"Name=page-ce\n"
		"Match=kind=mce severity=corrected\n"
		"Match=error_class=memory_controller cpu=0x10|17 bank_type!=UMC\n"
		"Key=page\n"
		"Threshold=10 in 24h\n"
		"Action=alert soft-offline\n"
		"Priority=crit\n"
		"Holdoff=2h\n"
		"\n"
		"[Rule]\n"
		"Name=run-it\n"
		"Action=trigger\n"
		"Trigger=/usr/bin/logger -t mce  hello\n"
		"TriggerTimeout=5s\n"), 0);
	assert_int_equal(n_errors, 0);
	assert_int_equal(s.n_rules, 2);
	r = &s.rules[0];
	assert_string_equal(r->name, "page-ce");
	assert_int_equal(r->line, 2);
	assert_string_equal(r->file, "t.rules");
	assert_int_equal(r->n_terms, 5);
	assert_int_equal(r->terms[0].field, RULE_FIELD_KIND);
	assert_string_equal(r->terms[0].values[0].s, "mce");
	assert_int_equal(r->terms[3].field, RULE_FIELD_CPU);
	assert_int_equal(r->terms[3].n_values, 2);
	assert_int_equal(r->terms[3].values[0].u, 16);
	assert_int_equal(r->terms[3].values[1].u, 17);
	assert_true(r->terms[4].negate);
	assert_int_equal(r->n_key, 1);
	assert_int_equal(r->key[0], RULE_FIELD_PAGE);
	assert_int_equal(r->count, 10);
	assert_int_equal(r->window_usec, UINT64_C(24) * 3600 * 1000000);
	assert_int_equal(r->actions, RULE_ACTION_ALERT | RULE_ACTION_SOFT_OFFLINE);
	assert_int_equal(r->priority, LOG_CRIT);
	assert_int_equal(r->holdoff_usec, UINT64_C(2) * 3600 * 1000000);

	r = &s.rules[1];
	assert_int_equal(r->count, 1);
	assert_int_equal(r->window_usec, 0);
	assert_int_equal(r->priority, LOG_WARNING);
	assert_int_equal(r->trigger_argc, 4);
	assert_int_equal(r->trigger_timeout_usec, 5000000);
	{
		char buf[RULE_TRIGGER_MAX], *argv[RULE_TRIGGER_ARGS + 1];

		assert_int_equal(rule_trigger_argv(r, buf, argv), 4);
		assert_string_equal(argv[0], "/usr/bin/logger");
		assert_string_equal(argv[3], "hello");
		assert_null(argv[4]);
	}
	rule_set_done(&s);
}

/* Each bad input, the line it is reported on, and the words that say what is wrong. */
static const struct {
	const char *text;
	const char *expect;
} bad[] = {
	{ "[Rule]\nName=a\nAction=alert\nFoo=1\n",              "t.rules:4: unknown key 'Foo' in [Rule]" },
	{ "Name=a\n",                                           "t.rules:1: 'Name=' outside a [Rule] section" },
	{ "[Rules]\n",                                          "t.rules:1: unknown section [Rules]" },
	{ "[Rule]\nName=a\nAction=alert\nnonsense\n",           "t.rules:4: expected Key=Value, got 'nonsense'" },
	{ "[Rule]\nAction=alert\n",                             "t.rules:1: [Rule] has no Name=" },
	{ "[Rule]\nName=a b\nAction=alert\n",                   "t.rules:2: Name='a b': only letters" },
	{ "[Rule]\nName=a\nName=b\nAction=alert\n",             "t.rules:3: Name= is set twice" },
	{ "[Rule]\nName=a\nAction=alert\n[Rule]\nName=a\nAction=alert\n",
	  "t.rules:4: rule 'a' is defined twice" },
	{ "[Rule]\nName=a\n",                                   "t.rules:1: rule 'a' has no Action=" },
	{ "[Rule]\nName=a\nAction=alert page-offline\n",        "t.rules:3: Action=: unknown action 'page-offline'" },
	{ "[Rule]\nName=a\nKey=page\nAction=soft-offline hard-offline\n",
	  "t.rules:1: rule 'a': conflicting actions soft-offline and hard-offline" },
	{ "[Rule]\nName=a\nAction=soft-offline\n",              "t.rules:1: rule 'a': page offlining needs Key= to include page" },
	{ "[Rule]\nName=a\nKey=page\nAction=cpu-offline\n",     "t.rules:1: rule 'a': cpu-offline needs Key= to include cpu" },
	{ "[Rule]\nName=a\nKey=label\nAction=repair\n",         "t.rules:1: rule 'a': repair needs Key= to name the memory location" },
	{ "[Rule]\nName=a\nAction=alert repair\n",              "t.rules:1: rule 'a': repair needs Key= to name the memory location" },
	{ "[Rule]\nName=a\nKey=label row dram_bank\nAction=repair\n", "t.rules:1: rule 'a': repair needs Key= to name" },
	{ "[Rule]\nName=a\nKey=dpa\nAction=repair\n",           "t.rules:1: rule 'a': repair needs Key= to name" },
	{ "[Rule]\nName=a\nAction=trigger\n",                   "t.rules:1: rule 'a': Action=trigger needs Trigger=" },
	{ "[Rule]\nName=a\nAction=alert\nTrigger=/bin/true\n",  "t.rules:1: rule 'a': Trigger= or TriggerTimeout= is set but Action= has no trigger" },
	{ "[Rule]\nName=a\nAction=alert\nMatch=sevrity=corrected\n", "t.rules:4: Match=: unknown field 'sevrity'" },
	{ "[Rule]\nName=a\nAction=alert\nMatch=severity=corected\n",
	  "t.rules:4: Match=: 'corected' is not a value of 'severity'; expected one of: corrected, deferred, uncorrected, fatal, info" },
	{ "[Rule]\nName=a\nAction=alert\nMatch=cpu=twelve\n",   "t.rules:4: Match=: 'twelve' is not a number for 'cpu'" },
	{ "[Rule]\nName=a\nAction=alert\nMatch=cpu=1||2\n",     "t.rules:4: Match=: empty value for 'cpu'" },
	{ "[Rule]\nName=a\nAction=alert\nMatch=severity\n",     "t.rules:4: Match=: 'severity' is not a field=value term" },
	{ "[Rule]\nName=a\nAction=alert\nMatch=\n",             "t.rules:4: Match= is empty" },
	{ "[Rule]\nName=a\nAction=alert\nKey=pages\n",          "t.rules:4: Key=: unknown field 'pages'" },
	{ "[Rule]\nName=a\nAction=alert\nKey=page page\n",      "t.rules:4: Key=: field 'page' is listed twice" },
	{ "[Rule]\nName=a\nAction=alert\nThreshold=10\n",       "t.rules:4: Threshold= expects 'N in T'" },
	{ "[Rule]\nName=a\nAction=alert\nThreshold=10 per 24h\n", "t.rules:4: Threshold= expects 'N in T'" },
	{ "[Rule]\nName=a\nAction=alert\nThreshold=0 in 24h\n", "t.rules:4: Threshold=: '0' is not a count from 1 to 10000" },
	{ "[Rule]\nName=a\nAction=alert\nThreshold=-1 in 24h\n", "t.rules:4: Threshold=: '-1' is not a count" },
	{ "[Rule]\nName=a\nAction=alert\nThreshold=10001 in 24h\n", "t.rules:4: Threshold=: '10001' is not a count" },
	{ "[Rule]\nName=a\nAction=alert\nThreshold=10 in 24 hourz\n", "t.rules:4: Threshold=: '24 hourz' is not a time span" },
	{ "[Rule]\nName=a\nAction=alert\nThreshold=10 in 0s\n", "t.rules:4: Threshold=: '0s' is not a time span" },
	{ "[Rule]\nName=a\nAction=alert\nThreshold=10 in 400d\n", "t.rules:4: Threshold=: '400d' is not a time span from 1us to 366d" },
	{ "[Rule]\nName=a\nAction=alert\nThreshold=1 in 1h\nThreshold=2 in 1h\n", "t.rules:5: Threshold= is set twice" },
	{ "[Rule]\nName=a\nAction=alert\nHoldoff=later\n",    "t.rules:4: Holdoff=: 'later' is not a time span from 0 to 366d" },
	{ "[Rule]\nName=a\nAction=alert\nPriority=loud\n",      "t.rules:4: Priority=: 'loud' is not one of" },
	{ "[Rule]\nName=a\nAction=trigger\nTrigger=x.sh\n",     "t.rules:4: Trigger=: 'x.sh' is not an absolute path" },
	{ "[Rule]\nName=a\nAction=trigger\nTrigger=/bin/sh -c 'x; y'\n", "t.rules:4: Trigger= is run without a shell" },
	{ "[Rule]\nName=a\nAction=trigger\nTrigger=/bin/x\nTriggerTimeout=soon\n",
	  "t.rules:5: TriggerTimeout=: 'soon' is not a time span from 1ms to 1h" },
	{ "[Rule]\nName=a\nAction=trigger\nTrigger=/bin/x\nTriggerTimeout=2h\n",
	  "t.rules:5: TriggerTimeout=: '2h' is not a time span from 1ms to 1h" },
};

static void test_errors(void **state)
{
	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rule_set s;

		rule_set_init(&s);
		assert_int_equal(parse(&s, bad[i].text), -EINVAL);
		if (!strstr(errors, bad[i].expect)) {
			print_error("case %zu: expected '%s', got:\n%s", i, bad[i].expect, errors);
			fail();
		}
		/* A file with any error adds no rule. */
		assert_int_equal(s.n_rules, 0);
		rule_set_done(&s);
	}
}

/* Every problem of a file is reported, not only the first. */
static void test_all_errors_reported(void **state)
{
	struct rule_set s;

	(void) state;
	rule_set_init(&s);
	assert_int_equal(parse(&s, "[Rule]\nName=a\nAction=alert\nFoo=1\nBar=2\nKey=nope\n"), -EINVAL);
	assert_int_equal(n_errors, 3);
	assert_non_null(strstr(errors, "t.rules:5: unknown key 'Bar'"));
	assert_non_null(strstr(errors, "t.rules:6: Key=: unknown field 'nope'"));
	rule_set_done(&s);
}

/* Rules from several files: a name taken by an earlier file is an error; good files stay. */
static void test_across_files(void **state)
{
	struct rule_set s;

	(void) state;
	rule_set_init(&s);
	assert_int_equal(parse(&s, "[Rule]\nName=a\nAction=alert\n"), 0);
	assert_int_equal(parse(&s, "[Rule]\nName=b\nAction=alert\n[Rule]\nName=a\nAction=alert\n"),
			 -EINVAL);
	assert_non_null(strstr(errors, "t.rules:4: rule 'a' is defined twice"));
	assert_int_equal(s.n_rules, 1);
	assert_int_equal(parse(&s, "\xef\xbb\xbf# empty but for a BOM and a comment\n"), 0);
	assert_int_equal(parse(&s, "[Rule]\r\nName=c\r\nAction= \r\nAction=alert\r\n"), 0);
	assert_int_equal(s.n_rules, 2);
	assert_string_equal(s.rules[1].name, "c");
	rule_set_done(&s);
}

static void test_limits(void **state)
{
	char text[8192] = "[Rule]\nName=a\nAction=alert\nMatch=";
	struct rule_set s;

	(void) state;
	for (unsigned i = 0; i <= RULE_MAX_TERMS; i++)
		strcat(text, "cpu=1 ");
	strcat(text, "\n");
	rule_set_init(&s);
	assert_int_equal(parse(&s, text), -EINVAL);
	assert_non_null(strstr(errors, "more than 16 terms"));
	assert_int_equal(parse(&s, "[Rule]\nName=a\nAction=alert\nMatch=cpu=1|2|3|4|5|6|7|8|9\n"),
			 -EINVAL);
	assert_non_null(strstr(errors, "more than 8 values for 'cpu'"));
	assert_int_equal(parse(&s, "[Rule]\nName=a\nAction=alert\nKey=cpu socket bank mc channel dimm rank row label\n"),
			 -EINVAL);
	assert_non_null(strstr(errors, "Key=: more than 8 fields"));
	rule_set_done(&s);
}

/* What mcectl rules prints reads back as the same rule. */
static void test_format_round_trip(void **state)
{
	char match[512], again[512], text[1024], buf[128];
	struct rule_set s;

	(void) state;
	rule_set_init(&s);
	assert_int_equal(parse(&s, "[Rule]\nName=a\nMatch=severity=corrected|deferred cpu!=3 "
			       "page=0x12345 bank_type=UMC\nKey=socket page\nThreshold=3 in 90min\n"
			       "Action=trigger alert\nTrigger=/bin/true\n"
			       "[Rule]\nName=b\nAction=alert\n"), 0);
	rule_format_match(&s.rules[0], match, sizeof(match));
	assert_string_equal(match, "severity=corrected|deferred cpu!=3 page=0x12345 bank_type=UMC");
	rule_format_key(&s.rules[0], buf, sizeof(buf));
	assert_string_equal(buf, "socket page");
	rule_format_threshold(&s.rules[0], buf, sizeof(buf));
	assert_string_equal(buf, "3 in 90min");
	rule_format_actions(&s.rules[0], buf, sizeof(buf));
	assert_string_equal(buf, "alert trigger");
	rule_format_threshold(&s.rules[1], buf, sizeof(buf));
	assert_string_equal(buf, "every record");
	rule_format_match(&s.rules[1], buf, sizeof(buf));
	assert_string_equal(buf, "");
	/* A buffer too small is cut, never overrun. */
	rule_format_match(&s.rules[0], buf, 10);
	assert_string_equal(buf, "severity=");
	snprintf(text, sizeof(text), "[Rule]\nName=c\nAction=alert\nMatch=%s\n", match);
	assert_int_equal(parse(&s, text), 0);
	rule_format_match(&s.rules[2], again, sizeof(again));
	assert_string_equal(again, match);
	rule_set_done(&s);
}

/* offline-row: a rule about one DRAM row, which the key must name; never a page rule at once. */
static void test_offline_row(void **state)
{
	struct rule_set s;

	(void) state;
	rule_set_init(&s);
	assert_int_equal(parse(&s, "[Rule]\nName=row\nMatch=kind=memory_controller\n"
			       "Key=label rank bank_group dram_bank row\nThreshold=5 in 24h\n"
			       "Action=alert offline-row\n"), 0);
	assert_int_equal(s.n_rules, 1);
	assert_int_equal(s.rules[0].actions, RULE_ACTION_ALERT | RULE_ACTION_OFFLINE_ROW);
	assert_int_equal(s.rules[0].n_key, 5);
	assert_string_equal(rule_action_to_string(RULE_ACTION_OFFLINE_ROW), "offline-row");
	/* The row number alone, without its bank, is many rows. */
	assert_int_equal(parse(&s, "[Rule]\nName=r2\nKey=label row\nAction=offline-row\n"), -EINVAL);
	assert_non_null(strstr(errors, "offline-row needs Key= to include row and dram_bank"));
	assert_int_equal(parse(&s, "[Rule]\nName=r3\nKey=label dram_bank\nAction=offline-row\n"), -EINVAL);
	assert_non_null(strstr(errors, "offline-row needs Key= to include row and dram_bank"));
	/* Keyed by page, each page would be its own "row". */
	assert_int_equal(parse(&s, "[Rule]\nName=r4\nKey=dram_bank row page\nAction=offline-row\n"), -EINVAL);
	assert_non_null(strstr(errors, "offline-row counts a row, not a page"));
	assert_int_equal(parse(&s, "[Rule]\nName=r5\nKey=dram_bank row\nAction=offline-row hard-offline\n"),
			 -EINVAL);
	assert_non_null(strstr(errors, "offline-row counts a row, not a page"));
	assert_int_equal(s.n_rules, 1);
	rule_set_done(&s);
}

/* Action=repair: the key names one location, as a host page, a device's DPA or a device's DRAM row. */
static void test_repair_key(void **state)
{
	static const char *const keys[] = {
		"label dpa", "page", "address", "label channel rank bank_group dram_bank row",
		"label channel rank bank_group dram_bank row column",
	};
	struct rule_set s;
	char text[256];

	(void) state;
	rule_set_init(&s);
	for (size_t i = 0; i < ELEMENTSOF(keys); i++) {
		snprintf(text, sizeof(text), "[Rule]\nName=r%zu\nMatch=kind=cxl_dram\nKey=%s\nAction=alert repair\n",
			 i, keys[i]);
		assert_int_equal(parse(&s, text), 0);
	}
	assert_int_equal(s.n_rules, ELEMENTSOF(keys));
	rule_set_done(&s);
}

static void test_names(void **state)
{
	(void) state;
	assert_string_equal(rule_action_to_string(RULE_ACTION_SOFT_OFFLINE), "soft-offline");
	assert_string_equal(rule_action_to_string(RULE_ACTION_TRIGGER), "trigger");
	assert_string_equal(rule_priority_to_string(LOG_WARNING), "warning");
	assert_string_equal(rule_priority_to_string(9), "unknown");
	for (int f = 0; f < _RULE_FIELD_MAX; f++)
		assert_int_equal(rule_field_from_string(rule_field_to_string(f)), f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_rule),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_all_errors_reported),
		cmocka_unit_test(test_across_files),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_format_round_trip),
		cmocka_unit_test(test_offline_row),
		cmocka_unit_test(test_repair_key),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
