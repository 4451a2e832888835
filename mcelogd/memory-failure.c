/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file-io.h"
#include "macro.h"
#include "memory-failure.h"
#include "parse-number.h"

#define PROCFS "/proc"
#define SYSFS_NODE "/sys/devices/system/node"
#define SMALL_FILE_MAX (1u << 20)

/* The counter files' names (Documentation/ABI/stable/sysfs-devices-node, "memory_failure"). */
const char *const memory_failure_counter_names[MEMORY_FAILURE_COUNTERS] = {
	"total", "ignored", "failed", "delayed", "recovered",
};

int meminfo_hardware_corrupted(const char *text, uint64_t *ret_kib)
{
	static const char key[] = "HardwareCorrupted:";
	const char *p, *digits;
	size_t n;

	for (p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, key, sizeof(key) - 1) == 0)
			break;
	if (!p)
		return -ENOENT;
	digits = p + sizeof(key) - 1;
	digits += strspn(digits, " \t");
	n = strspn(digits, "0123456789");
	if (n == 0 || strncmp(digits + n, " kB", 3) != 0)
		return -EINVAL;
	return parse_unsigned(digits, n, 10, UINT64_MAX, ret_kib);
}

/* One decimal number in a small file, as sysfs and procfs write them. */
static int read_number(const char *path, uint64_t *ret)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r = read_full_file(path, SMALL_FILE_MAX, &text, &len);

	if (r < 0)
		return r;
	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	return parse_unsigned(text, len, 10, UINT64_MAX, ret);
}

static bool node_name(const char *name)
{
	return strncmp(name, "node", 4) == 0 && name[4] && strspn(name + 4, "0123456789") == strlen(name + 4);
}

static void read_nodes(const char *sysfs_node, struct memory_failure_view *v)
{
	_cleanup_closedir_ DIR *d = opendir(sysfs_node);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		uint64_t value[MEMORY_FAILURE_COUNTERS];
		bool any = false;

		if (!node_name(de->d_name))
			continue;
		for (unsigned i = 0; i < MEMORY_FAILURE_COUNTERS; i++) {
			char path[4096];

			snprintf(path, sizeof(path), "%s/%s/memory_failure/%s", sysfs_node, de->d_name,
				 memory_failure_counter_names[i]);
			value[i] = 0;
			if (read_number(path, &value[i]) >= 0)
				any = true;
		}
		if (!any)
			continue;
		v->n_nodes++;
		for (unsigned i = 0; i < MEMORY_FAILURE_COUNTERS; i++)
			v->counters[i] += value[i];
	}
}

void memory_failure_read(const char *procfs, const char *sysfs_node, struct memory_failure_view *ret)
{
	_cleanup_free_ char *meminfo = NULL;
	char path[4096];
	uint64_t u;
	size_t len;

	*ret = (struct memory_failure_view) { .enable_soft_offline = -1, .memory_failure_recovery = -1 };
	procfs = procfs ? procfs : PROCFS;
	snprintf(path, sizeof(path), "%s/sys/vm/enable_soft_offline", procfs);
	if (read_number(path, &u) >= 0)
		ret->enable_soft_offline = u > 2 ? 2 : (int) u;
	snprintf(path, sizeof(path), "%s/sys/vm/memory_failure_recovery", procfs);
	if (read_number(path, &u) >= 0)
		ret->memory_failure_recovery = u > 1 ? 2 : (int) u;
	snprintf(path, sizeof(path), "%s/meminfo", procfs);
	if (read_full_file(path, SMALL_FILE_MAX, &meminfo, &len) >= 0)
		ret->have_hardware_corrupted =
			meminfo_hardware_corrupted(meminfo, &ret->hardware_corrupted_kib) >= 0;
	read_nodes(sysfs_node ? sysfs_node : SYSFS_NODE, ret);
}
