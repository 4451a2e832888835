/* SPDX-License-Identifier: MIT */
/*
 * The counter flight recorder: on every online CPU, a perf group of
 * counting events, system-wide (pid -1, cpu N), whose values every
 * Interval= make that CPU's history (snapshot/counter-history.h), and which
 * is read once more when a record of that CPU is annotated.
 *
 * The kernel keeps the history where it can (counter-ring.h): a cpu-clock
 * sampler leads each group and writes the group's values into an overwrite
 * ring on its own CPU, and the history is rebuilt from the ring when a record
 * comes, so an idle daemon costs nothing however many CPUs there are.  Where
 * the kernel refuses that (no write_backward, a locked-memory limit), a timer
 * reads every CPU's groups instead.
 *
 * Hardware and software events are two groups: a group is scheduled on the
 * PMU all or nothing, and a hardware group that cannot be (no PMU in a VM,
 * counters held by someone else) must never take the software counts with
 * it.  Nothing here touches the machine-check readers: a counter that fails
 * costs its own figure only.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "clock.h"
#include "counter-history.h"
#include "counter-ring.h"
#include "cpu-list.h"
#include "daemon-config.h"
#include "fd-budget.h"
#include "file-io.h"
#include "json-writer.h"
#include "keepalive.h"
#include "log.h"
#include "macro.h"
#include "perf-group-read.h"
#include "snapshots.h"

enum group {
	GROUP_HARDWARE,
	GROUP_SOFTWARE,
	_GROUP_MAX,
};

static const char *const group_names[_GROUP_MAX] = {
	[GROUP_HARDWARE] = "hardware",
	[GROUP_SOFTWARE] = "software",
};

/* perf's own names for the generic events (perf list), so that they need no PMU tables. */
static const struct generic_event {
	const char *name;
	uint32_t type;
	uint64_t config;
} generic_events[] = {
	{ "cycles",              PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles",          PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions",        PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "ref-cycles",          PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cache-references",    PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses",        PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches",            PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses",       PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles",          PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend",  PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "cpu-clock",           PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock",          PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "context-switches",    PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations",      PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "page-faults",         PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults",        PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults",        PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
};

/* Counters= unset: what says most about a CPU on every architecture perf knows. */
static const char *const default_events[] = {
	"cycles", "instructions", "ref-cycles", "cache-references", "cache-misses",
	"branches", "branch-misses",
	"cpu-clock", "context-switches", "cpu-migrations", "page-faults",
};

struct counter_event {
	char name[SNAPSHOT_EVENT_NAME_MAX];
	struct perf_event_attr attr;
	enum group group;
	char encode_error[96];     /* "": encoded; else why the name means nothing here */
	char naming[48];           /* whose name it is: "perf" (generic) or "libpfm4 <its PMU>" */
};

struct cpu_counters {
	bool open;
	int leader[_GROUP_MAX];              /* -1: no member of the group opened */
	size_t n_members[_GROUP_MAX];
	int fd[COUNTER_EVENTS_MAX];          /* -1: not open (see open_error) */
	uint64_t id[COUNTER_EVENTS_MAX];
	int open_error[COUNTER_EVENTS_MAX];  /* negative errno of perf_event_open */
	struct counter_history *history;
	int64_t last_read_usec;
	/* Kernel-kept history: the ring (fd -1: none), each group's sampler id, and the
	 * read taken at open, which starts the first interval. */
	struct counter_ring ring;
	uint64_t sampler_id[_GROUP_MAX];
	struct counter_reading opened[COUNTER_EVENTS_MAX];
	int64_t opened_usec;
};

/* A sample out of a CPU's ring, while the history is rebuilt from them. */
struct ring_sample {
	uint64_t sampler_id, time_ns;
	struct perf_group_read group;
};

struct counters {
	sd_event *event;
	sd_event_source *timer;
	uint64_t interval_usec;
	unsigned history;
	int paranoid;                        /* kernel.perf_event_paranoid; INT32_MIN: unknown */
	bool pfm_ready;
	bool pmu_driver;                     /* a hardware event opened: ENOENT is the event's */
	int pfm_error;                       /* PFM_SUCCESS or why libpfm4 did not start */

	struct counter_event events[COUNTER_EVENTS_MAX];
	const char *names[COUNTER_EVENTS_MAX];
	size_t n_events;

	struct cpu_counters *cpus;
	size_t n_cpus;

	uint64_t n_reads, n_read_failures, n_annotated;
	size_t n_usable;                     /* events encoded and within the descriptor budget */
	bool kernel_kept;                    /* the history is in per-CPU rings (counter-ring.h) */
	bool kernel_kept_tried;              /* a sampler opened once: later failures are per CPU */
	char timer_why[160];                 /* why the history is kept by timer reads */
	size_t ring_data_size;
	struct ring_sample *samples;         /* 2 * (history + 1), for the rebuild */
	size_t n_samples;
	char budget_note[192];               /* "": every event fits the descriptor budget */

	/* The TSC against CLOCK_MONOTONIC since open: its rate, to turn a record's TSC
	 * distance into time.  The kernel gives a record's time in whole seconds. */
	uint64_t tsc0, mono0_usec;
};

/* The TSC of the CPU we run on: comparable with a record's where Linux uses the
 * TSC as its clock (constant and synchronised across CPUs). */
static bool read_tsc(uint64_t *ret)
{
#if defined(__x86_64__) || defined(__i386__)
	*ret = __rdtsc();
	return true;
#else
	(void) ret;
	return false;
#endif
}

static int open_counter(struct perf_event_attr *attr, unsigned cpu, int group_fd)
{
	int fd = (int) syscall(SYS_perf_event_open, attr, -1, (int) cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? negative_errno() : fd;
}

/* ---------------------------------------------------------- event names */

static int encode_with_pfm(struct counters *c, struct counter_event *e)
{
	if (!c->pfm_ready && c->pfm_error == PFM_SUCCESS) {
		c->pfm_error = pfm_initialize();
		c->pfm_ready = c->pfm_error == PFM_SUCCESS;
	}
	if (!c->pfm_ready) {
		snprintf(e->encode_error, sizeof(e->encode_error), "libpfm4 did not start: %s",
			 pfm_strerror(c->pfm_error));
		return -ENOENT;
	}

	struct perf_event_attr attr = {};
	pfm_perf_encode_arg_t arg = { .attr = &attr, .size = sizeof(arg) };
	/* Kernel and user, as the generic events count: the error may be in either. */
	int r = pfm_get_os_event_encoding(e->name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (r != PFM_SUCCESS) {
		snprintf(e->encode_error, sizeof(e->encode_error), "not an event of this machine's PMU "
			 "(libpfm4: %s)", pfm_strerror(r));
		return -ENOENT;
	}
	e->attr = attr;
	/* The table libpfm4 found the name in: the record says whose event it counted. */
	pfm_event_info_t info = { .size = sizeof(info) };
	pfm_pmu_info_t pmu = { .size = sizeof(pmu) };
	if (pfm_get_event_info(arg.idx, PFM_OS_NONE, &info) == PFM_SUCCESS &&
	    pfm_get_pmu_info(info.pmu, &pmu) == PFM_SUCCESS && pmu.name)
		snprintf(e->naming, sizeof(e->naming), "libpfm4 %s", pmu.name);
	else
		snprintf(e->naming, sizeof(e->naming), "libpfm4");
	return 0;
}

/* The PMU tables libpfm4 finds present on this machine ("none" where it knows no
 * core PMU of this CPU: then only perf's generic names count hardware events). */
static void write_pfm_pmus(struct counters *c, struct json_writer *w)
{
	pfm_pmu_t p;

	if (!c->pfm_ready && c->pfm_error == PFM_SUCCESS) {
		c->pfm_error = pfm_initialize();
		c->pfm_ready = c->pfm_error == PFM_SUCCESS;
	}
	if (!c->pfm_ready) {
		json_put_string(w, "libpfm4_pmus", pfm_strerror(c->pfm_error));
		return;
	}
	json_array_begin(w, "libpfm4_pmus");
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t info = { .size = sizeof(info) };
		if (pfm_get_pmu_info(p, &info) == PFM_SUCCESS && info.is_present && info.name)
			json_put_string(w, NULL, info.name);
	}
	json_array_end(w);
}

static void encode_event(struct counters *c, struct counter_event *e)
{
	bool generic = false;

	e->attr = (struct perf_event_attr) {};
	e->encode_error[0] = '\0';
	e->naming[0] = '\0';
	for (size_t i = 0; i < ELEMENTSOF(generic_events) && !generic; i++)
		if (streq(generic_events[i].name, e->name)) {
			e->attr.type = generic_events[i].type;
			e->attr.config = generic_events[i].config;
			snprintf(e->naming, sizeof(e->naming), "perf");
			generic = true;
		}
	if (!generic && encode_with_pfm(c, e) < 0)
		return;

	e->attr.size = sizeof(e->attr);
	e->attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			      PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	e->attr.disabled = 0;
	e->attr.inherit = 0;
	/* Counting only: no sampling, no ring, no wake-ups. */
	e->attr.sample_period = 0;
	e->attr.freq = 0;
	/* A software event may join a hardware group, but then it goes down with it. */
	e->group = e->attr.type == PERF_TYPE_SOFTWARE ? GROUP_SOFTWARE : GROUP_HARDWARE;
}

/* Why perf_event_open refused an event, in words an operator can act on. */
static void open_error_reason(const struct counters *c, int error, char *buf, size_t size)
{
	switch (-error) {
	case ENOENT:
	case ENODEV:
		if (c->pmu_driver)
			snprintf(buf, size, "the PMU driver has no such event on this CPU (%s)", strerrorname_np(-error));
		else
			snprintf(buf, size, "no PMU driver has this event, as in most VMs (%s)", strerrorname_np(-error));
		break;
	case EOPNOTSUPP:
		snprintf(buf, size, "the PMU does not support this event (EOPNOTSUPP)");
		break;
	case EBUSY:
		snprintf(buf, size, "the counter is held by another user (EBUSY)");
		break;
	case EACCES:
	case EPERM:
		if (c->paranoid != INT32_MIN)
			snprintf(buf, size, "not permitted: kernel.perf_event_paranoid is %d and the "
				 "daemon lacks CAP_PERFMON (%s)", c->paranoid, strerrorname_np(-error));
		else
			snprintf(buf, size, "not permitted: the daemon lacks CAP_PERFMON (%s)",
				 strerrorname_np(-error));
		break;
	case EINVAL:
		snprintf(buf, size, "the PMU refused the event's attributes, or it cannot share a "
			 "group with the other events (EINVAL)");
		break;
	case ENOSPC:
		/* Our own code for an EINVAL that cpu_open() found to mean a full group. */
		snprintf(buf, size, "the PMU has no counter left for it: the hardware group is counted "
			 "all at once, never multiplexed, and the events listed before it in Counters= "
			 "take every counter (EINVAL in the group; it opens alone)");
		break;
	default:
		snprintf(buf, size, "%s", strerror(-error));
	}
}

/* ------------------------------------------------------------ per CPU */

static void cpu_init(struct cpu_counters *pc)
{
	*pc = (struct cpu_counters) { .open = false, .ring = { .fd = -1 } };
	for (size_t g = 0; g < _GROUP_MAX; g++)
		pc->leader[g] = -1;
	for (size_t e = 0; e < COUNTER_EVENTS_MAX; e++)
		pc->fd[e] = -1;
}

static void cpu_close(struct cpu_counters *pc)
{
	/* Members before leaders: a leader's close would orphan them into singletons. */
	for (size_t e = 0; e < COUNTER_EVENTS_MAX; e++) {
		bool leader = false;
		for (size_t g = 0; g < _GROUP_MAX; g++)
			leader |= pc->fd[e] == pc->leader[g];
		if (pc->fd[e] >= 0 && !leader)
			close(pc->fd[e]);
	}
	for (size_t g = 0; g < _GROUP_MAX; g++)
		if (pc->leader[g] >= 0)
			close(pc->leader[g]);
	counter_ring_unmap(&pc->ring);
	counter_history_free(pc->history);
	cpu_init(pc);
}

/* The values of group g's members in gr, into readings. */
static void fill_group(const struct counters *c, const struct cpu_counters *pc, enum group g,
		       const struct perf_group_read *gr, struct counter_reading *readings)
{
	for (size_t e = 0; e < c->n_events; e++) {
		if (c->events[e].group != g || pc->fd[e] < 0)
			continue;
		readings[e].absent = false;
		int i = perf_group_read_find(gr, pc->id[e]);
		if (i < 0)
			continue;
		readings[e] = (struct counter_reading) {
			.value = gr->values[i].value,
			.time_enabled = gr->time_enabled,
			.time_running = gr->time_running,
			.valid = true,
		};
	}
}

static void read_group(struct counters *c, struct cpu_counters *pc, enum group g,
		       struct counter_reading *readings)
{
	uint64_t buf[3 + 2 * PERF_GROUP_READ_MAX];
	struct perf_group_read gr;

	if (pc->leader[g] < 0)
		return;
	/* With a sampler the leader is one more member than the events. */
	size_t want = perf_group_read_size(pc->n_members[g] + (pc->sampler_id[g] != 0));
	ssize_t n = read(pc->leader[g], buf, want);
	int r = n < 0 ? negative_errno() : perf_group_read_parse(buf, (size_t) n, &gr);
	if (r < 0) {
		/* Counted and shown in status; the events show "not read" in the records. */
		c->n_read_failures++;
		log_debug_errno(r, "Reading the %s counter group failed: %m", group_names[g]);
		return;
	}
	fill_group(c, pc, g, &gr, readings);
}

/* provisional: the read for a record, replaced by the next (see counter_history_push). */
static void cpu_read(struct counters *c, struct cpu_counters *pc, bool provisional)
{
	struct counter_reading readings[COUNTER_EVENTS_MAX] = {};
	int64_t now = now_realtime_usec();

	/* Never opened here: the record lists them under "unavailable", not as uncounted. */
	for (size_t e = 0; e < c->n_events; e++)
		readings[e].absent = pc->fd[e] < 0;

	for (size_t g = 0; g < _GROUP_MAX; g++)
		read_group(c, pc, g, readings);
	c->n_reads++;
	if (pc->opened_usec == 0) {
		memcpy(pc->opened, readings, sizeof(pc->opened));
		pc->opened_usec = now;
	}
	/* The wall clock stepped back (NTP, an operator): the old reads would lie about spans. */
	if (counter_history_push(pc->history, now, readings, provisional) < 0) {
		counter_history_clear(pc->history);
		(void) counter_history_push(pc->history, now, readings, provisional);
	}
	pc->last_read_usec = now;
}

static bool group_wanted(const struct counters *c, enum group g)
{
	for (size_t e = 0; e < c->n_events; e++)
		if (c->events[e].group == g && !c->events[e].encode_error[0])
			return true;
	return false;
}

/* Group g's sampler on cpu, as its leader; false: this group is read by the timer's way. */
static bool open_sampler(struct counters *c, struct cpu_counters *pc, unsigned cpu, enum group g)
{
	int fd = counter_ring_open_sampler(cpu, c->interval_usec * 1000, c->ring_data_size, &pc->ring);

	if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_ID, &pc->sampler_id[g]) < 0) {
		close(fd);
		fd = negative_errno();
	}
	if (fd < 0) {
		pc->sampler_id[g] = 0;
		if (!c->kernel_kept_tried) {
			/* The first one decides: the kernel or its limits will say the same on every CPU. */
			char why[96];
			c->kernel_kept = false;
			snprintf(why, sizeof(why), "%s", strerror(-fd));
			snprintf(c->timer_why, sizeof(c->timer_why), "the kernel refused a sampling ring: %s", why);
			log_notice("Counter snapshots: %s; reading every CPU every interval instead", c->timer_why);
		} else
			log_warning_errno(fd, "Counter snapshots: no sampling ring on CPU %u: %m; its history starts "
					  "at each record", cpu);
		return false;
	}
	c->kernel_kept_tried = true;
	pc->leader[g] = fd;
	return true;
}

