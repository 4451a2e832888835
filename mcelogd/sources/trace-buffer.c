/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu-list.h"
#include "file-io.h"
#include "log.h"
#include "source.h"
#include "record-text.h"
#include "trace-buffer.h"
#include "tracefs-roots.h"
#include "trace-cursor.h"

#define INSTANCE "instances/mcelogd"
#define CURSOR_FILE "tracepoint.cursor"


/* One of a ring's records as the instance held it when read. */
struct known_record {
	struct mce_identity id;
	bool recovered;               /* logged because the live ring dropped records */
	bool came_live;               /* ... and the live ring had it after all */
};

/*
 * A ring whose live records are being matched against what the instance held
 * when it was read: at start (the ring was opened before the instance was
 * read, so both hold the records in between), and after the kernel dropped
 * records from the live ring (they are then logged from the instance).
 * Live records the instance held are logged already; any other is new.
 */
struct ring_resume {
	bool active;
	bool from_start;              /* opened by trace_buffer_recover() */
	bool passed;                  /* a live record newer than the instance read came */
	struct mce_identity last;     /* the newest record the instance had for this ring */
	struct known_record *known;   /* all of the ring's records in the instance, sorted */
	size_t n_known;
	/* Since the kernel reported a loss on this ring: what it said, and what the
	 * instance gave back.  Settled when the matching ends. */
	uint64_t lost, recovered, came_live;
	bool lost_at_start;
	/* Settled and not yet taken by trace_buffer_take_unaccounted(). */
	uint64_t unaccounted;
	bool unaccounted_at_start;
};

struct trace_buffer {
	const struct source_host *host;
	char root[512];
	char instance[600];
	bool first_in_boot;           /* no cursor of this boot: mcelogd's first start since boot */
	char cursor_path[1024];
	struct trace_cursor cursor;
	/* The newest record of each ring this run handed on, whatever became of it:
	 * where a recovery after a live-ring loss starts.  (The cursor may lag it.) */
	struct trace_cursor handled;
	sd_event_source *save_later;
	bool dirty;

	struct ring_resume *resume;
	unsigned n_resume;
	bool stuck[CPU_LIST_MAX];     /* a record of this ring was not logged: its cursor stays */
	/* Since a record of this ring was counted in a storm whose summary is not written
	 * yet, the ring's cursor waits in `counted`; trace_buffer_accounted() moves it. */
	bool waiting[CPU_LIST_MAX];
	struct trace_cursor counted;
};

static int read_number(const char *path, unsigned long *ret)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");

	if (!f)
		return negative_errno();
	if (fscanf(f, "%lu", ret) != 1)
		return -EBADMSG;
	return 0;
}

/*
 * The instance's output options that the recovery's reader depends on: each
 * line names its CPU ring ("[001]", context-info on, latency format off) and
 * is the event's text (not raw, hex or binary).  They are per instance, so
 * another tool's settings elsewhere do not matter; someone may still change
 * ours, and each start puts them back.
 */
static const struct {
	const char *name;
	const char *value;
} trace_options[] = {
	{ "context-info",   "1" },
	{ "latency-format", "0" },
	{ "raw",            "0" },
	{ "hex",            "0" },
	{ "bin",            "0" },
};

static void set_trace_options(const char *dir)
{
	for (size_t i = 0; i < ELEMENTSOF(trace_options); i++) {
		char path[700];
		unsigned long v;
		int r;

		snprintf(path, sizeof(path), "%s/options/%s", dir, trace_options[i].name);
		r = read_number(path, &v);
		if (r == -ENOENT)
			continue;   /* an older kernel without this option */
		if (r >= 0 && v == strtoul(trace_options[i].value, NULL, 10))
			continue;
		r = write_string_file(path, trace_options[i].value);
		if (r < 0)
			log_warning_errno(r, "Cannot set %s to %s: %m; records kept while mcelogd is stopped "
					  "may not be readable at its next start", path, trace_options[i].value);
		else
			log_notice("Trace instance option %s was changed; set back to %s", trace_options[i].name,
				   trace_options[i].value);
	}
}

