/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bert-state.h"
#include "macro.h"
#include "parse-number.h"
#include "state-text.h"

struct parse_ctx {
	struct bert_state s;
	unsigned seen;
};

static int parse_line(char *line, void *userdata)
{
	struct parse_ctx *c = userdata;
	char *eq = strchr(line, '=');
	uint64_t v;

	if (!eq)
		return -EINVAL;
	*eq++ = '\0';
	if (streq(line, "boot_id")) {
		if (strlen(eq) != 32 || strspn(eq, "0123456789abcdef") != 32)
			return -EINVAL;
		memcpy(c->s.boot_id, eq, 33);
		c->seen |= 1;
		return 0;
	}
	if (parse_unsigned(eq, strlen(eq), streq(line, "digest") ? 16 : 10, UINT64_MAX, &v) < 0)
		return -EINVAL;
	if (streq(line, "digest")) {
		c->s.digest = v;
		c->seen |= 2;
	} else if (streq(line, "length")) {
		c->s.length = v;
		c->seen |= 4;
	}
	/* other keys: from a later version, ignored */
	return 0;
}

int bert_state_parse(const char *text, size_t len, struct bert_state *ret)
{
	struct parse_ctx c = {};

	if (state_text_lines(text, len, parse_line, &c) < 0 || c.seen != 7)
		return -EINVAL;
	*ret = c.s;
	return 0;
}

int bert_state_format(const struct bert_state *s, char *buf, size_t size)
{
	return snprintf(buf, size,
			"# mcelogd: the boot error region (BERT) it has logged; see mcelogd(8)\n"
			"boot_id=%s\ndigest=%016" PRIx64 "\nlength=%" PRIu64 "\n",
			s->boot_id, s->digest, s->length);
}

enum bert_decision bert_state_decide(const struct bert_state *logged, const char *boot_id,
				     uint64_t digest, uint64_t length)
{
	if (!logged)
		return BERT_LOG;
	if (boot_id[0] && streq(logged->boot_id, boot_id))
		return BERT_SKIP_SAME_BOOT;
	if (logged->digest == digest && logged->length == length)
		return BERT_SKIP_SAME_REGION;
	return BERT_LOG;
}
