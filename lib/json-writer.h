/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * A small streaming JSON emitter into one growable buffer.
 *
 * Why not json-c for output: building a json_object tree costs an allocation
 * per key and value, and the record writer runs once per machine check (and
 * hundreds of thousands of times a second in mcectl decode).  This writer
 * reuses one buffer, so a warmed-up writer does not allocate at all, and the
 * key order is fixed, which keeps the output stable and diffable.
 *
 * Errors (out of memory) are sticky: check json_writer_failed() once at the end.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "copy-known.h"
#include "dec-digits.h"
#include "hex-digits.h"

#define JSON_WRITER_MAX_DEPTH 8

/* Strings of static storage whose length and escaping are known (json_put_static()), two a set. */
#define JSON_WRITER_STATIC_SLOTS 2048
/* Runs of output kept (json_run_again()), the longest key in pointers, and the longest text. */
#define JSON_WRITER_RUNS 16
#define JSON_WRITER_RUN_KEY 40
#define JSON_WRITER_RUN_TEXT 640

struct json_writer {
	char *buf;
	size_t len;
	size_t cap;
	unsigned depth;
	bool first[JSON_WRITER_MAX_DEPTH];
	bool failed;
	struct {
		const char *s;        /* NULL: empty slot */
		uint32_t len;
		bool plain;           /* nothing to escape: copied as it is */
	} known[JSON_WRITER_STATIC_SLOTS];
	/*
	 * Runs of output kept with what they were written from
	 * (json_run_again()), each in the place its key's hash picks: a
	 * decode's names, descriptions and flags are mostly those of a record
	 * before, if not the last one.
	 */
	struct json_run {
		size_t n;             /* the key's pointers; 0: none kept */
		const void *key[JSON_WRITER_RUN_KEY];
		uint32_t len;
		char text[JSON_WRITER_RUN_TEXT];
	} runs[JSON_WRITER_RUNS];
	/* the last time's day as RFC 3339 ("2026-11-20"): records nearly always share it */
	bool time_known;
	int64_t time_day;
	char time_text[10];
};

/* Whether the n bytes at s are well-formed UTF-8 (RFC 3629), as the writer requires. */
bool utf8_valid(const char *s, size_t n);

void json_writer_init(struct json_writer *w);
void json_writer_reset(struct json_writer *w);      /* keeps the buffer */
/* Another value at the top level after what the buffer holds: JSON lines written out together. */
static inline void json_writer_next(struct json_writer *w)
{
	w->depth = 0;
	w->first[0] = true;
}
void json_writer_done(struct json_writer *w);       /* frees the buffer */
static inline bool json_writer_failed(const struct json_writer *w) { return w->failed; }
/* NUL-terminated view of the output so far; valid until the next write. */
const char *json_writer_str(struct json_writer *w);

void json_object_begin(struct json_writer *w, const char *key);  /* key NULL inside arrays/top level */
void json_array_begin(struct json_writer *w, const char *key);

void json_put_string(struct json_writer *w, const char *key, const char *value);
void json_put_stringn(struct json_writer *w, const char *key, const char *value, size_t n);
void json_put_u64(struct json_writer *w, const char *key, uint64_t value);
void json_put_i64(struct json_writer *w, const char *key, int64_t value);
void json_put_bool(struct json_writer *w, const char *key, bool value);
/* A number with this many decimals (at most 9); NaN and infinities become null. */
void json_put_fixed(struct json_writer *w, const char *key, double value, unsigned decimals);
/* Registers: "0x%016" PRIx64 strings, because JSON numbers lose bits above 2^53. */
void json_put_hex64(struct json_writer *w, const char *key, uint64_t value);
/* Smaller identifiers that read best in hex (e.g. "0x19"): "0x%" PRIx64. */
void json_put_hex(struct json_writer *w, const char *key, uint64_t value);
/* RFC 3339 UTC with microseconds: "2026-11-20T10:00:00.000000Z". */
void json_put_time_usec(struct json_writer *w, const char *key, int64_t usec);

