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
#include "source-tracepoint.h"

/*
 * Ring size per CPU, in pages (a power of two).  A mce_record sample is about
 * 150 bytes, so 64 pages hold some 1,700 records: a burst is drained long
 * before it could wrap, and the kernel tells us (PERF_RECORD_LOST) if it did.
 */
#define RING_PAGES 64

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

static void handle_sample(struct cpu_reader *c, const unsigned char *body, size_t body_size)
{
	struct tracepoint_source *s = c->owner;
	struct mce_record rec;
	uint32_t raw_size;

	/* PERF_SAMPLE_TIME (u64), PERF_SAMPLE_CPU (u32 cpu, u32 res), PERF_SAMPLE_RAW (u32 size, data) */
	if (body_size < 8 + 8 + 4) {
		s->n_bad++;
		log_warning("Truncated tracepoint sample on CPU %u (%zu bytes), skipped", c->cpu, body_size);
		return;
	}
	memcpy(&raw_size, body + 16, 4);
	if (raw_size > body_size - 20) {
		s->n_bad++;
		log_warning("Tracepoint sample on CPU %u claims %u raw bytes but holds %zu, skipped",
			    c->cpu, raw_size, body_size - 20);
		return;
	}
	if (mce_trace_to_record(&s->layout, body + 20, raw_size, &rec) < 0) {
		s->n_bad++;
		log_warning("mce_record sample on CPU %u too short (%u bytes) for this kernel's format, "
			    "skipped", c->cpu, raw_size);
		return;
	}
	c->n_samples++;
	(void) manager_submit_from_ring(s->manager, c->cpu, &rec);
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
			uint64_t lost;

			if (hdr.size >= sizeof(hdr) + 16) {
				memcpy(&lost, rec + sizeof(hdr) + 8, 8);
				c->n_lost += lost;
				s->n_lost += lost;
				manager_report_loss(s->manager, MCE_SOURCE_TRACEPOINT, c->cpu, lost);
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
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

static int reader_open(struct tracepoint_source *s, struct cpu_reader *c)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = s->format.id,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW,
		.wakeup_events = 1,
	};
	int r;

	c->fd = (int) syscall(SYS_perf_event_open, &attr, -1, (int) c->cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (c->fd < 0)
		return negative_errno();
	c->map_size = (1 + RING_PAGES) * s->page_size;
	c->map = mmap(NULL, c->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (c->map == MAP_FAILED) {
		r = negative_errno();
		c->map = NULL;
		reader_close(c);
		return r;
	}
	r = sd_event_add_io(s->manager->event, &c->io, c->fd, EPOLLIN, on_readable, c);
	if (r < 0) {
		reader_close(c);
		return r;
	}
	(void) sd_event_source_set_description(c->io, "tracepoint-cpu");
	return 0;
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

	s->scratch_size = 65536;   /* perf_event_header.size is a u16 */
	s->scratch = malloc(s->scratch_size);
	s->cpus = calloc((size_t) n, sizeof(*s->cpus));
	if (!s->scratch || !s->cpus) {
		free(s->scratch);
		free(s->cpus);
		return log_error_errno(-ENOMEM, "Out of memory");
	}
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
			if (r == -EACCES || r == -EPERM)
				log_warning_errno(r, "perf_event_open of mce:mce_record on CPU %u refused: %m "
						  "(needs CAP_PERFMON or CAP_SYS_ADMIN)", cpu);
			else
				log_warning_errno(r, "Cannot read mce:mce_record on CPU %u: %m", cpu);
			continue;
		}
		s->n_open++;
	}
	if (s->n_open == 0) {
		tracepoint_source_free(TAKE_PTR(s));
		return log_error_errno(first_error ? first_error : -ENODEV,
				       "No CPU's mce:mce_record could be opened; tracepoint source disabled");
	}
	log_info("Reading mce:mce_record (tracepoint id %u, %u fields%s%s) on %u of %u online CPUs",
		 s->format.id, s->format.n_fields, s->layout.ppin ? ", with ppin" : "",
		 s->layout.microcode ? ", with microcode" : "", s->n_open, s->n_cpus);
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
