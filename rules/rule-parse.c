/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "macro.h"
#include "parse-number.h"
#include "rule.h"
#include "timespec.h"

#define LINE_MAX_LEN 4096

static const char *const action_names[] = {
	"alert", "soft-offline", "hard-offline", "cpu-offline", "trigger", "offline-row", "repair",
};

const char *rule_action_to_string(enum rule_action a)
{
	for (size_t i = 0; i < ELEMENTSOF(action_names); i++)
		if ((unsigned) a == 1u << i)
			return action_names[i];
	return "unknown";
}

/* syslog(3) levels, as journald's PRIORITY= and mcelogd.conf's LogLevel= name them. */
static const char *const priority_names[] = {
	[LOG_EMERG] = "emerg", [LOG_ALERT] = "alert", [LOG_CRIT] = "crit", [LOG_ERR] = "err",
	[LOG_WARNING] = "warning", [LOG_NOTICE] = "notice", [LOG_INFO] = "info",
	[LOG_DEBUG] = "debug",
};

const char *rule_priority_to_string(int level)
{
	return level >= 0 && (size_t) level < ELEMENTSOF(priority_names) ? priority_names[level] :
	       "unknown";
}

void rule_set_init(struct rule_set *s)
{
	*s = (struct rule_set) { 0 };
}

void rule_set_done(struct rule_set *s)
{
	free(s->rules);
	*s = (struct rule_set) { 0 };
}

/* One file being parsed: the rules it defines so far, and where errors go. */
struct parser {
	const struct rule_set *set;
	const char *file;
	unsigned line;
	rule_error_fn err;
	void *userdata;
	unsigned errors;

	struct rule *rules;
	unsigned n_rules, n_allocated;
	struct rule *cur;          /* the [Rule] being read, NULL outside one */
	bool seen_name, seen_threshold, seen_priority, seen_trigger, seen_timeout, seen_holdoff;
};

_printf_(3, 4)
static void report(struct parser *p, unsigned line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	p->errors++;
	if (!p->err)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->err(p->file, line, msg, p->userdata);
}

static const char *const space = " \t";

static int parse_name(struct parser *p, struct rule *r, char *v)
{
	size_t n = strlen(v);

	if (n == 0 || n >= sizeof(r->name)) {
		report(p, p->line, "Name= must have 1 to %zu characters", sizeof(r->name) - 1);
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char) v[i]) && !strchr("_.-", v[i])) {
			report(p, p->line, "Name='%s': only letters, digits, '_', '.' and '-' are allowed",
			       v);
			return -EINVAL;
		}
	memcpy(r->name, v, n + 1);
	return 0;
}

static int parse_term_value(struct parser *p, struct rule_term *t, char *v)
{
	const char *field = rule_field_to_string(t->field);

	if (t->n_values >= RULE_MAX_VALUES) {
		report(p, p->line, "Match=: more than %u values for '%s'", RULE_MAX_VALUES, field);
		return -EINVAL;
	}
	if (!*v) {
		report(p, p->line, "Match=: empty value for '%s'", field);
		return -EINVAL;
	}
	if (rule_field_is_number(t->field)) {
		uint64_t u;
		int r = parse_unsigned(v, strlen(v), 0, UINT64_MAX, &u);

		if (r < 0) {
			report(p, p->line, "Match=: '%s' is not a number for '%s' (decimal, or hex with 0x)",
			       v, field);
			return -EINVAL;
		}
		t->values[t->n_values++].u = u;
		return 0;
	}
	if (strlen(v) >= RULE_VALUE_MAX) {
		report(p, p->line, "Match=: value for '%s' is too long", field);
		return -EINVAL;
	}
	if (!rule_field_value_known(t->field, v)) {
		char known[512];

		rule_field_known_values(t->field, known, sizeof(known));
		report(p, p->line, "Match=: '%s' is not a value of '%s'; expected one of: %s", v, field,
		       known);
		return -EINVAL;
	}
	snprintf(t->values[t->n_values++].s, RULE_VALUE_MAX, "%s", v);
	return 0;
}

