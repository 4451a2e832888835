/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "module-ledger.h"
#include "module-text.h"

static const char *const kind_names[_MODULE_KIND_MAX] = {
	[MODULE_DIMM] = "dimm",
	[MODULE_CXL] = "cxl",
};

static const char *const verdict_names[_MODULE_VERDICT_MAX] = {
	[MODULE_OK] = "ok",
	[MODULE_WATCH] = "watch",
	[MODULE_ISOLATING] = "isolating",
	[MODULE_REPAIR_EXHAUSTED] = "repair-exhausted",
	[MODULE_REPLACE] = "replace",
};

static const char *const repair_names[_MODULE_REPAIR_MAX] = {
	[MODULE_REPAIR_DONE] = "done",
	[MODULE_REPAIR_REFUSED] = "refused",
	[MODULE_REPAIR_FAILED] = "failed",
};

const char *module_kind_to_string(enum module_kind k)
{
	return (unsigned) k < _MODULE_KIND_MAX ? kind_names[k] : "unknown";
}

enum module_kind module_kind_from_string(const char *s)
{
	for (unsigned i = 0; s && i < _MODULE_KIND_MAX; i++)
		if (streq(s, kind_names[i]))
			return (enum module_kind) i;
	return _MODULE_KIND_INVALID;
}

const char *module_verdict_to_string(enum module_verdict v)
{
	return (unsigned) v < _MODULE_VERDICT_MAX ? verdict_names[v] : "unknown";
}

enum module_verdict module_verdict_from_string(const char *s)
{
	for (unsigned i = 0; s && i < _MODULE_VERDICT_MAX; i++)
		if (streq(s, verdict_names[i]))
			return (enum module_verdict) i;
	return _MODULE_VERDICT_INVALID;
}

const char *module_repair_to_string(enum module_repair r)
{
	return (unsigned) r < _MODULE_REPAIR_MAX ? repair_names[r] : "unknown";
}

void module_ledger_init(struct module_ledger *l, const struct module_thresholds *t)
{
	*l = (struct module_ledger) { .thresholds = t ? *t : MODULE_THRESHOLDS_DEFAULT };
}

void module_ledger_done(struct module_ledger *l)
{
	free(l->e);
	free(l->index);
	*l = (struct module_ledger) { .thresholds = l->thresholds };
}

/* FNV-1a: keys are short texts, and an attacker cannot choose them (firmware and kernel do). */
static uint32_t key_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char) *s) * 16777619u;
	return h;
}

/* The index slot of key: its entry's, or the empty one where it would go. */
static size_t index_slot(const struct module_ledger *l, const char *key)
{
	size_t mask = l->index_size - 1, i = key_hash(key) & mask;

	while (l->index[i] && !streq(l->e[l->index[i] - 1].id.key, key))
		i = (i + 1) & mask;
	return i;
}

const struct module_entry *module_ledger_find(const struct module_ledger *l, const char *key)
{
	size_t i;

	if (!l->index)
		return NULL;
	i = index_slot(l, key);
	return l->index[i] ? &l->e[l->index[i] - 1] : NULL;
}

static void reindex(struct module_ledger *l)
{
	memset(l->index, 0, l->index_size * sizeof(*l->index));
	for (size_t k = 0; k < l->n; k++)
		l->index[index_slot(l, l->e[k].id.key)] = (uint32_t) k + 1;
}

/* The index twice the entries' room at least: a probe stays short. */
static int grow(struct module_ledger *l)
{
	size_t cap = l->cap ? l->cap * 2 : 16, size = cap * 2;
	struct module_entry *e;
	uint32_t *index;

	if (cap > MODULE_LEDGER_MAX)
		cap = MODULE_LEDGER_MAX, size = 2 * MODULE_LEDGER_MAX;
	e = realloc(l->e, cap * sizeof(*e));
	if (!e)
		return -ENOMEM;
	l->e = e;
	index = calloc(size, sizeof(*index));
	if (!index)
		return -ENOMEM;
	free(l->index);
	l->index = index;
	l->index_size = size;
	l->cap = cap;
	reindex(l);
	return 0;
}

