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
#include "ras-record.h"
#include "ras-trace.h"
#include "source-tracepoint.h"

/*
 * Ring size per CPU, in pages (a power of two).  A mce_record sample is about
 * 150 bytes, so 64 pages hold some 1,700 records: a burst is drained long
 * before it could wrap, and the kernel tells us (PERF_RECORD_LOST) if it did.
 */
#define RING_PAGES 64

static const char *const tracefs_roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

/*
 * The tracepoints one per-CPU reader serves.  Each is its own perf event on
 * each CPU; all of a CPU's events write into one ring (PERF_EVENT_IOC_SET_OUTPUT
 * to the first one opened there), and every sample starts with its event's id
 * (PERF_SAMPLE_IDENTIFIER), by which it is dispatched to its decoder.
 */
enum {
	TP_MCE_RECORD,
	TP_RAS_FIRST,   /* TP_RAS_FIRST + enum ras_tp */
	_TP_MAX = TP_RAS_FIRST + _RAS_TP_MAX,
};

static const struct tracepoint_def {
	const char *system, *name;
	enum mce_source source;
	const char *needs;      /* why a kernel may lack it */
} tracepoint_defs[_TP_MAX] = {
	[TP_MCE_RECORD] = { "mce", "mce_record", MCE_SOURCE_TRACEPOINT,
			    "kernel built without CONFIG_X86_MCE, or not x86" },
	[TP_RAS_FIRST + RAS_TP_MC_EVENT] = { "ras", "mc_event", MCE_SOURCE_RAS_MC_EVENT,
					     "kernel built without CONFIG_RAS" },
	[TP_RAS_FIRST + RAS_TP_AER_EVENT] = { "ras", "aer_event", MCE_SOURCE_RAS_AER_EVENT,
					      "kernel built without CONFIG_RAS or CONFIG_PCIEAER" },
	[TP_RAS_FIRST + RAS_TP_MEMORY_FAILURE_EVENT] = {
		"ras", "memory_failure_event", MCE_SOURCE_RAS_MEMORY_FAILURE_EVENT,
		"kernel built without CONFIG_RAS or CONFIG_MEMORY_FAILURE" },
	[TP_RAS_FIRST + RAS_TP_EXTLOG_MEM_EVENT] = {
		"ras", "extlog_mem_event", MCE_SOURCE_RAS_EXTLOG_MEM_EVENT,
		"kernel built without CONFIG_RAS or CONFIG_ACPI_EXTLOG" },
	[TP_RAS_FIRST + RAS_TP_ARM_EVENT] = { "ras", "arm_event", MCE_SOURCE_RAS_ARM_EVENT,
					      "kernel built without CONFIG_RAS" },
	[TP_RAS_FIRST + RAS_TP_NON_STANDARD_EVENT] = {
		"ras", "non_standard_event", MCE_SOURCE_RAS_NON_STANDARD_EVENT,
		"kernel built without CONFIG_RAS" },
};

struct tracepoint {
	bool available;         /* wanted, and its format was read and understood */
	uint32_t id;            /* tracefs id: perf_event_attr.config */
	unsigned n_cpus;        /* CPUs it is open on */
	int first_error;        /* of perf_event_open on some CPU */
};

struct cpu_reader {
	struct tracepoint_source *owner;
	unsigned cpu;
	int fd;                 /* the event that owns this CPU's ring */
	void *map;
	size_t map_size;
	sd_event_source *io;
	int tp_fd[_TP_MAX];     /* -1: not open on this CPU */
	uint64_t tp_id[_TP_MAX];/* the kernel's sample id of each (PERF_EVENT_IOC_ID) */
	uint64_t n_samples;
	uint64_t n_lost;
};

