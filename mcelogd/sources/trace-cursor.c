/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cursor-file.h"
#include "macro.h"
#include "parse-number.h"
#include "trace-cursor.h"

void mce_identity_from_record(const struct mce_record *r, struct mce_identity *ret)
{
	/* Unknown fields count as 0 on both sides: both parsers fill the same set. */
	*ret = (struct mce_identity) {
		.cpu = (r->have & MCE_HAVE_CPU) ? r->cpu : 0,
		.bank = (r->have & MCE_HAVE_BANK) ? r->bank : 0,
		.status = (r->have & MCE_HAVE_STATUS) ? r->status : 0,
		.addr = (r->have & MCE_HAVE_ADDR) ? r->addr : 0,
		.misc = (r->have & MCE_HAVE_MISC) ? r->misc : 0,
		.tsc = (r->have & MCE_HAVE_TSC) ? r->tsc : 0,
		.time_usec = (r->have & MCE_HAVE_TIME) ? r->time_usec : 0,
	};
}

bool mce_identity_equal(const struct mce_identity *a, const struct mce_identity *b)
{
	return a->cpu == b->cpu && a->bank == b->bank && a->status == b->status &&
	       a->addr == b->addr && a->misc == b->misc && a->tsc == b->tsc &&
	       a->time_usec == b->time_usec;
}

#define CMP(x, y) ((x) < (y) ? -1 : (x) > (y) ? 1 : 0)

int mce_identity_compare(const struct mce_identity *a, const struct mce_identity *b)
{
	/* TSC first: it almost always decides. */
	int c = CMP(a->tsc, b->tsc);

	if (!c) c = CMP(a->cpu, b->cpu);
	if (!c) c = CMP(a->bank, b->bank);
	if (!c) c = CMP(a->status, b->status);
	if (!c) c = CMP(a->addr, b->addr);
	if (!c) c = CMP(a->misc, b->misc);
	if (!c) c = CMP(a->time_usec, b->time_usec);
	return c;
}

void trace_cursor_init(struct trace_cursor *c, const char *boot_id)
{
	*c = (struct trace_cursor) {};
	if (boot_id)
		snprintf(c->boot_id, sizeof(c->boot_id), "%s", boot_id);
}

void trace_cursor_done(struct trace_cursor *c)
{
	free(c->cpus);
	c->cpus = NULL;
	c->n_cpus = 0;
}

static int set_last(struct trace_cursor *c, unsigned ring_cpu, const struct mce_identity *id)
{
	if (ring_cpu >= TRACE_CURSOR_MAX_CPUS)
		return -ERANGE;
	if (ring_cpu >= c->n_cpus) {
		unsigned n = ring_cpu + 1;
		struct trace_cursor_cpu *p = realloc(c->cpus, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		memset(p + c->n_cpus, 0, (n - c->n_cpus) * sizeof(*p));
		c->cpus = p;
		c->n_cpus = n;
	}
	c->cpus[ring_cpu].set = true;
	c->cpus[ring_cpu].last = *id;
	return 0;
}

int trace_cursor_note(struct trace_cursor *c, unsigned ring_cpu, const struct mce_record *r)
{
	struct mce_identity id;

	mce_identity_from_record(r, &id);
	return set_last(c, ring_cpu, &id);
}

int trace_cursor_note_identity(struct trace_cursor *c, unsigned ring_cpu, const struct mce_identity *id)
{
	return set_last(c, ring_cpu, id);
}

const struct mce_identity *trace_cursor_get(const struct trace_cursor *c, unsigned ring_cpu)
{
	if (ring_cpu >= c->n_cpus || !c->cpus[ring_cpu].set)
		return NULL;
	return &c->cpus[ring_cpu].last;
}

/*
 * Format, one item per line, so that a future field is a new key:
 *	boot_id <32 hex>
 *	ring <N> cpu <N> bank <N> status <hex> addr <hex> misc <hex> tsc <hex> time <usec>
 */
int trace_cursor_format(const struct trace_cursor *c, char **ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return -ENOMEM;
	fprintf(f, "boot_id %s\n", c->boot_id);
	for (unsigned i = 0; i < c->n_cpus; i++) {
		const struct mce_identity *id = &c->cpus[i].last;

		if (!c->cpus[i].set)
			continue;
		fprintf(f, "ring %u cpu %" PRIu32 " bank %" PRIu32 " status %" PRIx64 " addr %" PRIx64
			" misc %" PRIx64 " tsc %" PRIx64 " time %" PRId64 "\n", i, id->cpu, id->bank,
			id->status, id->addr, id->misc, id->tsc, id->time_usec);
	}
	if (fclose(f) != 0 || !buf) {
		free(buf);
		return -ENOMEM;
	}
	*ret = buf;
	return (int) len;
}

static int parse_ring_line(const char *p, const char *end, void *userdata)
{
	static const struct cursor_key keys[] = {
		{ "ring", 10 }, { "cpu", 10 }, { "bank", 10 }, { "status", 16 }, { "addr", 16 },
		{ "misc", 16 }, { "tsc", 16 }, { "time", 10 },
	};
	uint64_t v[ELEMENTSOF(keys)];
	struct mce_identity id;

	if (cursor_line_values(p, end, keys, ELEMENTSOF(keys), v) < 0)
		return -EBADMSG;
	if (v[0] >= TRACE_CURSOR_MAX_CPUS || v[1] > UINT32_MAX || v[2] > UINT32_MAX ||
	    v[7] > INT64_MAX)
		return -EBADMSG;
	id = (struct mce_identity) {
		.cpu = (uint32_t) v[1], .bank = (uint32_t) v[2], .status = v[3], .addr = v[4],
		.misc = v[5], .tsc = v[6], .time_usec = (int64_t) v[7],
	};
	return set_last(userdata, (unsigned) v[0], &id);
}

int trace_cursor_parse(const char *text, size_t len, struct trace_cursor *c, unsigned *bad_line)
{
	int r = cursor_file_parse(text, len, c->boot_id, parse_ring_line, c, bad_line);

	if (r < 0) {
		trace_cursor_done(c);
		trace_cursor_init(c, NULL);
		return r == -ENOMEM ? r : -EBADMSG;
	}
	return 0;
}

int trace_line_split(const char *line, size_t len, unsigned *ring_cpu, size_t *event_offset)
{
	const char *ev, *open, *close;
	static const char marker[] = " mce_record:";
	uint64_t cpu;

	if (len == 0 || line[0] == '#')
		return -ENOENT;
	ev = memmem(line, len, marker, sizeof(marker) - 1);
	if (!ev)
		return -ENOENT;
	/* The ring CPU is the last "[digits]" before the event name: a task name
	 * (first on the line) may itself contain brackets and digits. */
	for (close = ev; close > line; close--) {
		if (*close != ']')
			continue;
		for (open = close - 1; open >= line && *open >= '0' && *open <= '9'; open--)
			;
		if (open >= line && *open == '[' && close - open > 1 &&
		    parse_unsigned(open + 1, (size_t) (close - open - 1), 10, TRACE_CURSOR_MAX_CPUS - 1,
				   &cpu) == 0) {
			*ring_cpu = (unsigned) cpu;
			*event_offset = (size_t) (ev + 1 - line);
			return 0;
		}
	}
	return -EBADMSG;
}

size_t trace_cursor_resume_index(const struct mce_identity *last, const struct mce_identity *ids,
				 size_t n, bool *found)
{
	*found = false;
	if (!last)
		return 0;
	for (size_t i = n; i > 0; i--)
		if (mce_identity_equal(last, &ids[i - 1])) {
			*found = true;
			return i;
		}
	return 0;
}
