/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The control socket (/run/mcelogd/control): a client connects, writes one
 * request line ("status"), reads one JSON document, and the connection closes.
 * "metrics" gets the counters in Prometheus's text format instead;
 * "forget-page 0xPFN" (root only) drops a known-bad page from the state.
 *
 * Who may ask: the socket is mode 0660 (owner root, group from the
 * configuration's [Daemon] SocketGroup=), and every connection's peer
 * credentials are checked again (root, our own uid, or a member of that
 * group), so a socket file exposed by mistake (a bind mount, a chmod) still
 * answers nobody else.
 */

#include <stdint.h>
#include <sys/types.h>

#include <systemd/sd-event.h>

struct control;

/* The status document, rendered fresh for each request; NULL: out of memory. */
typedef const char *(*control_status_fn)(void *userdata);

/* "forget-page": only ever called for a root client; returns the JSON answer (static or userdata's). */
typedef const char *(*control_forget_page_fn)(void *userdata, uint64_t pfn, uid_t uid, pid_t pid);

/*
 * Binds path (replacing a stale socket), adds it to event.  gid (gid_t)-1: root only.
 * metrics answers the "metrics" request: Prometheus's text format, not JSON.
 * forget_page answers "forget-page 0xPFN" (NULL: not offered); a client in the
 * socket's group may read, but only root may change what the daemon knows.
 */
int control_open(sd_event *event, const char *path, gid_t gid, control_status_fn status,
		 control_status_fn metrics, control_forget_page_fn forget_page, void *userdata,
		 struct control **ret);
struct control *control_free(struct control *c);
