/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "module-state.h"
#include "parse-number.h"

static bool needs_escape(unsigned char c)
{
	return c <= 0x20 || c == '%' || c == '=' || c == 0x7f;
}

static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++)
		if (needs_escape((unsigned char) *s))
			fprintf(f, "%%%02X", (unsigned char) *s);
		else
			fputc(*s, f);
}

static void put_text(FILE *f, const char *key, const char *value)
{
	fprintf(f, " %s=", key);
	put_escaped(f, value);
}

static void format_module(FILE *f, const struct module_entry *m)
{
	const struct module_pattern *p = &m->pattern;
	const struct dram_tracker *t = &p->tracker;

	fputs("module", f);
	put_text(f, "key", m->id.key);
	fprintf(f, " kind=%s fallback=%d", module_kind_to_string(m->id.kind), m->id.fallback);
	put_text(f, "serial", m->id.serial);
	put_text(f, "part", m->id.part);
	put_text(f, "slot", m->id.slot);
	fprintf(f, " corrected=%" PRIu64 " uncorrected=%" PRIu64 " week_start=%" PRId64 " week_corrected=%" PRIu64,
		m->corrected, m->uncorrected, m->week_start_usec, m->week_corrected);
	fprintf(f, " ue_on_row=%d ue_bank=%u ue_row=%u ue_row_corrected=%u", m->ue_on_row, m->ue_bank, m->ue_row,
		m->ue_row_corrected);
	fprintf(f, " pages_retired=%u rows_retired=%u repairs_done=%u repairs_refused=%u repairs_failed=%u"
		" repair_limit=%d spares_left=%" PRId64 " first=%" PRId64 " last=%" PRId64,
		m->pages_retired, m->rows_retired, m->repairs[MODULE_REPAIR_DONE], m->repairs[MODULE_REPAIR_REFUSED],
		m->repairs[MODULE_REPAIR_FAILED], m->repair_limit_reached, m->spares_left, m->first_usec,
		m->last_usec);
	put_text(f, "last_error", m->last_error);
	fprintf(f, " ranks=0x%x more=%d%d%d%d", p->ranks, p->more_cells, p->more_rows, p->more_columns,
		p->more_banks);
	fprintf(f, " located=%" PRIu64 " first_cell=%u,%u,%u same=%d%d%d%d", t->errors, t->first.bank, t->first.row,
		t->first.column, t->same_cell, t->same_row, t->same_column, t->same_bank);
	fprintf(f, " verdict=%s", module_verdict_to_string(m->verdict));
	put_text(f, "reason", m->reason);
	fputc('\n', f);
	for (unsigned i = 0; i < p->n_cells; i++)
		fprintf(f, "cell %u %u %u\n", p->cells[i].bank, p->cells[i].row, p->cells[i].column);
	for (unsigned i = 0; i < p->n_rows; i++)
		fprintf(f, "row %u %u %u\n", p->rows[i].bank, p->rows[i].row, p->rows[i].corrected);
	for (unsigned i = 0; i < p->n_columns; i++)
		fprintf(f, "column %u %u\n", p->columns[i].bank, p->columns[i].column);
	for (unsigned i = 0; i < p->n_banks; i++)
		fprintf(f, "bank %u\n", p->banks[i]);
}

int module_state_format(const struct module_ledger *l, char **ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool failed;

	if (!f)
		return -ENOMEM;
	fprintf(f, "mcelogd-modules %d\n", MODULE_STATE_VERSION);
	for (size_t i = 0; i < l->n; i++)
		format_module(f, &l->e[i]);
	failed = ferror(f) != 0;
	if (fclose(f) != 0 || failed) {
		free(buf);
		return -ENOMEM;
	}
	*ret = buf;
	return (int) len;
}

/* Reading back. */

struct reader {
	module_state_problem_fn problem;
	void *userdata;
	unsigned line;
	int problems;
	char why[160];
};

_printf_(2, 3) static int fail(struct reader *rd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rd->why, sizeof(rd->why), fmt, ap);
	va_end(ap);
	rd->problems++;
	if (rd->problem)
		rd->problem(rd->line, rd->why, rd->userdata);
	return -EINVAL;
}

static bool unescape(const char *s, size_t n, char *buf, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char) s[i];
		uint64_t v;

		if (c == '%') {
			if (i + 2 >= n)
				return false;
			if (parse_unsigned(s + i + 1, 2, 16, 0xff, &v) < 0 || v == 0)
				return false;
			c = (unsigned char) v;
			i += 2;
		}
		if (o + 1 >= size)
			return false;
		buf[o++] = (char) c;
	}
	buf[o] = '\0';
	return true;
}

/* The value of key among the line's items, as its bytes; NULL when absent. */
static const char *item(const char *line, size_t len, const char *key, size_t *ret_n)
{
	size_t klen = strlen(key);

	for (size_t i = 0; i < len;) {
		size_t end = i;

		while (end < len && line[end] != ' ')
			end++;
		if (end - i > klen && memcmp(line + i, key, klen) == 0 && line[i + klen] == '=') {
			*ret_n = end - i - klen - 1;
			return line + i + klen + 1;
		}
		i = end + 1;
	}
	return NULL;
}

