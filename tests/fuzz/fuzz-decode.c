/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: mce_decode() on raw records built straight from the
 * input bytes, so every vendor/family/model/bank/register combination is
 * reachable without going through a text form.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "decode.h"
#include "json-writer.h"
#include "record-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct json_writer writer;

static uint64_t take(const uint8_t **p, const uint8_t *end, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n && *p < end; i++, (*p)++)
		v |= (uint64_t) **p << (8 * i);
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	struct mce_record r = { 0 };
	struct mce_decoded d;
	char buf[512];

	r.have = (uint32_t) take(&p, end, 4);
	r.vendor = (enum mce_vendor) (take(&p, end, 1) % _MCE_VENDOR_MAX);
	r.family = (uint32_t) take(&p, end, 1);
	r.model = (uint32_t) take(&p, end, 1);
	r.stepping = (uint32_t) take(&p, end, 1) & 0xf;
	r.cpu = (uint32_t) take(&p, end, 2);
	r.bank = (uint32_t) take(&p, end, 1);
	r.status = take(&p, end, 8);
	r.mcgstatus = take(&p, end, 8);
	r.ipid = take(&p, end, 8);
	r.misc = take(&p, end, 8);
	r.addr = take(&p, end, 8);
	r.synd = take(&p, end, 8);
	r.mcgcap = take(&p, end, 8);
	r.time_usec = (int64_t) take(&p, end, 8);

	mce_decode(&r, &d);
	if ((unsigned) d.severity >= _MCE_SEV_MAX || d.n_flags > MCE_MAX_FLAGS ||
	    d.n_details > MCE_MAX_DETAILS)
		__builtin_trap();
	(void) mce_decoded_summary(&d, buf, sizeof(buf));
	json_writer_reset(&writer);
	mce_record_write_json(&r, &d, &writer);
	return 0;
}
