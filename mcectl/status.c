/* SPDX-License-Identifier: MIT */
/* mcectl status: ask the running daemon over its control socket. */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "macro.h"
#include "status-format.h"
#include "verbs.h"

#define DEFAULT_SOCKET RUNSTATEDIR "/mcelogd/control"
#define REPLY_TIMEOUT_MSEC 5000
#define REPLY_MAX (1024 * 1024)

/* Exit status when the daemon is not running, as systemctl status uses it. */
#define EXIT_NOT_RUNNING 3

static void help(void)
{
	printf("Usage: mcectl status [OPTIONS]\n"
	       "Show the running mcelogd's sources, counters and storms.\n\n"
	       "  -o, --output MODE   table (default) or json\n"
	       "      --socket PATH   control socket (default %s)\n"
	       "  -h, --help          show this help\n\n"
	       "Exit status: 0, 1 on error, 3 if mcelogd is not running.\n", DEFAULT_SOCKET);
}

/* Sends "status", reads the reply into *ret (NUL-terminated).  Returns 0 or negative errno. */
static int ask(const char *path, char **ret)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap = 0;
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
	if (send(fd, "status\n", 7, MSG_NOSIGNAL) != 7)
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

int verb_status(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "socket", required_argument, NULL, 's' },
		{ "help",   no_argument,       NULL, 'h' },
		{}
	};
	const char *path = DEFAULT_SOCKET;
	_cleanup_free_ char *reply = NULL;
	bool json = false;
	json_object *doc, *err;
	struct timespec ts;
	int c, r;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", options, NULL)) >= 0) {
		switch (c) {
		case 'o':
			if (streq(optarg, "json"))
				json = true;
			else if (streq(optarg, "table"))
				json = false;
			else {
				fprintf(stderr, "mcectl status: --output: unknown mode '%s' (expected "
					"table or json)\n", optarg);
				return 2;
			}
			break;
		case 's':
			path = optarg;
			break;
		case 'h':
			help();
			return 0;
		case ':':
			fprintf(stderr, "mcectl status: option '%s' needs a value\n", argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, "mcectl status: unknown option '%s'\n", argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "mcectl status: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}

	r = ask(path, &reply);
	if (r == -ENOENT || r == -ECONNREFUSED) {
		fprintf(stderr, "mcectl status: mcelogd is not running (no one listens on %s)\n", path);
		return EXIT_NOT_RUNNING;
	}
	if (r == -EACCES) {
		fprintf(stderr, "mcectl status: no permission to use %s (run as root or as a member of "
			"the group set by SocketGroup= in mcelogd.conf)\n", path);
		return 1;
	}
	if (r < 0) {
		fprintf(stderr, "mcectl status: asking mcelogd on %s failed: %s\n", path, strerror(-r));
		return 1;
	}
	doc = json_tokener_parse(reply);
	if (!doc || !json_object_is_type(doc, json_type_object)) {
		fprintf(stderr, "mcectl status: mcelogd's answer on %s is not a JSON object\n", path);
		json_object_put(doc);
		return 1;
	}
	if (json_object_object_get_ex(doc, "error", &err)) {
		fprintf(stderr, "mcectl status: mcelogd refused: %s\n", json_object_get_string(err));
		json_object_put(doc);
		return 1;
	}
	if (json) {
		/* The daemon's document as it is: one line, for jq and log pipelines. */
		fputs(reply, stdout);
		if (reply[0] && reply[strlen(reply) - 1] != '\n')
			putchar('\n');
		r = 0;
	} else {
		clock_gettime(CLOCK_REALTIME, &ts);
		r = status_format_table(doc, (long long) ts.tv_sec * 1000000 + ts.tv_nsec / 1000, stdout);
		if (r < 0)
			fprintf(stderr, "mcectl status: mcelogd's answer lacks version or sources\n");
	}
	json_object_put(doc);
	return r < 0 ? 1 : 0;
}
