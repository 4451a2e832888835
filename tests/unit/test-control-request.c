/* SPDX-License-Identifier: MIT */
/* The control socket's request line: what mcectl sends, what socat sends, and what nobody should. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "control-request.h"

static enum control_request parse(const char *buf, size_t len, const char **answer)
{
	return control_request_parse(buf, len, true, answer);
}

#define PARSE(lit, answer) parse(lit, sizeof(lit) - 1, answer)

static void test_known(void **state)
{
	const char *answer = "unset";

	(void) state;
	/* mcectl status and mcectl export write the word and a newline (mcectl/control-client.c). */
	assert_int_equal(PARSE("status\n", &answer), CONTROL_REQUEST_STATUS);
	assert_null(answer);
	assert_int_equal(PARSE("metrics\n", &answer), CONTROL_REQUEST_METRICS);
	assert_null(answer);
	/* printf status | socat: no newline before the client closes its side. */
	assert_int_equal(PARSE("status", &answer), CONTROL_REQUEST_STATUS);
	assert_int_equal(PARSE("status\r\n", &answer), CONTROL_REQUEST_STATUS);
	/* Only the first line counts. */
	assert_int_equal(PARSE("metrics\nstatus\n\xff", &answer), CONTROL_REQUEST_METRICS);
}

static void test_unknown(void **state)
{
	const char *answer = NULL;

	(void) state;
	assert_int_equal(PARSE("STATUS\n", &answer), CONTROL_REQUEST_UNKNOWN);
	assert_non_null(strstr(answer, "unknown request"));
	assert_int_equal(PARSE("status \n", &answer), CONTROL_REQUEST_UNKNOWN);
	assert_int_equal(PARSE("statu\n", &answer), CONTROL_REQUEST_UNKNOWN);
	assert_int_equal(PARSE("statuss", &answer), CONTROL_REQUEST_UNKNOWN);
	assert_int_equal(PARSE("\n", &answer), CONTROL_REQUEST_UNKNOWN);
	assert_int_equal(parse("", 0, &answer), CONTROL_REQUEST_UNKNOWN);
}

static void test_bad(void **state)
{
	const char *answer = NULL;

	(void) state;
	assert_int_equal(control_request_parse("status\n", 7, false, &answer), CONTROL_REQUEST_BAD);
	assert_non_null(strstr(answer, "too long"));
	assert_int_equal(PARSE("stat\0us\n", &answer), CONTROL_REQUEST_BAD);
	assert_non_null(strstr(answer, "not text"));
	assert_int_equal(PARSE("status\r\xff\n", &answer), CONTROL_REQUEST_BAD);
	assert_int_equal(PARSE("\x7fstatus\n", &answer), CONTROL_REQUEST_BAD);
	/* A tab is text: the request is then unknown, not binary. */
	assert_int_equal(PARSE("status\t\n", &answer), CONTROL_REQUEST_UNKNOWN);
}

/* mcectl pages --forget: the page frame, in hex, and nothing a request line could smuggle past it. */
static void test_forget_page(void **state)
{
	const char *answer = NULL;
	uint64_t pfn = 0;

	(void) state;
	assert_int_equal(PARSE("forget-page 0x1a2b\n", &answer), CONTROL_REQUEST_FORGET_PAGE);
	assert_int_equal(control_request_page("forget-page 0x1a2b\n", 19, &pfn), 0);
	assert_int_equal(pfn, 0x1a2b);
	assert_int_equal(PARSE("forget-page 0xfffffffffffff\n", &answer), CONTROL_REQUEST_FORGET_PAGE);
	/* 2^52 pages would wrap as an address. */
	assert_int_equal(PARSE("forget-page 0x10000000000000\n", &answer), CONTROL_REQUEST_BAD);
	assert_non_null(strstr(answer, "below 2^52"));
	assert_int_equal(PARSE("forget-page 1234\n", &answer), CONTROL_REQUEST_BAD);
	assert_int_equal(PARSE("forget-page 0x12 0x34\n", &answer), CONTROL_REQUEST_BAD);
	assert_int_equal(PARSE("forget-page 0x\n", &answer), CONTROL_REQUEST_BAD);
	assert_int_equal(control_request_page("status\n", 7, &pfn), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forget_page),
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