/*
 * Whether an event the kernel refused in a group opens on its own: then the
 * refusal was the group's size (the PMU validates a group as a whole against
 * its counters), not the event.
 */
static bool opens_alone(const struct perf_event_attr *attr, unsigned cpu)
{
	struct perf_event_attr alone = *attr;

	alone.disabled = 1;
	int fd = open_counter(&alone, cpu, -1);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static void cpu_open(struct counters *c, unsigned cpu)
{
	if (cpu >= c->n_cpus)
		return;
	struct cpu_counters *pc = &c->cpus[cpu];
	cpu_close(pc);

	pc->history = counter_history_new(c->names, c->n_events, c->history);
	if (!pc->history) {
		log_error("Out of memory for the counter history of CPU %u", cpu);
		return;
	}
	/* Software first: its sampler owns the ring, and its group opens everywhere; a
	 * hardware sampler left without members (no PMU) is closed again below. */
	for (int gi = _GROUP_MAX - 1; gi >= 0; gi--) {
		enum group g = (enum group) gi;
		bool sampled = false;

		if (!group_wanted(c, g))
			continue;
		if (c->kernel_kept)
			sampled = open_sampler(c, pc, cpu, g);
		for (size_t e = 0; e < c->n_events; e++) {
			struct counter_event *ev = &c->events[e];
			if (ev->group != g || ev->encode_error[0])
				continue;
			/* A group keeps one clock: the sampler's. */
			struct perf_event_attr attr = ev->attr;
			if (sampled) {
				attr.use_clockid = 1;
				attr.clockid = COUNTER_RING_CLOCK;
			}
			int fd = open_counter(&attr, cpu, pc->leader[g]);
			if (fd == -EINVAL && g == GROUP_HARDWARE && pc->leader[g] >= 0 && opens_alone(&attr, cpu))
				fd = -ENOSPC;
			if (fd < 0) {
				pc->open_error[e] = fd;
				continue;
			}
			if (ioctl(fd, PERF_EVENT_IOC_ID, &pc->id[e]) < 0) {
				pc->open_error[e] = negative_errno();
				close(fd);
				continue;
			}
			pc->fd[e] = fd;
			c->pmu_driver |= g == GROUP_HARDWARE;
			if (pc->leader[g] < 0)
				pc->leader[g] = fd;
			pc->n_members[g]++;
		}
		/* A sampler of nothing costs a descriptor and a timer per CPU: close it,
		 * unless it owns the ring the other group writes into. */
		if (sampled && pc->n_members[g] == 0 && pc->leader[g] != pc->ring.fd) {
			close(pc->leader[g]);
			pc->leader[g] = -1;
			pc->sampler_id[g] = 0;
		}
	}
	pc->open = true;
	/* The first read: a record in the first interval has a window from here. */
	cpu_read(c, pc, false);
}

/* ------------------------------------------------ history from the ring */

static void on_ring_sample(uint64_t sampler_id, uint64_t time_ns, const struct perf_group_read *g, void *userdata)
{
	struct counters *c = userdata;

	if (c->n_samples >= 2 * ((size_t) c->history + 1))
		return;
	c->samples[c->n_samples++] = (struct ring_sample) { .sampler_id = sampler_id, .time_ns = time_ns, .group = *g };
}

/* The other group's sample nearest to time_ns, within half an interval; NULL: none. */
static const struct ring_sample *nearest_sample(const struct counters *c, uint64_t sampler_id, uint64_t time_ns)
{
	const struct ring_sample *best = NULL;
	uint64_t best_d = c->interval_usec * 1000 / 2 + 1;

	for (size_t i = 0; i < c->n_samples; i++) {
		const struct ring_sample *r = &c->samples[i];
		uint64_t d = r->time_ns > time_ns ? r->time_ns - time_ns : time_ns - r->time_ns;
		if (r->sampler_id == sampler_id && d < best_d) {
			best = r;
			best_d = d;
		}
	}
	return best;
}

/*
 * The CPU's history, as the kernel sampled it: the read at open, then each of the
 * anchor group's samples (the hardware group's where it has any) with the other
 * group's sample of the same moment.
 */
static void cpu_history_from_ring(struct counters *c, struct cpu_counters *pc)
{
	enum group anchor, other;
	int64_t offset = now_realtime_usec() - (int64_t) now_monotonic_usec();
	int64_t first_usec = INT64_MAX;
	size_t n_hw = 0, n_sw = 0;

	c->n_samples = 0;
	if (counter_ring_collect(&pc->ring, 2 * ((size_t) c->history + 1), on_ring_sample, c) < 0)
		return;
	/* The hardware group's moments where it was scheduled; the software group's where a
	 * PMU shared with someone else kept the hardware one off. */
	for (size_t i = 0; i < c->n_samples; i++) {
		n_hw += pc->sampler_id[GROUP_HARDWARE] && c->samples[i].sampler_id == pc->sampler_id[GROUP_HARDWARE];
		n_sw += c->samples[i].sampler_id == pc->sampler_id[GROUP_SOFTWARE];
	}
	anchor = n_hw > 0 && n_hw >= n_sw ? GROUP_HARDWARE : GROUP_SOFTWARE;
	other = anchor == GROUP_HARDWARE ? GROUP_SOFTWARE : GROUP_HARDWARE;
	counter_history_clear(pc->history);
	for (size_t i = c->n_samples; i-- > 0;)
		if (c->samples[i].sampler_id == pc->sampler_id[anchor]) {
			first_usec = (int64_t) (c->samples[i].time_ns / 1000) + offset;
			break;
		}
	if (pc->opened_usec > 0 && pc->opened_usec < first_usec)
		(void) counter_history_push(pc->history, pc->opened_usec, pc->opened, false);
	/* Collected newest first: pushed oldest first. */
	for (size_t i = c->n_samples; i-- > 0;) {
		const struct ring_sample *a = &c->samples[i], *o;
		struct counter_reading readings[COUNTER_EVENTS_MAX] = {};

		if (a->sampler_id != pc->sampler_id[anchor])
			continue;
		for (size_t e = 0; e < c->n_events; e++)
			readings[e].absent = pc->fd[e] < 0;
		fill_group(c, pc, anchor, &a->group, readings);
		o = pc->sampler_id[other] ? nearest_sample(c, pc->sampler_id[other], a->time_ns) : NULL;
		if (o)
			fill_group(c, pc, other, &o->group, readings);
		(void) counter_history_push(pc->history, (int64_t) (a->time_ns / 1000) + offset, readings, false);
	}
}

static int on_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct counters *c = userdata;

	for (size_t cpu = 0; cpu < c->n_cpus; cpu++)
		if (c->cpus[cpu].open)
			cpu_read(c, &c->cpus[cpu], false);
	/* From the planned time, not from now: the cadence does not drift. */
	(void) sd_event_source_set_time(s, usec + c->interval_usec);
	(void) sd_event_source_set_enabled(s, SD_EVENT_ONESHOT);
	return 0;
}

