/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "cpu-list.h"
#include "file-io.h"
#include "ftrace-page.h"
#include "log.h"
#include "macro.h"
#include "ras-buffer.h"
#include "ras-trace.h"
#include "source.h"
#include "tracefs-roots.h"

#define INSTANCE "instances/mcelogd-ras"
#define CURSOR_FILE "ras.cursor"
/* The clock our perf samples use too (use_clockid, CLOCK_MONOTONIC in tracepoint.c). */
#define CLOCK_NAME "mono"
/* The largest sub-buffer a read() of trace_pipe_raw returns on any kernel. */
#define READ_MAX (1024u * 1024)
#define CURSOR_MAX (4u * 1024 * 1024)
#define KEPT_FILE "ras.kept"
/* Far beyond what 128 KiB per CPU of the largest machine holds. */
#define KEPT_FILE_MAX (1024u * 1024 * 1024)

/* Events of one ring logged from the instance that its live ring may carry too. */
struct ring_recovered {
	struct ras_mark *marks;
	bool *taken;
	size_t n;
};

struct ras_buffer {
	const struct source_host *host;
	char instance[600];
	char cursor_path[1024];
	char kept_path[1024];
	struct ras_cursor cursor;
	bool have_cursor;         /* of this boot */
	sd_event_source *save_later;
	bool dirty;
	bool kept_pending;        /* ras.kept holds events the cursor may not cover yet */
	struct ring_recovered *recovered;   /* by ring, n_rings of them */
	unsigned n_rings;
	bool stuck[CPU_LIST_MAX];           /* an event of this ring is in no sink: its cursor stays */
	bool waiting[CPU_LIST_MAX];         /* counted in a storm not summarised yet */
	struct ras_cursor counted;
};

static bool clock_is_ours(const char *dir)
{
	_cleanup_free_ char *text = NULL;
	char path[700];
	size_t len;

	snprintf(path, sizeof(path), "%s/trace_clock", dir);
	return read_full_file(path, 4096, &text, &len) >= 0 && strstr(text, "[" CLOCK_NAME "]");
}

/* A system's enable file reads 1 when all of its events are on, X when some are. */
static bool all_enabled(const char *path)
{
	_cleanup_free_ char *text = NULL;
	size_t len;

	return read_full_file(path, 64, &text, &len) >= 0 && text[0] == '1';
}

/*
 * The events the instance keeps: every ras:* event, and the device events
 * the tracepoint source reads beside them (tracepoint.c's TIER_DEVICE: the
 * cxl:* events, the two PCIe events of pci:*, the two devlink health events),
 * by name, never a whole device system: a chatty event added to cxl:* by a
 * later kernel would share the 128 KiB per CPU and push out the records
 * kept while mcelogd is stopped (review M8).  NULL: the whole system.  The
 * ras system must be there; the others come with newer kernels and drivers.
 *
 * An event with a filter is kept only through it, as the live source reads it
 * (kernel-abi/ras-trace.h ras_tp_filter()): signal_generate unfiltered would
 * fill the instance with every signal of the machine, block_rq_complete with
 * every disk request.  The filter is written before the event is enabled,
 * and an event whose filter the kernel refuses is not kept.  unless: an event
 * kept only where the kernel lacks that one (block_rq_complete stands in for
 * block_rq_error before Linux 5.18).
 */
