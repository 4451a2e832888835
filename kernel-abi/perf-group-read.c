/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include "perf-group-read.h"

/* nr, time_enabled, time_running */
#define HEADER_WORDS 3
/* value, id */
#define MEMBER_WORDS 2

size_t perf_group_read_size(size_t nr)
{
	return (HEADER_WORDS + MEMBER_WORDS * nr) * sizeof(uint64_t);
}

static uint64_t word(const unsigned char *p, size_t i)
{
	uint64_t v;

	/* memcpy: the caller's buffer need not be aligned. */
	memcpy(&v, p + i * sizeof(v), sizeof(v));
	return v;
}

int perf_group_read_parse(const void *buf, size_t size, struct perf_group_read *ret)
{
	const unsigned char *p = buf;

	if (size < perf_group_read_size(0))
		return -EBADMSG;
	uint64_t nr = word(p, 0);
	if (nr > PERF_GROUP_READ_MAX)
		return -E2BIG;
	if (size != perf_group_read_size(nr))
		return -EBADMSG;

	uint64_t enabled = word(p, 1), running = word(p, 2);
	if (running > enabled)
		return -ERANGE;

	*ret = (struct perf_group_read) {
		.time_enabled = enabled,
		.time_running = running,
		.nr = nr,
	};
	for (size_t i = 0; i < nr; i++) {
		ret->values[i].value = word(p, HEADER_WORDS + MEMBER_WORDS * i);
		ret->values[i].id = word(p, HEADER_WORDS + MEMBER_WORDS * i + 1);
	}
	return 0;
}

int perf_group_read_find(const struct perf_group_read *r, uint64_t id)
{
	for (size_t i = 0; i < r->nr; i++)
		if (r->values[i].id == id)
			return (int) i;
	return -ENOENT;
}

int perf_group_sample_parse(const void *body, size_t size, uint64_t *ret_id, uint64_t *ret_time,
			    struct perf_group_read *ret)
{
	const unsigned char *p = body;

	if (size < 2 * sizeof(uint64_t))
		return -EBADMSG;
	*ret_id = word(p, 0);
	*ret_time = word(p, 1);
	return perf_group_read_parse(p + 2 * sizeof(uint64_t), size - 2 * sizeof(uint64_t), ret);
}
