/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prom-text.h"

struct series {
	size_t metric;        /* index into the families */
	char *labels;         /* rendered: name="value",...  ("" without labels) */
	double value;
};

struct prom_registry {
	const struct prom_metric *metrics;
	size_t n_metrics;
	struct series *series;
	size_t n, cap, max;
	size_t n_labelled;   /* the series the bound counts */
	uint64_t dropped;
};

struct prom_registry *prom_registry_new(const struct prom_metric *metrics, size_t n_metrics, size_t max_series)
{
	struct prom_registry *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->metrics = metrics;
	r->n_metrics = n_metrics;
	r->max = max_series;
	return r;
}

struct prom_registry *prom_registry_free(struct prom_registry *r)
{
	if (!r)
		return NULL;
	for (size_t i = 0; i < r->n; i++)
		free(r->series[i].labels);
	free(r->series);
	free(r);
	return NULL;
}

uint64_t prom_dropped(const struct prom_registry *r)
{
	return r->dropped;
}

size_t prom_series(const struct prom_registry *r)
{
	return r->n;
}

/* One byte of a label value as the exposition format wants it (\\, \" and \n): its 1 or 2 bytes. */
static size_t escape_label_byte(char c, char *out)
{
	char esc = c == '\\' ? '\\' : c == '"' ? '"' : c == '\n' ? 'n' : 0;

	if (!esc) {
		out[0] = c;
		return 1;
	}
	out[0] = '\\';
	out[1] = esc;
	return 2;
}

/* A label value escaped into out, or only counted where out is NULL: its length either way. */
static size_t escape_label_value(char *out, const char *v)
{
	char two[2];
	size_t n = 0;

	for (; *v; v++)
		n += escape_label_byte(*v, out ? out + n : two);
	return n;
}

/* Through a small buffer, flushed as it fills: no allocation, so nothing to fail but the stream. */
void prom_put_label_value(FILE *f, const char *v)
{
	char buf[256];
	size_t n = 0;

	for (; *v; v++) {
		if (n > sizeof(buf) - 2) {
			fwrite(buf, 1, n, f);
			n = 0;
		}
		n += escape_label_byte(*v, buf + n);
	}
	fwrite(buf, 1, n, f);
}

/*
 * The labels as one text, name="value" joined by commas.  Measured first and
 * written into one allocation: this runs at every metric update, on the
 * record path, where a memory stream (an 8 KiB zeroed buffer each time) was a
 * fifth of a replay's instructions.
 */
static char *render_labels(const char *const *labels)
{
	size_t need = 1, n = 0;
	char *text;

	for (size_t i = 0; labels && labels[i] && labels[i + 1]; i += 2)
		need += (i ? 1 : 0) + strlen(labels[i]) + 3 + escape_label_value(NULL, labels[i + 1]);
	text = malloc(need);
	if (!text)
		return NULL;
	for (size_t i = 0; labels && labels[i] && labels[i + 1]; i += 2) {
		size_t name_len = strlen(labels[i]);

		if (i)
			text[n++] = ',';
		memcpy(text + n, labels[i], name_len);
		n += name_len;
		text[n++] = '=';
		text[n++] = '"';
		n += escape_label_value(text + n, labels[i + 1]);
		text[n++] = '"';
	}
	text[n] = '\0';
	return text;
}

static int find_metric(const struct prom_registry *r, const char *name, size_t *ret)
{
	for (size_t i = 0; i < r->n_metrics; i++)
		if (strcmp(r->metrics[i].name, name) == 0) {
			*ret = i;
			return 0;
		}
	return -ENOENT;
}

static int series_of(struct prom_registry *r, const char *name, const char *const *labels, struct series **ret)
{
	size_t m;
	char *rendered;
	int k = find_metric(r, name, &m);

	if (k < 0)
		return k;
	rendered = render_labels(labels);
	if (!rendered)
		return -ENOMEM;
	for (size_t i = 0; i < r->n; i++)
		if (r->series[i].metric == m && strcmp(r->series[i].labels, rendered) == 0) {
			free(rendered);
			*ret = &r->series[i];
			return 0;
		}
	/*
	 * Only series with labels are bounded: their label values come from
	 * records.  A family has one series without labels, so those are few,
	 * and among them is the count of dropped series, which must always fit.
	 */
	if (labels && labels[0] && r->n_labelled >= r->max) {
		free(rendered);
		r->dropped++;
		return -E2BIG;
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 32;
		struct series *p = realloc(r->series, cap * sizeof(*p));

		if (!p) {
			free(rendered);
			return -ENOMEM;
		}
		r->series = p;
		r->cap = cap;
	}
	if (labels && labels[0])
		r->n_labelled++;
	r->series[r->n] = (struct series) { .metric = m, .labels = rendered };
	*ret = &r->series[r->n++];
	return 0;
}

int prom_add(struct prom_registry *r, const char *name, const char *const *labels, double delta)
{
	struct series *s;
	int k = series_of(r, name, labels, &s);

	if (k < 0)
		return k;
	s->value += delta;
	return 0;
}

int prom_set(struct prom_registry *r, const char *name, const char *const *labels, double value)
{
	struct series *s;
	int k = series_of(r, name, labels, &s);

	if (k < 0)
		return k;
	s->value = value;
	return 0;
}

static void put_value(FILE *f, double v)
{
	if (isnan(v))
		fputs("NaN", f);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", f);
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.17g", v);
}

int prom_format(const struct prom_registry *r, char **ret)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return -ENOMEM;
	for (size_t m = 0; m < r->n_metrics; m++) {
		bool any = false;

		for (size_t i = 0; i < r->n && !any; i++)
			any = r->series[i].metric == m;
		/* A family with no series yet says nothing: absent, not zero. */
		if (!any)
			continue;
		fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", r->metrics[m].name, r->metrics[m].help, r->metrics[m].name,
			r->metrics[m].type == PROM_COUNTER ? "counter" : "gauge");
		for (size_t i = 0; i < r->n; i++) {
			const struct series *s = &r->series[i];

			if (s->metric != m)
				continue;
			if (s->labels[0])
				fprintf(f, "%s{%s} ", r->metrics[m].name, s->labels);
			else
				fprintf(f, "%s ", r->metrics[m].name);
			put_value(f, s->value);
			fputc('\n', f);
		}
	}
	if (fclose(f) != 0) {
		free(text);
		return -ENOMEM;
	}
	if (len > INT32_MAX) {
		free(text);
		return -E2BIG;
	}
	*ret = text;
	return (int) len;
}
