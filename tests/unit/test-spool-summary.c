/* SPDX-License-Identifier: MIT */
/* The counts of a full spool: records counted by signature, earlier summaries folded in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "json-writer.h"
#include "macro.h"
#include "message-ids.h"
#include "spool-summary.h"

#define IOV(s) { .iov_base = (void *) (s), .iov_len = strlen(s) }

/* A summary entry as the journal sink writes it: the counts in MCE_LOST and MCE_JSON. */
static void summary_entry(const struct spool_summary *sum, char *json, size_t json_size, char *lost,
			  size_t lost_size)
{
	struct json_writer w;

	json_writer_init(&w);
	json_object_begin(&w, NULL);
	json_put_string(&w, "event", "loss");
	spool_summary_write_json(sum, &w);
	json_object_end(&w);
	assert_false(json_writer_failed(&w));
	snprintf(json, json_size, "MCE_JSON=%s", json_writer_str(&w));
	json_writer_done(&w);
	snprintf(lost, lost_size, "MCE_LOST=%llu", (unsigned long long) sum->count);
}

static void add(struct spool_summary *sum, const char *cpu, const char *status, bool want)
{
	const struct iovec rec[] = {
		IOV("MESSAGE_ID=" MCELOGD_MSGID_CORRECTED), IOV("MCE_SEVERITY=corrected"), IOV(cpu),
		IOV("MCE_BANK=2"), IOV(status),
	};

	assert_int_equal(spool_summary_add_record(sum, rec, ELEMENTSOF(rec)), want);
}

static void test_records_and_others(void **state)
{
	const struct iovec fatal[] = { IOV("MESSAGE_ID=x"), IOV("MCE_SEVERITY=fatal"), IOV("MCE_CPU=1") },
			   storm[] = { IOV("MCE_SEVERITY=corrected"), IOV("MCE_STORM_COUNT=5") };
	struct spool_summary sum = {};

	(void) state;
	add(&sum, "MCE_CPU=1", "MCE_STATUS=0x9c00004000010098", true);
	add(&sum, "MCE_CPU=1", "MCE_STATUS=0x9c00004000010098", true);
	add(&sum, "MCE_CPU=0", "MCE_STATUS=0x9c00004000020098", true);
	/* Uncorrected records and storm counts are never counted here: they stay. */
	assert_false(spool_summary_add_record(&sum, fatal, ELEMENTSOF(fatal)));
	assert_false(spool_summary_add_record(&sum, storm, ELEMENTSOF(storm)));
	assert_false(spool_summary_fold(&sum, fatal, ELEMENTSOF(fatal)));
	assert_int_equal(sum.count, 3);
	assert_int_equal(sum.records, 3);
	assert_int_equal(sum.n, 2);
	assert_string_equal(sum.sig[0].code, "0x00010098");
	assert_int_equal(sum.sig[0].count, 2);
}

/* A summary folded into the next one keeps every count, by signature. */
static void test_fold(void **state)
{
	struct spool_summary first = {}, next = {};
	char json[4096], lost[64];

	(void) state;
	add(&first, "MCE_CPU=1", "MCE_STATUS=0x9c00004000010098", true);
	add(&first, "MCE_CPU=0", "MCE_STATUS=0x9c00004000020098", true);
	summary_entry(&first, json, sizeof(json), lost, sizeof(lost));
	{
		const struct iovec entry[] = {
			IOV("MESSAGE=The spool ... reached its 64 KiB"), IOV("MESSAGE_ID=" MCELOGD_MSGID_LOST),
			IOV("MCE_SOURCE=journal_spool"), IOV(lost), IOV(json),
		};

		assert_true(spool_summary_is_summary(entry, ELEMENTSOF(entry)));
		/* A summary is no record. */
		assert_false(spool_summary_add_record(&next, entry, ELEMENTSOF(entry)));
		add(&next, "MCE_CPU=1", "MCE_STATUS=0x9c00004000010098", true);
		assert_true(spool_summary_fold(&next, entry, ELEMENTSOF(entry)));
	}
	assert_int_equal(next.count, 3);
	assert_int_equal(next.records, 1);   /* only one taken here; two came with the summary */
	assert_int_equal(next.folded, 1);
	assert_int_equal(next.n, 2);
	assert_int_equal(next.sig[0].count, 2);
	assert_string_equal(next.sig[1].cpu, "0");
	assert_int_equal(next.sig[1].count, 1);
	assert_int_equal(next.other, 0);
}

/* Another source's loss entry stays; a summary whose JSON does not read still counts, as other. */
static void test_fold_damaged_and_foreign(void **state)
{
	const struct iovec foreign[] = { IOV("MESSAGE_ID=" MCELOGD_MSGID_LOST), IOV("MCE_SOURCE=tracepoint"),
					 IOV("MCE_LOST=7") },
			   damaged[] = { IOV("MESSAGE_ID=" MCELOGD_MSGID_LOST), IOV("MCE_SOURCE=journal_spool"),
					 IOV("MCE_LOST=7"), IOV("MCE_JSON={\"summarised\":[{\"count\":99") },
			   no_count[] = { IOV("MESSAGE_ID=" MCELOGD_MSGID_LOST), IOV("MCE_SOURCE=journal_spool") };
	struct spool_summary sum = {};

	(void) state;
	assert_false(spool_summary_fold(&sum, foreign, ELEMENTSOF(foreign)));
	assert_false(spool_summary_fold(&sum, no_count, ELEMENTSOF(no_count)));
	assert_true(spool_summary_fold(&sum, damaged, ELEMENTSOF(damaged)));
	assert_int_equal(sum.count, 7);
	assert_int_equal(sum.other, 7);
}

/* Past SPOOL_SUMMARY_SIGNATURES the counts go to other, and merging keeps the total. */
static void test_many_signatures_merge(void **state)
{
	struct spool_summary a = {}, b = {};
	char status[64];

	(void) state;
	for (unsigned i = 0; i < SPOOL_SUMMARY_SIGNATURES + 8; i++) {
		snprintf(status, sizeof(status), "MCE_STATUS=0x9c000040%04x0098", i);
		add(&a, "MCE_CPU=0", status, true);
	}
	assert_int_equal(a.n, SPOOL_SUMMARY_SIGNATURES);
	assert_int_equal(a.other, 8);
	spool_summary_count_other(&b);
	add(&b, "MCE_CPU=9", "MCE_STATUS=0x9c00004000000001", true);
	spool_summary_merge(&b, &a);
	assert_int_equal(b.count, SPOOL_SUMMARY_SIGNATURES + 8 + 2);
	assert_int_equal(b.records, SPOOL_SUMMARY_SIGNATURES + 8 + 2);
	assert_int_equal(b.n, SPOOL_SUMMARY_SIGNATURES);
	assert_int_equal(b.other, 8 + 1 + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records_and_others),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_fold_damaged_and_foreign),
		cmocka_unit_test(test_many_signatures_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
