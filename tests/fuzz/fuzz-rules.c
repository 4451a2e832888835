/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: a rule file (rules/rule-parse.c), which an admin writes
 * by hand.  Whatever the text: the parser refuses it exactly when it names a
 * problem, each on a line of the file, and a refused file adds no rule.  What
 * it accepts is written back as a rule file through the formatters mcectl
 * shows rules with (rule_format_match() and the others), and that text must
 * parse to the same rules; parsing the original again into the same set must
 * be refused, its names being taken.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "rule.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct problems {
	unsigned n;
	unsigned lines;     /* of the text being parsed; the last may lack its newline */
};

static void on_problem(const char *file, unsigned line, const char *msg, void *userdata)
{
	struct problems *p = userdata;

	if (strcmp(file, "fuzz.rules") != 0 || line > p->lines || !msg || !*msg)
		abort();
	p->n++;
}

static unsigned count_lines(const char *text, size_t len)
{
	unsigned n = 0;

	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	return n + (len > 0 && text[len - 1] != '\n');
}

struct text {
	char *buf;
	size_t len, cap;
};

_printf_(2, 3) static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	if (t->len + (size_t) n + 1 > t->cap) {
		t->cap = (t->len + (size_t) n + 1) * 2;
		t->buf = realloc(t->buf, t->cap);
		if (!t->buf)
			abort();
	}
	va_start(ap, fmt);
	vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t) n;
}

/* The rule as its file would say it; one Match= line per term, as a line holds at most 4095 bytes. */
static void write_rule(struct text *t, const struct rule *r)
{
	char buf[2048];

	put(t, "[Rule]\nName=%s\n", r->name);
	for (unsigned i = 0; i < r->n_terms; i++) {
		struct rule one = { .n_terms = 1, .terms = { r->terms[i] } };

		rule_format_match(&one, buf, sizeof(buf));
		put(t, "Match=%s\n", buf);
	}
	rule_format_key(r, buf, sizeof(buf));
	put(t, "Key=%s\n", buf);
	if (r->window_usec) {
		rule_format_threshold(r, buf, sizeof(buf));
		put(t, "Threshold=%s\n", buf);
	}
	put(t, "Holdoff=%lluus\n", (unsigned long long) r->holdoff_usec);
	rule_format_actions(r, buf, sizeof(buf));
	put(t, "Action=%s\n", buf);
	put(t, "Priority=%s\n", rule_priority_to_string(r->priority));
	if (r->actions & RULE_ACTION_TRIGGER)
		put(t, "Trigger=%s\nTriggerTimeout=%lluus\n", r->trigger,
		    (unsigned long long) r->trigger_timeout_usec);
}

static void same_rule(const struct rule *a, const struct rule *b)
{
	if (strcmp(a->name, b->name) != 0 || a->n_terms != b->n_terms || a->n_key != b->n_key ||
	    memcmp(a->key, b->key, a->n_key * sizeof(a->key[0])) != 0 || a->count != b->count ||
	    a->window_usec != b->window_usec || a->holdoff_usec != b->holdoff_usec ||
	    a->actions != b->actions || a->priority != b->priority ||
	    strcmp(a->trigger, b->trigger) != 0 || a->trigger_argc != b->trigger_argc ||
	    a->trigger_timeout_usec != b->trigger_timeout_usec)
		abort();
	for (unsigned i = 0; i < a->n_terms; i++) {
		const struct rule_term *x = &a->terms[i], *y = &b->terms[i];

		if (x->field != y->field || x->negate != y->negate || x->n_values != y->n_values)
			abort();
		for (unsigned v = 0; v < x->n_values; v++)
			if (x->values[v].u != y->values[v].u || strcmp(x->values[v].s, y->values[v].s) != 0)
				abort();
	}
}

static void check_rule(const struct rule *r)
{
	if (!r->name[0] || strlen(r->name) >= RULE_NAME_MAX || r->n_terms > RULE_MAX_TERMS ||
	    r->n_key > RULE_MAX_KEY_FIELDS || r->count == 0 || r->count > RULE_MAX_COUNT ||
	    r->window_usec > RULE_MAX_WINDOW_USEC || (r->count > 1 && !r->window_usec) ||
	    r->holdoff_usec > RULE_MAX_WINDOW_USEC || r->actions == 0 || r->priority < 0 || r->priority > 7 ||
	    r->trigger_argc > RULE_TRIGGER_ARGS || ((r->actions & RULE_ACTION_TRIGGER) && r->trigger[0] != '/'))
		abort();
	for (unsigned i = 0; i < r->n_terms; i++)
		if (r->terms[i].n_values == 0 || r->terms[i].n_values > RULE_MAX_VALUES)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *) data;
	struct problems p = { .lines = count_lines(text, size) };
	struct rule_set set, again;
	struct text out = { 0 };
	int r;

	rule_set_init(&set);
	r = rule_set_parse(&set, text, size, "fuzz.rules", on_problem, &p);
	if ((r < 0) != (p.n > 0) || (r < 0 && r != -EINVAL) || (r < 0 && set.n_rules))
		abort();
	if (r < 0 || set.n_rules == 0) {
		rule_set_done(&set);
		return 0;
	}

	for (unsigned i = 0; i < set.n_rules; i++) {
		check_rule(&set.rules[i]);
		if (strcmp(set.rules[i].file, "fuzz.rules") != 0 || set.rules[i].line == 0 ||
		    set.rules[i].line > p.lines)
			abort();
		write_rule(&out, &set.rules[i]);
	}
	rule_set_init(&again);
	p = (struct problems) { .lines = count_lines(out.buf, out.len) };
	if (rule_set_parse(&again, out.buf, out.len, "fuzz.rules", on_problem, &p) != 0 ||
	    again.n_rules != set.n_rules)
		abort();
	for (unsigned i = 0; i < set.n_rules; i++)
		same_rule(&set.rules[i], &again.rules[i]);

	/* The same names again: refused, and the set keeps what it had. */
	p = (struct problems) { .lines = count_lines(text, size) };
	if (rule_set_parse(&again, text, size, "fuzz.rules", on_problem, &p) != -EINVAL ||
	    again.n_rules != set.n_rules)
		abort();

	free(out.buf);
	rule_set_done(&again);
	rule_set_done(&set);
	return 0;
}
