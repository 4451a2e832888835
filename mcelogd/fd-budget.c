/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <sys/resource.h>

#include "fd-budget.h"
#include "macro.h"

int fd_limit_raise(uint64_t *ret_soft, uint64_t *ret_hard)
{
	struct rlimit rl;
	int r = 0;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return negative_errno();
	if (rl.rlim_cur != rl.rlim_max) {
		struct rlimit raised = { .rlim_cur = rl.rlim_max, .rlim_max = rl.rlim_max };
		/* select() is not used anywhere here, so descriptors above 1023 are safe. */
		if (setrlimit(RLIMIT_NOFILE, &raised) < 0)
			r = negative_errno();
		else
			rl = raised;
	}
	if (ret_soft)
		*ret_soft = rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t) rl.rlim_cur;
	if (ret_hard)
		*ret_hard = rl.rlim_max == RLIM_INFINITY ? UINT64_MAX : (uint64_t) rl.rlim_max;
	return r;
}

int fd_count_open(uint64_t *ret)
{
	_cleanup_closedir_ DIR *d = opendir("/proc/self/fd");
	const struct dirent *de;
	uint64_t n = 0;

	if (!d)
		return negative_errno();
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	/* Less the directory's own descriptor, which is gone once we return. */
	*ret = n > 0 ? n - 1 : 0;
	return 0;
}

int fd_budget_measure(struct fd_budget *b, uint64_t reserve)
{
	struct rlimit rl;
	int r;

	*b = (struct fd_budget) { .reserve = reserve };
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return negative_errno();
	b->limit = rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t) rl.rlim_cur;
	r = fd_count_open(&b->in_use);
	return r;
}

uint64_t fd_budget_left(const struct fd_budget *b)
{
	uint64_t used = b->in_use + b->reserve + b->granted;

	if (used < b->in_use || used >= b->limit)   /* wrapped, or nothing left */
		return 0;
	return b->limit - used;
}

size_t fd_budget_per_cpu(uint64_t left, size_t n_cpus, size_t wanted)
{
	uint64_t each;

	if (n_cpus == 0)
		return wanted;
	each = left / n_cpus;
	return each < wanted ? (size_t) each : wanted;
}

void fd_budget_take(struct fd_budget *b, uint64_t n)
{
	uint64_t left = fd_budget_left(b);

	b->granted += n < left ? n : left;
}
