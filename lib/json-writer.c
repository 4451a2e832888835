/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dec-digits.h"
#include "hex-digits.h"
#include "json-writer.h"
#include "rfc3339.h"

void json_writer_init(struct json_writer *w)
{
	*w = (struct json_writer) { .first = { true } };
}

void json_writer_reset(struct json_writer *w)
{
	w->len = 0;
	w->depth = 0;
	w->first[0] = true;
	w->failed = false;
	if (w->buf)
		w->buf[0] = '\0';
}

void json_writer_done(struct json_writer *w)
{
	free(w->buf);
	json_writer_init(w);
}

bool json_writer_grow(struct json_writer *w, size_t need)
{
	size_t cap;
	char *p;

	cap = w->cap ? w->cap : 512;
	while (cap < need)
		cap *= 2;
	p = realloc(w->buf, cap);
	if (!p) {
		w->failed = true;
		return false;
	}
	w->buf = p;
	w->cap = cap;
	return true;
}

/*
 * Room for extra more bytes and the NUL json_writer_str() puts after them.
 * Inline, and the buffer is terminated only there: every key and value of
 * every record passes here (mcectl decode writes millions).
 */
static inline bool reserve(struct json_writer *w, size_t extra)
{
	size_t need = w->len + extra + 1;

	if (w->failed)
		return false;
	return need <= w->cap || json_writer_grow(w, need);
}

static inline void put_raw(struct json_writer *w, const char *s, size_t n)
{
	if (!reserve(w, n))
		return;
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

static inline void put_char(struct json_writer *w, char c)
{
	if (!reserve(w, 1))
		return;
	w->buf[w->len++] = c;
}

/*
 * Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0 if there is none.
 */
static size_t utf8_sequence(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t k = 1; k < len; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[k] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/*
 * Every string goes through here, so invalid UTF-8 from any input
 * (firmware FRU text, a hostname, a pasted log) never reaches a consumer:
 * each byte that starts no well-formed sequence becomes U+FFFD.
 */
static void put_escaped_slow(struct json_writer *w, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char) s[i];
		size_t run = i;

		/* Copy a run that needs no escaping in one go: keys and values are
		 * almost always plain, and this runs for every key of every record. */
		while (run < n && (unsigned char) s[run] >= 0x20 && (unsigned char) s[run] < 0x7f &&
		       s[run] != '"' && s[run] != '\\')
			run++;
		if (run > i) {
			put_raw(w, s + i, run - i);
			i = run - 1;
			continue;
		}
		switch (c) {
		case '"':  put_raw(w, "\\\"", 2); break;
		case '\\': put_raw(w, "\\\\", 2); break;
		case '\n': put_raw(w, "\\n", 2); break;
		case '\r': put_raw(w, "\\r", 2); break;
		case '\t': put_raw(w, "\\t", 2); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf] };
				put_raw(w, esc, sizeof(esc));
			} else {
				size_t len = utf8_sequence((const unsigned char *) s + i, n - i);

				/* U+FFFD itself is written as the replacement is, so that what we
				 * wrote reads back and writes again the same, byte for byte. */
				if (len == 0 || (len == 3 && memcmp(s + i, "\xef\xbf\xbd", 3) == 0)) {
					put_raw(w, "\\ufffd", 6);
					i += len ? len - 1 : 0;
				} else {
					put_raw(w, s + i, len);
					i += len - 1;
				}
			}
		}
	}
}

/* Bytes copied as they are: printable ASCII but the quote and the backslash. */
static inline bool plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

#define BYTES(c) (0x0101010101010101ull * (uint8_t) (c))

/* Whether the 8 bytes in x are all plain(): exact, the usual bit tricks for a byte below n. */
static inline bool plain8(uint64_t x)
{
	uint64_t q = x ^ BYTES('"'), b = x ^ BYTES('\\'), del = x ^ BYTES(0x7f);
	uint64_t bad = ((x - BYTES(0x20)) & ~x) |            /* below 0x20 */
		       ((q - BYTES(1)) & ~q) |              /* '"' */
		       ((b - BYTES(1)) & ~b) |              /* '\\' */
		       ((del - BYTES(1)) & ~del) |          /* 0x7f */
		       x;                                   /* 0x80 and above */

	return (bad & BYTES(0x80)) == 0;
}

/*
 * Plain strings (almost every key and value) eight bytes at a time; the
 * rest byte by byte.  This writes every key of every record.
 */
