/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <systemd/sd-event.h>
#include <time.h>
#include <unistd.h>

#include "cpu-hotplug.h"
#include "cpu-list.h"
#include "file-io.h"
#include "log.h"
#include "uevent.h"

/* The kernel's own uevents; udev re-broadcasts its processed copies on group 2. */
#define UEVENT_GROUP_KERNEL 1u

/*
 * Taking CPUs offline in bulk (SMT off on a large machine) sends several
 * uevents per CPU (the CPU, its machinecheck device, caches, ...), each
 * costing a few KiB of socket buffer.  Ask for plenty; without
 * CAP_NET_ADMIN the kernel caps it at net.core.rmem_max, and an overflow
 * is recovered from (ENOBUFS → re-read the online set), only later.
 */
#define UEVENT_RCVBUF (8 * 1024 * 1024)

/* A uevent is at most a path plus UEVENT_BUFFER_SIZE (2 KiB) of keys; MSG_TRUNC catches more. */
#define UEVENT_MSG_MAX 8192

/* More than any receive buffer holds: what is queued at an overrun is dropped in one go. */
#define UEVENT_DISCARD_MAX 65536

/*
 * Suspend to RAM takes the non-boot CPUs down and up again without a uevent,
 * and a CPU that went down keeps its perf events detached.  A resume shows as
 * CLOCK_BOOTTIME gaining on CLOCK_MONOTONIC (which stops while suspended); the
 * kernel also cancels CLOCK_REALTIME timerfds armed with TFD_TIMER_CANCEL_ON_SET
 * when it resumes, which wakes us at once.  The periodic look is for kernels
 * that do not, and costs one wakeup in five minutes.
 */
#define RESUME_CHECK_USEC (300ULL * 1000000ULL)
/* Sleep shorter than this is not a suspend (it cannot be: the clocks only drift apart by sleep). */
#define RESUME_MIN_SLEEP_USEC 100000ULL

struct cpu_hotplug {
	struct cpu_hotplug_handler handler;
	struct mnl_socket *nl;
	sd_event_source *io;
	int clock_fd;                 /* CLOCK_REALTIME timerfd, cancelled at a resume or clock step */
	sd_event_source *clock_io;
	sd_event_source *check_timer;
	uint64_t slept_usec;          /* CLOCK_BOOTTIME - CLOCK_MONOTONIC when last looked at */
	uint64_t n_events;     /* CPU events acted on */
	uint64_t n_foreign;    /* messages not from the kernel, dropped */
	uint64_t n_overruns;
	uint64_t n_resumes;
};

static uint64_t clock_usec(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts) < 0)
		return 0;
	return (uint64_t) ts.tv_sec * 1000000ULL + (uint64_t) ts.tv_nsec / 1000;
}

/* Time spent suspended since boot. */
static uint64_t slept_usec(void)
{
	uint64_t mono = clock_usec(CLOCK_MONOTONIC), boot = clock_usec(CLOCK_BOOTTIME);

	return boot > mono ? boot - mono : 0;
}

static int read_online(bool *set, size_t max)
{
	return read_cpu_list_file("/sys/devices/system/cpu/online", set, max);
}

/* The online set now is the truth: every per-CPU source reads exactly those CPUs, afresh. */
static void hand_online_set(struct cpu_hotplug *h, const char *why)
{
	static bool online[CPU_LIST_MAX];
	int r;

	r = read_online(online, ELEMENTSOF(online));
	if (r <= 0) {
		log_error_errno(r < 0 ? r : -EINVAL, "%s, and /sys/devices/system/cpu/online cannot be "
				"read: %m; the CPUs read may not match the CPUs online", why);
		return;
	}
	log_notice("%s; re-reading the online CPUs", why);
	h->handler.resync(h->handler.userdata, online, ELEMENTSOF(online));
}

/*
 * Events were lost: whatever happened meanwhile, the online set now is the
 * truth.  What is still queued is older than that and is dropped first, or
 * a stale "offline" could close the reader of a CPU that is back; what
 * arrives after the set is read is newer and is acted on as usual.
 */
static void resync(struct cpu_hotplug *h, int fd, char *buf, size_t size)
{
	h->n_overruns++;
	/* Bounded: a flood that never pauses must not keep us from everything else. */
	for (unsigned i = 0; i < UEVENT_DISCARD_MAX; i++) {
		ssize_t n = recv(fd, buf, size, MSG_DONTWAIT);

		if (n < 0 && errno != EINTR && errno != ENOBUFS)
			break;
	}
	hand_online_set(h, "Kernel uevents were lost (receive queue full)");
}