static const struct kept_system {
	const char *system, *event;
	bool required;
	enum ras_tp filter_of;      /* _RAS_TP_MAX: none */
	const char *unless;
} kept_systems[] = {
	{ "ras", NULL, true, _RAS_TP_MAX, NULL },
	{ "cxl", "cxl_aer_uncorrectable_error", false, _RAS_TP_MAX, NULL },
	{ "cxl", "cxl_aer_correctable_error", false, _RAS_TP_MAX, NULL },
	{ "cxl", "cxl_port_aer_uncorrectable_error", false, _RAS_TP_MAX, NULL },
	{ "cxl", "cxl_port_aer_correctable_error", false, _RAS_TP_MAX, NULL },
	{ "cxl", "cxl_overflow", false, _RAS_TP_MAX, NULL },
	{ "cxl", "cxl_generic_event", false, _RAS_TP_MAX, NULL },
	{ "cxl", "cxl_general_media", false, _RAS_TP_MAX, NULL },
	{ "cxl", "cxl_dram", false, _RAS_TP_MAX, NULL },
	{ "cxl", "cxl_memory_module", false, _RAS_TP_MAX, NULL },
	{ "cxl", "cxl_poison", false, _RAS_TP_MAX, NULL },
	{ "cxl", "cxl_memory_sparing", false, _RAS_TP_MAX, NULL },
	{ "pci", "pci_hp_event", false, _RAS_TP_MAX, NULL },
	{ "pci", "pcie_link_event", false, _RAS_TP_MAX, NULL },
	{ "devlink", "devlink_health_report", false, _RAS_TP_MAX, NULL },
	{ "devlink", "devlink_health_recover_aborted", false, _RAS_TP_MAX, NULL },
	{ "signal", "signal_generate", false, RAS_TP_SIGNAL_GENERATE, NULL },
	{ "block", "block_rq_error", false, _RAS_TP_MAX, NULL },
	{ "block", "block_rq_complete", false, RAS_TP_BLOCK_RQ_COMPLETE, "block/block_rq_error" },
};

/*
 * Writes the event's filter, as the live source builds it from the event's
 * format.  Returns 0, or negative errno (logged): the event is then not kept.
 */
static int set_kept_filter(const char *dir, const struct kept_system *k)
{
	_cleanup_free_ char *text = NULL;
	struct ras_tp_layout *l;
	char path[900], filter[128];
	size_t len;
	int r;

	snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, k->system, k->event);
	r = read_full_file(path, 1024 * 1024, &text, &len);
	if (r < 0)
		return r;
	l = malloc(sizeof(*l));
	if (!l)
		return -ENOMEM;
	r = ras_tp_layout_init(l, k->filter_of, text, len, NULL, NULL);
	if (r >= 0)
		r = ras_tp_filter(l, filter, sizeof(filter));
	free(l);
	if (r < 0)
		return log_warning_errno(r, "Cannot build the filter of %s:%s for %s (%m); not keeping it, so "
					 "those events while mcelogd is stopped will not be recovered", k->system,
					 k->event, dir);
	snprintf(path, sizeof(path), "%s/events/%s/%s/filter", dir, k->system, k->event);
	r = write_string_file(path, filter);
	if (r < 0)
		return log_warning_errno(r, "The kernel refused the filter '%s' of %s:%s in %s (%m); not keeping "
					 "it, so those events while mcelogd is stopped will not be recovered",
					 filter, k->system, k->event, dir);
	return 0;
}

static bool kept_event_exists(const char *dir, const char *system_event)
{
	char path[900];

	snprintf(path, sizeof(path), "%s/events/%s", dir, system_event);
	return access(path, F_OK) >= 0;
}

static int enable_kept_events(const char *dir)
{
	char path[900];
	int r;

	for (size_t i = 0; i < sizeof(kept_systems) / sizeof(kept_systems[0]); i++) {
		const struct kept_system *k = &kept_systems[i];
		const char *what = k->event ? k->event : "*";

		snprintf(path, sizeof(path), "%s/events/%s%s%s/enable", dir, k->system, k->event ? "/" : "",
			 k->event ? k->event : "");
		if (k->unless && kept_event_exists(dir, k->unless))
			continue;
		if (all_enabled(path))
			continue;   /* already set up, e.g. by the unit's ExecStartPre=+ */
		if (k->filter_of != _RAS_TP_MAX && kept_event_exists(dir, k->system) &&
		    access(path, F_OK) >= 0 && set_kept_filter(dir, k) < 0)
			continue;
		r = write_string_file(path, "1");
		if (r == -ENOENT && k->required)
			return log_notice_errno(r, "The kernel has no ras:* tracepoints; no ras trace instance needed");
		if (r == -ENOENT)
			continue;
		if (r < 0 && k->required)
			return log_warning_errno(r, "Cannot enable ras:* events in %s: %m; ras events while "
						 "mcelogd is stopped will not be recovered", dir);
		if (r < 0) {
			log_warning_errno(r, "Cannot enable %s:%s in %s: %m; those events while mcelogd is "
					  "stopped will not be recovered", k->system, what, dir);
			continue;
		}
		log_debug("Trace instance %s keeps %s:%s events (%u KiB per CPU)", dir, k->system, what,
			  RAS_BUFFER_KB_PER_CPU);
	}
	return 0;
}

