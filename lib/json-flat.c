/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "json-flat.h"

/* Deeper nesting is rare and json-c's own limit is near: leave it to json-c. */
#define MAX_DEPTH 8
/* Digits of the numbers taken here; longer ones are json-c's to judge. */
#define MAX_DIGITS 18

struct cursor {
	const char *p, *end;
};

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * Inline: it runs four times a member, and the JSON lines we write have no
 * white space to skip, so the call was most of what it cost.
 */
static inline __attribute__((always_inline)) void skip_ws(struct cursor *c)
{
	while (c->p < c->end && is_ws(*c->p))
		c->p++;
}

#define BYTES(c) (0x0101010101010101ull * (uint8_t) (c))

/*
 * The top bit of each of the 8 bytes in x that is '"', '\\', a control byte
 * or not ASCII.  Whether there is any is exact, and so is the lowest flagged:
 * a borrow can flag a byte only above a true one.
 */
static uint64_t special8(uint64_t x)
{
	uint64_t q = x ^ BYTES('"'), b = x ^ BYTES('\\'), del = x ^ BYTES(0x7f);

	return (((x - BYTES(0x20)) & ~x) | ((q - BYTES(1)) & ~q) | ((b - BYTES(1)) & ~b) |
		((del - BYTES(1)) & ~del) | x) & BYTES(0x80);
}

/* A string without escapes, of printable ASCII; c->p on its opening quote. */
static bool string(struct cursor *c, const char **ret, size_t *ret_len)
{
	const char *s = ++c->p;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * A word at a time, and in the word that holds a special byte the
	 * first of them found by its flag, not a byte at a time: keys and
	 * values are a few bytes, so that word is most of a string's cost.
	 */
	while (c->end - c->p >= 8) {
		uint64_t x, special;

		memcpy(&x, c->p, 8);
		special = special8(x);
		if (!special) {
			c->p += 8;
			continue;
		}
		c->p += (unsigned) __builtin_ctzll(special) / 8;
		if (*c->p != '"')
			return false;     /* an escape, a control byte, not ASCII */
		*ret = s;
		*ret_len = (size_t) (c->p - s);
		c->p++;
		return true;
	}
#endif
	while (c->p < c->end && *c->p != '"') {
		unsigned char b = (unsigned char) *c->p;

		if (b < 0x20 || b >= 0x7f || b == '\\')
			return false;
		c->p++;
	}
	if (c->p == c->end)
		return false;
	*ret = s;
	*ret_len = (size_t) (c->p - s);
	c->p++;
	return true;
}

static size_t digits(struct cursor *c, uint64_t *v)
{
	size_t n = 0;

	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		*v = *v * 10 + (uint64_t) (*c->p - '0');
		c->p++;
		if (++n > MAX_DIGITS)
			return 0;
	}
	return n;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?, MAX_DIGITS digits a part at most: no exponents. */
static bool number(struct cursor *c, struct json_flat_member *m)
{
	bool neg = false, frac = false;
	uint64_t v = 0, f = 0;
	const char *start;
	size_t n;

	if (*c->p == '-') {
		neg = true;
		c->p++;
	}
	start = c->p;
	n = digits(c, &v);
	if (n == 0 || (n > 1 && *start == '0') || (neg && v == 0))
		return false;
	if (c->p < c->end && *c->p == '.') {
		c->p++;
		if (digits(c, &f) == 0)
			return false;
		frac = true;
	}
	if (c->p < c->end && (*c->p == 'e' || *c->p == 'E'))
		return false;
	m->type = frac ? JSON_FLAT_OTHER : JSON_FLAT_INT;
	m->u = v;
	m->negative = neg;
	return true;
}

static bool literal(struct cursor *c, const char *lit, size_t n)
{
	if ((size_t) (c->end - c->p) < n || memcmp(c->p, lit, n) != 0)
		return false;
	c->p += n;
	return true;
}

static bool value(struct cursor *c, struct json_flat_member *m, unsigned depth);

/* An object or array inside a member's value: checked, not reported. */
static bool container(struct cursor *c, unsigned depth)
{
	char close = *c->p == '{' ? '}' : ']';
	bool object = close == '}', first = true;

	if (depth >= MAX_DEPTH)
		return false;
	c->p++;
	for (;;) {
		struct json_flat_member m;

		skip_ws(c);
		if (c->p == c->end)
			return false;
		if (*c->p == close && first) {
			c->p++;
			return true;
		}
		if (object) {
			if (*c->p != '"' || !string(c, &m.key, &m.key_len))
				return false;
			skip_ws(c);
			if (c->p == c->end || *c->p++ != ':')
				return false;
			skip_ws(c);
		}
		if (!value(c, &m, depth + 1))
			return false;
		skip_ws(c);
		if (c->p == c->end)
			return false;
		if (*c->p == close) {
			c->p++;
			return true;
		}
		if (*c->p++ != ',')
			return false;
		first = false;
	}
}

static bool value(struct cursor *c, struct json_flat_member *m, unsigned depth)
{
	if (c->p == c->end)
		return false;
	switch (*c->p) {
	case '"':
		m->type = JSON_FLAT_STRING;
		return string(c, &m->s, &m->len);
	case '{':
	case '[':
		m->type = JSON_FLAT_OTHER;
		return container(c, depth);
	case 'n':
		m->type = JSON_FLAT_NULL;
		return literal(c, "null", 4);
	case 't':
		m->type = JSON_FLAT_TRUE;
		return literal(c, "true", 4);
	case 'f':
		m->type = JSON_FLAT_FALSE;
		return literal(c, "false", 5);
	default:
		if (*c->p == '-' || (*c->p >= '0' && *c->p <= '9'))
			return number(c, m);
		return false;
	}
}

bool json_flat_scan(const char *text, size_t len, json_flat_fn fn, void *userdata)
{
	struct cursor c = { text, text + len };
	bool first = true;

	skip_ws(&c);
	if (c.p == c.end || *c.p++ != '{')
		return false;
	for (;;) {
		struct json_flat_member m = { 0 };

		skip_ws(&c);
		if (c.p == c.end)
			return false;
		if (*c.p == '}' && first) {
			c.p++;
			break;
		}
		if (*c.p != '"' || !string(&c, &m.key, &m.key_len))
			return false;
		skip_ws(&c);
		if (c.p == c.end || *c.p++ != ':')
			return false;
		skip_ws(&c);
		if (!value(&c, &m, 1) || !fn(&m, userdata))
			return false;
		skip_ws(&c);
		if (c.p == c.end)
			return false;
		if (*c.p == '}') {
			c.p++;
			break;
		}
		if (*c.p++ != ',')
			return false;
		first = false;
	}
	skip_ws(&c);
	return c.p == c.end;
}
