/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * CPU hotplug, followed through the kernel's uevents (NETLINK_KOBJECT_UEVENT,
 * group 1): every CPU that goes online or offline is handed to
 * manager_cpu_changed(); when events were lost (the socket's queue
 * overflowed) the online set is re-read and handed to manager_cpus_resync().
 */

struct manager;
struct cpu_hotplug;

/*
 * Opens the socket and adds it to m->event.  On failure logs why (the CPU
 * set then stays as it was at start) and returns a negative errno.
 */
int cpu_hotplug_open(struct manager *m, struct cpu_hotplug **ret);
struct cpu_hotplug *cpu_hotplug_free(struct cpu_hotplug *h);
