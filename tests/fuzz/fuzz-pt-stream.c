/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: any bytes through `mcectl pt`'s reading: the snapshot
 * header (lib/pt-file.c) and the PT stream summary (lib/pt-decode.c,
 * libipt's packet decoder plus our IP reconstruction), and the recorder's
 * first-TSC shortcut against it.
 * fuzz-link: lib/pt-decode.c -lipt
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pt-decode.h"
#include "pt-file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void summarize(const uint8_t *buf, size_t size)
{
	struct pt_summary s;
	const struct pt_ip_event *ip;

	if (pt_summarize(buf, size, &s) < 0)
		abort();
	/* every event lies inside the stream, in stream order */
	ip = s.ips.v;
	for (size_t i = 0; i < s.ips.n; i++)
		if (ip[i].offset >= size || (i > 0 && ip[i].offset <= ip[i - 1].offset))
			__builtin_trap();
	for (size_t i = 0; i < s.n_errors; i++)
		if (s.errors[i].offset > size)
			__builtin_trap();
	if (s.n_errors > PT_ERRORS_MAX || s.bytes != size)
		__builtin_trap();
	/* the recorder's shortcut finds the same first TSC when the stream is clean */
	uint64_t tsc;
	int r = pt_first_tsc(buf, size, &tsc);
	if (s.n_errors == 0 && s.have_tsc && (r < 0 || tsc != s.tsc_first))
		__builtin_trap();
	pt_summary_done(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exact-size copy: a read past the end is caught by ASan. */
	uint8_t *buf = malloc(size ? size : 1);
	struct pt_file_info info;
	size_t off = 0;
	const char *error;
	int r;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	summarize(buf, size);
	r = pt_file_parse(buf, size, &info, &off, &error);
	if (r == 0 || r == -EPIPE) {
		if (off > size || info.trace_bytes > size - off || !error != (r == 0))
			__builtin_trap();
		summarize(buf + off, info.trace_bytes);
	} else if (!error) {
		__builtin_trap();
	}
	free(buf);
	return 0;
}
