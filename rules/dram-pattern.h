/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * DRAM fault patterns: from one DIMM's corrected errors, is the fault a
 * single cell, one row, one column, one bank, or wider?  Pure.
 *
 * The classes are the fault modes of the field studies (Sridharan &
 * Liberty, "A Study of DRAM Failures in the Field", SC 2012; Sridharan et
 * al., "Memory Errors in Modern Systems", ASPLOS 2015), which group a DIMM's
 * errors by the DRAM structure they share: errors at one address are a
 * single-cell (single-bit or single-word) fault, errors along one row or one
 * column of one bank are a row or column fault, errors spread over one bank
 * a bank fault, and over several banks a multi-bank fault.  Those studies
 * find that faults spanning a row, a column or a bank account for a large
 * share of errors and, unlike single-cell faults, can defeat ECC: when a
 * second bit fails in an already-faulty word, the error is uncorrectable.
 *
 * Method: each error's location is (bank, row, column).  Records that carry
 * them (UEFI CPER memory error sections: Bank, Row, Column) give them
 * directly; a physical address is mapped through a DIMM address layout
 * (struct dram_layout) when the caller knows one.  The tracker keeps the
 * first location and whether every later one shared its cell, row, column
 * and bank, so the class is the narrowest structure containing every error:
 * O(1) memory per DIMM, and exactly reproducible.  One stray error from an
 * unrelated cell widens the class (a row fault plus a stray becomes a bank or
 * multi-bank fault): the classifier errs toward the wider, more dangerous
 * class, never toward reassurance.
 */

#include <stdbool.h>
#include <stdint.h>

enum dram_pattern {
	DRAM_PATTERN_NONE,            /* no error with a location yet */
	DRAM_PATTERN_SINGLE_CELL,
	DRAM_PATTERN_SINGLE_ROW,
	DRAM_PATTERN_SINGLE_COLUMN,
	DRAM_PATTERN_SINGLE_BANK,
	DRAM_PATTERN_MULTI_BANK,
	_DRAM_PATTERN_MAX,
};

struct dram_cell {
	uint32_t bank;                /* bank group and bank, as one number */
	uint32_t row;
	uint32_t column;
};

/*
 * How a DIMM's physical addresses map to cells: contiguous bit fields of the
 * address (after the memory controller has removed channel and rank
 * interleaving, i.e. the DIMM-local address).  Bits below column_shift
 * select bytes within one column access.
 */
struct dram_layout {
	uint8_t column_shift, column_bits;
	uint8_t bank_shift, bank_bits;
	uint8_t row_shift, row_bits;
};

struct dram_tracker {
	uint64_t errors;              /* errors with a location */
	struct dram_cell first;
	bool same_cell, same_row, same_column, same_bank;
};

/* Returns 0, or -EINVAL if the layout's fields overlap or reach past bit 63. */
int dram_layout_check(const struct dram_layout *l);
void dram_layout_decode(const struct dram_layout *l, uint64_t addr, struct dram_cell *ret);

/* Adds one error; returns the class after it. */
enum dram_pattern dram_tracker_add(struct dram_tracker *t, const struct dram_cell *c);
enum dram_pattern dram_tracker_pattern(const struct dram_tracker *t);

const char *dram_pattern_to_string(enum dram_pattern p);
enum dram_pattern dram_pattern_from_string(const char *s);   /* _DRAM_PATTERN_MAX if unknown */

/* True for the classes the field studies tie to later uncorrectable errors (all but one cell). */
bool dram_pattern_is_multi_cell(enum dram_pattern p);