int trace_buffer_setup(const char *tracefs_root)
{
	const char *root = tracefs_instances_root(tracefs_root);
	char dir[512], path[600], size[32];
	unsigned long kb;
	int r;

	snprintf(dir, sizeof(dir), "%s/" INSTANCE, root);
	if (mkdir(dir, 0700) >= 0) {
		/* Sized only when new: resizing discards what the buffer holds. */
		snprintf(path, sizeof(path), "%s/buffer_size_kb", dir);
		snprintf(size, sizeof(size), "%u", TRACE_BUFFER_KB_PER_CPU);
		r = write_string_file(path, size);
		if (r < 0)
			log_warning_errno(r, "Cannot size %s: %m; keeping the kernel's default", path);
	} else if (errno != EEXIST)
		return log_warning_errno(negative_errno(), "Cannot create the trace instance %s: %m; "
					 "errors while mcelogd is stopped will not be recovered", dir);
	set_trace_options(dir);
	snprintf(path, sizeof(path), "%s/events/mce/mce_record/enable", dir);
	if (read_number(path, &kb) == 0 && kb == 1)
		return 0;   /* already set up, e.g. by the unit's ExecStartPre=+ */
	r = write_string_file(path, "1");
	if (r == -ENOENT)
		return log_notice_errno(r, "The kernel has no mce:mce_record tracepoint; no trace "
					"instance needed");
	if (r < 0)
		return log_warning_errno(r, "Cannot enable mce:mce_record in %s: %m; errors while "
					 "mcelogd is stopped will not be recovered", dir);
	log_debug("Trace instance %s keeps mce:mce_record (%u KiB per CPU)", dir,
		  TRACE_BUFFER_KB_PER_CPU);
	return 0;
}

static int on_save_later(sd_event_source *s, void *userdata)
{
	(void) s;
	(void) trace_buffer_save(userdata);
	return 0;
}

/* One line of some 120 bytes per CPU ring: 4 MiB is far more than any machine needs. */
#define CURSOR_MAX (4u * 1024 * 1024)

static int load_cursor(struct trace_buffer *tb)
{
	_cleanup_free_ char *text = NULL;
	struct trace_cursor loaded;
	unsigned bad_line = 0;
	size_t len;
	int r;

	tb->first_in_boot = true;
	r = read_full_file(tb->cursor_path, CURSOR_MAX, &text, &len);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return log_warning_errno(r, "Cannot read %s: %m; records kept by the kernel will all be "
					 "logged, some perhaps twice", tb->cursor_path);
	trace_cursor_init(&loaded, NULL);
	r = trace_cursor_parse(text, len, &loaded, &bad_line);
	if (r < 0) {
		trace_cursor_done(&loaded);
		return log_warning_errno(r, "%s:%u: damaged cursor, ignoring it; records kept by the "
					 "kernel will all be logged, some perhaps twice",
					 tb->cursor_path, bad_line);
	}
	if (!streq(loaded.boot_id, tb->cursor.boot_id)) {
		/* Another boot: the instance (if any) holds only this boot's records. */
		trace_cursor_done(&loaded);
		return 0;
	}
	trace_cursor_done(&tb->cursor);
	tb->cursor = loaded;
	tb->first_in_boot = false;
	return 0;
}

int trace_buffer_open(const struct source_host *h, const char *tracefs_root, const char *state_dir,
		      struct trace_buffer **ret)
{
	struct trace_buffer *tb = calloc(1, sizeof(*tb));
	int r;

	if (!tb)
		return log_error_errno(-ENOMEM, "Out of memory");
	tb->host = h;
	snprintf(tb->root, sizeof(tb->root), "%s", tracefs_instances_root(tracefs_root));
	snprintf(tb->instance, sizeof(tb->instance), "%s/" INSTANCE, tb->root);
	snprintf(tb->cursor_path, sizeof(tb->cursor_path), "%s/" CURSOR_FILE, state_dir);
	trace_cursor_init(&tb->cursor, h->boot_id);
	trace_cursor_init(&tb->counted, h->boot_id);
	trace_cursor_init(&tb->handled, h->boot_id);
	(void) load_cursor(tb);
	for (unsigned ring = 0; ring < tb->cursor.n_cpus; ring++) {
		const struct mce_identity *id = trace_cursor_get(&tb->cursor, ring);

		if (id)
			(void) trace_cursor_note_identity(&tb->handled, ring, id);
	}
	if (h->event) {
		/* A defer source runs on the next loop iteration: right after the batch
		 * being handled now.  (A post source enabled from inside a handler
		 * would wait for the next unrelated event.) */
		r = sd_event_add_defer(h->event, &tb->save_later, on_save_later, tb);
		if (r >= 0)
			r = sd_event_source_set_enabled(tb->save_later, SD_EVENT_OFF);
		if (r < 0)
			log_warning_errno(r, "Cannot schedule cursor saves: %m; it is saved at stop only");
	}
	*ret = tb;
	return 0;
}