/* ------------------------------------------------------------- lifetime */

static void counters_close(void *s)
{
	struct counters *c = s;

	if (!c)
		return;
	c->timer = sd_event_source_disable_unref(c->timer);
	for (size_t cpu = 0; c->cpus && cpu < c->n_cpus; cpu++)
		cpu_close(&c->cpus[cpu]);
	free(c->cpus);
	free(c->samples);
	if (c->pfm_ready)
		pfm_terminate();
	free(c);
}

static void counters_freep(struct counters **c)
{
	counters_close(*c);
}

static bool tsc_is_clock(void)
{
	_cleanup_free_ char *text = NULL;
	size_t len;

	if (read_full_file("/sys/devices/system/clocksource/clocksource0/current_clocksource", 64,
			   &text, &len) < 0)
		return false;
	return strncmp(text, "tsc\n", 4) == 0 || streq(text, "tsc");
}

static int read_paranoid(void)
{
	_cleanup_free_ char *text = NULL;
	size_t len;

	if (read_full_file("/proc/sys/kernel/perf_event_paranoid", 64, &text, &len) < 0)
		return INT32_MIN;
	return (int) strtol(text, NULL, 10);
}

/*
 * Every possible CPU gets the same events, so that one coming online later finds its
 * descriptors kept.  Where the budget is short the last events are left out: Counters=
 * lists what matters most first.  Returns how many events each CPU opens.
 */
