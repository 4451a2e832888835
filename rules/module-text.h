/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The module ledger's short texts built by hand, not by snprintf(): the
 * latest error (module-ledger.c) and the verdict's reason (module-verdict.c)
 * are made again at every memory error, where formatting cost more than
 * the rest of the ledger's work.  Each put_*() writes at o, which has room
 * (the caller's buffer is sized for its longest text), and returns the end;
 * put_end() hands the text to the caller's buffer, cut as snprintf() cuts.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dec-digits.h"
#include "hex-digits.h"

static inline char *put_text(char *o, const char *s)
{
	size_t n = strlen(s);

	memcpy(o, s, n);
	return o + n;
}

/* v in decimal, as "%" PRIu64. */
static inline char *put_dec(char *o, uint64_t v)
{
	return dec_u64_put(o, v, dec_u64_len(v));
}

/* v in lower-case hex without leading zeros, as "%" PRIx64. */
static inline char *put_hex(char *o, uint64_t v)
{
	char all[16];
	size_t skip = 0;

	hex_digits16(all, v);
	while (skip < 15 && all[skip] == '0')
		skip++;
	memcpy(o, all + skip, 16 - skip);
	return o + 16 - skip;
}

/* text up to end into buf (size bytes), NUL-terminated and cut to fit; nothing when size is 0. */
static inline void put_end(char *buf, size_t size, const char *text, const char *end)
{
	size_t n = (size_t) (end - text);

	if (size == 0)
		return;
	if (n >= size)
		n = size - 1;
	memcpy(buf, text, n);
	buf[n] = '\0';
}