struct module_entry *module_ledger_get(struct module_ledger *l, const struct module_id *id)
{
	struct module_entry *m;
	size_t i;

	if (l->index) {
		i = index_slot(l, id->key);
		if (l->index[i]) {
			m = &l->e[l->index[i] - 1];
			/* Where it is now: a module moved to another slot keeps its history. */
			memcpy(m->id.slot, id->slot, sizeof(m->id.slot));
			return m;
		}
	}
	if (l->n >= MODULE_LEDGER_MAX) {
		l->n_refused++;
		errno = ENOSPC;
		return NULL;
	}
	if (l->n == l->cap && grow(l) < 0) {
		errno = ENOMEM;
		return NULL;
	}
	m = &l->e[l->n];
	*m = (struct module_entry) { .id = *id, .spares_left = -1, .verdict = MODULE_OK };
	(void) module_verdict_of(m, &l->thresholds, m->reason, sizeof(m->reason));
	l->index[index_slot(l, id->key)] = (uint32_t) ++l->n;
	return m;
}

static bool have_bank(const struct module_pattern *p, uint32_t bank)
{
	for (unsigned i = 0; i < p->n_banks; i++)
		if (p->banks[i] == bank)
			return true;
	return false;
}

void module_pattern_add(struct module_pattern *p, const struct dram_cell *c, enum module_severity sev)
{
	unsigned i;

	(void) dram_tracker_add(&p->tracker, c);
	/* A full set that knows of more learns nothing from a scan: skipped, as storms fill them. */
	for (i = 0; !p->more_cells && i < p->n_cells; i++)
		if (p->cells[i].bank == c->bank && p->cells[i].row == c->row && p->cells[i].column == c->column)
			break;
	if (!p->more_cells && i == p->n_cells) {
		if (p->n_cells < MODULE_CELLS_MAX)
			p->cells[p->n_cells++] = *c;
		else
			p->more_cells = true;
	}
	for (i = 0; i < p->n_rows; i++)
		if (p->rows[i].bank == c->bank && p->rows[i].row == c->row)
			break;
	if (i == p->n_rows) {
		if (p->n_rows < MODULE_ROWS_MAX)
			p->rows[p->n_rows++] = (struct module_row) { .bank = c->bank, .row = c->row };
		else
			p->more_rows = true;
	}
	if (i < p->n_rows && sev == MODULE_CORRECTED && p->rows[i].corrected < UINT32_MAX)
		p->rows[i].corrected++;
	for (i = 0; !p->more_columns && i < p->n_columns; i++)
		if (p->columns[i].bank == c->bank && p->columns[i].column == c->column)
			break;
	if (!p->more_columns && i == p->n_columns) {
		if (p->n_columns < MODULE_COLUMNS_MAX) {
			p->columns[p->n_columns].bank = c->bank;
			p->columns[p->n_columns++].column = c->column;
		} else {
			p->more_columns = true;
		}
	}
	if (!p->more_banks && !have_bank(p, c->bank)) {
		if (p->n_banks < MODULE_BANKS_MAX)
			p->banks[p->n_banks++] = c->bank;
		else
			p->more_banks = true;
	}
}

unsigned module_pattern_ranks(const struct module_pattern *p)
{
	return (unsigned) __builtin_popcount(p->ranks);
}

static const struct module_row *find_row(const struct module_pattern *p, uint32_t bank, uint32_t row)
{
	for (unsigned i = 0; i < p->n_rows; i++)
		if (p->rows[i].bank == bank && p->rows[i].row == row)
			return &p->rows[i];
	return NULL;
}

/* The verdict after an event: 1 and *ret when it changed. */
static int settle(struct module_ledger *l, struct module_entry *m, struct module_change *ret)
{
	enum module_verdict was = m->verdict;

	m->verdict = module_verdict_of(m, &l->thresholds, m->reason, sizeof(m->reason));
	if (m->verdict == was)
		return 0;
	if (ret)
		*ret = (struct module_change) { .module = m, .from = was, .to = m->verdict };
	return 1;
}

