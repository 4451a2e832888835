/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "edac-label.h"
#include "macro.h"
#include "parse-number.h"
#include "rfc3339.h"
#include "summary.h"

static const char *const by_names[_SUMMARY_BY_MAX] = {
	[SUMMARY_BY_DIMM] = "dimm",     [SUMMARY_BY_CHANNEL] = "channel", [SUMMARY_BY_BANK] = "bank",
	[SUMMARY_BY_CPU] = "cpu",       [SUMMARY_BY_SOCKET] = "socket",   [SUMMARY_BY_PAGE] = "page",
	[SUMMARY_BY_ERROR] = "error",   [SUMMARY_BY_HOST] = "host",     [SUMMARY_BY_ROW] = "row",
	[SUMMARY_BY_MEMDEV] = "memdev",  [SUMMARY_BY_PROCESS] = "process", [SUMMARY_BY_DISK] = "disk",
};

enum summary_by summary_by_from_string(const char *s)
{
	for (int i = 0; i < _SUMMARY_BY_MAX; i++)
		if (s && streq(s, by_names[i]))
			return (enum summary_by) i;
	return _SUMMARY_BY_INVALID;
}

const char *summary_by_to_string(enum summary_by by)
{
	return by >= 0 && by < _SUMMARY_BY_MAX ? by_names[by] : NULL;
}

const char *summary_by_choices(void)
{
	return "dimm, channel, bank, cpu, socket, page, error, host, row, memdev, process or disk";
}

/* Severity columns: corrected apart, everything worse together. */
enum { SEV_CORRECTED, SEV_WORSE, SEV_OTHER, _SEV_MAX };

#define STORM_STARTS_MAX 32

struct group {
	char key[96];
	char label[96];
	bool no_label;        /* its first record had none: not asked again */
	uint64_t count;
	uint64_t by_sev[_SEV_MAX];
	int64_t first_usec, last_usec;
	/* Storms told apart by their start; past the cap they are counted, not told apart. */
	char starts[STORM_STARTS_MAX][32];
	unsigned n_starts;
	unsigned storms_uncounted;
};

/* A storm's start as a part saw it, in order: replayed when the part is merged. */
struct storm_note {
	size_t group;
	char *start;
};

struct summary {
	enum summary_by by;
	struct group *groups;
	size_t n, cap;
	uint32_t *index;      /* open addressing: group index + 1, 0 = empty */
	size_t index_size;    /* a power of two, more than twice n */
	/* A part (summary_new_part): which starts a group keeps depends on those
	 * before them, so they are noted to be replayed after the earlier part's. */
	bool part;
	struct storm_note *notes;
	size_t n_notes, notes_cap;
	char host[96];        /* summary_set_host(): the host of every entry, "" for their _HOSTNAME */
};

struct summary *summary_new(enum summary_by by)
{
	struct summary *s = calloc(1, sizeof(*s));

	if (s)
		s->by = by;
	return s;
}

struct summary *summary_new_part(enum summary_by by)
{
	struct summary *s = summary_new(by);

	if (s)
		s->part = true;
	return s;
}

struct summary *summary_free(struct summary *s)
{
	if (s) {
		for (size_t i = 0; i < s->n_notes; i++)
			free(s->notes[i].start);
		free(s->notes);
		free(s->groups);
		free(s->index);
		free(s);
	}
	return NULL;
}

void summary_set_host(struct summary *s, const char *host)
{
	snprintf(s->host, sizeof(s->host), "%.*s", (int) sizeof(s->host) - 1, host ? host : "");
}

size_t summary_groups(const struct summary *s)
{
	return s->n;
}

static uint32_t hash_key(const char *k)
{
	uint32_t h = 2166136261u;   /* FNV-1a */

	for (; *k; k++)
		h = (h ^ (unsigned char) *k) * 16777619u;
	return h;
}

