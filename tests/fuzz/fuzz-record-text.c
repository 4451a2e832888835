/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the text record parser, fed line by line as mcectl
 * decode and mcelogd --replay feed it, with every record decoded and
 * rendered so the whole path from text to JSON is exercised.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "decode.h"
#include "json-writer.h"
#include "record-json.h"
#include "record-text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct json_writer writer;

static int on_record(const struct mce_record *r, unsigned first, unsigned last, void *userdata)
{
	struct mce_decoded d;
	char buf[256];

	(void) userdata;
	if (first == 0 || first > last)
		__builtin_trap();      /* line numbers are 1-based and ordered */
	mce_decode(r, &d);
	json_writer_reset(&writer);
	mce_record_write_json(r, &d, &writer);
	(void) json_writer_str(&writer);
	(void) mce_decoded_summary(&d, buf, sizeof(buf));
	return 0;
}

static void on_diag(enum mce_text_diag kind, unsigned line, const char *msg, void *userdata)
{
	(void) kind;
	(void) userdata;
	if (line == 0 || !msg || strlen(msg) > 1024)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct mce_text_callbacks cb = { .record = on_record, .diagnostic = on_diag };
	struct mce_text_parser *p = mce_text_parser_new(&cb, NULL);
	const char *s = (const char *) data, *end = s + size;

	if (!p)
		return 0;
	/* the first byte picks whether a default CPU is set (mcectl decode --cpu-id) */
	if (size > 0 && (data[0] & 1))
		mce_text_parser_set_default_cpu(p, (enum mce_vendor) (data[0] >> 1) % _MCE_VENDOR_MAX,
						data[0], (uint32_t) size);
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t) (end - s));
		size_t len = nl ? (size_t) (nl - s) : (size_t) (end - s);

		if (mce_text_parser_feed(p, s, len) < 0)
			__builtin_trap();
		s += len + 1;
	}
	if (mce_text_parser_finish(p) < 0)
		__builtin_trap();
	mce_text_parser_free(p);
	return 0;
}
