/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Counters and gauges in Prometheus's text exposition format (version 0.0.4),
 * as node_exporter's textfile collector reads them: "# HELP", "# TYPE", then
 * one line per series, name{label="value",...} value.  Label values are
 * escaped (backslash, double quote, newline).  The number of series with
 * labels is bounded: past it, new ones are dropped and counted, never
 * silently.  Series without labels (one per family at most) always fit, so
 * the count of dropped series can always be exported.
 *
 * Pure: no I/O, no clock.
 */

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

enum prom_type { PROM_COUNTER, PROM_GAUGE };

struct prom_metric {
	const char *name;
	enum prom_type type;
	const char *help;
};

struct prom_registry;

/* metrics: the families, in the order they are printed (static storage). */
struct prom_registry *prom_registry_new(const struct prom_metric *metrics, size_t n_metrics, size_t max_series);
struct prom_registry *prom_registry_free(struct prom_registry *r);

/*
 * labels: name, value, name, value, ..., NULL; given in one fixed order per
 * family.  A family not registered is -ENOENT; a new series past the bound
 * is -E2BIG (and counted); -ENOMEM.
 */
int prom_add(struct prom_registry *r, const char *name, const char *const *labels, double delta);
int prom_set(struct prom_registry *r, const char *name, const char *const *labels, double value);

/* Series dropped because of the bound. */
uint64_t prom_dropped(const struct prom_registry *r);
size_t prom_series(const struct prom_registry *r);

/* A label value with the exposition format's escapes (backslash, double quote, newline). */
void prom_put_label_value(FILE *f, const char *v);

/* The exposition text; *ret is malloc'ed.  Returns its length or negative errno. */
int prom_format(const struct prom_registry *r, char **ret);
