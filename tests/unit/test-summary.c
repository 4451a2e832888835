/* SPDX-License-Identifier: MIT */
/*
 * mcectl summary's counting (mcectl/summary.c): records, EDAC events that
 * stand for several errors, and storm summaries fall in the right group for
 * each --by; storms are told apart by their start; loss reports and alerts
 * are not records; the largest group comes first; the rate is over the window.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "summary.h"

#define HOUR INT64_C(3600000000)
#define T0 INT64_C(1795000000000000)

static const char *const entries[] = {
	/* Two corrected errors on one Intel IMC bank, one DIMM (EDAC's location), one page. */
	"{\"cpu\":1,\"socket\":0,\"bank\":13,\"bank_name\":\"IMC 0\",\"hostname\":\"a\",\"status\":\"0x8c000040000800c0\","
	"\"addr\":\"0x0000000012345040\",\"flags\":[\"VAL\",\"ADDRV\"],\"severity\":\"corrected\",\"description\":\"Patrol scrub\","
	"\"dimm_socket\":0,\"dimm_mc\":1,\"dimm_channel\":2,\"dimm_slot\":0}",
	"{\"cpu\":1,\"socket\":0,\"bank\":13,\"bank_name\":\"IMC 0\",\"hostname\":\"a\",\"status\":\"0x8c000040000800c0\","
	"\"addr\":\"0x0000000012345f00\",\"flags\":[\"VAL\",\"ADDRV\"],\"severity\":\"corrected\",\"description\":\"Patrol scrub\","
	"\"dimm_socket\":0,\"dimm_mc\":1,\"dimm_channel\":2,\"dimm_slot\":0}",
	/* An uncorrected one elsewhere, without a valid address. */
	"{\"cpu\":3,\"socket\":1,\"bank\":4,\"hostname\":\"b\",\"status\":\"0xbd80000000100134\",\"addr\":\"0x00000000deadb000\","
	"\"flags\":[\"VAL\",\"UC\"],\"severity\":\"uncorrected\"}",
	/* A storm on bank 13 of CPU 1: two summaries of one storm (5 + 7), then its end. */
	"{\"event\":\"storm_summary\",\"severity\":\"corrected\",\"scope\":\"cpu\",\"cpu\":1,\"bank\":13,\"code\":\"0x000800c0\","
	"\"count\":5,\"hostname\":\"a\",\"storm_start\":\"2026-11-23T10:00:00.000000Z\"}",
	"{\"event\":\"storm_summary\",\"severity\":\"corrected\",\"scope\":\"cpu\",\"cpu\":1,\"bank\":13,\"code\":\"0x000800c0\","
	"\"count\":7,\"hostname\":\"a\",\"storm_start\":\"2026-11-23T10:00:00.000000Z\"}",
	"{\"event\":\"storm_end\",\"severity\":\"corrected\",\"scope\":\"cpu\",\"cpu\":1,\"bank\":13,\"code\":\"0x000800c0\","
	"\"total\":12,\"hostname\":\"a\",\"storm_start\":\"2026-11-23T10:00:00.000000Z\"}",
	/* An EDAC event standing for 3 errors on a labelled DIMM. */
	"{\"event\":\"memory_controller\",\"source\":\"ras:mc_event\",\"severity\":\"corrected\",\"hostname\":\"b\",\"error_count\":3,"
	"\"label\":\"DIMM_A1\",\"mc\":0,\"top_layer\":1,\"middle_layer\":0,\"lower_layer\":0,\"address\":\"0x0000000012345000\"}",
	/* Not records. */
	"{\"event\":\"loss\",\"source\":\"tracepoint\",\"cpu\":0,\"lost\":74}",
	"{\"event\":\"alert\",\"rule\":\"x\",\"count\":10}",
};

/* Feeds every entry one hour apart and returns the JSON lines for `by`. */
static char *summarise_as(const char *by, const char *host, int64_t start, int64_t end)
{
	struct summary *s = summary_new(summary_by_from_string(by));
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int counted = 0;

	assert_non_null(s);
	assert_non_null(f);
	summary_set_host(s, host);
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++) {
		json_object *o = json_tokener_parse(entries[i]);

		assert_non_null(o);
		counted += summary_add(s, o, T0 + (int64_t) i * HOUR);
		json_object_put(o);
	}
	assert_int_equal(counted, 7);   /* 9 entries, a loss and an alert left out */
	summary_print_json(s, f, start, end);
	fclose(f);
	summary_free(s);
	return text;
}

