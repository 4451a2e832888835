/* SPDX-License-Identifier: MIT */
/*
 * The guest's victim of a memory error (tests/vm/scenarios/60-memory-failure):
 * maps a page, writes it (dirty: the kernel must kill, not just drop it),
 * prints its pid, poisons it with madvise(MADV_HWPOISON) (root), and touches
 * it again.  "early" asks the kernel to signal it as soon as the page is
 * poisoned (PR_MCE_KILL_EARLY: SIGBUS with BUS_MCEERR_AO from the
 * memory-failure handler, the path a machine check's memory failure takes);
 * otherwise the touch faults on the poisoned page (BUS_MCEERR_AR).  Either
 * way SIGBUS's default action ends it; reaching the end is the failure.
 * Built static on the host by tests/vm/run.sh: the guest has no compiler.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p;

	if (argc > 1 && strcmp(argv[1], "early") == 0 &&
	    prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 0, 0) < 0) {
		perror("prctl(PR_MCE_KILL)");
		return 1;
	}
	p = mmap(NULL, (size_t) page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	p[0] = 1;
	printf("%d\n", (int) getpid());
	fflush(stdout);
	if (madvise((void *) p, (size_t) page, MADV_HWPOISON) < 0) {
		perror("madvise(MADV_HWPOISON)");
		return 1;
	}
	(void) p[0];
	fprintf(stderr, "survived a poisoned page\n");
	return 2;
}
