/* SPDX-License-Identifier: MIT */
/*
 * cxl:* tracepoint samples → struct ras_record, against format files laid
 * out from the kernel's drivers/cxl/core/trace.h: tests/data/tracefs/mainline/cxl
 * (every event, newest field lists) and tests/data/tracefs/6.1/cxl (the two
 * AER events 6.1 had, with dev_name and no serial).  See that directory's
 * README: none of these was captured from a running kernel; test_real_kernels
 * takes the files captured from 7.3 and 6.12 (tests/data/tracefs/7.3, 6.12).  Samples are
 * built here from the format's own offsets, so a wrong offset in the decoder
 * (it has none: it reads by name) or in the file would show.
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

#include "ras-record.h"
#include "ras-trace.h"
#include "tracefs-format.h"
#include "tracepoint-sample.h"

#define NEW(name) "tracefs/mainline/cxl/" name ".format"

static const struct { enum ras_tp tp; const char *file; } mainline[] = {
	{ RAS_TP_CXL_AER_UNCORRECTABLE,      NEW("cxl_aer_uncorrectable_error") },
	{ RAS_TP_CXL_AER_CORRECTABLE,        NEW("cxl_aer_correctable_error") },
	{ RAS_TP_CXL_PORT_AER_UNCORRECTABLE, NEW("cxl_port_aer_uncorrectable_error") },
	{ RAS_TP_CXL_PORT_AER_CORRECTABLE,   NEW("cxl_port_aer_correctable_error") },
	{ RAS_TP_CXL_OVERFLOW,               NEW("cxl_overflow") },
	{ RAS_TP_CXL_GENERIC_EVENT,          NEW("cxl_generic_event") },
	{ RAS_TP_CXL_GENERAL_MEDIA,          NEW("cxl_general_media") },
	{ RAS_TP_CXL_DRAM,                   NEW("cxl_dram") },
	{ RAS_TP_CXL_MEMORY_MODULE,          NEW("cxl_memory_module") },
	{ RAS_TP_CXL_POISON,                 NEW("cxl_poison") },
};

static void test_formats(void **state)
{
	struct ras_tp_layout l;

	(void) state;
	for (size_t i = 0; i < sizeof(mainline) / sizeof(mainline[0]); i++) {
		load(&l, mainline[i].tp, mainline[i].file);
		/* the tracefs name the source opens is the file's own name */
		assert_non_null(strstr(mainline[i].file, ras_tp_name(mainline[i].tp)));
		assert_int_equal(ras_tp_source(mainline[i].tp) != MCE_SOURCE_UNKNOWN, 1);
	}
	load(&l, RAS_TP_CXL_AER_UNCORRECTABLE, "tracefs/6.1/cxl/cxl_aer_uncorrectable_error.format");
	load(&l, RAS_TP_CXL_AER_CORRECTABLE, "tracefs/6.1/cxl/cxl_aer_correctable_error.format");
}

/* The common part of every event record: device, log, header. */
static void put_device(struct sample *s, const struct ras_tp_layout *l)
{
	put_str(s, l, "memdev", "mem0");
	put_str(s, l, "host", "0000:0d:00.0");
	put(s, l, "serial", 0x1234);
}