static int reindex(struct summary *s, size_t size)
{
	uint32_t *index = calloc(size, sizeof(*index));

	if (!index)
		return -ENOMEM;
	for (size_t g = 0; g < s->n; g++) {
		size_t i = hash_key(s->groups[g].key) & (size - 1);

		while (index[i])
			i = (i + 1) & (size - 1);
		index[i] = (uint32_t) g + 1;
	}
	free(s->index);
	s->index = index;
	s->index_size = size;
	return 0;
}

static struct group *group_of(struct summary *s, const char *key, const char *label)
{
	size_t i;

	if (s->n >= UINT32_MAX - 1)
		return NULL;
	if ((s->n + 1) * 2 >= s->index_size && reindex(s, s->index_size ? s->index_size * 2 : 64) < 0)
		return NULL;
	for (i = hash_key(key) & (s->index_size - 1); s->index[i]; i = (i + 1) & (s->index_size - 1))
		if (streq(s->groups[s->index[i] - 1].key, key))
			return &s->groups[s->index[i] - 1];
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 32;
		struct group *p = realloc(s->groups, cap * sizeof(*p));

		if (!p)
			return NULL;
		s->groups = p;
		s->cap = cap;
	}
	s->groups[s->n] = (struct group) {};
	snprintf(s->groups[s->n].key, sizeof(s->groups[s->n].key), "%s", key);
	snprintf(s->groups[s->n].label, sizeof(s->groups[s->n].label), "%s", label ? label : "");
	s->index[i] = (uint32_t) ++s->n;
	return &s->groups[s->n - 1];
}

/* An entry's fields, as the caller holds them (summary.h). */
struct entry {
	const struct summary_fields *f;
};

static const char *str_of(const struct entry *e, const char *key)
{
	return e->f->get(e->f->userdata, key);
}

/* A decimal number, or a hex string ("0x...") as records give registers. */
static bool u64_of(const struct entry *e, const char *key, uint64_t *ret)
{
	const char *t = str_of(e, key);

	if (!t || !t[0] || t[0] == '-')
		return false;
	return parse_unsigned(t, strlen(t), strncmp(t, "0x", 2) == 0 ? 16 : 10, UINT64_MAX, ret) >= 0;
}

static bool has_flag(const struct entry *e, const char *flag)
{
	char key[32];

	snprintf(key, sizeof(key), "flag:%s", flag);
	return str_of(e, key) != NULL;
}

enum kind { KIND_MCA, KIND_RAS, KIND_STORM };

/* Storm entries carry CPU (per-CPU banks), bank and code, nothing finer. */
#define NOT_ITEMISED "(in storms, not itemised)"

/*
 * A DRAM row: the DIMM (an EDAC label, else the location numbers the record
 * has), then bank group, bank and row.  A machine check calls its DRAM bank
 * "dram_bank" ("bank" is the MCA bank); EDAC and firmware records call it "bank".
 */
/*
 * A CXL memory device: its name, and its serial, which stays when the name
 * does not (memN is numbered at probe).  0 when the record names none.
 */
static size_t memdev_key(const struct entry *o, enum kind kind, char *key, size_t ksize)
{
	const char *t;
	uint64_t serial;
	int n;

	if (kind != KIND_RAS || !(t = str_of(o, "memdev")) || !t[0])
		return 0;
	if (u64_of(o, "serial", &serial))
		n = snprintf(key, ksize, "%s serial %" PRIu64, t, serial);
	else
		n = snprintf(key, ksize, "%s", t);
	return n < 0 ? 0 : (size_t) n < ksize ? (size_t) n : ksize - 1;
}

