/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "cursor-file.h"
#include "parse-number.h"

/* The next blank-separated word of [*p, end); its length. */
static size_t next_word(const char **p, const char *end, const char **w)
{
	const char *s = *p;

	while (s < end && *s == ' ')
		s++;
	*w = s;
	while (s < end && *s != ' ')
		s++;
	*p = s;
	return (size_t) (s - *w);
}

static bool word_is(const char *w, size_t n, const char *lit)
{
	return n == strlen(lit) && memcmp(w, lit, n) == 0;
}

int cursor_line_values(const char *p, const char *end, const struct cursor_key *keys, size_t n, uint64_t *v)
{
	for (size_t i = 0; i < n; i++) {
		const char *w;
		size_t len = next_word(&p, end, &w);

		if (!word_is(w, len, keys[i].key))
			return -EBADMSG;
		len = next_word(&p, end, &w);
		if (len == 0 || parse_unsigned(w, len, (int) keys[i].base, UINT64_MAX, &v[i]) < 0)
			return -EBADMSG;
	}
	return 0;
}

int cursor_file_parse(const char *text, size_t len, char boot_id[MCE_BOOT_ID_LEN + 1],
		      int (*on_ring)(const char *p, const char *end, void *userdata), void *userdata,
		      unsigned *bad_line)
{
	const char *p = text, *end = text + len;
	unsigned line = 0;
	bool have_boot = false;
	int r;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t) (end - p));
		const char *e = nl ? nl : end, *w, *q = p;
		size_t n = next_word(&q, e, &w);

		line++;
		if (n == 0)
			r = 0;   /* blank line */
		else if (word_is(w, n, "boot_id") && !have_boot) {
			n = next_word(&q, e, &w);
			r = n == MCE_BOOT_ID_LEN ? 0 : -EBADMSG;
			if (r == 0) {
				memcpy(boot_id, w, n);
				boot_id[n] = '\0';
				have_boot = true;
			}
		} else if (word_is(w, n, "ring") && have_boot)
			r = on_ring(p, e, userdata);
		else
			r = -EBADMSG;
		if (r < 0) {
			*bad_line = line;
			return r;
		}
		p = nl ? nl + 1 : end;
	}
	if (!have_boot) {
		*bad_line = line ? line : 1;
		return -EBADMSG;
	}
	return 0;
}
