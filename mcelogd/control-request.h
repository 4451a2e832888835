/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * What a control socket client asked for (mcelogd/control.c): one short line
 * of text, "status", "metrics" or "forget-page 0xPFN", ended by a newline or
 * by the client closing its side.  Pure, so that any bytes a client can send are fuzzed without a
 * socket (tests/fuzz/fuzz-control-request.c).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum control_request {
	CONTROL_REQUEST_STATUS,
	CONTROL_REQUEST_METRICS,
	CONTROL_REQUEST_FORGET_PAGE, /* "forget-page 0xPFN": root only, checked by the caller */
	CONTROL_REQUEST_UNKNOWN,     /* text, but no request we know */
	CONTROL_REQUEST_BAD,         /* too long, or not text */
};

/*
 * Reads the request in buf[0..len): only its first line counts, up to '\r'
 * or '\n'.  complete is false when the client sent more than a request can
 * be.  For UNKNOWN and BAD, *answer is the JSON object (without newline)
 * that tells the client what was wrong; otherwise NULL.
 */
enum control_request control_request_parse(const char *buf, size_t len, bool complete,
					   const char **answer);

/* The page frame of a "forget-page 0xPFN" request: 0, or -EINVAL (not hex, or at or past 2^52). */
int control_request_page(const char *buf, size_t len, uint64_t *ret_pfn);