/* After a wakeup that may follow a resume: if the system slept, every CPU is read afresh. */
static void check_resumed(struct cpu_hotplug *h)
{
	uint64_t now = slept_usec();
	char why[128];

	if (now < h->slept_usec + RESUME_MIN_SLEEP_USEC)
		return;
	snprintf(why, sizeof(why), "The system resumed after %.1f s suspended",
		 (double) (now - h->slept_usec) / 1e6);
	h->slept_usec = now;
	h->n_resumes++;
	hand_online_set(h, why);
}

static int arm_clock_fd(int fd)
{
	/* Far ahead: it never expires, it only gets cancelled. */
	struct itimerspec t = { .it_value = { .tv_sec = (time_t) 1 << 40 } };

	if (timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &t, NULL) < 0)
		return negative_errno();
	return 0;
}

static int on_clock_cancelled(sd_event_source *es, int fd, uint32_t revents, void *userdata)
{
	struct cpu_hotplug *h = userdata;
	uint64_t expirations;

	(void) revents;
	/* ECANCELED: the clock was set or the system resumed; the timer must be armed again. */
	(void) read(fd, &expirations, sizeof(expirations));
	if (arm_clock_fd(fd) < 0) {
		log_warning_errno(negative_errno(), "Cannot re-arm the clock-change timer: %m; resumes are "
				  "noticed within five minutes only");
		(void) sd_event_source_set_enabled(es, SD_EVENT_OFF);
	}
	check_resumed(h);
	return 0;
}

static int on_check_timer(sd_event_source *es, uint64_t usec, void *userdata)
{
	struct cpu_hotplug *h = userdata;

	(void) sd_event_source_set_time(es, usec + RESUME_CHECK_USEC);
	check_resumed(h);
	return 0;
}

/* Not fatal: without it a resume is noticed at the next periodic look, or not at all. */
static void watch_resumes(struct cpu_hotplug *h, sd_event *event)
{
	uint64_t now;
	int r;

	h->slept_usec = slept_usec();
	h->clock_fd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
	if (h->clock_fd >= 0 && arm_clock_fd(h->clock_fd) >= 0 &&
	    sd_event_add_io(event, &h->clock_io, h->clock_fd, EPOLLIN, on_clock_cancelled, h) >= 0)
		(void) sd_event_source_set_description(h->clock_io, "clock-change");
	else
		log_notice_errno(negative_errno(), "Cannot watch for clock changes: %m; a resume from "
				 "suspend is noticed within five minutes");
	r = sd_event_now(event, CLOCK_MONOTONIC, &now);
	if (r >= 0)
		r = sd_event_add_time(event, &h->check_timer, CLOCK_MONOTONIC, now + RESUME_CHECK_USEC,
				      RESUME_CHECK_USEC / 10, on_check_timer, h);
	if (r < 0)
		log_notice_errno(r, "Cannot schedule the periodic resume check: %m");
	else
		(void) sd_event_source_set_description(h->check_timer, "resume-check");
}

static void handle_message(struct cpu_hotplug *h, const char *buf, size_t len)
{
	static bool online[CPU_LIST_MAX];
	struct uevent u;
	enum cpu_event e;
	unsigned cpu;
	int r;

	if (uevent_parse(buf, len, &u) < 0) {
		log_debug("Malformed kernel uevent (%zu bytes), ignored", len);
		return;
	}
	r = uevent_cpu_event(&u, CPU_LIST_MAX, &cpu, &e);
	if (r == -ERANGE) {
		log_notice("Uevent for %s beyond the %u CPUs mcelogd handles, ignored", u.devpath,
			   CPU_LIST_MAX);
		return;
	}
	if (r < 0)
		return;
	/*
	 * Anyone with root can make the kernel replay any action for a device
	 * (udev's coldplug "add" at boot does): the CPU did not change, and
	 * acting on a replayed "offline" would blind us to a running CPU.
	 */
	if (u.synthetic) {
		log_debug("Synthetic uevent %s %s ignored", u.action, u.devpath);
		return;
	}
	h->n_events++;
	log_debug("Uevent %s %s (seqnum %llu)", u.action, u.devpath, (unsigned long long) u.seqnum);
	switch (e) {
	case CPU_EVENT_ONLINE:
		h->handler.changed(h->handler.userdata, cpu, true);
		break;
	case CPU_EVENT_OFFLINE:
	case CPU_EVENT_REMOVE:
		h->handler.changed(h->handler.userdata, cpu, false);
		break;
	case CPU_EVENT_ADD:
		/* A hot-added CPU usually stays offline until told otherwise ("online" follows then). */
		if (read_online(online, ELEMENTSOF(online)) > 0 && online[cpu])
			h->handler.changed(h->handler.userdata, cpu, true);
		break;
	default:
		break;
	}
}

