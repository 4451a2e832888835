/* SPDX-License-Identifier: MIT */
/*
 * Journal entries from one process, for the summary tests
 * (summary-entries.sh): copied to a file named mcelogd and run as root, its
 * entries carry _COMM=mcelogd as the daemon's own do.  One `logger
 * --journald` per entry cost ~40 ms each (a process, a socket, a connect);
 * a thousand entries a round made the summary tests the slowest of
 * make check.
 *
 * stdin: entries of FIELD=VALUE lines, separated by an empty line, each sent
 * as it ends (the native protocol: name, newline, 64-bit little-endian
 * length, value, newline).  An entry whose first line is _UID=N goes from a
 * child that is user and group N (setresuid, like setpriv): journald keeps
 * no underscore field a client sends, so the sender's uid is the only way to
 * such an entry.  The child is forked before any entry, so it has the same
 * name, and each of its entries is acknowledged before the next is sent:
 * the order on stdin is the order journald receives.
 *
 * Each entry without a SYSLOG_IDENTIFIER gets the program's name as one, as
 * logger --journald (which these tests used before) and mcelogd give it.
 *
 * -i USEC: that long between entries (a writer that trickles while others
 * read).  Before exiting, `journalctl --sync` as a child: journald has then
 * processed every entry sent before it, while the senders are still alive
 * (journald takes _COMM from /proc/PID/comm).  If it fails (not root, or a
 * journald without the request), a second's wait instead.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define JOURNAL_SOCKET "/run/systemd/journal/socket"

struct entry {
	char *buf;
	size_t len, cap;
};

static int entry_reserve(struct entry *e, size_t n)
{
	if (e->len + n > e->cap) {
		size_t cap = (e->len + n) * 2;
		char *b = realloc(e->buf, cap);

		if (!b)
			return -ENOMEM;
		e->buf = b;
		e->cap = cap;
	}
	return 0;
}

static int entry_add(struct entry *e, const char *p, size_t n)
{
	if (entry_reserve(e, n) < 0)
		return -ENOMEM;
	memcpy(e->buf + e->len, p, n);
	e->len += n;
	return 0;
}

/* FIELD=VALUE (no newline) in the native protocol's binary form. */
static int entry_field(struct entry *e, const char *line, size_t n)
{
	const char *eq = memchr(line, '=', n);
	unsigned char le[8];
	uint64_t vlen;
	int i;

	if (!eq || eq == line)
		return -EINVAL;
	vlen = (uint64_t)(n - (size_t)(eq - line) - 1);
	for (i = 0; i < 8; i++)
		le[i] = (unsigned char)(vlen >> (8 * i));
	if (entry_add(e, line, (size_t)(eq - line)) < 0 || entry_add(e, "\n", 1) < 0 ||
	    entry_add(e, (const char *)le, sizeof(le)) < 0 || entry_add(e, eq + 1, vlen) < 0 ||
	    entry_add(e, "\n", 1) < 0)
		return -ENOMEM;
	return 0;
}

static int journal_socket(void)
{
	return socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
}

