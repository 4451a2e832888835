/* SPDX-License-Identifier: MIT */
/* The descriptor budget of the snapshot providers: what a server's CPU count leaves them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include "fd-budget.h"

static void test_left(void **state)
{
	(void) state;
	/* systemd's soft limit, 7 tracepoints on 64 CPUs and 20 of the daemon's own. */
	struct fd_budget b = { .limit = 1024, .in_use = 7 * 64 + 20, .reserve = FD_RESERVE_BASE };
	assert_int_equal(fd_budget_left(&b), 1024 - 468 - 64);
	fd_budget_take(&b, 100);
	assert_int_equal(fd_budget_left(&b), 1024 - 468 - 64 - 100);
	/* Taking more than is left leaves nothing, never a wrapped-around plenty. */
	fd_budget_take(&b, 100000);
	assert_int_equal(fd_budget_left(&b), 0);
	/* The sources already ate into the reserve: nothing for snapshots. */
	b = (struct fd_budget) { .limit = 1024, .in_use = 1000, .reserve = FD_RESERVE_BASE };
	assert_int_equal(fd_budget_left(&b), 0);
	b = (struct fd_budget) { .limit = UINT64_MAX, .in_use = 10, .reserve = UINT64_MAX };
	assert_int_equal(fd_budget_left(&b), 0);
}

static void test_per_cpu(void **state)
{
	(void) state;
	/* 11 counters on 64 CPUs: 704 wanted, 492 left -> 7 each. */
	assert_int_equal(fd_budget_per_cpu(492, 64, 11), 7);
	assert_int_equal(fd_budget_per_cpu(704, 64, 11), 11);
	assert_int_equal(fd_budget_per_cpu(100000, 64, 11), 11);
	/* Not even one each: the provider is off, not on some CPUs only. */
	assert_int_equal(fd_budget_per_cpu(63, 64, 11), 0);
	assert_int_equal(fd_budget_per_cpu(0, 512, 1), 0);
	assert_int_equal(fd_budget_per_cpu(5, 0, 3), 3);
}

static void test_raise_and_measure(void **state)
{
	struct rlimit rl, lowered;
	uint64_t soft = 0, hard = 0, before = 0, after = 0;
	struct fd_budget b;

	(void) state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	if (rl.rlim_max < 64)
		skip();
	/* As systemd starts a service: soft below hard.  The raise must reach the hard one. */
	lowered = (struct rlimit) { .rlim_cur = 32, .rlim_max = rl.rlim_max };
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &lowered), 0);
	assert_int_equal(fd_limit_raise(&soft, &hard), 0);
	assert_true(soft == hard);
	assert_true(hard == (rl.rlim_max == RLIM_INFINITY ? UINT64_MAX : (uint64_t) rl.rlim_max));

	assert_int_equal(fd_count_open(&before), 0);
	int fd = dup(0);
	assert_true(fd >= 0);
	assert_int_equal(fd_count_open(&after), 0);
	assert_int_equal(after, before + 1);
	close(fd);

	assert_int_equal(fd_budget_measure(&b, 10), 0);
	assert_int_equal(b.in_use, before);
	assert_int_equal(b.reserve, 10);
	assert_int_equal(b.granted, 0);
	assert_true(b.limit == soft);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_left),
		cmocka_unit_test(test_per_cpu),
		cmocka_unit_test(test_raise_and_measure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