static struct module_entry *get_or_errno(struct module_ledger *l, const struct module_id *id, int *ret_error)
{
	struct module_entry *m = module_ledger_get(l, id);

	*ret_error = m ? 0 : errno == ENOSPC ? -ENOSPC : -ENOMEM;
	return m;
}

/*
 * "corrected bank 3 row 0x4d2 column 0x10", "uncorrected at 0x1234": made
 * for every error (module-text.h).
 */
static void describe_error(const struct module_error *err, char *buf, size_t size)
{
	/* the longest: "uncorrected bank " + 10 digits + " row 0x" + 8 + " column 0x" + 8 */
	char text[96], *o = put_text(text, err->severity == MODULE_UNCORRECTED ? "uncorrected" : "corrected");

	if (err->have_cell) {
		o = put_text(o, " bank ");
		o = put_dec(o, err->cell.bank);
		o = put_text(o, " row 0x");
		o = put_hex(o, err->cell.row);
		o = put_text(o, " column 0x");
		o = put_hex(o, err->cell.column);
	} else if (err->have_address) {
		o = put_text(o, " at 0x");
		o = put_hex(o, err->address);
	}
	put_end(buf, size, text, o);
}

int module_ledger_error(struct module_ledger *l, const struct module_id *id, const struct module_error *err,
			struct module_change *ret)
{
	struct module_entry *m;
	int r;

	m = get_or_errno(l, id, &r);
	if (!m)
		return r;
	if (err->severity == MODULE_UNCORRECTED) {
		const struct module_row *row = err->have_cell ? find_row(&m->pattern, err->cell.bank, err->cell.row) : NULL;

		m->uncorrected++;
		m->ue_on_row = err->have_cell;
		if (err->have_cell) {
			m->ue_bank = err->cell.bank;
			m->ue_row = err->cell.row;
			m->ue_row_corrected = row ? row->corrected : 0;
		}
	} else {
		m->corrected++;
		/* A tumbling week: the rate field studies replace at is per week (Meza et al. 2015). */
		if (err->time_usec > 0 && (m->week_start_usec == 0 ||
					   err->time_usec >= m->week_start_usec + (int64_t) MODULE_WEEK_USEC)) {
			m->week_start_usec = err->time_usec;
			m->week_corrected = 0;
		}
		m->week_corrected++;
	}
	if (err->have_cell)
		module_pattern_add(&m->pattern, &err->cell, err->severity);
	if (err->have_rank && err->rank < 32)
		m->pattern.ranks |= UINT32_C(1) << err->rank;
	if (err->time_usec > 0) {
		if (m->first_usec == 0 || err->time_usec < m->first_usec)
			m->first_usec = err->time_usec;
		if (err->time_usec >= m->last_usec) {
			m->last_usec = err->time_usec;
			describe_error(err, m->last_error, sizeof(m->last_error));
		}
	} else if (!m->last_error[0]) {
		describe_error(err, m->last_error, sizeof(m->last_error));
	}
	return settle(l, m, ret);
}

static bool has_repairs(const struct module_entry *m)
{
	return m->repairs[MODULE_REPAIR_DONE] + m->repairs[MODULE_REPAIR_REFUSED] + m->repairs[MODULE_REPAIR_FAILED] > 0;
}

static bool is_empty(const struct module_entry *m)
{
	return m->corrected + m->uncorrected == 0 && m->pages_retired + m->rows_retired == 0 &&
	       !has_repairs(m) &&
	       m->spares_left < 0;
}

int module_ledger_uncount(struct module_ledger *l, const char *key, enum module_severity sev,
			  struct module_change *ret)
{
	struct module_entry *m = (struct module_entry *) module_ledger_find(l, key);

	if (!m)
		return -ENOENT;
	if (sev == MODULE_UNCORRECTED && m->uncorrected > 0)
		m->uncorrected--;
	else if (sev == MODULE_CORRECTED && m->corrected > 0) {
		m->corrected--;
		if (m->week_corrected > 0)
			m->week_corrected--;
	}
	if (!is_empty(m))
		return settle(l, m, ret);
	/* Rare (once per module a machine check named first): the order kept, the index made anew. */
	memmove(m, m + 1, (size_t) (&l->e[l->n] - (m + 1)) * sizeof(*m));
	l->n--;
	reindex(l);
	return 0;
}