static void row_key(const struct entry *o, enum kind kind, char *key, size_t ksize)
{
	static const char *const dimm_parts[] = { "socket", "node", "memory_controller", "channel", "dimm", "module", "rank" };
	uint64_t row, bank, v;
	size_t at = 0;
	const char *t;

	if (!u64_of(o, "row", &row) || !u64_of(o, kind == KIND_MCA ? "dram_bank" : "bank", &bank))
		return;
	if (kind == KIND_RAS && (t = str_of(o, "label")) && edac_label_names_one_dimm(t))
		at = (size_t) snprintf(key, ksize, "%s", t);
	else {
		/* A CXL device is its own DIMM: its name first, then its channel and rank. */
		at = memdev_key(o, kind, key, ksize);
		for (size_t i = 0; i < ELEMENTSOF(dimm_parts) && at < ksize; i++)
			if (u64_of(o, dimm_parts[i], &v))
				at += (size_t) snprintf(key + at, ksize - at, "%s%s %" PRIu64, at ? " " : "", dimm_parts[i], v);
	}
	if (at < ksize && u64_of(o, "bank_group", &v))
		at += (size_t) snprintf(key + at, ksize - at, "%sbank_group %" PRIu64, at ? " " : "", v);
	if (at < ksize)
		snprintf(key + at, ksize - at, "%sbank %" PRIu64 " row 0x%" PRIx64, at ? " " : "", bank, row);
}

