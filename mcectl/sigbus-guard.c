/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "macro.h"
#include "sigbus-guard.h"

/* As many as the direct journal reader maps (journal-direct.c, MAX_FILES). */
#define GUARD_RANGES 1024

static struct {
	uintptr_t start, end;
} ranges[GUARD_RANGES];
static atomic_size_t n_ranges;
static atomic_bool tripped;
static struct sigaction previous;

static bool ours(uintptr_t a)
{
	size_t n = atomic_load(&n_ranges);

	for (size_t i = 0; i < n; i++)
		if (a >= ranges[i].start && a < ranges[i].end)
			return true;
	return false;
}

static void on_sigbus(int sig, siginfo_t *si, void *context)
{
	uintptr_t page = (uintptr_t) sysconf(_SC_PAGESIZE), a = (uintptr_t) si->si_addr;
	void *p;

	(void) context;
	if (ours(a)) {
		/* Zeros where the file ended: the faulting read runs again and goes on. */
		p = mmap((void *) (a & ~(page - 1)), page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		if (p != MAP_FAILED) {
			atomic_store(&tripped, true);
			return;
		}
	}
	/* Not a mapping of ours, or it cannot be patched: what SIGBUS does without us. */
	signal(sig, SIG_DFL);
	raise(sig);
}

int sigbus_guard_begin(void)
{
	struct sigaction sa = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO };

	atomic_store(&n_ranges, 0);
	atomic_store(&tripped, false);
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &previous) < 0)
		return negative_errno();
	return 0;
}

int sigbus_guard_add(const void *start, size_t size)
{
	size_t n = atomic_load(&n_ranges);

	if (n == GUARD_RANGES)
		return -ENOSPC;
	ranges[n].start = (uintptr_t) start;
	ranges[n].end = (uintptr_t) start + size;
	/* Published after it is filled in: the handler reads only up to n_ranges. */
	atomic_store(&n_ranges, n + 1);
	return 0;
}

bool sigbus_guard_tripped(void)
{
	return atomic_load(&tripped);
}

void sigbus_guard_end(void)
{
	(void) sigaction(SIGBUS, &previous, NULL);
	atomic_store(&n_ranges, 0);
}
