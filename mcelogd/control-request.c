/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "control-request.h"

enum control_request control_request_parse(const char *buf, size_t len, bool complete,
					   const char **answer)
{
	size_t line = len;

	*answer = NULL;
	if (!complete) {
		*answer = "{\"error\":\"request too long: expected one line of at most 255 bytes\"}";
		return CONTROL_REQUEST_BAD;
	}
	/* Up to the first newline only: what follows it is never read as a request. */
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char) buf[i];

		if (ch == '\n')
			break;
		if ((ch < 0x20 && ch != '\r' && ch != '\t') || ch >= 0x7f) {
			*answer = "{\"error\":\"request is not text: expected the line 'status'\"}";
			return CONTROL_REQUEST_BAD;
		}
	}
	for (size_t i = 0; i < len; i++)
		if (buf[i] == '\r' || buf[i] == '\n') {
			line = i;
			break;
		}
	if (line == strlen("status") && memcmp(buf, "status", line) == 0)
		return CONTROL_REQUEST_STATUS;
	if (line == strlen("metrics") && memcmp(buf, "metrics", line) == 0)
		return CONTROL_REQUEST_METRICS;
	*answer = "{\"error\":\"unknown request, expected 'status' or 'metrics'\"}";
	return CONTROL_REQUEST_UNKNOWN;
}