int ras_buffer_setup(const char *tracefs_root)
{
	const char *root = tracefs_instances_root(tracefs_root);
	char dir[512], path[700], size[32];
	bool created;
	int r;

	snprintf(dir, sizeof(dir), "%s/" INSTANCE, root);
	created = mkdir(dir, 0700) >= 0;
	if (!created && errno != EEXIST)
		return log_warning_errno(negative_errno(), "Cannot create the trace instance %s: %m; ras "
					 "events while mcelogd is stopped will not be recovered", dir);
	if (created) {
		/* Sized only when new: resizing discards what the buffer holds. */
		snprintf(path, sizeof(path), "%s/buffer_size_kb", dir);
		snprintf(size, sizeof(size), "%u", RAS_BUFFER_KB_PER_CPU);
		r = write_string_file(path, size);
		if (r < 0)
			log_warning_errno(r, "Cannot size %s: %m; keeping the kernel's default", path);
	}
	if (!clock_is_ours(dir)) {
		/* Setting the clock empties the buffer: unavoidable, since events stamped by
		 * another clock cannot be matched with the ones we logged. */
		snprintf(path, sizeof(path), "%s/trace_clock", dir);
		r = write_string_file(path, CLOCK_NAME);
		if (r < 0)
			return log_warning_errno(r, "Cannot set %s to " CLOCK_NAME ": %m; ras events while "
						 "mcelogd is stopped will not be recovered", path);
		if (!created)
			log_warning("The trace clock of %s was changed; set back to " CLOCK_NAME ", which "
				    "discarded the ras events it held", dir);
	}
	return enable_kept_events(dir);
}

static int on_save_later(sd_event_source *s, void *userdata)
{
	(void) s;
	(void) ras_buffer_save(userdata);
	return 0;
}

static void load_cursor(struct ras_buffer *rb)
{
	_cleanup_free_ char *text = NULL;
	struct ras_cursor loaded;
	unsigned bad_line = 0;
	size_t len;
	int r;

	r = read_full_file(rb->cursor_path, CURSOR_MAX, &text, &len);
	if (r == -ENOENT)
		return;
	if (r < 0) {
		log_warning_errno(r, "Cannot read %s: %m; ras events kept by the kernel will all be logged, "
				  "some perhaps twice", rb->cursor_path);
		return;
	}
	ras_cursor_init(&loaded, NULL);
	r = ras_cursor_parse(text, len, &loaded, &bad_line);
	if (r < 0) {
		ras_cursor_done(&loaded);
		log_warning_errno(r, "%s:%u: damaged cursor, ignoring it; ras events kept by the kernel "
				  "will all be logged, some perhaps twice", rb->cursor_path, bad_line);
		return;
	}
	if (strcmp(loaded.boot_id, rb->cursor.boot_id) != 0) {
		/* Another boot: the instance holds only this boot's events. */
		ras_cursor_done(&loaded);
		return;
	}
	ras_cursor_done(&rb->cursor);
	rb->cursor = loaded;
	rb->have_cursor = true;
}

int ras_buffer_open(const struct source_host *h, const char *tracefs_root, const char *state_dir,
		    struct ras_buffer **ret)
{
	struct ras_buffer *rb = calloc(1, sizeof(*rb));
	int r;

