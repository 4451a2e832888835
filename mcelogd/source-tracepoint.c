/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cpu-list.h"
#include "log.h"
#include "manager.h"
#include "mce-trace.h"
#include "parse-number.h"
#include "perf-ring.h"
#include "source-tracepoint.h"

/*
 * Pages of one CPU's ring: sized from the kernel's MCE pool by
 * perf_ring_pages() (the reasoning is there).  MCELOGD_RING_PAGES overrides
 * it, for tests that must overflow a ring on purpose to see the kernel's
 * loss report; nothing else should set it.
 */
#define RING_PAGES_ENV "MCELOGD_RING_PAGES"
#define RING_PAGES_ENV_MAX 1024

static const char *const tracefs_roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

struct cpu_reader {
	struct tracepoint_source *owner;
	unsigned cpu;
	int fd;
	void *map;
	size_t map_size;
	sd_event_source *io;
	uint64_t n_samples;
	uint64_t n_lost;
};

struct tracepoint_source {
	struct manager *manager;
	struct trace_format format;
	struct mce_trace_layout layout;
	struct cpu_reader *cpus[CPU_LIST_MAX];   /* by CPU number; NULL: not read (offline) */
	unsigned n_open;
	unsigned ring_pages;
	uint64_t n_lost;
	uint64_t n_bad;
	size_t page_size;
	unsigned char *scratch;     /* one record copied out when it wraps the ring */
};

static int read_small_file(const char *path, char *buf, size_t size, size_t *ret_len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;

	if (fd < 0)
		return negative_errno();
	for (;;) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return negative_errno();
		}
		if (n == 0)
			break;
		len += (size_t) n;
		if (len >= size - 1)
			return -EFBIG;
	}
	buf[len] = '\0';
	*ret_len = len;
	return 0;
}

static void handle_sample(struct cpu_reader *c, const unsigned char *body, size_t body_size)
{
	struct tracepoint_source *s = c->owner;
	struct perf_sample sample;
	struct mce_record rec;
	int r;

	r = perf_sample_parse(body, body_size, &sample);
	if (r == -EBADMSG) {
		s->n_bad++;
		log_warning("Truncated tracepoint sample on CPU %u (%zu bytes), skipped", c->cpu, body_size);
		return;
	}
	if (r < 0) {
		s->n_bad++;
		log_warning("Tracepoint sample on CPU %u claims %u raw bytes but holds %zu, skipped",
			    c->cpu, sample.raw_size, body_size - 20);
		return;
	}
	if (mce_trace_to_record(&s->layout, sample.raw, sample.raw_size, &rec) < 0) {
		s->n_bad++;
		log_warning("mce_record sample on CPU %u too short (%u bytes) for this kernel's format, "
			    "skipped", c->cpu, sample.raw_size);
		return;
	}
	c->n_samples++;
	(void) manager_submit_from_ring(s->manager, c->cpu, &rec);
}

/*
 * Reads until the ring is empty, handing space back to the kernel after every
 * record: writing a record to the journal takes far longer than the kernel
 * takes to emit one, so a burst is still arriving while we read it.
 */
static void read_ring(struct cpu_reader *c)
{
	struct tracepoint_source *s = c->owner;
	struct perf_event_mmap_page *pc = c->map;
	unsigned char *data = (unsigned char *) c->map + s->page_size;
	uint64_t size = (uint64_t) s->ring_pages * s->page_size;
	uint64_t head, tail = pc->data_tail;

	while ((head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE)) != tail) {
		struct perf_ring_record rec;
		uint64_t lost;
		int r;

		r = perf_ring_next(data, size, head, &tail, s->scratch, &rec);
		if (r == 0)
			break;   /* head behind tail: nothing the kernel would write */
		if (r < 0) {
			log_error("Corrupt perf ring on CPU %u, resynchronising (records in it are lost)",
				  c->cpu);
			tail = head;
		} else if (rec.type == PERF_RECORD_SAMPLE)
			handle_sample(c, rec.body, rec.body_size);
		else if (rec.type == PERF_RECORD_LOST && perf_lost_parse(rec.body, rec.body_size, &lost) >= 0) {
			c->n_lost += lost;
			s->n_lost += lost;
			manager_report_loss(s->manager, MCE_SOURCE_TRACEPOINT, c->cpu, lost);
		}
		__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
	}
}

