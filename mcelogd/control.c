/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "control.h"
#include "log.h"

/*
 * A client gets this long to send its request; a slow or hostile client
 * must not hold a slot, and the answer never blocks the event loop for long.
 */
#define CLIENT_TIMEOUT_USEC (2 * 1000000ULL)
#define MAX_CLIENTS 16
#define MAX_REQUEST 256

struct client {
	struct control *control;
	int fd;
	sd_event_source *io;
	sd_event_source *timer;
	char request[MAX_REQUEST];
	size_t len;
	bool refused;                /* credentials failed: the answer is an error */
};

struct control {
	sd_event *event;
	control_status_fn status;
	void *userdata;
	char *path;
	int fd;
	gid_t gid;
	sd_event_source *io;
	struct client *clients[MAX_CLIENTS];
	unsigned n_clients;
};

static void client_free(struct client *cl)
{
	if (!cl)
		return;
	sd_event_source_disable_unref(cl->io);
	sd_event_source_disable_unref(cl->timer);
	if (cl->fd >= 0)
		close(cl->fd);
	for (unsigned i = 0; i < MAX_CLIENTS; i++)
		if (cl->control->clients[i] == cl) {
			cl->control->clients[i] = NULL;
			cl->control->n_clients--;
		}
	free(cl);
}

static bool peer_in_group(int fd, gid_t gid)
{
	gid_t groups[256];
	socklen_t len = sizeof(groups);

	if (gid == (gid_t) -1)
		return false;
	/* SO_PEERGROUPS: the peer's supplementary groups, which SO_PEERCRED lacks. */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) < 0)
		return false;
	for (size_t i = 0; i < len / sizeof(gid_t); i++)
		if (groups[i] == gid)
			return true;
	return false;
}

static int peer_allowed(const struct control *c, int fd, struct ucred *cred)
{
	socklen_t len = sizeof(*cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, cred, &len) < 0)
		return negative_errno();
	if (cred->uid == 0 || cred->uid == geteuid())
		return 1;
	if (c->gid != (gid_t) -1 && (cred->gid == c->gid || peer_in_group(fd, c->gid)))
		return 1;
	return 0;
}

static void reply(struct client *cl, const char *text)
{
	size_t n = strlen(text), done = 0;

	/* The socket is blocking with a send timeout (set at accept). */
	while (done < n) {
		ssize_t k = send(cl->fd, text + done, n - done, MSG_NOSIGNAL);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			log_debug_errno(negative_errno(), "Control client went away: %m");
			return;
		}
		done += (size_t) k;
	}
}

static void answer(struct client *cl)
{
	struct control *c = cl->control;
	char *request = cl->request;

	request[cl->len] = '\0';
	request[strcspn(request, "\r\n")] = '\0';
	if (cl->refused)
		reply(cl, "{\"error\":\"permission denied\"}\n");
	else if (streq(request, "status")) {
		const char *json = c->status(c->userdata);

		if (!json) {
			reply(cl, "{\"error\":\"out of memory\"}\n");
			return;
		}
		reply(cl, json);
		reply(cl, "\n");
	} else
		reply(cl, "{\"error\":\"unknown request, expected 'status'\"}\n");
}

static int on_client_timeout(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct client *cl = userdata;

	(void) s;
	(void) usec;
	log_debug("Control client sent no complete request in time, closing");
	client_free(cl);
	return 0;
}

