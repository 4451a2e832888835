/* SPDX-License-Identifier: MIT */
/*
 * Each file's entry array walked in order; each entry's items resolved
 * through a table keyed by data object offset, since the objects most items
 * point to (MCE_BANK=7, _COMM=mcelogd, MESSAGE_ID=...) are shared by many
 * entries and are read once a file, not once an entry.  What the summary asks
 * of an entry is answered as query.c's entry_get() answers it: the first item
 * of a field, cut to 255 bytes, empty as absent; MCE_JSON parsed when a key
 * is not among the flat fields.
 */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "entry-time.h"
#include "macro.h"
#include "message-ids.h"
#include "summary-walk.h"

/* The fields the walk reads; every other is skipped unread when shared. */
enum field {
	F_COMM, F_UID, F_MESSAGE_ID, F_HOSTNAME, F_REPLAY, F_TIME, F_LATE, F_AHEAD,
	/* The flat fields the summary asks for (query.c's flat_fields). */
	F_CPU, F_BANK, F_BANK_NAME, F_SEVERITY, F_STATUS, F_SOCKET, F_SOURCE, F_EVENT,
	F_STORM_COUNT, F_STORM_START, F_STORM_CODE,
	_F_MAX,
	F_JSON = _F_MAX,   /* read only when needed */
	F_OTHER,
	F_COMPRESSED,      /* some field, compressed: by the field check, not one of the above */
};

#define NAME(s) { s, sizeof(s) - 1 }
static const struct {
	const char *name;
	size_t len;
} field_names[_F_MAX + 1] = {
	[F_COMM] = NAME("_COMM"), [F_UID] = NAME("_UID"), [F_MESSAGE_ID] = NAME("MESSAGE_ID"),
	[F_HOSTNAME] = NAME("_HOSTNAME"), [F_REPLAY] = NAME("MCELOGD_REPLAY"),
	[F_TIME] = NAME(ENTRY_TIME_FIELD), [F_LATE] = NAME(ENTRY_LATE_FIELD), [F_AHEAD] = NAME(ENTRY_AHEAD_FIELD),
	[F_CPU] = NAME("MCE_CPU"), [F_BANK] = NAME("MCE_BANK"), [F_BANK_NAME] = NAME("MCE_BANK_NAME"),
	[F_SEVERITY] = NAME("MCE_SEVERITY"), [F_STATUS] = NAME("MCE_STATUS"), [F_SOCKET] = NAME("MCE_SOCKET"),
	[F_SOURCE] = NAME("MCE_SOURCE"), [F_EVENT] = NAME("MCE_EVENT"), [F_STORM_COUNT] = NAME("MCE_STORM_COUNT"),
	[F_STORM_START] = NAME("MCE_STORM_START"), [F_STORM_CODE] = NAME("MCE_STORM_CODE"),
	[F_JSON] = NAME("MCE_JSON"),
};
#undef NAME

/* The summary's keys that the flat fields answer (query.c's flat_fields). */
static const struct {
	const char *key;
	enum field field;
} flat_keys[] = {
	{ "cpu", F_CPU },                 { "bank", F_BANK },
	{ "bank_name", F_BANK_NAME },     { "severity", F_SEVERITY },
	{ "status", F_STATUS },           { "socket", F_SOCKET },
	{ "source", F_SOURCE },           { "count", F_STORM_COUNT },
	{ "storm_start", F_STORM_START }, { "code", F_STORM_CODE },
	{ "hostname", F_HOSTNAME },
};

/* Values longer than this are cut, as query.c's field cache cuts them. */
#define VALUE_MAX 255
/* libsystemd gives at most this much of a field (its default data threshold). */
#define DATA_THRESHOLD (64 * 1024)

/* What an entry is by its MESSAGE_ID (query.c's kind_of_id()). */
enum kind { KIND_RECORD, KIND_STORM, KIND_STORM_END, KIND_LOSS, KIND_ALERT, KIND_RAS };

/* What one data object is to the walk. */
struct object {
	uint64_t offset;
	enum field field;
	const uint8_t *value;       /* after '=' */
	uint32_t len;
	/* The answers, once an object: matched as libsystemd matches (the whole value) ... */
	bool comm, uid, host, id_wanted, replay_one, late_one, ahead_one;
	/* ... and as query.c reads a first value (a string of at most 63 bytes). */
	bool first_uid, first_id_wanted;
	enum kind kind;
};

