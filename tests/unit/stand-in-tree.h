/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * A stand-in tree of kernel files (sysfs, debugfs) under a temporary root,
 * for the tests of the daemon's readers: the reader is pointed at root.
 * Include after cmocka.h.
 */

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static char root[64];

/* root = a fresh /tmp/NAME.XXXXXX.  0, or -1. */
static inline int stand_in_create(const char *name)
{
	snprintf(root, sizeof(root), "/tmp/%s.XXXXXX", name);
	return mkdtemp(root) ? 0 : -1;
}

static inline int stand_in_remove(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

/* root/sub, a file holding text. */
static inline void put(const char *sub, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, sub);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* root/sub, a directory. */
static inline void dir(const char *sub)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", root, sub);
	assert_int_equal(mkdir(path, 0755), 0);
}
