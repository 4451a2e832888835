/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: a kernel uevent message (any bytes, as they arrive on
 * the netlink socket) through uevent_parse(), and what it accepts through
 * uevent_cpu_event() as the CPU hotplug watcher does, and
 * uevent_memory_may_be_online() as the memory-online follower does.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu-list.h"
#include "uevent.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly the message's size: a read past it is caught by ASan. */
	char *buf = malloc(size ? size : 1);
	const unsigned max[] = { CPU_LIST_MAX, 1 };
	struct uevent u;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	if (uevent_parse(buf, size, &u) == 0) {
		/* Accepted: every string it names lies in the message. */
		if (!u.action || !u.devpath || !u.subsystem || u.action < buf || u.action >= buf + size ||
		    u.devpath < buf || u.devpath >= buf + size || u.subsystem < buf ||
		    u.subsystem >= buf + size)
			__builtin_trap();
		for (size_t i = 0; i < sizeof(max) / sizeof(max[0]); i++) {
			enum cpu_event e;
			unsigned cpu;

			if (uevent_cpu_event(&u, max[i], &cpu, &e) < 0)
				continue;
			if (cpu >= max[i] || (unsigned) e >= _CPU_EVENT_MAX)
				__builtin_trap();
			(void) cpu_event_to_string(e);
		}
		{
			const char *name = NULL;

			/* The name it gives is the end of the message's device path. */
			if (uevent_memory_may_be_online(&u, &name) &&
			    (!name || name < u.devpath || name + strlen(name) != u.devpath + strlen(u.devpath)))
				__builtin_trap();
		}
	}
	free(buf);
	return 0;
}
