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

#include "clock.h"
#include "decode-text.h"
#include "decode.h"
#include "dropin.h"
#include "error-pair.h"
#include "line-reader.h"
#include "macro.h"
#include "mem-repair.h"
#include "options.h"
#include "ras-record-json.h"
#include "ras-record.h"
#include "read-file.h"
#include "record-text.h"
#include "rfc3339.h"
#include "row-pages.h"
#include "rule-engine.h"
#include "rule-state.h"
#include "state-file.h"
#include "verbs.h"

#define MAX_RULE_DIRS 8
#define DEFAULT_STATE STATE_FILE_DEFAULT
#define NEAREST_MAX 10       /* buckets shown, nearest to firing first */

struct test_ctx {
	struct text_input in;             /* first: take_ras_line() finds the context from it */
	struct rule_engine *engine;
	struct error_pair pairs;          /* a machine check and its EDAC copy count once, as live */
	struct rule_state rows;           /* the pages of offline-row rules' rows, as live */
	unsigned records, untimed, firings;
	unsigned first_line, last_line; /* of the record being run */
};

static void help(void)
{
	printf("Usage: mcectl rules [OPTIONS]\n"
	       "Show the rules mcelogd acts on (mcelogd.rules(5)).\n\n"
	       "      --test FILE        run the rules over the records in FILE ('-': stdin), any\n"
	       "                         form 'mcectl decode' reads and the daemon's JSON lines of\n"
	       "                         other hardware errors (EDAC, ...), and print what would\n"
	       "                         fire; nothing is done\n"
	       "      --rules-directory DIR  read rule files from DIR instead of %s/mcelogd/rules.d\n"
	       "                         and %s (repeatable; the first has priority)\n"
	       "      --state FILE       the daemon's rules state (default %s): counts\n"
	       "                         nearest to firing, offlined pages, recent alerts\n"
	       "  -c, --cpu-id V:F:M     CPU of records that do not name one (as mcectl decode)\n"
	       "  -h, --help             show this help\n", SYSCONFDIR, RULESDIR, DEFAULT_STATE);
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
	bool timed = f->input->mce ? f->input->mce->have & MCE_HAVE_TIME : f->input->ras->have_time;
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
		printf(", %s:%u", c->in.name, c->first_line);
	else
		printf(", %s:%u-%u", c->in.name, c->first_line, c->last_line);
	printf(": would %s\n", actions);
	if (f->rule->actions & RULE_ACTION_OFFLINE_ROW) {
		const struct rule_state_row *row = row_pages_isolate(&c->rows, f->rule->name, f->key,
								     f->now_usec, f->window_usec);

		for (unsigned i = 0; row && i < row->n_pages; i++)
			printf("  would soft-offline page 0x%" PRIx64 ", seen on the row\n", row->pages[i].pfn);
	}
	if (f->rule->actions & RULE_ACTION_REPAIR) {
		struct mem_repair_target t;
		const char *why = "not a CXL memory record";

		char refused[320];

		if (!f->input->ras || mem_repair_target_from_record(f->input->ras, &t, &why) < 0)
			printf("  no memory repair: %s\n", why);
		else if (mem_repair_check_record(&t, refused, sizeof(refused)) != MEM_REPAIR_GO)
			printf("  no memory repair of %s: %s\n", t.memdev, refused);
		else
			printf("  would ask %s for a memory repair at DPA 0x%" PRIx64 " (with [Memory] Repair=yes, "
			       "if the device offers one)\n", t.memdev, t.value[MEM_REPAIR_ATTR_DPA]);
	}
}

/* A page first seen on a row that crossed its threshold before. */
static void on_row_page(const struct rule *r, const struct rule_state_row *row, uint64_t pfn, void *userdata)
{
	struct test_ctx *c = userdata;

	printf("%s [%s]: page 0x%" PRIx64 " on a row past its threshold, %s:%u: would soft-offline it at once\n",
	       r->name, row ? row->key : "", pfn, c->in.name, c->first_line);
}

/* One record through the rules at its time (0 without one: every such record at once). */
static int run_record(struct test_ctx *c, struct rule_input *in, bool timed, int64_t time_usec)
{
	uint64_t t = timed && time_usec > 0 ? (uint64_t) time_usec : 0;
	bool paired;
	int k;

	c->records++;
	/* Without a time every record counts as at the same moment: say so once, at the end. */
	if (!timed)
		c->untimed++;
	(void) error_pair_input(&c->pairs, in, t, &paired);
	k = row_pages_input(&c->rows, rule_engine_rules(c->engine), in, t, on_row_page, c);
	if (k < 0)
		return k;
	k = rule_engine_feed(c->engine, in, t, on_fire, c);
	return k < 0 ? k : 0;
}