	if (!rb)
		return log_error_errno(-ENOMEM, "Out of memory");
	rb->host = h;
	snprintf(rb->instance, sizeof(rb->instance), "%s/" INSTANCE, tracefs_instances_root(tracefs_root));
	snprintf(rb->cursor_path, sizeof(rb->cursor_path), "%s/" CURSOR_FILE, state_dir);
	snprintf(rb->kept_path, sizeof(rb->kept_path), "%s/" KEPT_FILE, state_dir);
	ras_cursor_init(&rb->cursor, h->boot_id);
	ras_cursor_init(&rb->counted, h->boot_id);
	load_cursor(rb);
	if (h->event) {
		r = sd_event_add_defer(h->event, &rb->save_later, on_save_later, rb);
		if (r >= 0)
			r = sd_event_source_set_enabled(rb->save_later, SD_EVENT_OFF);
		if (r < 0)
			log_warning_errno(r, "Cannot schedule ras cursor saves: %m; it is saved at stop only");
	}
	*ret = rb;
	return 0;
}

static void forget_recovered(struct ras_buffer *rb, unsigned ring)
{
	if (ring >= rb->n_rings)
		return;
	free(rb->recovered[ring].marks);
	free(rb->recovered[ring].taken);
	rb->recovered[ring] = (struct ring_recovered) {};
}

struct ras_buffer *ras_buffer_free(struct ras_buffer *rb)
{
	if (!rb)
		return NULL;
	(void) ras_buffer_save(rb);
	sd_event_source_disable_unref(rb->save_later);
	for (unsigned i = 0; i < rb->n_rings; i++)
		forget_recovered(rb, i);
	free(rb->recovered);
	ras_cursor_done(&rb->cursor);
	ras_cursor_done(&rb->counted);
	free(rb);
	return NULL;
}

/* Whether every event handed on so far is covered by the cursor. */
static bool cursor_complete(const struct ras_buffer *rb)
{
	for (unsigned i = 0; i < CPU_LIST_MAX; i++)
		if (rb->stuck[i] || rb->waiting[i])
			return false;
	return true;
}

int ras_buffer_save(struct ras_buffer *rb)
{
	_cleanup_free_ char *text = NULL;
	int n, r;

	if (!rb || !rb->dirty)
		return 0;
	n = ras_cursor_format(&rb->cursor, &text);
	if (n < 0)
		return log_error_errno(n, "Out of memory");
	/* Not synced: the instance dies with the boot, and the cursor with it. */
	r = write_file_atomic(rb->cursor_path, text, (size_t) n, false);
	if (r < 0)
		return log_warning_errno(r, "Cannot write %s: %m; a restart may log some ras events twice",
					 rb->cursor_path);
	rb->dirty = false;
	/* What the start read out of the instance is logged and the cursor says so:
	 * the copy on disk has done its job.  Until then it stays, even across a
	 * stop, and the next start logs from it what the cursor does not cover. */
	if (rb->kept_pending && cursor_complete(rb) && unlink(rb->kept_path) >= 0)
		rb->kept_pending = false;
	return 0;
}

static void note_cursor(struct ras_buffer *rb, unsigned ring, const struct ras_mark *m)
{
	if (ras_cursor_note(&rb->cursor, ring, m) < 0)
		return;
	rb->dirty = true;
	if (rb->save_later)
		(void) sd_event_source_set_enabled(rb->save_later, SD_EVENT_ONESHOT);
}

void ras_buffer_logged(struct ras_buffer *rb, unsigned ring_cpu, const struct ras_mark *m, int result)
{
	if (!rb || ring_cpu >= CPU_LIST_MAX)
		return;
	if (result < 0 && !rb->stuck[ring_cpu]) {
		/* The cursor must not pass an event no sink holds: a restart logs it again,
		 * and those after it (rather twice than never). */
		rb->stuck[ring_cpu] = true;
		log_warning("A ras event from CPU %u's ring could not be logged; the restart cursor stays "
			    "before it, so the next start logs it again", ring_cpu);
	}
	if (rb->stuck[ring_cpu])
		return;
	if (result == SOURCE_RECORD_COUNTED)
		rb->waiting[ring_cpu] = true;
	if (rb->waiting[ring_cpu]) {
		(void) ras_cursor_note(&rb->counted, ring_cpu, m);
		return;
	}
	note_cursor(rb, ring_cpu, m);
}

