/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu-list.h"
#include "file-io.h"
#include "macro.h"
#include "read-file.h"

int read_full_file(const char *path, size_t max, char **ret, size_t *ret_len)
{
	return read_whole_file(path, max, ret, ret_len);
}

int read_cpu_list_file(const char *path, bool *set, size_t max)
{
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r;

	r = read_full_file(path, 64 * 1024, &text, &len);
	if (r < 0)
		return r;
	memset(set, 0, max * sizeof(*set));
	r = cpu_list_parse(text, set, max);
	return r < 0 ? -EBADMSG : r;
}

int write_all(int fd, const void *data, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t k = write(fd, (const char *) data + done, len - done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? negative_errno() : -EIO;
		done += (size_t) k;
	}
	return 0;
}

int fsync_directory_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4200];
	int dfd, r = 0;

	if (snprintf(dir, sizeof(dir), "%.*s", slash ? (int) (slash - path) : 1, slash ? path : ".") >= (int) sizeof(dir))
		return -ENAMETOOLONG;
	dfd = open(dir[0] ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return negative_errno();
	if (fsync(dfd) < 0)
		r = negative_errno();
	close(dfd);
	return r;
}

int write_file_atomic(const char *path, const void *data, size_t len, bool sync)
{
	return write_file_atomic_mode(path, data, len, sync, 0600);
}

int write_file_atomic_mode(const char *path, const void *data, size_t len, bool sync, mode_t mode)
{
	char tmp[4200];
	const char *slash = strrchr(path, '/');
	size_t done = 0;
	int r = 0;

	/* Hidden, beside the file: the same filesystem, so the rename is atomic. */
	if (slash)
		r = snprintf(tmp, sizeof(tmp), "%.*s/.%s.tmp", (int) (slash - path), path, slash + 1);
	else
		r = snprintf(tmp, sizeof(tmp), ".%s.tmp", path);
	if (r < 0 || (size_t) r >= sizeof(tmp))
		return -ENAMETOOLONG;
	/*
	 * A new file, never one already there (review M16): in a directory others
	 * can write (a textfile collector's, owned by prometheus) a name made
	 * beforehand, a hard link to a file of ours, would otherwise be truncated
	 * and chmod'ed.  What a crash left is removed first; a name we may not
	 * remove (a sticky directory, someone else's) fails the write.
	 */
	if (unlink(tmp) < 0 && errno != ENOENT)
		return negative_errno();
	_cleanup_close_ int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW, 0600);
	if (fd < 0)
		return negative_errno();
	/* The mode asked for, whatever the umask (the unit's UMask=0077 would take the reading bits). */
	r = fchmod(fd, mode) < 0 ? negative_errno() : 0;
	while (done < len && r == 0) {
		ssize_t k = write(fd, (const char *) data + done, len - done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			r = k < 0 ? negative_errno() : -EIO;
		else
			done += (size_t) k;
	}
	if (r == 0 && sync && fsync(fd) < 0)
		r = negative_errno();
	if (r == 0 && rename(tmp, path) < 0)
		r = negative_errno();
	if (r < 0) {
		(void) unlink(tmp);
		return r;
	}
	/* The rename itself must reach the disk too: sync the directory. */
	if (sync)
		(void) fsync_directory_of(path);
	return 0;
}

int write_string_file(const char *path, const char *value)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC | O_TRUNC);
	size_t n = strlen(value);

	if (fd < 0)
		return negative_errno();
	if (write(fd, value, n) != (ssize_t) n)
		return negative_errno();
	return 0;
}
