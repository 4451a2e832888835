/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "actions.h"
#include "cpu-list.h"
#include "file-io.h"
#include "macro.h"

#define SYSFS_CPU "/sys/devices/system/cpu"

/*
 * The kernel's interface (Documentation/ABI/testing/sysfs-devices-system-cpu,
 * "online"): cpuN/online exists only for CPUs that can be hot-unplugged, and
 * the list of online CPUs is in the directory's own "online" file.
 */
int cpu_offline(const char *sysfs_cpu, unsigned cpu)
{
	const char *dir = sysfs_cpu ? sysfs_cpu : SYSFS_CPU;
	_cleanup_free_ bool *online = NULL;
	_cleanup_close_ int fd = -1;
	char path[4096];
	int n;

	if (cpu >= CPU_LIST_MAX)
		return -EINVAL;
	online = calloc(CPU_LIST_MAX, sizeof(*online));
	if (!online)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/online", dir);
	n = read_cpu_list_file(path, online, CPU_LIST_MAX);
	if (n < 0)
		return n;
	if (!online[cpu])
		return -EALREADY;
	/* The machine must keep running to log what comes next. */
	if (n <= 1)
		return -EBUSY;
	snprintf(path, sizeof(path), "%s/cpu%u/online", dir, cpu);
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return errno == ENOENT ? -EOPNOTSUPP : negative_errno();
	if (write(fd, "0\n", 2) != 2)
		return negative_errno();
	return 0;
}
