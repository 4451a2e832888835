/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "macro.h"
#include "spool-walk.h"

ssize_t spool_read_at(int fd, uint8_t *buf, size_t size, uint64_t offset)
{
	size_t got = 0;

	while (got < size) {
		ssize_t k = pread(fd, buf + got, size - got, (off_t) (offset + got));

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return negative_errno();
		if (k == 0)
			break;
		got += (size_t) k;
	}
	return (ssize_t) got;
}

/* fn's answer kept apart: journal_export_decode() reports a refusal only as where it stopped. */
struct walk_ctx {
	journal_export_fn fn;
	void *userdata;
	int refused;
};

static int walk_one(const struct iovec *iov, unsigned n, void *userdata)
{
	struct walk_ctx *c = userdata;
	int r = c->fn(iov, n, c->userdata);

	if (r < 0)
		c->refused = r;
	return r;
}

int spool_walk(int fd, uint64_t from, journal_export_fn fn, void *userdata, uint64_t *ret_end)
{
	struct walk_ctx c = { .fn = fn, .userdata = userdata };
	_cleanup_free_ uint8_t *buf = NULL;
	size_t cap = SPOOL_WINDOW_BYTES;
	uint64_t at = from;

	*ret_end = from;
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t len = spool_read_at(fd, buf, cap, at);
		size_t consumed = 0;
		bool eof;
		int r;

		if (len < 0)
			return (int) len;
		if (len == 0)
			return 0;
		eof = (size_t) len < cap;
		r = journal_export_decode(buf, (size_t) len, walk_one, &c, &consumed);
		at += consumed;
		*ret_end = at;
		if (c.refused < 0)
			return c.refused;
		if (r >= 0) {
			if (eof)
				return 0;
			continue;
		}
		if (r != -EBADMSG)
			return r;
		/* The window ended inside an entry: read on from it, in a bigger window if need be. */
		if (eof)
			return -EBADMSG;
		if (consumed == 0) {
			uint8_t *p;

			if (cap >= SPOOL_ENTRY_MAX)
				return -EBADMSG;
			cap = cap * 2 < SPOOL_ENTRY_MAX ? cap * 2 : SPOOL_ENTRY_MAX;
			p = realloc(buf, cap);
			if (!p)
				return -ENOMEM;
			buf = p;
		}
	}
}

static int stop_at_first(const struct iovec *iov, unsigned n, void *userdata)
{
	(void) iov;
	(void) n;
	(void) userdata;
	return -ECANCELED;
}

/* Whether a whole entry starts at offset: the walk hands one over, or would have. */
static bool entry_starts_at(int fd, uint64_t offset)
{
	uint64_t end;

	return spool_walk(fd, offset, stop_at_first, NULL, &end) == -ECANCELED;
}

int64_t spool_resync(int fd, uint64_t from)
{
	_cleanup_free_ uint8_t *buf = malloc(SPOOL_WINDOW_BYTES);
	uint64_t at = from;
	bool after_newline = false;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t len = spool_read_at(fd, buf, SPOOL_WINDOW_BYTES, at);

		if (len < 0)
			return len;
		if (len == 0)
			return -ENOENT;
		for (size_t i = 0; i < (size_t) len; i++) {
			bool newline = buf[i] == '\n';

			/* An empty line ends an entry: the next may start right after it. */
			if (newline && after_newline && entry_starts_at(fd, at + i + 1))
				return (int64_t) (at + i + 1);
			after_newline = newline;
		}
		at += (uint64_t) len;
	}
}
