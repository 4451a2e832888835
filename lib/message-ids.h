/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * journald MESSAGE_IDs, one per record class (never per error code).  Fixed
 * forever: log pipelines and alerts match on them.  Each has an entry in
 * config/mcelogd.catalog; tests/unit/test-catalog checks that they agree.
 */

#define MCELOGD_MSGID_CORRECTED   "d90772f9176e45e88ae80c46f01c0915"
#define MCELOGD_MSGID_DEFERRED    "aa342ccf21574871922871263c767d1c"
#define MCELOGD_MSGID_UNCORRECTED "5987c93aca024e54b54a11caec7a116b"
#define MCELOGD_MSGID_FATAL       "fd6bd0d477884d02a89dcb47f4c8c599"
/* Records the kernel reported lost (perf PERF_RECORD_LOST, /dev/mcelog overflow). */
#define MCELOGD_MSGID_LOST        "457a72be995b4ca096a9d0285d16170a"
/* Reserved for storm summaries and storm ends. */
#define MCELOGD_MSGID_STORM       "70d655c9451c48899d92ec9f35850b1a"
#define MCELOGD_MSGID_STORM_END   "412a1d8e9e1f49c6bcf0a213ecde63bc"

/* The record class of a severity, shared by the journal sink and mcectl query. */
enum mce_severity;
const char *severity_message_id(enum mce_severity s);

/* The ids whose entries carry a full machine-check record in MCE_JSON. */
#define MCELOGD_RECORD_MSGIDS \
	MCELOGD_MSGID_CORRECTED, MCELOGD_MSGID_DEFERRED, MCELOGD_MSGID_UNCORRECTED, MCELOGD_MSGID_FATAL

/* The process name journald records as _COMM for our entries. */
#define MCELOGD_COMM "mcelogd"
