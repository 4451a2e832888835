/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * A 64-bit register as 16 hex digits, all at once rather than a digit at
 * a time: registers are most of what the record writers (JSON, and
 * mcectl's text) put out.
 */

#include <stdint.h>
#include <string.h>

/*
 * The 8 hex digits of v as 8 bytes, the first digit in the lowest byte:
 * each nibble spread to a byte, then made a digit.
 */
static inline uint64_t hex_digits8(uint32_t v)
{
	const uint64_t ones = 0x0101010101010101ull;
	uint64_t x = v;

	/* nibble i (from the top) to byte i */
	x = ((x & 0xffff0000u) >> 16) | ((x & 0x0000ffffu) << 32);
	x = ((x & 0x0000ff000000ff00ull) >> 8) | ((x & 0x000000ff000000ffull) << 16);
	x = ((x & 0x00f000f000f000f0ull) >> 4) | ((x & 0x000f000f000f000full) << 8);
	/* 0-9 to '0'-'9', 10-15 to 'a'-'f' */
	return x + ones * '0' + (((x + ones * 6) >> 4) & ones) * ('a' - '0' - 10);
}

/* v as 16 lower-case hex digits at out, leading zeros included; no NUL. */
static inline void hex_digits16(char *out, uint64_t v)
{
	uint64_t hi = hex_digits8((uint32_t) (v >> 32)), lo = hex_digits8((uint32_t) v);

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	hi = __builtin_bswap64(hi);
	lo = __builtin_bswap64(lo);
#endif
	memcpy(out, &hi, 8);
	memcpy(out + 8, &lo, 8);
}
