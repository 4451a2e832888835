/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "macro.h"
#include "read-file.h"

int read_whole_file(const char *path, size_t max, char **ret, size_t *ret_len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return negative_errno();
	return read_whole_fd(fd, max, ret, ret_len);
}

int read_whole_fd(int fd, size_t max, char **ret, size_t *ret_len)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, size = 0;

	for (;;) {
		ssize_t n;

		/* Grow by doubling, one byte past max so that a longer file is seen as such. */
		if (len == size) {
			size_t want = size ? size * 2 : 4096;
			char *b;

			if (want > max + 1)
				want = max + 1;
			if (want <= size)
				return -EFBIG;
			b = realloc(buf, want + 1);
			if (!b)
				return -ENOMEM;
			buf = b;
			size = want;
		}
		n = read(fd, buf + len, size - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return negative_errno();
		if (n == 0)
			break;
		len += (size_t) n;
		if (len > max)
			return -EFBIG;
	}
	if (!buf && !(buf = malloc(1)))
		return -ENOMEM;
	buf[len] = '\0';
	*ret = TAKE_PTR(buf);
	*ret_len = len;
	return 0;
}
