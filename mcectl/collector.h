/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * A collector's journal files grouped by the sender systemd-journal-remote
 * named each after (journal-sender.h), so that mcectl can read one sender's
 * files at a time and attribute their entries to it, whatever _HOSTNAME they
 * carry.
 */

#include <stdbool.h>
#include <stddef.h>

#define COLLECTOR_GROUP_FILES 63   /* a sender's files read at once (query's --file bound) */

struct collector_group {
	char sender[128];                           /* "" for files that name no sender */
	const char *files[COLLECTOR_GROUP_FILES + 1]; /* NULL-terminated, owned by the collector */
	size_t n_files;
};

struct collector {
	struct collector_group *groups;
	size_t n_groups;
	char **paths;
	size_t n_paths;
};

/*
 * Groups the journal files of DIRECTORY (its *.journal and *.journal~), or the
 * files given, by sender, in the order first seen (a directory: by name).
 * 0; -ENOMEM; -E2BIG (a sender with more files than a group holds); or the
 * negative errno of reading the directory.
 */
int collector_scan(const char *directory, const char *const *files, size_t n_files, struct collector *ret);

/* Whether any group has a sender: otherwise nothing is a collector's file. */
bool collector_has_senders(const struct collector *c);

void collector_done(struct collector *c);
