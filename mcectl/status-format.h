/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * `mcectl status` in table form, from the daemon's status JSON (the
 * document mcelogd answers on its control socket).  Pure: tested without a
 * daemon.  Keys the daemon does not send are left out, never made up.
 */

#include <stdio.h>

struct json_object;

/* now_usec: CLOCK_REALTIME, for "ago" columns.  Returns 0, or -EINVAL if doc is not a status. */
int status_format_table(struct json_object *doc, long long now_usec, FILE *out);
