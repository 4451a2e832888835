/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "read-file.h"
#include "state-file.h"

#define STATE_MAX (64u << 20)

/*
 * What the daemon appended since it last wrote the state (rule-state.h), over
 * it.  A journal older than the state is in it already; a last line without
 * its newline is one the daemon is appending now.
 */
static int read_journal(const char *verb, const char *path, struct rule_state *st)
{
	_cleanup_free_ char *journal = NULL, *text = NULL;
	size_t len = 0;
	unsigned line = 0;
	char why[256], base[64];
	int r;

	if (asprintf(&journal, "%s.journal", path) < 0)
		return -ENOMEM;
	r = read_whole_file(journal, STATE_MAX, &text, &len);
	if (r == -ENOENT)
		return 0;
	if (r < 0) {
		fprintf(stderr, "mcectl %s: cannot read %s: %s\n", verb, journal, strerror(-r));
		return 0;
	}
	rule_state_format_base(st, base, sizeof(base));
	r = rule_state_apply_journal(st, text, len, base, why, sizeof(why), &line);
	if (r == -EINVAL)
		fprintf(stderr, "mcectl %s: %s:%u: %s (the lines before it are shown)\n", verb, journal, line, why);
	return r == -ENOMEM ? r : 0;
}

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
	if (r < 0)
		return r;
	return read_journal(verb, path, ret);
}