void ras_buffer_accounted(struct ras_buffer *rb)
{
	if (!rb)
		return;
	for (unsigned ring = 0; ring < CPU_LIST_MAX; ring++) {
		const struct ras_mark *m;

		if (!rb->waiting[ring])
			continue;
		rb->waiting[ring] = false;
		m = ras_cursor_get(&rb->counted, ring);
		if (m && !rb->stuck[ring])
			note_cursor(rb, ring, m);
	}
}

bool ras_buffer_admit(struct ras_buffer *rb, unsigned ring_cpu, const struct ras_mark *m)
{
	struct ring_recovered *rr;

	if (!rb || ring_cpu >= rb->n_rings || rb->recovered[ring_cpu].n == 0)
		return true;
	rr = &rb->recovered[ring_cpu];
	if (ras_mark_recovered(m, rr->marks, rr->taken, rr->n))
		return false;
	/* Past the newest event the instance gave: none of the rest can match. */
	if (m->time_ns > rr->marks[rr->n - 1].time_ns + RAS_MARK_TOLERANCE_NS)
		forget_recovered(rb, ring_cpu);
	return true;
}

/* One ring's kept events, in ring order, with their bytes. */
struct kept {
	struct ras_mark *marks;
	unsigned char **raw;
	size_t *size;
	size_t n, allocated;
	uint64_t n_missed;
	bool missed, missed_uncounted;
};

static void kept_done(struct kept *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->raw[i]);
	free(k->marks);
	free(k->raw);
	free(k->size);
	*k = (struct kept) {};
}

static int on_kept_event(const unsigned char *data, size_t size, uint64_t timestamp, void *userdata)
{
	struct kept *k = userdata;

	if (k->n == k->allocated) {
		size_t a = k->allocated ? 2 * k->allocated : 64;
		struct ras_mark *m = realloc(k->marks, a * sizeof(*m));
		unsigned char **raw;
		size_t *sz;

		if (!m)
			return -ENOMEM;
		k->marks = m;
		raw = realloc(k->raw, a * sizeof(*raw));
		if (!raw)
			return -ENOMEM;
		k->raw = raw;
		sz = realloc(k->size, a * sizeof(*sz));
		if (!sz)
			return -ENOMEM;
		k->size = sz;
		k->allocated = a;
	}
	k->raw[k->n] = malloc(size ? size : 1);
	if (!k->raw[k->n])
		return -ENOMEM;
	memcpy(k->raw[k->n], data, size);
	k->size[k->n] = size;
	k->marks[k->n] = (struct ras_mark) { .time_ns = timestamp, .digest = ras_mark_digest(data, size) };
	k->n++;
	return 0;
}

/* Reads ring cpu's pages until the instance has no more. */
static int read_ring(const char *instance, unsigned cpu, unsigned char *buf, struct kept *k)
{
	_cleanup_close_ int fd = -1;
	char path[800];

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/trace_pipe_raw", instance, cpu);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return log_warning_errno(negative_errno(), "Cannot open %s: %m; ras events the kernel kept "
					 "for CPU %u are not recovered", path, cpu);
	for (;;) {
		struct ftrace_page_info info;
		ssize_t n = read(fd, buf, READ_MAX);
		int r;

		if (n == 0 || (n < 0 && errno == EAGAIN))
			return 0;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return log_warning_errno(negative_errno(), "Cannot read %s: %m; the rest of what the "
						 "kernel kept for CPU %u is not recovered", path, cpu);
		}
		r = ftrace_page_parse(buf, (size_t) n, &info, on_kept_event, k);
		if (r == -ENOMEM)
			return log_error_errno(r, "Out of memory");
		if (r < 0)
			log_warning("%s: a page of %zd bytes does not hold the ring buffer's layout; the "
				    "events after its first damage are skipped", path, n);
		if (info.missed) {
			k->missed = true;
			if (info.missed_counted)
				k->n_missed += info.n_missed;
			else
				k->missed_uncounted = true;
		}
	}
}

