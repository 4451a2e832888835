/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "macro.h"
#include "memory-kill.h"
#include "ras-record.h"

static bool near(int64_t a, int64_t b)
{
	return (a > b ? a - b : b - a) < MEMORY_KILL_WINDOW_USEC;
}

static void copy_text(const struct ras_record *r, const char *key, char *buf, size_t size)
{
	const struct ras_field *f = ras_record_find(r, key);

	snprintf(buf, size, "%s", f && f->type == RAS_FIELD_STRING ? f->data : "");
}

/* "; SIGBUS to comm[pid] of unit" after the memory failure's own summary. */
static void append_kill(struct ras_record *r, const struct memory_kill *k)
{
	size_t at = strlen(r->summary);

	if (at + 1 >= sizeof(r->summary))
		return;
	snprintf(r->summary + at, sizeof(r->summary) - at, "; SIGBUS to %s[%" PRId64 "]%s%s",
		 k->comm[0] ? k->comm : "?", k->pid, k->unit[0] ? " of " : "", k->unit);
}

static bool note_sigbus(struct memory_kill_join *j, struct ras_record *rec)
{
	const struct ras_field *pid = ras_record_find(rec, "pid");
	const struct ras_field *code = ras_record_find(rec, "code");
	struct memory_kill *k = &j->kills[j->next_kill];
	const struct memory_failure_seen *f = NULL;

	/* Only a memory error's SIGBUS: its code was named (signal-trace.c). */
	if (!code || code->type != RAS_FIELD_STRING)
		return false;
	for (unsigned i = 0; i < MEMORY_KILL_KEPT; i++) {
		const struct memory_failure_seen *s = &j->failures[i];

		if (s->valid && near(s->time_usec, rec->time_usec) && (!f || s->time_usec > f->time_usec))
			f = s;
	}
	*k = (struct memory_kill) { .time_usec = rec->time_usec, .pid = pid ? pid->i : -1, .joined = f != NULL };
	copy_text(rec, "comm", k->comm, sizeof(k->comm));
	copy_text(rec, "unit", k->unit, sizeof(k->unit));
	copy_text(rec, "code", k->code, sizeof(k->code));
	j->next_kill = (j->next_kill + 1) % MEMORY_KILL_KEPT;
	if (j->n_kills < MEMORY_KILL_KEPT)
		j->n_kills++;
	if (!f)
		return false;
	(void) ras_record_add_hex(rec, "pfn", f->pfn);
	return true;
}

static bool note_failure(struct memory_kill_join *j, struct ras_record *rec)
{
	const struct ras_field *pfn = ras_record_find(rec, "pfn");
	struct memory_kill *first = NULL;
	uint64_t n = 0;

	if (!pfn)
		return false;
	j->failures[j->next_failure] = (struct memory_failure_seen) {
		.time_usec = rec->time_usec, .pfn = pfn->u, .valid = true,
	};
	j->next_failure = (j->next_failure + 1) % MEMORY_KILL_KEPT;
	/* Oldest first: the order the kernel signalled them in. */
	for (unsigned i = 0; i < j->n_kills; i++) {
		struct memory_kill *k = &j->kills[(j->next_kill + MEMORY_KILL_KEPT - j->n_kills + i) % MEMORY_KILL_KEPT];

		if (k->joined || !near(k->time_usec, rec->time_usec))
			continue;
		k->joined = true;
		if (!first)
			first = k;
		n++;
	}
	if (!first)
		return false;
	if (first->comm[0])
		(void) ras_record_add_string(rec, "killed_comm", first->comm, SIZE_MAX);
	(void) ras_record_add_int(rec, "killed_pid", first->pid);
	if (first->unit[0])
		(void) ras_record_add_string(rec, "killed_unit", first->unit, SIZE_MAX);
	if (first->code[0])
		(void) ras_record_add_string(rec, "killed_code", first->code, SIZE_MAX);
	if (n > 1)
		(void) ras_record_add_uint(rec, "kills", n);
	append_kill(rec, first);
	return true;
}

bool memory_kill_join_note(struct memory_kill_join *j, struct ras_record *rec)
{
	if (!rec->have_time)
		return false;
	if (rec->event == RAS_EVENT_SIGBUS)
		return note_sigbus(j, rec);
	if (rec->event == RAS_EVENT_MEMORY_FAILURE)
		return note_failure(j, rec);
	return false;
}