/* The cxl_dram QEMU's cxl-inject-dram-event produced in issue 28, region-less. */
static void dram_sample(struct sample *s, const struct ras_tp_layout *l)
{
	static const unsigned char region_uuid[16] = {
		0x8a, 0x4f, 0x2c, 0x11, 0x90, 0x0e, 0x4b, 0x3c, 0xa1, 0x5d, 0x66, 0x77, 0x01, 0x02, 0x03, 0x04,
	};

	sample_init(s, l);
	put_device(s, l);
	put(s, l, "log", 0);                    /* Informational */
	put(s, l, "hdr_flags", 1u << 3);        /* MAINTENANCE_NEEDED */
	put(s, l, "dpa", 0x2000);
	put(s, l, "descriptor", 0);
	put(s, l, "type", 1);                   /* DRAM numbering: Scrub Media ECC Error */
	put(s, l, "transaction_type", 1);       /* Host Read */
	/* channel, rank, bank group, bank, row, column valid; nibble mask not */
	put(s, l, "validity_flags", 0x7b);
	put(s, l, "channel", 2);
	put(s, l, "rank", 1);
	put(s, l, "nibble_mask", 0xabc);
	put(s, l, "bank_group", 1);
	put(s, l, "bank", 3);
	put(s, l, "row", 1234);
	put(s, l, "column", 56);
	if (trace_format_field(&l->format, "hpa"))    /* not on a kernel before regions */
		put(s, l, "hpa", UINT64_MAX);
	put_bytes(s, l, "region_uuid", region_uuid, 16);
	put_str(s, l, "region_name", "");
}

static void test_dram(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	load(&l, RAS_TP_CXL_DRAM, NEW("cxl_dram"));
	dram_sample(&s, &l);
	decode_ok(&l, &s, &r);
	assert_int_equal(r.event, RAS_EVENT_CXL_DRAM);
	assert_int_equal(r.source, MCE_SOURCE_CXL_DRAM);
	/* corrected by the device: corrected, whatever the log */
	assert_int_equal(r.severity, RAS_SEV_CORRECTED);
	assert_string_equal(str(&r, "memdev"), "mem0");
	assert_string_equal(str(&r, "host"), "0000:0d:00.0");
	assert_int_equal(num(&r, "serial"), 0x1234);
	assert_string_equal(str(&r, "log"), "informational");
	assert_string_equal(str(&r, "record_flags"), "MAINTENANCE_NEEDED");
	assert_int_equal(num(&r, "dpa"), 0x2000);
	assert_string_equal(str(&r, "type"), "Scrub Media ECC Error");
	assert_string_equal(str(&r, "transaction_type"), "Host Read");
	assert_int_equal(num(&r, "channel"), 2);
	assert_int_equal(num(&r, "rank"), 1);
	assert_int_equal(num(&r, "bank_group"), 1);
	assert_int_equal(num(&r, "bank"), 3);
	assert_int_equal(num(&r, "row"), 1234);
	assert_int_equal(num(&r, "column"), 56);
	assert_null(ras_record_find(&r, "nibble_mask"));      /* not marked valid */
	assert_null(ras_record_find(&r, "descriptor"));       /* no bit set */
	assert_null(ras_record_find(&r, "hpa"));              /* all ones: no region */
	assert_string_equal(str(&r, "no_page"), "not_in_region");
	assert_null(ras_record_find(&r, "region"));           /* empty */
	assert_string_equal(str(&r, "region_uuid"), "8a4f2c11-900e-4b3c-a15d-667701020304");
	assert_string_equal(r.summary, "Corrected CXL DRAM error on mem0 at DPA 0x2000: Scrub Media ECC Error "
			     "(bank 3, row 1234, column 56)");
	ras_record_done(&r);

	/* uncorrectable in the fatal log, inside a region: fatal, with a page */
	dram_sample(&s, &l);
	put(&s, &l, "log", 3);
	put(&s, &l, "descriptor", 1);
	put(&s, &l, "hpa", 0x1080002000);
	put(&s, &l, "validity_flags", 0x4);                   /* nibble mask only */
	put_str(&s, &l, "region_name", "region0");
	decode_ok(&l, &s, &r);
	assert_int_equal(r.severity, RAS_SEV_FATAL);
	assert_string_equal(str(&r, "descriptor"), "UNCORRECTABLE_EVENT");
	assert_int_equal(num(&r, "hpa"), 0x1080002000);
	assert_null(ras_record_find(&r, "no_page"));
	assert_string_equal(str(&r, "region"), "region0");
	assert_int_equal(num(&r, "nibble_mask"), 0xabc);
	assert_null(ras_record_find(&r, "row"));
	assert_null(ras_record_find(&r, "bank"));
	ras_record_done(&r);
}

