/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "journal-export.h"
#include "macro.h"

static void put_le64(uint8_t *p, uint64_t v)
{
	for (unsigned i = 0; i < 8; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

static uint64_t get_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < 8; i++)
		v |= (uint64_t) p[i] << (8 * i);
	return v;
}

size_t journal_export_encode(const struct iovec *iov, unsigned n, uint8_t *buf, size_t size)
{
	size_t at = 0;

	/* Writes only what fits; always counts what is needed. */
#define PUT(src, len) do { if (at + (len) <= size) memcpy(buf + at, (src), (len)); at += (len); } while (0)
	for (unsigned i = 0; i < n; i++) {
		const char *f = iov[i].iov_base;
		size_t len = iov[i].iov_len;
		const char *eq = memchr(f, '=', len);
		size_t name = eq ? (size_t) (eq - f) : len;

		if (!eq || !memchr(eq + 1, '\n', len - name - 1)) {
			PUT(f, len);
			PUT("\n", 1);
		} else {
			uint8_t le[8];

			put_le64(le, len - name - 1);
			PUT(f, name);
			PUT("\n", 1);
			PUT(le, 8);
			PUT(eq + 1, len - name - 1);
			PUT("\n", 1);
		}
	}
	PUT("\n", 1);
#undef PUT
	return at;
}

int journal_export_decode(const uint8_t *data, size_t len, journal_export_fn send, void *userdata, size_t *consumed)
{
	struct iovec iov[JOURNAL_EXPORT_MAX_FIELDS];
	/* A binary field's "NAME=value" is rebuilt here: journald wants it in one piece. */
	_cleanup_free_ uint8_t *scratch = NULL;
	size_t at = 0, entry = 0, scratch_used = 0;
	unsigned n = 0;

	*consumed = 0;
	scratch = malloc(len + JOURNAL_EXPORT_MAX_FIELDS);
	if (!scratch)
		return -ENOMEM;
	while (at < len) {
		const uint8_t *nl = memchr(data + at, '\n', len - at);
		size_t line;

		if (!nl)
			return -EBADMSG;
		line = (size_t) (nl - (data + at));
		if (line == 0) {
			/* End of an entry. */
			at++;
			if (n > 0 && send(iov, n, userdata) < 0)
				return (int) entry;
			entry = at;
			*consumed = at;
			n = 0;
			scratch_used = 0;
			continue;
		}
		if (n == JOURNAL_EXPORT_MAX_FIELDS)
			return -EBADMSG;
		if (memchr(data + at, '=', line)) {
			iov[n++] = (struct iovec) { .iov_base = (void *) (data + at), .iov_len = line };
			at += line + 1;
			continue;
		}
		/* NAME\n, le64 length, value, \n */
		{
			size_t name = line;
			uint64_t vlen;
			uint8_t *dst = scratch + scratch_used;

			at += line + 1;
			if (len - at < 8)
				return -EBADMSG;
			vlen = get_le64(data + at);
			at += 8;
			if (vlen > len - at || len - at - vlen < 1 || data[at + vlen] != '\n')
				return -EBADMSG;
			memcpy(dst, data + at - 9 - name, name);
			dst[name] = '=';
			memcpy(dst + name + 1, data + at, vlen);
			iov[n++] = (struct iovec) { .iov_base = dst, .iov_len = name + 1 + vlen };
			scratch_used += name + 1 + vlen;
			at += vlen + 1;
		}
	}
	/* An entry without its closing empty line was cut short (a crash mid-append). */
	return n > 0 ? -EBADMSG : (int) len;
}
