/* SPDX-License-Identifier: MIT */
/* The record contract's JSON form: writer, reader, round trip, RFC 3339 times. */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "json-writer.h"
#include "record-json.h"
#include "rfc3339.h"

static void test_roundtrip_full(void **state)
{
	struct mce_record in = {
		.have = MCE_HAVE_TIME | MCE_HAVE_CPU | MCE_HAVE_SOCKET | MCE_HAVE_APICID | MCE_HAVE_BANK |
			MCE_HAVE_CPUID | MCE_HAVE_MICROCODE | MCE_HAVE_PPIN | MCE_HAVE_MCGCAP |
			MCE_HAVE_MCGSTATUS | MCE_HAVE_STATUS | MCE_HAVE_ADDR | MCE_HAVE_MISC |
			MCE_HAVE_SYND | MCE_HAVE_IPID | MCE_HAVE_IP | MCE_HAVE_TSC | MCE_HAVE_CS |
			MCE_HAVE_VENDOR | MCE_HAVE_BANK_NAME,
		.time_usec = 1795219758291691LL, .source = MCE_SOURCE_TRACEPOINT,
		.hostname = "node-17", .boot_id = "aaf50ec7f5824edf9b3508436dfbbff7",
		.cpu = 127, .socket = 1, .apicid = 0xfe, .bank = 22, .vendor = MCE_VENDOR_AMD,
		.family = 0x19, .model = 0x11, .stepping = 1, .microcode = 0xa0011d1,
		.ppin = 0xffffffffffffffffull, .mcgcap = 0x117, .mcgstatus = 0,
		/* values above 2^53 are exactly what JSON numbers would corrupt */
		.status = 0xdc2040000400011bull, .addr = 0x0020000000000001ull, .misc = 0xd01a000601000000ull,
		.synd = 0x000000005a020001ull, .ipid = 0x0000009600050f00ull, .ip = 0xffffffff81000000ull,
		.tsc = 0x1ddbf37a52d71ull, .cs = 0x10, .bank_name = "Power, Interrupts, etc.",
	};
	struct mce_record out;
	struct json_writer w;
	char err[256] = "";

	(void) state;
	json_writer_init(&w);
	mce_record_write_json(&in, NULL, &w);
	assert_false(json_writer_failed(&w));
	assert_non_null(strstr(json_writer_str(&w), "\"status\":\"0xdc2040000400011b\""));
	assert_non_null(strstr(json_writer_str(&w), "\"time\":\"2026-11-21T00:09:18.291691Z\""));
	assert_int_equal(mce_record_parse_json(json_writer_str(&w), strlen(json_writer_str(&w)), &out,
					       err, sizeof(err)), 0);
	assert_int_equal(out.have, in.have);
	assert_int_equal(out.time_usec, in.time_usec);
	assert_int_equal(out.source, in.source);
	assert_string_equal(out.hostname, in.hostname);
	assert_string_equal(out.boot_id, in.boot_id);
	assert_int_equal(out.cpu, in.cpu);
	assert_int_equal(out.socket, in.socket);
	assert_int_equal(out.apicid, in.apicid);
	assert_int_equal(out.bank, in.bank);
	assert_int_equal(out.vendor, in.vendor);
	assert_int_equal(out.family, in.family);
	assert_int_equal(out.model, in.model);
	assert_int_equal(out.stepping, in.stepping);
	assert_int_equal(out.microcode, in.microcode);
	assert_int_equal(out.ppin, in.ppin);
	assert_int_equal(out.mcgcap, in.mcgcap);
	assert_int_equal(out.status, in.status);
	assert_int_equal(out.addr, in.addr);
	assert_int_equal(out.misc, in.misc);
	assert_int_equal(out.synd, in.synd);
	assert_int_equal(out.ipid, in.ipid);
	assert_int_equal(out.ip, in.ip);
	assert_int_equal(out.tsc, in.tsc);
	assert_int_equal(out.cs, in.cs);
	assert_string_equal(out.bank_name, in.bank_name);
	json_writer_done(&w);
}

static void test_absent_stays_absent(void **state)
{
	struct mce_record in = { .have = MCE_HAVE_STATUS | MCE_HAVE_BANK, .status = 0x9000000000000000ull,
				 .bank = 0 };
	struct mce_record out;
	struct json_writer w;

	(void) state;
	json_writer_init(&w);
	mce_record_write_json(&in, NULL, &w);
	assert_string_equal(json_writer_str(&w), "{\"bank\":0,\"status\":\"0x9000000000000000\"}");
	assert_int_equal(mce_record_parse_json(json_writer_str(&w), strlen(json_writer_str(&w)), &out,
					       NULL, 0), 0);
	assert_int_equal(out.have, in.have);
	json_writer_done(&w);
}

/* The bank name a text gave is a hint: kept when it can be a bank's, dropped (not an error) otherwise. */
static void test_text_bank_name(void **state)
{
	static const char long_name[] = "{\"status\":\"0x1\",\"text_bank_name\":\""
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}";
	static const char good[] = "{\"status\":\"0x1\",\"text_bank_name\":\"L2 Cache\"}";
	static const char bad[] = "{\"status\":\"0x1\",\"text_bank_name\":[]}";
	struct mce_record out;
	char err[256] = "";

	(void) state;
	assert_int_equal(mce_record_parse_json(good, strlen(good), &out, err, sizeof(err)), 0);
	assert_true(mce_record_has(&out, MCE_HAVE_BANK_NAME));
	assert_string_equal(out.bank_name, "L2 Cache");
	assert_int_equal(mce_record_parse_json(long_name, strlen(long_name), &out, err, sizeof(err)), 0);
	assert_false(mce_record_has(&out, MCE_HAVE_BANK_NAME));
	assert_int_equal(out.bank_name[0], '\0');
	assert_int_equal(mce_record_parse_json(bad, strlen(bad), &out, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "text_bank_name"));
}