static size_t fit_budget(struct counters *c, struct fd_budget *fds)
{
	size_t wanted = 0, fit, kept = 0, samplers;

	for (size_t e = 0; e < c->n_events; e++)
		if (!c->events[e].encode_error[0])
			wanted++;
	if (!fds)
		return wanted;
	/* The kernel-kept history costs a sampler per group and CPU: without room for
	 * them, the timer's way costs none. */
	if (c->kernel_kept && fd_budget_per_cpu(fd_budget_left(fds), c->n_cpus, wanted + _GROUP_MAX) < wanted + _GROUP_MAX) {
		c->kernel_kept = false;
		snprintf(c->timer_why, sizeof(c->timer_why), "no descriptors to spare for a sampler per CPU");
	}
	samplers = c->kernel_kept ? _GROUP_MAX : 0;
	fit = fd_budget_per_cpu(fd_budget_left(fds), c->n_cpus, wanted + samplers);
	fit = fit > samplers ? fit - samplers : 0;
	if (fit < wanted) {
		snprintf(c->budget_note, sizeof(c->budget_note),
			 "%zu of %zu event(s) per CPU: descriptors for %zu CPU(s) did not fit "
			 "(RLIMIT_NOFILE %" PRIu64 ", %" PRIu64 " open, %" PRIu64 " kept back)",
			 fit, wanted, c->n_cpus, fds->limit, fds->in_use, fds->reserve);
		log_warning("Counter snapshots: %s; the record sources come first", c->budget_note);
		for (size_t e = 0; e < c->n_events; e++) {
			struct counter_event *ev = &c->events[e];
			if (ev->encode_error[0])
				continue;
			if (kept < fit)
				kept++;
			else
				snprintf(ev->encode_error, sizeof(ev->encode_error),
					 "left out: too few file descriptors (see budget in mcectl status)");
		}
	}
	fd_budget_take(fds, (uint64_t) (fit + (fit ? samplers : 0)) * c->n_cpus);
	return fit;
}