static char *summarise(const char *by, int64_t start, int64_t end)
{
	return summarise_as(by, NULL, start, end);
}

/* The n-th line (0-based) of text, in a static buffer. */
static const char *line(const char *text, unsigned n)
{
	static char buf[1024];
	const char *p = text;

	for (; n > 0 && p; n--)
		p = (p = strchr(p, '\n')) ? p + 1 : NULL;
	assert_non_null(p);
	snprintf(buf, sizeof(buf), "%.*s", (int) strcspn(p, "\n"), p);
	return buf;
}

static unsigned lines(const char *text)
{
	unsigned n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

static void test_by_bank(void **state)
{
	char *t = summarise("bank", 0, 0);
	(void) state;

	/* 2 records + 12 in the storm's summaries; one storm, however many summaries. */
	assert_int_equal(lines(t), 3);
	assert_string_equal(line(t, 0), "{\"by\":\"bank\",\"key\":\"bank 13\",\"label\":\"IMC 0\",\"records\":14,"
			    "\"corrected\":14,\"worse\":0,\"other\":0,\"first\":\"2026-11-18T11:06:40.000000Z\","
			    "\"last\":\"2026-11-18T15:06:40.000000Z\",\"per_hour\":3.500,\"storms\":1}");
	assert_non_null(strstr(line(t, 1), "\"key\":\"ras:mc_event\",\"records\":3,\"corrected\":3"));
	assert_non_null(strstr(line(t, 2), "\"key\":\"bank 4\",\"records\":1,\"corrected\":0,\"worse\":1"));
	free(t);
}

static void test_by_dimm_and_page(void **state)
{
	char *t = summarise("dimm", 0, 0);
	(void) state;

	/* Storms name no DIMM: their count stands apart rather than vanish. */
	assert_non_null(strstr(line(t, 0), "\"key\":\"(in storms, not itemised)\",\"records\":12"));
	assert_non_null(strstr(line(t, 1), "\"key\":\"DIMM_A1\",\"records\":3"));
	assert_non_null(strstr(line(t, 2), "\"key\":\"socket 0 mc 1 channel 2 slot 0\",\"records\":2"));
	assert_non_null(strstr(line(t, 3), "\"key\":\"(unknown)\",\"records\":1"));
	free(t);

	t = summarise("page", 0, 0);
	/* Both IMC records fall in page 0x12345000, and so does the EDAC event; no ADDRV: unknown. */
	assert_non_null(strstr(line(t, 0), "\"key\":\"(in storms, not itemised)\""));
	assert_non_null(strstr(line(t, 1), "\"key\":\"0x12345000\",\"records\":5"));
	assert_non_null(strstr(line(t, 2), "\"key\":\"(unknown)\",\"records\":1"));
	free(t);
}

static void test_by_error_cpu_host(void **state)
{
	char *t = summarise("error", 0, 0);
	(void) state;

	/* The records and the storm share one signature: the status's low half. */
	assert_non_null(strstr(line(t, 0), "\"key\":\"code 0x000800c0\",\"label\":\"Patrol scrub\",\"records\":14"));
	free(t);
	t = summarise("cpu", 0, 0);
	/* No label for a CPU: the key says it all. */
	assert_null(strstr(line(t, 0), "\"label\""));
	assert_non_null(strstr(line(t, 0), "\"key\":\"cpu 1\",\"records\":14"));
	free(t);
	t = summarise("host", 0, 0);
	assert_non_null(strstr(line(t, 0), "\"key\":\"a\",\"records\":14"));
	assert_non_null(strstr(line(t, 1), "\"key\":\"b\",\"records\":4,\"corrected\":3,\"worse\":1"));
	free(t);
	/* A collector's sender: every entry is its, whatever hostname the entries claim. */
	t = summarise_as("host", "node-a", 0, 0);
	assert_non_null(strstr(line(t, 0), "\"key\":\"node-a\",\"records\":18"));
	assert_null(strstr(t, "\"key\":\"a\""));
	free(t);
}

static void test_rate_over_window(void **state)
{
	/* 14 records of bank 13 over a 7-hour window: 2 per hour. */
	char *t = summarise("bank", T0, T0 + 7 * HOUR);
	(void) state;

	assert_non_null(strstr(line(t, 0), "\"per_hour\":2.000,"));
	free(t);
}

/* A ras storm counts with the ras records of its source, not under a bank or a CPU it does not have. */
static void test_ras_storm(void **state)
{
	static const char *const ras[] = {
		"{\"event\":\"memory_controller\",\"source\":\"ras:mc_event\",\"severity\":\"corrected\","
		"\"hostname\":\"b\",\"error_count\":3,\"label\":\"DIMM_A1\",\"mc\":0,\"top_layer\":1}",
		"{\"event\":\"storm_summary\",\"severity\":\"corrected\",\"scope\":\"ras\",\"ras_event\":"
		"\"memory_controller\",\"source\":\"ras:mc_event\",\"signature\":\"mc=0 top_layer=1 label=DIMM_A1\","
		"\"count\":40,\"hostname\":\"b\",\"storm_start\":\"2026-11-23T11:00:00.000000Z\"}",
		"{\"event\":\"storm_end\",\"severity\":\"corrected\",\"scope\":\"ras\",\"ras_event\":"
		"\"memory_controller\",\"source\":\"ras:mc_event\",\"signature\":\"mc=0 top_layer=1 label=DIMM_A1\","
		"\"total\":40,\"hostname\":\"b\",\"storm_start\":\"2026-11-23T11:00:00.000000Z\"}",
	};
	static const struct {
		const char *by, *want;
	} cases[] = {
		{ "bank",  "\"key\":\"ras:mc_event\",\"records\":43,\"corrected\":43" },
		{ "error", "\"key\":\"ras:mc_event\",\"records\":43," },
		{ "cpu",   "\"key\":\"(unknown)\",\"records\":43," },
	};
	(void) state;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct summary *s = summary_new(summary_by_from_string(cases[c].by));
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		assert_non_null(s);
		for (size_t i = 0; i < sizeof(ras) / sizeof(ras[0]); i++) {
			json_object *o = json_tokener_parse(ras[i]);

			summary_add(s, o, T0 + (int64_t) i * HOUR);
			json_object_put(o);
		}
		summary_print_json(s, f, 0, 0);
		fclose(f);
		if (!strstr(text, cases[c].want))
			fail_msg("--by %s: want %s in\n%s", cases[c].by, cases[c].want, text);
		if (strcmp(cases[c].by, "bank") == 0)
			assert_non_null(strstr(text, "\"storms\":1}"));
		free(text);
		summary_free(s);
	}
}