/*
 * An AMD EDAC line that named CECC/UECC without the CPU family marks the
 * record; its JSON keeps the mark, so that decoding the JSON again gives the
 * same flags.  Only true and false are values.
 */
static void test_text_amd_ecc_named(void **state)
{
	static const char yes[] = "{\"status\":\"0x1\",\"text_amd_ecc_named\":true}";
	static const char no[] = "{\"status\":\"0x1\",\"text_amd_ecc_named\":false}";
	static const char bad[] = "{\"status\":\"0x1\",\"text_amd_ecc_named\":\"yes\"}";
	struct mce_record out, again;
	struct json_writer w;
	char err[256] = "";

	(void) state;
	assert_int_equal(mce_record_parse_json(yes, strlen(yes), &out, err, sizeof(err)), 0);
	assert_true(mce_record_has(&out, MCE_HAVE_AMD_ECC_NAMED));
	json_writer_init(&w);
	mce_record_write_json(&out, NULL, &w);
	assert_non_null(strstr(json_writer_str(&w), "\"text_amd_ecc_named\":true"));
	assert_int_equal(mce_record_parse_json(json_writer_str(&w), strlen(json_writer_str(&w)), &again, err,
					       sizeof(err)), 0);
	assert_true(mce_record_has(&again, MCE_HAVE_AMD_ECC_NAMED));
	json_writer_done(&w);
	assert_int_equal(mce_record_parse_json(no, strlen(no), &out, err, sizeof(err)), 0);
	assert_false(mce_record_has(&out, MCE_HAVE_AMD_ECC_NAMED));
	assert_int_equal(mce_record_parse_json(bad, strlen(bad), &out, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "text_amd_ecc_named"));
}

static void expect_error(const char *json, const char *needle)
{
	struct mce_record r;
	char err[256] = "";

	assert_int_equal(mce_record_parse_json(json, strlen(json), &r, err, sizeof(err)), -EINVAL);
	if (!strstr(err, needle))
		fail_msg("error for %s was '%s', expected it to mention '%s'", json, err, needle);
}

static void test_bad_input_named(void **state)
{
	(void) state;
	expect_error("{\"bank\":\"x\",\"status\":\"0x1\"}", "\"bank\"");
	expect_error("{\"cs\":300,\"status\":\"0x1\"}", "out of range");
	expect_error("{\"cpu\":-1,\"status\":\"0x1\"}", "\"cpu\"");
	expect_error("{\"status\":\"0x1ffffffffffffffff\"}", "\"status\"");
	expect_error("{\"status\":\"0x\"}", "\"status\"");
	expect_error("{\"bank\":1}", "\"status\" is missing");
	expect_error("{\"status\":\"0x1\",\"time\":\"yesterday\"}", "\"time\"");
	expect_error("{\"status\":\"0x1\",\"vendor\":\"via\"}", "unknown vendor");
	expect_error("{\"status\":\"0x1\",\"boot_id\":\"xyz\"}", "\"boot_id\"");
	/* Found by fuzzing: raw invalid bytes, which json-c passes on, would come back longer. */
	expect_error("{\"status\":\"0x1\",\"hostname\":\"h\xff\x9c\"}", "not valid UTF-8");
	expect_error("{\"status\":\"0x1\",\"family\":25}", "go together");
	expect_error("{\"status\":\"0x1\"", "unterminated");
	expect_error("{\"status\":\"0x1\"} trailing", "trailing data");
	expect_error("[1,2]", "JSON object");
	expect_error("not json", "invalid JSON");
}

static void test_bank_300_is_ok(void **state)
{
	/* bank is a u32 in the contract; 300 is unusual but valid (software banks are >= 128). */
	struct mce_record r;

	(void) state;
	assert_int_equal(mce_record_parse_json("{\"bank\":300,\"status\":\"0x1\"}", 27, &r, NULL, 0), 0);
	assert_int_equal(r.bank, 300);
}

static void test_rfc3339(void **state)
{
	char buf[RFC3339_MAX];
	int64_t t;

	(void) state;
	assert_int_equal(parse_rfc3339_usec("2026-11-20T10:00:00Z", &t), 0);
	assert_int_equal(t, 1795168800LL * 1000000);
	assert_int_equal(parse_rfc3339_usec("2026-11-20T10:00:00.5+01:00", &t), 0);
	assert_int_equal(t, (1795168800LL - 3600) * 1000000 + 500000);
	assert_int_equal(parse_rfc3339_usec("2026-11-20 10:00:00.123456789Z", &t), 0);
	assert_int_equal(t % 1000000, 123456);
	assert_int_equal(parse_rfc3339_usec("1969-12-31T23:59:59.999999Z", &t), 0);
	assert_int_equal(t, -1);
	assert_true(format_rfc3339_usec(buf, sizeof(buf), -1) > 0);
	assert_string_equal(buf, "1969-12-31T23:59:59.999999Z");
	assert_true(format_rfc3339_usec(buf, sizeof(buf), 1795168800LL * 1000000 + 7) > 0);
	assert_string_equal(buf, "2026-11-20T10:00:00.000007Z");
	assert_int_equal(parse_rfc3339_usec("2026-11-20T10:00:00", &t), -EINVAL);
	assert_int_equal(parse_rfc3339_usec("2026-13-20T10:00:00Z", &t), -EINVAL);
	assert_int_equal(parse_rfc3339_usec("2026-11-20T10:00:00Zjunk", &t), -EINVAL);
	assert_int_equal(parse_rfc3339_usec("2026-11-20T10:00:00.1234567890Z", &t), -EINVAL);
	assert_int_equal(parse_rfc3339_usec("", &t), -EINVAL);
}