static void key_of(const struct summary *s, const struct entry *o, enum kind kind, char *key, size_t ksize,
		   char *label, size_t lsize)
{
	uint64_t a, b, c, d;
	const char *t;
	/* A ras storm (scope "ras") is named like the ras records it counts: by source, no CPU. */
	bool ras_storm = kind == KIND_STORM && (t = str_of(o, "scope")) && streq(t, "ras");

	char none[1];

	if (!label) {
		label = none;
		lsize = sizeof(none);
	}
	key[0] = label[0] = '\0';
	switch (s->by) {
	case SUMMARY_BY_HOST:
		snprintf(key, ksize, "%s", s->host[0] ? s->host : (t = str_of(o, "hostname")) ? t : "");
		break;
	case SUMMARY_BY_CPU:
		if (u64_of(o, "cpu", &a))
			snprintf(key, ksize, "cpu %" PRIu64, a);
		else if (kind == KIND_STORM && !ras_storm)
			snprintf(key, ksize, "(any CPU: a shared bank)");
		break;
	case SUMMARY_BY_BANK:
		if (kind == KIND_RAS || ras_storm)
			snprintf(key, ksize, "%s", (t = str_of(o, "source")) ? t : "");
		else if (u64_of(o, "bank", &a)) {
			snprintf(key, ksize, "bank %" PRIu64, a);
			if (lsize > 1 && (t = str_of(o, "bank_name")))
				snprintf(label, lsize, "%s", t);
		}
		break;
	case SUMMARY_BY_ERROR:
		if (kind == KIND_RAS || ras_storm) {
			snprintf(key, ksize, "%s", (t = str_of(o, "source")) ? t : "ras");
			/* A devlink health record by its reporter: the driver's messages vary from one to the next. */
			if ((t = str_of(o, "errors")) || (t = str_of(o, "error_type")) || (t = str_of(o, "page_type")) ||
			    (t = str_of(o, "reporter")))
				snprintf(key + strlen(key), ksize - strlen(key), ": %s", t);
		} else if (u64_of(o, kind == KIND_STORM ? "code" : "status", &a)) {
			/* Storms are signatures of the status's low half (MCACOD, MSCOD): so are these. */
			snprintf(key, ksize, "code 0x%08" PRIx64, a & UINT64_C(0xffffffff));
			if (lsize > 1 && (t = str_of(o, "description")))
				snprintf(label, lsize, "%s", t);
		}
		break;
	case SUMMARY_BY_SOCKET:
		if (kind == KIND_STORM)
			snprintf(key, ksize, NOT_ITEMISED);
		else if (u64_of(o, "dimm_socket", &a) || u64_of(o, "socket", &a))
			snprintf(key, ksize, "socket %" PRIu64, a);
		break;
	case SUMMARY_BY_CHANNEL:
		if (kind == KIND_STORM)
			snprintf(key, ksize, NOT_ITEMISED);
		else if (u64_of(o, "dimm_socket", &a) && u64_of(o, "dimm_mc", &b) && u64_of(o, "dimm_channel", &c))
			snprintf(key, ksize, "socket %" PRIu64 " mc %" PRIu64 " channel %" PRIu64, a, b, c);
		else if (kind == KIND_MCA && u64_of(o, "channel", &c))
			snprintf(key, ksize, "socket %" PRIu64 " channel %" PRIu64, u64_of(o, "socket", &a) ? a : 0, c);
		else if (kind == KIND_RAS && u64_of(o, "mc", &b) && u64_of(o, "top_layer", &c))
			snprintf(key, ksize, "mc %" PRIu64 " layer %" PRIu64, b, c);
		break;
	case SUMMARY_BY_DIMM:
		if (kind == KIND_STORM)
			snprintf(key, ksize, NOT_ITEMISED);
		else if (u64_of(o, "dimm_socket", &a) && u64_of(o, "dimm_mc", &b) && u64_of(o, "dimm_channel", &c) &&
			 u64_of(o, "dimm_slot", &d))
			snprintf(key, ksize, "socket %" PRIu64 " mc %" PRIu64 " channel %" PRIu64 " slot %" PRIu64,
				 a, b, c, d);
		else if (kind == KIND_MCA && u64_of(o, "channel", &c) && u64_of(o, "dimm", &d))
			snprintf(key, ksize, "socket %" PRIu64 " channel %" PRIu64 " dimm %" PRIu64,
				 u64_of(o, "socket", &a) ? a : 0, c, d);
		else if (kind == KIND_RAS && (t = str_of(o, "label")) && edac_label_names_one_dimm(t))
			snprintf(key, ksize, "%s", t);
		else if (memdev_key(o, kind, key, ksize) > 0)
			break;
		else if (kind == KIND_RAS && u64_of(o, "mc", &b) && u64_of(o, "top_layer", &c) &&
			 u64_of(o, "middle_layer", &d) && u64_of(o, "lower_layer", &a))
			snprintf(key, ksize, "mc %" PRIu64 " location %" PRIu64 ":%" PRIu64 ":%" PRIu64, b, c, d, a);
		break;
	case SUMMARY_BY_MEMDEV:
		if (kind == KIND_STORM)
			snprintf(key, ksize, NOT_ITEMISED);
		else
			memdev_key(o, kind, key, ksize);
		break;
	case SUMMARY_BY_ROW:
		if (kind == KIND_STORM)
			snprintf(key, ksize, NOT_ITEMISED);
		else
			row_key(o, kind, key, ksize);
		break;
	case SUMMARY_BY_PROCESS:
		/* The SIGBUS record's process, or the one a memory failure names as killed. */
		if (kind == KIND_RAS && ((t = str_of(o, "comm")) || (t = str_of(o, "killed_comm"))) && t[0]) {
			const char *unit = str_of(o, "unit") ?: str_of(o, "killed_unit");

			snprintf(key, ksize, "%s%s%s", t, unit && unit[0] ? " " : "", unit ? unit : "");
		}
		break;
	case SUMMARY_BY_DISK:
		/* By major:minor, which a disk storm's signature names too ("dev=8:0 error=-61"); the name as label. */
		if (kind == KIND_RAS && (t = str_of(o, "dev"))) {
			snprintf(key, ksize, "%s", t);
			if (lsize > 1 && (t = str_of(o, "disk")))
				snprintf(label, lsize, "%s", t);
		} else if (ras_storm && (t = str_of(o, "signature")) && strncmp(t, "dev=", 4) == 0)
			snprintf(key, ksize, "%.*s", (int) strcspn(t + 4, " "), t + 4);
		break;
	case SUMMARY_BY_PAGE:
		if (kind == KIND_STORM)
			snprintf(key, ksize, NOT_ITEMISED);
		/* The record's own verdict (an AMD UMC's address is no page) before its address. */
		else if ((t = str_of(o, "no_page")) && t[0])
			snprintf(key, ksize, "(no page: %s)", t);
		else if (kind == KIND_MCA && u64_of(o, "page", &a) && a < (UINT64_C(1) << 52))
			snprintf(key, ksize, "0x%" PRIx64, a << 12);
		/* Entries of a daemon that did not say: its address as it was taken then. */
		else if (kind == KIND_MCA && !str_of(o, "page") && has_flag(o, "ADDRV") && u64_of(o, "addr", &a))
			snprintf(key, ksize, "0x%" PRIx64, a & ~UINT64_C(0xfff));
		else if (kind == KIND_RAS && u64_of(o, "pfn", &a) && a < (UINT64_C(1) << 52))
			snprintf(key, ksize, "0x%" PRIx64, a << 12);
		else if (kind == KIND_RAS && u64_of(o, "address", &a) && a != 0)
			snprintf(key, ksize, "0x%" PRIx64, a & ~UINT64_C(0xfff));
		break;
	default:
		break;
	}
	if (!key[0])
		snprintf(key, ksize, "(unknown)");
}

