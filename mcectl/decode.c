/* SPDX-License-Identifier: MIT */
/* PLACEHOLDER: replaced by the full decode verb. */
#include <stdio.h>

#include "verbs.h"

int verb_decode(int argc, char *argv[])
{
	(void) argc; (void) argv;
	fprintf(stderr, "mcectl decode: not implemented yet\n");
	return 1;
}
