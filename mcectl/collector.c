/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector.h"
#include "journal-sender.h"
#include "macro.h"

static bool is_journal_file_name(const char *name)
{
	size_t n = strlen(name);

	return (n > 8 && streq(name + n - 8, ".journal")) || (n > 9 && streq(name + n - 9, ".journal~"));
}

static int add_file(struct collector *c, const char *path)
{
	char sender[sizeof(c->groups[0].sender)] = "";
	struct collector_group *g = NULL;
	char *copy;

	if (!journal_sender_of_file(path, sender, sizeof(sender)))
		sender[0] = '\0';
	for (size_t i = 0; i < c->n_groups && !g; i++)
		if (streq(c->groups[i].sender, sender))
			g = &c->groups[i];
	if (!g) {
		struct collector_group *v = realloc(c->groups, (c->n_groups + 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		c->groups = v;
		g = &c->groups[c->n_groups++];
		*g = (struct collector_group) {};
		snprintf(g->sender, sizeof(g->sender), "%s", sender);
	}
	if (g->n_files == COLLECTOR_GROUP_FILES)
		return -E2BIG;
	{
		char **v = realloc(c->paths, (c->n_paths + 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		c->paths = v;
	}
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	c->paths[c->n_paths++] = copy;
	g->files[g->n_files++] = copy;
	g->files[g->n_files] = NULL;
	return 0;
}

static int cmp_names(const void *x, const void *y)
{
	return strcmp(*(char *const *) x, *(char *const *) y);
}

static int scan_directory(struct collector *c, const char *directory)
{
	DIR *d = opendir(directory);
	_cleanup_free_ char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	int r = 0;

	if (!d)
		return negative_errno();
	while (r == 0 && (de = readdir(d))) {
		char path[4096];

		if (!is_journal_file_name(de->d_name))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", directory, de->d_name) >= (int) sizeof(path)) {
			r = -ENAMETOOLONG;
			break;
		}
		if (n == cap) {
			char **v = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof(*v));

			if (!v) {
				r = -ENOMEM;
				break;
			}
			names = v;
		}
		if (!(names[n] = strdup(path)))
			r = -ENOMEM;
		else
			n++;
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++) {
		if (r == 0)
			r = add_file(c, names[i]);
		free(names[i]);
	}
	return r;
}

int collector_scan(const char *directory, const char *const *files, size_t n_files, struct collector *ret)
{
	struct collector c = {};
	int r = 0;

	if (directory)
		r = scan_directory(&c, directory);
	for (size_t i = 0; r == 0 && i < n_files; i++)
		r = add_file(&c, files[i]);
	if (r < 0) {
		collector_done(&c);
		return r;
	}
	*ret = c;
	return 0;
}

bool collector_has_senders(const struct collector *c)
{
	for (size_t i = 0; i < c->n_groups; i++)
		if (c->groups[i].sender[0])
			return true;
	return false;
}

void collector_done(struct collector *c)
{
	for (size_t i = 0; i < c->n_paths; i++)
		free(c->paths[i]);
	free(c->paths);
	free(c->groups);
	*c = (struct collector) {};
}