static int get_u(struct reader *rd, const char *line, size_t len, const char *key, uint64_t max, uint64_t *ret)
{
	size_t n;
	const char *v = item(line, len, key, &n);

	if (!v)
		return fail(rd, "module line without %s=", key);
	if (parse_unsigned(v, n, 0, max, ret) < 0)
		return fail(rd, "bad number in %s=", key);
	return 0;
}

static int get_i(struct reader *rd, const char *line, size_t len, const char *key, int64_t *ret)
{
	size_t n;
	const char *v = item(line, len, key, &n);
	uint64_t u;
	bool neg;

	if (!v)
		return fail(rd, "module line without %s=", key);
	neg = n > 0 && v[0] == '-';
	if (parse_unsigned(v + neg, n - neg, 10, neg ? UINT64_C(1) << 63 : INT64_MAX, &u) < 0)
		return fail(rd, "bad number in %s=", key);
	*ret = neg ? (int64_t) (0 - u) : (int64_t) u;
	return 0;
}

static int get_s(struct reader *rd, const char *line, size_t len, const char *key, char *buf, size_t size)
{
	size_t n;
	const char *v = item(line, len, key, &n);

	if (!v)
		return fail(rd, "module line without %s=", key);
	if (!unescape(v, n, buf, size))
		return fail(rd, "bad text in %s=", key);
	return 0;
}

static int get_bits(struct reader *rd, const char *line, size_t len, const char *key, bool *bits, unsigned n_bits)
{
	size_t n;
	const char *v = item(line, len, key, &n);

	if (!v || n != n_bits)
		return fail(rd, "module line without %s= of its digits", key);
	for (unsigned i = 0; i < n_bits; i++) {
		if (v[i] != '0' && v[i] != '1')
			return fail(rd, "bad flag in %s=", key);
		bits[i] = v[i] == '1';
	}
	return 0;
}

static int parse_module(struct reader *rd, const char *line, size_t len, struct module_entry *m)
{
	char kind[16], verdict[32], cell[48];
	uint64_t u[16];
	bool flags[4] = { false }, more[4] = { false }, same[4] = { false };
	unsigned b, r, c;
	int64_t i64[4];
	int k = 0;

	*m = (struct module_entry) { 0 };
	k |= get_s(rd, line, len, "key", m->id.key, sizeof(m->id.key));
	if (k == 0)
		k |= get_s(rd, line, len, "kind", kind, sizeof(kind));
	if (k == 0 && (int) (m->id.kind = module_kind_from_string(kind)) < 0)
		k = fail(rd, "unknown kind=%s", kind);
	if (k == 0)
		k = get_bits(rd, line, len, "fallback", flags, 1);
	m->id.fallback = flags[0];
	if (k == 0)
		k = get_s(rd, line, len, "serial", m->id.serial, sizeof(m->id.serial)) |
		    get_s(rd, line, len, "part", m->id.part, sizeof(m->id.part)) |
		    get_s(rd, line, len, "slot", m->id.slot, sizeof(m->id.slot)) |
		    get_s(rd, line, len, "last_error", m->last_error, sizeof(m->last_error)) |
		    get_s(rd, line, len, "reason", m->reason, sizeof(m->reason)) |
		    get_s(rd, line, len, "verdict", verdict, sizeof(verdict)) |
		    get_s(rd, line, len, "first_cell", cell, sizeof(cell));
	if (k == 0)
		k = get_u(rd, line, len, "corrected", UINT64_MAX, &u[0]) | get_u(rd, line, len, "uncorrected", UINT64_MAX, &u[1]) |
		    get_u(rd, line, len, "week_corrected", UINT64_MAX, &u[2]) |
		    get_u(rd, line, len, "ue_bank", UINT32_MAX, &u[3]) | get_u(rd, line, len, "ue_row", UINT32_MAX, &u[4]) |
		    get_u(rd, line, len, "ue_row_corrected", UINT32_MAX, &u[5]) |
		    get_u(rd, line, len, "pages_retired", UINT32_MAX, &u[6]) |
		    get_u(rd, line, len, "rows_retired", UINT32_MAX, &u[7]) |
		    get_u(rd, line, len, "repairs_done", UINT32_MAX, &u[8]) |
		    get_u(rd, line, len, "repairs_refused", UINT32_MAX, &u[9]) |
		    get_u(rd, line, len, "repairs_failed", UINT32_MAX, &u[10]) |
		    get_u(rd, line, len, "ranks", UINT32_MAX, &u[11]) | get_u(rd, line, len, "located", UINT64_MAX, &u[12]) |
		    get_i(rd, line, len, "week_start", &i64[0]) | get_i(rd, line, len, "spares_left", &i64[1]) |
		    get_i(rd, line, len, "first", &i64[2]) | get_i(rd, line, len, "last", &i64[3]) |
		    get_bits(rd, line, len, "ue_on_row", flags, 1) | get_bits(rd, line, len, "repair_limit", flags + 1, 1) |
		    get_bits(rd, line, len, "more", more, 4) | get_bits(rd, line, len, "same", same, 4);
	if (k != 0)
		return -EINVAL;
	if ((int) (m->verdict = module_verdict_from_string(verdict)) < 0)
		return fail(rd, "unknown verdict=%.31s", verdict);
	if (sscanf(cell, "%u,%u,%u", &b, &r, &c) != 3)
		return fail(rd, "bad first_cell=%.47s", cell);
	m->corrected = u[0], m->uncorrected = u[1], m->week_corrected = u[2];
	m->ue_bank = (uint32_t) u[3], m->ue_row = (uint32_t) u[4], m->ue_row_corrected = (uint32_t) u[5];
	m->pages_retired = (uint32_t) u[6], m->rows_retired = (uint32_t) u[7];
	m->repairs[MODULE_REPAIR_DONE] = (uint32_t) u[8];
	m->repairs[MODULE_REPAIR_REFUSED] = (uint32_t) u[9];
	m->repairs[MODULE_REPAIR_FAILED] = (uint32_t) u[10];
	m->pattern.ranks = (uint32_t) u[11];
	m->week_start_usec = i64[0], m->spares_left = i64[1], m->first_usec = i64[2], m->last_usec = i64[3];
	m->ue_on_row = flags[0], m->repair_limit_reached = flags[1];
	m->pattern.more_cells = more[0], m->pattern.more_rows = more[1];
	m->pattern.more_columns = more[2], m->pattern.more_banks = more[3];
	m->pattern.tracker = (struct dram_tracker) {
		.errors = u[12], .first = { .bank = b, .row = r, .column = c },
		.same_cell = same[0], .same_row = same[1], .same_column = same[2], .same_bank = same[3],
	};
	return 0;
}

