/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Hex digits read eight at a time rather than a byte at a time: registers
 * are most of the bytes of the text forms mcectl decode reads (the
 * kernel's console lines, rasdaemon's), and a digit looked up in a table
 * costs a load, a test, a shift and a step of its own.  The reverse of
 * hex-digits.h.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HEX_SCAN_WORDS 1

/*
 * Whether the 8 bytes at P are all hex digits ('0'-'9', 'a'-'f', 'A'-'F'),
 * and if so their value in *ret, the first the most significant.  A byte
 * with its top bit set is no digit; the others are classed by sums that
 * cannot carry into the next byte.
 */
static inline bool hex_scan8(const char *p, uint64_t *ret)
{
	const uint64_t ones = 0x0101010101010101ull, high = ones * 0x80;
	uint64_t x, lower, digit, letter, v;

	memcpy(&x, p, 8);
	if (x & high)
		return false;
	/* bit 7 of a byte: at least the range's first, and not past its last */
	digit = (x + ones * (0x80 - '0')) & ~(x + ones * (0x7f - '9'));
	lower = x | ones * 0x20;            /* 'A'-'F' to 'a'-'f'; no other byte lands there */
	letter = (lower + ones * (0x80 - 'a')) & ~(lower + ones * (0x7f - 'f'));
	if (((digit | letter) & high) != high)
		return false;
	/* each byte's value: its low nibble, and 9 more for a letter (bit 6) */
	v = (x & ones * 0x0f) + ((x >> 6) & ones) * 9;
	/* the first byte's on top: pairs, then fours, then the eight */
	v = ((v << 4) + (v >> 8)) & 0x00ff00ff00ff00ffull;
	v = ((v << 8) + (v >> 16)) & 0x0000ffff0000ffffull;
	*ret = ((v << 16) + (v >> 32)) & 0xffffffffull;
	return true;
}
#endif
