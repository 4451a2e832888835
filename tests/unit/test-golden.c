/* SPDX-License-Identifier: MIT */
/*
 * The golden corpus: every tests/golden/NAME.golden.jsonl, one case per line:
 *
 *   {"name": "...", "cite": "where the expectation comes from",
 *    "record": {... input, as mce_record_parse_json() accepts ...},
 *    "expect": {... decoded keys ...}}
 *
 * or, for a record as it was published in one of the text forms, "text"
 * (its lines, joined with \n) instead of "record": it must read as exactly
 * one record, with no line rejected or skipped, and "expect" may name the
 * raw keys the form gives (cpu, bank, addr, dimm_channel, ...) too.
 *
 * Each record is parsed, decoded, rendered with mce_record_write_json(),
 * parsed back, and every key of "expect" compared with the output; an
 * expected null means the key must be absent.  One cmocka test per file;
 * every mismatch is reported with its file:line before the file fails.
 *
 * A real record we are known to get wrong carries "miss": "what goes
 * wrong", with "expect" still the right answer: it passes while it still
 * mismatches (or its text does not read as one record), and fails once it
 * decodes right, so that the marker goes when the bug does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "json-writer.h"
#include "record-json.h"
#include "record-text.h"

#define MAX_FILES 64

struct golden_file {
	char path[4096];
	const char *base;
};

struct text_case {
	struct mce_record rec;
	unsigned records;
	unsigned bad_lines;
	char why[320];
};

static int text_record(const struct mce_record *r, unsigned first, unsigned last, void *userdata)
{
	struct text_case *c = userdata;

	(void) first;
	(void) last;
	if (c->records++ == 0)
		c->rec = *r;
	return 0;
}

static void text_diag(enum mce_text_diag kind, unsigned line, const char *msg, void *userdata)
{
	struct text_case *c = userdata;

	if (kind == MCE_TEXT_PARTIAL)
		return;              /* a published record may lack the CPU identity */
	if (c->bad_lines++ == 0)
		snprintf(c->why, sizeof(c->why), "line %u: %s", line, msg);
}

/* The case's "text", through the text parser: exactly one record, every line read. */
static int record_from_text(const char *where, const char *name, const char *text,
			    bool report, struct mce_record *ret)
{
	static const struct mce_text_callbacks cb = { .record = text_record, .diagnostic = text_diag };
	struct text_case c = { .records = 0 };
	struct mce_text_parser *p = mce_text_parser_new(&cb, &c);

	assert_non_null(p);
	for (const char *l = text; *l; ) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t) (nl - l) : strlen(l);

		assert_int_equal(mce_text_parser_feed(p, l, n), 0);
		l += n + (nl ? 1 : 0);
	}
	assert_int_equal(mce_text_parser_finish(p), 0);
	mce_text_parser_free(p);
	if (c.bad_lines || c.records != 1) {
		if (report)
			print_error("%s (%s): text gives %u records, %u lines not read%s%s\n",
				    where, name, c.records, c.bad_lines,
				    c.bad_lines ? "; first: " : "", c.why);
		return -1;
	}
	*ret = c.rec;
	return 0;
}

/*
 * Compare one case; returns the number of mismatching keys (0: pass), <0 on
 * a malformed case.  A known miss reports nothing, and text that does not
 * read as one record counts as a mismatch for it.
 */
static int run_case(const char *where, struct json_object *tc, struct json_writer *w, bool miss)
{
	struct json_object *name, *cite, *record = NULL, *text = NULL, *expect, *out;
	struct mce_record rec;
	struct mce_decoded d;
	char err[256];
	const char *rec_text;
	int bad = 0;

	if (!json_object_is_type(tc, json_type_object) ||
	    !json_object_object_get_ex(tc, "name", &name) ||
	    !json_object_object_get_ex(tc, "cite", &cite) ||
	    !(json_object_object_get_ex(tc, "record", &record) ?
		      json_object_is_type(record, json_type_object) :
		      json_object_object_get_ex(tc, "text", &text) &&
			      json_object_is_type(text, json_type_string)) ||
	    !json_object_object_get_ex(tc, "expect", &expect) ||
	    !json_object_is_type(expect, json_type_object) ||
	    !json_object_is_type(cite, json_type_string) || json_object_get_string_len(cite) == 0) {
		print_error("%s: a case needs \"name\", a non-empty \"cite\", a \"record\" object "
			    "or a \"text\" string, and an \"expect\" object\n", where);
		return -1;
	}

	if (text) {
		if (record_from_text(where, json_object_get_string(name), json_object_get_string(text),
				     !miss, &rec) < 0)
			return miss ? 1 : -1;
	} else {
		rec_text = json_object_to_json_string_ext(record, JSON_C_TO_STRING_PLAIN);
		if (mce_record_parse_json(rec_text, strlen(rec_text), &rec, err, sizeof(err)) < 0) {
			print_error("%s (%s): record does not parse: %s\n", where,
				    json_object_get_string(name), err);
			return -1;
		}
	}
	mce_decode(&rec, &d);
	json_writer_reset(w);
	mce_record_write_json(&rec, &d, w);
	if (json_writer_failed(w))
		return -1;
	out = json_tokener_parse(json_writer_str(w));
	if (!out) {
		print_error("%s: our own output is not JSON: %s\n", where, json_writer_str(w));
		return -1;
	}

	json_object_object_foreach(expect, key, want) {
		struct json_object *got = NULL;
		bool present = json_object_object_get_ex(out, key, &got);

		if (!want) {
			if (present) {
				if (!miss)
					print_error("%s (%s): key \"%s\" should be absent, got %s\n",
						    where, json_object_get_string(name), key,
						    json_object_to_json_string(got));
				bad++;
			}
			continue;
		}
		if (!present || !json_object_equal(want, got)) {
			if (!miss)
				print_error("%s (%s): key \"%s\": want %s, got %s\n", where,
					    json_object_get_string(name), key,
					    json_object_to_json_string(want),
					    present ? json_object_to_json_string(got) : "(absent)");
			bad++;
		}
	}
	json_object_put(out);
	return bad;
}

