/* SPDX-License-Identifier: MIT */
/*
 * mcectl rules: show the rules in effect, and with --test FILE run them over
 * recorded input (any text mcectl decode reads) without acting, printing what
 * would fire.  Operators try a rule on their history before deploying it.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode-text.h"
#include "decode.h"
#include "dropin.h"
#include "line-reader.h"
#include "macro.h"
#include "record-text.h"
#include "rfc3339.h"
#include "rule-engine.h"
#include "verbs.h"

#define MAX_RULE_DIRS 8

struct test_ctx {
	const char *name;               /* input name for messages */
	struct rule_engine *engine;
	struct mce_text_parser *parser;
	unsigned lineno;
	unsigned records, untimed, firings, rejected;
	unsigned first_line, last_line; /* of the record being run */
};

static void help(void)
{
	printf("Usage: mcectl rules [OPTIONS]\n"
	       "Show the rules mcelogd acts on (mcelogd.rules(5)).\n\n"
	       "      --test FILE        run the rules over the records in FILE ('-': stdin), any\n"
	       "                         form 'mcectl decode' reads, and print what would fire;\n"
	       "                         nothing is done\n"
	       "      --rules-dir DIR    read rule files from DIR instead of %s/mcelogd/rules.d\n"
	       "                         and %s (repeatable; the first has priority)\n"
	       "  -c, --cpu-id V:F:M     CPU of records that do not name one (as mcectl decode)\n"
	       "  -h, --help             show this help\n", SYSCONFDIR, RULESDIR);
}

static void on_rule_error(const char *file, unsigned line, const char *msg, void *userdata)
{
	unsigned *errors = userdata;

	(*errors)++;
	if (line > 0)
		fprintf(stderr, "mcectl rules: %s:%u: %s\n", file, line, msg);
	else
		fprintf(stderr, "mcectl rules: %s: %s\n", file, msg);
}

static int load_rules(const char *const *dirs, size_t n_dirs, struct rule_set *set)
{
	unsigned errors = 0;
	struct rule_load l = { .set = set, .err = on_rule_error, .userdata = &errors };
	int r = dropin_walk(dirs, n_dirs, RULE_FILE_SUFFIX, rule_load_file, &l);

	if (r < 0) {
		fprintf(stderr, "mcectl rules: cannot read the rule directories: %s\n", strerror(-r));
		return r;
	}
	return l.bad_files > 0 ? -EINVAL : 0;
}

static void print_time(FILE *f, uint64_t usec, bool known)
{
	char buf[RFC3339_MAX];

	if (known && format_rfc3339_usec(buf, sizeof(buf), (int64_t) usec) >= 0)
		fputs(buf, f);
	else
		fputs("-", f);
}

static void on_fire(const struct rule_firing *f, void *userdata)
{
	struct test_ctx *c = userdata;
	bool timed = f->input->mce && (f->input->mce->have & MCE_HAVE_TIME);
	char threshold[64], actions[128];

	c->firings++;
	rule_format_threshold(f->rule, threshold, sizeof(threshold));
	rule_format_actions(f->rule, actions, sizeof(actions));
	print_time(stdout, f->now_usec, timed);
	printf(" %s%s%s%s: %s", f->rule->name, f->key[0] ? " [" : "", f->key, f->key[0] ? "]" : "",
	       threshold);
	if (f->count > 1) {
		printf(" (first ");
		print_time(stdout, f->first_usec, timed);
		printf(")");
	}
	if (c->first_line == c->last_line)
		printf(", %s:%u", c->name, c->first_line);
	else
		printf(", %s:%u-%u", c->name, c->first_line, c->last_line);
	printf(": would %s\n", actions);
}

static int on_record(const struct mce_record *r, unsigned first, unsigned last, void *userdata)
{
	struct test_ctx *c = userdata;
	struct mce_decoded d;
	struct rule_input in = { .mce = r, .decoded = &d };
	int k;

	mce_decode(r, &d);
	c->records++;
	/* Without a time every record counts as at the same moment: say so once, at the end. */
	if (!(r->have & MCE_HAVE_TIME))
		c->untimed++;
	c->first_line = first;
	c->last_line = last;
	k = rule_engine_feed(c->engine, &in, (r->have & MCE_HAVE_TIME) && r->time_usec > 0 ?
			     (uint64_t) r->time_usec : 0, on_fire, c);
	return k < 0 ? k : 0;
}

static void on_diag(enum mce_text_diag kind, unsigned line, const char *msg, void *userdata)
{
	struct test_ctx *c = userdata;

	if (kind == MCE_TEXT_UNKNOWN)
		return;
	if (kind == MCE_TEXT_MALFORMED)
		c->rejected++;
	fprintf(stderr, "mcectl rules: %s:%u: %s%s\n", c->name, line,
		kind == MCE_TEXT_PARTIAL ? "warning: " : "", msg);
}

static int test_line(const char *line, size_t len, bool cut, void *userdata)
{
	struct test_ctx *c = userdata;

	if (cut) {
		c->rejected++;
		fprintf(stderr, "mcectl rules: %s:%u: line longer than %u bytes, not read\n", c->name,
			c->lineno + 1, LINE_READER_MAX);
		len = 0;
	}
	c->lineno++;
	return mce_text_parser_feed(c->parser, line, len);
}

static int run_test(const struct rule_set *set, const char *path, bool have_cpu_id,
		    enum mce_vendor vendor, uint32_t family, uint32_t model)
{
	_cleanup_(rule_engine_freep) struct rule_engine *e = NULL;
	_cleanup_close_ int fd = -1;
	struct test_ctx c = { .name = streq(path, "-") ? "<stdin>" : path };
	int k;

