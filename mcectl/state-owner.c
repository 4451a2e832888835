/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file-io.h"
#include "macro.h"
#include "message-ids.h"
#include "state-owner.h"

#define DEFAULT_STATE_DIRECTORY LOCALSTATEDIR "/lib/mcelogd"
#define PROC_FILE_MAX (256u << 10)

static bool is_mcelogd(int pid)
{
	_cleanup_free_ char *comm = NULL;
	char path[64];
	size_t len = 0;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (read_full_file(path, 64, &comm, &len) < 0)
		return false;
	return len == strlen(MCELOGD_COMM) + 1 && strncmp(comm, MCELOGD_COMM "\n", len) == 0;
}

/* The value of NAME=... in a NUL-separated environ, NULL when absent. */
static const char *environ_value(const char *env, size_t len, const char *name)
{
	size_t n = strlen(name);

	for (size_t at = 0; at < len; at += strlen(env + at) + 1)
		if (strncmp(env + at, name, n) == 0 && env[at + n] == '=')
			return env + at + n + 1;
	return NULL;
}

/*
 * The process's state directory in buf as mcelogd chooses it (mcelogd/main.c,
 * state_directory()): 1, 0 for a replay that keeps none, -errno when its
 * command line cannot be read.
 */
static int process_state_directory(int pid, char *buf, size_t size)
{
	_cleanup_free_ char *cmdline = NULL, *env = NULL;
	const char *dir = NULL, *e;
	bool replay = false;
	char path[64];
	size_t len = 0, env_len = 0;
	int r;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	r = read_full_file(path, PROC_FILE_MAX, &cmdline, &len);
	if (r < 0)
		return r;
	for (size_t at = 0; at < len; at += strlen(cmdline + at) + 1) {
		const char *a = cmdline + at;

		if (streq(a, "--state-directory") && at + strlen(a) + 1 < len)
			dir = a + strlen(a) + 1;
		else if (strncmp(a, "--state-directory=", 18) == 0)
			dir = a + 18;
		else if (streq(a, "-r") || streq(a, "--replay") || strncmp(a, "--replay=", 9) == 0 ||
			 (a[0] == '-' && a[1] == 'r' && a[2]))
			replay = true;
	}
	if (!dir && replay)
		return 0;
	if (!dir) {
		snprintf(path, sizeof(path), "/proc/%d/environ", pid);
		if (read_full_file(path, PROC_FILE_MAX, &env, &env_len) >= 0 &&
		    (e = environ_value(env, env_len, "STATE_DIRECTORY")) && e[0] == '/' && !strchr(e, ':'))
			dir = e;
	}
	snprintf(buf, size, "%s", dir ?: DEFAULT_STATE_DIRECTORY);
	return 1;
}

static bool same_directory(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	if (!realpath(a, ra))
		snprintf(ra, sizeof(ra), "%s", a);
	if (!realpath(b, rb))
		snprintf(rb, sizeof(rb), "%s", b);
	return streq(ra, rb);
}

pid_t state_directory_owner(const char *dir)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t owner = 0;

	if (!d)
		return -errno;
	while (!owner && (de = readdir(d))) {
		char theirs[PATH_MAX], *end;
		long pid;
		int r;

		if (!isdigit((unsigned char) de->d_name[0]))
			continue;
		errno = 0;
		pid = strtol(de->d_name, &end, 10);
		if (errno || *end || pid <= 0 || pid > INT_MAX || !is_mcelogd((int) pid))
			continue;
		r = process_state_directory((int) pid, theirs, sizeof(theirs));
		/* Gone meanwhile: not running.  Unreadable: taken to be the owner. */
		if (r == -ENOENT || r == -ESRCH || r == 0)
			continue;
		if (r < 0 || same_directory(theirs, dir))
			owner = (pid_t) pid;
	}
	closedir(d);
	return owner;
}
