/* SPDX-License-Identifier: MIT */
/*
 * rules/module-feed.c: records into the module ledger as the daemon and
 * mcectl dimms --rebuild count them, from the JSON both read (mcelogd
 * --replay's and the journal's MCE_JSON).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "decode.h"
#include "error-pair.h"
#include "macro.h"
#include "module-feed.h"
#include "ras-record-json.h"
#include "ras-record.h"
#include "record-json.h"
#include "rule-field.h"
#include "smbios-memdev.h"

#define MACHINE "0123456789abcdef0123456789abcdef"

struct feeder {
	struct module_ledger l;
	struct module_feed feed;
	struct error_pair pairs;
	struct smbios_memdev devs[1];
	struct module_host host;
	unsigned changes;
	enum module_verdict last_to;
};

static void changed(const struct module_change *c, void *userdata)
{
	struct feeder *f = userdata;

	f->changes++;
	f->last_to = c->to;
}

static void feeder_init(struct feeder *f)
{
	*f = (struct feeder) {};
	module_ledger_init(&f->l, NULL);
	snprintf(f->devs[0].locator, sizeof(f->devs[0].locator), "P1-DIMMA1");
	snprintf(f->devs[0].serial, sizeof(f->devs[0].serial), "SN-A1");
	snprintf(f->devs[0].part_number, sizeof(f->devs[0].part_number), "M393");
	f->host = (struct module_host) { .devs = f->devs, .n_devs = 1, .machine_id = MACHINE };
}

/* One JSON record through the pairing and the feed, as the rebuild does; the feed's answer. */
static int feed_json(struct feeder *f, const char *json)
{
	struct rule_input in = {};
	struct ras_record ras;
	struct mce_record mce;
	struct mce_decoded d;
	bool paired = false;
	int64_t t;
	char why[256];
	int r;

	r = ras_record_parse_json(json, strlen(json), &ras, why, sizeof(why));
	if (r == 0) {
		in.ras = &ras;
		t = ras.time_usec;
	} else {
		assert_int_equal(r, -ENOMSG);
		assert_int_equal(mce_record_parse_json(json, strlen(json), &mce, why, sizeof(why)), 0);
		mce_decode(&mce, &d);
		in.mce = &mce;
		in.decoded = &d;
		t = mce.time_usec;
	}
	(void) error_pair_input(&f->pairs, &in, (uint64_t) t, &paired);
	r = module_feed_record(&f->l, &f->feed, &f->host, &in, t, paired, changed, f);
	if (in.ras)
		ras_record_done(&ras);
	return r;
}

#define EDAC(sec, sev) \
	"{\"time\":\"2026-11-20T14:00:0" #sec ".000000Z\",\"event\":\"memory_controller\",\"source\":\"ras:mc_event\"," \
	"\"severity\":\"" sev "\",\"error_count\":1,\"label\":\"CPU_SrcID#0_MC#3_Chan#0_DIMM#0\",\"mc\":3," \
	"\"address\":\"0x00000007e025e400\",\"dimm_slot\":\"P1-DIMMA1\"}"
#define MCE(sec) \
	"{\"time\":\"2026-11-20T14:00:0" #sec ".000000Z\",\"cpu\":0,\"socket\":0,\"bank\":25,\"vendor\":\"intel\"," \
	"\"family\":6,\"model\":106,\"status\":\"0x8c00000000800090\",\"addr\":\"0x00000007e025e400\"," \
	"\"misc\":\"0x09000201d809c086\"}"

static void test_error_by_serial(void **state)
{
	struct feeder f;
	const struct module_entry *m;

	(void) state;
	feeder_init(&f);
	assert_int_equal(feed_json(&f, EDAC(0, "corrected")), 1);
	assert_int_equal(f.l.n, 1);
	m = &f.l.e[0];
	assert_string_equal(m->id.key, "dimm|serial=SN-A1|part=M393");
	assert_int_equal(m->corrected, 1);
	/* The first corrected error: ok to watch (the defaults), told once. */
	assert_int_equal(f.changes, 1);
	assert_int_equal(f.last_to, MODULE_WATCH);
	module_ledger_done(&f.l);
}

/* The machine check first (coordinates only), then its EDAC copy: the error moves to the DIMM. */
static void test_pair_taken_over(void **state)
{
	struct feeder f;

	(void) state;
	feeder_init(&f);
	assert_int_equal(feed_json(&f, MCE(0)), 1);
	assert_int_equal(f.l.n, 1);
	assert_non_null(strstr(f.l.e[0].id.key, "machine=" MACHINE));
	assert_int_equal(feed_json(&f, EDAC(1, "corrected")), 1);
	/* The coordinates' module, left with nothing, is gone; the DIMM has the error, once. */
	assert_int_equal(f.l.n, 1);
	assert_string_equal(f.l.e[0].id.key, "dimm|serial=SN-A1|part=M393");
	assert_int_equal(f.l.e[0].corrected, 1);
	module_ledger_done(&f.l);
}

/* The EDAC copy first: the machine check that follows names no better module, and counts nothing. */
static void test_pair_counted_once(void **state)
{
	struct feeder f;

	(void) state;
	feeder_init(&f);
	assert_int_equal(feed_json(&f, EDAC(0, "corrected")), 1);
	assert_int_equal(feed_json(&f, MCE(1)), 0);
	assert_int_equal(f.l.n, 1);
	assert_int_equal(f.l.e[0].corrected, 1);
	module_ledger_done(&f.l);
}

static void test_spares_and_nothing(void **state)
{
	struct feeder f;

	(void) state;
	feeder_init(&f);
	assert_int_equal(feed_json(&f, "{\"time\":\"2026-11-20T11:03:00.000000Z\",\"event\":\"cxl_memory_sparing\","
				   "\"source\":\"tracepoint\",\"severity\":\"info\",\"memdev\":\"mem0\","
				   "\"serial\":4660,\"spare_resources_available\":2}"), 1);
	assert_int_equal(f.l.n, 1);
	assert_string_equal(f.l.e[0].id.serial, "0x1234");
	assert_int_equal(f.l.e[0].spares_left, 2);
	/* A record of no module tells the ledger nothing. */
	assert_int_equal(feed_json(&f, "{\"time\":\"2026-11-20T11:04:00.000000Z\",\"event\":\"pcie_aer\","
				   "\"source\":\"tracepoint\",\"severity\":\"corrected\",\"device\":\"0000:00:01.0\"}"), 0);
	assert_int_equal(f.l.n, 1);
	module_ledger_done(&f.l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_by_serial),
		cmocka_unit_test(test_pair_taken_over),
		cmocka_unit_test(test_pair_counted_once),
		cmocka_unit_test(test_spares_and_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