static int on_uevent(sd_event_source *es, int fd, uint32_t revents, void *userdata)
{
	struct cpu_hotplug *h = userdata;
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
				resync(h, fd, buf, sizeof(buf));
				continue;
			}
			log_error_errno(negative_errno(), "Reading kernel uevents failed: %m; CPU hotplug is "
					"no longer followed, the CPUs read stay as they are");
			(void) sd_event_source_set_enabled(es, SD_EVENT_OFF);
			return 0;
		}
		/*
		 * Only the kernel (port id 0, which no process can bind) on the
		 * kernel's group: anything else is a local process trying to make
		 * us close readers, or udev's re-broadcast.
		 */
		if (msg.msg_namelen != sizeof(sender) || sender.nl_family != AF_NETLINK ||
		    sender.nl_pid != 0 || sender.nl_groups != UEVENT_GROUP_KERNEL) {
			h->n_foreign++;
			log_debug("Uevent socket: message from port %u groups %#x is not the kernel's, dropped",
				  sender.nl_pid, sender.nl_groups);
			continue;
		}
		if (msg.msg_flags & MSG_TRUNC) {
			log_debug("Kernel uevent longer than %zu bytes, ignored", sizeof(buf));
			continue;
		}
		handle_message(h, buf, (size_t) n);
	}
}

int cpu_hotplug_open(sd_event *event, const struct cpu_hotplug_handler *handler, struct cpu_hotplug **ret)
{
	_cleanup_free_ struct cpu_hotplug *h = NULL;
	int fd, r, size = UEVENT_RCVBUF;
	socklen_t sl = sizeof(size);

	h = calloc(1, sizeof(*h));
	if (!h)
		return log_error_errno(-ENOMEM, "Out of memory");
	h->handler = *handler;
	h->clock_fd = -1;
	h->nl = mnl_socket_open2(NETLINK_KOBJECT_UEVENT, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (!h->nl)
		return log_notice_errno(negative_errno(), "Cannot open the kernel uevent socket: %m "
					"(the unit must allow AF_NETLINK); CPU hotplug is not followed, "
					"the CPUs read stay those online at start");
	fd = mnl_socket_get_fd(h->nl);
	/* SO_RCVBUFFORCE needs CAP_NET_ADMIN, which the unit does not grant: then up to rmem_max. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		(void) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, &sl) >= 0)
		log_debug("Uevent socket receive buffer: %d bytes", size);
	if (mnl_socket_bind(h->nl, UEVENT_GROUP_KERNEL, MNL_SOCKET_AUTOPID) < 0) {
		r = negative_errno();
		mnl_socket_close(h->nl);
		return log_notice_errno(r, "Cannot join the kernel's uevent group: %m; CPU hotplug is "
					"not followed, the CPUs read stay those online at start");
	}
	r = sd_event_add_io(event, &h->io, fd, EPOLLIN, on_uevent, h);
	if (r < 0) {
		mnl_socket_close(h->nl);
		return log_error_errno(r, "Failed to watch the uevent socket: %m; CPU hotplug is not "
				       "followed");
	}
	(void) sd_event_source_set_description(h->io, "uevent");
	watch_resumes(h, event);
	log_info("Following CPU hotplug through kernel uevents");
	*ret = TAKE_PTR(h);
	return 0;
}

struct cpu_hotplug *cpu_hotplug_free(struct cpu_hotplug *h)
{
	if (!h)
		return NULL;
	h->io = sd_event_source_disable_unref(h->io);
	h->clock_io = sd_event_source_disable_unref(h->clock_io);
	h->check_timer = sd_event_source_disable_unref(h->check_timer);
	if (h->clock_fd >= 0)
		close(h->clock_fd);
	if (h->nl)
		mnl_socket_close(h->nl);
	free(h);
	return NULL;
}

void cpu_hotplug_get_counts(const struct cpu_hotplug *h, struct cpu_hotplug_counts *ret)
{
	*ret = (struct cpu_hotplug_counts) {
		.events = h->n_events,
		.foreign = h->n_foreign,
		.overruns = h->n_overruns,
		.resumes = h->n_resumes,
	};
}
