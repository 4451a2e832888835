/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "file-io.h"
#include "log.h"
#include "macro.h"
#include "uevent-listener.h"
#include "uevent.h"

/* The kernel's own uevents; udev re-broadcasts its processed copies on group 2. */
#define UEVENT_GROUP_KERNEL 1u

/*
 * Taking CPUs offline in bulk (SMT off on a large machine) sends several
 * uevents per CPU (the CPU, its machinecheck device, caches, ...), and a CXL
 * region coming online one per memory block, each costing a few KiB of
 * socket buffer.  Ask for plenty; without CAP_NET_ADMIN the kernel caps it
 * at net.core.rmem_max, and an overflow is recovered from (ENOBUFS → each
 * follower reads afresh), only later.
 */
#define UEVENT_RCVBUF (8 * 1024 * 1024)

/* A uevent is at most a path plus UEVENT_BUFFER_SIZE (2 KiB) of keys; MSG_TRUNC catches more. */
#define UEVENT_MSG_MAX 8192

/* More than any receive buffer holds: what is queued at an overrun is dropped in one go. */
#define UEVENT_DISCARD_MAX 65536

struct uevent_listener {
	struct uevent_follower followers[UEVENT_FOLLOWERS_MAX];
	size_t n_followers;
	bool any_sender;
	struct mnl_socket *nl;
	sd_event_source *io;
	uint64_t n_foreign;
	uint64_t n_overruns;
};

/*
 * Events were lost: whatever happened meanwhile, what the followers read
 * now is the truth.  What is still queued is older than that and is
 * dropped first, or a stale "offline" could close the reader of a CPU that
 * is back; what arrives after is newer and is acted on as usual.
 */
static void overrun(struct uevent_listener *l, int fd, char *buf, size_t size)
{
	l->n_overruns++;
	/* Bounded: a flood that never pauses must not keep us from everything else. */
	for (unsigned i = 0; i < UEVENT_DISCARD_MAX; i++) {
		ssize_t n = recv(fd, buf, size, MSG_DONTWAIT);

		if (n < 0 && errno != EINTR && errno != ENOBUFS)
			break;
	}
	for (size_t i = 0; i < l->n_followers; i++)
		l->followers[i].lost(l->followers[i].userdata);
}

static void hand_on(struct uevent_listener *l, const char *buf, size_t len)
{
	struct uevent u;

	if (uevent_parse(buf, len, &u) < 0) {
		log_debug("Malformed kernel uevent (%zu bytes), ignored", len);
		return;
	}
	for (size_t i = 0; i < l->n_followers; i++)
		l->followers[i].event(l->followers[i].userdata, &u);
}

static int on_uevent(sd_event_source *es, int fd, uint32_t revents, void *userdata)
{
	struct uevent_listener *l = userdata;
	static char buf[UEVENT_MSG_MAX];

	(void) revents;
	for (;;) {
		struct sockaddr_nl sender = {};
		struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
		struct msghdr msg = {
			.msg_name = &sender,
			.msg_namelen = sizeof(sender),
			.msg_iov = &iov,
			.msg_iovlen = 1,
		};
		ssize_t n = recvmsg(fd, &msg, MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return 0;
			if (errno == ENOBUFS) {
				overrun(l, fd, buf, sizeof(buf));
				continue;
			}
			log_error_errno(negative_errno(), "Reading kernel uevents failed: %m; CPU hotplug and "
					"memory coming online are no longer followed");
			(void) sd_event_source_set_enabled(es, SD_EVENT_OFF);
			return 0;
		}
		/*
		 * Only the kernel (port id 0, which no process can bind) on the
		 * kernel's group: anything else is a local process trying to make
		 * us close readers, or udev's re-broadcast.
		 */
		if (msg.msg_namelen != sizeof(sender) || sender.nl_family != AF_NETLINK ||
		    (!l->any_sender && (sender.nl_pid != 0 || sender.nl_groups != UEVENT_GROUP_KERNEL))) {
			l->n_foreign++;
			log_debug("Uevent socket: message from port %u groups %#x is not the kernel's, dropped",
				  sender.nl_pid, sender.nl_groups);
			continue;
		}
		if (msg.msg_flags & MSG_TRUNC) {
			log_debug("Kernel uevent longer than %zu bytes, ignored", sizeof(buf));
			continue;
		}
		hand_on(l, buf, (size_t) n);
	}
}

int uevent_listener_open(sd_event *event, const struct uevent_follower *followers, size_t n, bool any_sender,
			 struct uevent_listener **ret)
{
	_cleanup_free_ struct uevent_listener *l = NULL;
	int fd, r, size = UEVENT_RCVBUF;
	socklen_t sl = sizeof(size);

	if (n > UEVENT_FOLLOWERS_MAX)
		return log_error_errno(-E2BIG, "%zu uevent followers, at most %d", n, UEVENT_FOLLOWERS_MAX);
	l = calloc(1, sizeof(*l));
	if (!l)
		return log_error_errno(-ENOMEM, "Out of memory");
	memcpy(l->followers, followers, n * sizeof(*followers));
	l->n_followers = n;
	l->any_sender = any_sender;
	l->nl = mnl_socket_open2(NETLINK_KOBJECT_UEVENT, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (!l->nl)
		return log_notice_errno(negative_errno(), "Cannot open the kernel uevent socket: %m "
					"(the unit must allow AF_NETLINK); CPU hotplug is not followed (the CPUs "
					"read stay those online at start), nor memory coming online");
	fd = mnl_socket_get_fd(l->nl);
	/* SO_RCVBUFFORCE needs CAP_NET_ADMIN, which the unit does not grant: then up to rmem_max. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		(void) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, &sl) >= 0)
		log_debug("Uevent socket receive buffer: %d bytes", size);
	if (mnl_socket_bind(l->nl, UEVENT_GROUP_KERNEL, MNL_SOCKET_AUTOPID) < 0) {
		r = negative_errno();
		mnl_socket_close(l->nl);
		return log_notice_errno(r, "Cannot join the kernel's uevent group: %m; CPU hotplug is not "
					"followed (the CPUs read stay those online at start), nor memory coming online");
	}
	r = sd_event_add_io(event, &l->io, fd, EPOLLIN, on_uevent, l);
	if (r < 0) {
		mnl_socket_close(l->nl);
		return log_error_errno(r, "Failed to watch the uevent socket: %m; CPU hotplug is not followed, "
				       "nor memory coming online");
	}
	(void) sd_event_source_set_description(l->io, "uevent");
	for (size_t i = 0; i < n; i++)
		log_info("Following %s through kernel uevents", followers[i].name);
	if (any_sender)
		log_notice("Uevents from local processes are taken as the kernel's: --sysfs-memory points at "
			   "a stand-in (tests only)");
	*ret = TAKE_PTR(l);
	return 0;
}

struct uevent_listener *uevent_listener_free(struct uevent_listener *l)
{
	if (!l)
		return NULL;
	l->io = sd_event_source_disable_unref(l->io);
	if (l->nl)
		mnl_socket_close(l->nl);
	free(l);
	return NULL;
}

void uevent_listener_get_counts(const struct uevent_listener *l, struct uevent_listener_counts *ret)
{
	*ret = (struct uevent_listener_counts) {
		.foreign = l->n_foreign,
		.overruns = l->n_overruns,
	};
}
