/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * "Log each ERST record once": the records of pstore (mce-<backend>-<id>)
 * the daemon has logged, kept in its state directory, and the decisions taken
 * from them at the next start.  A record is named by its backend, its record
 * id and a digest of its bytes (the struct mce, with the error's TSC and wall
 * time): a firmware store that hands out an id again, for another error, does
 * not hide that error.  Pure: the caller reads and writes the file.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pstore-mce.h"

#define ERST_STATE_FILE "erst-logged"
/* ERST holds a few records (64 KiB in QEMU, little more in servers): more are dropped, oldest first. */
#define ERST_STATE_MAX 256

struct erst_logged {
	char backend[PSTORE_BACKEND_MAX];
	uint64_t id;
	uint64_t digest;
};

struct erst_state {
	struct erst_logged entries[ERST_STATE_MAX];
	size_t n;
};

/* Parses the state file's text; -EINVAL when it is not one we wrote (then every record is logged). */
int erst_state_parse(const char *text, size_t len, struct erst_state *ret);
/* The file's text, malloc'ed in *ret (length in *ret_len); -ENOMEM. */
int erst_state_format(const struct erst_state *s, char **ret, size_t *ret_len);

bool erst_state_has(const struct erst_state *s, const struct erst_logged *e);
/* Remembers e (once); when full, the oldest entry gives way. */
void erst_state_add(struct erst_state *s, const struct erst_logged *e);
/* Keeps only the entries keep[i] says are still there; returns how many were dropped. */
size_t erst_state_keep(struct erst_state *s, const bool *keep);
