/* SPDX-License-Identifier: MIT */
/*
 * The join of a memory error's SIGBUS with its memory-failure record
 * (rules/memory-kill.h), the unit of a process from /proc/PID/cgroup text
 * (lib/cgroup-unit.h), and disk errors as storms (rules/ras-storm-key.h).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cgroup-unit.h"
#include "memory-kill.h"
#include "ras-record.h"
#include "ras-storm-key.h"

static void sigbus(struct ras_record *r, int64_t t, int64_t pid, const char *code)
{
	ras_record_init(r, RAS_EVENT_SIGBUS, MCE_SOURCE_SIGNAL_GENERATE);
	r->have_time = true;
	r->time_usec = t;
	assert_int_equal(ras_record_add_string(r, "comm", "postgres", SIZE_MAX), 0);
	assert_int_equal(ras_record_add_int(r, "pid", pid), 0);
	if (code)
		assert_int_equal(ras_record_add_string(r, "code", code, SIZE_MAX), 0);
	assert_int_equal(ras_record_add_string(r, "unit", "postgresql@15-main.service", SIZE_MAX), 0);
	snprintf(r->summary, sizeof(r->summary), "Memory error: SIGBUS");
}

static void failure(struct ras_record *r, int64_t t, uint64_t pfn)
{
	ras_record_init(r, RAS_EVENT_MEMORY_FAILURE, MCE_SOURCE_RAS_MEMORY_FAILURE_EVENT);
	r->have_time = true;
	r->time_usec = t;
	assert_int_equal(ras_record_add_hex(r, "pfn", pfn), 0);
	snprintf(r->summary, sizeof(r->summary), "Memory failure at pfn 0x%llx", (unsigned long long) pfn);
}

static const char *text(const struct ras_record *r, const char *key)
{
	const struct ras_field *f = ras_record_find(r, key);

	return f && f->type == RAS_FIELD_STRING ? f->data : NULL;
}

/* The kernel's order: the processes are signalled, then the page is traced. */
static void test_kill_then_failure(void **state)
{
	struct memory_kill_join j = { .n_kills = 0 };
	struct ras_record k, f;

	(void) state;
	sigbus(&k, 1000000, 4242, "action_optional");
	assert_false(memory_kill_join_note(&j, &k));
	assert_null(ras_record_find(&k, "pfn"));
	failure(&f, 1000040, 0x1234);
	assert_true(memory_kill_join_note(&j, &f));
	assert_string_equal(text(&f, "killed_comm"), "postgres");
	assert_int_equal(ras_record_find(&f, "killed_pid")->i, 4242);
	assert_string_equal(text(&f, "killed_unit"), "postgresql@15-main.service");
	assert_string_equal(text(&f, "killed_code"), "action_optional");
	assert_null(ras_record_find(&f, "kills"));
	assert_string_equal(f.summary,
			    "Memory failure at pfn 0x1234; SIGBUS to postgres[4242] of postgresql@15-main.service");
	ras_record_done(&k);
	ras_record_done(&f);
	/* A kill is joined once: the next page's failure, a moment later, names nobody. */
	failure(&f, 1000100, 0x1235);
	assert_false(memory_kill_join_note(&j, &f));
	assert_null(ras_record_find(&f, "killed_pid"));
	ras_record_done(&f);
}

/* A failure first (another kernel's order): the SIGBUS that follows names its page. */
static void test_failure_then_kill(void **state)
{
	struct memory_kill_join j = { .n_kills = 0 };
	struct ras_record k, f;

	(void) state;
	failure(&f, 5000000, 0xabc);
	assert_false(memory_kill_join_note(&j, &f));
	ras_record_done(&f);
	sigbus(&k, 5000300, 7, "action_required");
	assert_true(memory_kill_join_note(&j, &k));
	assert_int_equal(ras_record_find(&k, "pfn")->u, 0xabc);
	ras_record_done(&k);
}

/* Apart by more than the window, or a signal that is no memory error's: never joined. */
static void test_not_joined(void **state)
{
	struct memory_kill_join j = { .n_kills = 0 };
	struct ras_record k, f;

	(void) state;
	sigbus(&k, 1000000, 1, "action_required");
	memory_kill_join_note(&j, &k);
	ras_record_done(&k);
	failure(&f, 1000000 + MEMORY_KILL_WINDOW_USEC, 0x1);
	assert_false(memory_kill_join_note(&j, &f));
	ras_record_done(&f);
	sigbus(&k, 9000000, 2, NULL);
	memory_kill_join_note(&j, &k);
	ras_record_done(&k);
	failure(&f, 9000001, 0x2);
	assert_false(memory_kill_join_note(&j, &f));
	ras_record_done(&f);
}

