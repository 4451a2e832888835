/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "macro.h"
#include "ras-debugfs.h"

const char *ras_debugfs_path(const char *root, const char *name, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s/ras/%s", root ? root : RAS_DEBUGFS_DEFAULT_ROOT, name);

	return n >= 0 && (size_t) n < size ? buf : NULL;
}

/* An unmounted debugfs is the empty directory sysfs keeps for it (or none at all). */
static bool dir_is_empty(const char *path)
{
	_cleanup_closedir_ DIR *d = opendir(path);
	struct dirent *de;

	if (!d)
		return true;
	while ((de = readdir(d)))
		if (!streq(de->d_name, ".") && !streq(de->d_name, ".."))
			return false;
	return true;
}

enum ras_debugfs_missing ras_debugfs_explain(const char *root, const char *name, int err, char *buf,
					     size_t size)
{
	char ras[4096];
	struct stat st;

	root = root ? root : RAS_DEBUGFS_DEFAULT_ROOT;
	if (err == -EACCES || err == -EPERM) {
		/* Kernel lockdown (confidentiality) refuses debugfs even to root: EPERM. */
		snprintf(buf, size, "no permission to open %s/ras/%s (%s)", root, name, strerror(-err));
		return RAS_DEBUGFS_NO_PERMISSION;
	}
	if (err != -ENOENT && err != -ENOTDIR) {
		snprintf(buf, size, "cannot open %s/ras/%s: %s", root, name, strerror(-err));
		return RAS_DEBUGFS_OTHER_ERROR;
	}
	if (dir_is_empty(root)) {
		snprintf(buf, size, "debugfs is not mounted at %s", root);
		return RAS_DEBUGFS_NOT_MOUNTED;
	}
	snprintf(ras, sizeof(ras), "%s/ras", root);
	if (stat(ras, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(buf, size, "no %s/ras: a kernel without CONFIG_RAS", root);
		return RAS_DEBUGFS_NO_RAS;
	}
	snprintf(buf, size, "no %s/ras/%s in this kernel", root, name);
	return RAS_DEBUGFS_NO_FILE;
}
