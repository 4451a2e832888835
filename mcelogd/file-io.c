/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu-list.h"
#include "file-io.h"
#include "macro.h"

int read_full_file(const char *path, size_t max, char **ret, size_t *ret_len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap = 0;

	if (fd < 0)
		return negative_errno();
	for (;;) {
		ssize_t n;

		if (cap - len < 4096) {
			char *p;

			if (cap > max)
				return -EFBIG;
			cap = cap ? cap * 2 : 16384;
			p = realloc(buf, cap + 1);
			if (!p)
				return -ENOMEM;
			buf = p;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return negative_errno();
		}
		if (n == 0)
			break;
		len += (size_t) n;
	}
	if (len > max)
		return -EFBIG;
	buf[len] = '\0';
	*ret = TAKE_PTR(buf);
	*ret_len = len;
	return 0;
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

int write_file_atomic(const char *path, const void *data, size_t len, bool sync)
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
	_cleanup_close_ int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0644);
	if (fd < 0)
		return negative_errno();
	r = 0;
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
	if (r < 0)
		(void) unlink(tmp);
	return r;
}
