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

#include "clock.h"
#include "control.h"
#include "control-request.h"
#include "log.h"

/*
 * A client gets this long for the whole exchange, its request and reading our
 * answer: a slow or hostile client must not hold a slot.  Nothing here ever
 * blocks the event loop: requests are read and answers written only when the
 * socket is ready, so a client that stops reading costs a slot, not a stall.
 */
#define CLIENT_TIMEOUT_USEC (2 * 1000000ULL)
#define MAX_CLIENTS 16
#define MAX_REQUEST 256
#define TURNED_AWAY_ANSWER "{\"error\":\"mcelogd has no file descriptor free (RLIMIT_NOFILE): see its log\"}"
#define ACCEPT_PAUSE_USEC (1000000ULL)

struct client {
	struct control *control;
	int fd;
	sd_event_source *io;
	sd_event_source *timer;
	char request[MAX_REQUEST];
	size_t len;
	bool refused;                /* credentials failed: the answer is an error */
	uid_t uid;                   /* the peer's, for requests only root may make */
	pid_t pid;
	bool turned_away;            /* served through the spare descriptor: the answer says why not */
	bool overflow;               /* longer than a request can be: read to its end, then refuse */
	char *answer;                /* once set, the request is done and this is sent */
	size_t answer_len, answer_sent;
};

struct control {
	sd_event *event;
	control_status_fn status;
	control_status_fn metrics;
	control_forget_page_fn forget_page;
	void *userdata;
	char *path;
	int fd;
	gid_t gid;
	sd_event_source *io;
	struct client *clients[MAX_CLIENTS];
	unsigned n_clients;
	/* Held so that a client can still be told why when every other descriptor is in
	 * use: without it, accept() fails with EMFILE and the listening socket stays
	 * readable, and the loop spins.  -1: could not be had back (then accepting pauses). */
	int spare_fd;
	sd_event_source *resume;
	uint64_t n_turned_away, last_told_usec;
};

