/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The systemd unit of a process, from the text of /proc/PID/cgroup: the
 * operator's answer to "which service went down".  Pure.
 *
 * The unified hierarchy's line ("0::/system.slice/nginx.service") names the
 * cgroup; on a hybrid or legacy setup, the "name=systemd" hierarchy's line
 * does.  The unit is the first path component that is a unit and not a
 * slice (.service, .scope, .socket, .mount, .swap): "nginx.service", or for
 * a user's processes their manager, "user@1000.service"; the user unit is
 * then the last such component under it ("app-foo.scope").
 */

#include <stddef.h>

/* Returns 0 with *unit set (and *user_unit, "" if none); -ENOENT: no unit in it; -ENOBUFS. */
int cgroup_unit_of(const char *text, size_t len, char *unit, size_t unit_size, char *user_unit,
		   size_t user_unit_size);
