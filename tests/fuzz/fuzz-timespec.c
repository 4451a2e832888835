/* SPDX-License-Identifier: MIT */
/* libFuzzer target: parse_time_spec() and parse_time_span() on any string. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "timespec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char buf[256];
	int64_t v;

	if (size >= sizeof(buf))
		size = sizeof(buf) - 1;
	memcpy(buf, data, size);
	buf[size] = '\0';
	(void) parse_time_spec(buf, INT64_C(1795188645) * 1000000, &v);
	(void) parse_time_span(buf, &v);
	/* extremes of "now" must not overflow either */
	(void) parse_time_spec(buf, INT64_MAX, &v);
	(void) parse_time_spec(buf, INT64_MIN, &v);
	return 0;
}
