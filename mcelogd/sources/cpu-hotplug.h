/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * CPU hotplug, followed through the kernel's uevents (NETLINK_KOBJECT_UEVENT,
 * group 1): every CPU that goes online or offline is handed to the
 * handler's changed(); when events were lost (the socket's queue
 * overflowed), and after a resume from suspend (which takes CPUs down and up
 * without a uevent), the online set is re-read and handed to its resync().
 */

#include <stdbool.h>
#include <stddef.h>
#include <systemd/sd-event.h>

struct cpu_hotplug;

/* What a hotplug event is handed to (the manager, which hands it to every per-CPU source). */
struct cpu_hotplug_handler {
	void (*changed)(void *userdata, unsigned cpu, bool online);
	/* After lost events: the whole online set. */
	void (*resync)(void *userdata, const bool *online, size_t n_online);
	void *userdata;
};

/*
 * Opens the socket and adds it to m->event.  On failure logs why (the CPU
 * set then stays as it was at start) and returns a negative errno.
 */
int cpu_hotplug_open(sd_event *event, const struct cpu_hotplug_handler *handler, struct cpu_hotplug **ret);
struct cpu_hotplug *cpu_hotplug_free(struct cpu_hotplug *h);

struct cpu_hotplug_counts {
	uint64_t events;     /* CPU online/offline events acted on */
	uint64_t foreign;    /* messages not from the kernel (a local process forging them), dropped */
	uint64_t overruns;   /* times events were lost and the online set re-read */
	uint64_t resumes;    /* resumes from suspend, after which every CPU was read afresh */
};
void cpu_hotplug_get_counts(const struct cpu_hotplug *h, struct cpu_hotplug_counts *ret);
