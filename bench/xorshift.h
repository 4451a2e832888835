/* SPDX-License-Identifier: MIT */
#pragma once

/* xorshift64*: deterministic and fast, so benchmark inputs repeat exactly;
 * statistical quality does not matter here. */

#include <stdint.h>

static inline uint64_t xorshift64s(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dull;
}
