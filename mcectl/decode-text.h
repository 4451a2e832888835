/* SPDX-License-Identifier: MIT */
#pragma once

/* mcectl decode's human-readable renderer (decode-text.c). */

#include <stdio.h>

#include "decode.h"
#include "record.h"

/*
 * Print one record as a readable multi-line block: what happened, where,
 * how bad, what to do.  index is 1-based; first/last are input line numbers
 * (0 when the record came from the command line).
 */
void decode_print_text(FILE *out, unsigned index, const struct mce_record *r,
		       const struct mce_decoded *d, unsigned first, unsigned last);
