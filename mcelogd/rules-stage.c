/* SPDX-License-Identifier: MIT */
#include <errno.h>

#include "dropin.h"
#include "log.h"
#include "rules-stage.h"

static void log_rule_error(const char *file, unsigned line, const char *msg, void *userdata)
{
	(void) userdata;
	if (line > 0)
		log_error("%s:%u: %s", file, line, msg);
	else
		log_error("%s: %s", file, msg);
}

int rules_load(const char *const *dirs, size_t n, struct rule_set *ret)
{
	struct rule_set set;
	struct rule_load l = { .set = &set, .err = log_rule_error };
	int r;

	rule_set_init(&set);
	r = dropin_walk(dirs, n, RULE_FILE_SUFFIX, rule_load_file, &l);
	if (r < 0) {
		rule_set_done(&set);
		return log_error_errno(r, "Failed to read the rule directories: %m");
	}
	if (l.bad_files > 0) {
		rule_set_done(&set);
		log_error("%u of %u rule file%s have errors", l.bad_files, l.files,
			  l.files == 1 ? "" : "s");
		return -EINVAL;
	}
	log_debug("Loaded %u rule%s from %u file%s", set.n_rules, set.n_rules == 1 ? "" : "s",
		  l.files, l.files == 1 ? "" : "s");
	*ret = set;
	return 0;
}