struct trace_buffer *trace_buffer_free(struct trace_buffer *tb)
{
	if (!tb)
		return NULL;
	sd_event_source_disable_unref(tb->save_later);
	for (unsigned i = 0; i < tb->n_resume; i++)
		free(tb->resume[i].known);
	free(tb->resume);
	trace_cursor_done(&tb->cursor);
	trace_cursor_done(&tb->counted);
	trace_cursor_done(&tb->handled);
	free(tb);
	return NULL;
}

int trace_buffer_save(struct trace_buffer *tb)
{
	_cleanup_free_ char *text = NULL;
	int n, r;

	if (!tb || !tb->dirty)
		return 0;
	n = trace_cursor_format(&tb->cursor, &text);
	if (n < 0)
		return log_error_errno(n, "Out of memory");
	/* Not synced: it guards against a killed process; after a power loss the
	 * instance is gone with this boot anyway. */
	r = write_file_atomic(tb->cursor_path, text, (size_t) n, false);
	if (r < 0)
		return log_warning_errno(r, "Cannot write %s: %m; a restart may log some records twice",
					 tb->cursor_path);
	tb->dirty = false;
	return 0;
}

static void mark_dirty(struct trace_buffer *tb)
{
	tb->dirty = true;
	if (tb->save_later)
		(void) sd_event_source_set_enabled(tb->save_later, SD_EVENT_ONESHOT);
}

void trace_buffer_logged(struct trace_buffer *tb, unsigned ring_cpu, const struct mce_record *rec, int result)
{
	if (!tb || ring_cpu >= CPU_LIST_MAX)
		return;
	(void) trace_cursor_note(&tb->handled, ring_cpu, rec);
	if (result < 0 && !tb->stuck[ring_cpu]) {
		/* The cursor says "logged up to here": it must not pass a record no sink holds.
		 * A restart then logs this one again, and those after it (rather twice than never). */
		tb->stuck[ring_cpu] = true;
		log_warning("A record from CPU %u's ring could not be logged; the restart cursor stays "
			    "before it, so the next start logs it again", ring_cpu);
	}
	if (tb->stuck[ring_cpu])
		return;
	/* Counted in a storm, not yet in a summary: a crash now would lose it from the
	 * counts, so the cursor stays before it and a restart logs it on its own. */
	if (result == SOURCE_RECORD_COUNTED)
		tb->waiting[ring_cpu] = true;
	if (tb->waiting[ring_cpu]) {
		(void) trace_cursor_note(&tb->counted, ring_cpu, rec);
		return;
	}
	if (trace_cursor_note(&tb->cursor, ring_cpu, rec) < 0)
		return;
	mark_dirty(tb);
}

void trace_buffer_accounted(struct trace_buffer *tb)
{
	if (!tb)
		return;
	for (unsigned ring = 0; ring < CPU_LIST_MAX; ring++) {
		const struct mce_identity *id;

		if (!tb->waiting[ring])
			continue;
		tb->waiting[ring] = false;
		id = trace_cursor_get(&tb->counted, ring);
		if (id && !tb->stuck[ring] && trace_cursor_note_identity(&tb->cursor, ring, id) >= 0)
			mark_dirty(tb);
	}
}

/* The instance's records, in file order (time order across CPUs). */
struct kept {
	unsigned ring;
	struct mce_record rec;
};

struct collect {
	struct kept *items;
	size_t n, cap;
	unsigned *line_ring;          /* ring CPU of each fed line, by line number */
	size_t n_lines, cap_lines;
	unsigned n_bad;
	const char *path;
};

