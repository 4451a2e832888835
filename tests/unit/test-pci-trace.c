/* SPDX-License-Identifier: MIT */
/*
 * pci:pci_hp_event and pci:pcie_link_event samples → struct ras_record, and
 * what newer kernels added to ras:aer_event (bus_type, in 7.3's captured
 * format), against format files laid out from include/trace/events/pci.h
 * (tests/data/tracefs/7.3/pci, not captured: see its README).  Samples are built byte by byte to the format's
 * offsets, __data_loc payloads behind the fixed fields, as the kernel does.
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

#define HP "tracefs/7.3/pci/pci_hp_event.format"
#define LINK "tracefs/7.3/pci/pcie_link_event.format"

static void test_formats(void **state)
{
	struct ras_tp_layout l;

	(void) state;
	load(&l, RAS_TP_PCI_HP_EVENT, HP);
	assert_string_equal(ras_tp_name(RAS_TP_PCI_HP_EVENT), "pci_hp_event");
	assert_int_equal(ras_tp_source(RAS_TP_PCI_HP_EVENT), MCE_SOURCE_PCI_HP_EVENT);
	assert_true(field(&l, "slot")->is_data_loc);
	assert_true(field(&l, "event")->is_signed);
	load(&l, RAS_TP_PCIE_LINK_EVENT, LINK);
	assert_int_equal(field(&l, "link_status")->offset, 36);
	assert_string_equal(mce_source_to_string(ras_tp_source(RAS_TP_PCIE_LINK_EVENT)), "pci:pcie_link_event");
	assert_string_equal(ras_event_to_string(RAS_EVENT_PCIE_LINK), "pcie_link");
}

static void test_hotplug(void **state)
{
	static const struct { int event; const char *name, *summary; } cases[] = {
		{ 0, "link_up",          "PCI hotplug slot 4 on 0000:00:1c.0: link up" },
		{ 1, "link_down",        "PCI hotplug slot 4 on 0000:00:1c.0: link down" },
		{ 2, "card_present",     "PCI hotplug slot 4 on 0000:00:1c.0: card present" },
		{ 3, "card_not_present", "PCI hotplug slot 4 on 0000:00:1c.0: card removed" },
	};
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	load(&l, RAS_TP_PCI_HP_EVENT, HP);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sample_init(&s, &l);
		put_str(&s, &l, "port_name", "0000:00:1c.0");
		put_str(&s, &l, "slot", "4");
		put(&s, &l, "event", (uint64_t) cases[i].event);
		decode_ok(&l, &s, &r);
		assert_int_equal(r.event, RAS_EVENT_PCI_HOTPLUG);
		assert_int_equal(r.source, MCE_SOURCE_PCI_HP_EVENT);
		assert_int_equal(r.severity, RAS_SEV_INFO);
		assert_string_equal(str(&r, "port_name"), "0000:00:1c.0");
		assert_string_equal(str(&r, "slot"), "4");
		assert_string_equal(str(&r, "hotplug_event"), cases[i].name);
		assert_string_equal(r.summary, cases[i].summary);
		ras_record_done(&r);
	}
	/* A value newer than the uapi enum we know: kept as the number, never dropped. */
	sample_init(&s, &l);
	put_str(&s, &l, "port_name", "0000:00:1c.0");
	put_str(&s, &l, "slot", "4");
	put(&s, &l, "event", 9);
	decode_ok(&l, &s, &r);
	assert_int_equal(num(&r, "hotplug_event"), 9);
	assert_non_null(strstr(r.summary, "event 9"));
	ras_record_done(&r);
}

/* A pcie_link_event sample: the port, its type, why, the two speeds (enum pci_bus_speed), lanes, flit mode. */
static void link_sample(struct ras_tp_layout *l, struct sample *s, const char *port, unsigned type,
			unsigned reason, unsigned cur, unsigned max, unsigned width, unsigned flit)
{
	load(l, RAS_TP_PCIE_LINK_EVENT, LINK);
	sample_init(s, l);
	put_str(s, l, "port_name", port);
	put(s, l, "type", type);
	put(s, l, "reason", reason);
	put(s, l, "cur_bus_speed", cur);
	put(s, l, "max_bus_speed", max);
	put(s, l, "width", width);
	put(s, l, "flit_mode", flit);
}