static int counters_open(const struct snapshot_params *p, void **ret)
{
	const struct snapshot_config *cfg = &p->config->snapshot;
	static bool possible[CPU_LIST_MAX], online[CPU_LIST_MAX];

	*ret = NULL;
	if (!cfg->counters)
		return 0;

	_cleanup_(counters_freep) struct counters *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->event = p->event;
	c->interval_usec = cfg->interval_usec;
	c->history = cfg->history;
	c->paranoid = read_paranoid();
	c->mono0_usec = now_monotonic_usec();
	/* Only where the kernel keeps time by the TSC has it found the CPUs' TSCs in step;
	 * elsewhere (an emulated CPU) one CPU's TSC says nothing about another's. */
	if (!tsc_is_clock() || !read_tsc(&c->tsc0))
		c->tsc0 = 0;

	if (cfg->n_counter_events > 0) {
		for (size_t i = 0; i < cfg->n_counter_events; i++)
			snprintf(c->events[i].name, sizeof(c->events[i].name), "%s", cfg->counter_events[i]);
		c->n_events = cfg->n_counter_events;
	} else {
		for (size_t i = 0; i < ELEMENTSOF(default_events); i++)
			snprintf(c->events[i].name, sizeof(c->events[i].name), "%s", default_events[i]);
		c->n_events = ELEMENTSOF(default_events);
	}
	for (size_t e = 0; e < c->n_events; e++) {
		encode_event(c, &c->events[e]);
		c->names[e] = c->events[e].name;
		if (c->events[e].encode_error[0])
			log_warning("Counter event '%s' is unavailable: %s", c->events[e].name,
				    c->events[e].encode_error);
	}

	memset(possible, 0, sizeof(possible));
	int r = read_cpu_list_file("/sys/devices/system/cpu/possible", possible, ELEMENTSOF(possible));
	if (r <= 0)
		return log_error_errno(r < 0 ? r : -EINVAL, "Cannot read /sys/devices/system/cpu/possible: %m");
	for (size_t cpu = 0; cpu < ELEMENTSOF(possible); cpu++)
		if (possible[cpu])
			c->n_cpus = cpu + 1;
	c->cpus = calloc(c->n_cpus, sizeof(*c->cpus));
	if (!c->cpus)
		return -ENOMEM;
	for (size_t cpu = 0; cpu < c->n_cpus; cpu++)
		cpu_init(&c->cpus[cpu]);

	/* The kernel keeps the history when its ring holds History= samples of both groups
	 * in at most 64 pages; a longer history is read by the timer. */
	long page = sysconf(_SC_PAGESIZE);
	c->ring_data_size = counter_ring_data_size((size_t) c->history + 2, c->n_events, (size_t) page);
	c->kernel_kept = c->ring_data_size <= 64 * (size_t) page;
	if (!c->kernel_kept)
		snprintf(c->timer_why, sizeof(c->timer_why), "History= x events needs a ring over 64 pages per CPU");
	c->samples = calloc(2 * ((size_t) c->history + 1), sizeof(*c->samples));
	if (!c->samples)
		return -ENOMEM;
	c->n_usable = fit_budget(c, p->fds);
	if (c->n_usable == 0) {
		/* Open, with nothing to read and no timer: status and every record say why. */
		*ret = TAKE_PTR(c);
		return 0;
	}

	memset(online, 0, sizeof(online));
	r = read_cpu_list_file("/sys/devices/system/cpu/online", online, ELEMENTSOF(online));
	if (r <= 0)
		return log_error_errno(r < 0 ? r : -EINVAL, "Cannot read /sys/devices/system/cpu/online: %m");
	for (size_t cpu = 0; cpu < c->n_cpus; cpu++)
		if (online[cpu]) {
			keepalive();
			cpu_open(c, (unsigned) cpu);
		}

	/* Only the timer's way wakes us: the kernel's needs nothing until a record comes. */
	if (c->event && !c->kernel_kept) {
		r = sd_event_add_time_relative(c->event, &c->timer, CLOCK_MONOTONIC, c->interval_usec,
					       c->interval_usec / 10, on_timer, c);
		if (r < 0)
			return log_error_errno(r, "Cannot start the counter timer: %m");
		(void) sd_event_source_set_description(c->timer, "snapshot-counters");
	}

	/* Once, in the log, one line per reason: what this machine cannot count. */
	for (size_t cpu = 0; cpu < c->n_cpus; cpu++) {
		const struct cpu_counters *pc = &c->cpus[cpu];
		bool told[COUNTER_EVENTS_MAX] = {};

		if (!pc->open)
			continue;
		for (size_t e = 0; e < c->n_events; e++) {
			if (pc->open_error[e] == 0 || told[e])
				continue;
			char names[512] = "", why[256];
			size_t n = 0;
			for (size_t o = e; o < c->n_events; o++)
				if (pc->open_error[o] == pc->open_error[e] && n < sizeof(names)) {
					told[o] = true;
					n += (size_t) snprintf(names + n, sizeof(names) - n, "%s%s", n ? ", " : "",
							       c->events[o].name);
				}
			open_error_reason(c, pc->open_error[e], why, sizeof(why));
			log_notice("Counter events unavailable on CPU %zu: %s: %s", cpu, names, why);
		}
		break;
	}
	log_info("Counter snapshots: %zu event(s) on every online CPU, every %" PRIu64 " ms, %u kept, %s",
		 c->n_usable, c->interval_usec / 1000, c->history,
		 c->kernel_kept ? "sampled by the kernel into a ring per CPU" : "read by a timer");
	*ret = TAKE_PTR(c);
	return 0;
}

