/* SPDX-License-Identifier: MIT */
/*
 * Prometheus's text exposition format (metrics/prom-text.c): families in
 * their order with HELP and TYPE, series with escaped label values, integral
 * counts without an exponent, unknown families refused, and the series bound
 * counted rather than silent.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "prom-text.h"

static const struct prom_metric families[] = {
	{ "t_records_total", PROM_COUNTER, "Records" },
	{ "t_empty_total", PROM_COUNTER, "Never counted" },
	{ "t_last_seconds", PROM_GAUGE, "Last" },
};

static void test_format(void **state)
{
	struct prom_registry *r = prom_registry_new(families, 3, 16);
	const char *a[] = { "severity", "corrected", "bank_type", "IMC", NULL };
	const char *b[] = { "severity", "fatal", "bank_type", "say \"hi\"\\\nbye", NULL };
	char *text = NULL;
	(void) state;

	assert_non_null(r);
	assert_int_equal(prom_add(r, "t_records_total", a, 1), 0);
	assert_int_equal(prom_add(r, "t_records_total", a, 2), 0);
	assert_int_equal(prom_add(r, "t_records_total", b, 1), 0);
	assert_int_equal(prom_set(r, "t_last_seconds", NULL, 1795000000.25), 0);
	assert_int_equal(prom_add(r, "t_unknown_total", a, 1), -ENOENT);
	assert_true(prom_format(r, &text) > 0);
	assert_string_equal(text,
		"# HELP t_records_total Records\n"
		"# TYPE t_records_total counter\n"
		"t_records_total{severity=\"corrected\",bank_type=\"IMC\"} 3\n"
		"t_records_total{severity=\"fatal\",bank_type=\"say \\\"hi\\\"\\\\\\nbye\"} 1\n"
		"# HELP t_last_seconds Last\n"
		"# TYPE t_last_seconds gauge\n"
		"t_last_seconds 1795000000.25\n");
	free(text);
	prom_registry_free(r);
}

static void test_bound(void **state)
{
	struct prom_registry *r = prom_registry_new(families, 3, 2);
	const char *x[] = { "k", "1", NULL }, *y[] = { "k", "2", NULL }, *z[] = { "k", "3", NULL };
	(void) state;

	assert_int_equal(prom_add(r, "t_records_total", x, 1), 0);
	assert_int_equal(prom_add(r, "t_records_total", y, 1), 0);
	assert_int_equal(prom_add(r, "t_records_total", z, 1), -E2BIG);
	assert_int_equal(prom_add(r, "t_records_total", z, 1), -E2BIG);
	/* An existing series still counts. */
	assert_int_equal(prom_add(r, "t_records_total", x, 1), 0);
	assert_int_equal(prom_series(r), 2);
	assert_int_equal(prom_dropped(r), 2);
	prom_registry_free(r);
}

/* A full registry still takes a series without labels: the count of dropped ones must show. */
static void test_bound_spares_unlabelled(void **state)
{
	struct prom_registry *r = prom_registry_new(families, 3, 1);
	const char *x[] = { "k", "1", NULL }, *y[] = { "k", "2", NULL };
	char *text = NULL;
	(void) state;

	assert_int_equal(prom_add(r, "t_records_total", x, 1), 0);
	assert_int_equal(prom_add(r, "t_records_total", y, 1), -E2BIG);
	assert_int_equal(prom_set(r, "t_last_seconds", NULL, (double) prom_dropped(r)), 0);
	assert_int_equal(prom_add(r, "t_empty_total", NULL, 1), 0);
	assert_int_equal(prom_dropped(r), 1);
	assert_true(prom_format(r, &text) > 0);
	assert_non_null(strstr(text, "\nt_last_seconds 1\n"));
	assert_non_null(strstr(text, "\nt_empty_total 1\n"));
	free(text);
	prom_registry_free(r);
}

/* A value longer than the writer's buffer, every byte escaped: flushed whole, no byte lost or split. */
static void test_long_label_value(void **state)
{
	char value[301], *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void) state;
	assert_non_null(f);
	memset(value, '"', 300);
	value[300] = '\0';
	value[150] = '\n';
	prom_put_label_value(f, value);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(len, 600);
	for (size_t i = 0; i < 600; i += 2) {
		assert_int_equal(text[i], '\\');
		assert_int_equal(text[i + 1], i == 300 ? 'n' : '"');
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_bound_spares_unlabelled),
		cmocka_unit_test(test_long_label_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
