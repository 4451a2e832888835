/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "macro.h"
#include "parse-number.h"
#include "uevent.h"

/* The keys the kernel's uevent core sets (lib/kobject_uevent.c), before any driver's own. */
enum uevent_key {
	KEY_ACTION,
	KEY_DEVPATH,
	KEY_SUBSYSTEM,
	KEY_SEQNUM,
	KEY_SYNTH_UUID,
	_KEY_MAX,
};

static const char *const key_names[_KEY_MAX] = {
	[KEY_ACTION]    = "ACTION",
	[KEY_DEVPATH]   = "DEVPATH",
	[KEY_SUBSYSTEM] = "SUBSYSTEM",
	[KEY_SEQNUM]    = "SEQNUM",
	/* Since Linux 4.13, on every event user space asks for by writing an action to a "uevent" file. */
	[KEY_SYNTH_UUID] = "SYNTH_UUID",
};

static int key_lookup(const char *s, size_t n)
{
	for (size_t k = 0; k < _KEY_MAX; k++)
		if (strlen(key_names[k]) == n && memcmp(s, key_names[k], n) == 0)
			return (int) k;
	return -1;
}

int uevent_parse(const void *buf, size_t len, struct uevent *ret)
{
	const char *p = buf, *end = p + len, *at, *header;
	const char *value[_KEY_MAX] = {};
	size_t header_len, action_len;
	uint64_t seqnum = 0;

	/* Every string, the last one included, ends in NUL: anything else was cut short. */
	if (len == 0 || p[len - 1] != '\0')
		return -EBADMSG;

	header = p;
	header_len = strlen(header);
	at = memchr(header, '@', header_len);
	if (!at || at == header || at[1] != '/')
		return -EBADMSG;
	action_len = (size_t) (at - header);

	for (p = header + header_len + 1; p < end; p += strlen(p) + 1) {
		const char *eq = strchr(p, '=');
		int k;

		if (!eq || eq == p)
			return -EBADMSG;
		k = key_lookup(p, (size_t) (eq - p));
		if (k < 0)
			continue;        /* a driver's own key (MODALIAS=, ...): not ours to judge */
		if (value[k])
			return -EBADMSG;
		value[k] = eq + 1;
	}
	if (!value[KEY_ACTION] || !value[KEY_DEVPATH] || !value[KEY_SUBSYSTEM] ||
	    !value[KEY_SUBSYSTEM][0])
		return -EBADMSG;
	/* The header is what udev and we both key on; keys that contradict it mean a forged or broken message. */
	if (strlen(value[KEY_ACTION]) != action_len ||
	    memcmp(value[KEY_ACTION], header, action_len) != 0 || !streq(value[KEY_DEVPATH], at + 1))
		return -EBADMSG;
	if (value[KEY_SEQNUM] &&
	    parse_unsigned(value[KEY_SEQNUM], strlen(value[KEY_SEQNUM]), 10, UINT64_MAX, &seqnum) < 0)
		return -EBADMSG;

	*ret = (struct uevent) {
		.action = value[KEY_ACTION],
		.devpath = value[KEY_DEVPATH],
		.subsystem = value[KEY_SUBSYSTEM],
		.seqnum = seqnum,
		.synthetic = value[KEY_SYNTH_UUID] != NULL,
	};
	return 0;
}

/* The kobject actions (include/linux/kobject.h, enum kobject_action) that change the CPU set. */
static const char *const cpu_event_names[_CPU_EVENT_MAX] = {
	[CPU_EVENT_ONLINE]  = "online",
	[CPU_EVENT_OFFLINE] = "offline",
	[CPU_EVENT_ADD]     = "add",
	[CPU_EVENT_REMOVE]  = "remove",
};

const char *cpu_event_to_string(enum cpu_event e)
{
	if ((unsigned) e >= _CPU_EVENT_MAX)
		return "unknown";
	return cpu_event_names[e];
}

int uevent_cpu_event(const struct uevent *u, unsigned max, unsigned *ret_cpu,
		     enum cpu_event *ret_event)
{
	/* Documentation/ABI/testing/sysfs-devices-system-cpu: one device per logical CPU. */
	static const char prefix[] = "/devices/system/cpu/cpu";
	const char *num;
	uint64_t cpu;
	int r, e = -1;

	if (!streq(u->subsystem, "cpu") || strncmp(u->devpath, prefix, strlen(prefix)) != 0)
		return -ENOENT;
	for (size_t i = 0; i < _CPU_EVENT_MAX; i++)
		if (streq(u->action, cpu_event_names[i]))
			e = (int) i;
	if (e < 0)
		return -ENOENT;
	num = u->devpath + strlen(prefix);
	/* The kernel names CPUs "cpu%u": no sign, no leading zero, nothing after. */
	if (num[0] == '0' && num[1] != '\0')
		return -ENOENT;
	r = parse_unsigned(num, strlen(num), 10, max > 0 ? max - 1 : 0, &cpu);
	if (r < 0)
		return r == -ERANGE ? -ERANGE : -ENOENT;
	*ret_cpu = (unsigned) cpu;
	*ret_event = (enum cpu_event) e;
	return 0;
}

/* The last path component is prefix followed by a decimal number (the kernel's "%s%d" names). */
static const char *numbered_name(const char *devpath, const char *prefix)
{
	const char *name = strrchr(devpath, '/');
	size_t n = strlen(prefix);

	name = name ? name + 1 : devpath;
	if (strncmp(name, prefix, n) != 0 || name[n] == '\0')
		return NULL;
	for (const char *p = name + n; *p; p++)
		if (*p < '0' || *p > '9')
			return NULL;
	return name;
}

bool uevent_memory_may_be_online(const struct uevent *u, const char **ret_name)
{
	static const char memory_prefix[] = "/devices/system/memory/";
	const char *name = NULL;

	if (streq(u->subsystem, "memory") && (streq(u->action, "add") || streq(u->action, "online")) &&
	    strncmp(u->devpath, memory_prefix, strlen(memory_prefix)) == 0 &&
	    !strchr(u->devpath + strlen(memory_prefix), '/'))
		name = numbered_name(u->devpath, "memory");
	else if (streq(u->subsystem, "cxl") && (streq(u->action, "add") || streq(u->action, "bind"))) {
		name = numbered_name(u->devpath, "region");
		if (!name)
			name = numbered_name(u->devpath, "mem");
	}
	if (name && ret_name)
		*ret_name = name;
	return name != NULL;
}
