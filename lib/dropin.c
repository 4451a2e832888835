/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dropin.h"
#include "macro.h"
#include "read-file.h"

struct entry {
	char *name;
	char *path;
	bool masked;
};

static void free_entries(struct entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].name);
		free(e[i].path);
	}
	free(e);
}

static bool has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);

	return n > s && streq(name + n - s, suffix);
}

/* Empty, or a symlink to /dev/null: the admin's way of turning a shipped file off. */
static bool is_mask(const char *path)
{
	char target[PATH_MAX];
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	struct stat st;

	if (n > 0) {
		target[n] = '\0';
		if (streq(target, "/dev/null"))
			return true;
	}
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0;
}

static int add_dir(const char *dir, const char *suffix, struct entry **entries, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int r = 0;

	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? 0 : negative_errno();
	while ((de = readdir(d))) {
		struct entry *grown;
		bool taken = false;

		if (de->d_name[0] == '.' || !has_suffix(de->d_name, suffix))
			continue;
		for (size_t i = 0; i < *n && !taken; i++)
			taken = streq((*entries)[i].name, de->d_name);
		if (taken)
			continue;   /* a higher-priority directory has it */
		grown = realloc(*entries, (*n + 1) * sizeof(**entries));
		if (!grown) {
			r = -ENOMEM;
			break;
		}
		*entries = grown;
		grown[*n] = (struct entry) { .name = strdup(de->d_name) };
		if (!grown[*n].name || asprintf(&grown[*n].path, "%s/%s", dir, de->d_name) < 0) {
			grown[*n].path = NULL;
			(*n)++;
			r = -ENOMEM;
			break;
		}
		grown[*n].masked = is_mask(grown[*n].path);
		(*n)++;
	}
	closedir(d);
	return r;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *) a)->name, ((const struct entry *) b)->name);
}

int dropin_walk(const char *const *dirs, size_t n, const char *suffix, dropin_fn fn, void *userdata)
{
	struct entry *entries = NULL;
	size_t n_entries = 0;
	int r = 0;

	for (size_t i = 0; i < n && r >= 0; i++)
		r = add_dir(dirs[i], suffix, &entries, &n_entries);
	if (r < 0) {
		free_entries(entries, n_entries);
		return r;
	}
	if (n_entries > 0)
		qsort(entries, n_entries, sizeof(*entries), by_name);
	for (size_t i = 0; i < n_entries && r >= 0; i++) {
		_cleanup_free_ char *text = NULL;
		size_t len = 0;
		int k;

		if (entries[i].masked)
			continue;
		k = read_whole_file(entries[i].path, DROPIN_FILE_MAX, &text, &len);
		r = fn(entries[i].path, k < 0 ? NULL : text, len, k < 0 ? k : 0, userdata);
	}
	free_entries(entries, n_entries);
	return r < 0 ? r : 0;
}
