/* SPDX-License-Identifier: MIT */
#include "decode.h"
#include "message-ids.h"
#include "ras-record.h"

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

static const char *const ras_event_msgids[_RAS_EVENT_MAX] = {
	[RAS_EVENT_MEMORY_CONTROLLER] = MCELOGD_MSGID_MEMORY_CONTROLLER,
	[RAS_EVENT_PCIE_AER]          = MCELOGD_MSGID_PCIE_AER,
	[RAS_EVENT_MEMORY_FAILURE]    = MCELOGD_MSGID_MEMORY_FAILURE,
	[RAS_EVENT_FIRMWARE_MEMORY]   = MCELOGD_MSGID_FIRMWARE_MEMORY,
	[RAS_EVENT_ARM_PROCESSOR]     = MCELOGD_MSGID_ARM_PROCESSOR,
	[RAS_EVENT_VENDOR_SECTION]    = MCELOGD_MSGID_VENDOR_SECTION,
	[RAS_EVENT_X86_PROCESSOR]     = MCELOGD_MSGID_X86_PROCESSOR,
	[RAS_EVENT_CXL_GENERAL_MEDIA] = MCELOGD_MSGID_CXL_GENERAL_MEDIA,
	[RAS_EVENT_CXL_DRAM] = MCELOGD_MSGID_CXL_DRAM,
	[RAS_EVENT_CXL_MEMORY_MODULE] = MCELOGD_MSGID_CXL_MEMORY_MODULE,
	[RAS_EVENT_CXL_POISON] = MCELOGD_MSGID_CXL_POISON,
	[RAS_EVENT_CXL_AER] = MCELOGD_MSGID_CXL_AER,
	[RAS_EVENT_CXL_OVERFLOW] = MCELOGD_MSGID_CXL_OVERFLOW,
	[RAS_EVENT_CXL_GENERIC] = MCELOGD_MSGID_CXL_GENERIC,
	[RAS_EVENT_PCI_HOTPLUG] = MCELOGD_MSGID_PCI_HOTPLUG,
	[RAS_EVENT_PCIE_LINK] = MCELOGD_MSGID_PCIE_LINK,
};

const char *ras_event_message_id(enum ras_event e)
{
	/* Not reachable with a valid record; keep such an entry findable as an error. */
	if ((unsigned) e >= _RAS_EVENT_MAX)
		return MCELOGD_MSGID_VENDOR_SECTION;
	return ras_event_msgids[e];
}
