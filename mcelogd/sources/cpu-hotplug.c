/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <systemd/sd-event.h>
#include <time.h>
#include <unistd.h>

#include "cpu-hotplug.h"
#include "cpu-list.h"
#include "file-io.h"
#include "log.h"
#include "uevent.h"

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
	int clock_fd;                 /* CLOCK_REALTIME timerfd, cancelled at a resume or clock step */
	sd_event_source *clock_io;
	sd_event_source *check_timer;
	uint64_t slept_usec;          /* CLOCK_BOOTTIME - CLOCK_MONOTONIC when last looked at */
	uint64_t n_events;     /* CPU events acted on */
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

void cpu_hotplug_lost(void *userdata)
{
	hand_online_set(userdata, "Kernel uevents were lost (receive queue full)");
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

void cpu_hotplug_uevent(void *userdata, const struct uevent *u)
{
	static bool online[CPU_LIST_MAX];
	struct cpu_hotplug *h = userdata;
	enum cpu_event e;
	unsigned cpu;
	int r;

	r = uevent_cpu_event(u, CPU_LIST_MAX, &cpu, &e);
	if (r == -ERANGE) {
		log_notice("Uevent for %s beyond the %u CPUs mcelogd handles, ignored", u->devpath,
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
	if (u->synthetic) {
		log_debug("Synthetic uevent %s %s ignored", u->action, u->devpath);
		return;
	}
	h->n_events++;
	log_debug("Uevent %s %s (seqnum %llu)", u->action, u->devpath, (unsigned long long) u->seqnum);
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

int cpu_hotplug_new(sd_event *event, const struct cpu_hotplug_handler *handler, struct cpu_hotplug **ret)
{
	struct cpu_hotplug *h = calloc(1, sizeof(*h));

	if (!h)
		return log_error_errno(-ENOMEM, "Out of memory");
	h->handler = *handler;
	h->clock_fd = -1;
	watch_resumes(h, event);
	*ret = h;
	return 0;
}

struct cpu_hotplug *cpu_hotplug_free(struct cpu_hotplug *h)
{
	if (!h)
		return NULL;
	h->clock_io = sd_event_source_disable_unref(h->clock_io);
	h->check_timer = sd_event_source_disable_unref(h->check_timer);
	if (h->clock_fd >= 0)
		close(h->clock_fd);
	free(h);
	return NULL;
}

void cpu_hotplug_get_counts(const struct cpu_hotplug *h, struct cpu_hotplug_counts *ret)
{
	*ret = (struct cpu_hotplug_counts) {
		.events = h->n_events,
		.resumes = h->n_resumes,
	};
}
