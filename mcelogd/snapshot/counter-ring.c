/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "counter-ring.h"
#include "macro.h"
#include "perf-backward-ring.h"

int counter_ring_open_sampler(unsigned cpu, uint64_t period_ns, size_t data_size, struct counter_ring *ring)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = period_ns,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TIME | PERF_SAMPLE_READ,
		.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
		.use_clockid = 1,
		.clockid = COUNTER_RING_CLOCK,
		.write_backward = 1,
		/* Nobody polls the ring: it is read when a record comes, never woken for. */
		.wakeup_events = 0,
	};
	long page = sysconf(_SC_PAGESIZE);
	int fd, r;

	fd = (int) syscall(SYS_perf_event_open, &a, -1, (int) cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return negative_errno();
	if (ring->fd >= 0) {
		if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring->fd) < 0) {
			r = negative_errno();
			close(fd);
			return r;
		}
		return fd;
	}
	ring->map_size = (size_t) page + data_size;
	/* Read-only: the kernel then overwrites the oldest samples instead of waiting for us. */
	ring->map = mmap(NULL, ring->map_size, PROT_READ, MAP_SHARED, fd, 0);
	if (ring->map == MAP_FAILED) {
		r = negative_errno();
		ring->map = NULL;
		close(fd);
		return r;
	}
	ring->data_size = data_size;
	ring->fd = fd;
	return fd;
}

void counter_ring_unmap(struct counter_ring *ring)
{
	if (ring->map)
		munmap(ring->map, ring->map_size);
	*ring = (struct counter_ring) { .fd = -1 };
}

struct collect {
	counter_ring_sample_fn fn;
	void *userdata;
};

static void on_record(uint32_t type, const void *body, size_t body_size, void *userdata)
{
	struct collect *c = userdata;
	struct perf_group_read g;
	uint64_t id, time;

	/* Lost and throttle records carry no values. */
	if (type != PERF_RECORD_SAMPLE || perf_group_sample_parse(body, body_size, &id, &time, &g) < 0)
		return;
	c->fn(id, time, &g, c->userdata);
}

int counter_ring_collect(struct counter_ring *ring, size_t max, counter_ring_sample_fn fn, void *userdata)
{
	const struct perf_event_mmap_page *pc = ring->map;
	struct collect c = { .fn = fn, .userdata = userdata };
	int n;

	if (!ring->map)
		return -ENODEV;
	/* Paused, the kernel writes nothing while we walk (it counts what it drops as lost). */
	if (ioctl(ring->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1) < 0)
		return negative_errno();
	uint64_t head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	/* Kernels before 4.1 leave data_offset 0: the data area is then the page after this one. */
	size_t offset = pc->data_offset ? (size_t) pc->data_offset : ring->map_size - ring->data_size;
	n = perf_backward_ring_walk((const unsigned char *) ring->map + offset, ring->data_size, head,
				    max, on_record, &c);
	(void) ioctl(ring->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
	return n;
}

size_t counter_ring_data_size(size_t samples, size_t n_events, size_t page_size)
{
	/* header, id, time, nr, enabled, running; {value, id} per event and per sampler. */
	size_t per_pair = 2 * (8 + 8 + 8 + 24) + 16 * (n_events + 2);
	size_t want = samples * per_pair, size = page_size;

	while (size < want)
		size *= 2;
	return size;
}
