/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include "macro.h"
#include "module-feed.h"
#include "module-record.h"
#include "rule-field.h"

/*
 * The second copy of one error: counted only when the first counted nothing,
 * or when the first was a machine check and this EDAC copy names another
 * module: the error moves to it.
 */
static bool take_over(struct module_ledger *l, struct module_feed *f, const struct rule_input *in,
		      const struct module_id *id, module_changed_fn changed, void *userdata)
{
	struct module_change c;

	for (unsigned i = 0; i < MODULE_RECENT; i++) {
		struct module_recent *p = &f->recent[i];

		if (p->error_id != in->error_id)
			continue;
		if (!p->from_mce || !in->ras || streq(p->key, id->key))
			return false;
		if (module_ledger_uncount(l, p->key, p->severity, &c) > 0 && changed)
			changed(&c, userdata);
		p->error_id = 0;
		return true;
	}
	return true;
}

int module_feed_record(struct module_ledger *l, struct module_feed *f, const struct module_host *h,
		       const struct rule_input *in, int64_t time_usec, bool paired, module_changed_fn changed,
		       void *userdata)
{
	struct module_record mr;
	struct module_change c;
	int r;

	module_record_of(in, time_usec, h, &mr);
	if (mr.kind == MODULE_RECORD_NONE)
		return 0;
	if (mr.kind == MODULE_RECORD_SPARES)
		r = module_ledger_spares(l, &mr.id, mr.spares_left, &c);
	else if (paired && !take_over(l, f, in, &mr.id, changed, userdata))
		return 0;
	else
		r = module_ledger_error(l, &mr.id, &mr.error, &c);
	if (r < 0)
		return r;
	if (r > 0 && changed)
		changed(&c, userdata);
	if (mr.kind == MODULE_RECORD_ERROR && in->error_id) {
		struct module_recent *n = &f->recent[f->next++ % MODULE_RECENT];

		*n = (struct module_recent) { .error_id = in->error_id, .from_mce = in->mce != NULL,
					      .severity = mr.error.severity };
		memcpy(n->key, mr.id.key, sizeof(n->key));
	}
	return 1;
}