static void test_writer_escaping(void **state)
{
	struct json_writer w;

	(void) state;
	json_writer_init(&w);
	json_object_begin(&w, NULL);
	json_put_string(&w, "s", "a\"b\\c\n\x01");
	json_array_begin(&w, "a");
	json_put_string(&w, NULL, "x");
	json_put_i64(&w, NULL, -5);
	json_put_bool(&w, NULL, true);
	json_array_end(&w);
	json_put_u64(&w, "u", UINT64_MAX);
	json_object_end(&w);
	assert_false(json_writer_failed(&w));
	assert_string_equal(json_writer_str(&w),
			    "{\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"a\":[\"x\",-5,true],\"u\":18446744073709551615}");
	/* unbalanced close is an error, not a crash */
	json_object_end(&w);
	assert_true(json_writer_failed(&w));
	json_writer_done(&w);
}

/*
 * The inline open and close (json_writer_open(), json_writer_close()):
 * nesting up to the limit and no deeper, every closing byte in place, and
 * values begun with json_writer_next() after what the buffer holds, with
 * no comma between them.
 */
static void test_writer_nesting_and_next(void **state)
{
	struct json_writer w;
	char want[64];
	size_t n = 0;

	(void) state;
	json_writer_init(&w);
	json_object_begin(&w, NULL);
	want[n++] = '{';
	for (unsigned d = 1; d + 1 < JSON_WRITER_MAX_DEPTH; d++) {
		json_array_begin_k(&w, JSON_KEY("a"));
		memcpy(want + n, "\"a\":[", 5);
		n += 5;
		assert_false(json_writer_failed(&w));
	}
	for (unsigned d = 1; d + 1 < JSON_WRITER_MAX_DEPTH; d++) {
		json_array_end(&w);
		want[n++] = ']';
	}
	json_object_end(&w);
	want[n++] = '}';
	want[n] = '\0';
	assert_false(json_writer_failed(&w));
	assert_string_equal(json_writer_str(&w), want);
	/* one deeper than the limit fails */
	json_writer_reset(&w);
	json_object_begin(&w, NULL);
	for (unsigned d = 1; d < JSON_WRITER_MAX_DEPTH; d++)
		json_object_begin_k(&w, JSON_KEY("o"));
	assert_true(json_writer_failed(&w));
	/* values one after another */
	json_writer_reset(&w);
	json_object_begin(&w, NULL);
	json_put_u64_k(&w, JSON_KEY("a"), 1);
	json_object_end(&w);
	json_writer_next(&w);
	json_object_begin(&w, NULL);
	json_put_u64_k(&w, JSON_KEY("b"), 2);
	json_array_begin_k(&w, JSON_KEY("c"));
	json_array_end(&w);
	json_object_end(&w);
	assert_false(json_writer_failed(&w));
	assert_string_equal(json_writer_str(&w), "{\"a\":1}{\"b\":2,\"c\":[]}");
	json_writer_done(&w);
}

/* Invalid UTF-8 (firmware FRU text, hostnames) never reaches a consumer; valid text passes as it is. */
static void test_writer_utf8(void **state)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "DIMM_\xc3\xa9",          "\"DIMM_\xc3\xa9\"" },           /* é: kept */
		{ "\xe2\x82\xac\xf0\x9f\x98\x80", "\"\xe2\x82\xac\xf0\x9f\x98\x80\"" }, /* 3 and 4 bytes */
		{ "A\xff" "B",             "\"A\\ufffdB\"" },              /* never valid */
		{ "\xc0\xaf",               "\"\\ufffd\\ufffd\"" },         /* overlong '/' */
		{ "\xed\xa0\x80",           "\"\\ufffd\\ufffd\\ufffd\"" },  /* a surrogate */
		{ "\xf4\x90\x80\x80",       "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" }, /* above U+10FFFF */
		{ "cut\xe2\x82",            "\"cut\\ufffd\\ufffd\"" },       /* truncated at the end */
		{ "\xef\xbf\xbd!",           "\"\\ufffd!\"" },                 /* U+FFFD as its replacement is */
		{ "\x7f",                   "\"\\u007f\"" },
	};
	struct json_writer w;

	(void) state;
	json_writer_init(&w);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_writer_reset(&w);
		json_put_string(&w, NULL, cases[i].in);
		assert_false(json_writer_failed(&w));
		assert_string_equal(json_writer_str(&w), cases[i].out);
	}
	json_writer_done(&w);
}