/* Several processes mapped the page: the first one signalled is named, and how many. */
static void test_several_kills(void **state)
{
	struct memory_kill_join j = { .n_kills = 0 };
	struct ras_record k, f;

	(void) state;
	for (int i = 0; i < 3; i++) {
		sigbus(&k, 2000000 + i, 100 + i, "action_optional");
		memory_kill_join_note(&j, &k);
		ras_record_done(&k);
	}
	failure(&f, 2000010, 0x99);
	assert_true(memory_kill_join_note(&j, &f));
	assert_int_equal(ras_record_find(&f, "killed_pid")->i, 100);
	assert_int_equal(ras_record_find(&f, "kills")->u, 3);
	ras_record_done(&f);
}

static void test_cgroup_unit(void **state)
{
	static const struct { const char *text, *unit, *user_unit; int r; } cases[] = {
		{ "0::/system.slice/nginx.service\n", "nginx.service", "", 0 },
		{ "0::/system.slice/system-postgresql.slice/postgresql@15-main.service\n",
		  "postgresql@15-main.service", "", 0 },
		{ "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-firefox-12.scope\n",
		  "user@1000.service", "app-firefox-12.scope", 0 },
		{ "0::/system.slice/docker-0123abcd.scope/init.scope\n", "docker-0123abcd.scope", "init.scope", 0 },
		/* A hybrid hierarchy: the unified line wins over the controllers'. */
		{ "12:memory:/system.slice/foo.service\n1:name=systemd:/system.slice/bar.service\n"
		  "0::/system.slice/baz.service\n", "baz.service", "", 0 },
		/* Legacy: systemd's named hierarchy. */
		{ "4:cpu,cpuacct:/\n1:name=systemd:/system.slice/cron.service\n", "cron.service", "", 0 },
		{ "0::/\n", "", "", -ENOENT },
		{ "0::/init.scope", "init.scope", "", 0 },
		{ "", "", "", -ENOENT },
		{ "0::/machine.slice\n", "", "", -ENOENT },
	};
	char unit[64], user_unit[64];

	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = cgroup_unit_of(cases[i].text, strlen(cases[i].text), unit, sizeof(unit), user_unit,
				       sizeof(user_unit));

		assert_int_equal(r, cases[i].r);
		if (r == 0) {
			assert_string_equal(unit, cases[i].unit);
			assert_string_equal(user_unit, cases[i].user_unit);
		}
	}
	assert_int_equal(cgroup_unit_of("0::/system.slice/nginx.service", 30, unit, 5, user_unit, 5), -ENOBUFS);
}

static void disk_error(struct ras_record *r, enum mce_source source, const char *dev, int64_t error, uint64_t sector)
{
	ras_record_init(r, RAS_EVENT_DISK_ERROR, source);
	r->severity = RAS_SEV_UNCORRECTED;
	assert_int_equal(ras_record_add_string(r, "dev", dev, SIZE_MAX), 0);
	assert_int_equal(ras_record_add_uint(r, "sector", sector), 0);
	assert_int_equal(ras_record_add_int(r, "error", error), 0);
}

/* Failed disk requests storm, uncorrected as they are, by disk and error, not by sector. */
static void test_disk_storm_key(void **state)
{
	struct ras_record a, b;
	struct ras_storm_key ka, kb;

	(void) state;
	disk_error(&a, MCE_SOURCE_BLOCK_RQ_ERROR, "8:0", -61, 4656);
	disk_error(&b, MCE_SOURCE_BLOCK_RQ_ERROR, "8:0", -61, 9000);
	assert_true(ras_storm_key_from_record(&a, &ka));
	assert_true(ras_storm_key_from_record(&b, &kb));
	assert_string_equal(ka.text, "dev=8:0 error=-61");
	assert_true(ras_storm_key_equal(&ka, &kb));
	assert_int_equal(ras_storm_severity(RAS_EVENT_DISK_ERROR), RAS_SEV_UNCORRECTED);
	assert_int_equal(ras_storm_severity(RAS_EVENT_MEMORY_CONTROLLER), RAS_SEV_CORRECTED);
	assert_int_equal(ras_storm_source(RAS_EVENT_DISK_ERROR), MCE_SOURCE_BLOCK_RQ_ERROR);
	ras_record_done(&b);
	/* The fallback on kernels before 5.18 storms too. */
	disk_error(&b, MCE_SOURCE_BLOCK_RQ_COMPLETE, "8:16", -5, 1);
	assert_true(ras_storm_key_from_record(&b, &kb));
	assert_false(ras_storm_key_equal(&ka, &kb));
	ras_record_done(&b);
	/* Read back from the trace instance at start: history, never a storm. */
	a.recovered = true;
	assert_false(ras_storm_key_from_record(&a, &ka));
	ras_record_done(&a);
	/* A SIGBUS never storms: each is a process killed. */
	sigbus(&a, 1, 1, "action_required");
	a.severity = RAS_SEV_UNCORRECTED;
	assert_false(ras_storm_key_from_record(&a, &ka));
	ras_record_done(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kill_then_failure),
		cmocka_unit_test(test_failure_then_kill),
		cmocka_unit_test(test_not_joined),
		cmocka_unit_test(test_several_kills),
		cmocka_unit_test(test_cgroup_unit),
		cmocka_unit_test(test_disk_storm_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