struct tracepoint_source {
	struct manager *manager;
	struct tracepoint tps[_TP_MAX];
	struct trace_format format;
	struct mce_trace_layout layout;
	struct ras_tp_layout ras[_RAS_TP_MAX];
	struct cpu_reader *cpus;
	unsigned n_cpus;
	unsigned n_open;
	uint64_t n_lost;
	uint64_t n_bad;
	size_t page_size;
	unsigned char *scratch;     /* one record copied out when it wraps the ring */
	size_t scratch_size;
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

/* Which of this CPU's tracepoints a sample or loss id belongs to; -1: none. */
static int tp_of_id(const struct cpu_reader *c, uint64_t id)
{
	for (int t = 0; t < _TP_MAX; t++)
		if (c->tp_fd[t] >= 0 && c->tp_id[t] == id)
			return t;
	return -1;
}

static void handle_mce_record(struct cpu_reader *c, const unsigned char *raw, uint32_t raw_size)
{
	struct tracepoint_source *s = c->owner;
	struct mce_record rec;

	if (mce_trace_to_record(&s->layout, raw, raw_size, &rec) < 0) {
		s->n_bad++;
		log_warning("mce_record sample on CPU %u too short (%u bytes) for this kernel's format, "
			    "skipped", c->cpu, raw_size);
		return;
	}
	c->n_samples++;
	(void) manager_submit_from_ring(s->manager, c->cpu, &rec);
}

/* At debug level, the raw bytes: how the test data in tests/data/ras were recorded. */
static void log_raw_sample(const char *name, unsigned cpu, const unsigned char *raw, uint32_t raw_size)
{
	static const char digits[] = "0123456789abcdef";
	char hex[2 * 4096 + 1];
	size_t n = raw_size < 4096 ? raw_size : 4096;

	if (log_get_max_level() < LOG_DEBUG)
		return;
	for (size_t i = 0; i < n; i++) {
		hex[2 * i] = digits[raw[i] >> 4];
		hex[2 * i + 1] = digits[raw[i] & 0xf];
	}
	hex[2 * n] = '\0';
	log_debug("ras:%s raw sample on CPU %u (%u bytes): %s%s", name, cpu, raw_size, hex,
		  n < raw_size ? "..." : "");
}

static void handle_ras(struct cpu_reader *c, enum ras_tp tp, const unsigned char *raw, uint32_t raw_size)
{
	struct tracepoint_source *s = c->owner;
	struct ras_record rec;
	char why[256];
	int r;

	log_raw_sample(ras_tp_name(tp), c->cpu, raw, raw_size);
	r = ras_tp_decode(&s->ras[tp], raw, raw_size, &rec, why, sizeof(why));
	if (r < 0) {
		s->n_bad++;
		log_warning("ras:%s sample on CPU %u (%u bytes) skipped: %s", ras_tp_name(tp), c->cpu,
			    raw_size, why);
		return;
	}
	/* The tracepoints carry no wall-clock time; the sample is read within moments. */
	rec.have_time = true;
	rec.time_usec = now_realtime_usec();
	c->n_samples++;
	(void) manager_submit_ras(s->manager, &rec);
	ras_record_done(&rec);
}

static void handle_sample(struct cpu_reader *c, const unsigned char *body, size_t body_size)
{
	struct tracepoint_source *s = c->owner;
	uint64_t id;
	uint32_t raw_size;
	int tp;

	/* PERF_SAMPLE_IDENTIFIER (u64), PERF_SAMPLE_TIME (u64), PERF_SAMPLE_CPU (u32 cpu, u32 res),
	 * PERF_SAMPLE_RAW (u32 size, data) */
	if (body_size < 8 + 8 + 8 + 4) {
		s->n_bad++;
		log_warning("Truncated tracepoint sample on CPU %u (%zu bytes), skipped", c->cpu, body_size);
		return;
	}
	memcpy(&id, body, 8);
	memcpy(&raw_size, body + 24, 4);
	if (raw_size > body_size - 28) {
		s->n_bad++;
		log_warning("Tracepoint sample on CPU %u claims %u raw bytes but holds %zu, skipped",
			    c->cpu, raw_size, body_size - 28);
		return;
	}
	tp = tp_of_id(c, id);
	if (tp < 0) {
		s->n_bad++;
		log_warning("Tracepoint sample on CPU %u with unknown id %llu, skipped", c->cpu,
			    (unsigned long long) id);
		return;
	}
	if (tp == TP_MCE_RECORD)
		handle_mce_record(c, body + 28, raw_size);
	else
		handle_ras(c, (enum ras_tp) (tp - TP_RAS_FIRST), body + 28, raw_size);
}

static void read_ring(struct cpu_reader *c)
{
	struct tracepoint_source *s = c->owner;
	struct perf_event_mmap_page *pc = c->map;
	unsigned char *data = (unsigned char *) c->map + s->page_size;
	uint64_t size = (uint64_t) RING_PAGES * s->page_size;
	uint64_t head, tail;

	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	tail = pc->data_tail;
	while (tail < head) {
		struct perf_event_header hdr;
		uint64_t off = tail % size;
		const unsigned char *rec;

		/* The header itself may wrap. */
		for (size_t i = 0; i < sizeof(hdr); i++)
			((unsigned char *) &hdr)[i] = data[(off + i) % size];
		if (hdr.size < sizeof(hdr) || hdr.size > head - tail) {
			log_error("Corrupt perf ring on CPU %u (record size %u), resynchronising",
				  c->cpu, hdr.size);
			tail = head;
			break;
		}
		if (off + hdr.size <= size)
			rec = data + off;
		else {
			uint64_t first = size - off;

			memcpy(s->scratch, data + off, first);
			memcpy(s->scratch + first, data, hdr.size - first);
			rec = s->scratch;
		}

		switch (hdr.type) {
		case PERF_RECORD_SAMPLE:
			handle_sample(c, rec + sizeof(hdr), hdr.size - sizeof(hdr));
			break;
		case PERF_RECORD_LOST: {
			uint64_t id, lost;
			int tp;

			if (hdr.size >= sizeof(hdr) + 16) {
				memcpy(&id, rec + sizeof(hdr), 8);
				memcpy(&lost, rec + sizeof(hdr) + 8, 8);
				tp = tp_of_id(c, id);
				c->n_lost += lost;
				s->n_lost += lost;
				manager_report_loss(s->manager, tracepoint_defs[tp < 0 ? TP_MCE_RECORD : tp].source,
						    c->cpu, lost);
			}
			break;
		}
		default:
			break;
		}
		tail += hdr.size;
	}
	__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
}

static int on_readable(sd_event_source *es, int fd, uint32_t revents, void *userdata)
{
	struct cpu_reader *c = userdata;

	(void) es;
	(void) fd;
	if (revents & EPOLLHUP) {
		/* The CPU went away under us: stop watching it rather than spin. */
		log_notice("Tracepoint reader for CPU %u hung up, closing it", c->cpu);
		read_ring(c);
		c->io = sd_event_source_disable_unref(c->io);
		return 0;
	}
	read_ring(c);
	return 0;
}

static void reader_close(struct cpu_reader *c)
{
	c->io = sd_event_source_disable_unref(c->io);
	if (c->map && c->map != MAP_FAILED)
		munmap(c->map, c->map_size);
	c->map = NULL;
	for (unsigned t = 0; t < _TP_MAX; t++) {
		if (c->tp_fd[t] < 0)
			continue;
		/* A reader may be closed and opened again (its CPU going away and coming back). */
		c->owner->tps[t].n_cpus--;
		if (c->tp_fd[t] != c->fd)
			close(c->tp_fd[t]);
		c->tp_fd[t] = -1;
	}
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

static int event_open(const struct tracepoint *tp, unsigned cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = tp->id,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW,
		.wakeup_events = 1,
	};
	int fd = (int) syscall(SYS_perf_event_open, &attr, -1, (int) cpu, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? negative_errno() : fd;
}

/* Opens tracepoint t on the reader's CPU: the first one opened there owns the ring. */
static int reader_add(struct tracepoint_source *s, struct cpu_reader *c, unsigned t)
{
	_cleanup_close_ int fd = event_open(&s->tps[t], c->cpu);
	uint64_t id;
	int r;

	if (fd < 0)
		return fd;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
		return negative_errno();
	if (c->fd < 0) {
		c->map_size = (1 + RING_PAGES) * s->page_size;
		c->map = mmap(NULL, c->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (c->map == MAP_FAILED) {
			c->map = NULL;
			return negative_errno();
		}
		r = sd_event_add_io(s->manager->event, &c->io, fd, EPOLLIN, on_readable, c);
		if (r < 0) {
			munmap(c->map, c->map_size);
			c->map = NULL;
			return r;
		}
		(void) sd_event_source_set_description(c->io, "tracepoint-cpu");
		c->fd = fd;
	} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, c->fd) < 0)
		return negative_errno();
	c->tp_id[t] = id;
	c->tp_fd[t] = TAKE_FD(fd);
	return 0;
}

/* Opens every available tracepoint on the reader's CPU; fails only if none opened. */
static int reader_open(struct tracepoint_source *s, struct cpu_reader *c)
{
	int r, first = 0;

	for (unsigned t = 0; t < _TP_MAX; t++)
		c->tp_fd[t] = -1;
	for (unsigned t = 0; t < _TP_MAX; t++) {
		const char *name = tracepoint_defs[t].name;

		if (!s->tps[t].available)
			continue;
		r = reader_add(s, c, t);
		if (r < 0) {
			if (!s->tps[t].first_error)
				s->tps[t].first_error = r;
			if (!first)
				first = r;
			if (r == -EACCES || r == -EPERM)
				log_warning_errno(r, "perf_event_open of %s:%s on CPU %u refused: %m (needs "
						  "CAP_PERFMON or CAP_SYS_ADMIN)", tracepoint_defs[t].system,
						  name, c->cpu);
			else
				log_warning_errno(r, "Cannot read %s:%s on CPU %u: %m",
						  tracepoint_defs[t].system, name, c->cpu);
			continue;
		}
		s->tps[t].n_cpus++;
	}
	if (c->fd < 0) {
		reader_close(c);
		return first ? first : -ENODEV;
	}
	return 0;
}

static int find_format(const char *tracefs_root, const struct tracepoint_def *def, char *text,
		       size_t size, size_t *ret_len, char *path, size_t path_size)
{
	int r = -ENOENT;

	for (size_t i = 0; i < ELEMENTSOF(tracefs_roots); i++) {
		const char *root = tracefs_root ? tracefs_root : tracefs_roots[i];

		snprintf(path, path_size, "%s/events/%s/%s/format", root, def->system, def->name);
		r = read_small_file(path, text, size, ret_len);
		if (r >= 0 || tracefs_root)
			return r;
		if (r != -ENOENT)
			return r;
	}
	return r;
}

static bool tracepoint_wanted(const struct manager *m, unsigned t)
{
	return t == TP_MCE_RECORD ? m->config.source_tracepoint : m->config.source_ras;
}

/*
 * Reads and checks tracepoint t's format.  On failure logs why, sets the
 * source's state and returns a negative errno; the other tracepoints go on.
 */
static int tracepoint_load(struct tracepoint_source *s, const char *tracefs_root, unsigned t)
{
	static char text[65536];
	const struct tracepoint_def *def = &tracepoint_defs[t];
	/* A kernel without, say, extlog is normal; without mce_record on x86 it is not. */
	int level = t == TP_MCE_RECORD ? LOG_WARNING : LOG_NOTICE;
	enum mce_source src = def->source;
	struct manager *m = s->manager;
	const char *missing = NULL;
	struct trace_format *format;
	char path[512];
	unsigned line = 0;
	size_t len;
	int r;

	r = find_format(tracefs_root, def, text, sizeof(text), &len, path, sizeof(path));
	if (r == -ENOENT) {
		manager_source_set_state(m, src, SOURCE_UNAVAILABLE, "the kernel has no %s:%s tracepoint "
					 "(%s)", def->system, def->name, def->needs);
		return log_internal(level, r, "The kernel has no %s:%s tracepoint (%s missing: %s, or "
				    "tracefs not mounted); that source is off", def->system, def->name,
				    path, def->needs);
	}
	if (r == -EACCES || r == -EPERM) {
		manager_source_set_state(m, src, SOURCE_UNAVAILABLE, "no permission to read %s", path);
		return log_warning_errno(r, "No permission to read %s (mcelogd needs root or "
					 "CAP_SYS_ADMIN, and tracefs must not be hidden by the unit's "
					 "sandboxing); %s:%s source is off", path, def->system, def->name);
	}
	if (r < 0) {
		manager_source_set_state(m, src, SOURCE_UNAVAILABLE, "cannot read %s: %s", path,
					 strerror(-r));
		return log_warning_errno(r, "Failed to read %s: %m; %s:%s source is off", path,
					 def->system, def->name);
	}
	if (t == TP_MCE_RECORD) {
		format = &s->format;
		r = trace_format_parse(text, len, format, &line);
		if (r >= 0 && format->have_id)
			r = mce_trace_layout_init(&s->layout, format, &missing);
	} else {
		format = &s->ras[t - TP_RAS_FIRST].format;
		r = ras_tp_layout_init(&s->ras[t - TP_RAS_FIRST], (enum ras_tp) (t - TP_RAS_FIRST), text, len,
				       &line, &missing);
	}
	if (r >= 0 && !format->have_id)
		r = -EINVAL;
	if (r == -EPROTO) {
		manager_source_set_state(m, src, SOURCE_UNAVAILABLE, "its format has no '%s' field", missing);
		return log_error_errno(r, "%s: tracepoint has no '%s' field; %s:%s source is off", path,
				       missing, def->system, def->name);
	}
	if (r < 0) {
		manager_source_set_state(m, src, SOURCE_UNAVAILABLE, "cannot parse %s", path);
		return log_error_errno(-EPROTO, "%s:%u: cannot parse the tracepoint format; %s:%s source "
				       "is off", path, line, def->system, def->name);
	}
	s->tps[t].id = format->id;
	s->tps[t].available = true;
	return 0;
}

/* The state of each tracepoint after the per-CPU opens. */
static void tracepoint_report(struct tracepoint_source *s, unsigned t)
{
	const struct tracepoint_def *def = &tracepoint_defs[t];
	struct tracepoint *tp = &s->tps[t];
	int e = tp->first_error;

	if (!tp->available)
		return;
	if (tp->n_cpus == 0) {
		if (e == -EACCES || e == -EPERM)
			manager_source_set_state(s->manager, def->source, SOURCE_UNAVAILABLE,
						 "no permission to read %s:%s (needs CAP_PERFMON or "
						 "CAP_SYS_ADMIN and access to tracefs)", def->system, def->name);
		else
			manager_source_set_state(s->manager, def->source, SOURCE_UNAVAILABLE,
						 "%s:%s could not be opened on any CPU: %s", def->system,
						 def->name, strerror(e < 0 ? -e : ENODEV));
		log_error("No CPU's %s:%s could be opened; that source is off", def->system, def->name);
		return;
	}
	manager_source_set_state(s->manager, def->source, SOURCE_ACTIVE, "%s:%s on %u CPUs", def->system,
				 def->name, tp->n_cpus);
	if (t == TP_MCE_RECORD)
		log_info("Reading mce:mce_record (tracepoint id %u, %u fields%s%s) on %u of %u online CPUs",
			 s->format.id, s->format.n_fields, s->layout.ppin ? ", with ppin" : "",
			 s->layout.microcode ? ", with microcode" : "", tp->n_cpus, s->n_cpus);
	else
		log_info("Reading %s:%s (tracepoint id %u, %u fields) on %u of %u online CPUs", def->system,
			 def->name, tp->id, s->ras[t - TP_RAS_FIRST].format.n_fields, tp->n_cpus, s->n_cpus);
}

int tracepoint_source_open(struct manager *m, const char *tracefs_root,
			   struct tracepoint_source **ret)
{
	_cleanup_free_ struct tracepoint_source *s = NULL;
	static bool online[CPU_LIST_MAX];
	char cpus[4096];
	size_t len;
	unsigned n_available = 0;
	int r, n, first_error = 0;

