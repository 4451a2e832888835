/* SPDX-License-Identifier: MIT */
#include <stddef.h>

#include "decode.h"
#include "error-pair.h"
#include "macro.h"
#include "ras-record.h"
#include "rule-field.h"

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

/* A memory error that may have a second copy: a memory bank's machine check, or an EDAC event. */
static bool probe_of(const struct rule_input *in, uint64_t time_usec, struct error_pair_probe *ret)
{
	struct rule_value v;

	if (in->ras ? in->ras->event != RAS_EVENT_MEMORY_CONTROLLER :
	    !rule_field_get(in, RULE_FIELD_COMPONENT, &v) || !streq(v.s, "memory"))
		return false;
	*ret = (struct error_pair_probe) {
		.is_mce = in->mce != NULL,
		/* The ras scale is the MCA one plus "info" (ras-record.h). */
		.severity = in->ras ? (int) in->ras->severity : (int) in->decoded->severity,
		.time_usec = time_usec,
	};
	ret->has_page = rule_field_get(in, RULE_FIELD_PAGE, &v);
	ret->page = ret->has_page ? v.u : 0;
	return true;
}

uint64_t error_pair_input(struct error_pair *p, struct rule_input *in, uint64_t time_usec, bool *ret_paired)
{
	struct error_pair_probe x;

	*ret_paired = false;
	in->error_id = probe_of(in, time_usec, &x) ? error_pair_feed(p, &x, ret_paired) : 0;
	return in->error_id;
}