static struct cpu_reader *reader_free(struct cpu_reader *c)
{
	if (!c)
		return NULL;
	c->io = sd_event_source_disable_unref(c->io);
	if (c->map)
		munmap(c->map, c->map_size);
	if (c->fd >= 0)
		close(c->fd);
	free(c);
	return NULL;
}

/* What the source state and STATUS= say after the set of CPUs read changed. */
static void publish_state(struct tracepoint_source *s)
{
	if (s->n_open > 0)
		manager_source_set_state(s->manager, MCE_SOURCE_TRACEPOINT, SOURCE_ACTIVE,
					 "mce:mce_record on %u CPUs", s->n_open);
	else
		manager_source_set_state(s->manager, MCE_SOURCE_TRACEPOINT, SOURCE_UNAVAILABLE,
					 "mce:mce_record could not be opened on any online CPU");
}

/* Logs what the reader held and closes it: the CPU is no longer read. */
static void reader_retire(struct tracepoint_source *s, unsigned cpu)
{
	struct cpu_reader *c = s->cpus[cpu];

	if (!c)
		return;
	read_ring(c);
	s->cpus[cpu] = reader_free(c);
	s->n_open--;
}

static int on_readable(sd_event_source *es, int fd, uint32_t revents, void *userdata)
{
	struct cpu_reader *c = userdata;
	struct tracepoint_source *s = c->owner;

	(void) es;
	(void) fd;
	if (revents & EPOLLHUP) {
		unsigned cpu = c->cpu;

		/* The event went away under us: stop watching it rather than spin. */
		log_notice("Tracepoint reader for CPU %u hung up, closing it", cpu);
		reader_retire(s, cpu);
		publish_state(s);
		manager_update_status(s->manager);
		return 0;
	}
	read_ring(c);
	return 0;
}