/*
 * By DRAM row: an Ice Lake-SP machine check whose MISC names its cell (its
 * DRAM bank is "dram_bank"), an EDAC event whose driver_detail named the same
 * kind of cell under a label, one in another row, and a record without a cell.
 */
/* Each entry, an hour apart and each counted, summarised by BY as JSON lines. */
static char *summarise_each(const char *by, const char *const *lines_in, size_t n)
{
	struct summary *s = summary_new(summary_by_from_string(by));
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(s);
	assert_non_null(f);
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_tokener_parse(lines_in[i]);

		assert_non_null(o);
		assert_int_equal(summary_add(s, o, T0 + (int64_t) i * HOUR), 1);
		json_object_put(o);
	}
	summary_print_json(s, f, 0, 0);
	fclose(f);
	summary_free(s);
	return text;
}

static void test_by_row(void **state)
{
	static const char *const rows[] = {
		"{\"cpu\":0,\"socket\":0,\"bank\":25,\"status\":\"0x8c00000000800090\",\"severity\":\"corrected\","
		"\"channel\":0,\"dimm\":0,\"rank\":1,\"bank_group\":2,\"dram_bank\":0,\"row\":15105,\"column\":896}",
		"{\"cpu\":0,\"socket\":0,\"bank\":25,\"status\":\"0x8c00000000800090\",\"severity\":\"corrected\","
		"\"channel\":0,\"dimm\":0,\"rank\":1,\"bank_group\":2,\"dram_bank\":0,\"row\":15105,\"column\":64}",
		"{\"event\":\"memory_controller\",\"source\":\"ras:mc_event\",\"severity\":\"corrected\",\"error_count\":1,"
		"\"label\":\"CPU_SrcID#0_MC#3_Chan#0_DIMM#0\",\"mc\":3,\"socket\":0,\"bank_group\":2,\"bank\":0,\"row\":15105}",
		"{\"event\":\"memory_controller\",\"source\":\"ras:mc_event\",\"severity\":\"corrected\",\"error_count\":1,"
		"\"label\":\"CPU_SrcID#0_MC#3_Chan#0_DIMM#0\",\"mc\":3,\"bank_group\":1,\"bank\":0,\"row\":15105}",
		"{\"cpu\":3,\"socket\":1,\"bank\":4,\"status\":\"0xbd80000000100134\",\"severity\":\"uncorrected\"}",
	};
	char *text;

	(void) state;
	text = summarise_each("row", rows, sizeof(rows) / sizeof(rows[0]));
	assert_int_equal(lines(text), 4);
	assert_non_null(strstr(line(text, 0), "\"key\":\"socket 0 channel 0 dimm 0 rank 1 bank_group 2 bank 0 row 0x3b01\",\"records\":2"));
	assert_non_null(strstr(text, "\"key\":\"CPU_SrcID#0_MC#3_Chan#0_DIMM#0 bank_group 2 bank 0 row 0x3b01\",\"records\":1"));
	assert_non_null(strstr(text, "\"key\":\"CPU_SrcID#0_MC#3_Chan#0_DIMM#0 bank_group 1 bank 0 row 0x3b01\",\"records\":1"));
	assert_non_null(strstr(text, "\"key\":\"(unknown)\",\"records\":1"));
	free(text);
}