/* "field=a|b" or "field!=a|b". */
static int parse_term(struct parser *p, struct rule *r, char *term)
{
	char *eq = strchr(term, '='), *val;
	struct rule_term *t;
	bool negate = false;

	if (!eq || eq == term) {
		report(p, p->line, "Match=: '%s' is not a field=value term", term);
		return -EINVAL;
	}
	if (eq[-1] == '!') {
		negate = true;
		eq[-1] = '\0';
	}
	*eq = '\0';
	if (r->n_terms >= RULE_MAX_TERMS) {
		report(p, p->line, "Match=: more than %u terms in rule", RULE_MAX_TERMS);
		return -EINVAL;
	}
	t = &r->terms[r->n_terms];
	*t = (struct rule_term) { .field = rule_field_from_string(term), .negate = negate };
	if (t->field == _RULE_FIELD_INVALID) {
		report(p, p->line, "Match=: unknown field '%s'", term);
		return -EINVAL;
	}
	/* Alternatives split on '|'; "a||b" or a trailing '|' is a typo, reported as empty. */
	for (val = eq + 1;;) {
		char *bar = strchr(val, '|');

		if (bar)
			*bar = '\0';
		if (parse_term_value(p, t, val) < 0)
			return -EINVAL;
		if (!bar)
			break;
		val = bar + 1;
	}
	r->n_terms++;
	return 0;
}

static int parse_match(struct parser *p, struct rule *r, char *v)
{
	char *save = NULL, *term;
	int ret = 0;

	if (!*v) {
		report(p, p->line, "Match= is empty");
		return -EINVAL;
	}
	for (term = strtok_r(v, space, &save); term; term = strtok_r(NULL, space, &save))
		if (parse_term(p, r, term) < 0)
			ret = -EINVAL;
	return ret;
}

static int parse_key(struct parser *p, struct rule *r, char *v)
{
	char *save = NULL, *name;

	r->n_key = 0;
	for (name = strtok_r(v, space, &save); name; name = strtok_r(NULL, space, &save)) {
		enum rule_field f = rule_field_from_string(name);

		if (f == _RULE_FIELD_INVALID) {
			report(p, p->line, "Key=: unknown field '%s'", name);
			return -EINVAL;
		}
		for (unsigned i = 0; i < r->n_key; i++)
			if (r->key[i] == f) {
				report(p, p->line, "Key=: field '%s' is listed twice", name);
				return -EINVAL;
			}
		if (r->n_key >= RULE_MAX_KEY_FIELDS) {
			report(p, p->line, "Key=: more than %u fields", RULE_MAX_KEY_FIELDS);
			return -EINVAL;
		}
		r->key[r->n_key++] = f;
	}
	return 0;
}

/* "N in T": N records within the time span T. */
static int parse_threshold(struct parser *p, struct rule *r, char *v)
{
	char *save = NULL, *n = strtok_r(v, space, &save), *in = strtok_r(NULL, space, &save);
	char *span = save ? strip(save) : NULL;
	uint64_t count;
	int64_t usec;
	int k;

	if (!n || !in || !streq(in, "in") || !span || !*span) {
		report(p, p->line, "Threshold= expects 'N in T', e.g. '10 in 24h'");
		return -EINVAL;
	}
	k = parse_unsigned(n, strlen(n), 10, RULE_MAX_COUNT, &count);
	if (k < 0 || count == 0) {
		report(p, p->line, "Threshold=: '%s' is not a count from 1 to %u", n, RULE_MAX_COUNT);
		return -EINVAL;
	}
	if (parse_time_span(span, &usec) < 0 || usec <= 0 || (uint64_t) usec > RULE_MAX_WINDOW_USEC) {
		report(p, p->line, "Threshold=: '%s' is not a time span from 1us to 366d "
		       "(e.g. 30min, 24h, 7d)", span);
		return -EINVAL;
	}
	r->count = (unsigned) count;
	r->window_usec = (uint64_t) usec;
	return 0;
}

static int parse_holdoff(struct parser *p, struct rule *r, char *v)
{
	int64_t usec;

	if (parse_time_span(v, &usec) < 0 || usec < 0 || (uint64_t) usec > RULE_MAX_WINDOW_USEC) {
		report(p, p->line, "Holdoff=: '%s' is not a time span from 0 to 366d (e.g. 1h, 24h)", v);
		return -EINVAL;
	}
	r->holdoff_usec = (uint64_t) usec;
	return 0;
}