static int on_client_io(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct client *cl = userdata;
	ssize_t k;

	(void) s;
	(void) revents;
	k = recv(fd, cl->request + cl->len, sizeof(cl->request) - 1 - cl->len, MSG_DONTWAIT);
	if (k < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (k <= 0) {
		/* EOF before a newline: answer what was sent (e.g. "printf status | socat"). */
		if (k == 0 && cl->len > 0)
			answer(cl);
		client_free(cl);
		return 0;
	}
	cl->len += (size_t) k;
	if (memchr(cl->request, '\n', cl->len) || cl->len >= sizeof(cl->request) - 1) {
		answer(cl);
		client_free(cl);
	}
	return 0;
}

static int on_accept(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct control *c = userdata;
	struct timeval tv = { .tv_sec = 1 };
	struct ucred cred;
	struct client *cl;
	int cfd, r;

	(void) s;
	(void) revents;
	cfd = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
	if (cfd < 0) {
		if (errno != EAGAIN && errno != EINTR)
			log_warning_errno(negative_errno(), "Control socket accept failed: %m");
		return 0;
	}
	r = peer_allowed(c, cfd, &cred);
	if (r < 0) {
		log_warning_errno(r, "Cannot read the control client's credentials: %m");
		close(cfd);
		return 0;
	}
	if (r == 0)
		log_notice("Control request from uid %u (pid %d) refused: not root and not in "
			   "the control socket's group", (unsigned) cred.uid, (int) cred.pid);
	if (c->n_clients >= MAX_CLIENTS) {
		log_notice("Too many control clients at once, refusing one");
		close(cfd);
		return 0;
	}
	(void) setsockopt(cfd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));

	cl = calloc(1, sizeof(*cl));
	if (!cl) {
		close(cfd);
		return 0;
	}
	cl->control = c;
	cl->fd = cfd;
	/* Refused clients still get their request read and an error answered: closing
	 * with their request unread would reset the connection before they see why. */
	cl->refused = r == 0;
	for (unsigned i = 0; i < MAX_CLIENTS; i++)
		if (!c->clients[i]) {
			c->clients[i] = cl;
			c->n_clients++;
			break;
		}
	r = sd_event_add_io(c->event, &cl->io, cfd, EPOLLIN, on_client_io, cl);
	if (r >= 0)
		r = sd_event_add_time_relative(c->event, &cl->timer, CLOCK_MONOTONIC,
					       CLIENT_TIMEOUT_USEC, 0, on_client_timeout, cl);
	if (r < 0) {
		log_warning_errno(r, "Cannot serve a control client: %m");
		client_free(cl);
	}
	return 0;
}

int control_open(sd_event *event, const char *path, gid_t gid, control_status_fn status, void *userdata,
		 struct control **ret)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct control *c;
	int r;

	if (strlen(path) >= sizeof(sa.sun_path))
		return log_error_errno(-ENAMETOOLONG, "Control socket path too long: %s", path);
	strcpy(sa.sun_path, path);

	c = calloc(1, sizeof(*c));
	if (!c)
		return log_error_errno(-ENOMEM, "Out of memory");
	c->event = event;
	c->status = status;
	c->userdata = userdata;
	c->gid = gid;
	c->fd = -1;
	c->path = strdup(path);
	if (!c->path) {
		control_free(c);
		return log_error_errno(-ENOMEM, "Out of memory");
	}
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (c->fd < 0) {
		r = negative_errno();
		control_free(c);
		return log_error_errno(r, "Cannot create the control socket: %m");
	}
	/* A socket left by a daemon that crashed would make bind() fail. */
	(void) unlink(path);
	/* Listening as soon as the file exists: a client that sees it can connect.  The
	 * file starts as the umask leaves it (the unit's 0077: root only), then opens up. */
	if (bind(c->fd, (struct sockaddr *) &sa, sizeof(sa)) < 0 || listen(c->fd, MAX_CLIENTS) < 0 ||
	    chmod(path, 0660) < 0) {
		r = negative_errno();
		control_free(c);
		return log_error_errno(r, "Cannot set up the control socket %s: %m", path);
	}
	/* Without CAP_CHOWN (the shipped unit's set) only a group the process is in can be
	 * handed over (SupplementaryGroups=); either way root is still answered. */
	if (gid != (gid_t) -1 && chown(path, (uid_t) -1, gid) < 0) {
		log_warning_errno(negative_errno(), "Cannot give the control socket %s to SocketGroup=: %m "
				  "(the service must be in that group: SupplementaryGroups= in a drop-in, "
				  "see mcelogd.conf(5)); only root may ask for status", path);
		c->gid = (gid_t) -1;
	}
	r = sd_event_add_io(event, &c->io, c->fd, EPOLLIN, on_accept, c);
	if (r < 0) {
		control_free(c);
		return log_error_errno(r, "Cannot watch the control socket: %m");
	}
	*ret = c;
	return 0;
}

struct control *control_free(struct control *c)
{
	if (!c)
		return NULL;
	/* Clients hold no state worth saving: a stop just hangs up on them. */
	for (unsigned i = 0; i < MAX_CLIENTS; i++)
		client_free(c->clients[i]);
	sd_event_source_disable_unref(c->io);
	if (c->fd >= 0) {
		close(c->fd);
		(void) unlink(c->path);
	}
	free(c->path);
	free(c);
	return NULL;
}