/*
 * ghes_edac's "unknown memory" (lib/edac-label.h) names no DIMM: --by row
 * keeps two modules' rows with the same numbers apart, and --by dimm does
 * not put every such record under one "DIMM".
 */
static void test_placeholder_label(void **state)
{
	static const char *const ghes[] = {
		"{\"event\":\"memory_controller\",\"source\":\"ras:mc_event\",\"severity\":\"corrected\","
		"\"label\":\"unknown memory\",\"mc\":0,\"socket\":0,\"card\":0,\"dimm\":1,\"rank\":0,"
		"\"bank_group\":1,\"bank\":2,\"row\":4660}",
		"{\"event\":\"memory_controller\",\"source\":\"ras:mc_event\",\"severity\":\"corrected\","
		"\"label\":\"unknown memory\",\"mc\":0,\"socket\":0,\"card\":0,\"dimm\":5,\"rank\":0,"
		"\"bank_group\":1,\"bank\":2,\"row\":4660}",
	};
	char *text;

	(void) state;
	text = summarise_each("row", ghes, 2);
	assert_non_null(strstr(text, "\"key\":\"socket 0 dimm 1 rank 0 bank_group 1 bank 2 row 0x1234\",\"records\":1"));
	assert_non_null(strstr(text, "\"key\":\"socket 0 dimm 5 rank 0 bank_group 1 bank 2 row 0x1234\",\"records\":1"));
	free(text);
	text = summarise_each("dimm", ghes, 2);
	assert_null(strstr(text, "unknown memory"));
	free(text);
}

/*
 * CXL records: --by memdev counts each device by name and serial; --by dimm
 * takes the device as the DIMM; --by row puts the device before its channel
 * and rank, so that two devices' rows with the same numbers stay apart.
 */