static int on_record(const struct mce_record *r, unsigned first, unsigned last, void *userdata)
{
	struct test_ctx *c = userdata;
	struct mce_decoded d;
	struct rule_input in = { .mce = r, .decoded = &d };

	mce_decode(r, &d);
	c->first_line = first;
	c->last_line = last;
	return run_record(c, &in, r->have & MCE_HAVE_TIME, r->time_usec);
}

/*
 * The daemon's JSON lines of other hardware errors (EDAC, AER, memory
 * failure, ...: an "event" key), which the MCA text parser does not read: run
 * as the daemon runs them.  A bad one is named with its line and left out.
 */
static int take_ras_line(struct text_input *in, const char *line, size_t len)
{
	struct test_ctx *c = (struct test_ctx *) in;
	struct ras_record r;
	struct rule_input rin = { .ras = &r };
	char why[256];
	int k;

	if (line[0] != '{')
		return 0;
	k = ras_record_parse_json(line, len, &r, why, sizeof(why));
	if (k == -ENOMSG)
		return 0;   /* no "event": a machine check's, for the parser */
	if (k == -ENOMEM)
		return k;
	if (k < 0) {
		in->rejected++;
		fprintf(stderr, "mcectl rules: %s:%u: %s\n", in->name, in->lineno, why);
		return 1;
	}
	c->first_line = c->last_line = in->lineno;
	k = run_record(c, &rin, r.have_time, r.time_usec);
	ras_record_done(&r);
	return k < 0 ? k : 1;
}

static void on_diag(enum mce_text_diag kind, unsigned line, const char *msg, void *userdata)
{
	struct test_ctx *c = userdata;

	if (kind == MCE_TEXT_UNKNOWN)
		return;
	if (kind == MCE_TEXT_MALFORMED)
		c->in.rejected++;
	fprintf(stderr, "mcectl rules: %s:%u: %s%s\n", c->in.name, line,
		kind == MCE_TEXT_PARTIAL ? "warning: " : "", msg);
}

static int run_test(const struct rule_set *set, const char *path, bool have_cpu_id,
		    enum mce_vendor vendor, uint32_t family, uint32_t model)
{
	_cleanup_(rule_engine_freep) struct rule_engine *e = NULL;
	_cleanup_close_ int fd = -1;
	struct test_ctx c = { .in = { .verb = "rules", .name = streq(path, "-") ? "<stdin>" : path,
				      .take_line = take_ras_line } };
	int k;

	fd = streq(path, "-") ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "mcectl rules: cannot open '%s': %s\n", path, strerror(errno));
		return 1;
	}
	if (rule_engine_new(set, 0, &e) < 0)
		goto oom;
	c.engine = e;
	c.in.parser = mce_text_parser_new(&(struct mce_text_callbacks) { .record = on_record,
								      .diagnostic = on_diag }, &c);
	if (!c.in.parser)
		goto oom;
	mce_text_parser_set_source(c.in.parser, MCE_SOURCE_DECODE);
	if (have_cpu_id)
		mce_text_parser_set_default_cpu(c.in.parser, vendor, family, model);
	k = text_input_read(&c.in, fd);
	c.in.parser = mce_text_parser_free(c.in.parser);
	rule_state_done(&c.rows);
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
		fprintf(stderr, "mcectl rules: %s: no hardware-error record found (%u line%s read)\n",
			c.in.name, c.in.lineno, c.in.lineno == 1 ? "" : "s");
		return 1;
	}
	return c.in.rejected > 0 ? 1 : 0;
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

/* The state file, parsed; -ENOENT when the daemon has not written one yet. */
struct nearest {
	const struct rule *rule;
	const struct rule_state_bucket *bucket;
	unsigned level;
};

static int by_closeness(const void *a, const void *b)
{
	const struct nearest *x = a, *y = b;
	/* Closer to firing: a larger share of N; compare level/count without division. */
	uint64_t l = (uint64_t) x->level * y->rule->count, r = (uint64_t) y->level * x->rule->count;

	return l > r ? -1 : l < r ? 1 : 0;
}

