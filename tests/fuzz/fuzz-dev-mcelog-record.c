/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: a legacy /dev/mcelog record of any length (the device
 * reports its own record length) through dev_mcelog_record_parse(), and the
 * record through the decoder and the JSON writer as the daemon does.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "dev-mcelog-record.h"
#include "json-writer.h"
#include "record-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct json_writer writer;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mce_record r;
	struct mce_decoded d;
	char buf[512];

	if (dev_mcelog_record_parse(data, size, &r) < 0) {
		if (size >= DEV_MCELOG_RECORD_MIN)
			__builtin_trap();       /* only a record too short is refused */
		return 0;
	}
	mce_decode(&r, &d);
	(void) mce_decoded_summary(&d, buf, sizeof(buf));
	json_writer_reset(&writer);
	mce_record_write_json(&r, &d, &writer);
	return 0;
}
