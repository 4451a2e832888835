/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include "control-request.h"
#include "parse-number.h"

#define FORGET_PAGE "forget-page "

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
	if (line > strlen(FORGET_PAGE) && memcmp(buf, FORGET_PAGE, strlen(FORGET_PAGE)) == 0) {
		uint64_t pfn;

		if (control_request_page(buf, line, &pfn) < 0) {
			*answer = "{\"error\":\"forget-page: expected a page frame number 0x... below 2^52\"}";
			return CONTROL_REQUEST_BAD;
		}
		return CONTROL_REQUEST_FORGET_PAGE;
	}
	*answer = "{\"error\":\"unknown request, expected 'status', 'metrics' or 'forget-page 0xPFN'\"}";
	return CONTROL_REQUEST_UNKNOWN;
}

int control_request_page(const char *buf, size_t len, uint64_t *ret_pfn)
{
	const char *p = buf + strlen(FORGET_PAGE);
	size_t n;

	for (n = 0; n < len && buf[n] != '\r' && buf[n] != '\n'; n++)
		;
	if (n < strlen(FORGET_PAGE) + 3 || memcmp(buf, FORGET_PAGE, strlen(FORGET_PAGE)) != 0 || p[0] != '0' ||
	    p[1] != 'x')
		return -EINVAL;
	return parse_unsigned(p + 2, n - strlen(FORGET_PAGE) - 2, 16, (UINT64_C(1) << 52) - 1, ret_pfn) < 0 ?
	       -EINVAL : 0;
}