static void test_general_media(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	load(&l, RAS_TP_CXL_GENERAL_MEDIA, NEW("cxl_general_media"));
	sample_init(&s, &l);
	put_device(&s, &l);
	put(&s, &l, "log", 2);                  /* Failure */
	put(&s, &l, "descriptor", 0x3);         /* UNCORRECTABLE_EVENT|THRESHOLD_EVENT */
	put(&s, &l, "dpa", 0x40000);
	put(&s, &l, "dpa_flags", 0x1);          /* VOLATILE */
	put(&s, &l, "type", 4);                 /* media numbering: Scrub Media ECC Error */
	put(&s, &l, "transaction_type", 5);     /* Internal Media Scrub */
	put(&s, &l, "validity_flags", 0x5);     /* channel, device; not rank */
	put(&s, &l, "channel", 7);
	put(&s, &l, "rank", 9);
	put(&s, &l, "device", 0x10203);
	put(&s, &l, "hpa", UINT64_MAX);
	put_str(&s, &l, "region_name", "");
	decode_ok(&l, &s, &r);
	assert_int_equal(r.event, RAS_EVENT_CXL_GENERAL_MEDIA);
	assert_int_equal(r.severity, RAS_SEV_UNCORRECTED);
	assert_string_equal(str(&r, "log"), "failure");
	assert_string_equal(str(&r, "descriptor"), "UNCORRECTABLE_EVENT|THRESHOLD_EVENT");
	assert_string_equal(str(&r, "dpa_flags"), "VOLATILE");
	assert_string_equal(str(&r, "type"), "Scrub Media ECC Error");
	assert_string_equal(str(&r, "transaction_type"), "Internal Media Scrub");
	assert_int_equal(num(&r, "channel"), 7);
	assert_null(ras_record_find(&r, "rank"));
	assert_int_equal(num(&r, "media_device"), 0x10203);
	assert_string_equal(r.summary, "Uncorrected CXL media error on mem0 at DPA 0x40000: Scrub Media ECC Error");
	ras_record_done(&r);
}

/* A memory module event: what goes into the sample, and what the record must say. */
struct module_case {
	uint64_t log, event_type, health_status, media_status, life_used, dirty_shutdowns;
	uint64_t corrected_volatile, corrected_persistent;
	int16_t temperature;
	enum ras_severity severity;
	const char *event_type_name, *health_names, *media_name;
};

/* Builds the case's sample into s on layout l, decodes it and checks the record (left in r). */
static void check_memory_module(const struct ras_tp_layout *l, struct sample *s, struct ras_record *r,
				const struct module_case *c)
{
	sample_init(s, l);
	put_device(s, l);
	put(s, l, "log", c->log);
	put(s, l, "event_type", c->event_type);
	put(s, l, "health_status", c->health_status);
	put(s, l, "media_status", c->media_status);
	put(s, l, "life_used", c->life_used);
	put(s, l, "dirty_shutdown_cnt", c->dirty_shutdowns);
	put(s, l, "cor_vol_err_cnt", c->corrected_volatile);
	put(s, l, "cor_per_err_cnt", c->corrected_persistent);
	put(s, l, "device_temp", (uint16_t) c->temperature);
	decode_ok(l, s, r);
	assert_int_equal(r->event, RAS_EVENT_CXL_MEMORY_MODULE);
	assert_int_equal(r->severity, c->severity);
	assert_string_equal(str(r, "event_type"), c->event_type_name);
	assert_string_equal(str(r, "health_status"), c->health_names);
	assert_string_equal(str(r, "media_status"), c->media_name);
	assert_int_equal(num(r, "life_used"), c->life_used);
	assert_int_equal(num(r, "dirty_shutdowns"), c->dirty_shutdowns);
	assert_int_equal(num(r, "corrected_volatile_errors"), c->corrected_volatile);
	assert_int_equal(num(r, "corrected_persistent_errors"), c->corrected_persistent);
	assert_int_equal(ras_record_find(r, "temperature")->i, c->temperature);
}

