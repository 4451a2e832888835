/* SPDX-License-Identifier: MIT */
#include "json-sure.h"

/*
 * json-c's default nesting limit is 32 (JSON_TOKENER_DEFAULT_DEPTH); numbers
 * of 15 characters or fewer fit an int64 or a double whatever they are.
 */
#define DEPTH_MAX 16
#define NUMBER_MAX 15

struct cursor {
	const char *p, *end;
};

static void skip_space(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

static bool literal(struct cursor *c, const char *word)
{
	for (; *word; word++, c->p++)
		if (c->p == c->end || *c->p != *word)
			return false;
	return true;
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static bool digits(struct cursor *c)
{
	const char *start = c->p;

	while (c->p < c->end && is_digit(*c->p))
		c->p++;
	return c->p > start;
}

static bool number(struct cursor *c)
{
	const char *start = c->p;

	if (c->p < c->end && *c->p == '-')
		c->p++;
	if (c->p < c->end && *c->p == '0')
		c->p++;
	else if (!digits(c))
		return false;
	if (c->p < c->end && *c->p == '.') {
		c->p++;
		if (!digits(c))
			return false;
	}
	if (c->p < c->end && (*c->p == 'e' || *c->p == 'E')) {
		c->p++;
		if (c->p < c->end && (*c->p == '+' || *c->p == '-'))
			c->p++;
		if (!digits(c))
			return false;
	}
	return c->p - start <= NUMBER_MAX;
}

static bool string(struct cursor *c)
{
	if (c->p == c->end || *c->p != '"')
		return false;
	for (c->p++; c->p < c->end; c->p++) {
		unsigned char ch = (unsigned char) *c->p;

		if (ch == '"') {
			c->p++;
			return true;
		}
		if (ch < 0x20)
			return false;
		if (ch == '\\') {
			if (++c->p == c->end)
				return false;
			switch (*c->p) {
			case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
				break;
			default:   /* \u among them: surrogates are json-c's to judge */
				return false;
			}
		}
	}
	return false;
}

static bool value(struct cursor *c, unsigned depth);

static bool members(struct cursor *c, unsigned depth, char close, bool keyed)
{
	c->p++;
	skip_space(c);
	if (c->p < c->end && *c->p == close) {
		c->p++;
		return true;
	}
	for (;;) {
		if (keyed) {
			if (!string(c))
				return false;
			skip_space(c);
			if (c->p == c->end || *c->p != ':')
				return false;
			c->p++;
			skip_space(c);
		}
		if (!value(c, depth))
			return false;
		skip_space(c);
		if (c->p == c->end)
			return false;
		if (*c->p == close) {
			c->p++;
			return true;
		}
		if (*c->p != ',')
			return false;
		c->p++;
		skip_space(c);
	}
}

static bool value(struct cursor *c, unsigned depth)
{
	if (c->p == c->end)
		return false;
	switch (*c->p) {
	case '{': return depth < DEPTH_MAX && members(c, depth + 1, '}', true);
	case '[': return depth < DEPTH_MAX && members(c, depth + 1, ']', false);
	case '"': return string(c);
	case 't': return literal(c, "true");
	case 'f': return literal(c, "false");
	case 'n': return literal(c, "null");
	default:  return number(c);
	}
}

bool json_object_text_sure(const char *text, size_t len)
{
	struct cursor c = { text, text + len };

	skip_space(&c);
	if (c.p == c.end || *c.p != '{' || !value(&c, 0))
		return false;
	skip_space(&c);
	return c.p == c.end;
}