/* The hand-made formatting against gmtime_r() + snprintf(), which it replaced, at its edges and between. */
static void test_rfc3339_matches_gmtime(void **state)
{
	static const int64_t edges[] = {
		-62167219200LL, -62167219201LL, 253402300799LL, 253402300800LL, 0, -1, 1,
		951782400LL, 951868800LL, 4107542400LL, -2208988800LL, 1795168800LL, 68169600LL,
	};
	uint64_t x = 0x243f6a8885a308d3ull;

	(void) state;
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]) + 200000; i++) {
		int64_t usec;
		time_t sec;
		long frac;
		struct tm tm;
		char got[64], want[64];

		if (i < sizeof(edges) / sizeof(edges[0]))
			usec = edges[i] * 1000000 + (int64_t) (i % 3) * 999999 - (int64_t) (i % 2);
		else {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			/* mostly years 0..9999 and around them, some anywhere */
			usec = i % 10 ? (int64_t) (x % 330000000000ull) * 1000000 - 65000000000LL * 1000000 +
					 (int64_t) (x >> 44)
				      : (int64_t) x;
		}
		sec = (time_t) (usec / 1000000);
		frac = (long) (usec % 1000000);
		if (frac < 0) {
			frac += 1000000;
			sec--;
		}
		if (!gmtime_r(&sec, &tm)) {
			assert_int_equal(format_rfc3339_usec(got, sizeof(got), usec), -EINVAL);
			continue;
		}
		snprintf(want, sizeof(want), "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ", tm.tm_year + 1900,
			 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, frac);
		assert_int_equal(format_rfc3339_usec(got, sizeof(got), usec), (int) strlen(want));
		assert_string_equal(got, want);
	}
	assert_int_equal(format_rfc3339_usec((char[27]) { 0 }, 27, 0), -ENOBUFS);
}

/* Escaping a word at a time: every byte value at every place of a string, against the rules one byte at a time. */
static void test_writer_escaping_every_byte(void **state)
{
	struct json_writer w;

	(void) state;
	json_writer_init(&w);
	for (unsigned c = 1; c < 0x80; c++)
		for (size_t len = 1; len <= 19; len++)
			for (size_t at = 0; at < len; at++) {
				char in[20], want[40];
				size_t n = 0;

				memset(in, 'k', len);
				in[len] = '\0';
				in[at] = (char) c;
				want[n++] = '"';
				for (size_t i = 0; i < len; i++) {
					unsigned char b = (unsigned char) in[i];

					if (b == '"' || b == '\\')
						n += (size_t) sprintf(want + n, "\\%c", b);
					else if (b == '\n')
						n += (size_t) sprintf(want + n, "\\n");
					else if (b == '\r')
						n += (size_t) sprintf(want + n, "\\r");
					else if (b == '\t')
						n += (size_t) sprintf(want + n, "\\t");
					else if (b < 0x20 || b == 0x7f)
						n += (size_t) sprintf(want + n, "\\u%04x", b);
					else
						want[n++] = (char) b;
				}
				want[n++] = '"';
				want[n] = '\0';
				json_writer_reset(&w);
				json_put_string(&w, NULL, in);
				assert_string_equal(json_writer_str(&w), want);
				/* as a key too, whose quotes are written the same way */
				json_writer_reset(&w);
				json_object_begin(&w, NULL);
				json_put_u64(&w, in, 1);
				json_object_end(&w);
				assert_int_equal(strncmp(json_writer_str(&w) + 1, want, n), 0);
			}
	/* a byte above 0x7f in each place of a word: never copied as plain ASCII */
	for (size_t at = 0; at < 16; at++) {
		char in[17];

		memset(in, 'k', 16);
		in[16] = '\0';
		in[at] = '\xff';
		json_writer_reset(&w);
		json_put_string(&w, NULL, in);
		assert_non_null(strstr(json_writer_str(&w), "\\ufffd"));
		assert_int_equal(strlen(json_writer_str(&w)), 2 + 15 + 6);
	}
	json_writer_done(&w);
}

/*
 * Record lines are read by json_flat_scan() when they are plain and by
 * json-c otherwise.  A member whose key has an escape sends a line to
 * json-c without changing its meaning, so each line here is read both ways
 * and must give the same record, or the same error in the same words.
 */