static void test_memory_module(void **state)
{
	static const struct module_case warning = {
		.log = 1,                       /* Warning */
		.event_type = 3, .event_type_name = "Temperature Change",
		.health_status = 0x5, .health_names = "MAINTENANCE_NEEDED|REPLACEMENT_NEEDED",
		.media_status = 3, .media_name = "All Data Lost",
		.life_used = 87, .dirty_shutdowns = 4, .corrected_volatile = 100, .corrected_persistent = 0,
		.temperature = -12, .severity = RAS_SEV_CORRECTED,
	};
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	load(&l, RAS_TP_CXL_MEMORY_MODULE, NEW("cxl_memory_module"));
	check_memory_module(&l, &s, &r, &warning);
	assert_string_equal(r.summary, "Corrected CXL memory device event on mem0: Temperature Change");
	ras_record_done(&r);

	/* a log number newer than our table is never harmless; an event type too new is its number */
	put(&s, &l, "log", 9);
	put(&s, &l, "event_type", 200);
	decode_ok(&l, &s, &r);
	assert_int_equal(r.severity, RAS_SEV_UNCORRECTED);
	assert_int_equal(num(&r, "log"), 9);
	assert_int_equal(num(&r, "event_type"), 200);
	ras_record_done(&r);
}

static void test_poison(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	load(&l, RAS_TP_CXL_POISON, NEW("cxl_poison"));
	sample_init(&s, &l);
	put_device(&s, &l);
	put(&s, &l, "trace_type", 0);           /* List */
	put_str(&s, &l, "region", "region0");
	put(&s, &l, "hpa", 0x1080040000);
	put(&s, &l, "dpa", 0x40000);
	put(&s, &l, "dpa_length", 0x40);
	put(&s, &l, "source", 3);               /* Injected */
	put(&s, &l, "flags", 0x2);              /* Overflow */
	decode_ok(&l, &s, &r);
	assert_int_equal(r.event, RAS_EVENT_CXL_POISON);
	assert_int_equal(r.severity, RAS_SEV_UNCORRECTED);
	assert_string_equal(str(&r, "trace_type"), "list");
	assert_int_equal(num(&r, "hpa"), 0x1080040000);
	assert_int_equal(num(&r, "dpa_length"), 0x40);
	assert_string_equal(str(&r, "poison_source"), "Injected");
	assert_string_equal(str(&r, "poison_flags"), "Overflow");
	assert_string_equal(str(&r, "region"), "region0");
	assert_string_equal(r.summary, "CXL poison (list) on mem0 at DPA 0x40000, 0x40 bytes");
	ras_record_done(&r);

	put(&s, &l, "trace_type", 2);           /* Clear: an action, not an error */
	put(&s, &l, "source", 5);               /* reserved */
	decode_ok(&l, &s, &r);
	assert_int_equal(r.severity, RAS_SEV_INFO);
	assert_int_equal(num(&r, "poison_source"), 5);
	ras_record_done(&r);
}

/*
 * The format files of real kernels (tests/data/tracefs/7.3 and 6.12, captured
 * in the VM rig), which differ from the laid-out ones: hdr_ld_id and
 * hdr_head_id move every field after the header, hpa_alias0 moves the
 * region fields, and __data_loc strings are unsigned.  Each loads, and the
 * records QEMU's cxl-inject-dram-event and cxl-inject-memory-module-event
 * made on 7.3 in tests/vm/scenarios/65-cxl-events.sh decode to what that
 * kernel printed (cxl_dram: ... bank_group=1 bank=3 row=1234 column=56;
 * cxl_memory_module: ... life_used=30 device_temp=-15 dirty_shutdown_cnt=4).
 */