	s = calloc(1, sizeof(*s));
	if (!s)
		return log_error_errno(-ENOMEM, "Out of memory");
	s->manager = m;
	s->page_size = (size_t) sysconf(_SC_PAGESIZE);

	for (unsigned t = 0; t < _TP_MAX; t++) {
		const struct tracepoint_def *def = &tracepoint_defs[t];

		if (!tracepoint_wanted(m, t)) {
			manager_source_set_state(m, def->source, SOURCE_DISABLED, "%s=no in the configuration",
						 t == TP_MCE_RECORD ? "Tracepoint" : "RAS");
			continue;
		}
		r = tracepoint_load(s, tracefs_root, t);
		if (r < 0) {
			if (!first_error)
				first_error = r;
			continue;
		}
		n_available++;
	}
	if (n_available == 0)
		return first_error ? first_error : -ENOENT;

	memset(online, 0, sizeof(online));
	r = read_small_file("/sys/devices/system/cpu/online", cpus, sizeof(cpus), &len);
	if (r < 0)
		return log_error_errno(r, "Failed to read /sys/devices/system/cpu/online: %m");
	n = cpu_list_parse(cpus, online, ELEMENTSOF(online));
	if (n <= 0)
		return log_error_errno(-EINVAL, "Cannot parse /sys/devices/system/cpu/online: '%s'", cpus);

