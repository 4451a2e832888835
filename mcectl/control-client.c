/* SPDX-License-Identifier: MIT */
/* One request to the running daemon's control socket (mcelogd/control.h). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "control-client.h"
#include "macro.h"

#define REPLY_TIMEOUT_MSEC 5000
#define REPLY_MAX (1024 * 1024)

int control_ask(const char *path, const char *request, char **ret)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *buf = NULL;
	_cleanup_free_ char *line = NULL;
	size_t len = 0, cap = 0, line_len;
	int send_error = 0;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return negative_errno();
	if (connect(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0)
		return negative_errno();
	/* A daemon that refuses us answers and hangs up at once: our send may then
	 * fail, but its answer is still there to read. */
	line = malloc(strlen(request) + 2);
	if (!line)
		return -ENOMEM;
	line_len = (size_t) sprintf(line, "%s\n", request);
	if (send(fd, line, line_len, MSG_NOSIGNAL) != (ssize_t) line_len)
		send_error = negative_errno();
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t k;
		int r = poll(&p, 1, REPLY_TIMEOUT_MSEC);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return negative_errno();
		if (r == 0)
			return -ETIMEDOUT;
		if (cap - len < 4096) {
			char *n;

			if (cap >= REPLY_MAX)
				return -EMSGSIZE;
			cap = cap ? cap * 2 : 16384;
			n = realloc(buf, cap);
			if (!n)
				return -ENOMEM;
			buf = n;
		}
		k = recv(fd, buf + len, cap - len - 1, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return negative_errno();
		if (k == 0)
			break;
		len += (size_t) k;
	}
	if (!buf || len == 0)
		return send_error < 0 ? send_error : -EBADMSG;
	buf[len] = '\0';
	*ret = TAKE_PTR(buf);
	return 0;
}

int control_ask_failed(const char *verb, const char *path, int r)
{
	if (r == -ENOENT || r == -ECONNREFUSED) {
		fprintf(stderr, "mcectl %s: mcelogd is not running (no one listens on %s)\n", verb, path);
		return CONTROL_EXIT_NOT_RUNNING;
	}
	if (r == -EACCES)
		fprintf(stderr, "mcectl %s: no permission to use %s (run as root or as a member of "
			"the group set by SocketGroup= in mcelogd.conf)\n", verb, path);
	else
		fprintf(stderr, "mcectl %s: asking mcelogd on %s failed: %s\n", verb, path, strerror(-r));
	return 1;
}
