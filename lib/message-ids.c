/* SPDX-License-Identifier: MIT */
#include "decode.h"
#include "message-ids.h"

static const char *const severity_msgids[_MCE_SEV_MAX] = {
	[MCE_SEV_CORRECTED]   = MCELOGD_MSGID_CORRECTED,
	[MCE_SEV_DEFERRED]    = MCELOGD_MSGID_DEFERRED,
	[MCE_SEV_UNCORRECTED] = MCELOGD_MSGID_UNCORRECTED,
	[MCE_SEV_FATAL]       = MCELOGD_MSGID_FATAL,
};

const char *severity_message_id(enum mce_severity s)
{
	/* An impossible severity is logged as uncorrected: never as harmless. */
	if ((unsigned) s >= _MCE_SEV_MAX)
		return MCELOGD_MSGID_UNCORRECTED;
	return severity_msgids[s];
}