/*
 * cxl_memory_sparing (Linux 6.16 and later), against the format captured
 * from 7.3 (tests/data/tracefs/7.3/cxl): a hard sparing the device did,
 * with the validity flags saying which coordinates it names.  The
 * sub-channel's validity bit is 9 here (10 in the DRAM record).
 */
static void test_memory_sparing(void **state)
{
	static const unsigned char comp[16] = { 0x03, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 1, 2, 3, 4 };
	const struct ras_field *f;
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	load(&l, RAS_TP_CXL_MEMORY_SPARING, "tracefs/7.3/cxl/cxl_memory_sparing.format");
	assert_int_equal(ras_tp_source(RAS_TP_CXL_MEMORY_SPARING), MCE_SOURCE_CXL_MEMORY_SPARING);
	sample_init(&s, &l);
	put_device(&s, &l);
	put(&s, &l, "log", 1);                  /* Warning */
	put(&s, &l, "hdr_flags", 1u << 3);      /* MAINTENANCE_NEEDED */
	put(&s, &l, "flags", 0x6);              /* Hard Sparing | Device Initiated Sparing */
	put(&s, &l, "result", 0);
	put(&s, &l, "res_avail", 2);
	/* channel, rank, bank group, bank, row, sub-channel valid; column and nibble mask not */
	put(&s, &l, "validity_flags", 0x1u | 0x2u | 0x8u | 0x10u | 0x20u | (1u << 9));
	put(&s, &l, "channel", 1);
	put(&s, &l, "rank", 2);
	put(&s, &l, "nibble_mask", 0x30);
	put(&s, &l, "bank_group", 3);
	put(&s, &l, "bank", 1);
	put(&s, &l, "row", 0x2345);
	put(&s, &l, "column", 77);
	put(&s, &l, "sub_channel", 1);
	put_bytes(&s, &l, "comp_id", comp, sizeof(comp));
	decode_ok(&l, &s, &r);
	assert_int_equal(r.event, RAS_EVENT_CXL_MEMORY_SPARING);
	assert_int_equal(r.severity, RAS_SEV_CORRECTED);
	assert_string_equal(str(&r, "sparing_flags"), "Hard Sparing|Device Initiated Sparing");
	assert_int_equal(num(&r, "sparing_result"), 0);
	assert_int_equal(num(&r, "spare_resources_available"), 2);
	assert_int_equal(num(&r, "channel"), 1);
	assert_int_equal(num(&r, "rank"), 2);
	assert_int_equal(num(&r, "bank_group"), 3);
	assert_int_equal(num(&r, "bank"), 1);
	assert_int_equal(num(&r, "row"), 0x2345);
	assert_int_equal(num(&r, "sub_channel"), 1);
	assert_null(ras_record_find(&r, "column"));
	assert_null(ras_record_find(&r, "nibble_mask"));
	assert_null(ras_record_find(&r, "component_id"));
	assert_string_equal(r.summary,
			    "CXL memory sparing on mem0 at bank 1, row 9029 (Hard Sparing|Device Initiated Sparing), result 0");
	ras_record_done(&r);

	/* the component id only when its validity bit is set; a fatal log is fatal */
	put(&s, &l, "validity_flags", 1u << 7);
	put(&s, &l, "log", 3);
	put(&s, &l, "flags", 0);
	decode_ok(&l, &s, &r);
	assert_int_equal(r.severity, RAS_SEV_FATAL);
	f = ras_record_find(&r, "component_id");
	assert_non_null(f);
	assert_int_equal(f->type, RAS_FIELD_BYTES);
	assert_int_equal(f->len, sizeof(comp));
	assert_memory_equal(f->data, comp, sizeof(comp));
	assert_null(ras_record_find(&r, "row"));
	assert_null(ras_record_find(&r, "sparing_flags"));
	assert_string_equal(r.summary, "CXL memory sparing on mem0 (no flags), result 0");
	ras_record_done(&r);
}

