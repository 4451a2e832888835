/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * A copy of a length known at run time but short, without a call: the
 * writers of records (JSON, and mcectl's text) copy their static strings,
 * whose lengths they remember, with it.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* n bytes at s to o: words, the last one overlapping, never past s + n */
static inline __attribute__((always_inline)) void copy_known(char *o, const char *s, size_t n)
{
	if (n >= 8) {
		uint64_t x;
		size_t i;

		for (i = 0; i + 8 < n; i += 8) {
			memcpy(&x, s + i, 8);
			memcpy(o + i, &x, 8);
		}
		memcpy(&x, s + n - 8, 8);
		memcpy(o + n - 8, &x, 8);
	} else if (n >= 4) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(o, &a, 4);
		memcpy(o + n - 4, &b, 4);
	} else if (n > 0) {
		/* 1 to 3 bytes: the first, the middle and the last cover them */
		o[0] = s[0];
		o[n / 2] = s[n / 2];
		o[n - 1] = s[n - 1];
	}
}
