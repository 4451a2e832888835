/* SPDX-License-Identifier: MIT */
/* PLACEHOLDER: replaced by the journal query verb. */
#include <stdio.h>

#include "verbs.h"

int verb_query(int argc, char *argv[])
{
	(void) argc; (void) argv;
	fprintf(stderr, "mcectl query: not implemented yet\n");
	return 1;
}