/* One pattern line into m: 0, or -EINVAL (told). */
static int parse_pattern(struct reader *rd, const char *line, size_t len, struct module_entry *m)
{
	struct module_pattern *p = &m->pattern;
	char text[128], word[16];
	unsigned a, b, c;
	int n;

	if (len >= sizeof(text))
		return fail(rd, "%s", "line too long");
	memcpy(text, line, len);
	text[len] = '\0';
	n = sscanf(text, "%15s %u %u %u", word, &a, &b, &c);
	if (n == 4 && streq(word, "cell") && p->n_cells < MODULE_CELLS_MAX)
		p->cells[p->n_cells++] = (struct dram_cell) { .bank = a, .row = b, .column = c };
	else if (n == 4 && streq(word, "row") && p->n_rows < MODULE_ROWS_MAX)
		p->rows[p->n_rows++] = (struct module_row) { .bank = a, .row = b, .corrected = c };
	else if (n == 3 && streq(word, "column") && p->n_columns < MODULE_COLUMNS_MAX) {
		p->columns[p->n_columns].bank = a;
		p->columns[p->n_columns++].column = b;
	} else if (n == 2 && streq(word, "bank") && p->n_banks < MODULE_BANKS_MAX)
		p->banks[p->n_banks++] = a;
	else
		return fail(rd, "unreadable or surplus pattern line '%.100s'", text);
	return 0;
}

int module_state_parse(const char *text, size_t len, struct module_ledger *l, module_state_problem_fn problem,
		       void *userdata)
{
	struct reader rd = { .problem = problem, .userdata = userdata };
	struct module_entry *cur = NULL;   /* the module whose pattern lines follow */
	bool skipping = false;             /* the lines of a module that could not be read */
	struct module_entry m;

	for (size_t at = 0; at < len;) {
		const char *line = text + at, *nl = memchr(line, '\n', len - at);
		size_t n = nl ? (size_t) (nl - line) : len - at;

		at += n + 1;
		rd.line++;
		if (n == 0)
			continue;
		if (rd.line == 1) {
			if (n != strlen("mcelogd-modules 1") || memcmp(line, "mcelogd-modules 1", n) != 0) {
				(void) fail(&rd, "%s", "not a version 1 module ledger (first line \"mcelogd-modules 1\")");
				return rd.problems;
			}
			continue;
		}
		if (n > 7 && memcmp(line, "module ", 7) == 0) {
			cur = NULL;
			skipping = true;
			if (parse_module(&rd, line + 7, n - 7, &m) < 0)
				continue;
			if (module_ledger_find(l, m.id.key)) {
				(void) fail(&rd, "module %.120s a second time", m.id.key);
				continue;
			}
			cur = module_ledger_get(l, &m.id);
			if (!cur) {
				if (errno == ENOMEM)
					return -ENOMEM;
				(void) fail(&rd, "%s", "more modules than the ledger holds");
				continue;
			}
			*cur = m;
			skipping = false;
			continue;
		}
		if (!cur) {
			/* The rest of a damaged module was told with its module line. */
			if (!skipping)
				(void) fail(&rd, "%s", "pattern line before any module");
			continue;
		}
		(void) parse_pattern(&rd, line, n, cur);
	}
	if (rd.line == 0)
		(void) fail(&rd, "%s", "empty file");
	return rd.problems;
}