/*
 * Offsets to objects: a small direct-mapped memo in front of an open-addressed
 * table.  Most items of an entry are the same few shared objects, which the
 * memo keeps in the first-level cache.
 */
#define RECENT 1024

struct table {
	struct object *objs;
	size_t n, cap;
	uint64_t *keys;             /* 0: free slot */
	uint32_t *idx;
	size_t size;                /* a power of two */
	struct { uint64_t offset; uint32_t idx; } recent[RECENT];
};

struct walk {
	const struct summary_walk_args *a;
	const struct journal_file *f;
	struct table t;
	/*
	 * The entry before the current one: an object after it was written for
	 * the current entry, so no entry walked so far can have put it in the
	 * table, and the table is not asked (its misses are most of a walk's time).
	 * The table only saves reads, so a file where this does not hold is still
	 * read right.
	 */
	uint64_t fresh_after;
	const char *reason;
};

static size_t slot_of(const struct table *t, uint64_t offset)
{
	return (size_t) ((offset >> 3) * UINT64_C(0x9e3779b97f4a7c15) >> 20) & (t->size - 1);
}

static int table_grow(struct table *t)
{
	size_t size = t->size ? t->size * 2 : 4096, k;
	uint64_t *keys = calloc(size, sizeof(*keys));
	uint32_t *idx = calloc(size, sizeof(*idx));

	if (!keys || !idx) {
		free(keys);
		free(idx);
		return -ENOMEM;
	}
	free(t->keys);
	free(t->idx);
	t->keys = keys;
	t->idx = idx;
	t->size = size;
	for (size_t i = 0; i < t->n; i++) {
		for (k = slot_of(t, t->objs[i].offset); keys[k]; k = (k + 1) & (size - 1))
			;
		keys[k] = t->objs[i].offset;
		idx[k] = (uint32_t) i;
	}
	return 0;
}

static void table_clear(struct table *t)
{
	if (t->keys)
		memset(t->keys, 0, t->size * sizeof(*t->keys));
	memset(t->recent, 0, sizeof(t->recent));
	t->n = 0;
}

static void table_free(struct table *t)
{
	free(t->objs);
	free(t->keys);
	free(t->idx);
}

static enum field field_of(const uint8_t *name, size_t len)
{
	for (size_t i = 0; i <= _F_MAX; i++)
		if (field_names[i].len == len && memcmp(field_names[i].name, name, len) == 0)
			return (enum field) i;
	return F_OTHER;
}

static bool value_is(const struct object *o, const char *s)
{
	size_t n = strlen(s);

	return o->len == n && memcmp(o->value, s, n) == 0;
}

/* The value as a C string of at most max bytes: what query.c compares. */
static bool string_is(const struct object *o, size_t max, const char *s)
{
	size_t len = o->len < max ? o->len : max;
	const uint8_t *nul = memchr(o->value, '\0', len);

	if (nul)
		len = (size_t) (nul - o->value);
	return len == strlen(s) && memcmp(o->value, s, len) == 0;
}

/* A value as query.c's get_field() copies it into a buffer of size bytes. */
static const char *copy_value(const struct object *o, char *buf, size_t size)
{
	size_t len = o->len > VALUE_MAX ? VALUE_MAX : o->len;

	if (len == 0)
		return NULL;
	if (len >= size)
		len = size - 1;
	memcpy(buf, o->value, len);
	buf[len] = '\0';
	return buf;
}

static enum kind kind_of_id(const struct object *o)
{
	static const char *const ras_ids[] = { MCELOGD_RAS_MSGIDS };

	if (string_is(o, 63, MCELOGD_MSGID_STORM))
		return KIND_STORM;
	if (string_is(o, 63, MCELOGD_MSGID_STORM_END))
		return KIND_STORM_END;
	if (string_is(o, 63, MCELOGD_MSGID_LOST))
		return KIND_LOSS;
	if (string_is(o, 63, MCELOGD_MSGID_ALERT) || string_is(o, 63, MCELOGD_MSGID_REPAIR) ||
	    string_is(o, 63, MCELOGD_MSGID_MODULE_VERDICT))
		return KIND_ALERT;
	for (size_t i = 0; i < ELEMENTSOF(ras_ids); i++)
		if (string_is(o, 63, ras_ids[i]))
			return KIND_RAS;
	return KIND_RECORD;
}

