/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: any bytes as a spool file (lib/journal-export.c), as a
 * damaged or hostile /var/lib/mcelogd/journal.spool would be read at start.
 * Every entry it accepts must encode again and decode to the same fields.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "journal-export.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct again {
	const struct iovec *iov;
	unsigned n;
};

static int same(const struct iovec *iov, unsigned n, void *userdata)
{
	const struct again *a = userdata;

	if (n != a->n)
		abort();
	for (unsigned i = 0; i < n; i++)
		if (iov[i].iov_len != a->iov[i].iov_len || memcmp(iov[i].iov_base, a->iov[i].iov_base, iov[i].iov_len))
			abort();
	return 0;
}

static int roundtrip(const struct iovec *iov, unsigned n, void *userdata)
{
	struct again a = { .iov = iov, .n = n };
	size_t need = journal_export_encode(iov, n, NULL, 0), used;
	uint8_t *buf = malloc(need);

	(void) userdata;
	if (!buf)
		abort();
	if (journal_export_encode(iov, n, buf, need) != need)
		abort();
	if (journal_export_decode(buf, need, same, &a, &used) < 0 || used != need)
		abort();
	free(buf);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly the input's size: a read past it is caught by ASan. */
	uint8_t *buf = malloc(size ? size : 1);
	size_t used = 0;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	(void) journal_export_decode(buf, size, roundtrip, NULL, &used);
	if (used > size)
		abort();
	free(buf);
	return 0;
}
