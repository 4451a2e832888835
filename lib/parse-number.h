/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The one unsigned-number parser every reader of user or record text uses,
 * so that "0x", overflow and junk are handled the same everywhere.
 */

#include <stddef.h>
#include <stdint.h>

/*
 * Parses exactly the n bytes at s (not NUL-terminated) as an unsigned
 * number.  base 10; base 16, with an optional "0x"; or base 0: hex with
 * "0x", decimal without (no octal surprises for "025").  No sign, no white
 * space.  Returns 0, -ERANGE if the value exceeds max (never truncated), or
 * -EINVAL for anything else.
 */
int parse_unsigned(const char *s, size_t n, int base, uint64_t max, uint64_t *ret);

/*
 * A digit's value + 1 in bases up to 16 (either case); 0 for every other
 * byte.  For readers that scan a token and its digits in one pass and leave
 * everything unusual to parse_unsigned().
 */
extern const uint8_t parse_digit_value_1[256];

/*
 * A size in bytes as configuration files write it: a decimal number with an
 * optional binary suffix K, M, G or T (1024-based, as systemd reads them; a
 * trailing "B" or "iB" is allowed: "64M", "64MiB", "512K", "4096").
 * Returns 0, -ERANGE above max, or -EINVAL.
 */
int parse_size(const char *s, uint64_t max, uint64_t *ret);