/*
 * Keys known to need no escaping, written with their quotes and colon as
 * they are: the record writers run per record and their keys are
 * literals.  JSON_KEY("cpu"); k must be a string literal of plain ASCII
 * (no '"', '\\' or control bytes).
 */
struct json_key {
	const char *text;     /* "\"cpu\":" */
	size_t len;
};
#define JSON_KEY(k) ((struct json_key) { .text = "\"" k "\":", .len = sizeof(k) + 2 })

/*
 * The keyed writers are inline: the record writers call them with literal
 * keys, so each key's length is a constant and its copy a few stores, and
 * a number or register is written straight after it.  What they share is
 * below; nothing else should use it.
 */

/*
 * Always inlined: called out of line, the key would be a parameter and its
 * copy a memcpy() call of a length unknown there.
 */
#define JSON_KEYED static inline __attribute__((always_inline))

/* The slow half of making room: grows the buffer, or marks the writer failed. */
bool json_writer_grow(struct json_writer *w, size_t need);

/*
 * Room for extra bytes and the NUL json_writer_str() puts after them; NULL
 * once the writer has failed.  Returns where the next byte goes.
 */
static inline char *json_writer_room(struct json_writer *w, size_t extra)
{
	size_t need = w->len + extra + 1;

	if (w->failed || (need > w->cap && !json_writer_grow(w, need)))
		return NULL;
	return w->buf + w->len;
}

/*
 * The comma if one is due and the key, with room for value_max more bytes
 * after them.  Returns where the value goes, or NULL once failed.
 */
JSON_KEYED char *json_writer_key(struct json_writer *w, struct json_key k, size_t value_max)
{
	char *o = json_writer_room(w, k.len + 1 + value_max);
	bool comma = !w->first[w->depth];

	if (!o)
		return NULL;
	*o = ',';
	o += comma;
	memcpy(o, k.text, k.len);
	w->first[w->depth] = false;
	return o + k.len;
}

static inline void json_writer_end(struct json_writer *w, const char *o)
{
	w->len = (size_t) (o - w->buf);
}

/* v in decimal at o; returns the end. */
char *json_writer_u64_digits(char *o, uint64_t v);

/*
 * The same, with numbers below 100 (a record's CPU, socket, bank, family,
 * stepping, ...) written in place rather than by a call.
 */
static inline char *json_writer_u64_digits_small(char *o, uint64_t v)
{
	if (v < 10) {
		*o = (char) ('0' + v);
		return o + 1;
	}
	if (v < 100) {
		dec_put2(o, (unsigned) v);
		return o + 2;
	}
	return json_writer_u64_digits(o, v);
}
/* A C string in quotes and escaped, after the key. */
void json_writer_cstr(struct json_writer *w, const char *s);

/* One byte that needs no escaping: a bracket, the newline between JSON lines. */
static inline void json_writer_byte(struct json_writer *w, char c)
{
	char *o = json_writer_room(w, 1);

	if (o) {
		*o = c;
		w->len++;
	}
}

/*
 * An object's or array's opening c after the key, and its closing c:
 * inline, as a record opens and closes a few and the calls cost more
 * than the byte.
 */
static inline void json_writer_open(struct json_writer *w, char c)
{
	json_writer_byte(w, c);
	if (w->depth + 1 >= JSON_WRITER_MAX_DEPTH) {
		w->failed = true;
		return;
	}
	w->depth++;
	w->first[w->depth] = true;
}

static inline void json_writer_close(struct json_writer *w, char c)
{
	if (w->depth == 0) {
		w->failed = true;
		return;
	}
	w->depth--;
	json_writer_byte(w, c);
}

/* An object where no key goes (the top level, an array's element): json_object_begin(w, NULL), inline */
static inline void json_object_begin_element(struct json_writer *w)
{
	char *o = json_writer_key(w, (struct json_key) { .text = "", .len = 0 }, 1);

	if (o)
		json_writer_end(w, o);
	json_writer_open(w, '{');
}

static inline void json_object_end(struct json_writer *w)
{
	json_writer_close(w, '}');
}

