/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the control socket's request line
 * (mcelogd/control-request.c), which any local client allowed to connect
 * may fill with any bytes.  Whatever they are: every refusal is an answer a
 * client can parse (one JSON object with an "error" string), only the first
 * line decides (bytes after the newline never change the verdict), and
 * "status" or "metrics" are recognised only when that line says exactly so
 * (and a line that says so is refused only for bytes that are not text).
 * fuzz-link: mcelogd/control-request.c
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "control-request.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_answer(const char *answer)
{
	json_object *o = json_tokener_parse(answer), *e;

	if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, "error", &e) ||
	    !json_object_is_type(e, json_type_string) || strchr(answer, '\n'))
		abort();
	json_object_put(o);
}

/* Whether buf[0..len) starts with word, then ends or goes on with '\r' or '\n'. */
static bool says(const char *buf, size_t len, const char *word)
{
	size_t n = strlen(word);

	return len >= n && memcmp(buf, word, n) == 0 && (len == n || buf[n] == '\r' || buf[n] == '\n');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *) data;
	const char *answer, *answer2;
	enum control_request r, r2;
	const char *nl;

	if (control_request_parse(buf, size, false, &answer) != CONTROL_REQUEST_BAD || !answer)
		abort();
	check_answer(answer);

	r = control_request_parse(buf, size, true, &answer);
	switch (r) {
	case CONTROL_REQUEST_STATUS:
	case CONTROL_REQUEST_METRICS:
		if (answer || !says(buf, size, r == CONTROL_REQUEST_STATUS ? "status" : "metrics"))
			abort();
		break;
	case CONTROL_REQUEST_UNKNOWN:
	case CONTROL_REQUEST_BAD:
		/* "status\r" and then bytes that are not text, before the newline: refused as not text. */
		if (!answer || ((says(buf, size, "status") || says(buf, size, "metrics")) &&
				r != CONTROL_REQUEST_BAD))
			abort();
		check_answer(answer);
		break;
	default:
		abort();
	}

	/* Cut after the first newline: the same verdict, and the same answer. */
	nl = memchr(buf, '\n', size);
	if (nl) {
		r2 = control_request_parse(buf, (size_t) (nl - buf) + 1, true, &answer2);
		if (r2 != r || answer2 != answer)
			abort();
	}
	return 0;
}
