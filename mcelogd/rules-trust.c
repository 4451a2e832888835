/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "macro.h"
#include "read-file.h"
#include "rule.h"
#include "rules-trust.h"

/* Whether one file system object can be changed by someone who is not root or us. */
static bool object_trusted(const char *path, const struct stat *st, char *why, size_t size)
{
	bool sticky_dir = S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX);

	if (st->st_uid != 0 && st->st_uid != geteuid()) {
		snprintf(why, size, "'%s' is owned by uid %u, not root", path, (unsigned) st->st_uid);
		return false;
	}
	if ((st->st_mode & S_IWOTH) && !sticky_dir) {
		snprintf(why, size, "'%s' is writable by everyone (mode %04o)", path,
			 (unsigned) (st->st_mode & 07777));
		return false;
	}
	/* Group root's members are root's anyway. */
	if ((st->st_mode & S_IWGRP) && st->st_gid != 0 && !sticky_dir) {
		snprintf(why, size, "'%s' is writable by group %u (mode %04o)", path, (unsigned) st->st_gid,
			 (unsigned) (st->st_mode & 07777));
		return false;
	}
	return true;
}

int path_trusted(const char *path, char *why, size_t size)
{
	_cleanup_free_ char *real = realpath(path, NULL);
	char *slash;
	struct stat st;

	if (!real)
		return negative_errno();
	/* A drop-in masked with a symlink to /dev/null: nothing is read from it. */
	if (streq(real, "/dev/null"))
		return 0;
	for (;;) {
		if (stat(real[0] ? real : "/", &st) < 0)
			return negative_errno();
		if (!object_trusted(real[0] ? real : "/", &st, why, size))
			return -EPERM;
		if (!real[0])
			return 0;
		slash = strrchr(real, '/');
		*slash = '\0';   /* realpath's answer is absolute: the last step leaves "" for "/" */
	}
}

int read_trusted_file(const char *path, size_t max, char **ret, size_t *ret_len, char *why, size_t size)
{
	_cleanup_free_ char *copy = strdup(path);
	_cleanup_close_ int fd = -1;
	struct stat st;
	int r;

	*ret = NULL;
	*ret_len = 0;
	if (!copy)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return negative_errno();
	if (fstat(fd, &st) < 0)
		return negative_errno();
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, size, "'%s' is not a regular file", path);
		return -EPERM;
	}
	if (!object_trusted(path, &st, why, size))
		return -EPERM;
	/* The directory that holds the name: whoever can write it can point the name anywhere. */
	r = path_trusted(dirname(copy), why, size);
	if (r < 0)
		return r;
	r = path_trusted(path, why, size);
	if (r < 0)
		return r;
	return read_whole_fd(fd, max, ret, ret_len);
}

static void check_runnable(const struct rule *r, const char *program)
{
	struct stat st;

	if (stat(program, &st) < 0)
		log_warning("%s:%u: rule '%s': Trigger= program '%s' cannot run: %m; the rule alerts "
			    "and acts without it", r->file, r->line, r->name, program);
	else if (!S_ISREG(st.st_mode))
		log_warning("%s:%u: rule '%s': Trigger= program '%s' cannot run: not a regular file; the "
			    "rule alerts and acts without it", r->file, r->line, r->name, program);
	else if (access(program, X_OK) < 0 || !(st.st_mode & 0111))
		log_warning("%s:%u: rule '%s': Trigger= program '%s' cannot run: not executable; the rule "
			    "alerts and acts without it", r->file, r->line, r->name, program);
}

int rules_check_triggers(const struct rule_set *set)
{
	int ret = 0;

	for (unsigned i = 0; i < set->n_rules; i++) {
		const struct rule *r = &set->rules[i];
		char buf[RULE_TRIGGER_MAX], *argv[RULE_TRIGGER_ARGS + 1], why[PATH_MAX + 64];
		int k;

		if (!(r->actions & RULE_ACTION_TRIGGER) || rule_trigger_argv(r, buf, argv) == 0)
			continue;
		check_runnable(r, argv[0]);
		k = path_trusted(argv[0], why, sizeof(why));
		if (k == -EPERM) {
			log_error("%s:%u: rule '%s': Trigger= program refused: %s; it would run as root",
				  r->file, r->line, r->name, why);
			ret = -EPERM;
		}
	}
	return ret;
}
