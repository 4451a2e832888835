/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "cpu-list.h"

static int number(const char **p, unsigned long *ret)
{
	char *end;

	if (!isdigit((unsigned char) **p))
		return -EINVAL;
	errno = 0;
	*ret = strtoul(*p, &end, 10);
	if (errno)
		return -EINVAL;
	*p = end;
	return 0;
}

int cpu_list_parse(const char *s, bool *set, size_t max)
{
	const char *p = s;
	int count = 0;

	while (*p == ' ')
		p++;
	if (*p == '\n' || *p == '\0')
		return 0;
	for (;;) {
		unsigned long a, b;

		if (number(&p, &a) < 0)
			return -EINVAL;
		b = a;
		if (*p == '-') {
			p++;
			if (number(&p, &b) < 0 || b < a)
				return -EINVAL;
		}
		if (b >= max)
			return -EINVAL;
		for (unsigned long i = a; i <= b; i++)
			if (!set[i]) {
				set[i] = true;
				count++;
			}
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '\n')
			p++;
		return *p == '\0' ? count : -EINVAL;
	}
}