	fd = streq(path, "-") ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "mcectl rules: cannot open '%s': %s\n", path, strerror(errno));
		return 1;
	}
	if (rule_engine_new(set, 0, &e) < 0)
		goto oom;
	c.engine = e;
	c.parser = mce_text_parser_new(&(struct mce_text_callbacks) { .record = on_record,
								      .diagnostic = on_diag }, &c);
	if (!c.parser)
		goto oom;
	mce_text_parser_set_source(c.parser, MCE_SOURCE_DECODE);
	if (have_cpu_id)
		mce_text_parser_set_default_cpu(c.parser, vendor, family, model);
	k = read_lines(fd, test_line, &c);
	if (k >= 0)
		k = mce_text_parser_finish(c.parser);
	c.parser = mce_text_parser_free(c.parser);
	if (k == -ENOMEM)
		goto oom;
	if (k < 0) {
		fprintf(stderr, "mcectl rules: reading '%s' failed: %s\n", path, strerror(-k));
		return 1;
	}
	printf("%u record%s, %u rule%s, %u firing%s (nothing was done)\n", c.records,
	       c.records == 1 ? "" : "s", set->n_rules, set->n_rules == 1 ? "" : "s", c.firings,
	       c.firings == 1 ? "" : "s");
	if (c.untimed > 0)
		fprintf(stderr, "mcectl rules: warning: %u record%s without a time counted as "
			"arriving at once\n", c.untimed, c.untimed == 1 ? "" : "s");
	if (c.records == 0) {
		fprintf(stderr, "mcectl rules: %s: no machine-check record found (%u line%s read)\n",
			c.name, c.lineno, c.lineno == 1 ? "" : "s");
		return 1;
	}
	return c.rejected > 0 ? 1 : 0;
oom:
	fprintf(stderr, "mcectl rules: out of memory\n");
	return 1;
}

static void show_rules(const struct rule_set *set)
{
	if (set->n_rules == 0) {
		printf("No rules.\n");
		return;
	}
	for (unsigned i = 0; i < set->n_rules; i++) {
		const struct rule *r = &set->rules[i];
		char match[512], key[128], threshold[64], actions[128];

		rule_format_match(r, match, sizeof(match));
		rule_format_key(r, key, sizeof(key));
		rule_format_threshold(r, threshold, sizeof(threshold));
		rule_format_actions(r, actions, sizeof(actions));
		printf("%s (%s:%u)\n", r->name, r->file, r->line);
		printf("  match:     %s\n", match[0] ? match : "every record");
		if (key[0])
			printf("  per:       %s\n", key);
		printf("  threshold: %s\n", threshold);
		if (r->holdoff_usec > 0)
			printf("  holdoff:   %llu s after each firing\n",
			       (unsigned long long) (r->holdoff_usec / 1000000));
		printf("  actions:   %s, priority %s\n", actions, rule_priority_to_string(r->priority));
		if (r->actions & RULE_ACTION_TRIGGER)
			printf("  trigger:   %s (timeout %llu ms)\n", r->trigger,
			       (unsigned long long) (r->trigger_timeout_usec / 1000));
	}
}

int verb_rules(int argc, char *argv[])
{
	enum { ARG_TEST = 0x100, ARG_RULES_DIR };
	static const struct option options[] = {
		{ "test",      required_argument, NULL, ARG_TEST },
		{ "rules-dir", required_argument, NULL, ARG_RULES_DIR },
		{ "cpu-id",    required_argument, NULL, 'c' },
		{ "help",      no_argument,       NULL, 'h' },
		{}
	};
	const char *default_dirs[] = RULE_DIRS_DEFAULT;
	const char *dirs[MAX_RULE_DIRS];
	size_t n_dirs = 0;
	const char *test = NULL;
	enum mce_vendor vendor = MCE_VENDOR_UNKNOWN;
	uint32_t family = 0, model = 0;
	bool have_cpu_id = false;
	struct rule_set set;
	int opt, status;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":c:h", options, NULL)) >= 0) {
		switch (opt) {
		case ARG_TEST:
			test = optarg;
			break;
		case ARG_RULES_DIR:
			if (n_dirs == MAX_RULE_DIRS) {
				fprintf(stderr, "mcectl rules: more than %u --rules-dir\n", MAX_RULE_DIRS);
				return 2;
			}
			dirs[n_dirs++] = optarg;
			break;
		case 'c':
			if (parse_cpu_id_arg(optarg, &vendor, &family, &model) < 0) {
				fprintf(stderr, "mcectl rules: --cpu-id '%s': expected VENDOR:FAMILY:MODEL "
					"such as amd:0x19:0x21 or intel:6:143\n", optarg);
				return 2;
			}
			have_cpu_id = true;
			break;
		case 'h':
			help();
			return 0;
		case ':':
			fprintf(stderr, "mcectl rules: option '%s' needs a value\n", argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, "mcectl rules: unknown option '%s' (try 'mcectl rules --help')\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "mcectl rules: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (n_dirs == 0)
		for (size_t i = 0; i < ELEMENTSOF(default_dirs); i++)
			dirs[n_dirs++] = default_dirs[i];

	rule_set_init(&set);
	if (load_rules(dirs, n_dirs, &set) < 0) {
		rule_set_done(&set);
		fprintf(stderr, "mcectl rules: the rule files have errors\n");
		return 1;
	}
	if (test)
		status = run_test(&set, test, have_cpu_id, vendor, family, model);
	else {
		show_rules(&set);
		status = fflush(stdout) == 0 ? 0 : 1;
	}
	rule_set_done(&set);
	return status;
}