static void test_by_memdev(void **state)
{
	static const char *const cxl[] = {
		"{\"event\":\"cxl_dram\",\"source\":\"cxl:cxl_dram\",\"severity\":\"corrected\",\"memdev\":\"mem0\","
		"\"serial\":4660,\"channel\":2,\"rank\":0,\"bank_group\":1,\"bank\":3,\"row\":1234,\"column\":56}",
		"{\"event\":\"cxl_dram\",\"source\":\"cxl:cxl_dram\",\"severity\":\"corrected\",\"memdev\":\"mem0\","
		"\"serial\":4660,\"channel\":2,\"rank\":0,\"bank_group\":1,\"bank\":3,\"row\":1234,\"column\":57}",
		"{\"event\":\"cxl_dram\",\"source\":\"cxl:cxl_dram\",\"severity\":\"corrected\",\"memdev\":\"mem1\","
		"\"serial\":4661,\"channel\":2,\"rank\":0,\"bank_group\":1,\"bank\":3,\"row\":1234,\"column\":56}",
		"{\"event\":\"cxl_memory_module\",\"source\":\"cxl:cxl_memory_module\",\"severity\":\"uncorrected\","
		"\"memdev\":\"mem1\"}",
		"{\"cpu\":3,\"socket\":1,\"bank\":4,\"status\":\"0xbd80000000100134\",\"severity\":\"uncorrected\"}",
	};
	static const struct { const char *by; const char *const keys[4]; } want[] = {
		{ "memdev", { "\"key\":\"mem0 serial 4660\",\"records\":2", "\"key\":\"mem1 serial 4661\",\"records\":1",
			      "\"key\":\"mem1\",\"records\":1", "\"key\":\"(unknown)\",\"records\":1" } },
		{ "dimm", { "\"key\":\"mem0 serial 4660\",\"records\":2", "\"key\":\"mem1 serial 4661\",\"records\":1",
			    "\"key\":\"mem1\",\"records\":1", NULL } },
		{ "row", { "\"key\":\"mem0 serial 4660 channel 2 rank 0 bank_group 1 bank 3 row 0x4d2\",\"records\":2",
			   "\"key\":\"mem1 serial 4661 channel 2 rank 0 bank_group 1 bank 3 row 0x4d2\",\"records\":1",
			   "\"key\":\"(unknown)\",\"records\":2", NULL } },
	};

	(void) state;
	assert_int_equal(summary_by_from_string("memdev"), SUMMARY_BY_MEMDEV);
	for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
		char *text = summarise_each(want[w].by, cxl, sizeof(cxl) / sizeof(cxl[0]));

		for (size_t k = 0; k < 4 && want[w].keys[k]; k++)
			if (!strstr(text, want[w].keys[k]))
				fail_msg("--by %s: no %s in\n%s", want[w].by, want[w].keys[k], text);
		free(text);
	}
}

static void test_names(void **state)
{
	(void) state;
	assert_int_equal(summary_by_from_string("dimm"), SUMMARY_BY_DIMM);
	assert_int_equal(summary_by_from_string("host"), SUMMARY_BY_HOST);
	assert_int_equal(summary_by_from_string("DIMM"), _SUMMARY_BY_INVALID);
	assert_int_equal(summary_by_from_string(""), _SUMMARY_BY_INVALID);
	assert_int_equal(summary_by_from_string(NULL), _SUMMARY_BY_INVALID);
	assert_string_equal(summary_by_to_string(SUMMARY_BY_PAGE), "page");
	assert_int_equal(summary_by_from_string("row"), SUMMARY_BY_ROW);
}

static void test_many_groups(void **state)
{
	struct summary *s = summary_new(SUMMARY_BY_PAGE);
	char json[256];
	(void) state;

	/* 20,000 distinct pages and each seen twice: the index grows, nothing is merged or lost. */
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < 20000; i++) {
			json_object *o;

			snprintf(json, sizeof(json), "{\"addr\":\"0x%x\",\"flags\":[\"ADDRV\"],\"severity\":\"corrected\"}",
				 i << 12);
			o = json_tokener_parse(json);
			assert_int_equal(summary_add(s, o, T0 + i), 1);
			json_object_put(o);
		}
	assert_int_equal(summary_groups(s), 20000);
	summary_free(s);
}

/* The entries of the split test: entries[], then storms and labels that depend on what came before. */
static json_object *split_entry(size_t i)
{
	char json[512];
	size_t n = sizeof(entries) / sizeof(entries[0]);

	if (i < n)
		return json_tokener_parse(entries[i]);
	i -= n;
	if (i == 0)   /* bank 5's first record has no name: the group keeps none */
		return json_tokener_parse("{\"cpu\":2,\"bank\":5,\"severity\":\"corrected\",\"status\":\"0x8c00004000000005\"}");
	if (i == 1)
		return json_tokener_parse("{\"cpu\":2,\"bank\":5,\"bank_name\":\"late\",\"severity\":\"fatal\"}");
	if (i == 2)   /* bank 6: a storm first (no label), then a named record */
		return json_tokener_parse("{\"event\":\"storm_summary\",\"scope\":\"cpu\",\"cpu\":2,\"bank\":6,"
					  "\"code\":\"0x6\",\"count\":2,\"storm_start\":\"s6\"}");
	if (i == 3)
		return json_tokener_parse("{\"cpu\":2,\"bank\":6,\"bank_name\":\"six\",\"severity\":\"corrected\"}");
	i -= 4;
	/* 40 storm starts on one bank, each twice and out of order: past the 32 a group tells apart. */
	snprintf(json, sizeof(json), "{\"event\":\"%s\",\"scope\":\"cpu\",\"cpu\":1,\"bank\":13,"
		 "\"code\":\"0x000800c0\",\"count\":%zu,\"storm_start\":\"start %zu\"}",
		 i % 5 == 4 ? "storm_end" : "storm_summary", i % 3 + 1, (i * 7) % 40);
	return json_tokener_parse(json);
}

