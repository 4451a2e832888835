/* SPDX-License-Identifier: MIT */
/*
 * bench: perf ring memory against the CPU count, computed by the daemon's own
 * sizing code.  bench/ring-memory.sh builds this file a second time with
 * -DRING_MEMORY_OLD against an older revision's sizing (perf_ring_pages() of
 * kernel-abi/perf-ring.c) and sets the two side by side.
 *
 *   bench/ring-memory [--page-size B] [--history N] [--counter-events N] [CPUS...]
 *
 * One row per CPU count (default 2 to 1024, doubling), the machine taken to
 * have that many possible and online CPUs:
 *   cpus           the CPU count
 *   tp_pages       data pages of one CPU's tracepoint ring
 *   tp_bytes       all CPUs' tracepoint mappings, control pages included
 *   counter_bytes  all CPUs' counter recorder rings (counter_ring_data_size()
 *                  at History= and that many Counters= events, as counters.c
 *                  asks for them); "-" in the old build, which sizes only the
 *                  tracepoint rings
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef RING_MEMORY_OLD
/* The older revision's sizing, compiled from its own source by bench/ring-memory.sh. */
unsigned perf_ring_pages(unsigned possible_cpus, size_t page_size);
#else
#include "counter-ring.h"
#include "daemon-config.h"
#include "ring-size.h"
#endif

/* Counters= by default: the 11 events of counters.c's default_events[]. */
#define DEFAULT_COUNTER_EVENTS 11

static int parse_size(const char *s, unsigned long long *ret)
{
	char *end;

	errno = 0;
	*ret = strtoull(s, &end, 10);
	return errno || end == s || *end || *ret == 0 ? -EINVAL : 0;
}

int main(int argc, char **argv)
{
	static const unsigned default_cpus[] = { 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024 };
	unsigned long long page = 4096, history = 10, events = DEFAULT_COUNTER_EVENTS, v;
	unsigned cpus[64];
	size_t n_cpus = 0;
	int i;

#ifndef RING_MEMORY_OLD
	history = SNAPSHOT_HISTORY_DEFAULT;
#endif
	for (i = 1; i < argc; i++) {
		unsigned long long *opt = !strcmp(argv[i], "--page-size") ? &page :
					  !strcmp(argv[i], "--history") ? &history :
					  !strcmp(argv[i], "--counter-events") ? &events : NULL;

		if (opt) {
			if (i + 1 >= argc || parse_size(argv[i + 1], opt) < 0) {
				fprintf(stderr, "%s: %s wants a positive number\n", argv[0], argv[i]);
				return 2;
			}
			i++;
		} else if (parse_size(argv[i], &v) < 0 || v > 1u << 20 || n_cpus == sizeof(cpus) / sizeof(cpus[0])) {
			fprintf(stderr, "%s: '%s' is not a CPU count from 1 to %u (at most %zu of them)\n",
				argv[0], argv[i], 1u << 20, sizeof(cpus) / sizeof(cpus[0]));
			return 2;
		} else
			cpus[n_cpus++] = (unsigned) v;
	}
	if (n_cpus == 0) {
		memcpy(cpus, default_cpus, sizeof(default_cpus));
		n_cpus = sizeof(default_cpus) / sizeof(default_cpus[0]);
	}

	printf("cpus tp_pages tp_bytes counter_bytes\n");
	for (size_t k = 0; k < n_cpus; k++) {
		uint64_t n = cpus[k];
#ifdef RING_MEMORY_OLD
		unsigned pages = perf_ring_pages(cpus[k], (size_t) page);

		printf("%" PRIu64 " %u %" PRIu64 " -\n", n, pages, n * (1 + pages) * page);
#else
		struct ring_size r;
		uint64_t counter = page + counter_ring_data_size((size_t) history + 2, (size_t) events, (size_t) page);

		if (ring_size_plan(cpus[k], (size_t) page, 0, &r) < 0) {
			fprintf(stderr, "%s: a page of %llu bytes is no power of two\n", argv[0], page);
			return 1;
		}
		printf("%" PRIu64 " %u %" PRIu64 " %" PRIu64 "\n", n, r.data_pages, ring_size_total(&r, cpus[k]),
		       n * counter);
#endif
	}
	return 0;
}
