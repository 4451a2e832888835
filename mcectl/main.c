/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "macro.h"
#include "verbs.h"

static const struct verb {
	const char *name;
	int (*run)(int argc, char *argv[]);
	const char *help;
} verbs[] = {
	{ "query",  verb_query,  "show machine-check records from the journal" },
	{ "follow", verb_follow, "show machine-check records as they are logged, until interrupted" },
	{ "summary", verb_summary, "count records per DIMM, channel, bank, CPU, socket, page, error, host or DRAM row" },
	{ "export", verb_export, "print the running daemon's counters (--prometheus)" },
	{ "decode", verb_decode, "decode records from text (dmesg, mcelog, EDAC, JSON) or registers" },
	{ "status", verb_status, "show the running daemon's sources, counters and storms" },
	{ "rules",  verb_rules,  "show the rules, or try them on recorded input (--test)" },
	{ "pt",     verb_pt,     "decode an Intel PT snapshot or raw PT stream (libipt)" },
	{ "pages",  verb_pages,  "show the known-bad pages and isolated DRAM rows, with their memory; forget one" },
	{ "slots",  verb_slots,  "show the board's DIMM slots and the slot of each EDAC DIMM" },
	{ "dimms",  verb_dimms,  "show each memory module's health ledger and verdict, or one module's story" },
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: mcectl VERB [OPTIONS]\n\nVerbs:\n");
	for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
		fprintf(f, "  %-8s %s\n", verbs[i].name, verbs[i].help);
	fprintf(f, "\nSee mcectl(1) or 'mcectl VERB --help'.\n");
}

int main(int argc, char *argv[])
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (streq(argv[1], "--help") || streq(argv[1], "-h") || streq(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (streq(argv[1], "--version")) {
		printf("mcectl %s\n", PACKAGE_VERSION);
		return 0;
	}
	for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
		if (streq(argv[1], verbs[i].name))
			return verbs[i].run(argc - 1, argv + 1);
	fprintf(stderr, "mcectl: unknown verb '%s' (try 'mcectl --help')\n", argv[1]);
	return 2;
}