int module_ledger_retired(struct module_ledger *l, const struct module_id *id, unsigned pages, unsigned rows,
			  struct module_change *ret)
{
	struct module_entry *m;
	int r;

	m = get_or_errno(l, id, &r);
	if (!m)
		return r;
	m->pages_retired += pages;
	m->rows_retired += rows;
	return settle(l, m, ret);
}

int module_ledger_repair(struct module_ledger *l, const struct module_id *id, enum module_repair outcome,
			 bool limit_reached, struct module_change *ret)
{
	struct module_entry *m;
	int r;

	if ((unsigned) outcome >= _MODULE_REPAIR_MAX)
		return -EINVAL;
	m = get_or_errno(l, id, &r);
	if (!m)
		return r;
	m->repairs[outcome]++;
	m->repair_limit_reached = m->repair_limit_reached || limit_reached;
	return settle(l, m, ret);
}

int module_ledger_spares(struct module_ledger *l, const struct module_id *id, uint64_t spares_left,
			 struct module_change *ret)
{
	struct module_entry *m;
	int r;

	m = get_or_errno(l, id, &r);
	if (!m)
		return r;
	m->spares_left = spares_left > INT64_MAX ? INT64_MAX : (int64_t) spares_left;
	return settle(l, m, ret);
}

void module_ledger_set_thresholds(struct module_ledger *l, const struct module_thresholds *t,
				  void (*changed)(const struct module_change *c, void *userdata), void *userdata)
{
	l->thresholds = *t;
	for (size_t i = 0; i < l->n; i++) {
		struct module_change c;

		if (settle(l, &l->e[i], &c) > 0 && changed)
			changed(&c, userdata);
	}
}

static const struct module_ledger *order_ledger;

static int worse_first(const void *a, const void *b)
{
	const struct module_entry *x = &order_ledger->e[*(const uint32_t *) a];
	const struct module_entry *y = &order_ledger->e[*(const uint32_t *) b];

	if (x->verdict != y->verdict)
		return x->verdict > y->verdict ? -1 : 1;
	if (x->uncorrected != y->uncorrected)
		return x->uncorrected > y->uncorrected ? -1 : 1;
	if (x->corrected != y->corrected)
		return x->corrected > y->corrected ? -1 : 1;
	return strcmp(x->id.key, y->id.key);
}

void module_ledger_order(const struct module_ledger *l, uint32_t *ret)
{
	for (size_t i = 0; i < l->n; i++)
		ret[i] = (uint32_t) i;
	/* qsort has no user data in C11; the order is only ever taken on one thread. */
	order_ledger = l;
	qsort(ret, l->n, sizeof(*ret), worse_first);
	order_ledger = NULL;
}

void module_pattern_describe(const struct module_pattern *p, char *buf, size_t size)
{
	enum dram_pattern c = dram_tracker_pattern(&p->tracker);
	int n;

	if (c == DRAM_PATTERN_NONE) {
		snprintf(buf, size, "%s", p->ranks ? "no cell known" : "-");
		return;
	}
	n = snprintf(buf, size, "%s, %u%s cell%s, %u%s row%s, %u%s column%s, %u%s bank%s", dram_pattern_to_string(c),
		     p->n_cells, p->more_cells ? "+" : "", p->n_cells == 1 && !p->more_cells ? "" : "s",
		     p->n_rows, p->more_rows ? "+" : "", p->n_rows == 1 && !p->more_rows ? "" : "s",
		     p->n_columns, p->more_columns ? "+" : "", p->n_columns == 1 && !p->more_columns ? "" : "s",
		     p->n_banks, p->more_banks ? "+" : "", p->n_banks == 1 && !p->more_banks ? "" : "s");
	if (p->ranks && n > 0 && (size_t) n < size)
		snprintf(buf + n, size - (size_t) n, ", %u rank%s", module_pattern_ranks(p),
			 module_pattern_ranks(p) == 1 ? "" : "s");
}
