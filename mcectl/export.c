/* SPDX-License-Identifier: MIT */
/*
 * mcectl export --prometheus: the running daemon's counters in Prometheus's
 * text format, the same text it writes to [Output] Metrics= (mcelogd(8),
 * METRICS), on demand.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control-client.h"
#include "macro.h"
#include "options.h"
#include "verbs.h"

static void help(void)
{
	printf("Usage: mcectl export --prometheus [--socket PATH]\n"
	       "Print the running mcelogd's counters in Prometheus's text exposition format.\n\n"
	       "      --prometheus    the format (the only one so far; required)\n"
	       "      --socket PATH   control socket (default %s)\n"
	       "  -h, --help          show this help\n\n"
	       "Exit status: 0, 1 on error, 3 if mcelogd is not running.\n", CONTROL_SOCKET_DEFAULT);
}

int verb_export(int argc, char *argv[])
{
	enum { ARG_PROMETHEUS = 0x100, ARG_SOCKET };
	static const struct option options[] = {
		{ "prometheus", no_argument,       NULL, ARG_PROMETHEUS },
		{ "socket",     required_argument, NULL, ARG_SOCKET },
		{ "help",       no_argument,       NULL, 'h' },
		{}
	};
	const char *path = CONTROL_SOCKET_DEFAULT;
	_cleanup_free_ char *reply = NULL;
	bool prometheus = false;
	int c, r;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", options, NULL)) >= 0) {
		switch (c) {
		case ARG_PROMETHEUS:
			prometheus = true;
			break;
		case ARG_SOCKET:
			path = optarg;
			break;
		case 'h':
			help();
			return 0;
		default:
			return option_error("export", c, argv);
		}
	}
	if (no_arguments_left("export", argc, argv))
		return 2;
	if (!prometheus) {
		fprintf(stderr, "mcectl export: say which format: --prometheus\n");
		return 2;
	}
	r = control_ask(path, "metrics", &reply);
	if (r < 0)
		return control_ask_failed("export", path, r);
	/* The daemon answers errors as a JSON object; the text format never starts with '{'. */
	if (reply[0] == '{') {
		fprintf(stderr, "mcectl export: mcelogd refused: %s", reply);
		return 1;
	}
	fputs(reply, stdout);
	return fflush(stdout) != 0 ? 1 : 0;
}