static void test_real_kernels(void **state)
{
	static const char *const kernels[] = { "7.3", "6.12" };
	static const struct module_case qemu_module = {
		.log = 2,                       /* Failure */
		.event_type = 2, .event_type_name = "Life Used Change",
		.health_status = 0x3, .health_names = "MAINTENANCE_NEEDED|PERFORMANCE_DEGRADED",
		.media_status = 7, .media_name = "All Data Loss in Event of Power Loss",
		.life_used = 30, .dirty_shutdowns = 4, .corrected_volatile = 5, .corrected_persistent = 6,
		.temperature = -15, .severity = RAS_SEV_UNCORRECTED,
	};
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	char file[128];

	(void) state;
	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		for (size_t i = 0; i < sizeof(mainline) / sizeof(mainline[0]); i++) {
			snprintf(file, sizeof(file), "tracefs/%s/cxl/%s.format", kernels[k],
				 ras_tp_name(mainline[i].tp));
			/* 6.12 has no cxl_port_aer_* events */
			if (strcmp(kernels[k], "6.12") == 0 && strstr(file, "cxl_port_aer_"))
				continue;
			load(&l, mainline[i].tp, file);
		}

		snprintf(file, sizeof(file), "tracefs/%s/cxl/cxl_dram.format", kernels[k]);
		load(&l, RAS_TP_CXL_DRAM, file);
		dram_sample(&s, &l);
		decode_ok(&l, &s, &r);
		assert_int_equal(r.severity, RAS_SEV_CORRECTED);
		assert_string_equal(str(&r, "memdev"), "mem0");
		assert_int_equal(num(&r, "serial"), 0x1234);
		assert_int_equal(num(&r, "dpa"), 0x2000);
		assert_int_equal(num(&r, "channel"), 2);
		assert_int_equal(num(&r, "rank"), 1);
		assert_int_equal(num(&r, "bank_group"), 1);
		assert_int_equal(num(&r, "bank"), 3);
		assert_int_equal(num(&r, "row"), 1234);
		assert_int_equal(num(&r, "column"), 56);
		assert_string_equal(str(&r, "no_page"), "not_in_region");
		assert_string_equal(str(&r, "region_uuid"), "8a4f2c11-900e-4b3c-a15d-667701020304");
		ras_record_done(&r);

		snprintf(file, sizeof(file), "tracefs/%s/cxl/cxl_memory_module.format", kernels[k]);
		load(&l, RAS_TP_CXL_MEMORY_MODULE, file);
		check_memory_module(&l, &s, &r, &qemu_module);
		ras_record_done(&r);
	}
}