static void put_escaped(struct json_writer *w, const char *s, size_t n)
{
	size_t i = 0;
	char *o;

	/* 8 more: the last word is stored whole, past the string's end */
	if (!reserve(w, n + 2 + 8))
		return;
	o = w->buf + w->len;
	*o++ = '"';
	for (; i + 8 <= n; i += 8) {
		uint64_t x;

		memcpy(&x, s + i, 8);
		if (!plain8(x))
			break;
		memcpy(o, &x, 8);
		o += 8;
	}
	if (i + 8 > n) {
		/* the tail, padded with plain bytes to a word */
		uint64_t x = BYTES('a');

		memcpy(&x, s + i, n - i);
		if (plain8(x)) {
			memcpy(o, &x, 8);
			o += n - i;
			i = n;
		}
	}
	while (i < n && plain((unsigned char) s[i]))
		*o++ = s[i++];
	w->len = (size_t) (o - w->buf);
	if (i < n)
		put_escaped_slow(w, s + i, n - i);
	put_char(w, '"');
}

/* plain() as a table (0x22 '"', 0x5c '\\' are not), and false for the NUL that ends a C string */
static const bool plain_byte[256] = {
	[0x20 ... 0x21] = true, [0x23 ... 0x5b] = true, [0x5d ... 0x7e] = true,
};

/* Keys and short values are almost always plain: at most this much in one go, without strlen(). */
#define SHORT_STRING 64

/* A C string in quotes: its length found while it is copied. */
static void put_escaped_cstr(struct json_writer *w, const char *s)
{
	size_t i = 0;
	char *o;

	if (!reserve(w, SHORT_STRING + 2))
		return;
	o = w->buf + w->len;
	*o++ = '"';
	/* four at a time: a plain byte is no NUL, so the next one is still in the string */
	while (i + 4 <= SHORT_STRING && plain_byte[(unsigned char) s[i]] &&
	       plain_byte[(unsigned char) s[i + 1]] && plain_byte[(unsigned char) s[i + 2]] &&
	       plain_byte[(unsigned char) s[i + 3]]) {
		memcpy(o, s + i, 4);
		o += 4;
		i += 4;
	}
	while (i < SHORT_STRING && plain_byte[(unsigned char) s[i]]) {
		*o++ = s[i];
		i++;
	}
	if (i < SHORT_STRING && s[i] == '\0') {
		*o++ = '"';
		w->len = (size_t) (o - w->buf);
		return;
	}
	put_escaped(w, s, strlen(s));     /* long or not plain: written afresh */
}

/* Comma and key before a value, depending on where we are. */
static void begin_value(struct json_writer *w, const char *key)
{
	if (!w->first[w->depth])
		put_char(w, ',');
	w->first[w->depth] = false;
	if (key) {
		put_escaped_cstr(w, key);
		put_char(w, ':');
	}
}

static void open_container(struct json_writer *w, const char *key, char c)
{
	begin_value(w, key);
	json_writer_open(w, c);
}

const char *json_writer_str(struct json_writer *w)
{
	if (!w->buf)
		return "";
	w->buf[w->len] = '\0';   /* reserve() always left room for it */
	return w->buf;
}

void json_object_begin(struct json_writer *w, const char *key) { open_container(w, key, '{'); }
void json_array_begin(struct json_writer *w, const char *key) { open_container(w, key, '['); }

char *json_writer_u64_digits(char *o, uint64_t v)
{
	return dec_u64_put(o, v, dec_u64_len(v));
}

static void put_u64_digits(struct json_writer *w, uint64_t v)
{
	char *o = json_writer_room(w, 20);

	if (o)
		json_writer_end(w, json_writer_u64_digits(o, v));
}

static void put_i64(struct json_writer *w, int64_t value)
{
	if (value < 0) {
		put_char(w, '-');
		put_u64_digits(w, (uint64_t) 0 - (uint64_t) value);
	} else
		put_u64_digits(w, (uint64_t) value);
}

static void put_bool(struct json_writer *w, bool value)
{
	if (value)
		put_raw(w, "true", 4);
	else
		put_raw(w, "false", 5);
}

static void put_hex64(struct json_writer *w, uint64_t value)
{
	char tmp[20] = { '"', '0', 'x' };

	hex_digits16(tmp + 3, value);
	tmp[19] = '"';
	put_raw(w, tmp, sizeof(tmp));
}

