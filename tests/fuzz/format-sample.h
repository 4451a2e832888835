/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The input of the targets that read a tracepoint the way the tracepoint
 * source does (a tracefs format file once, then raw samples against it):
 * the format's text, a NUL byte, the sample's bytes (no NUL: no sample).
 * Each part is copied into a buffer of exactly its size, so that a read past
 * the end of either is caught by ASan instead of landing in the other.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct format_sample {
	char *text;
	size_t text_len;
	unsigned char *raw;
	size_t raw_size;
};

static inline void *fuzz_copy(const void *p, size_t n)
{
	void *q = malloc(n ? n : 1);

	if (!q)
		abort();
	if (n)
		memcpy(q, p, n);
	return q;
}

static inline void format_sample_split(const uint8_t *data, size_t size, struct format_sample *ret)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t text_len = nul ? (size_t) (nul - data) : size;
	size_t raw_size = nul ? size - text_len - 1 : 0;

	*ret = (struct format_sample) {
		.text = fuzz_copy(data, text_len),
		.text_len = text_len,
		.raw = fuzz_copy(data + size - raw_size, raw_size),
		.raw_size = raw_size,
	};
}

static inline void format_sample_done(struct format_sample *s)
{
	free(s->text);
	free(s->raw);
}
