/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * CPU hotplug, followed through the kernel's uevents: a follower of the
 * uevent listener (mcelogd/uevent-listener.h).  Every CPU that goes online
 * or offline is handed to the handler's changed(); when events were lost
 * (the socket's queue overflowed), and after a resume from suspend (which
 * takes CPUs down and up without a uevent), the online set is re-read and
 * handed to its resync().
 */

#include <stdbool.h>
#include <stddef.h>
#include <systemd/sd-event.h>

struct cpu_hotplug;
struct uevent;

/* What a hotplug event is handed to (the manager, which hands it to every per-CPU source). */
struct cpu_hotplug_handler {
	void (*changed)(void *userdata, unsigned cpu, bool online);
	/* After lost events: the whole online set. */
	void (*resync)(void *userdata, const bool *online, size_t n_online);
	void *userdata;
};

/* Starts watching for resumes from suspend on event.  0, or -ENOMEM (logged). */
int cpu_hotplug_new(sd_event *event, const struct cpu_hotplug_handler *handler, struct cpu_hotplug **ret);
struct cpu_hotplug *cpu_hotplug_free(struct cpu_hotplug *h);

/* The follower's two calls (struct uevent_follower), userdata the struct cpu_hotplug. */
void cpu_hotplug_uevent(void *userdata, const struct uevent *u);
void cpu_hotplug_lost(void *userdata);

struct cpu_hotplug_counts {
	uint64_t events;     /* CPU online/offline events acted on */
	uint64_t resumes;    /* resumes from suspend, after which every CPU was read afresh */
};
void cpu_hotplug_get_counts(const struct cpu_hotplug *h, struct cpu_hotplug_counts *ret);