static int reader_open(struct tracepoint_source *s, unsigned cpu, struct cpu_reader **ret)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = s->format.id,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW,
		/* Woken for every record: they are rare, and each should be logged at once. */
		.wakeup_events = 1,
	};
	struct cpu_reader *c;
	int r;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	*c = (struct cpu_reader) { .owner = s, .cpu = cpu, .fd = -1 };
	c->fd = (int) syscall(SYS_perf_event_open, &attr, -1, (int) cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (c->fd < 0) {
		r = negative_errno();
		reader_free(c);
		return r;
	}
	c->map_size = (1 + s->ring_pages) * s->page_size;
	c->map = mmap(NULL, c->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (c->map == MAP_FAILED) {
		r = negative_errno();
		c->map = NULL;
		reader_free(c);
		return r;
	}
	r = sd_event_add_io(s->manager->event, &c->io, c->fd, EPOLLIN, on_readable, c);
	if (r < 0) {
		reader_free(c);
		return r;
	}
	(void) sd_event_source_set_description(c->io, "tracepoint-cpu");
	*ret = c;
	return 0;
}

static void log_open_failure(int r, unsigned cpu)
{
	if (r == -EACCES || r == -EPERM)
		log_warning_errno(r, "perf_event_open of mce:mce_record on CPU %u refused: %m "
				  "(needs CAP_PERFMON or CAP_SYS_ADMIN)", cpu);
	else
		log_warning_errno(r, "Cannot read mce:mce_record on CPU %u: %m; records the kernel "
				  "emits there are not logged", cpu);
}

static unsigned ring_pages(size_t page_size)
{
	static bool possible[CPU_LIST_MAX];
	const char *env = getenv(RING_PAGES_ENV);
	char text[4096];
	size_t len;
	uint64_t v;
	int n = 0;

	if (env) {
		if (parse_unsigned(env, strlen(env), 10, RING_PAGES_ENV_MAX, &v) >= 0 && v > 0 &&
		    (v & (v - 1)) == 0) {
			log_notice("Ring of %llu page(s) per CPU, as $%s says (a testing aid)",
				   (unsigned long long) v, RING_PAGES_ENV);
			return (unsigned) v;
		}
		log_error("$%s='%s' is not a power of two from 1 to %u, ignored", RING_PAGES_ENV, env,
			  RING_PAGES_ENV_MAX);
	}
	memset(possible, 0, sizeof(possible));
	if (read_small_file("/sys/devices/system/cpu/possible", text, sizeof(text), &len) >= 0)
		n = cpu_list_parse(text, possible, ELEMENTSOF(possible));
	if (n <= 0) {
		log_debug("Cannot read /sys/devices/system/cpu/possible, sizing rings for a small machine");
		n = 0;
	}
	return perf_ring_pages((unsigned) n, page_size);
}

static int find_format(const char *tracefs_root, char *text, size_t size, size_t *ret_len,
		       char *path, size_t path_size)
{
	int r = -ENOENT;

	for (size_t i = 0; i < ELEMENTSOF(tracefs_roots); i++) {
		const char *root = tracefs_root ? tracefs_root : tracefs_roots[i];

		snprintf(path, path_size, "%s/events/mce/mce_record/format", root);
		r = read_small_file(path, text, size, ret_len);
		if (r >= 0 || tracefs_root)
			return r;
		if (r != -ENOENT)
			return r;
	}
	return r;
}

int tracepoint_source_open(struct manager *m, const char *tracefs_root,
			   struct tracepoint_source **ret)
{
	_cleanup_free_ struct tracepoint_source *s = NULL;
	static char text[65536];
	static bool online[CPU_LIST_MAX];
	char path[512], cpus[4096];
	size_t len;
	const char *missing = NULL;
	unsigned line = 0;
	int r, n, first_error = 0;

	s = calloc(1, sizeof(*s));
	if (!s)
		return log_error_errno(-ENOMEM, "Out of memory");
	s->manager = m;
	s->page_size = (size_t) sysconf(_SC_PAGESIZE);

	r = find_format(tracefs_root, text, sizeof(text), &len, path, sizeof(path));
	if (r == -ENOENT)
		return log_warning_errno(r, "The kernel has no mce:mce_record tracepoint (%s missing: "
					 "kernel built without CONFIG_X86_MCE, not x86, or tracefs "
					 "not mounted); tracepoint source disabled", path);
	if (r == -EACCES || r == -EPERM)
		return log_warning_errno(r, "No permission to read %s (mcelogd needs root or "
					 "CAP_SYS_ADMIN, and tracefs must not be hidden by the unit's "
					 "sandboxing); tracepoint source disabled", path);
	if (r < 0)
		return log_warning_errno(r, "Failed to read %s: %m; tracepoint source disabled", path);
	r = trace_format_parse(text, len, &s->format, &line);
	if (r < 0 || !s->format.have_id)
		return log_error_errno(-EPROTO, "%s:%u: cannot parse the tracepoint format; tracepoint "
				       "source disabled", path, line);
	r = mce_trace_layout_init(&s->layout, &s->format, &missing);
	if (r < 0)
		return log_error_errno(r, "%s: tracepoint has no '%s' field; tracepoint source disabled",
				       path, missing);

	memset(online, 0, sizeof(online));
	r = read_small_file("/sys/devices/system/cpu/online", cpus, sizeof(cpus), &len);
	if (r < 0)
		return log_error_errno(r, "Failed to read /sys/devices/system/cpu/online: %m");
	n = cpu_list_parse(cpus, online, ELEMENTSOF(online));
	if (n <= 0)
		return log_error_errno(-EINVAL, "Cannot parse /sys/devices/system/cpu/online: '%s'", cpus);

	s->ring_pages = ring_pages(s->page_size);
	s->scratch = malloc(PERF_RING_RECORD_MAX);
	if (!s->scratch)
		return log_error_errno(-ENOMEM, "Out of memory");
	/* Offline CPUs are not read, and that is no error: when they come online,
	 * cpu-hotplug.c has their readers opened. */
	for (unsigned cpu = 0; cpu < ELEMENTSOF(online); cpu++) {
		if (!online[cpu])
			continue;
		r = reader_open(s, cpu, &s->cpus[cpu]);
		if (r < 0) {
			if (!first_error)
				first_error = r;
			log_open_failure(r, cpu);
			continue;
		}
		s->n_open++;
	}
	if (s->n_open == 0) {
		tracepoint_source_free(TAKE_PTR(s));
		return log_error_errno(first_error ? first_error : -ENODEV,
				       "No CPU's mce:mce_record could be opened; tracepoint source disabled");
	}
	log_info("Reading mce:mce_record (tracepoint id %u, %u fields%s%s) on %u of %u online CPUs, "
		 "%u KiB ring each",
		 s->format.id, s->format.n_fields, s->layout.ppin ? ", with ppin" : "",
		 s->layout.microcode ? ", with microcode" : "", s->n_open, (unsigned) n,
		 (unsigned) (s->ring_pages * s->page_size / 1024));
	*ret = TAKE_PTR(s);
	return 0;
}

int tracepoint_source_cpu_changed(struct tracepoint_source *s, unsigned cpu, bool online)
{
	int r;

	if (!s || cpu >= CPU_LIST_MAX)
		return 0;
	if (!online) {
		uint64_t n;

		if (!s->cpus[cpu])
			return 0;
		/* The event is already detached from the CPU; what it caught before is still in the ring. */
		n = s->cpus[cpu]->n_samples;
		reader_retire(s, cpu);
		log_info("CPU %u went offline: its mce:mce_record reader drained (%llu record(s) in all) "
			 "and closed; reading on %u CPUs", cpu, (unsigned long long) n, s->n_open);
		publish_state(s);
		return 1;
	}
	/* A reader opened after the event was sent is already current. */
	if (s->cpus[cpu])
		return 0;
	r = reader_open(s, cpu, &s->cpus[cpu]);
	if (r < 0) {
		log_open_failure(r, cpu);
		return r;
	}
	s->n_open++;
	log_info("CPU %u came online: reading mce:mce_record on it; reading on %u CPUs", cpu, s->n_open);
	publish_state(s);
	return 1;
}

int tracepoint_source_cpus_resync(struct tracepoint_source *s, const bool *online, size_t n_online)
{
	unsigned opened = 0, closed = 0, renewed = 0;
	int r, ret = 0;

	if (!s)
		return 0;
	for (unsigned cpu = 0; cpu < CPU_LIST_MAX; cpu++) {
		bool want = cpu < n_online && online[cpu];
		struct cpu_reader *fresh;

		if (!want) {
			if (s->cpus[cpu]) {
				reader_retire(s, cpu);
				closed++;
			}
			continue;
		}
		/*
		 * The CPU may have gone offline and come back in the events we
		 * missed: its old event would then be detached for good.  Open the
		 * new reader before draining the old one, so no record falls in
		 * between (one emitted in that instant may be logged twice).
		 */
		r = reader_open(s, cpu, &fresh);
		if (r < 0) {
			if (!s->cpus[cpu])
				log_open_failure(r, cpu);
			if (ret == 0)
				ret = r;
			continue;
		}
		if (s->cpus[cpu]) {
			read_ring(s->cpus[cpu]);
			reader_free(s->cpus[cpu]);
			renewed++;
		} else {
			s->n_open++;
			opened++;
		}
		s->cpus[cpu] = fresh;
	}
	log_info("CPU set re-read: %u reader(s) opened, %u closed, %u renewed; reading on %u CPUs",
		 opened, closed, renewed, s->n_open);
	publish_state(s);
	return ret;
}

void tracepoint_source_drain(struct tracepoint_source *s)
{
	if (!s)
		return;
	for (unsigned cpu = 0; cpu < CPU_LIST_MAX; cpu++)
		if (s->cpus[cpu])
			read_ring(s->cpus[cpu]);
}

struct tracepoint_source *tracepoint_source_free(struct tracepoint_source *s)
{
	if (!s)
		return NULL;
	for (unsigned cpu = 0; cpu < CPU_LIST_MAX; cpu++)
		s->cpus[cpu] = reader_free(s->cpus[cpu]);
	free(s->scratch);
	free(s);
	return NULL;
}

bool tracepoint_source_active(const struct tracepoint_source *s)
{
	return s && s->n_open > 0;
}

unsigned tracepoint_source_n_cpus(const struct tracepoint_source *s)
{
	return s ? s->n_open : 0;
}

uint64_t tracepoint_source_n_lost(const struct tracepoint_source *s)
{
	return s ? s->n_lost : 0;
}
