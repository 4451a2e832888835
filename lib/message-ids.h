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
/* Corrected-error storm summaries and storm ends (mcelogd/storm-stage.c, mcelogd(8) STORMS). */
#define MCELOGD_MSGID_STORM       "70d655c9451c48899d92ec9f35850b1a"
#define MCELOGD_MSGID_STORM_END   "412a1d8e9e1f49c6bcf0a213ecde63bc"
/* A rule fired, or an action it asked for failed (mcelogd.rules(5)). */
#define MCELOGD_MSGID_ALERT       "1e3c932c671440228003859c8f4cb79a"
/* A memory repair a rule asked for (Action=repair): done, refused or failed (mcelogd.rules(5)). */
#define MCELOGD_MSGID_REPAIR      "1fb334d3b729412685fe1f014c5c10b7"
/* A memory module's verdict changed (mcelogd(8), MODULE LEDGER): ok, watch, isolating, ... replace. */
#define MCELOGD_MSGID_MODULE_VERDICT "6ed309d624a242e48369d2fb116574d1"

/* Errors that are not x86 MCA bank records (struct ras_record), one class per kind. */
#define MCELOGD_MSGID_MEMORY_CONTROLLER "663edcec58f84882a66eb4dccf2dd269"
#define MCELOGD_MSGID_PCIE_AER          "c70aaabf2a2d4b15b153f750edf0502d"
#define MCELOGD_MSGID_MEMORY_FAILURE    "aa001d58f52e4e5ebb0f2176f6d64a39"
#define MCELOGD_MSGID_FIRMWARE_MEMORY   "66a3eae8dc51423980bce7e0d7b862db"
#define MCELOGD_MSGID_ARM_PROCESSOR     "6ab50b6b05b84de5a26a0ae4bde52369"
#define MCELOGD_MSGID_VENDOR_SECTION    "8bcb72dce4af49f1847b4110398a05e4"
#define MCELOGD_MSGID_X86_PROCESSOR     "02c41c8f85a94d2da30786fc542f0d54"
/* The kernel's cxl:* events, one class per CXL record kind. */
#define MCELOGD_MSGID_CXL_GENERAL_MEDIA       "5fba1c9462d842cb8e759e4eb8d915aa"
#define MCELOGD_MSGID_CXL_DRAM                "13a6fd1246ef4cab92f2bd09e10dda57"
#define MCELOGD_MSGID_CXL_MEMORY_MODULE       "2ec5907fbb4b4387b9135be6ad4938a1"
#define MCELOGD_MSGID_CXL_POISON              "74b3f60f2ea243cb9489fb112861c312"
#define MCELOGD_MSGID_CXL_AER                 "2efa2d53afb7476883dffd185b1ebfc8"
#define MCELOGD_MSGID_CXL_OVERFLOW            "aac7495557114a90a0c00f4c30b2a2a5"
#define MCELOGD_MSGID_CXL_GENERIC             "7c11497348c843fbb16dd38e5d4c1523"
/* The kernel's pci:* events: a hotplug slot's changes, a PCIe link's (re)training. */
#define MCELOGD_MSGID_PCI_HOTPLUG             "f0b1e4ee675948f79f1ce4c60515fbdd"
#define MCELOGD_MSGID_CXL_MEMORY_SPARING      "a7db221323b840b3918c6b81d9ba9362"
#define MCELOGD_MSGID_PCIE_LINK               "ac56d7120cb54bff9694695a6dcd6944"
/* The kernel's devlink health events: a device fault a driver reported, a recovery not tried. */
#define MCELOGD_MSGID_DEVLINK_HEALTH          "472ae510368449a993531c48619cb8f9"
#define MCELOGD_MSGID_DEVLINK_RECOVER_ABORTED "d78dd4c449fe4d549edcf90cf1a0aab2"
/* A process sent SIGBUS for a memory error; a failed disk request. */
#define MCELOGD_MSGID_SIGBUS                  "84b326d490cd4ec1be9b8486aefdf379"
#define MCELOGD_MSGID_DISK_ERROR              "3bc9d6d370a8470cab2446f155150a82"

/* The ids whose entries carry a struct ras_record in MCE_JSON. */
#define MCELOGD_RAS_MSGIDS \
	MCELOGD_MSGID_MEMORY_CONTROLLER, MCELOGD_MSGID_PCIE_AER, MCELOGD_MSGID_MEMORY_FAILURE, \
	MCELOGD_MSGID_FIRMWARE_MEMORY, MCELOGD_MSGID_ARM_PROCESSOR, MCELOGD_MSGID_VENDOR_SECTION, \
	MCELOGD_MSGID_X86_PROCESSOR, \
	MCELOGD_MSGID_CXL_GENERAL_MEDIA, MCELOGD_MSGID_CXL_DRAM, MCELOGD_MSGID_CXL_MEMORY_MODULE, \
	MCELOGD_MSGID_CXL_POISON, MCELOGD_MSGID_CXL_AER, MCELOGD_MSGID_CXL_OVERFLOW, MCELOGD_MSGID_CXL_GENERIC, \
	MCELOGD_MSGID_CXL_MEMORY_SPARING, \
	MCELOGD_MSGID_PCI_HOTPLUG, MCELOGD_MSGID_PCIE_LINK, \
	MCELOGD_MSGID_DEVLINK_HEALTH, MCELOGD_MSGID_DEVLINK_RECOVER_ABORTED, \
	MCELOGD_MSGID_SIGBUS, MCELOGD_MSGID_DISK_ERROR

/* The record class of a severity, shared by the journal sink and mcectl query. */
enum mce_severity;
const char *severity_message_id(enum mce_severity s);

enum ras_event;
const char *ras_event_message_id(enum ras_event e);

/* The ids whose entries carry a full machine-check record in MCE_JSON. */
#define MCELOGD_RECORD_MSGIDS \
	MCELOGD_MSGID_CORRECTED, MCELOGD_MSGID_DEFERRED, MCELOGD_MSGID_UNCORRECTED, MCELOGD_MSGID_FATAL

/* The process name journald records as _COMM for our entries. */
#define MCELOGD_COMM "mcelogd"
