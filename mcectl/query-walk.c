/* SPDX-License-Identifier: MIT */
/*
 * What query.c's libsystemd path does, step by step, on the files read
 * directly (query-walk.h): its matches (_COMM=mcelogd AND _UID=uid: the
 * first walked by its data object's entry list, the second checked on each
 * entry), find_replayed(), late_entries_find() and keep_late(),
 * show_entries() and show_late().  Each field is read as that path reads it:
 * cut where its buffer cuts it, compared as a C string where it compares
 * one, so that the same entries come out in the same order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entry-time.h"
#include "macro.h"
#include "message-ids.h"
#include "query-walk.h"

/* libsystemd gives at most this much of a field (its default data threshold). */
#define DATA_THRESHOLD (64 * 1024)

void query_fields_done(struct query_fields *e)
{
	free(e->items);
	free(e->arena);
	*e = (struct query_fields) {};
}

static int add_item(struct query_fields *e, struct query_item it)
{
	if (e->n == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 64;
		struct query_item *p = realloc(e->items, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		e->items = p;
		e->cap = cap;
	}
	e->items[e->n++] = it;
	return 0;
}

static int keep_payload(struct query_fields *e, const uint8_t *p, size_t size, size_t *ret_at)
{
	if (size > e->arena_size - e->arena_len) {
		size_t want = e->arena_len + size, n = e->arena_size ? e->arena_size : 4096;
		uint8_t *q;

		while (n < want)
			n *= 2;
		q = realloc(e->arena, n);
		if (!q)
			return -ENOMEM;
		e->arena = q;
		e->arena_size = n;
	}
	memcpy(e->arena + e->arena_len, p, size);
	*ret_at = e->arena_len;
	e->arena_len += size;
	return 0;
}

int query_fields_read(struct query_fields *e, const struct journal_file *f, struct query_proofs *proofs,
		      uint64_t offset, query_decompress_fn decompress, void *userdata, const char **ret_reason)
{
	struct journal_entry en;
	int r;

	e->f = f;
	e->proofs = proofs;
	e->decompress = decompress;
	e->userdata = userdata;
	e->error = 0;
	e->n = 0;
	e->arena_len = 0;
	if (journal_file_entry(f, offset, &en, ret_reason) < 0)
		return -EOPNOTSUPP;
	e->realtime = en.realtime;
	e->monotonic = en.monotonic;
	memcpy(e->boot_id, en.boot_id, sizeof(e->boot_id));
	for (uint64_t i = 0; i < en.n_items; i++) {
		struct journal_data d;
		struct query_item it = { .data = journal_entry_item(f, &en, i) };
		const uint8_t *eq;

		if (journal_file_data(f, it.data, &d, ret_reason) < 0)
			return -EOPNOTSUPP;
		if (d.compression != JOURNAL_PLAIN)
			it.compressed = true;
		else {
			/* libsystemd gives at most its threshold of a field. */
			it.len = d.size > DATA_THRESHOLD ? DATA_THRESHOLD : (size_t) d.size;
			it.payload = d.payload;
			eq = memchr(it.payload, '=', it.len);
			/* Without '=' it is no field: libsystemd's readers skip it too. */
			if (!eq)
				continue;
			it.name_len = (size_t) (eq - it.payload);
		}
		r = add_item(e, it);
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * A compressed item decompressed (at most the threshold, as libsystemd
 * gives it), or passed over as libsystemd passes over one it cannot read:
 * its name_len then is SIZE_MAX, which no field has.
 */
static void decompress_item(struct query_fields *e, struct query_item *it)
{
	struct journal_data d;
	const uint8_t *p, *eq;
	size_t size;
	int r;

	it->compressed = false;
	it->name_len = SIZE_MAX;
	if (journal_file_data(e->f, it->data, &d, NULL) < 0 || !e->decompress)
		return;
	r = e->decompress(e->userdata, d.compression, d.payload, d.size, &p, &size);
	if (r == -ENOMEM)
		e->error = r;
	if (r < 0)
		return;
	if (size > DATA_THRESHOLD)
		size = DATA_THRESHOLD;
	eq = memchr(p, '=', size);
	if (!eq)
		return;
	if (keep_payload(e, p, size, &it->arena_at) < 0) {
		e->error = -ENOMEM;
		return;
	}
	it->payload = NULL;
	it->len = size;
	it->name_len = (size_t) (eq - p);
}

struct proof {
	const char *field;
	size_t flen;
	uint64_t head;
	bool found;
};

static int find_head(const char *name, size_t len, uint64_t head, void *userdata)
{
	struct proof *p = userdata;

	if (len == p->flen && memcmp(name, p->field, len) == 0) {
		p->head = head;
		p->found = true;
	}
	return 0;
}

/* Longer chains (a field of a value an entry, MCE_TIME, MESSAGE) are not walked: decompressed instead. */
#define PROOF_STEPS 4096

/* Whether no value of field in e's file is compressed, from its chain of data objects. */
static bool none_compressed(struct query_fields *e, const char *field, size_t flen)
{
	struct query_proofs *q = e->proofs;
	struct proof p = { .field = field, .flen = flen };
	uint64_t o, steps = 0;
	bool none;

	if (!q || flen >= sizeof(q->field[0]))
		return false;
	for (size_t i = 0; i < q->n; i++)
		if (streq(q->field[i], field))
			return q->none_compressed[i];
	none = journal_file_fields(e->f, find_head, &p, NULL) >= 0;
	for (o = p.found ? p.head : 0; none && o; steps++) {
		struct journal_data d;

		if (steps == PROOF_STEPS || journal_file_data(e->f, o, &d, NULL) < 0 || d.compression != JOURNAL_PLAIN)
			none = false;
		else
			o = d.next_field_offset;
	}
	if (q->n < ELEMENTSOF(q->field)) {
		memcpy(q->field[q->n], field, flen + 1);
		q->none_compressed[q->n++] = none;
	}
	return none;
}

static const uint8_t *payload_of(const struct query_fields *e, const struct query_item *it)
{
	return it->payload ? it->payload : e->arena + it->arena_at;
}

bool query_fields_get(struct query_fields *e, const char *field, size_t flen, const char **ret_value,
		      size_t *ret_len)
{
	for (size_t i = 0; i < e->n; i++) {
		struct query_item *it = &e->items[i];
		const uint8_t *p;

		if (it->compressed) {
			if (none_compressed(e, field, flen))
				continue;
			decompress_item(e, it);
		}
		/* (An unreadable one has no payload: its name_len matches nothing.) */
		if (it->name_len != flen)
			continue;
		p = payload_of(e, it);
		if (memcmp(p, field, flen) == 0) {
			*ret_value = (const char *) p + flen + 1;
			*ret_len = it->len - flen - 1;
			return true;
		}
	}
	return false;
}

/* Whether some item is the data object at data (a match, as libsystemd's matches take it). */
static bool has_data(const struct query_fields *e, uint64_t data)
{
	for (size_t i = 0; data && i < e->n; i++)
		if (e->items[i].data == data)
			return true;
	return false;
}

static bool has_field(struct query_fields *e, const char *field)
{
	const char *v;
	size_t len;

	return query_fields_get(e, field, strlen(field), &v, &len);
}

/*
 * A field's first value as query.c's get_field() copies it into a buffer of
 * size bytes (a field it caches cut to 255 bytes first): NULL when absent or
 * empty.
 */
static const char *first_value(struct query_fields *e, const char *field, char *buf, size_t size)
{
	const char *v;
	size_t len;

	if (!query_fields_get(e, field, strlen(field), &v, &len) || len == 0)
		return NULL;
	if (len > 255)
		len = 255;
	if (len >= size)
		len = size - 1;
	memcpy(buf, v, len);
	buf[len] = '\0';
	return buf;
}

/* late-entries.h's struct entry_stamps, and its order (entry_stamps_cmp). */
struct stamps {
	uint8_t boot_id[16];
	uint64_t monotonic, realtime;
};

static int stamps_cmp(const void *x, const void *y)
{
	const struct stamps *a = x, *b = y;
	int c = memcmp(a->boot_id, b->boot_id, sizeof(a->boot_id));

	if (!c)
		c = (a->monotonic > b->monotonic) - (a->monotonic < b->monotonic);
	return c ? c : (a->realtime > b->realtime) - (a->realtime < b->realtime);
}

static struct stamps stamps_of(const struct query_fields *e)
{
	struct stamps s = { .monotonic = e->monotonic, .realtime = e->realtime };

	memcpy(s.boot_id, e->boot_id, sizeof(s.boot_id));
	return s;
}

/* A late entry (late-entries.h's struct late_entry): stamps first, as there. */
struct late {
	struct stamps stamps;
	int64_t time;
	size_t file;
	uint64_t offset;
};

/* late-entries.c's cmp_time. */
static int late_cmp_time(const void *x, const void *y)
{
	const struct late *a = x, *b = y;
	int c = (a->time > b->time) - (a->time < b->time);

	return c ? c : (a->stamps.realtime > b->stamps.realtime) - (a->stamps.realtime < b->stamps.realtime);
}

/* The data objects of one file that the walk follows. */
enum mark { M_COMM, M_UID, M_LATE, M_AHEAD, M_REPLAY, _M_MAX };
static const struct {
	const char *field, *value;
} marks[_M_MAX] = {
	[M_COMM] = { "_COMM", MCELOGD_COMM },
	[M_UID] = { "_UID", NULL },          /* the trusted one */
	[M_LATE] = { ENTRY_LATE_FIELD, "1" },
	[M_AHEAD] = { ENTRY_AHEAD_FIELD, "1" },
	[M_REPLAY] = { "MCELOGD_REPLAY", "1" },
};

struct walk {
	const struct query_walk_args *a;
	const struct journal_file *const *files;
	size_t n_files;
	/* Per file, each mark's data object (0: no such value there) and its entry list. */
	uint64_t (*data)[_M_MAX];
	struct journal_entry_list (*lists)[_M_MAX];
	struct query_proofs *proofs;    /* per file */
	struct query_fields e;
	size_t file;                    /* e's */
	const char *reason;
	char uid_text[64];
	uint64_t arrived_from;
	struct stamps *replayed;
	size_t n_replayed;
	struct late *late;              /* as found; then the kept ones, by time */
	size_t n_late, n_kept, next_late;
	struct stamps *late_stamps;     /* every one found, sorted */
	struct query_hit *hits;
	size_t n_hits, cap_hits;
};

struct find {
	const struct journal_file *f;
	uint64_t steps;                 /* for the whole file: a table that names a field many times does not multiply it */
	const char *uid;
	uint64_t *data;
	struct journal_entry_list *lists;
	const char *reason;
};

/* A field's chain of data objects: the one data object of each mark's value, if any. */
static int find_marks(const char *name, size_t len, uint64_t head, void *userdata)
{
	struct find *x = userdata;

	for (size_t m = 0; m < _M_MAX; m++) {
		const char *value = marks[m].value ?: x->uid;
		size_t flen = strlen(marks[m].field), vlen = strlen(value);
		bool found = false;

		if (len != flen || memcmp(name, marks[m].field, len) != 0)
			continue;
		for (uint64_t o = head; o;) {
			struct journal_data d;

			if (!x->steps--) {
				x->reason = "a field's chain of data objects loops";
				return -EOPNOTSUPP;
			}
			if (journal_file_data(x->f, o, &d, &x->reason) < 0)
				return -EOPNOTSUPP;
			/* Which value a compressed one holds, only its payload says: libsystemd reads. */
			if (d.compression != JOURNAL_PLAIN) {
				x->reason = "a compressed value of a field the query matches";
				return -EOPNOTSUPP;
			}
			if (d.size == flen + 1 + vlen && memcmp(d.payload, marks[m].field, flen) == 0 &&
			    d.payload[flen] == '=' && memcmp(d.payload + flen + 1, value, vlen) == 0) {
				/* libsystemd finds one by its hash table: which, two would make uncertain. */
				if (found) {
					x->reason = "a value stored twice";
					return -EOPNOTSUPP;
				}
				found = true;
				x->data[m] = o;
				x->lists[m] = (struct journal_entry_list) {
					.first = d.entry_offset, .array = d.entry_array_offset, .n = d.n_entries,
				};
			}
			o = d.next_field_offset;
		}
	}
	return 0;
}

static int read_entry(struct walk *w, size_t file, uint64_t offset)
{
	/* (What reading the last one's fields ran out of.) */
	if (w->e.error)
		return w->e.error;
	w->file = file;
	return query_fields_read(&w->e, w->files[file], &w->proofs[file], offset, w->a->decompress, w->a->userdata,
				 &w->reason);
}

/* An entry of mcelogd's own: journald's _COMM and _UID (query.c's matches, there on every search). */
static bool ours(const struct walk *w)
{
	return has_data(&w->e, w->data[w->file][M_COMM]) && has_data(&w->e, w->data[w->file][M_UID]);
}

/* Whether the entry at offset is ours (ours()) and arrived in [from, to), from its header alone. */
static int ours_at(struct walk *w, size_t file, uint64_t offset, uint64_t from, uint64_t to)
{
	const struct journal_file *f = w->files[file];
	struct journal_entry en;
	bool comm = false, uid = false;

	if (!w->data[file][M_COMM] || !w->data[file][M_UID])
		return 0;
	if (journal_file_entry(f, offset, &en, &w->reason) < 0)
		return -EOPNOTSUPP;
	if (en.realtime < from || (to && en.realtime >= to))
		return 0;
	for (uint64_t i = 0; i < en.n_items && !(comm && uid); i++) {
		uint64_t d = journal_entry_item(f, &en, i);

		comm |= d == w->data[file][M_COMM];
		uid |= d == w->data[file][M_UID];
	}
	return comm && uid;
}

/*
 * Calls fn for each entry of ours in mark m's lists, file by file, that
 * arrived in [from, to) (to 0: no end), seeking to from.
 */
static int each_marked(struct walk *w, enum mark m, uint64_t from, uint64_t to, int (*fn)(struct walk *w, size_t file, uint64_t offset))
{
	for (size_t i = 0; i < w->n_files; i++) {
		const struct journal_entry_list *l = &w->lists[i][m];
		struct journal_entry_iter it = {};
		uint64_t offset, prev = 0;
		int r;

		if (!l->n)
			continue;
		if (from && journal_list_seek_realtime(w->files[i], l, &it, from, &w->reason) < 0)
			return -EOPNOTSUPP;
		while ((r = journal_list_next_entry(w->files[i], l, &it, &offset, &w->reason)) > 0) {
			if (offset <= prev) {
				w->reason = "a value's entries out of order";
				return -EOPNOTSUPP;
			}
			prev = offset;
			/* By the entry's header and item offsets first: another user's entries
			 * (forged late ones) cost no field read. */
			r = ours_at(w, i, offset, from, to);
			if (r < 0)
				return r;
			if (!r)
				continue;
			r = read_entry(w, i, offset);
			if (r < 0)
				return r;
			if (!ours(w))
				continue;
			r = fn(w, i, offset);
			if (r < 0)
				return r;
		}
		if (r < 0)
			return -EOPNOTSUPP;
	}
	return 0;
}

static int add_replayed(struct walk *w, size_t file, uint64_t offset)
{
	struct stamps *p;

	(void) file, (void) offset;
	p = realloc(w->replayed, (w->n_replayed + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	w->replayed = p;
	w->replayed[w->n_replayed++] = stamps_of(&w->e);
	return 0;
}

static int add_late(struct walk *w, size_t file, uint64_t offset)
{
	const char *v;
	size_t len;
	struct late x = { .stamps = stamps_of(&w->e), .file = file, .offset = offset };
	struct late *p;

	/* late-entries.c's add_current(): the whole value. */
	if (query_fields_get(&w->e, ENTRY_TIME_FIELD, strlen(ENTRY_TIME_FIELD), &v, &len) && len > 0)
		x.time = entry_time_of(v, len, w->e.realtime);
	else
		x.time = entry_time_of(NULL, 0, w->e.realtime);
	p = realloc(w->late, (w->n_late + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	w->late = p;
	w->late[w->n_late++] = x;
	return 0;
}

/* query.c's wanted_entry(): the first _UID and MESSAGE_ID as 63-byte strings. */
static bool wanted(struct walk *w)
{
	char v[64];

	if (!first_value(&w->e, "_UID", v, sizeof(v)) || !streq(v, w->uid_text))
		return false;
	if (!first_value(&w->e, "MESSAGE_ID", v, sizeof(v)))
		return false;
	for (size_t i = 0; i < w->a->n_ids; i++)
		if (streq(v, w->a->ids[i]))
			return true;
	return false;
}

/* query.c's is_replayed(), find_replayed() having run. */
static bool replayed(struct walk *w)
{
	struct stamps s = stamps_of(&w->e);

	if (s.realtime >= w->arrived_from &&
	    (w->n_replayed == 0 || !bsearch(&s, w->replayed, w->n_replayed, sizeof(s), stamps_cmp)))
		return false;
	return has_field(&w->e, "MCELOGD_REPLAY");
}

static int add_hit(struct walk *w, size_t file, uint64_t offset, int64_t time)
{
	if (w->n_hits == w->cap_hits) {
		size_t cap = w->cap_hits ? w->cap_hits * 2 : 256;
		struct query_hit *p = realloc(w->hits, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		w->hits = p;
		w->cap_hits = cap;
	}
	w->hits[w->n_hits++] = (struct query_hit) { .file = file, .offset = offset, .time = time };
	return 0;
}

/* late-entries.c's late_entries_order() with query.c's keep_late(). */
static int keep_late(struct walk *w)
{
	const struct query_walk_args *a = w->a;
	size_t k = 0;
	int r;

	for (size_t i = 0; i < w->n_late; i++) {
		const struct late *l = &w->late[i];

		if ((a->have_since && l->time < a->since) || (a->have_until && l->time > a->until))
			continue;
		if (!a->include_replayed && w->n_replayed > 0 &&
		    bsearch(&l->stamps, w->replayed, w->n_replayed, sizeof(l->stamps), stamps_cmp))
			continue;
		r = read_entry(w, l->file, l->offset);
		if (r < 0)
			return r;
		if (!wanted(w) || (!a->include_replayed && replayed(w)))
			continue;
		w->late[k++] = *l;
	}
	w->n_kept = k;
	if (k > 1)
		qsort(w->late, k, sizeof(*w->late), late_cmp_time);
	return 0;
}

/* query.c's show_late(). */
static int show_late(struct walk *w, int64_t limit)
{
	int r;

	for (; w->next_late < w->n_kept && w->late[w->next_late].time <= limit; w->next_late++) {
		const struct late *l = &w->late[w->next_late];

		r = add_hit(w, l->file, l->offset, l->time);
		if (r < 0)
			return r;
	}
	return 0;
}

/* query.c's show_entries() over the entries of _COMM=mcelogd from the window on. */
static int show_entries(struct walk *w)
{
	const struct query_walk_args *a = w->a;
	uint64_t last_seqnum = 0, last_realtime = 0;
	bool any = false;

	for (size_t i = 0; i < w->n_files; i++) {
		const struct journal_file *f = w->files[i];
		const struct journal_entry_list *l = &w->lists[i][M_COMM];
		struct journal_entry_iter it = {};
		uint64_t offset, prev = 0;
		int r;

		if (!l->n)
			continue;
		if (w->arrived_from && journal_list_seek_realtime(f, l, &it, w->arrived_from, &w->reason) < 0)
			return -EOPNOTSUPP;
		while ((r = journal_list_next_entry(f, l, &it, &offset, &w->reason)) > 0) {
			struct journal_entry en;
			char v[32];
			const char *tv;
			int64_t t;
			struct stamps s;

			if (offset <= prev) {
				w->reason = "a value's entries out of order";
				return -EOPNOTSUPP;
			}
			prev = offset;
			if (journal_file_entry(f, offset, &en, &w->reason) < 0)
				return -EOPNOTSUPP;
			/* libsystemd's order is by seqnum, its seek by time: both must agree. */
			if (en.seqnum < f->head_seqnum || en.seqnum > f->tail_seqnum || (any && en.seqnum <= last_seqnum)) {
				w->reason = "sequence numbers out of order";
				return -EOPNOTSUPP;
			}
			if (a->have_since && any && en.realtime < last_realtime) {
				w->reason = "entries out of time order with --since";
				return -EOPNOTSUPP;
			}
			r = read_entry(w, i, offset);
			if (r < 0)
				return r;
			/* The _UID match: an entry without it libsystemd does not give. */
			if (!has_data(&w->e, w->data[i][M_UID]))
				continue;
			any = true;
			last_seqnum = en.seqnum;
			last_realtime = en.realtime;
			if (a->have_since && (int64_t) en.realtime < a->since - ENTRY_TIME_SLACK_USEC)
				continue;
			if (a->have_until && (int64_t) en.realtime > a->until + ENTRY_TIME_SLACK_USEC)
				return 0;
			s = stamps_of(&w->e);
			if (w->n_late && bsearch(&s, w->late_stamps, w->n_late, sizeof(s), stamps_cmp) &&
			    has_field(&w->e, ENTRY_LATE_FIELD))
				continue;
			tv = first_value(&w->e, ENTRY_TIME_FIELD, v, sizeof(v));
			t = entry_time_of(tv, tv ? strlen(tv) : 0, en.realtime);
			if ((a->have_since && t < a->since) || (a->have_until && t > a->until))
				continue;
			if (!wanted(w))
				continue;
			if (!a->include_replayed && replayed(w))
				continue;
			r = show_late(w, t);
			if (r < 0)
				return r;
			r = add_hit(w, i, offset, t);
			if (r < 0)
				return r;
		}
		if (r < 0)
			return -EOPNOTSUPP;
	}
	return 0;
}

static int walk_all(struct walk *w)
{
	const struct query_walk_args *a = w->a;
	bool ahead = false;
	int r;

	for (size_t i = 0; i < w->n_files; i++) {
		struct find x = { .f = w->files[i], .steps = w->files[i]->end / 16, .uid = a->trusted_uid,
				  .data = w->data[i], .lists = w->lists[i] };

		if (journal_file_fields(w->files[i], find_marks, &x, &x.reason) < 0) {
			w->reason = x.reason;
			return -EOPNOTSUPP;
		}
		ahead |= w->lists[i][M_AHEAD].n > 0;
	}
	/* query.c's find_replayed(). */
	if (!a->include_replayed) {
		r = each_marked(w, M_REPLAY, w->arrived_from, 0, add_replayed);
		if (r < 0)
			return r;
		if (w->n_replayed > 1)
			qsort(w->replayed, w->n_replayed, sizeof(*w->replayed), stamps_cmp);
	}
	/* late_entries_find(): those ahead that arrived before, then every late one from then on. */
	if (w->arrived_from && ahead) {
		r = each_marked(w, M_AHEAD, 0, w->arrived_from, add_late);
		if (r < 0)
			return r;
	}
	r = each_marked(w, M_LATE, w->arrived_from, 0, add_late);
	if (r < 0)
		return r;
	if (w->n_late) {
		w->late_stamps = malloc(w->n_late * sizeof(*w->late_stamps));
		if (!w->late_stamps)
			return -ENOMEM;
		for (size_t i = 0; i < w->n_late; i++)
			w->late_stamps[i] = w->late[i].stamps;
		qsort(w->late_stamps, w->n_late, sizeof(*w->late_stamps), stamps_cmp);
	}
	r = keep_late(w);
	if (r < 0)
		return r;
	r = show_entries(w);
	if (r < 0)
		return r;
	/* The late entries after the last one shown. */
	return show_late(w, INT64_MAX);
}

int query_walk(const struct journal_file *const *files, size_t n, const struct query_walk_args *a,
	       struct query_hit **ret, size_t *ret_n, size_t *ret_late, const char **ret_reason)
{
	struct walk w = { .a = a, .files = files, .n_files = n };
	int r;

	/* query.c's arrived_from(). */
	w.arrived_from = a->have_since && a->since > ENTRY_TIME_SLACK_USEC ? (uint64_t) (a->since - ENTRY_TIME_SLACK_USEC) : 0;
	snprintf(w.uid_text, sizeof(w.uid_text), "%s", a->trusted_uid);
	w.lists = calloc(n ? n : 1, sizeof(*w.lists));
	w.data = calloc(n ? n : 1, sizeof(*w.data));
	w.proofs = calloc(n ? n : 1, sizeof(*w.proofs));
	r = w.lists && w.data && w.proofs ? walk_all(&w) : -ENOMEM;
	if (r >= 0 && w.e.error)
		r = w.e.error;
	free(w.lists);
	free(w.data);
	free(w.proofs);
	free(w.replayed);
	free(w.late);
	free(w.late_stamps);
	query_fields_done(&w.e);
	if (r < 0) {
		free(w.hits);
		*ret_reason = w.reason ? w.reason : r == -ENOMEM ? "out of memory" : "unreadable file";
		return r == -ENOMEM ? r : -EOPNOTSUPP;
	}
	*ret = w.hits;
	*ret_n = w.n_hits;
	*ret_late = w.n_late;
	return 0;
}