static void test_fast_and_json_c_agree(void **state)
{
	static const char *const lines[] = {
		("{\"time\":\"2026-11-20T10:00:00.000000Z\",\"source\":\"decode\",\"cpu\":58,\"socket\":1,"
		 "\"apicid\":116,\"bank\":13,\"vendor\":\"intel\",\"family\":6,\"model\":143,\"stepping\":8,"
		 "\"microcode\":\"0x2b000461\",\"ppin\":\"0x00002b5a3f0c9d1e\",\"status\":\"0xbe00000000800400\","
		 "\"flags\":[\"VAL\",\"UC\"],\"details\":{\"memory_controller\":0,\"x\":[1,-2,3.5,true,null]}}"),
		"{ \"status\" : \"0x9c2040000000011b\" , \"bank\" : 15 , \"hostname\" : \"node-7\" }",
		"{\"status\":\"0x1\",\"cpu\":-5}",
		"{\"status\":\"0x1\",\"cpu\":4294967296}",
		"{\"status\":\"0x1\",\"cpu\":\"4294967295\"}",
		"{\"status\":\"0x1\",\"cpu\":1.5}",
		"{\"status\":\"0x1\",\"cpu\":true}",
		"{\"status\":\"0x1\",\"cpu\":null,\"bank\":null}",
		"{\"status\":\"0x1\",\"cpu\":\"12x\"}",
		"{\"status\":\"0x1\",\"cs\":256}",
		"{\"status\":999999999999999999}",
		"{\"status\":\"0xffffffffffffffff\",\"addr\":\"0x10000000000000000\"}",
		"{\"bank\":1}",
		"{}",
		"{\"status\":\"0x1\",\"time\":\"2026-13-01T00:00:00Z\"}",
		"{\"status\":\"0x1\",\"time\":5}",
		"{\"status\":\"0x1\",\"source\":7}",
		"{\"status\":\"0x1\",\"source\":\"no-such-source\"}",
		"{\"status\":\"0x1\",\"hostname\":[]}",
		("{\"status\":\"0x1\",\"hostname\":\"a-very-long-host-name-that-goes-on-and-on-and-on-and-on-"
		 "and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on\"}"),
		"{\"status\":\"0x1\",\"boot_id\":\"aaf50ec7f5824edf9b3508436dfbbff7\"}",
		"{\"status\":\"0x1\",\"boot_id\":\"AAF50EC7F5824EDF9B3508436DFBBFF7\"}",
		"{\"status\":\"0x1\",\"vendor\":\"sparc\"}",
		"{\"status\":\"0x1\",\"vendor\":\"unknown\"}",
		"{\"status\":\"0x1\",\"vendor\":{}}",
		"{\"status\":\"0x1\",\"family\":25}",
		"{\"status\":\"0x1\",\"family\":25,\"model\":null}",
		"{\"status\":\"0x1\",\"family\":25,\"model\":\"0x11\",\"stepping\":-1}",
		"{\"status\":\"0x1\",\"stepping\":2}",
		"{\"status\":\"0x1\",\"text_bank_name\":\"Unified Memory Controller\"}",
		"{\"status\":\"0x1\",\"text_bank_name\":\"\"}",
		"{\"status\":\"0x1\",\"text_bank_name\":17}",
		"{\"status\":\"0x1\",\"text_bank_name\":null}",
		"{\"status\":\"0x1\",\"text_bank_name\":\"Unified\\u0000Memory\"}",
		("{\"status\":\"0x1\",\"text_bank_name\":\"Ultra Short Reach Control Plane Controller and "
		 "then some more words than any bank name has\"}"),
		"{\"status\":\"0x1\",\"text_amd_ecc_named\":true}",
		"{\"status\":\"0x1\",\"text_amd_ecc_named\":false}",
		"{\"status\":\"0x1\",\"text_amd_ecc_named\":1}",
		"{\"status\":\"0x1\",\"text_amd_ecc_named\":\"true\"}",
		"{\"status\":\"0x1\",\"text_amd_ecc_named\":null}",
		"{\"status\":\"0x1\",\"cpu\":false}",
	};
	struct mce_record fast, slow;
	char efast[200], eslow[200];

	(void) state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		size_t n = strlen(lines[i]);
		char forced[1024];
		int kf, ks;

		/* the same line with one more member, which only json-c reads */
		assert_true(n + 16 < sizeof(forced));
		memcpy(forced, lines[i], n - 1);
		snprintf(forced + n - 1, sizeof(forced) - (n - 1), "%s\"\\u0078\":1}", n > 2 ? "," : "");
		memset(&fast, 0xa5, sizeof(fast));
		memset(&slow, 0xa5, sizeof(slow));
		efast[0] = eslow[0] = '\0';
		kf = mce_record_parse_json(lines[i], n, &fast, efast, sizeof(efast));
		ks = mce_record_parse_json(forced, strlen(forced), &slow, eslow, sizeof(eslow));
		if (kf != ks || strcmp(efast, eslow) != 0)
			fail_msg("line %zu: %d '%s' vs json-c's %d '%s'", i, kf, efast, ks, eslow);
		if (kf == 0)
			assert_memory_equal(&fast, &slow, sizeof(fast));
	}
}

/* Keys written as they are (JSON_KEY) give what the escaping writer gives, commas and nesting included. */
static void test_literal_keys_same(void **state)
{
	struct json_writer a, b;

	(void) state;
	json_writer_init(&a);
	json_writer_init(&b);
	json_object_begin(&a, NULL);
	json_put_time_usec(&a, "time", 1795168800LL * 1000000 + 7);
	json_put_u64(&a, "cpu", 58);
	json_put_i64(&a, "channel", -3);
	json_put_bool(&a, "timeout", true);
	json_put_hex(&a, "microcode", 0x2b000461);
	json_put_hex64(&a, "status", 0xbe00000000800400ull);
	json_array_begin(&a, "flags");
	json_put_string(&a, NULL, "VAL");
	json_put_string(&a, NULL, "UC");
	json_array_end(&a);
	json_object_begin(&a, "details");
	json_put_string(&a, "kind", "x");
	json_object_end(&a);
	json_object_begin(&a, "empty");
	json_object_end(&a);
	json_put_string(&a, "last", "y");
	json_object_end(&a);

	json_object_begin(&b, NULL);
	json_put_time_usec_k(&b, JSON_KEY("time"), 1795168800LL * 1000000 + 7);
	json_put_u64_k(&b, JSON_KEY("cpu"), 58);
	json_put_i64_k(&b, JSON_KEY("channel"), -3);
	json_put_bool_k(&b, JSON_KEY("timeout"), true);
	json_put_hex_k(&b, JSON_KEY("microcode"), 0x2b000461);
	json_put_hex64_k(&b, JSON_KEY("status"), 0xbe00000000800400ull);
	json_array_begin_k(&b, JSON_KEY("flags"));
	json_put_string(&b, NULL, "VAL");
	json_put_string(&b, NULL, "UC");
	json_array_end(&b);
	json_object_begin_k(&b, JSON_KEY("details"));
	json_put_string_k(&b, JSON_KEY("kind"), "x");
	json_object_end(&b);
	json_object_begin_k(&b, JSON_KEY("empty"));
	json_object_end(&b);
	json_put_string_k(&b, JSON_KEY("last"), "y");
	json_object_end(&b);

	assert_false(json_writer_failed(&a));
	assert_false(json_writer_failed(&b));
	assert_string_equal(json_writer_str(&b), json_writer_str(&a));
	assert_string_equal(json_writer_str(&a),
			    "{\"time\":\"2026-11-20T10:00:00.000007Z\",\"cpu\":58,\"channel\":-3,\"timeout\":true,"
			    "\"microcode\":\"0x2b000461\",\"status\":\"0xbe00000000800400\",\"flags\":[\"VAL\",\"UC\"],"
			    "\"details\":{\"kind\":\"x\"},\"empty\":{},\"last\":\"y\"}");
	json_writer_done(&a);
	json_writer_done(&b);
}