static unsigned severity_column(const struct entry *o)
{
	const char *t = str_of(o, "severity");

	if (!t)
		return SEV_OTHER;
	if (streq(t, "corrected"))
		return SEV_CORRECTED;
	if (streq(t, "deferred") || streq(t, "uncorrected") || streq(t, "fatal"))
		return SEV_WORSE;
	return SEV_OTHER;
}

static void note_storm(struct group *g, const char *start)
{
	if (!start)
		return;
	for (unsigned i = 0; i < g->n_starts; i++)
		if (streq(g->starts[i], start))
			return;
	if (g->n_starts == STORM_STARTS_MAX) {
		g->storms_uncounted++;
		return;
	}
	snprintf(g->starts[g->n_starts++], sizeof(g->starts[0]), "%s", start);
}

static int note_part_storm(struct summary *s, struct group *g, const char *start)
{
	note_storm(g, start);
	if (!s->part || !start)
		return 0;
	if (s->n_notes == s->notes_cap) {
		size_t cap = s->notes_cap ? s->notes_cap * 2 : 16;
		struct storm_note *p = realloc(s->notes, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->notes = p;
		s->notes_cap = cap;
	}
	s->notes[s->n_notes].start = strdup(start);
	if (!s->notes[s->n_notes].start)
		return -ENOMEM;
	s->notes[s->n_notes++].group = (size_t) (g - s->groups);
	return 0;
}

int summary_merge(struct summary *s, const struct summary *later)
{
	/* Each of later's groups as if its entries had been added to s after s's own. */
	/* later's group i is s's group map[i]; indexes, as group_of may move the groups */
	size_t *map = calloc(later->n ? later->n : 1, sizeof(*map));

	if (!map)
		return -ENOMEM;
	for (size_t i = 0; i < later->n; i++) {
		const struct group *l = &later->groups[i];
		struct group *g = group_of(s, l->key, NULL);

		if (!g) {
			free(map);
			return -ENOMEM;
		}
		map[i] = (size_t) (g - s->groups);
		/* The label is asked at a group's first entry that could have one. */
		if (!g->label[0] && !g->no_label) {
			snprintf(g->label, sizeof(g->label), "%s", l->label);
			g->no_label = l->no_label;
		}
		g->count += l->count;
		for (unsigned k = 0; k < _SEV_MAX; k++)
			g->by_sev[k] += l->by_sev[k];
		if (l->first_usec && (!g->first_usec || l->first_usec < g->first_usec))
			g->first_usec = l->first_usec;
		if (l->last_usec > g->last_usec)
			g->last_usec = l->last_usec;
	}
	for (size_t i = 0; i < later->n_notes; i++) {
		struct group *g = &s->groups[map[later->notes[i].group]];

		if (note_part_storm(s, g, later->notes[i].start) < 0) {
			free(map);
			return -ENOMEM;
		}
	}
	free(map);
	return 0;
}

int summary_add_fields(struct summary *s, const struct summary_fields *fields, int64_t time_usec)
{
	const struct entry entry = { fields }, *o = &entry;
	const char *event = str_of(o, "event");
	enum kind kind = KIND_MCA;
	char key[96], label[96];
	uint64_t count = 1, n;
	struct group *g;

	if (event && (streq(event, "loss") || streq(event, "alert")))
		return 0;
	if (event && (streq(event, "storm_summary") || streq(event, "storm_end"))) {
		kind = KIND_STORM;
		/* An end adds no record: each is in a summary already. */
		count = streq(event, "storm_summary") && u64_of(o, "count", &n) ? n : 0;
	} else if (event) {
		kind = KIND_RAS;
		/* One EDAC event may stand for several errors. */
		if (u64_of(o, "error_count", &n) && n > 0)
			count = n;
	}
	key_of(s, o, kind, key, sizeof(key), NULL, 0);
	g = group_of(s, key, NULL);
	if (!g)
		return -ENOMEM;
	/* A label may need more of the entry than the key (a description): asked once a group. */
	if (!g->label[0] && !g->no_label) {
		key_of(s, o, kind, key, sizeof(key), label, sizeof(label));
		if (label[0])
			snprintf(g->label, sizeof(g->label), "%s", label);
		else
			g->no_label = kind != KIND_STORM;   /* a storm names no label; its records may */
	}
	if (kind == KIND_STORM && note_part_storm(s, g, str_of(o, "storm_start")) < 0)
		return -ENOMEM;
	if (count == 0)
		return 1;
	g->count += count;
	g->by_sev[kind == KIND_STORM ? SEV_CORRECTED : severity_column(o)] += count;
	if (!g->first_usec || time_usec < g->first_usec)
		g->first_usec = time_usec;
	if (time_usec > g->last_usec)
		g->last_usec = time_usec;
	return 1;
}

/* Fields of a JSON object: numbers as their text, flags as "flag:NAME". */
static const char *json_get(void *userdata, const char *key)
{
	json_object *o = userdata, *v;

	if (strncmp(key, "flag:", 5) == 0) {
		if (!json_object_object_get_ex(o, "flags", &v) || !json_object_is_type(v, json_type_array))
			return NULL;
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			const char *f = json_object_get_string(json_object_array_get_idx(v, i));

			if (f && streq(f, key + 5))
				return f;
		}
		return NULL;
	}
	if (!json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_string) || json_object_is_type(v, json_type_int)))
		return NULL;
	return json_object_get_string(v);
}