/* The CPU rings the instance has (per_cpu/cpuN: every possible CPU). */
static unsigned list_rings(const char *instance, bool *rings)
{
	_cleanup_closedir_ DIR *d = NULL;
	char path[700];
	unsigned n = 0;
	struct dirent *de;

	snprintf(path, sizeof(path), "%s/per_cpu", instance);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		unsigned cpu;
		char end;

		if (sscanf(de->d_name, "cpu%u%c", &cpu, &end) == 1 && cpu < CPU_LIST_MAX) {
			rings[cpu] = true;
			n = cpu + 1 > n ? cpu + 1 : n;
		}
	}
	return n;
}

/* Keeps the logged events stamped after the live rings opened: the live copy is dropped. */
static int remember_recovered(struct ras_buffer *rb, unsigned ring, const struct kept *k, size_t from,
			      uint64_t opened_ns)
{
	struct ring_recovered *rr = &rb->recovered[ring];
	uint64_t since = opened_ns > RAS_MARK_TOLERANCE_NS ? opened_ns - RAS_MARK_TOLERANCE_NS : 0;

	while (from < k->n && k->marks[from].time_ns < since)
		from++;
	if (from == k->n)
		return 0;
	rr->marks = malloc((k->n - from) * sizeof(*rr->marks));
	rr->taken = calloc(k->n - from, sizeof(*rr->taken));
	if (!rr->marks || !rr->taken) {
		forget_recovered(rb, ring);
		return -ENOMEM;
	}
	memcpy(rr->marks, k->marks + from, (k->n - from) * sizeof(*rr->marks));
	rr->n = k->n - from;
	return 0;
}

struct kept_rings {
	struct kept *rings;
	unsigned n;
};

static int on_file_event(const struct ras_kept_event *e, void *userdata)
{
	struct kept_rings *kr = userdata;

	if (e->ring >= kr->n)
		return 0;   /* a CPU this boot does not have: not this boot's file */
	return on_kept_event(e->raw, e->size, e->time_ns, &kr->rings[e->ring]);
}

/* Events an earlier start read out of the instance and was killed before it logged. */
static void load_kept_file(struct ras_buffer *rb, struct kept_rings *kr)
{
	_cleanup_free_ char *data = NULL;
	char boot_id[MCE_BOOT_ID_LEN + 1];
	size_t len;
	int r;

	r = read_full_file(rb->kept_path, KEPT_FILE_MAX, &data, &len);
	if (r == -ENOENT)
		return;
	if (r < 0) {
		log_warning_errno(r, "Cannot read %s: %m; ras events an earlier start read from the kernel "
				  "and did not log are lost", rb->kept_path);
		return;
	}
	r = ras_kept_parse((const unsigned char *) data, len, boot_id, on_file_event, kr);
	if (r >= 0 && strcmp(boot_id, rb->cursor.boot_id) != 0) {
		log_warning("%s holds %d ras event(s) of another boot that were never logged; they are "
			    "dropped", rb->kept_path, r);
		for (unsigned i = 0; i < kr->n; i++)
			kept_done(&kr->rings[i]);
		return;
	}
	if (r == -ENOMEM)
		log_error_errno(r, "Out of memory");
	else if (r < 0)
		log_warning("%s is damaged; the ras events before the damage are logged, the rest are lost",
			    rb->kept_path);
	else if (r > 0)
		log_notice("%s holds %d ras event(s) an earlier start read from the kernel; those not "
			   "logged yet are logged now", rb->kept_path, r);
}

/* Everything read, on disk before any of it is logged. */
static void save_kept_file(struct ras_buffer *rb, const struct kept_rings *kr)
{
	_cleanup_free_ struct ras_kept_event *ev = NULL;
	_cleanup_free_ char *image = NULL;
	size_t n = 0, len;
	int r;

	for (unsigned i = 0; i < kr->n; i++)
		n += kr->rings[i].n;
	ev = calloc(n ? n : 1, sizeof(*ev));
	if (!ev) {
		log_error_errno(-ENOMEM, "Out of memory");
		return;
	}
	n = 0;
	for (unsigned i = 0; i < kr->n; i++)
		for (size_t j = 0; j < kr->rings[i].n; j++)
			ev[n++] = (struct ras_kept_event) {
				.ring = i, .time_ns = kr->rings[i].marks[j].time_ns,
				.raw = kr->rings[i].raw[j], .size = kr->rings[i].size[j],
			};
	r = ras_kept_format(rb->cursor.boot_id, ev, n, &image, &len);
	if (r >= 0)
		r = write_file_atomic(rb->kept_path, image, len, true);
	if (r < 0)
		log_warning_errno(r, "Cannot write %s: %m; if mcelogd is killed before the ras events it "
				  "just read from the kernel are logged, they are lost", rb->kept_path);
}