/*
 * Static strings, whose lengths the writer remembers by address: the same
 * output as json_put_string() for every length and every kind of byte,
 * over more strings than the writer has slots, in orders that make them
 * share slots and push each other out.
 */
static char static_pool[300][48];

static void test_static_strings_same(void **state)
{
	static const char special[] = { '"', '\\', '\n', '\x01', '\x7f', '\xc3', '\xff' };
	struct json_writer a, b;
	const size_t n = sizeof(static_pool) / sizeof(static_pool[0]);

	(void) state;
	for (size_t i = 0; i < n; i++) {
		size_t len = i % 41;

		for (size_t j = 0; j < len; j++)
			static_pool[i][j] = (char) ('a' + (i + j) % 26);
		static_pool[i][len] = '\0';
		/* every fourth has a byte to escape or replace */
		if (i % 4 == 3 && len > 0)
			static_pool[i][(i / 4) % len] = special[(i / 4) % sizeof(special)];
		if (i % 7 == 6 && len > 1) {
			static_pool[i][0] = '\xc3';       /* "é", well formed */
			static_pool[i][1] = '\xa9';
		}
	}
	json_writer_init(&a);
	json_writer_init(&b);
	for (unsigned pass = 0; pass < 4; pass++) {
		json_object_begin(&a, NULL);
		json_object_begin(&b, NULL);
		for (size_t k = 0; k < n; k++) {
			/* forward, backward, and two strides that revisit out of order */
			size_t i = pass == 0 ? k : pass == 1 ? n - 1 - k : (k * (pass == 2 ? 7 : 131)) % n;
			const char *s = static_pool[i], *key = static_pool[(i + 1) % n];

			json_put_string_k(&a, JSON_KEY("v"), s);
			json_put_static_k(&b, JSON_KEY("v"), s);
			json_put_string(&a, key, s);
			json_put_static(&b, key, s);
			json_put_u64(&a, key, i);
			json_put_u64_static_key(&b, key, i);
		}
		json_array_begin(&a, "flags");
		json_array_begin(&b, "flags");
		for (size_t k = 0; k < 10; k++) {
			json_put_string(&a, NULL, static_pool[k * 29 % n]);
			json_put_static(&b, NULL, static_pool[k * 29 % n]);
		}
		json_array_end(&a);
		json_array_end(&b);
		/* json_put_statics(): arrays of none, one and several, as the flags are written */
		for (size_t len = 0; len < 12; len += 1 + len / 2) {
			const char *many[12];

			for (size_t k = 0; k < len; k++)
				many[k] = static_pool[(k * 37 + len + pass) % n];
			/* twice, as a record's flags are nearly always the last record's (the kept text) */
			for (unsigned again = 0; again < 2; again++) {
				json_array_begin(&a, "flags");
				json_array_begin(&b, "flags");
				for (size_t k = 0; k < len; k++)
					json_put_string(&a, NULL, many[k]);
				json_put_statics(&b, many, len);
				json_array_end(&a);
				json_array_end(&b);
			}
			/* the same list but its last, or one more: not the kept text */
			if (len > 1) {
				json_array_begin(&a, "flags");
				json_array_begin(&b, "flags");
				for (size_t k = 0; k + 1 < len; k++)
					json_put_string(&a, NULL, many[k]);
				json_put_string(&a, NULL, many[0]);
				many[len - 1] = many[0];
				json_put_statics(&b, many, len);
				json_put_statics(&b, many, len - 1);
				for (size_t k = 0; k + 1 < len; k++)
					json_put_string(&a, NULL, many[k]);
				json_array_end(&a);
				json_array_end(&b);
			}
		}
		json_object_end(&a);
		json_object_end(&b);
		assert_false(json_writer_failed(&a));
		assert_false(json_writer_failed(&b));
		assert_string_equal(json_writer_str(&b), json_writer_str(&a));
		json_writer_reset(&a);
		json_writer_reset(&b);
	}
	json_writer_done(&a);
	json_writer_done(&b);
}

/*
 * Record times share their day with the last record's so often that the
 * writer keeps its date: each time, in runs of the same second and day
 * and across second, day, year and epoch boundaries, reads as
 * format_rfc3339_usec() writes it.
 */
