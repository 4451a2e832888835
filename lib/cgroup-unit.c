/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "cgroup-unit.h"
#include "macro.h"

/* The unit types a process can run in (systemd.unit(5)); slices only group them. */
static const char *const process_unit_suffixes[] = { ".service", ".scope", ".socket", ".mount", ".swap" };

static bool is_unit(const char *p, size_t n)
{
	for (size_t i = 0; i < ELEMENTSOF(process_unit_suffixes); i++) {
		size_t k = strlen(process_unit_suffixes[i]);

		if (n > k && memcmp(p + n - k, process_unit_suffixes[i], k) == 0)
			return true;
	}
	return false;
}

/* The path of the line whose controllers are want ("" for the unified hierarchy). */
static bool find_path(const char *text, size_t len, const char *want, const char **ret, size_t *ret_len)
{
	size_t wlen = strlen(want);

	for (const char *line = text, *end = text + len; line < end;) {
		const char *eol = memchr(line, '\n', (size_t) (end - line));
		const char *c1, *c2;

		if (!eol)
			eol = end;
		c1 = memchr(line, ':', (size_t) (eol - line));
		c2 = c1 ? memchr(c1 + 1, ':', (size_t) (eol - c1 - 1)) : NULL;
		if (c2 && (size_t) (c2 - c1 - 1) == wlen && memcmp(c1 + 1, want, wlen) == 0) {
			*ret = c2 + 1;
			*ret_len = (size_t) (eol - c2 - 1);
			return true;
		}
		line = eol + 1;
	}
	return false;
}

static int copy(const char *p, size_t n, char *buf, size_t size)
{
	if (n >= size)
		return -ENOBUFS;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return 0;
}

int cgroup_unit_of(const char *text, size_t len, char *unit, size_t unit_size, char *user_unit,
		   size_t user_unit_size)
{
	const char *path, *first = NULL, *last = NULL;
	size_t plen, first_len = 0, last_len = 0;
	int r;

	if (unit_size == 0 || user_unit_size == 0)
		return -ENOBUFS;
	unit[0] = user_unit[0] = '\0';
	if (!find_path(text, len, "", &path, &plen) && !find_path(text, len, "name=systemd", &path, &plen))
		return -ENOENT;
	for (const char *p = path, *end = path + plen; p < end;) {
		const char *slash = memchr(p, '/', (size_t) (end - p));
		size_t n = (size_t) ((slash ? slash : end) - p);

		if (is_unit(p, n)) {
			if (!first) {
				first = p;
				first_len = n;
			} else {
				last = p;
				last_len = n;
			}
		}
		p += n + 1;
	}
	if (!first)
		return -ENOENT;
	r = copy(first, first_len, unit, unit_size);
	if (r >= 0 && last)
		r = copy(last, last_len, user_unit, user_unit_size);
	return r;
}
