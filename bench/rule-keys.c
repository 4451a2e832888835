/* SPDX-License-Identifier: MIT */
/*
 * What one record costs the rules engine (rules/rule-engine.c) against the
 * number of keys a rule holds: RECORDS corrected machine checks spread
 * round-robin over KEYS pages, through the shipped page rule's shape (10 in
 * 24h, Key=page), one microsecond apart.  Up to the engine's 4,096 keys per
 * rule every record finds its bucket; past it every record is a new key
 * that evicts one.
 *
 *   bench/rule-keys KEYS RECORDS
 *
 * From a build directory after `make bench/rule-keys`:
 *
 *   for n in 16 1024 4096 8192; do valgrind --tool=callgrind --callgrind-out-file=/dev/null \
 *       bench/rule-keys $n 1000000 2>&1 | grep Collected; done
 *
 * Instructions per record are the total over RECORDS: the records are
 * decoded once, before, for KEYS pages (at most 8,192 of them, a few
 * instructions per record at most).
 *
 * gcc -O2, 200,000 records, instructions per record for 16, 1,024, 4,096
 * and 8,192 keys (the last evicting at every record): with buckets found
 * and evicted by a scan, 1,747, 4,777, 13,989 and 67,138; by the hash index
 * and the order of use, 1,780, 1,797, 1,827 and 2,906.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "record.h"
#include "rule-engine.h"

#define KEYS_MAX 8192

/* IA32_MCi_STATUS VAL EN MISCV ADDRV, memory controller read on channel 0 (SDM Vol. 3B 16.9.2). */
#define STATUS_MC_READ_CE ((UINT64_C(0x9c) << 56) | 0x0090)
/* IA32_MCi_MISC: physical address mode, LSB 12 (SDM 16.3.2.4): the page is known. */
#define MISC_PHYS_4K ((UINT64_C(2) << 6) | 12)

static const char page_rule[] =
	"[Rule]\nName=memory-page-ce\nMatch=component=memory severity=corrected\nKey=page\n"
	"Threshold=10 in 24h\nAction=alert soft-offline\n";

struct input {
	struct mce_record rec;
	struct mce_decoded d;
	struct rule_input in;
};

int main(int argc, char *argv[])
{
	struct rule_engine *e = NULL;
	struct rule_set set;
	struct input *inputs;
	unsigned long keys, records;
	uint64_t fired = 0;

	if (argc != 3 || (keys = strtoul(argv[1], NULL, 10)) == 0 || keys > KEYS_MAX ||
	    (records = strtoul(argv[2], NULL, 10)) == 0) {
		fprintf(stderr, "usage: rule-keys KEYS(1-%u) RECORDS\n", KEYS_MAX);
		return 2;
	}
	rule_set_init(&set);
	if (rule_set_parse(&set, page_rule, strlen(page_rule), "bench.rules", NULL, NULL) < 0 ||
	    rule_engine_new(&set, 0, &e) < 0)
		return 1;
	inputs = calloc(keys, sizeof(*inputs));
	if (!inputs)
		return 1;
	for (unsigned long i = 0; i < keys; i++) {
		struct input *p = &inputs[i];

		p->rec = (struct mce_record) {
			.have = MCE_HAVE_CPU | MCE_HAVE_SOCKET | MCE_HAVE_BANK | MCE_HAVE_STATUS |
				MCE_HAVE_ADDR | MCE_HAVE_MISC | MCE_HAVE_VENDOR | MCE_HAVE_CPUID,
			.source = MCE_SOURCE_TRACEPOINT, .cpu = 1, .bank = 7,
			.status = STATUS_MC_READ_CE, .addr = (UINT64_C(0x100000) + i) << 12,
			.misc = MISC_PHYS_4K, .vendor = MCE_VENDOR_INTEL, .family = 6, .model = 0x8f,
		};
		mce_decode(&p->rec, &p->d);
		p->in = (struct rule_input) { .mce = &p->rec, .decoded = &p->d };
	}
	for (unsigned long i = 0; i < records; i++) {
		int k = rule_engine_feed(e, &inputs[i % keys].in, UINT64_C(1795168800000000) + i, NULL, NULL);

		if (k < 0)
			return 1;
		fired += (uint64_t) k;
	}
	printf("%lu keys, %lu records: %llu fired, %llu evicted\n", keys, records, (unsigned long long) fired,
	       (unsigned long long) rule_engine_stats(e, 0)->evicted);
	e = rule_engine_free(e);
	rule_set_done(&set);
	free(inputs);
	return 0;
}
