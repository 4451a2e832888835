/* SPDX-License-Identifier: MIT */
/*
 * The decoder core alone: mce_decode() looped over pre-built records, no
 * parsing and no output, to show what decoding itself costs.
 *
 *   bench/decode-core [ITERATIONS]     prints "records/s"
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "decode.h"
#include "xorshift.h"

#define N_RECORDS 4096

static uint64_t state = 0x2545f4914f6cdd1dull;

static uint64_t next(void)
{
	return xorshift64s(&state);
}

int main(int argc, char *argv[])
{
	static struct mce_record recs[N_RECORDS];
	static const struct { enum mce_vendor v; uint32_t f, m; } cpus[] = {
		{ MCE_VENDOR_INTEL, 6, 0x8f }, { MCE_VENDOR_INTEL, 6, 0x55 }, { MCE_VENDOR_INTEL, 6, 0x6a },
		{ MCE_VENDOR_INTEL, 6, 0xad }, { MCE_VENDOR_AMD, 0x19, 0x11 }, { MCE_VENDOR_AMD, 0x17, 0x31 },
		{ MCE_VENDOR_AMD, 0x1a, 0x02 }, { MCE_VENDOR_AMD, 0x10, 0x02 }, { MCE_VENDOR_HYGON, 0x18, 0 },
		{ MCE_VENDOR_UNKNOWN, 0, 0 },
	};
	unsigned long iters = argc > 1 ? strtoul(argv[1], NULL, 10) : 5000000;
	struct timespec a, b;
	uint64_t sink = 0;
	double secs;

	for (unsigned i = 0; i < N_RECORDS; i++) {
		uint64_t r = next();
		struct mce_record *x = &recs[i];
		unsigned c = i % (sizeof(cpus) / sizeof(cpus[0]));

		x->have = MCE_HAVE_CPU | MCE_HAVE_BANK | MCE_HAVE_STATUS | MCE_HAVE_ADDR | MCE_HAVE_MISC |
			  MCE_HAVE_MCGSTATUS | MCE_HAVE_VENDOR | MCE_HAVE_CPUID;
		x->vendor = cpus[c].v;
		x->family = cpus[c].f;
		x->model = cpus[c].m;
		x->cpu = (uint32_t) (r % 128);
		x->bank = (uint32_t) ((r >> 8) % 32);
		/* VAL set, the rest of the architectural bits and the code varied */
		x->status = (1ull << 63) | (next() & 0x7fffffffffffffffull);
		x->addr = next() & 0xfffffffff000ull;
		x->misc = next();
		x->mcgstatus = next() & 7;
		if (cpus[c].v == MCE_VENDOR_AMD || cpus[c].v == MCE_VENDOR_HYGON) {
			static const uint64_t hwid_types[] = {
				0x9600000000ull, 0xb000000000ull, 0x0100000000ull, 0x2e00000000ull,
			};
			x->ipid = hwid_types[r % 4] | (next() & 0xffffffffull);
			x->synd = next();
			x->have |= MCE_HAVE_IPID | MCE_HAVE_SYND;
		}
	}

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (unsigned long i = 0; i < iters; i++) {
		struct mce_decoded d;

		mce_decode(&recs[i % N_RECORDS], &d);
		sink += (uint64_t) d.severity + d.n_flags + (uint64_t) d.error_class;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	secs = (double) (b.tv_sec - a.tv_sec) + (double) (b.tv_nsec - a.tv_nsec) / 1e9;
	printf("%lu records in %.3f s: %.0f records/s (checksum %" PRIu64 ")\n", iters, secs,
	       (double) iters / secs, sink);
	return 0;
}
