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

/* Every byte's two digits, "00" to "ff", 2 * byte bytes in. */
#define HEX_PAIRS_ROW(h) \
	h "0" h "1" h "2" h "3" h "4" h "5" h "6" h "7" h "8" h "9" h "a" h "b" h "c" h "d" h "e" h "f"
static const char hex_pairs[2 * 256 + 1] =
	HEX_PAIRS_ROW("0") HEX_PAIRS_ROW("1") HEX_PAIRS_ROW("2") HEX_PAIRS_ROW("3")
	HEX_PAIRS_ROW("4") HEX_PAIRS_ROW("5") HEX_PAIRS_ROW("6") HEX_PAIRS_ROW("7")
	HEX_PAIRS_ROW("8") HEX_PAIRS_ROW("9") HEX_PAIRS_ROW("a") HEX_PAIRS_ROW("b")
	HEX_PAIRS_ROW("c") HEX_PAIRS_ROW("d") HEX_PAIRS_ROW("e") HEX_PAIRS_ROW("f");

/*
 * v as 16 lower-case hex digits at out, leading zeros included; no NUL.
 * A byte's two digits at a time from a table: fewer instructions than
 * spreading the nibbles of a word (hex_digits8()) twice.
 */
static inline void hex_digits16(char *out, uint64_t v)
{
	/* written out: compilers keep a loop of eight */
#define HEX_PAIR(i) memcpy(out + 2 * (i), hex_pairs + 2 * ((v >> (56 - 8 * (i))) & 0xff), 2)
	HEX_PAIR(0); HEX_PAIR(1); HEX_PAIR(2); HEX_PAIR(3);
	HEX_PAIR(4); HEX_PAIR(5); HEX_PAIR(6); HEX_PAIR(7);
#undef HEX_PAIR
}

/* The value of one hex digit, either case; -1 for anything else. */
static inline int hex_digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
