/* SPDX-License-Identifier: MIT */
#include <errno.h>

#include "dram-pattern.h"
#include "macro.h"

static const char *const pattern_names[_DRAM_PATTERN_MAX] = {
	[DRAM_PATTERN_NONE]          = "none",
	[DRAM_PATTERN_SINGLE_CELL]   = "single_cell",
	[DRAM_PATTERN_SINGLE_ROW]    = "single_row",
	[DRAM_PATTERN_SINGLE_COLUMN] = "single_column",
	[DRAM_PATTERN_SINGLE_BANK]   = "single_bank",
	[DRAM_PATTERN_MULTI_BANK]    = "multi_bank",
};

const char *dram_pattern_to_string(enum dram_pattern p)
{
	return (unsigned) p < _DRAM_PATTERN_MAX ? pattern_names[p] : "unknown";
}

enum dram_pattern dram_pattern_from_string(const char *s)
{
	for (unsigned i = 0; i < _DRAM_PATTERN_MAX; i++)
		if (streq(pattern_names[i], s))
			return (enum dram_pattern) i;
	return _DRAM_PATTERN_MAX;
}

bool dram_pattern_is_multi_cell(enum dram_pattern p)
{
	return p > DRAM_PATTERN_SINGLE_CELL && p < _DRAM_PATTERN_MAX;
}

static uint64_t field_mask(uint8_t shift, uint8_t bits)
{
	return bits >= 64 ? UINT64_MAX : ((UINT64_C(1) << bits) - 1) << shift;
}

int dram_layout_check(const struct dram_layout *l)
{
	const struct { uint8_t shift, bits; } f[] = {
		{ l->column_shift, l->column_bits }, { l->bank_shift, l->bank_bits },
		{ l->row_shift, l->row_bits },
	};
	uint64_t used = 0;

	for (size_t i = 0; i < ELEMENTSOF(f); i++) {
		uint64_t m;

		/* Each field fits in 32 bits and in the address. */
		if (f[i].bits == 0 || f[i].bits > 32 || f[i].shift + f[i].bits > 64)
			return -EINVAL;
		m = field_mask(f[i].shift, f[i].bits);
		if (used & m)
			return -EINVAL;
		used |= m;
	}
	return 0;
}

void dram_layout_decode(const struct dram_layout *l, uint64_t addr, struct dram_cell *ret)
{
	*ret = (struct dram_cell) {
		.column = (uint32_t) ((addr & field_mask(l->column_shift, l->column_bits)) >> l->column_shift),
		.bank = (uint32_t) ((addr & field_mask(l->bank_shift, l->bank_bits)) >> l->bank_shift),
		.row = (uint32_t) ((addr & field_mask(l->row_shift, l->row_bits)) >> l->row_shift),
	};
}

enum dram_pattern dram_tracker_pattern(const struct dram_tracker *t)
{
	if (t->errors == 0)
		return DRAM_PATTERN_NONE;
	if (t->same_cell)
		return DRAM_PATTERN_SINGLE_CELL;
	if (t->same_row)
		return DRAM_PATTERN_SINGLE_ROW;
	if (t->same_column)
		return DRAM_PATTERN_SINGLE_COLUMN;
	if (t->same_bank)
		return DRAM_PATTERN_SINGLE_BANK;
	return DRAM_PATTERN_MULTI_BANK;
}

enum dram_pattern dram_tracker_add(struct dram_tracker *t, const struct dram_cell *c)
{
	if (t->errors++ == 0) {
		t->first = *c;
		t->same_cell = t->same_row = t->same_column = t->same_bank = true;
		return DRAM_PATTERN_SINGLE_CELL;
	}
	/* A row or column is one bank's: the same row number in two banks is two rows. */
	t->same_bank = t->same_bank && c->bank == t->first.bank;
	t->same_row = t->same_row && t->same_bank && c->row == t->first.row;
	t->same_column = t->same_column && t->same_bank && c->column == t->first.column;
	t->same_cell = t->same_cell && t->same_row && t->same_column;
	return dram_tracker_pattern(t);
}