static void put_hex(struct json_writer *w, uint64_t value)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[24];
	size_t i = sizeof(tmp);

	/* by hand, as in put_u64_digits(): "0x%" PRIx64 in quotes */
	tmp[--i] = '"';
	do {
		tmp[--i] = hex[value & 0xf];
		value >>= 4;
	} while (value);
	tmp[--i] = 'x';
	tmp[--i] = '0';
	tmp[--i] = '"';
	put_raw(w, tmp + i, sizeof(tmp) - i);
}

void json_put_stringn(struct json_writer *w, const char *key, const char *value, size_t n)
{
	begin_value(w, key);
	put_escaped(w, value, n);
}

void json_put_string(struct json_writer *w, const char *key, const char *value)
{
	begin_value(w, key);
	put_escaped_cstr(w, value);
}

void json_put_u64(struct json_writer *w, const char *key, uint64_t value)
{
	begin_value(w, key);
	put_u64_digits(w, value);
}

void json_put_i64(struct json_writer *w, const char *key, int64_t value)
{
	begin_value(w, key);
	put_i64(w, value);
}

/* Fixed-point: the figures we print are ratios, where %g's exponents only hinder reading. */
void json_put_fixed(struct json_writer *w, const char *key, double value, unsigned decimals)
{
	char buf[64];

	begin_value(w, key);
	if (!isfinite(value)) {
		put_raw(w, "null", 4);
		return;
	}
	int n = snprintf(buf, sizeof(buf), "%.*f", (int) (decimals > 9 ? 9 : decimals), value);
	if (n < 0 || (size_t) n >= sizeof(buf))
		put_raw(w, "null", 4);
	else
		put_raw(w, buf, (size_t) n);
}

void json_put_bool(struct json_writer *w, const char *key, bool value)
{
	begin_value(w, key);
	put_bool(w, value);
}

void json_put_hex64(struct json_writer *w, const char *key, uint64_t value)
{
	begin_value(w, key);
	put_hex64(w, value);
}

void json_put_hex(struct json_writer *w, const char *key, uint64_t value)
{
	begin_value(w, key);
	put_hex(w, value);
}

void json_put_time_usec(struct json_writer *w, const char *key, int64_t usec)
{
	char tmp[40];

	/* the key only once the value is known to be good, as before */
	if (format_rfc3339_usec(tmp, sizeof(tmp), usec) < 0) {
		w->failed = true;
		return;
	}
	json_put_string(w, key, tmp);
}

/* ---- the same with keys written as they are (struct json_key): most are inline ---- */

void json_writer_cstr(struct json_writer *w, const char *s)
{
	put_escaped_cstr(w, s);
}

static void begin_key(struct json_writer *w, struct json_key k)
{
	char *o = json_writer_key(w, k, 0);

	if (o)
		json_writer_end(w, o);
}

void json_writer_hex(struct json_writer *w, uint64_t value)
{
	put_hex(w, value);
}

void json_put_time_usec_slow(struct json_writer *w, struct json_key k, int64_t usec, int64_t day)
{
	char tmp[40];
	int n;

	n = format_rfc3339_usec(tmp + 1, sizeof(tmp) - 2, usec);
	if (n < 0) {
		w->failed = true;
		return;
	}
	if (n == 27) {       /* a four-digit year: "YYYY-MM-DDTHH:MM:SS.uuuuuuZ" */
		memcpy(w->time_text, tmp + 1, 10);
		w->time_day = day;
		w->time_known = true;
	}
	/* digits, '-', ':', '.', 'T' and 'Z': nothing to escape */
	tmp[0] = '"';
	tmp[n + 1] = '"';
	begin_key(w, k);
	put_raw(w, tmp, (size_t) n + 2);
}

/* ---- static strings ---- */

/* s in quotes, escaped as put_escaped() does */
/*
 * The rest of json_writer_static(): a string not in its slot's set, or
 * one to escape.  Apart, so that the usual path saves no registers.
 */
static __attribute__((noinline)) void static_slow(struct json_writer *w, const char *s, size_t slot)
{
	size_t n;

	if (w->known[slot].s != s) {
		if (w->known[slot + 1].s == s)
			slot++;
		else {
			/* the newer one first */
			n = strlen(s);
			if (n > UINT32_MAX) {
				put_escaped(w, s, n);
				return;
			}
			w->known[slot + 1] = w->known[slot];
			w->known[slot].s = s;
			w->known[slot].len = (uint32_t) n;
			w->known[slot].plain = true;
			for (size_t i = 0; i < n && w->known[slot].plain; i++)
				w->known[slot].plain = plain((unsigned char) s[i]);
		}
	}
	n = w->known[slot].len;
	if (!w->known[slot].plain) {
		put_escaped(w, s, n);
		return;
	}
	put_raw(w, "\"", 1);
	put_raw(w, s, n);
	put_raw(w, "\"", 1);
}