struct summary_fields summary_json_fields(json_object *entry)
{
	return (struct summary_fields) { .get = json_get, .userdata = entry };
}

int summary_add(struct summary *s, json_object *entry, int64_t time_usec)
{
	const struct summary_fields f = summary_json_fields(entry);

	if (!json_object_is_type(entry, json_type_object))
		return 0;
	return summary_add_fields(s, &f, time_usec);
}

static int cmp_groups(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->key, y->key);
}

static void sort_groups(struct summary *s)
{
	/* (No groups: no array, which qsort may not be given.) */
	if (s->n > 1)
		qsort(s->groups, s->n, sizeof(*s->groups), cmp_groups);
	/* The order changed: the index is rebuilt from it. */
	if (s->index_size)
		(void) reindex(s, s->index_size);
}

/* Records per hour over the window, or over the group's own span; < 0: no rate. */
static double per_hour(const struct group *g, int64_t start, int64_t end)
{
	int64_t span = start && end ? end - start : g->last_usec - g->first_usec;

	if (span <= 0)
		return -1;
	return (double) g->count * 3600e6 / (double) span;
}

static unsigned storms(const struct group *g)
{
	return g->n_starts + g->storms_uncounted;
}

static void time_text(int64_t usec, char *buf, size_t size)
{
	if (!usec || format_rfc3339_usec(buf, size, usec) < 0)
		snprintf(buf, size, "-");
	else if (strlen(buf) > 19)
		buf[19] = '\0';   /* to the second in the table */
}