	s->scratch_size = 65536;   /* perf_event_header.size is a u16 */
	s->scratch = malloc(s->scratch_size);
	s->cpus = calloc((size_t) n, sizeof(*s->cpus));
	if (!s->scratch || !s->cpus) {
		free(s->scratch);
		free(s->cpus);
		return log_error_errno(-ENOMEM, "Out of memory");
	}
	first_error = 0;
	for (unsigned cpu = 0; cpu < ELEMENTSOF(online); cpu++) {
		struct cpu_reader *c;

		if (!online[cpu])
			continue;
		c = &s->cpus[s->n_cpus++];
		*c = (struct cpu_reader) { .owner = s, .cpu = cpu, .fd = -1 };
		r = reader_open(s, c);
		if (r < 0) {
			if (!first_error)
				first_error = r;
			continue;
		}
		s->n_open++;
	}
	for (unsigned t = 0; t < _TP_MAX; t++)
		tracepoint_report(s, t);
	if (s->n_open == 0) {
		tracepoint_source_free(TAKE_PTR(s));
		return first_error ? first_error : -ENODEV;
	}
	*ret = TAKE_PTR(s);
	return 0;
}

void tracepoint_source_drain(struct tracepoint_source *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->n_cpus; i++)
		if (s->cpus[i].map)
			read_ring(&s->cpus[i]);
}

struct tracepoint_source *tracepoint_source_free(struct tracepoint_source *s)
{
	if (!s)
		return NULL;
	for (unsigned i = 0; i < s->n_cpus; i++)
		reader_close(&s->cpus[i]);
	free(s->cpus);
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
