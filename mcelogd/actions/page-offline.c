/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "actions.h"
#include "macro.h"

#define SYSFS_MEMORY "/sys/devices/system/memory"
#define PAGE_SHIFT 12

/*
 * The kernel's interface (Documentation/ABI/testing/sysfs-memory-page-offline):
 * write a physical address; soft offlining migrates the page's contents and
 * retires it, hard offlining poisons it as if it had an uncorrected error.
 * The write fails with the reason (EBUSY: could not migrate, EIO, EINVAL).
 */
int page_offline(const char *sysfs_memory, uint64_t pfn, bool hard)
{
	char path[4096], addr[32];
	_cleanup_close_ int fd = -1;
	ssize_t n;
	int len;

	snprintf(path, sizeof(path), "%s/%s", sysfs_memory ? sysfs_memory : SYSFS_MEMORY,
		 hard ? "hard_offline_page" : "soft_offline_page");
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return negative_errno();
	len = snprintf(addr, sizeof(addr), "0x%" PRIx64 "\n", pfn << PAGE_SHIFT);
	n = write(fd, addr, (size_t) len);
	if (n < 0)
		return negative_errno();
	return n == len ? 0 : -EIO;
}
