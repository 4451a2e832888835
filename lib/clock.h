/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Microseconds of the two clocks the programs read.  Only glue code reads a
 * clock: decoders and rules are handed their time.
 */

#include <stdint.h>
#include <time.h>

static inline uint64_t now_monotonic_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000 + (uint64_t) ts.tv_nsec / 1000;
}

static inline int64_t now_realtime_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