static int on_kept_record(const struct mce_record *rec, unsigned first_line, unsigned last_line,
			  void *userdata)
{
	struct collect *c = userdata;

	(void) last_line;
	if (first_line == 0 || first_line > c->n_lines)
		return 0;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		struct kept *p = realloc(c->items, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		c->items = p;
		c->cap = cap;
	}
	c->items[c->n++] = (struct kept) { .ring = c->line_ring[first_line - 1], .rec = *rec };
	c->items[c->n - 1].rec.source = MCE_SOURCE_TRACEPOINT;
	return 0;
}

static void on_kept_diag(enum mce_text_diag kind, unsigned line, const char *msg, void *userdata)
{
	struct collect *c = userdata;

	if (kind == MCE_TEXT_MALFORMED) {
		c->n_bad++;
		log_warning("%s: line %u: %s; that record is skipped", c->path, line, msg);
	}
}

static int read_trace_file(const char *path, struct collect *c)
{
	static const struct mce_text_callbacks cb = { on_kept_record, on_kept_diag };
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *line = NULL;
	struct mce_text_parser *p;
	size_t size = 0;
	ssize_t len;
	int r = 0;

	c->path = path;
	f = fopen(path, "re");
	if (!f)
		return negative_errno();
	p = mce_text_parser_new(&cb, c);
	if (!p)
		return -ENOMEM;
	mce_text_parser_set_source(p, MCE_SOURCE_TRACEPOINT);
	while ((len = getline(&line, &size, f)) >= 0) {
		unsigned ring;
		size_t off;
		int k;

		while (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		k = trace_line_split(line, (size_t) len, &ring, &off);
		if (k == -ENOENT)
			continue;
		if (k < 0) {
			c->n_bad++;
			log_warning("%s: a mce_record line without a CPU ring, skipped: %.120s", path, line);
			continue;
		}
		if (c->n_lines == c->cap_lines) {
			size_t cap = c->cap_lines ? c->cap_lines * 2 : 256;
			unsigned *q = realloc(c->line_ring, cap * sizeof(*q));

			if (!q) {
				r = -ENOMEM;
				break;
			}
			c->line_ring = q;
			c->cap_lines = cap;
		}
		c->line_ring[c->n_lines++] = ring;
		/* One parser line per event: it numbers them as we count them. */
		r = mce_text_parser_feed(p, line + off, (size_t) len - off);
		if (r < 0)
			break;
	}
	if (r >= 0)
		r = mce_text_parser_finish(p);
	mce_text_parser_free(p);
	return r;
}

static struct ring_resume *resume_slot(struct trace_buffer *tb, unsigned ring)
{
	if (ring >= TRACE_CURSOR_MAX_CPUS)
		return NULL;
	if (ring >= tb->n_resume) {
		struct ring_resume *p = realloc(tb->resume, (ring + 1) * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + tb->n_resume, 0, (ring + 1 - tb->n_resume) * sizeof(*p));
		tb->resume = p;
		tb->n_resume = ring + 1;
	}
	return &tb->resume[ring];
}

static int cmp_known(const void *a, const void *b)
{
	return mce_identity_compare(&((const struct known_record *) a)->id,
				    &((const struct known_record *) b)->id);
}

/*
 * Starts matching ring's live records against ids (the ring's n records in the
 * instance, in order); recovered[i] (recovered may be NULL: none) says record i
 * was just logged because of a loss.  If a matching is under way, its
 * recovered records not yet seen live stay marked as such.
 */
static int resume_begin(struct trace_buffer *tb, unsigned ring, const struct mce_identity *ids, size_t n,
			const bool *recovered, bool at_start)
{
	struct ring_resume *rs = resume_slot(tb, ring);
	struct known_record *known;

	if (!rs)
		return -ENOMEM;
	if (n == 0)
		return 0;
	known = calloc(n, sizeof(*known));
	if (!known)
		return -ENOMEM;   /* then live records are not matched: rather twice than never */
	for (size_t i = 0; i < n; i++)
		known[i] = (struct known_record) { .id = ids[i], .recovered = recovered && recovered[i] };
	qsort(known, n, sizeof(*known), cmp_known);
	for (size_t i = 0; rs->active && i < rs->n_known; i++) {
		struct known_record *k;

		if (!rs->known[i].recovered || rs->known[i].came_live)
			continue;
		k = bsearch(&rs->known[i], known, n, sizeof(*known), cmp_known);
		if (k)
			k->recovered = true;
	}
	free(rs->known);
	rs->known = known;
	rs->n_known = n;
	rs->last = ids[n - 1];
	rs->passed = false;
	if (!rs->active)
		rs->from_start = at_start;
	rs->active = true;
	return 0;
}

/* The matching is over: what the instance could not account for of a loss is settled. */
static void resume_end(struct trace_buffer *tb, unsigned ring)
{
	struct ring_resume *rs = &tb->resume[ring];
	uint64_t dropped;

	if (rs->lost > 0) {
		/* Logged from the instance and never seen live: the records the ring dropped. */
		dropped = rs->recovered > rs->came_live ? rs->recovered - rs->came_live : 0;
		if (dropped > 0)
			log_notice("The kernel dropped %llu record(s) from CPU %u's live ring; %llu machine "
				   "check(s) among them were logged from the trace instance", (unsigned long long) rs->lost,
				   ring, (unsigned long long) dropped);
		if (rs->lost > dropped) {
			rs->unaccounted += rs->lost - dropped;
			rs->unaccounted_at_start |= rs->lost_at_start;
		}
	}
	free(rs->known);
	rs->known = NULL;
	rs->n_known = 0;
	rs->lost = rs->recovered = rs->came_live = 0;
	rs->lost_at_start = false;
	rs->active = rs->passed = rs->from_start = false;
}

static void collect_done(struct collect *c)
{
	free(c->items);
	free(c->line_ring);
	*c = (struct collect) {};
}

static int cmp_identity(const void *a, const void *b)
{
	return mce_identity_compare(a, b);
}

/*
 * mcelogd's first start in this boot: the instance did not exist before, but
 * with "trace_event=mce:mce_record" on the kernel command line the kernel
 * has recorded every machine check since boot into the top-level buffer.
 * Those not also in the instance are logged.
 */
static unsigned recover_early_boot(struct trace_buffer *tb, const struct collect *instance)
{
	_cleanup_free_ struct mce_identity *known = NULL;
	struct collect c = {};
	char path[700];
	unsigned n_new = 0;

	snprintf(path, sizeof(path), "%s/trace", tb->root);
	if (read_trace_file(path, &c) < 0 || c.n == 0) {
		collect_done(&c);
		return 0;
	}
	/* Sorted, so that each early record is looked up, not compared with every one. */
	known = calloc(instance->n + 1, sizeof(*known));
	if (!known) {
		collect_done(&c);
		log_error_errno(-ENOMEM, "Out of memory");
		return 0;
	}
	for (size_t k = 0; k < instance->n; k++)
		mce_identity_from_record(&instance->items[k].rec, &known[k]);
	qsort(known, instance->n, sizeof(*known), cmp_identity);
	for (size_t i = 0; i < c.n; i++) {
		struct mce_identity id;

		mce_identity_from_record(&c.items[i].rec, &id);
		if (bsearch(&id, known, instance->n, sizeof(*known), cmp_identity))
			continue;
		(void) source_submit_recovered(tb->host, &c.items[i].rec);
		n_new++;
	}
	if (n_new > 0)
		log_notice("Logged %u machine-check record(s) from early boot, before mcelogd first "
			   "started (kept by the kernel's trace_event=mce:mce_record)", n_new);
	collect_done(&c);
	return n_new;
}

/* Instance records by ring, each ring's in file order: one sort, not a pass per ring. */
struct ring_pos {
	unsigned ring;
	size_t i;
};

static int cmp_ring_pos(const void *a, const void *b)
{
	const struct ring_pos *x = a, *y = b;

	return x->ring != y->ring ? (x->ring < y->ring ? -1 : 1) : (x->i < y->i ? -1 : x->i > y->i);
}

int trace_buffer_recover(struct trace_buffer *tb)
{
	struct collect c = {};
	char path[700];
	_cleanup_free_ bool *is_new = NULL;
	_cleanup_free_ struct mce_identity *ids = NULL;
	_cleanup_free_ struct ring_pos *order = NULL;
	unsigned n_new = 0, n_early = 0, n_held = 0;
	int r;

	if (!tb)
		return 0;
	snprintf(path, sizeof(path), "%s/trace", tb->instance);
	r = read_trace_file(path, &c);
	if (r < 0) {
		collect_done(&c);
		if (r == -ENOENT)
			return log_notice_errno(r, "No trace instance %s: errors from while mcelogd was "
						"stopped cannot be recovered this time", tb->instance);
		return log_warning_errno(r, "Cannot read %s/trace: %m; errors from while mcelogd was "
					 "stopped are not recovered", tb->instance);
	}
	is_new = calloc(c.n + 1, sizeof(*is_new));
	ids = calloc(c.n + 1, sizeof(*ids));
	order = calloc(c.n + 1, sizeof(*order));
	if (!is_new || !ids || !order) {
		collect_done(&c);
		return log_error_errno(-ENOMEM, "Out of memory");
	}
	for (size_t i = 0; i < c.n; i++)
		order[i] = (struct ring_pos) { .ring = c.items[i].ring, .i = i };
	qsort(order, c.n, sizeof(*order), cmp_ring_pos);
	for (size_t i = 0; i < c.n; i++)
		mce_identity_from_record(&c.items[order[i].i].rec, &ids[i]);

	/* Per ring: which of its records come after the cursor's. */
	for (size_t start = 0, end; start < c.n; start = end) {
		unsigned ring = order[start].ring;
		const struct mce_identity *last = trace_cursor_get(&tb->cursor, ring);
		size_t n, first;
		bool found;

		for (end = start; end < c.n && order[end].ring == ring; end++)
			;
		n = end - start;
		first = trace_cursor_resume_index(last, ids + start, n, &found);
		if (last && !found)
			log_warning("The kernel's buffer for CPU %u wrapped while mcelogd was stopped: "
				    "records older than its oldest one (%zu kept) were lost", ring, n);
		for (size_t k = first; k < n; k++)
			is_new[order[start + k].i] = true;
		/* The live ring may hold the newest of these too: match them there. */
		(void) resume_begin(tb, ring, ids + start, n, NULL, true);
	}
	/* In time order: what happened before the instance existed comes first. */
	if (tb->first_in_boot) {
		n_early = recover_early_boot(tb, &c);
		/* Saved even if empty: the next start must know it is not the first. */
		tb->dirty = true;
	}
	for (size_t i = 0; i < c.n; i++) {
		if (!is_new[i])
			continue;
		/* After a crash the cursor may lag the sinks by the last batch. */
		if (source_already_logged(tb->host, &c.items[i].rec)) {
			trace_buffer_logged(tb, c.items[i].ring, &c.items[i].rec, 0);
			n_held++;
			continue;
		}
		r = source_submit_recovered(tb->host, &c.items[i].rec);
		trace_buffer_logged(tb, c.items[i].ring, &c.items[i].rec, r);
		n_new++;
	}
	if (n_held > 0)
		log_notice("%u machine-check record(s) after the restart cursor were already in the "
			   "journal (the last run ended before noting them); not logged again", n_held);
	if (n_new > 0)
		log_notice("Logged %u machine-check record(s) the kernel kept while mcelogd was not "
			   "running", n_new);
	collect_done(&c);
	return (int) (n_new + n_early);
}

bool trace_buffer_admit(struct trace_buffer *tb, unsigned ring_cpu, const struct mce_record *rec)
{
	struct known_record key = {}, *k;
	struct ring_resume *rs;

	if (!tb || ring_cpu >= tb->n_resume || !tb->resume[ring_cpu].active)
		return true;
	rs = &tb->resume[ring_cpu];
	mce_identity_from_record(rec, &key.id);
	k = bsearch(&key, rs->known, rs->n_known, sizeof(*rs->known), cmp_known);
	if (!k) {
		/* Newer than the instance read (or gone from the instance): nobody logged it. */
		rs->passed = true;
		return true;
	}
	if (k->recovered && !k->came_live) {
		k->came_live = true;
		rs->came_live++;
	}
	if (mce_identity_equal(&key.id, &rs->last))
		resume_end(tb, ring_cpu);   /* everything up to here was in the instance */
	return false;
}

void trace_buffer_drain_done(struct trace_buffer *tb)
{
	if (!tb)
		return;
	for (unsigned ring = 0; ring < tb->n_resume; ring++)
		if (tb->resume[ring].active)
			resume_end(tb, ring);
	(void) trace_buffer_save(tb);
}

void trace_buffer_ring_drained(struct trace_buffer *tb, unsigned ring_cpu)
{
	/* A newer record came and the ring is empty: whatever of the instance read did not
	 * come live, the ring dropped. */
	if (tb && ring_cpu < tb->n_resume && tb->resume[ring_cpu].active && tb->resume[ring_cpu].passed)
		resume_end(tb, ring_cpu);
}

bool trace_buffer_take_unaccounted(struct trace_buffer *tb, unsigned ring_cpu, uint64_t *ret_lost,
				   bool *ret_at_start)
{
	struct ring_resume *rs;

	if (!tb || ring_cpu >= tb->n_resume || tb->resume[ring_cpu].unaccounted == 0)
		return false;
	rs = &tb->resume[ring_cpu];
	*ret_lost = rs->unaccounted;
	*ret_at_start = rs->unaccounted_at_start;
	rs->unaccounted = 0;
	rs->unaccounted_at_start = false;
	return true;
}

int trace_buffer_recover_lost(struct trace_buffer *tb, unsigned ring_cpu, uint64_t lost)
{
	_cleanup_free_ struct mce_identity *ids = NULL;
	_cleanup_free_ size_t *index = NULL;
	_cleanup_free_ bool *recovered = NULL;
	const struct mce_identity *handled;
	struct ring_resume *rs;
	struct collect c = {};
	char path[700];
	size_t n = 0, first;
	bool found, at_start;
	uint64_t n_logged = 0;
	int r;

	if (!tb)
		return -ENOENT;
	rs = resume_slot(tb, ring_cpu);
	if (!rs)
		return -ENOMEM;
	at_start = rs->active && rs->from_start;
	snprintf(path, sizeof(path), "%s/trace", tb->instance);
	r = read_trace_file(path, &c);
	if (r < 0) {
		collect_done(&c);
		return log_warning_errno(r, "Cannot read %s to recover the records CPU %u's live ring "
					 "dropped: %m", path, ring_cpu);
	}
	ids = calloc(c.n + 1, sizeof(*ids));
	index = calloc(c.n + 1, sizeof(*index));
	recovered = calloc(c.n + 1, sizeof(*recovered));
	if (!ids || !index || !recovered) {
		collect_done(&c);
		return log_error_errno(-ENOMEM, "Out of memory");
	}
	for (size_t i = 0; i < c.n; i++)
		if (c.items[i].ring == ring_cpu) {
			mce_identity_from_record(&c.items[i].rec, &ids[n]);
			index[n++] = i;
		}
	handled = trace_cursor_get(&tb->handled, ring_cpu);
	first = trace_cursor_resume_index(handled, ids, n, &found);
	if (handled && !found)
		log_warning("The trace instance does not hold the last record logged from CPU %u (it "
			    "wrapped, or its event was switched off): machine checks the live ring dropped "
			    "are recovered only where the instance holds them", ring_cpu);
	for (size_t k = first; k < n; k++) {
		struct mce_record *rec = &c.items[index[k]].rec;

		/*
		 * Not found: where our last record would be is unknown.  Only records stamped
		 * no earlier than it (the kernel's wall time) can be among those dropped, and
		 * of those, any the sinks hold were logged.  Older ones were seen long ago,
		 * some only counted in a storm: logging them would be a duplicate.
		 */
		if (handled && !found &&
		    (handled->time_usec == 0 || ids[k].time_usec < handled->time_usec ||
		     source_already_logged(tb->host, rec)))
			continue;
		/* Moments old: a storm judges them as it judges live ones. */
		trace_buffer_logged(tb, ring_cpu, rec, source_submit(tb->host, rec));
		recovered[k] = true;
		n_logged++;
	}
	r = resume_begin(tb, ring_cpu, ids, n, recovered, false);
	if (r < 0)
		log_error_errno(r, "Out of memory");
	rs->lost += lost;
	rs->recovered += n_logged;
	rs->lost_at_start |= at_start;
	if (!rs->active) {
		/* Nothing to match: the instance holds nothing of this ring. */
		rs->active = true;
		resume_end(tb, ring_cpu);
	}
	collect_done(&c);
	return (int) n_logged;
}

bool trace_buffer_catching_up(const struct trace_buffer *tb, unsigned ring_cpu)
{
	return tb && ring_cpu < tb->n_resume && tb->resume[ring_cpu].active && tb->resume[ring_cpu].from_start;
}