static void client_free(struct client *cl)
{
	if (!cl)
		return;
	sd_event_source_disable_unref(cl->io);
	sd_event_source_disable_unref(cl->timer);
	if (cl->fd >= 0)
		close(cl->fd);
	/* Its descriptor was the spare one: hold one again for the next client turned away. */
	if (cl->turned_away && cl->control->spare_fd < 0)
		cl->control->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	free(cl->answer);
	for (unsigned i = 0; i < MAX_CLIENTS; i++)
		if (cl->control->clients[i] == cl) {
			cl->control->clients[i] = NULL;
			cl->control->n_clients--;
		}
	if (cl->control->io)
		(void) sd_event_source_set_enabled(cl->control->io, SD_EVENT_ON);
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

static int queue_answer(struct client *cl, const char *text, const char *tail)
{
	size_t n = strlen(text), m = strlen(tail);

	cl->answer = malloc(n + m + 1);
	if (!cl->answer)
		return -ENOMEM;
	memcpy(cl->answer, text, n);
	memcpy(cl->answer + n, tail, m + 1);
	cl->answer_len = n + m;
	cl->answer_sent = 0;
	return sd_event_source_set_io_events(cl->io, EPOLLOUT);
}

static void answer(struct client *cl, bool complete)
{
	struct control *c = cl->control;
	const char *problem;
	enum control_request req;
	int r;

	req = control_request_parse(cl->request, cl->len, complete, &problem);
	if (cl->turned_away)
		r = queue_answer(cl, TURNED_AWAY_ANSWER, "\n");
	else if (cl->refused)
		r = queue_answer(cl, "{\"error\":\"permission denied\"}", "\n");
	else if (req == CONTROL_REQUEST_BAD) {
		log_debug("Control request refused: %s", problem);
		r = queue_answer(cl, problem, "\n");
	} else if (req == CONTROL_REQUEST_STATUS) {
		const char *json = c->status(c->userdata);

		r = json ? queue_answer(cl, json, "\n") : queue_answer(cl, "{\"error\":\"out of memory\"}", "\n");
	} else if (req == CONTROL_REQUEST_FORGET_PAGE && c->forget_page) {
		uint64_t pfn = 0;

		(void) control_request_page(cl->request, cl->len, &pfn);
		if (cl->uid != 0) {
			log_notice("Control request forget-page from uid %u (pid %d) refused: only root may",
				   (unsigned) cl->uid, (int) cl->pid);
			r = queue_answer(cl, "{\"error\":\"forget-page: only root may change the known-bad pages\"}", "\n");
		} else
			r = queue_answer(cl, c->forget_page(c->userdata, pfn, cl->uid, cl->pid), "\n");
	} else if (req == CONTROL_REQUEST_METRICS && c->metrics) {
		const char *text = c->metrics(c->userdata);

		r = text ? queue_answer(cl, text, "") : queue_answer(cl, "{\"error\":\"no metrics\"}", "\n");
	} else
		r = queue_answer(cl, "{\"error\":\"unknown request, expected 'status', 'metrics' or 'forget-page 0xPFN'\"}", "\n");
	if (r < 0) {
		log_warning_errno(r, "Cannot answer a control client: %m");
		client_free(cl);
	}
}

/* Sends what the socket takes now; the client is done when all is sent or it went away. */
static void send_answer(struct client *cl)
{
	while (cl->answer_sent < cl->answer_len) {
		ssize_t k = send(cl->fd, cl->answer + cl->answer_sent, cl->answer_len - cl->answer_sent,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return;
			log_debug_errno(negative_errno(), "Control client went away: %m");
			break;
		}
		cl->answer_sent += (size_t) k;
	}
	client_free(cl);
}

static int on_client_timeout(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct client *cl = userdata;

	(void) s;
	(void) usec;
	log_debug("Control client did not finish in time (%s), closing",
		  cl->answer ? "it is not reading its answer" : "no complete request");
	client_free(cl);
	return 0;
}

static int on_client_io(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct client *cl = userdata;
	ssize_t k;

	(void) s;
	(void) revents;
	if (cl->answer) {
		send_answer(cl);
		return 0;
	}
	k = recv(fd, cl->request + cl->len, sizeof(cl->request) - 1 - cl->len, MSG_DONTWAIT);
	if (k < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (k <= 0) {
		/* EOF before a newline: answer what was sent (e.g. "printf status | socat"). */
		if (k == 0 && (cl->len > 0 || cl->overflow))
			answer(cl, !cl->overflow);
		else
			client_free(cl);
		return 0;
	}
	cl->len += (size_t) k;
	if (memchr(cl->request, '\n', cl->len))
		answer(cl, !cl->overflow);
	else if (cl->len >= sizeof(cl->request) - 1) {
		/* Read on to the end of the line before refusing: a client whose request
		 * is still unread when we close gets a reset instead of our answer. */
		cl->overflow = true;
		cl->len = 0;
	}
	return 0;
}


static int on_resume(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct control *c = userdata;

	(void) s;
	(void) usec;
	c->resume = sd_event_source_disable_unref(c->resume);
	if (c->spare_fd < 0)
		c->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	(void) sd_event_source_set_enabled(c->io, SD_EVENT_ON);
	return 0;
}

static void serve(struct control *c, int cfd, const struct ucred *cred, bool refused, bool turned_away);

/* Out of descriptors: the waiting client is served through the spare one, and told why. */
static void turn_away(struct control *c, int listen_fd, int error)
{
	uint64_t now = now_monotonic_usec();
	int cfd = -1;

	if (c->spare_fd >= 0) {
		close(c->spare_fd);
		c->spare_fd = -1;
		cfd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (cfd < 0)
			c->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	}
	c->n_turned_away++;
	if (c->last_told_usec == 0 || now - c->last_told_usec >= 60 * 1000000ULL) {
		log_warning_errno(error, "Control socket: %m; %llu client(s) turned away so far "
				  "(raise LimitNOFILE=, or see the descriptor budget in the log)",
				  (unsigned long long) c->n_turned_away);
		c->last_told_usec = now;
	}
	if (cfd >= 0) {
		/* Read its request first, as for any client: closing on it unread would reset
		 * the connection before it sees the answer. */
		serve(c, cfd, NULL, false, true);
		return;
	}
	/* No client could be taken off the queue: stop listening a moment rather than spin. */
	if (!c->resume && sd_event_add_time_relative(c->event, &c->resume, CLOCK_MONOTONIC, ACCEPT_PAUSE_USEC, 0,
						     on_resume, c) >= 0)
		(void) sd_event_source_set_enabled(c->io, SD_EVENT_OFF);
}

static int on_accept(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct control *c = userdata;
	struct ucred cred;
	int cfd, r;

	(void) s;
	(void) revents;
	cfd = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (cfd < 0 && (errno == EMFILE || errno == ENFILE)) {
		turn_away(c, fd, negative_errno());
		return 0;
	}
	if (cfd < 0) {
		if (errno != EAGAIN && errno != EINTR)
			log_warning_errno(negative_errno(), "Control socket accept failed: %m");
		return 0;
	}
	/* Descriptors again: hold the spare before anything else takes the last one. */
	if (c->spare_fd < 0)
		c->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	r = peer_allowed(c, cfd, &cred);
	if (r < 0) {
		log_warning_errno(r, "Cannot read the control client's credentials: %m");
		close(cfd);
		return 0;
	}
	if (r == 0)
		log_notice("Control request from uid %u (pid %d) refused: not root and not in "
			   "the control socket's group", (unsigned) cred.uid, (int) cred.pid);
	serve(c, cfd, &cred, r == 0, false);
	return 0;
}

static void serve(struct control *c, int cfd, const struct ucred *cred, bool refused, bool turned_away)
{
	struct client *cl = calloc(1, sizeof(*cl));
	int r;

	if (!cl) {
		close(cfd);
		if (turned_away && c->spare_fd < 0)
			c->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		return;
	}
	cl->control = c;
	cl->fd = cfd;
	/* Refused clients still get their request read and an error answered: closing
	 * with their request unread would reset the connection before they see why. */
	cl->refused = refused;
	cl->turned_away = turned_away;
	/* No credentials (a turned-away client): nobody, so nothing but an error is answered. */
	cl->uid = cred ? cred->uid : (uid_t) -1;
	cl->pid = cred ? cred->pid : 0;
	for (unsigned i = 0; i < MAX_CLIENTS; i++)
		if (!c->clients[i]) {
			c->clients[i] = cl;
			c->n_clients++;
			break;
		}
	/* Every slot taken: further clients wait in the listen backlog, not refused,
	 * until a slot frees (at the latest when a silent one times out). */
	if (c->n_clients >= MAX_CLIENTS)
		(void) sd_event_source_set_enabled(c->io, SD_EVENT_OFF);
	r = sd_event_add_io(c->event, &cl->io, cfd, EPOLLIN, on_client_io, cl);
	if (r >= 0)
		r = sd_event_add_time_relative(c->event, &cl->timer, CLOCK_MONOTONIC,
					       CLIENT_TIMEOUT_USEC, 0, on_client_timeout, cl);
	if (r < 0) {
		log_warning_errno(r, "Cannot serve a control client: %m");
		client_free(cl);
	}
}

int control_open(sd_event *event, const char *path, gid_t gid, control_status_fn status,
		 control_status_fn metrics, control_forget_page_fn forget_page, void *userdata,
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
	c->metrics = metrics;
	c->forget_page = forget_page;
	c->userdata = userdata;
	c->gid = gid;
	c->fd = -1;
	c->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
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
	sd_event_source_disable_unref(c->resume);
	if (c->spare_fd >= 0)
		close(c->spare_fd);
	if (c->fd >= 0) {
		close(c->fd);
		(void) unlink(c->path);
	}
	free(c->path);
	free(c);
	return NULL;
}