static inline void json_array_end(struct json_writer *w)
{
	json_writer_close(w, ']');
}

/* An object's or array's opening c after the key. */
JSON_KEYED void json_writer_open_k(struct json_writer *w, struct json_key k, char c)
{
	char *o = json_writer_key(w, k, 0);

	if (!o)
		return;
	json_writer_end(w, o);
	json_writer_open(w, c);
}

JSON_KEYED void json_object_begin_k(struct json_writer *w, struct json_key k)
{
	json_writer_open_k(w, k, '{');
}

JSON_KEYED void json_array_begin_k(struct json_writer *w, struct json_key k)
{
	json_writer_open_k(w, k, '[');
}

JSON_KEYED void json_put_string_k(struct json_writer *w, struct json_key k, const char *value)
{
	char *o = json_writer_key(w, k, 0);

	if (!o)
		return;
	json_writer_end(w, o);
	json_writer_cstr(w, value);
}

JSON_KEYED void json_put_u64_k(struct json_writer *w, struct json_key k, uint64_t value)
{
	char *o = json_writer_key(w, k, 20);

	if (o)
		json_writer_end(w, json_writer_u64_digits_small(o, value));
}

JSON_KEYED void json_put_i64_k(struct json_writer *w, struct json_key k, int64_t value)
{
	char *o = json_writer_key(w, k, 21);

	if (!o)
		return;
	if (value < 0) {
		*o++ = '-';
		o = json_writer_u64_digits(o, (uint64_t) 0 - (uint64_t) value);
	} else
		o = json_writer_u64_digits(o, (uint64_t) value);
	json_writer_end(w, o);
}

JSON_KEYED void json_put_bool_k(struct json_writer *w, struct json_key k, bool value)
{
	char *o = json_writer_key(w, k, 5);

	if (!o)
		return;
	memcpy(o, value ? "true" : "false", 5);
	json_writer_end(w, o + (value ? 4 : 5));
}

JSON_KEYED void json_put_hex64_k(struct json_writer *w, struct json_key k, uint64_t value)
{
	char *o = json_writer_key(w, k, 20);

	if (!o)
		return;
	memcpy(o, "\"0x", 3);
	hex_digits16(o + 3, value);
	o[19] = '"';
	json_writer_end(w, o + 20);
}

/*
 * Members written one after another under one check of the room: a
 * record's numbers and registers, a dozen in a row.  json_members_begin()
 * makes room for max bytes of them (false once the writer has failed);
 * each json_member_*() writes one at the cursor, unchecked, and
 * json_members_end() hands the writer back.  Nothing else may write in
 * between.
 */
struct json_members {
	char *o;
	bool comma;
};

JSON_KEYED bool json_members_begin(struct json_writer *w, struct json_members *m, size_t max)
{
	m->o = json_writer_room(w, max);
	m->comma = !w->first[w->depth];
	return m->o != NULL;
}

JSON_KEYED char *json_member_key(struct json_members *m, struct json_key k)
{
	char *o = m->o;

	*o = ',';
	o += m->comma;
	memcpy(o, k.text, k.len);
	m->comma = true;
	return o + k.len;
}

JSON_KEYED void json_member_u64(struct json_members *m, struct json_key k, uint64_t value)
{
	m->o = json_writer_u64_digits_small(json_member_key(m, k), value);
}

/* A signed number: a decode's DIMM and DRAM cell, small and seldom negative. */
JSON_KEYED void json_member_i64(struct json_members *m, struct json_key k, int64_t value)
{
	char *o = json_member_key(m, k);

	if (value < 0) {
		*o++ = '-';
		m->o = json_writer_u64_digits(o, (uint64_t) 0 - (uint64_t) value);
	} else
		m->o = json_writer_u64_digits_small(o, (uint64_t) value);
}

JSON_KEYED void json_member_hex64(struct json_members *m, struct json_key k, uint64_t value)
{
	char *o = json_member_key(m, k);

	memcpy(o, "\"0x", 3);
	hex_digits16(o + 3, value);
	o[19] = '"';
	m->o = o + 20;
}

