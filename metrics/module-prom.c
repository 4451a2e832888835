/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "module-ledger.h"
#include "module-prom.h"
#include "prom-text.h"

static const struct prom_metric families[] = {
	{ "mcelogd_module_errors_total", PROM_COUNTER,
	  "Memory errors of each module over its lifetime (kept across restarts and reboots), by severity" },
	{ "mcelogd_module_pages_retired", PROM_GAUGE,
	  "Memory pages (and DRAM rows) of each module retired from use over its lifetime" },
	{ "mcelogd_module_repairs_total", PROM_COUNTER,
	  "Memory repairs of each module over its lifetime, by outcome" },
	{ "mcelogd_module_verdict", PROM_GAUGE,
	  "1 for each module's current verdict (ok, watch, isolating, repair-exhausted, replace) and its reason" },
};

enum { ERRORS, PAGES, REPAIRS, VERDICT };

static bool has_repairs(const struct module_entry *m)
{
	return m->repairs[MODULE_REPAIR_DONE] + m->repairs[MODULE_REPAIR_REFUSED] + m->repairs[MODULE_REPAIR_FAILED] > 0;
}

static size_t series_of(const struct module_entry *m)
{
	return 2 + 1 + (has_repairs(m) ? _MODULE_REPAIR_MAX : 0) + 1;
}

static void labels(FILE *f, const char *name, const struct module_entry *m)
{
	fprintf(f, "%s{kind=\"%s\",slot=\"", name, module_kind_to_string(m->id.kind));
	prom_put_label_value(f, m->id.slot);
	fputs("\",serial=\"", f);
	prom_put_label_value(f, m->id.serial);
	fputc('"', f);
}

static void family(FILE *f, const struct module_ledger *l, const uint32_t *order, size_t n, unsigned which)
{
	const struct prom_metric *p = &families[which];

	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", p->name, p->help, p->name,
		p->type == PROM_COUNTER ? "counter" : "gauge");
	for (size_t i = 0; i < n; i++) {
		const struct module_entry *m = &l->e[order[i]];

		switch (which) {
		case ERRORS:
			labels(f, p->name, m);
			fprintf(f, ",severity=\"corrected\"} %" PRIu64 "\n", m->corrected);
			labels(f, p->name, m);
			fprintf(f, ",severity=\"uncorrected\"} %" PRIu64 "\n", m->uncorrected);
			break;
		case PAGES:
			labels(f, p->name, m);
			fprintf(f, "} %u\n", m->pages_retired);
			break;
		case REPAIRS:
			for (unsigned k = 0; has_repairs(m) && k < _MODULE_REPAIR_MAX; k++) {
				labels(f, p->name, m);
				fprintf(f, ",outcome=\"%s\"} %u\n", module_repair_to_string((enum module_repair) k),
					m->repairs[k]);
			}
			break;
		default:
			labels(f, p->name, m);
			fprintf(f, ",verdict=\"%s\",reason=\"", module_verdict_to_string(m->verdict));
			prom_put_label_value(f, m->reason);
			fputs("\"} 1\n", f);
			break;
		}
	}
}

int module_prom_format(const struct module_ledger *l, size_t max_series, char **ret, uint64_t *ret_dropped)
{
	uint32_t *order = l->n ? calloc(l->n, sizeof(*order)) : NULL;
	size_t shown = 0, used = 0, len = 0;
	uint64_t dropped = 0;
	char *text = NULL;
	FILE *f;
	bool failed;

	if (l->n && !order)
		return -ENOMEM;
	module_ledger_order(l, order);
	/* Worst first, each module whole: a bound cuts the healthy ones, never half a module. */
	for (size_t i = 0; i < l->n; i++) {
		size_t k = series_of(&l->e[order[i]]);

		if (used + k <= max_series && shown == i) {
			used += k;
			shown++;
		} else {
			dropped += k;
		}
	}
	f = open_memstream(&text, &len);
	if (!f) {
		free(order);
		return -ENOMEM;
	}
	for (unsigned w = 0; shown > 0 && w < sizeof(families) / sizeof(families[0]); w++)
		family(f, l, order, shown, w);
	failed = ferror(f) != 0;
	free(order);
	if (fclose(f) != 0 || failed) {
		free(text);
		return -ENOMEM;
	}
	*ret = text;
	*ret_dropped = dropped;
	return (int) len;
}