static void counters_cpu_online(void *s, unsigned cpu)
{
	struct counters *c = s;

	/* Told twice (a uevent racing the first scan, a resync): keep the history. */
	if (cpu < c->n_cpus && c->cpus[cpu].open)
		return;
	if (c->n_usable > 0)
		cpu_open(c, cpu);
}

static void counters_cpu_offline(void *s, unsigned cpu)
{
	struct counters *c = s;
	if (cpu < c->n_cpus)
		cpu_close(&c->cpus[cpu]);
}

/* -------------------------------------------------------------- records */

static void unavailable(struct snapshot_out *out, const char *fmt, ...) _printf_(2, 3);
static void unavailable(struct snapshot_out *out, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	json_object_begin(out->json, "counters");
	json_put_string(out->json, "unavailable", why);
	json_object_end(out->json);
}

/* The events this CPU cannot count, each with why; false when there is none. */
static bool any_unavailable(const struct counters *c, const struct cpu_counters *pc)
{
	for (size_t e = 0; e < c->n_events; e++)
		if (c->events[e].encode_error[0] || pc->open_error[e] < 0)
			return true;
	return false;
}

static void write_unavailable(const struct counters *c, const struct cpu_counters *pc, struct json_writer *w)
{
	json_object_begin(w, "unavailable");
	for (size_t e = 0; e < c->n_events; e++) {
		char why[256];
		if (c->events[e].encode_error[0])
			json_put_string(w, c->events[e].name, c->events[e].encode_error);
		else if (pc->open_error[e] < 0) {
			open_error_reason(c, pc->open_error[e], why, sizeof(why));
			json_put_string(w, c->events[e].name, why);
		}
	}
	json_object_end(w);
}

