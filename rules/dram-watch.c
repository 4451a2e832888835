/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram-watch.h"
#include "macro.h"

/* The DIMM a record names: its label if it has one, else the location fields it has. */
static bool dimm_key(const struct rule_input *in, char *buf, size_t size)
{
	static const enum rule_field parts[] = {
		RULE_FIELD_SOCKET, RULE_FIELD_MC, RULE_FIELD_CHANNEL, RULE_FIELD_DIMM, RULE_FIELD_RANK,
	};
	struct rule_value v;
	size_t at = 0;

	if (rule_field_get(in, RULE_FIELD_LABEL, &v) && v.is_string && rule_value_string(&v)[0]) {
		/* A DIMM cut short could be another's: none rather than a wrong one. */
		int k = snprintf(buf, size, "%s", rule_value_string(&v));

		return k > 0 && (size_t) k < size;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < ELEMENTSOF(parts); i++) {
		int k;

		if (!rule_field_get(in, parts[i], &v) || v.is_string)
			continue;
		k = snprintf(buf + at, size - at, "%s%s=%" PRIu64, at ? " " : "", rule_field_to_string(parts[i]), v.u);
		if (k < 0 || (size_t) k >= size - at)
			return false;
		at += (size_t) k;
	}
	/* A channel or a DIMM at least: a socket alone is no DIMM. */
	return at > 0 && (strstr(buf, "channel=") || strstr(buf, "dimm="));
}

/*
 * A cell's bank as one number: the group above the bank, as the UEFI CPER
 * memory section packs them (group in bits 15:8), so a CPER record that
 * gives only the packed bank and an EDAC or MISC record that gives both
 * name the same bank alike.
 */
static bool record_cell(const struct rule_input *in, struct dram_cell *c)
{
	struct rule_value sev, bank, group, row, col;

	if (!rule_field_get(in, RULE_FIELD_SEVERITY, &sev) || !sev.is_string || !sev.s || !streq(sev.s, "corrected"))
		return false;
	if (!rule_field_get(in, RULE_FIELD_DRAM_BANK, &bank) || bank.is_string ||
	    !rule_field_get(in, RULE_FIELD_ROW, &row) || row.is_string ||
	    !rule_field_get(in, RULE_FIELD_COLUMN, &col) || col.is_string)
		return false;
	if (bank.u > UINT32_MAX || row.u > UINT32_MAX || col.u > UINT32_MAX)
		return false;
	if (rule_field_get(in, RULE_FIELD_BANK_GROUP, &group) && !group.is_string) {
		if (group.u > 0xffffff || bank.u > 0xff)
			return false;
		bank.u |= group.u << 8;
	}
	*c = (struct dram_cell) { .bank = (uint32_t) bank.u, .row = (uint32_t) row.u, .column = (uint32_t) col.u };
	return true;
}

static struct dram_watch_dimm *find_or_add(struct dram_watch *w, const char *key)
{
	for (size_t i = 0; i < w->n; i++)
		if (streq(w->dimms[i].key, key))
			return &w->dimms[i];
	if (w->n >= DRAM_WATCH_MAX_DIMMS)
		return NULL;
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		struct dram_watch_dimm *p = realloc(w->dimms, cap * sizeof(*p));

		if (!p)
			return NULL;
		w->dimms = p;
		w->cap = cap;
	}
	w->dimms[w->n] = (struct dram_watch_dimm) {};
	snprintf(w->dimms[w->n].key, sizeof(w->dimms[w->n].key), "%s", key);
	return &w->dimms[w->n++];
}

int dram_watch_feed(struct dram_watch *w, const struct rule_input *in, struct dram_watch_event *ev)
{
	struct dram_watch_dimm *d;
	struct dram_cell cell;
	enum dram_pattern from, to;
	char key[96];

	if (!record_cell(in, &cell) || !dimm_key(in, key, sizeof(key)))
		return 0;
	d = find_or_add(w, key);
	if (!d) {
		if (w->n < DRAM_WATCH_MAX_DIMMS)
			return -ENOMEM;
		w->n_untracked++;
		return 0;
	}
	from = dram_tracker_pattern(&d->tracker);
	to = dram_tracker_add(&d->tracker, &cell);
	if (to == from || !dram_pattern_is_multi_cell(to))
		return 0;
	*ev = (struct dram_watch_event) {
		.dimm = d->key,
		.from = from,
		.to = to,
		.first = d->tracker.first,
		.cell = cell,
		.errors = d->tracker.errors,
	};
	return 1;
}

void dram_watch_done(struct dram_watch *w)
{
	free(w->dimms);
	*w = (struct dram_watch) {};
}
