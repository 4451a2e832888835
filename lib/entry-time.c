/* SPDX-License-Identifier: MIT */
#include <stdint.h>

#include "entry-time.h"
#include "parse-number.h"

int64_t entry_time_of(const char *value, size_t len, uint64_t arrival_usec)
{
	uint64_t t;

	if (value && len > 0 && parse_unsigned(value, len, 10, INT64_MAX, &t) >= 0 && t > 0)
		return (int64_t) t;
	return arrival_usec > INT64_MAX ? INT64_MAX : (int64_t) arrival_usec;
}
