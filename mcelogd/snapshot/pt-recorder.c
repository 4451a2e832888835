/* SPDX-License-Identifier: MIT */
/* The Intel PT flight recorder of one CPU; see pt-recorder.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "macro.h"
#include "pt-recorder.h"

/* Data pages of the ring: the recorder reads none of its records, but perf
 * wants a ring to hang the AUX area on. */
#define RING_DATA_PAGES 1

uint64_t pt_read_tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __rdtsc();
#else
	return 0;
#endif
}

static const char *open_error(int e)
{
	switch (e) {
	case EACCES:
	case EPERM:
		return "no permission to open intel_pt system-wide (needs CAP_PERFMON, or "
		       "kernel.perf_event_paranoid <= 0)";
	case ENOENT:
	case ENODEV:
		return "the intel_pt PMU refused this CPU (no PT here)";
	case EBUSY:
		return "Intel PT of this CPU is in use by another user";
	case EINVAL:
	case EOPNOTSUPP:
		return "the kernel refused the intel_pt configuration";
	case ENOMEM:
		return "no memory for the AUX buffer (RLIMIT_MEMLOCK, or perf_event_mlock_kb)";
	default:
		return "perf_event_open or mmap of intel_pt failed";
	}
}

void pt_recorder_close(struct pt_recorder_cpu *c)
{
	if (c->aux)
		munmap((void *) c->aux, c->aux_len);
	if (c->ring)
		munmap(c->ring, c->ring_len);
	if (c->fd >= 0)
		close(c->fd);
	*c = (struct pt_recorder_cpu) { .fd = -1, .cpu = c->cpu };
}

int pt_recorder_open(const struct perf_event_attr *attr, unsigned cpu, uint64_t aux_size,
		     struct pt_recorder_cpu *ret, const char **ret_why)
{
	struct pt_recorder_cpu c = { .fd = -1, .cpu = cpu };
	size_t page = (size_t) sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;
	struct perf_event_attr a = *attr;
	void *p;
	int e;

