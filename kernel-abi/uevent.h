/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Kernel uevent messages, as the kernel multicasts them on
 * NETLINK_KOBJECT_UEVENT group 1 (Documentation/ABI/testing/sysfs-uevent,
 * lib/kobject_uevent.c): a header "ACTION@DEVPATH" and then "KEY=value"
 * strings, each NUL-terminated, no netlink header.  Pure: the socket is in
 * mcelogd/sources/cpu-hotplug.c.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct uevent {
	/* Point into the parsed buffer: valid while it is. */
	const char *action;      /* ACTION=, same as the header's */
	const char *devpath;     /* DEVPATH=, same as the header's */
	const char *subsystem;   /* SUBSYSTEM= */
	uint64_t seqnum;         /* SEQNUM=, 0 when absent */
	bool synthetic;          /* SYNTH_UUID= present: replayed on request through a sysfs
				  * "uevent" file (kobject_synth_uevent), not a change of state */
};

/*
 * Parses a whole message of len bytes.  Returns 0, or -EBADMSG for anything
 * that is not a well-formed kernel uevent: empty, a string not
 * NUL-terminated within len (truncated), no '@' in the header, a string
 * without '=', ACTION/DEVPATH/SUBSYSTEM missing or repeated, or header and
 * keys that disagree.  *ret is only written on success.
 */
int uevent_parse(const void *buf, size_t len, struct uevent *ret);

enum cpu_event {
	CPU_EVENT_ONLINE,   /* "online": the CPU runs again */
	CPU_EVENT_OFFLINE,  /* "offline": the CPU was taken down */
	CPU_EVENT_ADD,      /* "add": a CPU device appeared (boot or physical hot-add), offline or online */
	CPU_EVENT_REMOVE,   /* "remove": a CPU device went away (physical hot-remove) */
	_CPU_EVENT_MAX,
};

/*
 * Is u about a logical CPU ("/devices/system/cpu/cpuN", SUBSYSTEM=cpu, one
 * of the actions above)?  Returns 0 with the CPU number and event, or
 * -ENOENT for any other uevent (other devices, other actions such as
 * "change").  cpu numbers at or above max give -ERANGE.
 */
int uevent_cpu_event(const struct uevent *u, unsigned max, unsigned *ret_cpu,
		     enum cpu_event *ret_event);

const char *cpu_event_to_string(enum cpu_event e);

/*
 * Does u say that memory may have come online, so that a known-bad page
 * whose memory was not there may now be (mcelogd/memory-online.c)?
 *   - a memory block added or onlined: SUBSYSTEM=memory,
 *     "/devices/system/memory/memoryN", "add" when the block is registered
 *     (drivers/base/memory.c), "online" from device_online()
 *     (drivers/base/core.c) when it goes online;
 *   - a CXL region or memory device added, or bound to its driver:
 *     SUBSYSTEM=cxl, ".../regionN" or ".../memN", "add" when made
 *     (drivers/cxl/core/region.c, memdev.c), "bind" when the region driver
 *     takes a committed region (committing itself sends no uevent).
 * Synthetic ones too: what follows is only a look at sysfs.  On true,
 * *ret_name points at the device's name in u->devpath.
 */
bool uevent_memory_may_be_online(const struct uevent *u, const char **ret_name);
