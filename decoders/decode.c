/* SPDX-License-Identifier: MIT */
/*
 * PLACEHOLDER until the table-driven decoder lands (issue 3): only the
 * severity from the architectural UC/PCC/deferred bits, so the daemon path
 * can be built and tested end to end.  Replaced wholesale by decoders/.
 */
#include <stdio.h>
#include <string.h>

#include "decode.h"
#include "json-writer.h"

static const char *const severity_names[_MCE_SEV_MAX] = {
	[MCE_SEV_CORRECTED]   = "corrected",
	[MCE_SEV_DEFERRED]    = "deferred",
	[MCE_SEV_UNCORRECTED] = "uncorrected",
	[MCE_SEV_FATAL]       = "fatal",
};

const char *mce_severity_to_string(enum mce_severity s)
{
	if ((unsigned) s >= _MCE_SEV_MAX)
		return "unknown";
	return severity_names[s];
}

enum mce_severity mce_severity_from_string(const char *s)
{
	for (int i = 0; i < _MCE_SEV_MAX; i++)
		if (strcmp(s, severity_names[i]) == 0)
			return (enum mce_severity) i;
	return _MCE_SEV_INVALID;
}

void mce_decode(const struct mce_record *rec, struct mce_decoded *d)
{
	*d = (struct mce_decoded) { .channel = -1, .timeout = -1, .dimm = -1, .rank = -1,
				    .chip_select = -1 };
	if (rec->status & (1ull << 57))
		d->severity = MCE_SEV_FATAL;
	else if (rec->status & (1ull << 61))
		d->severity = MCE_SEV_UNCORRECTED;
	else
		d->severity = MCE_SEV_CORRECTED;
}

void mce_decoded_write_json(const struct mce_decoded *d, struct json_writer *w)
{
	json_put_string(w, "severity", mce_severity_to_string(d->severity));
}

int mce_decoded_summary(const struct mce_decoded *d, char *buf, size_t size)
{
	return snprintf(buf, size, "%s error", mce_severity_to_string(d->severity));
}