/* Whose names the events are.  all: every encoded event (status); else only
 * where libpfm4 named some (a record: without the key, perf's generic names). */
static void write_naming(const struct counters *c, struct json_writer *w, bool all)
{
	bool any = all;

	for (size_t e = 0; e < c->n_events && !any; e++)
		any = strncmp(c->events[e].naming, "libpfm4", strlen("libpfm4")) == 0;
	if (!any)
		return;
	json_object_begin(w, "naming");
	for (size_t e = 0; e < c->n_events; e++)
		if (c->events[e].naming[0])
			json_put_string(w, c->events[e].name, c->events[e].naming);
	json_object_end(w);
}

static void flat_fields(const struct counters *c, const struct counter_window *win,
			const struct counter_derived *d, struct snapshot_out *out)
{
	snapshot_out_field(out, "SNAPSHOT_WINDOW_SEC", "%.3f", (double) (win->end_usec - win->start_usec) / 1e6);
	if (d->have_ipc)
		snapshot_out_field(out, "SNAPSHOT_IPC", "%.3f", d->ipc);
	if (d->have_effective_mhz)
		snapshot_out_field(out, "SNAPSHOT_EFFECTIVE_MHZ", "%.0f",
				   counter_json_fixed(d->effective_mhz, COUNTER_MHZ_DECIMALS));
	if (d->have_frequency_ratio)
		snapshot_out_field(out, "SNAPSHOT_FREQUENCY_RATIO", "%.3f", d->frequency_ratio);
	if (d->have_cache_miss_rate)
		snapshot_out_field(out, "SNAPSHOT_CACHE_MISS_RATE", "%.4f", d->cache_miss_rate);
	if (d->have_branch_miss_rate)
		snapshot_out_field(out, "SNAPSHOT_BRANCH_MISS_RATE", "%.4f", d->branch_miss_rate);

	/* The one figure that says "unusual": the event furthest from its own baseline. */
	size_t far;
	double change;
	if (counter_window_largest_change(win, &far, &change) == 0)
		snapshot_out_field(out, "SNAPSHOT_LARGEST_CHANGE", "%s x%.2f", c->events[far].name, change);
}

/*
 * The distance from the error to now in TSC ticks, and in microseconds once
 * the TSC's rate is known (a second after open).  False without a record TSC
 * or one that is ahead of ours (another clock domain: say nothing).
 */
static bool tsc_distance(const struct counters *c, const struct snapshot_subject *sub, uint64_t *ret_ticks,
			 double *ret_usec)
{
	uint64_t now;

	/* The kernel's poll leaves the TSC 0 (it stamps only some records): no time. */
	if (!c->tsc0 || sub->tsc == 0 || !read_tsc(&now) || now < sub->tsc)
		return false;
	*ret_ticks = now - sub->tsc;
	uint64_t mono = now_monotonic_usec();
	if (mono - c->mono0_usec >= 1000000 && now > c->tsc0) {
		double ticks_per_usec = (double) (now - c->tsc0) / (double) (mono - c->mono0_usec);
		*ret_usec = (double) *ret_ticks / ticks_per_usec;
	}
	return true;
}