static void test_golden_file(void **state)
{
	const struct golden_file *f = *state;
	struct json_writer w;
	FILE *in;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned lineno = 0, cases = 0, failed = 0, misses = 0;

	in = fopen(f->path, "re");
	if (!in)
		fail_msg("cannot open %s", f->path);
	json_writer_init(&w);
	while ((len = getline(&line, &cap, in)) >= 0) {
		struct json_tokener *tok;
		struct json_object *tc;
		char where[512];

		lineno++;
		if (strspn(line, " \t\r\n") == (size_t) len)
			continue;
		snprintf(where, sizeof(where), "%s:%u", f->base, lineno);
		tok = json_tokener_new();
		assert_non_null(tok);
		tc = json_tokener_parse_ex(tok, line, (int) len);
		if (!tc || json_tokener_get_error(tok) != json_tokener_success) {
			print_error("%s: not a JSON object\n", where);
			failed++;
		} else {
			struct json_object *why = NULL;
			bool miss = json_object_object_get_ex(tc, "miss", &why);
			int r;

			if (miss && (!json_object_is_type(why, json_type_string) ||
				     json_object_get_string_len(why) == 0)) {
				print_error("%s: \"miss\" must say what goes wrong\n", where);
				failed++;
			} else if ((r = run_case(where, tc, &w, miss)) < 0) {
				failed++;
			} else if (miss && r == 0) {
				print_error("%s: known miss now decodes as expected: "
					    "drop its \"miss\"\n", where);
				failed++;
			} else if (miss) {
				misses++;
			} else if (r != 0) {
				failed++;
			}
		}
		cases++;
		json_object_put(tc);
		json_tokener_free(tok);
	}
	free(line);
	fclose(in);
	json_writer_done(&w);

	print_message("# %s: %u cases, %u failed, %u known misses\n", f->base, cases, failed,
		      misses);
	assert_true(cases > 0);
	if (failed)
		fail_msg("%s: %u of %u cases failed", f->base, failed, cases);
}

static bool has_content(const char *path)
{
	FILE *f = fopen(path, "re");
	int c;
	bool any = false;

	if (!f)
		return true;   /* let the test report the open failure */
	while (!any && (c = fgetc(f)) != EOF)
		any = !strchr(" \t\r\n", c);
	fclose(f);
	return any;
}

int main(void)
{
	static struct golden_file files[MAX_FILES];
	static struct CMUnitTest tests[MAX_FILES];
	const char *top = getenv("top_srcdir");
	char pattern[4096];
	glob_t g;
	size_t n = 0;
	int r;

	if (!top)
		top = ".";
	snprintf(pattern, sizeof(pattern), "%s/tests/golden/*.golden.jsonl", top);
	r = glob(pattern, 0, NULL, &g);
	if (r != 0 || g.gl_pathc == 0) {
		fprintf(stderr, "no golden files match %s\n", pattern);
		printf("1..1\nnot ok 1 - golden corpus found\n");
		return 1;
	}
	for (size_t i = 0; i < g.gl_pathc && n < MAX_FILES; i++) {
		const char *slash;

		/* An empty file is a corpus being started by someone: mention it, don't fail. */
		if (!has_content(g.gl_pathv[i])) {
			printf("# %s: empty, not run\n", g.gl_pathv[i]);
			continue;
		}

		snprintf(files[n].path, sizeof(files[n].path), "%s", g.gl_pathv[i]);
		slash = strrchr(files[n].path, '/');
		files[n].base = slash ? slash + 1 : files[n].path;
		tests[n] = (struct CMUnitTest) {
			.name = files[n].base,
			.test_func = test_golden_file,
			.initial_state = &files[n],
		};
		n++;
	}
	globfree(&g);
	return _cmocka_run_group_tests("golden", tests, n, NULL, NULL);
}