/* What the daemon counted, offlined and alerted, from its state file, at now. */
static int show_state(const struct rule_set *set, const char *path, uint64_t now_usec)
{
	struct rule_state st = { 0 };
	_cleanup_free_ struct nearest *near = NULL;
	unsigned n = 0;
	int r = state_file_read("rules", path, &st);

	if (r == -ENOENT) {
		printf("\nNo state yet (%s): nothing counted.\n", path);
		return 0;
	}
	if (r < 0)
		return r;
	near = calloc(st.n_buckets ? st.n_buckets : 1, sizeof(*near));
	if (!near) {
		rule_state_done(&st);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < st.n_buckets; i++) {
		const struct rule_state_bucket *b = st.buckets[i];
		unsigned level = 0;

		for (unsigned k = 0; k < set->n_rules; k++) {
			const struct rule *rule = &set->rules[k];

			if (!streq(rule->name, b->rule))
				continue;
			for (unsigned t = 0; t < b->n_times; t++)
				if (now_usec < b->times[t] || now_usec - b->times[t] < rule->window_usec)
					level++;
			if (level > 0)
				near[n++] = (struct nearest) { .rule = rule, .bucket = b, .level = level };
		}
	}
	qsort(near, n, sizeof(*near), by_closeness);
	printf("\nCounts nearest to firing (%s):\n", path);
	if (n == 0)
		printf("  none\n");
	for (unsigned i = 0; i < n && i < NEAREST_MAX; i++) {
		char threshold[64];

		rule_format_threshold(near[i].rule, threshold, sizeof(threshold));
		printf("  %-24s %-32s %u of %s\n", near[i].rule->name, near[i].bucket->key, near[i].level,
		       threshold);
	}
	if (n > NEAREST_MAX)
		printf("  ... and %u more\n", n - NEAREST_MAX);
	printf("\nOfflined pages:\n");
	if (st.n_pages == 0)
		printf("  none\n");
	for (unsigned i = 0; i < st.n_pages; i++) {
		const struct rule_state_page *p = &st.pages[i];

		printf("  0x%-14" PRIx64 " %s-offline %-7s ", p->pfn, p->hard ? "hard" : "soft",
		       p->pending ? "pending" : p->salvaged ? "salvaged" : p->held ? "held" : p->ok ? "done" : "failed");
		print_time(stdout, p->time_usec, true);
		printf("\n");
	}
	printf("\nDRAM rows past their threshold (offline-row):\n");
	n = 0;
	for (unsigned i = 0; i < st.n_rows; i++) {
		const struct rule_state_row *row = &st.rows[i];

		if (!row->isolated_usec)
			continue;
		n++;
		printf("  %s %s: since ", row->rule, row->key);
		print_time(stdout, row->isolated_usec, true);
		printf(", %u page%s\n", row->n_pages, row->n_pages == 1 ? "" : "s");
	}
	if (n == 0)
		printf("  none\n");
	printf("  (%u row%s followed in all)\n", st.n_rows, st.n_rows == 1 ? "" : "s");
	printf("\nRecent alerts: %u\n", st.n_alerts);
	for (unsigned i = st.n_alerts > NEAREST_MAX ? st.n_alerts - NEAREST_MAX : 0; i < st.n_alerts; i++) {
		printf("  ");
		print_time(stdout, st.alerts[i].time_usec, true);
		printf(" %s %s\n", st.alerts[i].rule, st.alerts[i].key);
	}
	rule_state_done(&st);
	return 0;
}

int verb_rules(int argc, char *argv[])
{
	enum { ARG_TEST = 0x100, ARG_RULES_DIR, ARG_STATE };
	static const struct option options[] = {
		{ "test",      required_argument, NULL, ARG_TEST },
		{ "rules-directory", required_argument, NULL, ARG_RULES_DIR },
		/* mcectl's own older spelling; mcelogd takes both too. */
		{ "rules-dir", required_argument, NULL, ARG_RULES_DIR },
		{ "state",     required_argument, NULL, ARG_STATE },
		{ "cpu-id",    required_argument, NULL, 'c' },
		{ "help",      no_argument,       NULL, 'h' },
		{}
	};
	const char *default_dirs[] = RULE_DIRS_DEFAULT;
	const char *dirs[MAX_RULE_DIRS];
	size_t n_dirs = 0;
	const char *test = NULL, *state = DEFAULT_STATE;
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
		case ARG_STATE:
			state = optarg;
			break;
		case ARG_RULES_DIR:
			if (n_dirs == MAX_RULE_DIRS) {
				fprintf(stderr, "mcectl rules: more than %u --rules-directory\n", MAX_RULE_DIRS);
				return 2;
			}
			dirs[n_dirs++] = optarg;
			break;
		case 'c':
			if (parse_cpu_id_option("rules", optarg, &vendor, &family, &model) < 0)
				return 2;
			have_cpu_id = true;
			break;
		case 'h':
			help();
			return 0;
		default:
			return option_error("rules", opt, argv);
		}
	}
	if (no_arguments_left("rules", argc, argv))
		return 2;
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
		status = show_state(&set, state, (uint64_t) now_realtime_usec()) < 0 ? 1 : 0;
		if (fflush(stdout) != 0)
			status = 1;
	}
	rule_set_done(&set);
	return status;
}
