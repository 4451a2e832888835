/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "log.h"
#include "macro.h"
#include "memory-online.h"
#include "uevent.h"

/*
 * A region's blocks are onlined one after another, milliseconds apart: a
 * second without another memory uevent ends the burst.  A burst that never
 * pauses (a huge region, or a churning operator) is looked at every ten
 * seconds all the same.
 */
#define QUIET_USEC (1000ULL * 1000ULL)
#define BURST_MAX_USEC (10ULL * 1000ULL * 1000ULL)

struct memory_online {
	memory_online_retry_t retry;
	void *userdata;
	sd_event *event;
	sd_event_source *timer;       /* armed while a burst is open */
	bool open;
	uint64_t first_usec;          /* CLOCK_MONOTONIC of the burst's first event */
	char first[96];               /* the burst's first event, for the log */
	unsigned more;                /* events of the burst after the first */
	uint64_t n_events, n_bursts;
};

static int on_quiet(sd_event_source *es, uint64_t usec, void *userdata)
{
	struct memory_online *o = userdata;
	char cause[160];

	(void) es;
	(void) usec;
	if (o->more > 0)
		snprintf(cause, sizeof(cause), "%s and %u more uevent%s", o->first, o->more, o->more == 1 ? "" : "s");
	else
		snprintf(cause, sizeof(cause), "%s", o->first);
	o->open = false;
	o->n_bursts++;
	o->retry(o->userdata, cause);
	return 0;
}

/* One event of a burst: the first opens it, each later one moves its end, never past BURST_MAX_USEC. */
static void note(struct memory_online *o, const char *what)
{
	uint64_t now = 0, due;
	int r;

	(void) sd_event_now(o->event, CLOCK_MONOTONIC, &now);
	o->n_events++;
	if (!o->open) {
		o->open = true;
		o->first_usec = now;
		o->more = 0;
		snprintf(o->first, sizeof(o->first), "%s", what);
	} else
		o->more++;
	due = now + QUIET_USEC;
	if (due > o->first_usec + BURST_MAX_USEC)
		due = o->first_usec + BURST_MAX_USEC;
	r = sd_event_source_set_time(o->timer, due);
	if (r >= 0)
		r = sd_event_source_set_enabled(o->timer, SD_EVENT_ONESHOT);
	if (r < 0) {
		/* Without the timer the burst is acted on at once: later than never. */
		log_warning_errno(r, "Cannot time the memory uevents' burst: %m; looking at once");
		(void) on_quiet(o->timer, now, o);
	}
}

void memory_online_uevent(void *userdata, const struct uevent *u)
{
	struct memory_online *o = userdata;
	const char *name;
	char what[96];

	if (!uevent_memory_may_be_online(u, &name))
		return;
	log_debug("Uevent %s %s (seqnum %llu): memory may have come online", u->action, u->devpath,
		  (unsigned long long) u->seqnum);
	snprintf(what, sizeof(what), "%.48s %.16s%s", name, u->action, u->synthetic ? " (synthetic)" : "");
	note(o, what);
}

void memory_online_lost(void *userdata)
{
	/* Whatever came online meanwhile went unseen: looked at as if it had been. */
	note(userdata, "lost uevents");
}

int memory_online_new(sd_event *event, memory_online_retry_t retry, void *userdata, struct memory_online **ret)
{
	_cleanup_free_ struct memory_online *o = calloc(1, sizeof(*o));
	int r;

	if (!o)
		return log_error_errno(-ENOMEM, "Out of memory");
	*o = (struct memory_online) { .retry = retry, .userdata = userdata, .event = event };
	r = sd_event_add_time(event, &o->timer, CLOCK_MONOTONIC, UINT64_MAX, 0, on_quiet, o);
	if (r < 0)
		return log_error_errno(r, "Cannot set up the memory uevents' timer: %m; memory coming online is "
				       "not followed");
	(void) sd_event_source_set_enabled(o->timer, SD_EVENT_OFF);
	(void) sd_event_source_set_description(o->timer, "memory-online");
	*ret = TAKE_PTR(o);
	return 0;
}

struct memory_online *memory_online_free(struct memory_online *o)
{
	if (!o)
		return NULL;
	o->timer = sd_event_source_disable_unref(o->timer);
	free(o);
	return NULL;
}

void memory_online_get_counts(const struct memory_online *o, struct memory_online_counts *ret)
{
	*ret = (struct memory_online_counts) { .events = o->n_events, .bursts = o->n_bursts };
}