	if (aux_size < page || (aux_size & (aux_size - 1)) || aux_size > SIZE_MAX) {
		*ret_why = "the PT buffer size is not a power of two of at least a page";
		return -EINVAL;
	}
	c.fd = (int) syscall(SYS_perf_event_open, &a, -1, (int) cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (c.fd < 0)
		goto fail;
	c.ring_len = (1 + RING_DATA_PAGES) * page;
	p = mmap(NULL, c.ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, c.fd, 0);
	if (p == MAP_FAILED) {
		c.ring = NULL;
		goto fail;
	}
	c.ring = p;
	pg = c.ring;
	/* The AUX area follows the ring; mapped read-only, perf runs it in
	 * overwrite (snapshot) mode: the newest trace always replaces the oldest. */
	pg->aux_offset = c.ring_len;
	pg->aux_size = aux_size;
	p = mmap(NULL, (size_t) aux_size, PROT_READ, MAP_SHARED, c.fd, (off_t) pg->aux_offset);
	if (p == MAP_FAILED)
		goto fail;
	c.aux = p;
	c.aux_len = (size_t) aux_size;
	*ret = c;
	*ret_why = NULL;
	return 0;
fail:
	e = errno;
	pt_recorder_close(&c);
	*ret_why = open_error(e);
	return e > 0 ? -e : -EIO;
}

static bool written_past(const uint8_t *aux, size_t len, size_t pos)
{
	for (size_t i = pos; i < len; i++)
		if (aux[i])
			return true;
	return false;
}

int pt_recorder_copy(struct pt_recorder_cpu *c, struct pt_copy *ret)
{
	struct perf_event_mmap_page *pg = c->ring;
	struct perf_aux_span spans[2];
	unsigned n;
	size_t at = 0;
	int r = 0;

	*ret = (struct pt_copy) {};
	/* Disabling stops the PT unit of that CPU and makes the kernel write out
	 * what it holds and publish aux_head: the copy is then stable.  (This is
	 * how perf record --snapshot freezes, too.) */
	if (ioctl(c->fd, PERF_EVENT_IOC_DISABLE, 0) < 0)
		return negative_errno();
	ret->freeze_tsc = pt_read_tsc();
	ret->head = __atomic_load_n(&pg->aux_head, __ATOMIC_ACQUIRE);
	ret->time_conv = perf_time_conv_from_page(pg);
	/* intel_pt gives the write position, not a running count: the buffer has
	 * wrapped if anything was written past it (the AUX pages start zeroed). */
	ret->wrapped = ret->head >= c->aux_len || written_past(c->aux, c->aux_len, ret->head % c->aux_len);
	n = perf_aux_snapshot_spans(ret->head, c->aux_len, ret->wrapped, spans);
	for (unsigned i = 0; i < n; i++)
		ret->len += spans[i].len;
	if (ret->len) {
		ret->data = malloc(ret->len);
		if (!ret->data) {
			ret->len = 0;
			r = -ENOMEM;
		}
	}
	for (unsigned i = 0; i < n && ret->data; i++) {
		memcpy(ret->data + at, c->aux + spans[i].offset, spans[i].len);
		at += spans[i].len;
	}
	if (ioctl(c->fd, PERF_EVENT_IOC_ENABLE, 0) < 0 && r == 0)
		r = negative_errno();
	return r;
}

void pt_copy_done(struct pt_copy *c)
{
	free(c->data);
	*c = (struct pt_copy) {};
}

static int write_all(int fd, const uint8_t *header, size_t header_len, const uint8_t *trace, size_t trace_len)
{
	struct iovec iov[2] = {
		{ .iov_base = (void *) header, .iov_len = header_len },
		{ .iov_base = (void *) trace, .iov_len = trace_len },
	};
	size_t left = header_len + trace_len;
	unsigned i = 0;

	while (left) {
		ssize_t n = writev(fd, iov + i, (int) (2 - i));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return negative_errno();
		left -= (size_t) n;
		while (i < 2 && (size_t) n >= iov[i].iov_len) {
			n -= (ssize_t) iov[i].iov_len;
			i++;
		}
		if (i < 2) {
			iov[i].iov_base = (uint8_t *) iov[i].iov_base + n;
			iov[i].iov_len -= (size_t) n;
		}
	}
	return 0;
}

struct saved {
	char name[64];
	uint64_t bytes;
};

static bool is_pt_file(const char *name, size_t *ret_stamp_at)
{
	const char *dash = strchr(name, '-');
	size_t n = strlen(name);

	if (strncmp(name, "cpu", 3) != 0 || !dash || n < 4 || strcmp(name + n - 3, ".pt") != 0)
		return false;
	*ret_stamp_at = (size_t) (dash + 1 - name);
	return true;
}

/*
 * ".cpuN-STAMP.pt.tmp": a save's temporary.  Saves run one at a time, on the
 * main loop, and each renames or removes its own before pruning; one still
 * there is what a crash mid-write left, and nothing will ever finish it.
 */
static bool is_pt_temporary(const char *name)
{
	size_t n = strlen(name), at;
	char stem[64];

	if (name[0] != '.' || n < 9 || n - 5 >= sizeof(stem) || strcmp(name + n - 4, ".tmp") != 0)
		return false;
	memcpy(stem, name + 1, n - 5);
	stem[n - 5] = '\0';
	return is_pt_file(stem, &at);
}

static int cmp_by_stamp(const void *a, const void *b)
{
	const char *x = ((const struct saved *) a)->name, *y = ((const struct saved *) b)->name;

	return strcmp(strchr(x, '-'), strchr(y, '-'));
}

/* Deletes the oldest files (by the timestamp in their names) over the bounds, never keep,
 * and the temporaries of saves a crash cut short (is_pt_temporary()). */
static void prune(const char *dir, int dfd, const char *keep, unsigned max_files, uint64_t max_bytes)
{
	DIR *d = fdopendir(dfd);
	struct saved *v = NULL;
	size_t n = 0, cap = 0, files;
	uint64_t total = 0;
	struct dirent *e;

	(void) dir;
	if (!d) {
		close(dfd);
		return;
	}
	while ((e = readdir(d))) {
		struct stat st;
		size_t at;

		if (is_pt_temporary(e->d_name)) {
			(void) unlinkat(dirfd(d), e->d_name, 0);
			continue;
		}
		if (!is_pt_file(e->d_name, &at) || strlen(e->d_name) >= sizeof(v->name))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			struct saved *nv = reallocarray(v, cap ? cap * 2 : 32, sizeof(*v));

			if (!nv)
				break;
			v = nv;
			cap = cap ? cap * 2 : 32;
		}
		strcpy(v[n].name, e->d_name);
		v[n].bytes = (uint64_t) st.st_size;
		total += v[n].bytes;
		n++;
	}
	qsort(v, n, sizeof(*v), cmp_by_stamp);
	files = n;
	for (size_t i = 0; i < n && (files > max_files || total > max_bytes); i++) {
		if (streq(v[i].name, keep))
			continue;
		if (unlinkat(dirfd(d), v[i].name, 0) == 0) {
			files--;
			total -= v[i].bytes;
		}
	}
	free(v);
	closedir(d);
}

int pt_file_save(const char *dir, unsigned cpu, const uint8_t *header, size_t header_len,
		 const uint8_t *trace, size_t trace_len, unsigned max_files, uint64_t max_bytes,
		 char *ret_path, size_t path_size)
{
	struct timespec ts;
	char name[64], tmp[80];
	_cleanup_close_ int dfd = -1, fd = -1;
	int r;

	if (mkdir(dir, 0750) < 0 && errno != EEXIST)
		return negative_errno();
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return negative_errno();
	clock_gettime(CLOCK_REALTIME, &ts);
	/* 20 digits of nanoseconds: the names sort by age */
	snprintf(name, sizeof(name), "cpu%u-%020" PRIu64 ".pt", cpu,
		 (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec);
	snprintf(tmp, sizeof(tmp), ".%s.tmp", name);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);
	if (fd < 0)
		return negative_errno();
	r = write_all(fd, header, header_len, trace, trace_len);
	if (r == 0 && renameat(dfd, tmp, dfd, name) < 0)
		r = negative_errno();
	if (r < 0) {
		unlinkat(dfd, tmp, 0);
		return r;
	}
	snprintf(ret_path, path_size, "%s/%s", dir, name);
	prune(dir, TAKE_FD(dfd), name, max_files ? max_files : 1, max_bytes);
	return 0;
}