static int parse_action(struct parser *p, struct rule *r, char *v)
{
	char *save = NULL, *word;

	/* An empty assignment resets the list, as systemd list settings do. */
	if (!*v) {
		r->actions = 0;
		return 0;
	}
	for (word = strtok_r(v, space, &save); word; word = strtok_r(NULL, space, &save)) {
		size_t i;

		for (i = 0; i < ELEMENTSOF(action_names); i++)
			if (streq(action_names[i], word))
				break;
		if (i == ELEMENTSOF(action_names)) {
			report(p, p->line, "Action=: unknown action '%s'; expected alert, soft-offline, "
			       "hard-offline, cpu-offline, trigger, offline-row or repair", word);
			return -EINVAL;
		}
		r->actions |= 1u << i;
	}
	return 0;
}

static int parse_priority(struct parser *p, struct rule *r, char *v)
{
	for (size_t i = 0; i < ELEMENTSOF(priority_names); i++)
		if (streq(priority_names[i], v) || (v[0] == (char) ('0' + i) && !v[1])) {
			r->priority = (int) i;
			return 0;
		}
	report(p, p->line, "Priority=: '%s' is not one of emerg, alert, crit, err, warning, notice, "
	       "info, debug (or 0-7)", v);
	return -EINVAL;
}

static int parse_trigger(struct parser *p, struct rule *r, char *v)
{
	char buf[RULE_TRIGGER_MAX], *argv[RULE_TRIGGER_ARGS + 1];
	size_t n = strlen(v);
	unsigned argc = 0;

	if (n >= sizeof(r->trigger)) {
		report(p, p->line, "Trigger= is longer than %zu characters", sizeof(r->trigger) - 1);
		return -EINVAL;
	}
	if (v[0] != '/') {
		report(p, p->line, "Trigger=: '%s' is not an absolute path", v);
		return -EINVAL;
	}
	/* No shell runs it: quotes or $ would be taken literally, which is never what was meant. */
	if (strpbrk(v, "\"'`$\\;|&<>")) {
		report(p, p->line, "Trigger= is run without a shell: quotes, '$', '\\', ';', '|', '&', "
		       "'<' and '>' are not allowed");
		return -EINVAL;
	}
	memcpy(r->trigger, v, n + 1);
	for (char *s = v; *s; ) {
		s += strspn(s, space);
		if (!*s)
			break;
		argc++;
		s += strcspn(s, space);
	}
	if (argc > RULE_TRIGGER_ARGS) {
		report(p, p->line, "Trigger= has more than %u arguments", RULE_TRIGGER_ARGS);
		return -EINVAL;
	}
	r->trigger_argc = rule_trigger_argv(r, buf, argv);
	return 0;
}

