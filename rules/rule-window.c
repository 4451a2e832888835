/* SPDX-License-Identifier: MIT */
#include "rule-window.h"

/* Drops the records that are T or more before now: they are no longer "within T". */
static void expire(struct rule_window *w, unsigned count, uint64_t window_usec, uint64_t now_usec)
{
	while (w->n > 0 && now_usec - w->times[w->head] >= window_usec) {
		w->head = (w->head + 1) % count;
		w->n--;
	}
}

bool rule_window_add(struct rule_window *w, unsigned count, uint64_t window_usec,
		     uint64_t now_usec, uint64_t *ret_first_usec)
{
	if (now_usec < w->last_usec && w->last_usec - now_usec > window_usec) {
		/* More than T back: the newest time was wrong (ahead) or this one is; no record
		 * counted can share a window with this one, so it starts afresh. */
		w->n = 0;
		w->head = 0;
	} else if (now_usec < w->last_usec)
		now_usec = w->last_usec;
	w->last_usec = now_usec;
	expire(w, count, window_usec, now_usec);
	w->times[(w->head + w->n) % count] = now_usec;
	w->n++;
	if (w->n < count)
		return false;
	if (ret_first_usec)
		*ret_first_usec = w->times[w->head];
	w->n = 0;
	w->head = 0;
	return true;
}

unsigned rule_window_level(const struct rule_window *w, unsigned count, uint64_t window_usec,
			   uint64_t now_usec)
{
	unsigned level = w->n;

	if (now_usec < w->last_usec)
		now_usec = w->last_usec;
	for (unsigned i = 0; i < w->n; i++)
		if (now_usec - w->times[(w->head + i) % count] >= window_usec)
			level--;
	return level;
}
