/* SPDX-License-Identifier: MIT */
#include <stddef.h>

#include "error-pair.h"

static uint64_t distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* A record of the other kind and the same error class, close enough in time. */
static bool may_pair(const struct error_pair_seen *s, const struct error_pair_probe *x)
{
	return !s->paired && s->probe.is_mce != x->is_mce && s->probe.severity == x->severity &&
	       distance(s->probe.time_usec, x->time_usec) <= ERROR_PAIR_WINDOW_USEC;
}

/*
 * The partner: the most recent candidate naming the same page, else the most
 * recent one where either side names no page.  Two pages that differ are two
 * errors.
 */
static struct error_pair_seen *find_partner(struct error_pair *p, const struct error_pair_probe *x)
{
	struct error_pair_seen *loose = NULL;

	for (unsigned k = 1; k <= p->used; k++) {
		struct error_pair_seen *s = &p->recent[(p->next + ERROR_PAIR_RECENT - k) % ERROR_PAIR_RECENT];

		if (!may_pair(s, x))
			continue;
		if (s->probe.has_page && x->has_page) {
			if (s->probe.page == x->page)
				return s;
		} else if (!loose)
			loose = s;
	}
	return loose;
}

uint64_t error_pair_feed(struct error_pair *p, const struct error_pair_probe *x, bool *ret_paired)
{
	struct error_pair_seen *partner = find_partner(p, x);
	struct error_pair_seen *slot;
	uint64_t id;

	if (partner) {
		partner->paired = true;
		*ret_paired = true;
		return partner->id;
	}
	id = p->last_id + 1 > x->time_usec ? p->last_id + 1 : x->time_usec;
	p->last_id = id;
	slot = &p->recent[p->next];
	*slot = (struct error_pair_seen) { .probe = *x, .id = id };
	p->next = (p->next + 1) % ERROR_PAIR_RECENT;
	if (p->used < ERROR_PAIR_RECENT)
		p->used++;
	*ret_paired = false;
	return id;
}