/*
 * s in quotes, after a comma if comma and before a colon if colon: an
 * array's element or a member's key and its separators under one check
 * of the room, as the strings of a record are written one after another.
 */
static inline __attribute__((always_inline)) void put_static(struct json_writer *w, const char *s,
							     bool comma, bool colon)
{
	size_t slot = json_known_set(s), n = w->known[slot].len;
	char *o;

	if (w->known[slot].s != s || !w->known[slot].plain || !reserve(w, n + 4)) {
		if (comma)
			put_char(w, ',');
		static_slow(w, s, slot);
		if (colon)
			put_char(w, ':');
		return;
	}
	o = w->buf + w->len;
	*o = ',';
	o += comma;
	o[0] = '"';
	copy_known(o + 1, s, n);
	o[n + 1] = '"';
	o += n + 2;
	*o = ':';
	o += colon;
	w->len = (size_t) (o - w->buf);
}

void json_writer_static(struct json_writer *w, const char *s)
{
	put_static(w, s, false, false);
}

void json_put_static_slow(struct json_writer *w, const char *key, const char *s)
{
	bool comma = !w->first[w->depth];

	w->first[w->depth] = false;
	if (key) {
		put_static(w, key, comma, true);
		put_static(w, s, false, false);
	} else
		put_static(w, s, comma, false);
}

void json_put_statics(struct json_writer *w, const char *const *s, size_t n)
{
	if (n == 0)
		return;
	put_static(w, s[0], !w->first[w->depth], false);
	w->first[w->depth] = false;
	for (size_t i = 1; i < n; i++)
		put_static(w, s[i], true, false);
}

/* ---- kept runs ---- */

static bool run_is(const struct json_run *r, const void *const *key, size_t n)
{
	return r->n == n && memcmp(r->key, key, n * sizeof(key[0])) == 0;
}

/*
 * A key's place: a hash of its length and its first, middle and last
 * pointers, which tell most runs apart (more would cost a record more
 * than the places it saves).
 */
static struct json_run *run_place(struct json_writer *w, const void *const *key, size_t n)
{
	uint64_t h = (uint64_t) (uintptr_t) key[0] * 0x9e3779b97f4a7c15ull;

	h = (h ^ (uint64_t) (uintptr_t) key[n / 2] ^ n) * 0x9e3779b97f4a7c15ull;
	h = (h ^ (uint64_t) (uintptr_t) key[n - 1]) * 0x9e3779b97f4a7c15ull;
	return &w->runs[(h >> 59) % JSON_WRITER_RUNS];
}

bool json_run_again(struct json_writer *w, const void *const *key, size_t n)
{
	const struct json_run *r;
	char *o;

	if (n == 0)
		return false;
	r = run_place(w, key, n);
	if (!run_is(r, key, n))
		return false;
	if (!reserve(w, r->len + 1))
		return true;      /* failed: nothing more is written */
	o = w->buf + w->len;
	*o = ',';
	o += !w->first[w->depth];
	memcpy(o, r->text, r->len);
	w->len = (size_t) (o + r->len - w->buf);
	w->first[w->depth] = false;
	return true;
}

void json_run_keep(struct json_writer *w, const void *const *key, size_t n, size_t start)
{
	struct json_run *r;
	size_t len = w->len - start;

	/* a run the writer failed in, or too long to keep, is not kept */
	if (n == 0 || n > JSON_WRITER_RUN_KEY || w->failed || start > w->len || len > JSON_WRITER_RUN_TEXT)
		return;
	r = run_place(w, key, n);
	memcpy(r->key, key, n * sizeof(key[0]));
	r->n = n;
	memcpy(r->text, w->buf + start, len);
	r->len = (uint32_t) len;
}

void json_put_u64_static_key_slow(struct json_writer *w, const char *key, uint64_t value)
{
	bool comma = !w->first[w->depth];

	w->first[w->depth] = false;
	put_static(w, key, comma, true);
	put_u64_digits(w, value);
}

bool utf8_valid(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t len;

		if ((unsigned char) s[i] < 0x80)
			continue;
		len = utf8_sequence((const unsigned char *) s + i, n - i);
		if (len == 0)
			return false;
		i += len - 1;
	}
	return true;
}
