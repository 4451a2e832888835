/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Memory coming online in this boot, followed through the kernel's uevents:
 * a follower of the uevent listener (mcelogd/uevent-listener.h).  CXL
 * regions, and the memory blocks of them, are often made after mcelogd
 * starts (cxl-cli or udev at boot, an operator later), so a known-bad page
 * on them was held at start for memory that was not there yet
 * (page-memory-check.h).  Each burst of memory uevents (a region going
 * online adds and onlines one memory block per block_size_bytes) ends in
 * one call of retry(), once the burst has been quiet for a second, or ten
 * seconds after it began if it never is; lost uevents count as one.
 */

#include <stdint.h>
#include <systemd/sd-event.h>

struct memory_online;
struct uevent;

/* cause: what set it off, for the log ("memory42 online and 37 more uevents"). */
typedef void (*memory_online_retry_t)(void *userdata, const char *cause);

/* 0, or a negative errno (logged): memory coming online is then not followed. */
int memory_online_new(sd_event *event, memory_online_retry_t retry, void *userdata, struct memory_online **ret);
struct memory_online *memory_online_free(struct memory_online *o);

/* The follower's two calls (struct uevent_follower), userdata the struct memory_online. */
void memory_online_uevent(void *userdata, const struct uevent *u);
void memory_online_lost(void *userdata);

struct memory_online_counts {
	uint64_t events;     /* memory uevents seen */
	uint64_t bursts;     /* retries they set off, one per burst */
};
void memory_online_get_counts(const struct memory_online *o, struct memory_online_counts *ret);