static void test_aer(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	load(&l, RAS_TP_CXL_AER_UNCORRECTABLE, NEW("cxl_aer_uncorrectable_error"));
	sample_init(&s, &l);
	put_device(&s, &l);
	put(&s, &l, "status", 0x480);           /* Memory Data ECC Error, Received Poison From Peer */
	put(&s, &l, "first_error", 7);
	decode_ok(&l, &s, &r);
	assert_int_equal(r.event, RAS_EVENT_CXL_AER);
	assert_int_equal(r.source, MCE_SOURCE_CXL_AER_UNCORRECTABLE);
	assert_int_equal(r.severity, RAS_SEV_UNCORRECTED);
	assert_int_equal(num(&r, "uncorrectable_status"), 0x480);
	assert_string_equal(str(&r, "errors"), "Memory Data ECC Error, Received Poison From Peer");
	assert_string_equal(str(&r, "first_error"), "Memory Data ECC Error");
	assert_string_equal(r.summary, "Uncorrected CXL error on mem0: Memory Data ECC Error, Received Poison From Peer");
	ras_record_done(&r);

	/* 6.1: dev_name, no host, no serial */
	load(&l, RAS_TP_CXL_AER_CORRECTABLE, "tracefs/6.1/cxl/cxl_aer_correctable_error.format");
	sample_init(&s, &l);
	put_str(&s, &l, "dev_name", "mem1");
	put(&s, &l, "status", 0x4 | 1u << 20);  /* CRC Threshold Hit and a bit no table names */
	decode_ok(&l, &s, &r);
	assert_int_equal(r.severity, RAS_SEV_CORRECTED);
	assert_string_equal(str(&r, "memdev"), "mem1");
	assert_null(ras_record_find(&r, "serial"));
	assert_null(ras_record_find(&r, "host"));
	assert_string_equal(str(&r, "errors"), "CRC Threshold Hit, bit 20");
	ras_record_done(&r);

	/* a port: "device", not a memdev */
	load(&l, RAS_TP_CXL_PORT_AER_CORRECTABLE, NEW("cxl_port_aer_correctable_error"));
	sample_init(&s, &l);
	put_str(&s, &l, "device", "port1");
	put_str(&s, &l, "host", "pci0000:0c");
	put(&s, &l, "status", 0x40);
	decode_ok(&l, &s, &r);
	assert_int_equal(r.source, MCE_SOURCE_CXL_PORT_AER_CORRECTABLE);
	assert_string_equal(str(&r, "device"), "port1");
	assert_null(ras_record_find(&r, "memdev"));
	assert_string_equal(r.summary, "Corrected CXL error on port1: Received Error From Physical Layer");
	ras_record_done(&r);
}

static void test_overflow_and_generic(void **state)
{
	static const unsigned char uuid[16] = { 0xba, 0x5e, 0xba, 0x11, 0xab, 0xcd, 0x11, 0x22,
						0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0x00 };
	unsigned char data[80];
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	const struct ras_field *f;

	(void) state;
	load(&l, RAS_TP_CXL_OVERFLOW, NEW("cxl_overflow"));
	sample_init(&s, &l);
	put_device(&s, &l);
	put(&s, &l, "log", 2);
	put(&s, &l, "count", 17);
	put(&s, &l, "first_ts", 1000);
	put(&s, &l, "last_ts", 2000);
	decode_ok(&l, &s, &r);
	assert_int_equal(r.event, RAS_EVENT_CXL_OVERFLOW);
	assert_int_equal(num(&r, "count"), 17);
	assert_int_equal(num(&r, "last_timestamp"), 2000);
	assert_string_equal(r.summary, "CXL failure event log of mem0 overflowed: 17 records lost");
	ras_record_done(&r);

	load(&l, RAS_TP_CXL_GENERIC_EVENT, NEW("cxl_generic_event"));
	sample_init(&s, &l);
	put_device(&s, &l);
	put(&s, &l, "log", 0);
	put_bytes(&s, &l, "hdr_uuid", uuid, 16);
	for (unsigned i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char) i;
	put_bytes(&s, &l, "data", data, sizeof(data));
	decode_ok(&l, &s, &r);
	assert_int_equal(r.event, RAS_EVENT_CXL_GENERIC);
	assert_int_equal(r.severity, RAS_SEV_INFO);
	assert_string_equal(str(&r, "uuid"), "ba5eba11-abcd-1122-3344-556677889900");
	f = ras_record_find(&r, "data");
	assert_non_null(f);
	assert_int_equal(f->len, 80);
	assert_memory_equal(f->data, data, 80);
	ras_record_done(&r);
}

