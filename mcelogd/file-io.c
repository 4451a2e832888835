/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
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
