/* SPDX-License-Identifier: MIT */
#include "mce-dedup.h"

static bool same_error(const struct mce_dedup_key *a, const struct mce_dedup_key *b)
{
	return a->cpu == b->cpu && a->bank == b->bank && a->status == b->status && a->addr == b->addr &&
	       a->misc == b->misc && a->tsc == b->tsc;
}

bool mce_dedup_check(struct mce_dedup *d, const struct mce_record *rec)
{
	struct mce_dedup_key k = {
		.cpu = rec->cpu, .bank = rec->bank, .status = rec->status, .addr = rec->addr,
		.misc = rec->misc, .tsc = rec->tsc, .source = rec->source,
	};

	for (unsigned i = 0; i < d->used; i++) {
		struct mce_dedup_key *e = &d->ring[i];

		if (e->source != _MCE_SOURCE_MAX && e->source != k.source && same_error(e, &k)) {
			/* Each copy pairs once: a third copy is not hidden behind the first. */
			e->source = _MCE_SOURCE_MAX;
			return true;
		}
	}
	d->ring[d->next] = k;
	d->next = (d->next + 1) % MCE_DEDUP_SIZE;
	if (d->used < MCE_DEDUP_SIZE)
		d->used++;
	return false;
}
