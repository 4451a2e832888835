/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the rules' state file (rules/rule-state.c), which the
 * daemon reads back at start from a disk that a crash, a full file system or
 * an admin's editor may have left in any shape.  A refused file leaves
 * nothing behind and says why; an accepted one formats to text that parses
 * to the same state and formats to the same bytes again.  Each input is also
 * tried "sealed": cut after its last newline and given the end line it
 * lacks, so that the fuzzer reaches past the checksum to the items.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rule-state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_state(const struct rule_state *a, const struct rule_state *b)
{
	if (a->n_buckets != b->n_buckets || a->n_pages != b->n_pages || a->n_alerts != b->n_alerts ||
	    a->n_rows != b->n_rows)
		abort();
	for (unsigned i = 0; i < a->n_rows; i++) {
		const struct rule_state_row *x = &a->rows[i], *y = &b->rows[i];

		if (strcmp(x->rule, y->rule) != 0 || strcmp(x->key, y->key) != 0 ||
		    x->isolated_usec != y->isolated_usec || x->last_usec != y->last_usec ||
		    x->n_pages != y->n_pages || memcmp(x->pages, y->pages, x->n_pages * sizeof(x->pages[0])) != 0)
			abort();
	}
	for (unsigned i = 0; i < a->n_buckets; i++) {
		const struct rule_state_bucket *x = a->buckets[i], *y = b->buckets[i];

		if (strcmp(x->rule, y->rule) != 0 || strcmp(x->key, y->key) != 0 ||
		    x->holdoff_until != y->holdoff_until || x->n_times != y->n_times ||
		    memcmp(x->times, y->times, x->n_times * sizeof(x->times[0])) != 0)
			abort();
	}
	for (unsigned i = 0; i < a->n_pages; i++)
		if (a->pages[i].pfn != b->pages[i].pfn || a->pages[i].hard != b->pages[i].hard ||
		    a->pages[i].ok != b->pages[i].ok || a->pages[i].time_usec != b->pages[i].time_usec)
			abort();
	for (unsigned i = 0; i < a->n_alerts; i++)
		if (a->alerts[i].time_usec != b->alerts[i].time_usec ||
		    strcmp(a->alerts[i].rule, b->alerts[i].rule) != 0 ||
		    strcmp(a->alerts[i].key, b->alerts[i].key) != 0)
			abort();
}

/* s formats, and its text reads back into again as the same state (the text kept in *text). */
static void reads_back(const struct rule_state *s, struct rule_state *again, char **text, size_t *len)
{
	char why[256];
	unsigned line;

	if (rule_state_format(s, text, len) < 0 || strlen(*text) != *len)
		abort();
	if (rule_state_parse(*text, *len, again, why, sizeof(why), &line) < 0)
		abort();
	same_state(s, again);
}

static void check(const char *data, size_t size)
{
	struct rule_state s, again;
	char *text = NULL, *text2 = NULL;
	size_t len = 0, len2 = 0;
	char why[256];
	unsigned line = 12345;
	int r;

	r = rule_state_parse(data, size, &s, why, sizeof(why), &line);
	if (r < 0) {
		if (r != -EINVAL || !why[0] || s.n_buckets || s.n_pages || s.n_alerts || s.n_rows || s.buckets ||
		    s.pages || s.alerts || s.rows)
			abort();
		return;
	}
	if (line != 0 || s.n_alerts > RULE_STATE_MAX_ALERTS || s.n_pages > RULE_STATE_MAX_PAGES)
		abort();
	reads_back(&s, &again, &text, &len);
	if (rule_state_format(&again, &text2, &len2) < 0 || len2 != len || memcmp(text, text2, len) != 0)
		abort();
	free(text);
	free(text2);
	rule_state_done(&s);
	rule_state_done(&again);
}

/*
 * The same bytes as a journal (rule-state.h) over an empty state: applied,
 * cut at its end, or refused at a line with a reason; never anything else,
 * and what was applied still formats and reads back.
 */
static void check_journal(const char *data, size_t size)
{
	struct rule_state s = { 0 }, again;
	char why[256], *text = NULL;
	unsigned line = 12345;
	size_t len = 0;
	int r;

	why[0] = '\0';
	r = rule_state_apply_journal(&s, data, size, NULL, why, sizeof(why), &line);
	if (r == -ENOMEM) {
		rule_state_done(&s);
		return;
	}
	if ((r == 0 && line != 0) || (r != 0 && (line == 0 || !why[0])) ||
	    (r != 0 && r != RULE_JOURNAL_CUT && r != -EINVAL))
		abort();
	if (s.n_alerts > RULE_STATE_MAX_ALERTS || s.n_pages > RULE_STATE_MAX_PAGES || s.n_rows > RULE_STATE_MAX_ROWS)
		abort();
	reads_back(&s, &again, &text, &len);
	free(text);
	rule_state_done(&s);
	rule_state_done(&again);
}

/* FNV-1a, 64 bits: the checksum rule-state.h names for the end line. */
static uint64_t fnv1a64(const char *p, size_t n)
{
	uint64_t h = UINT64_C(14695981039346656037);

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char) p[i];
		h *= UINT64_C(1099511628211);
	}
	return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *) data;
	size_t body = size, lines = 0;
	char *sealed;
	int n;

	check(text, size);
	check_journal(text, size);

	while (body > 0 && text[body - 1] != '\n')
		body--;
	for (size_t i = 0; i < body; i++)
		lines += text[i] == '\n';
	sealed = malloc(body + 64);
	if (!sealed)
		return 0;
	memcpy(sealed, text, body);
	n = snprintf(sealed + body, 64, "end\t%zu\t%016llx\n", lines,
		     (unsigned long long) fnv1a64(text, body));
	check(sealed, body + (size_t) n);
	free(sealed);
	return 0;
}