JSON_KEYED void json_members_end(struct json_writer *w, const struct json_members *m)
{
	if (m->comma)
		w->first[w->depth] = false;
	json_writer_end(w, m->o);
}

/*
 * Strings of static storage that never change, such as the decoders'
 * names and descriptions: each one's length and whether it needs escaping
 * are found the first time and remembered by its address, so that a
 * dozen a record cost a copy each.  key: NULL in an array; else a static
 * string too.  Never for a buffer whose contents change.
 */
static inline void json_put_static(struct json_writer *w, const char *key, const char *s);
/* n static strings as elements of the open array: a decode's flags, in one call. */
void json_put_statics(struct json_writer *w, const char *const *s, size_t n);
static inline void json_put_u64_static_key(struct json_writer *w, const char *key, uint64_t value);
/* The two above for what their inline halves do not write: a string not yet known, or to escape. */
void json_put_static_slow(struct json_writer *w, const char *key, const char *s);
void json_put_u64_static_key_slow(struct json_writer *w, const char *key, uint64_t value);
/* The string alone, after the key. */
void json_writer_static(struct json_writer *w, const char *s);

/*
 * s's set of two slots: every bit of the address counts, as literals lie
 * a few bytes apart.  Two a set, so that two strings of a record that
 * share a set do not push each other out at every record.
 */
static inline size_t json_known_set(const char *s)
{
	uint64_t a = (uint64_t) (uintptr_t) s * 0x9e3779b97f4a7c15ull;

	return (size_t) (a >> 54) % (JSON_WRITER_STATIC_SLOTS / 2) * 2;
}

/*
 * A known plain string is written here, key and all, under one check of
 * the room; the first sight of one, and any to escape, by
 * json_writer_static().
 */
JSON_KEYED void json_put_static_k(struct json_writer *w, struct json_key k, const char *s)
{
	size_t slot = json_known_set(s), n = w->known[slot].len;
	char *o;

	if (w->known[slot].s != s || !w->known[slot].plain) {
		o = json_writer_key(w, k, 0);
		if (!o)
			return;
		json_writer_end(w, o);
		json_writer_static(w, s);
		return;
	}
	o = json_writer_key(w, k, n + 2);
	if (!o)
		return;
	o[0] = '"';
	copy_known(o + 1, s, n);
	o[n + 1] = '"';
	json_writer_end(w, o + n + 2);
}

/* s's length if it is known and plain (as json_put_static_k() finds it), else SIZE_MAX. */
static inline size_t json_known_plain_len(const struct json_writer *w, const char *s)
{
	size_t slot = json_known_set(s);

	return w->known[slot].s == s && w->known[slot].plain ? w->known[slot].len : SIZE_MAX;
}

/*
 * A known plain key in quotes with its colon, after the comma if one is
 * due, with room for value_max more bytes: where the value goes, or NULL
 * if the key is not known or the writer has failed (the slow half then).
 */
static inline char *json_writer_static_key(struct json_writer *w, const char *key, size_t value_max)
{
	size_t n = json_known_plain_len(w, key);
	char *o;

	if (n == SIZE_MAX || !(o = json_writer_room(w, n + 4 + value_max)))
		return NULL;
	*o = ',';
	o += !w->first[w->depth];
	o[0] = '"';
	copy_known(o + 1, key, n);
	o[n + 1] = '"';
	o[n + 2] = ':';
	w->first[w->depth] = false;
	return o + n + 3;
}

/*
 * A decode's details, a name and its text or number each, both static
 * strings: once known, key and value under one check of the room and
 * without a call.
 */
static inline void json_put_static(struct json_writer *w, const char *key, const char *s)
{
	size_t n = json_known_plain_len(w, s);
	char *o;

	if (!key || n == SIZE_MAX || !(o = json_writer_static_key(w, key, n + 2))) {
		json_put_static_slow(w, key, s);
		return;
	}
	o[0] = '"';
	copy_known(o + 1, s, n);
	o[n + 1] = '"';
	json_writer_end(w, o + n + 2);
}

