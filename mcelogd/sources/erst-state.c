/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "erst-state.h"
#include "macro.h"
#include "parse-number.h"
#include "state-text.h"

#define STATE_HEADER "# mcelogd: the ERST records (pstore mce-*) it has logged; see mcelogd(8)\n"
/* "record=" backend " " id " " digest "\n" */
#define LINE_MAX_LEN (7 + PSTORE_BACKEND_MAX + 1 + 20 + 1 + 16 + 2)
_Static_assert(LINE_MAX_LEN <= STATE_TEXT_LINE_MAX, "a state line we write must read back");

/* "record=" backend " " id " " digest */
static int parse_line(char *line, void *userdata)
{
	struct erst_state *s = userdata;
	struct erst_logged e;
	char *backend, *id, *digest;

	if (!strchr(line, '='))
		return -EINVAL;
	if (strncmp(line, "record=", 7) != 0)
		return 0;      /* other keys: from a later version, ignored */
	backend = line + 7;
	id = strchr(backend, ' ');
	if (!id)
		return -EINVAL;
	*id++ = '\0';
	digest = strchr(id, ' ');
	if (!digest)
		return -EINVAL;
	*digest++ = '\0';
	if (backend[0] == '\0' || strlen(backend) >= sizeof(e.backend))
		return -EINVAL;
	if (parse_unsigned(id, strlen(id), 10, UINT64_MAX, &e.id) < 0 ||
	    parse_unsigned(digest, strlen(digest), 16, UINT64_MAX, &e.digest) < 0)
		return -EINVAL;
	snprintf(e.backend, sizeof(e.backend), "%s", backend);
	erst_state_add(s, &e);
	return 0;
}

int erst_state_parse(const char *text, size_t len, struct erst_state *ret)
{
	ret->n = 0;
	return state_text_lines(text, len, parse_line, ret) < 0 ? -EINVAL : 0;
}

int erst_state_format(const struct erst_state *s, char **ret, size_t *ret_len)
{
	size_t size = strlen(STATE_HEADER) + s->n * LINE_MAX_LEN + 1, off;
	char *buf = malloc(size);

	if (!buf)
		return -ENOMEM;
	off = (size_t) snprintf(buf, size, "%s", STATE_HEADER);
	for (size_t i = 0; i < s->n; i++)
		off += (size_t) snprintf(buf + off, size - off, "record=%s %" PRIu64 " %016" PRIx64 "\n",
					 s->entries[i].backend, s->entries[i].id, s->entries[i].digest);
	*ret = buf;
	*ret_len = off;
	return 0;
}

static bool same(const struct erst_logged *a, const struct erst_logged *b)
{
	return a->id == b->id && a->digest == b->digest && streq(a->backend, b->backend);
}

bool erst_state_has(const struct erst_state *s, const struct erst_logged *e)
{
	for (size_t i = 0; i < s->n; i++)
		if (same(&s->entries[i], e))
			return true;
	return false;
}

void erst_state_add(struct erst_state *s, const struct erst_logged *e)
{
	if (erst_state_has(s, e))
		return;
	if (s->n == ERST_STATE_MAX) {
		memmove(&s->entries[0], &s->entries[1], (ERST_STATE_MAX - 1) * sizeof(s->entries[0]));
		s->n--;
	}
	s->entries[s->n++] = *e;
}

size_t erst_state_keep(struct erst_state *s, const bool *keep)
{
	size_t out = 0, before = s->n;

	for (size_t i = 0; i < s->n; i++)
		if (keep[i])
			s->entries[out++] = s->entries[i];
	s->n = out;
	return before - out;
}