void summary_print_table(struct summary *s, FILE *out, int64_t window_start, int64_t window_end)
{
	sort_groups(s);
	fprintf(out, "%-44s %8s %8s %8s %-19s %-19s %9s %6s\n", summary_by_to_string(s->by), "RECORDS",
		"CORR", "WORSE", "FIRST", "LAST", "PER HOUR", "STORMS");
	for (size_t i = 0; i < s->n; i++) {
		const struct group *g = &s->groups[i];
		char name[sizeof(g->key) + sizeof(g->label) + 4], first[40], last[40], rate[32];
		double r = per_hour(g, window_start, window_end);

		if (g->label[0])
			snprintf(name, sizeof(name), "%s (%s)", g->key, g->label);
		else
			snprintf(name, sizeof(name), "%s", g->key);
		time_text(g->first_usec, first, sizeof(first));
		time_text(g->last_usec, last, sizeof(last));
		if (r < 0)
			snprintf(rate, sizeof(rate), "-");
		else
			snprintf(rate, sizeof(rate), "%.2f", r);
		fprintf(out, "%-44.44s %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %-19s %-19s %9s %6u\n", name, g->count,
			g->by_sev[SEV_CORRECTED], g->by_sev[SEV_WORSE], first, last, rate, storms(g));
	}
}

/* RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
static void put_csv(FILE *out, const char *v)
{
	if (!strpbrk(v, ",\"\r\n")) {
		fputs(v, out);
		return;
	}
	fputc('"', out);
	for (; *v; v++) {
		if (*v == '"')
			fputc('"', out);
		fputc(*v, out);
	}
	fputc('"', out);
}

void summary_print_csv(struct summary *s, FILE *out, int64_t window_start, int64_t window_end)
{
	sort_groups(s);
	fprintf(out, "by,key,label,records,corrected,worse,other,first,last,per_hour,storms\n");
	for (size_t i = 0; i < s->n; i++) {
		const struct group *g = &s->groups[i];
		char first[40] = "", last[40] = "";
		double r = per_hour(g, window_start, window_end);

		if (g->first_usec && (format_rfc3339_usec(first, sizeof(first), g->first_usec) < 0 ||
				      format_rfc3339_usec(last, sizeof(last), g->last_usec) < 0))
			first[0] = last[0] = '\0';
		fprintf(out, "%s,", summary_by_to_string(s->by));
		put_csv(out, g->key);
		fputc(',', out);
		put_csv(out, g->label);
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s,%s,", g->count,
			g->by_sev[SEV_CORRECTED], g->by_sev[SEV_WORSE], g->by_sev[SEV_OTHER], first, last);
		if (r >= 0)
			fprintf(out, "%.3f", r);
		fprintf(out, ",%u\n", storms(g));
	}
}

static void put_json_string(FILE *out, const char *s)
{
	json_object *o = json_object_new_string(s);

	fputs(o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN) : "\"\"", out);
	json_object_put(o);
}

void summary_print_json(struct summary *s, FILE *out, int64_t window_start, int64_t window_end)
{
	sort_groups(s);
	for (size_t i = 0; i < s->n; i++) {
		const struct group *g = &s->groups[i];
		char first[40], last[40];
		double r = per_hour(g, window_start, window_end);

		fprintf(out, "{\"by\":\"%s\",\"key\":", summary_by_to_string(s->by));
		put_json_string(out, g->key);
		if (g->label[0]) {
			fputs(",\"label\":", out);
			put_json_string(out, g->label);
		}
		fprintf(out, ",\"records\":%" PRIu64 ",\"corrected\":%" PRIu64 ",\"worse\":%" PRIu64
			",\"other\":%" PRIu64, g->count, g->by_sev[SEV_CORRECTED], g->by_sev[SEV_WORSE],
			g->by_sev[SEV_OTHER]);
		if (g->first_usec && format_rfc3339_usec(first, sizeof(first), g->first_usec) >= 0 &&
		    format_rfc3339_usec(last, sizeof(last), g->last_usec) >= 0)
			fprintf(out, ",\"first\":\"%s\",\"last\":\"%s\"", first, last);
		if (r >= 0)
			fprintf(out, ",\"per_hour\":%.3f", r);
		fprintf(out, ",\"storms\":%u}\n", storms(g));
	}
}