static void classify(const struct walk *w, struct object *o, const struct journal_data *d)
{
	const struct summary_walk_args *a = w->a;
	const uint8_t *eq;

	o->field = F_OTHER;
	if (d->compression != JOURNAL_PLAIN) {
		o->field = F_COMPRESSED;
		return;
	}
	eq = memchr(d->payload, '=', d->size);
	/* Without '=' libsystemd's reader skips the item too. */
	if (!eq)
		return;
	o->field = field_of(d->payload, (size_t) (eq - d->payload));
	o->value = eq + 1;
	o->len = (uint32_t) (d->size - (size_t) (eq - d->payload) - 1);
	switch (o->field) {
	case F_COMM:
		o->comm = value_is(o, MCELOGD_COMM);
		break;
	case F_UID:
		o->uid = value_is(o, a->trusted_uid);
		o->first_uid = o->len > 0 && string_is(o, 63, a->trusted_uid);
		break;
	case F_HOSTNAME:
		o->host = a->host && value_is(o, a->host);
		break;
	case F_MESSAGE_ID:
		for (size_t i = 0; i < a->n_ids; i++) {
			o->id_wanted |= value_is(o, a->ids[i]);
			o->first_id_wanted |= o->len > 0 && string_is(o, 63, a->ids[i]);
		}
		o->kind = o->len > 0 ? kind_of_id(o) : KIND_RECORD;
		break;
	case F_REPLAY:
		o->replay_one = value_is(o, "1");
		break;
	case F_LATE:
		o->late_one = value_is(o, "1");
		break;
	case F_AHEAD:
		o->ahead_one = value_is(o, "1");
		break;
	default:
		break;
	}
}

