/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
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