int ras_buffer_recover(struct ras_buffer *rb, uint64_t opened_ns, ras_buffer_submit_t submit, void *userdata)
{
	static bool rings[CPU_LIST_MAX];
	_cleanup_free_ unsigned char *buf = NULL;
	struct kept_rings kr = {};
	size_t from_instance = 0;
	int total = 0, r = 0;
	bool comparable;

	if (!rb)
		return 0;
	comparable = clock_is_ours(rb->instance);
	memset(rings, 0, sizeof(rings));
	kr.n = list_rings(rb->instance, rings);
	if (kr.n == 0) {
		log_notice("No trace instance %s: ras events while mcelogd was stopped are not recovered "
			   "(run mcelogd --setup-trace-buffer as root first, as the unit does)", rb->instance);
		return 0;
	}
	if (!comparable && rb->have_cursor)
		log_warning("%s does not stamp events by the " CLOCK_NAME " clock; every ras event it "
			    "kept is logged, some perhaps twice", rb->instance);
	buf = malloc(READ_MAX);
	rb->recovered = calloc(kr.n, sizeof(*rb->recovered));
	kr.rings = calloc(kr.n, sizeof(*kr.rings));
	if (!buf || !rb->recovered || !kr.rings) {
		free(kr.rings);
		return log_error_errno(-ENOMEM, "Out of memory");
	}
	rb->n_rings = kr.n;

	load_kept_file(rb, &kr);
	for (unsigned ring = 0; ring < kr.n && r != -ENOMEM; ring++) {
		size_t before = kr.rings[ring].n;

		if (rings[ring])
			r = read_ring(rb->instance, ring, buf, &kr.rings[ring]);
		from_instance += kr.rings[ring].n - before;
	}
	if (from_instance > 0)
		save_kept_file(rb, &kr);
	rb->kept_pending = access(rb->kept_path, F_OK) == 0;

	for (unsigned ring = 0; ring < kr.n; ring++) {
		struct kept *k = &kr.rings[ring];
		size_t from = comparable && rb->have_cursor ?
			ras_resume_index(ras_cursor_get(&rb->cursor, ring), k->marks, k->n) : 0;

		for (size_t i = from; i < k->n; i++) {
			int result = submit(userdata, ring, k->raw[i], k->size[i], k->marks[i].time_ns);

			if (result == -ENOENT)
				continue;   /* not an event the source reads */
			ras_buffer_logged(rb, ring, &k->marks[i], result);
			total++;
		}
		if (comparable && remember_recovered(rb, ring, k, from, opened_ns) < 0)
			log_warning("Out of memory: some ras events of CPU %u may be logged twice", ring);
		/* The instance does not say whose events it dropped: no per-source loss count. */
		if (k->missed && k->missed_uncounted)
			log_warning("The kernel overwrote some ras events of CPU %u in %s before mcelogd read "
				    "them (its ring was full); they are lost", ring, rb->instance);
		else if (k->missed)
			log_warning("The kernel overwrote %llu ras event(s) of CPU %u in %s before mcelogd "
				    "read them (its ring was full); they are lost",
				    (unsigned long long) k->n_missed, ring, rb->instance);
		kept_done(k);
	}
	free(kr.rings);
	if (total > 0)
		log_info("Logged %d ras event(s) the kernel kept in %s while mcelogd was not reading",
			 total, rb->instance);
	rb->dirty = true;   /* so that the save below drops the file once it may */
	(void) ras_buffer_save(rb);
	return r == -ENOMEM ? r : total;
}