/* The data object at offset: from the table, or read (and kept if other entries share it). */
static int object_of(struct walk *w, uint64_t offset, struct object *tmp, const struct object **ret)
{
	struct table *t = &w->t;
	size_t m = (size_t) (offset >> 3) & (RECENT - 1), k;
	struct journal_data d;

	/* (Offset 0 marks the memo's empty slots, and is no object.) */
	if (!offset) {
		w->reason = "an entry item without an object";
		return -EOPNOTSUPP;
	}
	if (t->recent[m].offset == offset) {
		*ret = &t->objs[t->recent[m].idx];
		return 0;
	}
	for (k = slot_of(t, offset); offset <= w->fresh_after && t->keys[k]; k = (k + 1) & (t->size - 1))
		if (t->keys[k] == offset) {
			t->recent[m].offset = offset;
			t->recent[m].idx = t->idx[k];
			*ret = &t->objs[t->idx[k]];
			return 0;
		}
	if (journal_file_data(w->f, offset, &d, &w->reason) < 0)
		return -EOPNOTSUPP;
	if (d.size > DATA_THRESHOLD && d.compression == JOURNAL_PLAIN) {
		w->reason = "a field longer than libsystemd gives";
		return -EOPNOTSUPP;
	}
	*tmp = (struct object) { .offset = offset };
	classify(w, tmp, &d);
	if (d.n_entries <= 1) {
		*ret = tmp;
		return 0;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		struct object *p = realloc(t->objs, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		t->objs = p;
		t->cap = cap;
	}
	if ((t->n + 1) * 2 > t->size && table_grow(t) < 0)
		return -ENOMEM;
	/* (Where the probe stopped, unless it was skipped or the table grew.) */
	for (k = slot_of(t, offset); t->keys[k]; k = (k + 1) & (t->size - 1))
		if (t->keys[k] == offset) {
			*ret = &t->objs[t->idx[k]];
			return 0;
		}
	t->objs[t->n] = *tmp;
	t->keys[k] = offset;
	t->idx[k] = (uint32_t) t->n;
	t->recent[m].offset = offset;
	t->recent[m].idx = (uint32_t) t->n;
	*ret = &t->objs[t->n++];
	return 0;
}

/*
 * The field check: a compressed item is taken for a field the walk does not
 * read, which holds only if no data object of those fields is compressed.
 * The fields' chains of data objects say so, once a file.
 */
struct field_check {
	const struct journal_file *f;
	const char *reason;
};

static int check_field(const char *name, size_t len, uint64_t head, void *userdata)
{
	struct field_check *c = userdata;
	enum field field = field_of((const uint8_t *) name, len);
	uint64_t steps = c->f->end / 16;
	struct journal_data d;

	if (field == F_OTHER || field == F_JSON)
		return 0;
	for (uint64_t o = head; o; o = d.next_field_offset) {
		if (!steps--) {
			c->reason = "a field's chain of data objects loops";
			return -EOPNOTSUPP;
		}
		if (journal_file_data(c->f, o, &d, &c->reason) < 0)
			return -EOPNOTSUPP;
		if (d.compression != JOURNAL_PLAIN) {
			c->reason = "a field the summary reads is compressed";
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

/* One entry's items, as the summary asks for them (query.c's entry_get). */
struct entry {
	struct walk *w;
	const struct journal_entry *e;
	/* Copies, as the table moves when it grows; valid where their bit in have is set. */
	struct object first[_F_MAX];
	uint32_t have;
	char values[16][VALUE_MAX + 1];
	unsigned n_values;
	json_object *json;
	bool json_read, damaged;
	int error;                         /* reading MCE_JSON made the walk give up */
	struct json_tokener *tok;
};

static const char *entry_value(struct entry *x, enum field field)
{
	const char *v;

	if (x->n_values == ELEMENTSOF(x->values) || !(x->have & 1u << field))
		return NULL;
	v = copy_value(&x->first[field], x->values[x->n_values], sizeof(x->values[0]));
	if (v)
		x->n_values++;
	return v;
}

/* The entry's first MCE_JSON, parsed; NULL when it has none or it does not parse. */
static json_object *entry_json(struct entry *x)
{
	struct walk *w = x->w;
	const struct summary_walk_args *a = w->a;
	struct object tmp;
	json_object *o;

	for (uint64_t i = 0; i < x->e->n_items; i++) {
		const struct object *obj;
		struct journal_data d;
		const uint8_t *p;
		size_t size;
		int r;

		r = object_of(w, journal_entry_item(w->f, x->e, i), &tmp, &obj);
		if (r < 0) {
			x->error = r;
			return NULL;
		}
		if (obj->field != F_JSON && obj->field != F_COMPRESSED)
			continue;
		if (obj->field == F_JSON) {
			p = obj->value;
			size = obj->len;
		} else {
			/* Which field a compressed object is, only its payload says. */
			if (journal_file_data(w->f, obj->offset, &d, &w->reason) < 0) {
				x->error = -EOPNOTSUPP;
				return NULL;
			}
			if (!a->decompress) {
				w->reason = "compressed MCE_JSON and no decompressor";
				x->error = -EOPNOTSUPP;
				return NULL;
			}
			r = a->decompress(a->userdata, d.compression, d.payload, d.size, &p, &size);
			if (r < 0) {
				w->reason = r == -ENOMEM ? "out of memory" : "a compressed field could not be read";
				x->error = r == -ENOMEM ? r : -EOPNOTSUPP;
				return NULL;
			}
			if (size > DATA_THRESHOLD) {
				w->reason = "a field longer than libsystemd gives";
				x->error = -EOPNOTSUPP;
				return NULL;
			}
			if (size < field_names[F_JSON].len + 1 || memcmp(p, "MCE_JSON=", field_names[F_JSON].len + 1) != 0)
				continue;
			p += field_names[F_JSON].len + 1;
			size -= field_names[F_JSON].len + 1;
		}
		if (size == 0 || size > INT_MAX)
			return NULL;
		if (!x->tok && !(x->tok = json_tokener_new())) {
			x->error = -ENOMEM;
			return NULL;
		}
		json_tokener_reset(x->tok);
		o = json_tokener_parse_ex(x->tok, (const char *) p, (int) size);
		if (o && (json_tokener_get_error(x->tok) != json_tokener_success ||
			  !json_object_is_type(o, json_type_object))) {
			json_object_put(o);
			o = NULL;
		}
		return o;
	}
	return NULL;
}

static const char *event_of(struct entry *x)
{
	if (!(x->have & 1u << F_MESSAGE_ID))
		return NULL;
	switch (x->first[F_MESSAGE_ID].kind) {
	case KIND_STORM:     return "storm_summary";
	case KIND_STORM_END: return "storm_end";
	case KIND_LOSS:      return "loss";
	case KIND_ALERT:     return "alert";
	/* The other records name their kind; a machine check has none. */
	case KIND_RAS:       return entry_value(x, F_EVENT);
	default:             return NULL;
	}
}

static const char *entry_get(void *userdata, const char *key)
{
	struct entry *x = userdata;

	if (streq(key, "event"))
		return event_of(x);
	for (size_t i = 0; i < ELEMENTSOF(flat_keys); i++)
		if (streq(key, flat_keys[i].key))
			return entry_value(x, flat_keys[i].field);
	if (!x->json_read) {
		x->json_read = true;
		x->json = entry_json(x);
		x->damaged = !x->json;
	}
	if (!x->json)
		return NULL;
	return (summary_json_fields(x->json).get)(x->json, key);
}

/* An entry's first values, and the matches' answers over all its items. */
struct items {
	bool comm, uid, host, id_wanted, replay, replay_one, late, ahead;
};

static int read_items(struct walk *w, struct entry *x, struct items *m)
{
	struct object tmp;

	for (uint64_t i = 0; i < x->e->n_items; i++) {
		const struct object *o;
		int r = object_of(w, journal_entry_item(w->f, x->e, i), &tmp, &o);

		if (r < 0)
			return r;
		if (o->field >= _F_MAX)
			continue;
		m->comm |= o->comm;
		m->uid |= o->uid;
		m->host |= o->host;
		m->id_wanted |= o->id_wanted;
		m->replay |= o->field == F_REPLAY;
		m->replay_one |= o->replay_one;
		m->late |= o->late_one;
		m->ahead |= o->ahead_one;
		if (!(x->have & 1u << o->field)) {
			x->first[o->field] = *o;
			x->have |= 1u << o->field;
		}
	}
	return 0;
}

/* query.c's wanted_entry(): the first _UID and MESSAGE_ID, as 63-byte strings. */
static bool wanted_first(const struct entry *x)
{
	return (x->have & 1u << F_UID) && x->first[F_UID].first_uid &&
	       (x->have & 1u << F_MESSAGE_ID) && x->first[F_MESSAGE_ID].first_id_wanted;
}

struct position {
	bool any, matched;
	uint64_t seqnum;                     /* of the last entry */
	uint64_t first_realtime, realtime;   /* of the first and last entry matched on _COMM */
	bool past_until;
};

static int walk_file(struct walk *w, struct summary *s, struct position *pos, struct summary_walk_result *res,
		     struct entry *x)
{
	const struct summary_walk_args *a = w->a;
	struct journal_entry_iter it = {};
	struct field_check check = { .f = w->f };
	uint64_t offset, prev_offset = 0;
	int r;

	if (journal_file_fields(w->f, check_field, &check, &check.reason) < 0) {
		w->reason = check.reason;
		return -EOPNOTSUPP;
	}
	table_clear(&w->t);
	w->fresh_after = 0;
	while ((r = journal_file_next_entry(w->f, &it, &offset, &w->reason)) > 0) {
		struct journal_entry e;
		struct items m = {};
		bool late;
		int64_t t;
		const struct summary_fields fields = { .get = entry_get, .userdata = x };

		if (offset <= prev_offset) {
			w->reason = "entry array out of order";
			return -EOPNOTSUPP;
		}
		w->fresh_after = prev_offset;
		prev_offset = offset;
		if (journal_file_entry(w->f, offset, &e, &w->reason) < 0)
			return -EOPNOTSUPP;
		res->entries++;
		if (e.seqnum < w->f->head_seqnum || e.seqnum > w->f->tail_seqnum) {
			w->reason = "an entry outside its file's sequence numbers";
			return -EOPNOTSUPP;
		}
		/* libsystemd orders files of one sequence by seqnum: the walk's order must be that. */
		if (pos->any && e.seqnum <= pos->seqnum) {
			w->reason = "sequence numbers out of order";
			return -EOPNOTSUPP;
		}
		pos->any = true;
		pos->seqnum = e.seqnum;
		/* (Not the whole struct: its buffers are large, and only filled as far as counted.) */
		x->e = &e;
		x->have = 0;
		x->n_values = 0;
		x->json = NULL;
		x->json_read = x->damaged = false;
		x->error = 0;
		r = read_items(w, x, &m);
		if (r < 0)
			return r;
		if (!m.comm)
			continue;
		/* libsystemd finds --since by bisection, which only a journal in time order
		 * agrees with. */
		if (a->have_since && e.realtime < pos->realtime) {
			w->reason = "entries out of time order with --since";
			return -EOPNOTSUPP;
		}
		if (!pos->matched)
			pos->first_realtime = e.realtime;
		pos->matched = true;
		pos->realtime = e.realtime;
		/*
		 * By the error's time (entry-time.h), as query.c's libsystemd path
		 * (late-entries.h): every entry that arrived from the window's slack
		 * on until the first one past it, and after that the late ones;
		 * before it, only late entries whose time is ahead.  Late and ahead
		 * as mcelogd marked them, on its own entries only (a forged one is
		 * not counted in any case, but neither path reads it as late).
		 */
		late = m.late && m.uid;
		if (!(late && m.ahead) && a->have_since && (int64_t) e.realtime < a->since - ENTRY_TIME_SLACK_USEC)
			continue;
		if (!late && a->have_until && (int64_t) e.realtime > a->until + ENTRY_TIME_SLACK_USEC)
			pos->past_until = true;
		if (!late && pos->past_until)
			continue;
		t = entry_time_of((x->have & 1u << F_TIME) ? (const char *) x->first[F_TIME].value : NULL,
				  (x->have & 1u << F_TIME) ? x->first[F_TIME].len : 0, e.realtime);
		if ((a->have_since && t < a->since) || (a->have_until && t > a->until))
			continue;
		if (a->host ? !(m.uid && m.host && m.id_wanted) : !wanted_first(x))
			continue;
		if (!a->include_replayed && m.replay) {
			/* Replayed for sure; another value's answer depends on other entries' stamps. */
			if (m.replay_one)
				continue;
			w->reason = "an MCELOGD_REPLAY field that is not 1";
			return -EOPNOTSUPP;
		}
		r = summary_add_fields(s, &fields, t);
		json_object_put(x->json);
		x->json = NULL;
		if (x->error)
			return x->error;
		if (r == -ENOMEM)
			return r;
		/* Counted all the same, as query.c's count_entry() does. */
		if (r < 0 || x->damaged)
			res->damaged++;
	}
	return r < 0 ? -EOPNOTSUPP : 0;
}

static int cmp_head(const void *x, const void *y)
{
	const struct journal_file *const *a = x, *const *b = y;

	return ((*a)->head_seqnum > (*b)->head_seqnum) - ((*a)->head_seqnum < (*b)->head_seqnum);
}

int summary_walk_order(const struct journal_file *files, size_t n_files, const struct journal_file **order,
		       size_t *ret_n, const char **ret_reason)
{
	size_t n = 0;

	for (size_t i = 0; i < n_files; i++)
		if (files[i].n_entries)
			order[n++] = &files[i];
	/*
	 * libsystemd merges files by seqnum when they share a seqnum_id, and skips
	 * an entry equal to the one it gave last: files of one sequence whose
	 * ranges do not overlap (rotated files) are simply one after the other.
	 */
	qsort(order, n, sizeof(*order), cmp_head);
	for (size_t i = 1; i < n; i++)
		if (memcmp(order[i]->seqnum_id, order[0]->seqnum_id, 16) != 0 ||
		    order[i]->head_seqnum <= order[i - 1]->tail_seqnum) {
			*ret_reason = "files whose entries could interleave";
			return -EOPNOTSUPP;
		}
	*ret_n = n;
	return 0;
}

int summary_walk(const struct journal_file *const *files, size_t n, const struct summary_walk_args *a,
		 struct summary *s, struct summary_walk_result *result)
{
	struct walk w = { .a = a };
	struct position pos = {};
	_cleanup_free_ struct entry *x = malloc(sizeof(*x));
	int r = 0;

	*result = (struct summary_walk_result) {};
	if (!x)
		return -ENOMEM;
	x->w = &w;
	x->tok = NULL;
	if (table_grow(&w.t) < 0) {
		table_free(&w.t);
		return -ENOMEM;
	}
	/* Past --until, on to the end for the entries marked late. */
	for (size_t i = 0; i < n; i++) {
		w.f = files[i];
		r = walk_file(&w, s, &pos, result, x);
		if (r < 0)
			break;
	}
	if (x->tok)
		json_tokener_free(x->tok);
	table_free(&w.t);
	result->past_until = pos.past_until;
	result->matched = pos.matched;
	result->first_realtime = pos.first_realtime;
	result->last_realtime = pos.realtime;
	if (r == -EOPNOTSUPP)
		result->reason = w.reason ? w.reason : "unreadable file";
	return r;
}

int summary_walk_merge(const struct summary_walk_args *a, struct summary *s, struct summary_walk_result *r,
		       const struct summary *later_s, const struct summary_walk_result *later)
{
	int k;

	/* The earlier files ended the summary at --until: libsystemd stops there too. */
	if (r->past_until)
		return 0;
	if (a->have_since && r->matched && later->matched && later->first_realtime < r->last_realtime) {
		r->reason = "entries out of time order with --since";
		return -EOPNOTSUPP;
	}
	k = summary_merge(s, later_s);
	if (k < 0)
		return k;
	r->damaged += later->damaged;
	r->entries += later->entries;
	r->past_until = later->past_until;
	r->matched |= later->matched;
	r->last_realtime = later->last_realtime;
	return 0;
}