/* A link that came back at 8 GT/s x4 where it can run 16 GT/s: downtrained, said so. */
static void test_link_degraded(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	/* a root port (PCI_EXP_TYPE_ROOT_PORT), PCIE_BWCTRL_IRQ, PCIE_SPEED_8_0GT of PCIE_SPEED_16_0GT, x4 */
	link_sample(&l, &s, "0000:00:02.0", 4, 3, 0x16, 0x17, 4, 0);
	put(&s, &l, "link_status", 0x2000 | 0x4000 | 0x4);   /* DLLLA, LBMS; Current Link Speed 4 */
	decode_ok(&l, &s, &r);
	assert_int_equal(r.event, RAS_EVENT_PCIE_LINK);
	assert_int_equal(r.severity, RAS_SEV_INFO);
	assert_string_equal(str(&r, "port_type"), "root_port");
	assert_string_equal(str(&r, "reason"), "bwctrl_irq");
	assert_string_equal(str(&r, "speed"), "8.0 GT/s");
	assert_string_equal(str(&r, "max_speed"), "16.0 GT/s");
	assert_int_equal(num(&r, "width"), 4);
	assert_int_equal(num(&r, "link_status"), 0x6004);
	assert_string_equal(str(&r, "link_status_bits"), "bit 2|DLLLA|LBMS");
	assert_true(ras_record_find(&r, "degraded")->b);
	assert_false(ras_record_find(&r, "flit_mode")->b);
	assert_string_equal(r.summary, "PCIe link of 0000:00:02.0 trained: 8.0 GT/s x4, below its maximum of "
				       "16.0 GT/s (bwctrl_irq)");
	ras_record_done(&r);
}

/* At full speed it is not degraded; a speed the kernel does not know (0xff) names none and says so. */
static void test_link_full_and_unknown(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	/* a downstream port, PCIE_HOTPLUG, 64 GT/s of 64, x16, flit mode */
	link_sample(&l, &s, "0000:40:01.1", 6, 4, 0x19, 0x19, 16, 1);
	decode_ok(&l, &s, &r);
	assert_false(ras_record_find(&r, "degraded")->b);
	assert_true(ras_record_find(&r, "flit_mode")->b);
	assert_string_equal(str(&r, "speed"), "64.0 GT/s");
	assert_null(ras_record_find(&r, "link_status_bits"));
	assert_string_equal(r.summary, "PCIe link of 0000:40:01.1 trained: 64.0 GT/s x16 (hotplug)");
	ras_record_done(&r);

	/* PCI_SPEED_UNKNOWN (the link is down) of 32 GT/s, a reason newer than our table */
	link_sample(&l, &s, "0000:40:01.1", 0, 17, 0xff, 0x18, 0, 0);
	decode_ok(&l, &s, &r);
	assert_null(ras_record_find(&r, "speed"));
	assert_int_equal(num(&r, "speed_code"), 0xff);
	assert_int_equal(num(&r, "reason"), 17);
	assert_false(ras_record_find(&r, "degraded")->b);
	assert_string_equal(r.summary, "PCIe link of 0000:40:01.1 trained: unknown speed x0");
	ras_record_done(&r);
}

/* A port name that points outside the sample is refused by name, not read. */
static void test_hostile(void **state)
{
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;
	char why[256];
	uint32_t loc = 200u << 16 | 30;

	(void) state;
	load(&l, RAS_TP_PCI_HP_EVENT, HP);
	sample_init(&s, &l);
	put_str(&s, &l, "slot", "4");
	memcpy(s.b + field(&l, "port_name")->offset, &loc, 4);
	assert_int_equal(ras_tp_decode(&l, s.b, s.size, &r, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "'port_name' names 200 bytes at offset 30"));
	/* Cut inside the fixed fields: refused, not half-read. */
	load(&l, RAS_TP_PCIE_LINK_EVENT, LINK);
	sample_init(&s, &l);
	memcpy(s.b + field(&l, "port_name")->offset, &(uint32_t) { 2u << 16 | 20 }, 4);
	memcpy(s.b + 20, "x", 2);
	assert_int_equal(ras_tp_decode(&l, s.b, 30, &r, why, sizeof(why)), -EBADMSG);
	assert_non_null(strstr(why, "beyond the 30-byte sample"));
}

/*
 * ras:aer_event as newer kernels define it, bus_type added after dev_name
 * (the CXL AER series, include/ras/ras_event.h), and with fields this
 * decoder does not know, fixed and __data_loc, before and after the known
 * ones: the record decodes, bus_type is read, the unknown ones are ignored.
 */
