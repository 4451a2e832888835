/* SPDX-License-Identifier: MIT */
/* mcectl status: ask the running daemon over its control socket. */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "control-client.h"
#include "macro.h"
#include "options.h"
#include "status-format.h"
#include "verbs.h"


static void help(void)
{
	printf("Usage: mcectl status [OPTIONS]\n"
	       "Show the running mcelogd's sources, counters and storms.\n\n"
	       "  -o, --output MODE   table (default) or json\n"
	       "      --socket PATH   control socket (default %s)\n"
	       "  -h, --help          show this help\n\n"
	       "Exit status: 0, 1 on error, 3 if mcelogd is not running.\n", CONTROL_SOCKET_DEFAULT);
}

int verb_status(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "socket", required_argument, NULL, 's' },
		{ "help",   no_argument,       NULL, 'h' },
		{}
	};
	const char *path = CONTROL_SOCKET_DEFAULT;
	_cleanup_free_ char *reply = NULL;
	bool json = false;
	json_object *doc, *err;
	struct timespec ts;
	int c, r;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", options, NULL)) >= 0) {
		switch (c) {
		case 'o':
			if (streq(optarg, "json"))
				json = true;
			else if (streq(optarg, "table"))
				json = false;
			else {
				fprintf(stderr, "mcectl status: --output: unknown mode '%s' (expected "
					"table or json)\n", optarg);
				return 2;
			}
			break;
		case 's':
			path = optarg;
			break;
		case 'h':
			help();
			return 0;
		default:
			return option_error("status", c, argv);
		}
	}
	if (no_arguments_left("status", argc, argv))
		return 2;

	r = control_ask(path, "status", &reply);
	if (r < 0)
		return control_ask_failed("status", path, r);
	doc = json_tokener_parse(reply);
	if (!doc || !json_object_is_type(doc, json_type_object)) {
		fprintf(stderr, "mcectl status: mcelogd's answer on %s is not a JSON object\n", path);
		json_object_put(doc);
		return 1;
	}
	if (json_object_object_get_ex(doc, "error", &err)) {
		fprintf(stderr, "mcectl status: mcelogd refused: %s\n", json_object_get_string(err));
		json_object_put(doc);
		return 1;
	}
	if (json) {
		/* The daemon's document as it is: one line, for jq and log pipelines. */
		fputs(reply, stdout);
		if (reply[0] && reply[strlen(reply) - 1] != '\n')
			putchar('\n');
		r = 0;
	} else {
		clock_gettime(CLOCK_REALTIME, &ts);
		r = status_format_table(doc, (long long) ts.tv_sec * 1000000 + ts.tv_nsec / 1000, stdout);
		if (r < 0)
			fprintf(stderr, "mcectl status: mcelogd's answer lacks version or sources\n");
	}
	json_object_put(doc);
	return r < 0 ? 1 : 0;
}
