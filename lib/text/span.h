/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Spans: a view on part of a line, (pointer, end).  A line is never copied
 * or NUL-terminated, so embedded NULs and any line length are harmless.
 *
 * The small helpers are inline because every form runs them on every token
 * of every line.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct span {
	const char *p;
	const char *end;
};

static inline size_t span_len(struct span s)
{
	return (size_t) (s.end - s.p);
}

/* ' ', '\t', '\n', '\v', '\f', '\r' (span.c): one load for every byte of every token */
extern const bool span_space_byte[256];

static inline bool is_space(char c)
{
	return span_space_byte[(unsigned char) c];
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline void span_skip_space(struct span *s)
{
	while (s->p < s->end && is_space(*s->p))
		s->p++;
}

static inline void span_trim(struct span *s)
{
	span_skip_space(s);
	while (s->end > s->p && is_space(s->end[-1]))
		s->end--;
}

static inline bool span_starts_n(struct span s, const char *lit, size_t n)
{
	return span_len(s) >= n && memcmp(s.p, lit, n) == 0;
}

static inline bool span_ends_n(struct span s, const char *lit, size_t n)
{
	return span_len(s) >= n && memcmp(s.end - n, lit, n) == 0;
}

/*
 * ASCII letters of either case alike, as strncasecmp() in the C locale
 * (nothing sets another), compared here: the keys are a few bytes, less
 * than the call and a search for a NUL cost.  A NUL in s never matches,
 * as lit holds none in its n bytes.
 */
static inline bool span_starts_case_n(struct span s, const char *lit, size_t n)
{
	if (span_len(s) < n)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char a = (unsigned char) s.p[i], b = (unsigned char) lit[i];

		if (a != b && ((a | 0x20) != (b | 0x20) || (unsigned) ((a | 0x20) - 'a') > 'z' - 'a'))
			return false;
	}
	return true;
}

/* Advance past lit if the span starts with it. */
static inline bool span_eat_n(struct span *s, const char *lit, size_t n)
{
	if (!span_starts_n(*s, lit, n))
		return false;
	s->p += n;
	return true;
}

static inline bool span_eq_n(struct span s, const char *lit, size_t n)
{
	return span_len(s) == n && memcmp(s.p, lit, n) == 0;
}

static inline bool span_eq_case_n(struct span s, const char *lit, size_t n)
{
	return span_len(s) == n && span_starts_case_n(s, lit, n);
}

/*
 * The top bit of each of the eight bytes of x that is below '!' (white
 * space or another control byte).  Whether there is any is exact, and so
 * is the lowest flagged (a borrow can flag a byte above a true one only).
 */
static inline uint64_t bytes8_below_bang(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull;

	return (x - ones * '!') & ~x & ones * 0x80;
}

/* The next white-space-delimited token; empty at the end. */
static inline struct span span_token(struct span *s)
{
	struct span t;

	span_skip_space(s);
	t.p = s->p;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * Eight bytes a step while the span holds them: every token of every
	 * line comes through here.  The first byte below '!' (the lowest one
	 * flagged is exact) ends the token if it is white space; any other
	 * control byte is part of the token, and the rest is read bytewise.
	 */
	while (s->end - s->p >= 8) {
		uint64_t x, low;

		memcpy(&x, s->p, 8);
		low = bytes8_below_bang(x);
		if (!low) {
			s->p += 8;
			continue;
		}
		s->p += (unsigned) __builtin_ctzll(low) / 8;
		if (is_space(*s->p)) {
			t.end = s->p;
			return t;
		}
		break;
	}
#endif
	while (s->p < s->end && !is_space(*s->p))
		s->p++;
	t.end = s->p;
	return t;
}

/* First occurrence of lit in s, or NULL. */
const char *span_find_n(struct span s, const char *lit, size_t n);

/* Print a token into a diagnostic safely: bounded and without control bytes. */
const char *span_show(struct span s, char *buf, size_t size);

/*
 * The helpers above take the literal's length; these pass strlen(lit),
 * which the compiler folds to a constant for the string literals almost
 * every call site uses (this is the per-line hot path).
 */
#define span_starts(s, lit)      span_starts_n((s), (lit), strlen(lit))
#define span_ends(s, lit)        span_ends_n((s), (lit), strlen(lit))
#define span_starts_case(s, lit) span_starts_case_n((s), (lit), strlen(lit))
#define span_eat(s, lit)         span_eat_n((s), (lit), strlen(lit))
#define span_eq(s, lit)          span_eq_n((s), (lit), strlen(lit))
#define span_eq_case(s, lit)     span_eq_case_n((s), (lit), strlen(lit))
#define span_find(s, lit)        span_find_n((s), (lit), strlen(lit))