static void test_aer_bus_type_and_unknown_fields(void **state)
{
	static const char text[] =
		"name: aer_event\nID: 1930\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:u64 future_first;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:__data_loc char[] dev_name;\toffset:16;\tsize:4;\tsigned:0;\n"
		"\tfield:__data_loc char[] bus_type;\toffset:20;\tsize:4;\tsigned:0;\n"
		"\tfield:__data_loc u8[] future_blob;\toffset:24;\tsize:4;\tsigned:0;\n"
		"\tfield:u32 status;\toffset:28;\tsize:4;\tsigned:0;\n"
		"\tfield:u8 severity;\toffset:32;\tsize:1;\tsigned:0;\n"
		"\tfield:u8 tlp_header_valid;\toffset:33;\tsize:1;\tsigned:0;\n"
		"\tfield:u32 tlp_header[14];\toffset:36;\tsize:56;\tsigned:0;\n"
		"\tfield:s32 future_last;\toffset:92;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"%s %s Bus Error\", __get_str(dev_name), __get_str(bus_type)\n";
	static const unsigned char blob[5] = { 1, 2, 3, 4, 5 };
	struct ras_tp_layout l;
	struct sample s;
	struct ras_record r;

	(void) state;
	assert_int_equal(ras_tp_layout_init(&l, RAS_TP_AER_EVENT, text, sizeof(text) - 1, NULL, NULL), 0);
	sample_init(&s, &l);
	memset(s.b + 8, 0xee, 8);
	put_str(&s, &l, "dev_name", "0000:0d:00.0");
	put_str(&s, &l, "bus_type", "CXL");
	put_dyn(&s, &l, "future_blob", blob, sizeof(blob));
	put(&s, &l, "status", 0x40);          /* Bad TLP */
	put(&s, &l, "severity", 2);           /* AER_CORRECTABLE */
	put(&s, &l, "future_last", (uint64_t) -1);
	decode_ok(&l, &s, &r);
	assert_string_equal(str(&r, "bus_type"), "CXL");
	assert_string_equal(str(&r, "errors"), "Bad TLP");
	assert_int_equal(r.severity, RAS_SEV_CORRECTED);
	assert_null(ras_record_find(&r, "future_blob"));
	assert_null(ras_record_find(&r, "future_first"));
	assert_string_equal(r.summary, "Corrected CXL error on 0000:0d:00.0: Bad TLP");
	ras_record_done(&r);

	/* 7.3's real event (captured): bus_type after the 14-dword TLP log. */
	load(&l, RAS_TP_AER_EVENT, "tracefs/7.3/ras/aer_event.format");
	assert_int_equal(field(&l, "bus_type")->offset, 76);
	sample_init(&s, &l);
	put_str(&s, &l, "dev_name", "0000:00:1c.0");
	put_str(&s, &l, "bus_type", "PCIe");
	put(&s, &l, "status", 0x100000);      /* Unsupported Request */
	put(&s, &l, "severity", 0);           /* AER_NONFATAL */
	put(&s, &l, "tlp_header_valid", 1);
	put_bytes(&s, &l, "tlp_header", blob, sizeof(blob));
	decode_ok(&l, &s, &r);
	assert_string_equal(str(&r, "bus_type"), "PCIe");
	/* the 4 dwords of the header, not the 10 zero ones after them in the 14-dword array */
	assert_int_equal(ras_record_find(&r, "tlp_header")->len, 16);
	assert_memory_equal(ras_record_find(&r, "tlp_header")->data, blob, sizeof(blob));
	assert_string_equal(r.summary, "Uncorrected PCIe error on 0000:00:1c.0: Unsupported Request Error");
	ras_record_done(&r);

	/* 6.1's event, without bus_type: a PCIe error, as ever. */
	load(&l, RAS_TP_AER_EVENT, "tracefs/6.1/ras/aer_event.format");
	sample_init(&s, &l);
	put_str(&s, &l, "dev_name", "0000:00:1c.0");
	put(&s, &l, "status", 0x40);
	put(&s, &l, "severity", 2);
	decode_ok(&l, &s, &r);
	assert_null(ras_record_find(&r, "bus_type"));
	assert_string_equal(r.summary, "Corrected PCIe error on 0000:00:1c.0: Bad TLP");
	ras_record_done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_hotplug),
		cmocka_unit_test(test_link_degraded),
		cmocka_unit_test(test_link_full_and_unknown),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_aer_bus_type_and_unknown_fields),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
