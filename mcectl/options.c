/* SPDX-License-Identifier: MIT */
#include <getopt.h>
#include <stdio.h>

#include "options.h"

int option_error(const char *verb, int c, char *const argv[])
{
	if (c == ':')
		fprintf(stderr, "mcectl %s: option '%s' needs a value\n", verb, argv[optind - 1]);
	else
		fprintf(stderr, "mcectl %s: unknown option '%s' (try 'mcectl %s --help')\n", verb, argv[optind - 1],
			verb);
	return 2;
}

int no_arguments_left(const char *verb, int argc, char *const argv[])
{
	if (optind >= argc)
		return 0;
	fprintf(stderr, "mcectl %s: unexpected argument '%s'\n", verb, argv[optind]);
	return 2;
}
