/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "read-file.h"
#include "state-file.h"

#define STATE_MAX (64u << 20)

int state_file_read(const char *verb, const char *path, struct rule_state *ret)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	unsigned line = 0;
	char why[256];
	int r;

	r = read_whole_file(path, STATE_MAX, &text, &len);
	if (r < 0) {
		if (r != -ENOENT)
			fprintf(stderr, "mcectl %s: cannot read %s: %s\n", verb, path, strerror(-r));
		return r;
	}
	r = rule_state_parse(text, len, ret, why, sizeof(why), &line);
	if (r == -EINVAL)
		fprintf(stderr, "mcectl %s: %s:%u: %s\n", verb, path, line, why);
	return r;
}
