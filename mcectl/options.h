/* SPDX-License-Identifier: MIT */
#pragma once

/* What every verb says about its command line, said one way. */

/* getopt_long() returned ':' (a value is missing) or '?' (unknown option): says which; returns 2. */
int option_error(const char *verb, int c, char *const argv[]);
/* Arguments left after the options: says the first; returns 2.  None: 0. */
int no_arguments_left(const char *verb, int argc, char *const argv[]);