static void test_time_same_second(void **state)
{
	static const int64_t secs[] = {
		1700000000, 1700000000, 1700000001, 1700000000, 1700003599, 1700003600, 1700006399,
		-1, -1, 0, 0, 86399, 86400, 86401, 172799, 3600, -86400, -86401, -3601,
		-62167219200LL, -62167219201LL, 253402300799LL, 253402300800LL, 1700000000,
	};
	static const int64_t fracs[] = { 0, 1, 999999, 123456, 500000, 10 };
	struct json_writer w;

	(void) state;
	json_writer_init(&w);
	for (size_t i = 0; i < sizeof(secs) / sizeof(secs[0]); i++)
		for (size_t j = 0; j < sizeof(fracs) / sizeof(fracs[0]); j++) {
			int64_t usec = secs[i] * 1000000 + fracs[j] * (secs[i] < 0 ? -1 : 1);
			char want[80], text[RFC3339_MAX];

			assert_true(format_rfc3339_usec(text, sizeof(text), usec) > 0);
			snprintf(want, sizeof(want), "{\"time\":\"%s\"}", text);
			json_writer_reset(&w);
			json_object_begin(&w, NULL);
			json_put_time_usec_k(&w, JSON_KEY("time"), usec);
			json_object_end(&w);
			assert_false(json_writer_failed(&w));
			assert_string_equal(json_writer_str(&w), want);
		}
	json_writer_done(&w);
}

/* Registers' digits are made a word at a time: against printf's, for every nibble value in every place. */
static void test_hex64_matches_printf(void **state)
{
	struct json_writer w;
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void) state;
	json_writer_init(&w);
	for (unsigned i = 0; i < 200000; i++) {
		uint64_t v;
		char want[32];

		if (i < 16 * 16)   /* each digit value at each place, the rest zero or f */
			v = ((uint64_t) (i % 16) << (4 * (i / 16))) | (i & 1 ? 0 : ~(0xfull << (4 * (i / 16))));
		else {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			v = x;
		}
		snprintf(want, sizeof(want), "\"0x%016" PRIx64 "\"", v);
		json_writer_reset(&w);
		json_put_hex64(&w, NULL, v);
		assert_string_equal(json_writer_str(&w), want);
	}
	json_writer_done(&w);
}

/* Short hex ("0x%" PRIx64) starts at the first digit that counts: against printf's, for values of every bit length. */
static void test_hex_matches_printf(void **state)
{
	struct json_writer w;
	uint64_t x = 0x2545f4914f6cdd1dull;

	(void) state;
	json_writer_init(&w);
	for (unsigned i = 0; i < 100000; i++) {
		uint64_t v;
		char want[32];

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		/* 0, each bit alone, each length of all ones, then any length */
		v = i < 65 ? (i ? 1ull << (i - 1) : 0) : i < 129 ? ~0ull >> (i - 65) : x >> (i % 64);
		snprintf(want, sizeof(want), "\"0x%" PRIx64 "\"", v);
		json_writer_reset(&w);
		json_put_hex(&w, NULL, v);
		assert_string_equal(json_writer_str(&w), want);
		/* the keyed writer, which writes 32-bit values in place */
		snprintf(want, sizeof(want), "{\"v\":\"0x%" PRIx64 "\"}", v);
		json_writer_reset(&w);
		json_object_begin(&w, NULL);
		json_put_hex_k(&w, JSON_KEY("v"), v);
		json_object_end(&w);
		assert_string_equal(json_writer_str(&w), want);
	}
	json_writer_done(&w);
}

/*
 * Kept runs (json_run_again()): a run written again from memory reads as
 * writing it anew, with and without a comma before it, at any depth,
 * when three keys take turns for two places, and when a run is too long
 * to keep.
 */
static void write_run(struct json_writer *w, const char *const *v, size_t n)
{
	json_put_static_k(w, JSON_KEY("severity"), v[0]);
	json_array_begin_k(w, JSON_KEY("flags"));
	json_put_statics(w, v + 1, n - 1);
	json_array_end(w);
}

static void test_runs_same(void **state)
{
	static const char long_text[] = "a description long enough that three of it pass the text a run keeps: "
					"....................................................................."
					"....................................................................."
					".....................................................................";
	static const char *const runs[4][4] = {
		{ "fatal", "VAL", "UC", "PCC" },
		{ "corrected", "VAL", "MISCV", "ADDRV" },
		{ "corrected", "VAL", "MISCV", "S" },
		{ long_text, long_text, long_text, long_text },
	};
	struct json_writer a, b;
	uint64_t x = 0x2545f4914f6cdd1dull;
	unsigned again = 0, kept = 0;

	(void) state;
	json_writer_init(&a);
	json_writer_init(&b);
	for (unsigned i = 0; i < 5000; i++) {
		unsigned depth = i % 3;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		json_writer_next(&a);
		json_writer_next(&b);
		json_object_begin(&a, NULL);
		json_object_begin(&b, NULL);
		for (unsigned j = 0; j < depth; j++) {
			json_object_begin_k(&a, JSON_KEY("inner"));
			json_object_begin_k(&b, JSON_KEY("inner"));
		}
		if (x & 1) {
			json_put_u64_k(&a, JSON_KEY("first"), i);
			json_put_u64_k(&b, JSON_KEY("first"), i);
		}
		for (unsigned k = 0; k < 1 + (x >> 1) % 3; k++) {
			/* mostly the first three in turns; the long one now and then */
			unsigned which = (x >> 3) % 16 == 0 ? 3 : (x >> (5 + 2 * k)) % 3;
			const char *const *v = runs[which];
			size_t n = 2 + which % 3;
			const void *key[4];
			size_t start;

			for (size_t j = 0; j < n; j++)
				key[j] = v[j];
			write_run(&a, v, n);
			if (json_run_again(&b, key, n))
				again++;
			else {
				start = json_run_start(&b);
				write_run(&b, v, n);
				json_run_keep(&b, key, n, start);
				kept++;
			}
		}
		json_put_u64_k(&a, JSON_KEY("after"), i);
		json_put_u64_k(&b, JSON_KEY("after"), i);
		for (unsigned j = 0; j <= depth; j++) {
			json_object_end(&a);
			json_object_end(&b);
		}
		json_writer_byte(&a, '\n');
		json_writer_byte(&b, '\n');
		assert_false(json_writer_failed(&b));
		assert_string_equal(json_writer_str(&b), json_writer_str(&a));
		if (i % 64 == 63) {
			json_writer_reset(&a);
			json_writer_reset(&b);
		}
	}
	/* both halves were taken, the one from memory most */
	assert_true(again > kept);
	assert_true(kept > 0);
	json_writer_done(&a);
	json_writer_done(&b);
}

