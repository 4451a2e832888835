/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The kernel's uevents (NETLINK_KOBJECT_UEVENT, group 1), read on one
 * socket for everything in the daemon that follows them.  Each follower is
 * one row of the table given at open (CPU hotplug, memory coming online),
 * and is handed every well-formed kernel uevent (kernel-abi/uevent.h) to
 * pick its own from.  Only the kernel speaks there: a message from any
 * other port (a local process posing as the kernel, or udev's re-broadcast)
 * is dropped and counted.  When events were lost (the receive queue
 * overflowed), what is still queued is dropped and each follower's lost()
 * reads afresh what it follows.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-event.h>

struct uevent;
struct uevent_listener;

struct uevent_follower {
	const char *name;                                      /* for the log */
	void (*event)(void *userdata, const struct uevent *u);
	void (*lost)(void *userdata);                          /* events were lost */
	void *userdata;
};

#define UEVENT_FOLLOWERS_MAX 4

/*
 * Opens the socket and adds it to event.  any_sender: a test's stand-in
 * sysfs (--sysfs-memory) is what the followers read, so a local process may
 * stand in for the kernel; never so otherwise.  On failure logs why (nothing
 * is then followed) and returns a negative errno.
 */
int uevent_listener_open(sd_event *event, const struct uevent_follower *followers, size_t n, bool any_sender,
			 struct uevent_listener **ret);
struct uevent_listener *uevent_listener_free(struct uevent_listener *l);

struct uevent_listener_counts {
	uint64_t foreign;    /* messages not from the kernel (a local process forging them), dropped */
	uint64_t overruns;   /* times events were lost and the followers read afresh */
};
void uevent_listener_get_counts(const struct uevent_listener *l, struct uevent_listener_counts *ret);
