/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: mce_record_parse_json() then mce_decode() on whatever
 * it accepts, and a round-trip property: what we write, we read back as
 * the same raw record.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "decode.h"
#include "json-writer.h"
#include "record-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct json_writer writer;

static int same(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mce_record r, back;
	struct mce_decoded d;
	char err[256], buf[256];
	uint32_t keep;

	if (mce_record_parse_json((const char *) data, size, &r, err, sizeof(err)) < 0) {
		if (strnlen(err, sizeof(err)) == sizeof(err))
			__builtin_trap();       /* the message must be terminated */
		return 0;
	}
	mce_decode(&r, &d);
	(void) mce_decoded_summary(&d, buf, sizeof(buf));

	json_writer_reset(&writer);
	mce_record_write_json(&r, &d, &writer);
	if (json_writer_failed(&writer))
		return 0;
	if (mce_record_parse_json(writer.buf, writer.len, &back, err, sizeof(err)) < 0)
		__builtin_trap();               /* our own output must be readable */

	/* an "unknown" vendor is written as no vendor at all */
	keep = ~0u;
	if (r.vendor == MCE_VENDOR_UNKNOWN)
		keep &= ~(uint32_t) MCE_HAVE_VENDOR;
	if ((r.have & keep) != (back.have & keep) || r.status != back.status ||
	    ((r.have & MCE_HAVE_ADDR) && r.addr != back.addr) ||
	    ((r.have & MCE_HAVE_IPID) && r.ipid != back.ipid) ||
	    ((r.have & MCE_HAVE_CPU) && r.cpu != back.cpu) ||
	    ((r.have & MCE_HAVE_BANK) && r.bank != back.bank) ||
	    ((r.have & MCE_HAVE_CPUID) && (r.family != back.family || r.model != back.model)) ||
	    ((r.have & MCE_HAVE_TIME) && r.time_usec != back.time_usec) ||
	    ((r.have & MCE_HAVE_BANK_NAME) && strcmp(r.bank_name, back.bank_name) != 0))
		__builtin_trap();

	/* the bank a text named decodes the same from our JSON */
	{
		struct mce_decoded again;

		mce_decode(&back, &again);
		if (!same(again.bank_type, d.bank_type) || !same(again.bank_name, d.bank_name) ||
		    !same(again.description, d.description))
			__builtin_trap();
	}
	return 0;
}