/*
 * Members written in a run under one check of the room: the same text as
 * the keyed writers one at a time, for runs of every length, first in
 * their object or after other members, nested, and after the buffer's
 * first growth.
 */
static void test_members_match_keyed(void **state)
{
	struct json_writer a, b;
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void) state;
	json_writer_init(&a);
	json_writer_init(&b);
	for (unsigned i = 0; i < 20000; i++) {
		unsigned n = i % 24, before = i / 24 % 3;
		struct json_members m;

		json_writer_reset(&a);
		json_writer_reset(&b);
		json_object_begin(&a, NULL);
		json_object_begin(&b, NULL);
		for (unsigned j = 0; j < before; j++) {
			json_object_begin_k(&a, JSON_KEY("inner"));
			json_object_begin_k(&b, JSON_KEY("inner"));
		}
		if (i & 1) {
			json_put_u64_k(&a, JSON_KEY("first"), i);
			json_put_u64_k(&b, JSON_KEY("first"), i);
		}
		assert_true(json_members_begin(&a, &m, n * (1 + sizeof("\"dimm_channel\":") + 20)));
		for (unsigned j = 0; j < n; j++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			if (x & 1) {
				json_member_hex64(&m, JSON_KEY("status"), x >> (x % 64));
				json_put_hex64_k(&b, JSON_KEY("status"), x >> (x % 64));
			} else if (x & 2) {
				/* signed: small, large and negative, as a decode's DIMM and DRAM cell */
				int64_t v = (int64_t) (x >> 2) >> (x % 64);

				json_member_i64(&m, JSON_KEY("dimm_channel"), v);
				json_put_i64_k(&b, JSON_KEY("dimm_channel"), v);
			} else {
				json_member_u64(&m, JSON_KEY("dimm_channel"), x >> (x % 64));
				json_put_u64_k(&b, JSON_KEY("dimm_channel"), x >> (x % 64));
			}
		}
		json_members_end(&a, &m);
		json_put_u64_k(&a, JSON_KEY("after"), n);
		json_put_u64_k(&b, JSON_KEY("after"), n);
		for (unsigned j = 0; j < before; j++) {
			json_object_end(&a);
			json_object_end(&b);
		}
		json_object_end(&a);
		json_object_end(&b);
		assert_false(json_writer_failed(&a));
		assert_string_equal(json_writer_str(&a), json_writer_str(&b));
	}
	json_writer_done(&a);
	json_writer_done(&b);
}

/* Numbers below 100 are written in place, the rest by a call: both against printf's. */
static void test_u64_matches_printf(void **state)
{
	struct json_writer w;
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void) state;
	json_writer_init(&w);
	for (unsigned i = 0; i < 100000; i++) {
		uint64_t v;
		char want[64];
		struct json_members m;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v = i < 1000 ? i : x >> (x % 64);
		snprintf(want, sizeof(want), "{\"n\":%" PRIu64 ",\"n\":%" PRIu64 "}", v, v);
		json_writer_reset(&w);
		json_object_begin(&w, NULL);
		json_put_u64_k(&w, JSON_KEY("n"), v);
		assert_true(json_members_begin(&w, &m, 32));
		json_member_u64(&m, JSON_KEY("n"), v);
		json_members_end(&w, &m);
		json_object_end(&w);
		assert_string_equal(json_writer_str(&w), want);
	}
	json_writer_done(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_full),
		cmocka_unit_test(test_text_bank_name),
		cmocka_unit_test(test_text_amd_ecc_named),
		cmocka_unit_test(test_absent_stays_absent),
		cmocka_unit_test(test_bad_input_named),
		cmocka_unit_test(test_bank_300_is_ok),
		cmocka_unit_test(test_rfc3339),
		cmocka_unit_test(test_writer_escaping),
		cmocka_unit_test(test_writer_nesting_and_next),
		cmocka_unit_test(test_writer_utf8),
		cmocka_unit_test(test_rfc3339_matches_gmtime),
		cmocka_unit_test(test_writer_escaping_every_byte),
		cmocka_unit_test(test_fast_and_json_c_agree),
		cmocka_unit_test(test_literal_keys_same),
		cmocka_unit_test(test_hex64_matches_printf),
		cmocka_unit_test(test_hex_matches_printf),
		cmocka_unit_test(test_members_match_keyed),
		cmocka_unit_test(test_runs_same),
		cmocka_unit_test(test_u64_matches_printf),
		cmocka_unit_test(test_static_strings_same),
		cmocka_unit_test(test_time_same_second),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