static inline void json_put_u64_static_key(struct json_writer *w, const char *key, uint64_t value)
{
	char *o = json_writer_static_key(w, key, 20);

	if (!o) {
		json_put_u64_static_key_slow(w, key, value);
		return;
	}
	json_writer_end(w, json_writer_u64_digits_small(o, value));
}

/* "0x%" PRIx64 in quotes, after the key. */
void json_writer_hex(struct json_writer *w, uint64_t value);

JSON_KEYED void json_put_hex_k(struct json_writer *w, struct json_key k, uint64_t value)
{
	char *o;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * Values of 32 bits (microcode, CPUID) in place: all eight digits,
	 * those before the first that counts shifted out, stored as a word
	 * (the room covers all eight).
	 */
	if (value <= UINT32_MAX) {
		unsigned n = value ? 8 - (unsigned) __builtin_clz((uint32_t) value) / 4 : 1;
		uint64_t digits = hex_digits8((uint32_t) value) >> (8 * (8 - n));

		o = json_writer_key(w, k, 3 + 8 + 1);
		if (!o)
			return;
		memcpy(o, "\"0x", 3);
		memcpy(o + 3, &digits, 8);
		o[3 + n] = '"';
		json_writer_end(w, o + 4 + n);
		return;
	}
#endif
	o = json_writer_key(w, k, 0);
	if (!o)
		return;
	json_writer_end(w, o);
	json_writer_hex(w, value);
}

/*
 * A run of members that depends on nothing but KEY, N pointers (static
 * strings by their address, and any number cast to one), as a decode's
 * severity, names, description and flags do on theirs.  If a run of the
 * same key is kept, it is written again, after a comma if one is due,
 * and true returned.  Else false: the caller writes the run, then hands
 * it to json_run_keep() with the offset json_run_start() gave before.  A
 * run writes one member or more and ends at the depth it began at.
 */
bool json_run_again(struct json_writer *w, const void *const *key, size_t n);

static inline size_t json_run_start(const struct json_writer *w)
{
	return w->len + !w->first[w->depth];      /* after the comma the first member writes */
}

void json_run_keep(struct json_writer *w, const void *const *key, size_t n, size_t start);

/* The time of a day other than the last one written, or one out of four-digit years: json-writer.c.
 * day: the days from the epoch to usec's, which it learns for the next. */
void json_put_time_usec_slow(struct json_writer *w, struct json_key k, int64_t usec, int64_t day);

/*
 * A record's time: on the day of the last one written, as nearly always,
 * the date is known and the rest is written in place; any other goes
 * through json_put_time_usec_slow(), which learns its day.
 */
JSON_KEYED void json_put_time_usec_k(struct json_writer *w, struct json_key k, int64_t usec)
{
	int64_t sec = usec / 1000000, frac = usec % 1000000, day, sod;
	unsigned m;
	char *o;

	if (frac < 0) {
		frac += 1000000;
		sec--;
	}
	day = sec / 86400;
	sod = sec % 86400;
	if (sod < 0) {
		sod += 86400;
		day--;
	}
	if (!w->time_known || day != w->time_day) {
		json_put_time_usec_slow(w, k, usec, day);
		return;
	}
	/* "YYYY-MM-DDTHH:MM:SS.uuuuuuZ" in quotes: digits and punctuation, nothing to escape */
	o = json_writer_key(w, k, 29);
	if (!o)
		return;
	o[0] = '"';
	memcpy(o + 1, w->time_text, 10);
	o[11] = 'T';
	dec_put2(o + 12, (unsigned) (sod / 3600));
	o[14] = ':';
	m = (unsigned) (sod % 3600);
	dec_put2(o + 15, m / 60);
	o[17] = ':';
	dec_put2(o + 18, m % 60);
	o[20] = '.';
	dec_put_width(o + 21, (unsigned) frac, 6);
	o[27] = 'Z';
	o[28] = '"';
	json_writer_end(w, o + 29);
}