static void test_truncated_and_hostile(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	char why[256];
	uint32_t loc;

	(void) state;
	load(&l, RAS_TP_CXL_DRAM, NEW("cxl_dram"));
	dram_sample(&s, &l);
	/* cut inside the fixed fields: refused, naming a field */
	assert_int_equal(ras_tp_decode(&l, s.b, 100, &r, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "100-byte sample"));
	/* cut before the strings behind the fixed fields */
	assert_int_equal(ras_tp_decode(&l, s.b, 184, &r, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "outside"));
	/* a memdev name that points past the end */
	loc = 4u << 16 | (uint32_t) (s.size + 40);
	memcpy(s.b + field(&l, "memdev")->offset, &loc, 4);
	assert_int_equal(ras_tp_decode(&l, s.b, s.size, &r, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "'memdev'"));
	/* every length cut short is refused, never read past */
	dram_sample(&s, &l);
	for (size_t n = 0; n < s.size; n++)
		assert_int_equal(ras_tp_decode(&l, s.b, n, &r, why, sizeof(why)), -EBADMSG);
}

/* A format file with fields from the edited text: unknown ones ignored, bad sizes refused. */
static int load_edited(struct ras_tp_layout *l, enum ras_tp tp, const char *file, const char *from,
		       const char *to, const char **missing)
{
	size_t len;
	char *text = slurp(file, &len), *edited, *at;
	unsigned line = 0;
	int r;

	at = strstr(text, from);
	assert_non_null(at);
	edited = malloc(len + strlen(to) + 1);
	assert_non_null(edited);
	memcpy(edited, text, (size_t) (at - text));
	strcpy(edited + (at - text), to);
	strcat(edited, at + strlen(from));
	r = ras_tp_layout_init(l, tp, edited, strlen(edited), &line, missing);
	free(edited);
	free(text);
	return r;
}

static void test_format_variants(void **state)
{
	struct ras_tp_layout l, real;
	struct sample s;
	struct ras_record r;
	const char *missing = NULL;
	char why[256];

	(void) state;
	/* a kernel without hpa (as before regions were traced) and with a field we do not know */
	assert_int_equal(load_edited(&l, RAS_TP_CXL_DRAM, NEW("cxl_dram"), "u64 hpa;",
				     "u64 future_field;", &missing), 0);
	dram_sample(&s, &l);
	decode_ok(&l, &s, &r);
	assert_null(ras_record_find(&r, "hpa"));
	assert_string_equal(str(&r, "no_page"), "no_host_address");
	assert_int_equal(num(&r, "row"), 1234);
	ras_record_done(&r);

	/* a required field missing: the source refuses the event, naming it */
	assert_int_equal(load_edited(&l, RAS_TP_CXL_DRAM, NEW("cxl_dram"), "u64 dpa;", "u64 dpb;", &missing),
			 -EPROTO);
	assert_string_equal(missing, "dpa");

	/* a row that is no integer: an error with the field's name, not a crash */
	assert_int_equal(load_edited(&l, RAS_TP_CXL_DRAM, NEW("cxl_dram"), "u32 row;\toffset:92;\tsize:4;",
				     "u32 row;\toffset:92;\tsize:3;", &missing), 0);
	dram_sample(&s, &l);
	assert_int_equal(ras_tp_decode(&l, s.b, s.size, &r, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "'row'"));

	/* a field placed far beyond any sample */
	assert_int_equal(load_edited(&l, RAS_TP_CXL_DRAM, NEW("cxl_dram"), "u64 dpa;\toffset:72;",
				     "u64 dpa;\toffset:60000;", &missing), 0);
	load(&real, RAS_TP_CXL_DRAM, NEW("cxl_dram"));
	dram_sample(&s, &real);
	assert_int_equal(ras_tp_decode(&l, s.b, s.size, &r, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "'dpa'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_dram),
		cmocka_unit_test(test_general_media),
		cmocka_unit_test(test_memory_module),
		cmocka_unit_test(test_poison),
		cmocka_unit_test(test_memory_sparing),
		cmocka_unit_test(test_real_kernels),
		cmocka_unit_test(test_aer),
		cmocka_unit_test(test_overflow_and_generic),
		cmocka_unit_test(test_truncated_and_hostile),
		cmocka_unit_test(test_format_variants),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