static void counters_annotate(void *s, const struct snapshot_subject *sub, struct snapshot_out *out)
{
	struct counters *c = s;
	struct json_writer *w = out->json;

	if (!sub->have_cpu) {
		unavailable(out, "the record names no CPU");
		return;
	}
	if (c->n_usable == 0) {
		unavailable(out, "%s", c->budget_note[0] ? c->budget_note : "no counter event can be counted here");
		return;
	}
	if (sub->cpu >= c->n_cpus || !c->cpus[sub->cpu].open) {
		unavailable(out, "CPU %u is offline or unknown to the counter recorder", sub->cpu);
		return;
	}

	struct cpu_counters *pc = &c->cpus[sub->cpu];
	if (pc->ring.fd >= 0)
		cpu_history_from_ring(c, pc);
	/* Up to this moment: the error is usually inside the interval this read closes. */
	cpu_read(c, pc, true);
	c->n_annotated++;

	int64_t error_usec = sub->have_time ? sub->time_usec : pc->last_read_usec;
	struct counter_window win;
	struct counter_derived d;
	if (counter_history_window(pc->history, error_usec, &win) < 0) {
		unavailable(out, "no interval read yet on CPU %u", sub->cpu);
		return;
	}
	counter_history_derive(pc->history, &win, &d);

	json_object_begin(w, "counters");
	json_put_u64(w, "cpu", sub->cpu);
	json_put_time_usec(w, "read", pc->last_read_usec);
	/* How far the snapshot is from the error: the record's time to our last read. */
	if (sub->have_time)
		json_put_i64(w, "read_after_error_usec", pc->last_read_usec - sub->time_usec);
	uint64_t tsc_delta;
	double tsc_usec = -1;
	bool have_tsc = tsc_distance(c, sub, &tsc_delta, &tsc_usec);
	if (have_tsc) {
		json_put_u64(w, "read_after_error_tsc", tsc_delta);
		if (tsc_usec >= 0)
			json_put_u64(w, "read_after_error_tsc_usec", (uint64_t) tsc_usec);
	}
	counter_window_write_json(pc->history, &win, &d, w);
	if (any_unavailable(c, pc))
		write_unavailable(c, pc, w);
	write_naming(c, w, false);
	json_object_end(w);

	snapshot_out_field(out, "SNAPSHOT_CPU", "%u", sub->cpu);
	if (sub->have_time)
		snapshot_out_field(out, "SNAPSHOT_READ_AFTER_ERROR_USEC", "%" PRId64,
				   pc->last_read_usec - sub->time_usec);
	if (have_tsc && tsc_usec >= 0)
		snapshot_out_field(out, "SNAPSHOT_READ_AFTER_ERROR_TSC_USEC", "%.0f", tsc_usec);
	flat_fields(c, &win, &d, out);
}

/*
 * The first online CPU's interval up to now, as a record of that CPU would
 * carry it: what the recorder counts, shown without waiting for an error.
 * On a machine whose error records name no CPU (arm64's memory failures),
 * or that has none yet, it is the only view of the counts.
 */
static void write_latest(struct counters *c, size_t cpu, struct json_writer *w)
{
	struct cpu_counters *pc = &c->cpus[cpu];
	struct counter_window win;
	struct counter_derived d;

	if (pc->ring.fd >= 0)
		cpu_history_from_ring(c, pc);
	cpu_read(c, pc, true);
	if (counter_history_window(pc->history, pc->last_read_usec, &win) < 0)
		return;
	counter_history_derive(pc->history, &win, &d);
	json_object_begin(w, "latest");
	json_put_u64(w, "cpu", cpu);
	counter_window_write_json(pc->history, &win, &d, w);
	json_object_end(w);
}

static void counters_status(void *s, struct json_writer *w)
{
	struct counters *c = s;
	size_t n_open = 0, first_cpu = 0;
	const struct cpu_counters *first = NULL;

	for (size_t cpu = 0; cpu < c->n_cpus; cpu++)
		if (c->cpus[cpu].open) {
			n_open++;
			if (!first) {
				first = &c->cpus[cpu];
				first_cpu = cpu;
			}
		}
	json_put_u64(w, "cpus", n_open);
	if (c->budget_note[0])
		json_put_string(w, "budget", c->budget_note);
	json_put_u64(w, "interval_usec", c->interval_usec);
	json_put_string(w, "history_kept_by", c->kernel_kept ? "kernel" : "timer");
	if (!c->kernel_kept && c->timer_why[0])
		json_put_string(w, "timer_why", c->timer_why);
	json_put_u64(w, "history", c->history);
	json_put_u64(w, "reads", c->n_reads);
	json_put_u64(w, "read_failures", c->n_read_failures);
	json_put_u64(w, "records_annotated", c->n_annotated);
	json_array_begin(w, "events");
	for (size_t e = 0; e < c->n_events; e++)
		if (first && !c->events[e].encode_error[0] && first->open_error[e] == 0)
			json_put_string(w, NULL, c->events[e].name);
	json_array_end(w);
	/* As the first online CPU sees them: the others have the same PMU. */
	if (first && any_unavailable(c, first))
		write_unavailable(c, first, w);
	write_naming(c, w, true);
	write_pfm_pmus(c, w);
	if (first && c->n_usable > 0)
		write_latest(c, first_cpu, w);
}

const struct snapshot_ops counters_snapshot_ops = {
	.name = "counters",
	.open = counters_open,
	.close = counters_close,
	.annotate = counters_annotate,
	.cpu_online = counters_cpu_online,
	.cpu_offline = counters_cpu_offline,
	.status = counters_status,
};