static int entry_send(int fd, const struct entry *e)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX, .sun_path = JOURNAL_SOCKET };

	if (sendto(fd, e->buf, e->len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -errno;
	return 0;
}

/*
 * The other user's sender: reads an entry's length and bytes from the pipe,
 * sends it, answers one byte (its errno, 0 if sent); exits at EOF.
 */
static void other_user(uid_t uid, int in, int out)
{
	struct entry e = { 0 };
	int fd;

	if (setgroups(0, NULL) < 0 || setresgid(uid, uid, uid) < 0 || setresuid(uid, uid, uid) < 0) {
		perror("journal-send: becoming the other user");
		_exit(1);
	}
	fd = journal_socket();
	if (fd < 0)
		_exit(1);
	for (;;) {
		size_t len;
		unsigned char r;

		if (read(in, &len, sizeof(len)) != (ssize_t)sizeof(len))
			_exit(0);
		e.len = 0;
		if (entry_reserve(&e, len) < 0)
			_exit(1);
		while (e.len < len) {
			ssize_t k = read(in, e.buf + e.len, len - e.len);

			if (k <= 0)
				_exit(1);
			e.len += (size_t)k;
		}
		r = (unsigned char)-entry_send(fd, &e);
		if (write(out, &r, 1) != 1)
			_exit(1);
	}
}

struct other {
	uid_t uid;
	pid_t pid;
	int to, from;
};

static int other_send(struct other *o, uid_t uid, const struct entry *e)
{
	int to[2], from[2];
	unsigned char r;

	if (o->pid > 0 && o->uid != uid)
		return -EINVAL;   /* one other user per run is all the tests need */
	if (o->pid <= 0) {
		if (pipe2(to, O_CLOEXEC) < 0 || pipe2(from, O_CLOEXEC) < 0)
			return -errno;
		o->pid = fork();
		if (o->pid < 0)
			return -errno;
		if (o->pid == 0) {
			close(to[1]);
			close(from[0]);
			other_user(uid, to[0], from[1]);
		}
		close(to[0]);
		close(from[1]);
		o->uid = uid;
		o->to = to[1];
		o->from = from[0];
	}
	if (write(o->to, &e->len, sizeof(e->len)) != (ssize_t)sizeof(e->len) ||
	    write(o->to, e->buf, e->len) != (ssize_t)e->len || read(o->from, &r, 1) != 1)
		return -EIO;
	return -(int)r;
}

static int journal_sync(void)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execlp("journalctl", "journalctl", "--sync", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

int main(int argc, char **argv)
{
	struct entry e = { 0 };
	struct other o = { .pid = -1 };
	struct timespec pace = { 0 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long sent = 0;
	uid_t uid = 0;
	int fd, r = 0, opt, as_other = 0, named = 0;
	char ident[64];

	while ((opt = getopt(argc, argv, "i:")) != -1) {
		long us;

		if (opt != 'i' || (us = strtol(optarg, NULL, 10)) < 0) {
			fprintf(stderr, "usage: %s [-i USEC] <entries\n", argv[0]);
			return 2;
		}
		pace.tv_sec = us / 1000000;
		pace.tv_nsec = us % 1000000 * 1000;
	}
	/* A child that could not become the other user: said, not a silent SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	snprintf(ident, sizeof(ident), "SYSLOG_IDENTIFIER=%s", program_invocation_short_name);
	fd = journal_socket();
	if (fd < 0) {
		perror("journal-send: socket");
		return 1;
	}
	do {
		n = getline(&line, &cap, stdin);
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		if (n > 0) {
			if (e.len == 0 && !as_other && strncmp(line, "_UID=", 5) == 0) {
				as_other = 1;
				uid = (uid_t)strtoul(line + 5, NULL, 10);
			} else if ((r = entry_field(&e, line, (size_t)n)) < 0) {
				fprintf(stderr, "journal-send: not FIELD=VALUE: %s\n", line);
				break;
			}
			named |= strncmp(line, "SYSLOG_IDENTIFIER=", 18) == 0;
			continue;
		}
		/* An empty line or the end: the entry so far, if any. */
		if (e.len > 0) {
			if (!named && (r = entry_field(&e, ident, strlen(ident))) < 0)
				break;
			if (sent++ > 0 && (pace.tv_sec || pace.tv_nsec))
				nanosleep(&pace, NULL);
			r = as_other ? other_send(&o, uid, &e) : entry_send(fd, &e);
			if (r < 0) {
				fprintf(stderr, "journal-send: sending entry %ld: %s\n", sent, strerror(-r));
				break;
			}
		}
		e.len = 0;
		as_other = named = 0;
	} while (n >= 0);
	if (journal_sync() < 0)
		sleep(1);
	if (o.pid > 0) {
		close(o.to);
		waitpid(o.pid, NULL, 0);
	}
	free(line);
	free(e.buf);
	return r < 0;
}