unsigned rule_trigger_argv(const struct rule *r, char buf[static RULE_TRIGGER_MAX],
			   char *argv[static RULE_TRIGGER_ARGS + 1])
{
	char *save = NULL, *w;
	unsigned argc = 0;

	snprintf(buf, RULE_TRIGGER_MAX, "%s", r->trigger);
	for (w = strtok_r(buf, space, &save); w && argc < RULE_TRIGGER_ARGS;
	     w = strtok_r(NULL, space, &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	return argc;
}

/* A trigger that takes an hour is hung; 1 ms is the least a fork and exec can take. */
#define TRIGGER_TIMEOUT_MIN_USEC UINT64_C(1000)
#define TRIGGER_TIMEOUT_MAX_USEC (UINT64_C(3600) * 1000000)

static int parse_trigger_timeout(struct parser *p, struct rule *r, char *v)
{
	int64_t usec;

	if (parse_time_span(v, &usec) < 0 || usec < (int64_t) TRIGGER_TIMEOUT_MIN_USEC ||
	    (uint64_t) usec > TRIGGER_TIMEOUT_MAX_USEC) {
		report(p, p->line, "TriggerTimeout=: '%s' is not a time span from 1ms to 1h", v);
		return -EINVAL;
	}
	r->trigger_timeout_usec = (uint64_t) usec;
	return 0;
}

typedef int (*key_parser)(struct parser *p, struct rule *r, char *v);

/* Keys of [Rule], in the order mcelogd.rules(5) documents them. */
static const struct {
	const char *key;
	key_parser parse;
	size_t seen;           /* offset of the parser's "seen" flag; 0: the key may repeat */
} rule_keys[] = {
	{ "Name",           parse_name,            offsetof(struct parser, seen_name) },
	{ "Match",          parse_match,           0 },
	{ "Key",            parse_key,             0 },
	{ "Threshold",      parse_threshold,       offsetof(struct parser, seen_threshold) },
	{ "Holdoff",        parse_holdoff,         offsetof(struct parser, seen_holdoff) },
	{ "Action",         parse_action,          0 },
	{ "Priority",       parse_priority,        offsetof(struct parser, seen_priority) },
	{ "Trigger",        parse_trigger,         offsetof(struct parser, seen_trigger) },
	{ "TriggerTimeout", parse_trigger_timeout, offsetof(struct parser, seen_timeout) },
};

static bool key_has(const struct rule *r, enum rule_field f)
{
	for (unsigned i = 0; i < r->n_key; i++)
		if (r->key[i] == f)
			return true;
	return false;
}

static bool name_taken(const struct parser *p, const char *name, const struct rule *self)
{
	for (unsigned i = 0; i < p->set->n_rules; i++)
		if (streq(p->set->rules[i].name, name))
			return true;
	for (unsigned i = 0; i < p->n_rules; i++)
		if (&p->rules[i] != self && streq(p->rules[i].name, name))
			return true;
	return false;
}

/*
 * Whether Key= counts one memory location per bucket: a host page or
 * address, or a CXL memory device's (its name is its label) DPA or DRAM row.
 */
static bool key_names_location(const struct rule *r)
{
	static const enum rule_field row[] = {
		RULE_FIELD_LABEL, RULE_FIELD_CHANNEL, RULE_FIELD_RANK, RULE_FIELD_BANK_GROUP, RULE_FIELD_DRAM_BANK,
		RULE_FIELD_ROW,
	};
	bool all = true;

	if (key_has(r, RULE_FIELD_PAGE) || key_has(r, RULE_FIELD_ADDRESS) ||
	    (key_has(r, RULE_FIELD_LABEL) && key_has(r, RULE_FIELD_DPA)))
		return true;
	for (size_t i = 0; i < ELEMENTSOF(row); i++)
		all = all && key_has(r, row[i]);
	return all;
}

/* The checks that need the whole rule: required keys and actions that contradict. */
static void finish_rule(struct parser *p)
{
	struct rule *r = p->cur;
	unsigned line = r ? r->line : 0;

	if (!r)
		return;
	p->cur = NULL;
	if (!p->seen_name)
		report(p, line, "[Rule] has no Name=");
	else if (name_taken(p, r->name, r))
		report(p, line, "rule '%s' is defined twice", r->name);
	if (r->actions == 0)
		report(p, line, "rule '%s' has no Action=", r->name);
	if ((r->actions & RULE_ACTION_SOFT_OFFLINE) && (r->actions & RULE_ACTION_HARD_OFFLINE))
		report(p, line, "rule '%s': conflicting actions soft-offline and hard-offline", r->name);
	if ((r->actions & (RULE_ACTION_SOFT_OFFLINE | RULE_ACTION_HARD_OFFLINE)) &&
	    !key_has(r, RULE_FIELD_PAGE))
		report(p, line, "rule '%s': page offlining needs Key= to include page, so that one "
		       "page's errors decide about that page", r->name);
	/* A row is a row of one bank: the same row number in two banks is two rows. */
	if ((r->actions & RULE_ACTION_OFFLINE_ROW) &&
	    (!key_has(r, RULE_FIELD_ROW) || !key_has(r, RULE_FIELD_DRAM_BANK)))
		report(p, line, "rule '%s': offline-row needs Key= to include row and dram_bank (and the "
		       "fields that name the DIMM), so that one row's errors decide about that row", r->name);
	if ((r->actions & RULE_ACTION_OFFLINE_ROW) &&
	    (key_has(r, RULE_FIELD_PAGE) || (r->actions & (RULE_ACTION_SOFT_OFFLINE | RULE_ACTION_HARD_OFFLINE))))
		report(p, line, "rule '%s': offline-row counts a row, not a page: Key= without page, and "
		       "no soft-offline or hard-offline in the same rule", r->name);
	/* A repair acts on one location: the errors counted must all be that location's. */
	if ((r->actions & RULE_ACTION_REPAIR) && !key_names_location(r))
		report(p, line, "rule '%s': repair needs Key= to name the memory location it repairs: page or "
		       "address, label and dpa, or label, channel, rank, bank_group, dram_bank and row; so that "
		       "one location's errors decide about that location", r->name);
	if ((r->actions & RULE_ACTION_CPU_OFFLINE) && !key_has(r, RULE_FIELD_CPU))
		report(p, line, "rule '%s': cpu-offline needs Key= to include cpu", r->name);
	if ((r->actions & RULE_ACTION_TRIGGER) && !p->seen_trigger)
		report(p, line, "rule '%s': Action=trigger needs Trigger=", r->name);
	if (!(r->actions & RULE_ACTION_TRIGGER) && (p->seen_trigger || p->seen_timeout))
		report(p, line, "rule '%s': Trigger= or TriggerTimeout= is set but Action= has no "
		       "trigger", r->name);
}

static int start_rule(struct parser *p)
{
	struct rule *n;

	finish_rule(p);
	if (p->set->n_rules + p->n_rules >= RULE_SET_MAX_RULES) {
		report(p, p->line, "more than %u rules", RULE_SET_MAX_RULES);
		return -EINVAL;
	}
	/* Doubling: a rule is ~12 KiB, and growing by one copied the file's rules for
	 * each new one (1024 rules took seconds under ASan, with a non-remapping realloc). */
	if (p->n_rules == p->n_allocated) {
		unsigned want = p->n_allocated ? 2 * p->n_allocated : 4;

		n = realloc(p->rules, want * sizeof(*n));
		if (!n)
			return -ENOMEM;
		p->rules = n;
		p->n_allocated = want;
	}
	p->cur = &p->rules[p->n_rules++];
	*p->cur = (struct rule) {
		.line = p->line,
		.count = 1,
		.priority = LOG_WARNING,
		.trigger_timeout_usec = RULE_TRIGGER_TIMEOUT_DEFAULT_USEC,
	};
	snprintf(p->cur->file, sizeof(p->cur->file), "%s", p->file);
	p->seen_name = p->seen_threshold = p->seen_priority = false;
	p->seen_trigger = p->seen_timeout = p->seen_holdoff = false;
	return 0;
}

static int parse_assignment(struct parser *p, char *line)
{
	char *eq = strchr(line, '='), *key, *value;

	if (!eq) {
		report(p, p->line, "expected Key=Value, got '%s'", line);
		return 0;
	}
	*eq = '\0';
	key = strip(line);
	value = strip(eq + 1);
	if (!p->cur) {
		report(p, p->line, "'%s=' outside a [Rule] section", key);
		return 0;
	}
	for (size_t i = 0; i < ELEMENTSOF(rule_keys); i++) {
		if (!streq(rule_keys[i].key, key))
			continue;
		if (rule_keys[i].seen) {
			bool *seen = (bool *) ((char *) p + rule_keys[i].seen);

			if (*seen) {
				report(p, p->line, "%s= is set twice in one rule", key);
				return 0;
			}
			*seen = true;
		}
		rule_keys[i].parse(p, p->cur, value);
		return 0;
	}
	report(p, p->line, "unknown key '%s' in [Rule]", key);
	return 0;
}

int rule_set_parse(struct rule_set *s, const char *text, size_t len, const char *file,
		   rule_error_fn err, void *userdata)
{
	struct parser p = { .set = s, .file = file, .err = err, .userdata = userdata };
	const char *pos = text, *end = text + len;
	bool in_other_section = false;
	struct rule *n;
	int r = 0;

	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		pos += 3;
	while (pos < end && r >= 0) {
		const char *nl = memchr(pos, '\n', (size_t) (end - pos));
		size_t l = nl ? (size_t) (nl - pos) : (size_t) (end - pos);
		char buf[LINE_MAX_LEN], *line;

		p.line++;
		if (l >= sizeof(buf) || memchr(pos, '\0', l)) {
			report(&p, p.line, l >= sizeof(buf) ? "line is too long" : "line contains a NUL byte");
			pos = nl ? nl + 1 : end;
			continue;
		}
		memcpy(buf, pos, l);
		buf[l] = '\0';
		pos = nl ? nl + 1 : end;
		line = strip(buf);
		if (!*line || *line == '#' || *line == ';')
			continue;
		if (*line == '[') {
			if (streq(line, "[Rule]")) {
				in_other_section = false;
				r = start_rule(&p);
			} else {
				finish_rule(&p);
				in_other_section = true;
				report(&p, p.line, "unknown section %s; rule files hold [Rule] sections only",
				       line);
			}
			continue;
		}
		if (!in_other_section)
			parse_assignment(&p, line);
	}
	finish_rule(&p);
	if (r < 0) {
		free(p.rules);
		return r;
	}
	if (p.errors > 0) {
		free(p.rules);
		return -EINVAL;
	}
	if (p.n_rules == 0) {
		free(p.rules);
		return 0;
	}
	n = realloc(s->rules, (s->n_rules + p.n_rules) * sizeof(*n));
	if (!n) {
		free(p.rules);
		return -ENOMEM;
	}
	memcpy(n + s->n_rules, p.rules, p.n_rules * sizeof(*n));
	s->rules = n;
	s->n_rules += p.n_rules;
	free(p.rules);
	return 0;
}

int rule_load_file(const char *path, const char *text, size_t len, int error, void *userdata)
{
	struct rule_load *l = userdata;
	int r;

	l->files++;
	if (error < 0) {
		l->bad_files++;
		if (l->err) {
			char msg[256];

			snprintf(msg, sizeof(msg), "cannot read rule file: %s", strerror(-error));
			l->err(path, 0, msg, l->userdata);
		}
		return 0;
	}
	r = rule_set_parse(l->set, text, len, path, l->err, l->userdata);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		l->bad_files++;
	return 0;
}

/* Appends to buf[0..size) at *used, keeping it NUL-terminated and never overrunning. */
_printf_(4, 5)
static void append(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, size - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used = *used + (size_t) n < size ? *used + (size_t) n : size - 1;
}

void rule_format_match(const struct rule *r, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < r->n_terms; i++) {
		const struct rule_term *t = &r->terms[i];

		append(buf, size, &used, "%s%s%s=", i ? " " : "", rule_field_to_string(t->field),
		       t->negate ? "!" : "");
		for (unsigned v = 0; v < t->n_values; v++) {
			const char *bar = v ? "|" : "";

			if (!rule_field_is_number(t->field))
				append(buf, size, &used, "%s%s", bar, t->values[v].s);
			else if (t->values[v].u > 9)
				append(buf, size, &used, "%s0x%llx", bar, (unsigned long long) t->values[v].u);
			else
				append(buf, size, &used, "%s%llu", bar, (unsigned long long) t->values[v].u);
		}
	}
}

void rule_format_key(const struct rule *r, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < r->n_key; i++)
		append(buf, size, &used, "%s%s", i ? " " : "", rule_field_to_string(r->key[i]));
}

void rule_format_actions(const struct rule *r, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ELEMENTSOF(action_names); i++)
		if (r->actions & (1u << i))
			append(buf, size, &used, "%s%s", used ? " " : "", action_names[i]);
}

/*
 * The largest unit that divides the span exactly, so "90min" reads back as
 * "90min"; days only from two days up, since rules say "24h" rather than "1d".
 */
void rule_format_threshold(const struct rule *r, char *buf, size_t size)
{
	static const struct { const char *unit; uint64_t usec; } units[] = {
		{ "d", UINT64_C(86400000000) }, { "h", UINT64_C(3600000000) },
		{ "min", UINT64_C(60000000) }, { "s", UINT64_C(1000000) }, { "ms", 1000 }, { "us", 1 },
	};

	if (r->window_usec == 0) {
		snprintf(buf, size, "every record");
		return;
	}
	for (size_t i = r->window_usec < 2 * units[0].usec ? 1 : 0; i < ELEMENTSOF(units); i++)
		if (r->window_usec % units[i].usec == 0) {
			snprintf(buf, size, "%u in %llu%s", r->count,
				 (unsigned long long) (r->window_usec / units[i].usec), units[i].unit);
			return;
		}
}