#define SPLIT_ENTRIES (sizeof(entries) / sizeof(entries[0]) + 4 + 80)

static char *print_all(struct summary *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	summary_print_json(s, f, 0, 0);
	summary_print_table(s, f, 0, 0);
	summary_print_csv(s, f, T0, T0 + 100 * HOUR);
	fclose(f);
	return text;
}

/* Two parts merged say exactly what one summary of all the entries says, wherever the split. */
static void test_merge_split(void **state)
{
	(void) state;

	for (int by = 0; by < _SUMMARY_BY_MAX; by++) {
		struct summary *whole = summary_new((enum summary_by) by);
		char *want;

		assert_non_null(whole);
		for (size_t i = 0; i < SPLIT_ENTRIES; i++) {
			json_object *o = split_entry(i);

			assert_non_null(o);
			assert_true(summary_add(whole, o, T0 + (int64_t) i * HOUR) >= 0);
			json_object_put(o);
		}
		want = print_all(whole);
		/* The check below would pass on nothing: the storms' cap must have been reached. */
		assert_non_null(strstr(want, by == SUMMARY_BY_BANK ? "\"storms\":" : ""));
		for (size_t split = 0; split <= SPLIT_ENTRIES; split++) {
			struct summary *first = summary_new((enum summary_by) by);
			struct summary *second = summary_new_part((enum summary_by) by);
			char *got;

			assert_non_null(first);
			assert_non_null(second);
			for (size_t i = 0; i < SPLIT_ENTRIES; i++) {
				json_object *o = split_entry(i);

				summary_add(i < split ? first : second, o, T0 + (int64_t) i * HOUR);
				json_object_put(o);
			}
			assert_int_equal(summary_merge(first, second), 0);
			got = print_all(first);
			if (strcmp(got, want) != 0)
				fail_msg("--by %s, split at %zu:\n%s\nwant\n%s", summary_by_to_string((enum summary_by) by),
					 split, got, want);
			free(got);
			summary_free(first);
			summary_free(second);
		}
		free(want);
		summary_free(whole);
	}
}

/* The storms past the cap and the labels are what a split can get wrong: the test must see them. */
static void test_merge_sees_cap(void **state)
{
	struct summary *s = summary_new(SUMMARY_BY_BANK);
	char *text;
	(void) state;

	for (size_t i = 0; i < SPLIT_ENTRIES; i++) {
		json_object *o = split_entry(i);

		summary_add(s, o, T0 + (int64_t) i * HOUR);
		json_object_put(o);
	}
	text = print_all(s);
	/* 32 told apart, then every later summary or end of an unseen start counted once more */
	if (!strstr(text, "\"key\":\"bank 13\",\"label\":\"IMC 0\"") || !strstr(text, "\"key\":\"bank 5\",\"records\":2") ||
	    !strstr(text, "\"key\":\"bank 6\",\"label\":\"six\""))
		fail_msg("%s", text);
	{
		const char *b13 = strstr(text, "\"key\":\"bank 13\"");
		unsigned storms = 0;

		assert_non_null(b13);
		assert_int_equal(sscanf(strstr(b13, "\"storms\":"), "\"storms\":%u", &storms), 1);
		assert_true(storms > 32);
	}
	free(text);
	summary_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_bank),
		cmocka_unit_test(test_by_dimm_and_page),
		cmocka_unit_test(test_by_error_cpu_host),
		cmocka_unit_test(test_rate_over_window),
		cmocka_unit_test(test_ras_storm),
		cmocka_unit_test(test_by_row),
		cmocka_unit_test(test_by_memdev),
		cmocka_unit_test(test_placeholder_label),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_many_groups),
		cmocka_unit_test(test_merge_split),
		cmocka_unit_test(test_merge_sees_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
