/* SPDX-License-Identifier: MIT */
#pragma once

/* mcectl's side of the daemon's control socket: one request line, one answer. */

#define CONTROL_SOCKET_DEFAULT RUNSTATEDIR "/mcelogd/control"
/* Exit status when the daemon is not running, as systemctl status uses it. */
#define CONTROL_EXIT_NOT_RUNNING 3

/* Sends request, reads the whole answer into *ret (NUL-terminated).  0 or negative errno. */
int control_ask(const char *path, const char *request, char **ret);
/* Says why control_ask() failed, naming verb and path; returns the exit status to use. */
int control_ask_failed(const char *verb, const char *path, int r);
