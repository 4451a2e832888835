/* SPDX-License-Identifier: MIT */
/* libFuzzer target: a boot error region (any bytes) through the CPER parser, and
 * every record it yields through the decoder and the JSON writer, as the daemon does. */
#include <stddef.h>
#include <stdint.h>

#include "cper.h"
#include "decode.h"
#include "json-writer.h"
#include "ras-record.h"
#include "record-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void on_mce(struct mce_record *rec, void *userdata)
{
	struct mce_decoded d;

	mce_decode(rec, &d);
	json_writer_reset(userdata);
	mce_record_write_json(rec, &d, userdata);
}

static void on_ras(struct ras_record *rec, void *userdata)
{
	json_writer_reset(userdata);
	ras_record_write_json(rec, userdata);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_writer w;
	const struct cper_sink sink = { .mce = on_mce, .ras = on_ras, .userdata = &w };

	json_writer_init(&w);
	(void) cper_parse_error_region(data, size, MCE_SOURCE_PREVIOUS_BOOT, &sink);
	json_writer_done(&w);
	return 0;
}
