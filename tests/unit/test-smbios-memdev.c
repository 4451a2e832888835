/* SPDX-License-Identifier: MIT */
/*
 * SMBIOS Memory Device (type 17) structures (lib/smbios-memdev.c), built
 * byte by byte after DMTF DSP0134 7.18: each size encoding, the strings and
 * their numbering, the versions' lengths, and broken structures.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "smbios-memdev.h"

struct memdev_bytes {
	uint8_t b[512];
	size_t len;
};

/*
 * A structure of `length` formatted bytes (0x28: SMBIOS 2.8; 0x1c: 2.6;
 * 0x15: 2.3...), handle 0x1100, array 0x1000, the given size word, the
 * device locator as string 1 and the bank locator as string 2 (0 when
 * NULL), rank in the attributes, then the string set.
 */
static void build(struct memdev_bytes *m, uint8_t length, uint16_t size, uint32_t ext_mib, const char *locator,
		  const char *bank, uint8_t rank)
{
	size_t at;

	memset(m, 0, sizeof(*m));
	m->b[0] = 17;
	m->b[1] = length;
	m->b[2] = 0x00; m->b[3] = 0x11;
	m->b[4] = 0x00; m->b[5] = 0x10;
	m->b[0x0c] = (uint8_t) size; m->b[0x0d] = (uint8_t) (size >> 8);
	m->b[0x10] = locator ? 1 : 0;
	m->b[0x11] = bank ? (locator ? 2 : 1) : 0;
	if (length > 0x1b)
		m->b[0x1b] = rank;
	if (length >= 0x20)
		for (int i = 0; i < 4; i++)
			m->b[0x1c + i] = (uint8_t) (ext_mib >> (8 * i));
	at = length;
	if (locator) {
		memcpy(m->b + at, locator, strlen(locator) + 1);
		at += strlen(locator) + 1;
	}
	if (bank) {
		memcpy(m->b + at, bank, strlen(bank) + 1);
		at += strlen(bank) + 1;
	}
	if (!locator && !bank)
		at++;           /* an empty set is two NULs: the formatted area's end is followed by both */
	m->b[at++] = 0;
	m->len = at;
}

static void test_typical_server_slot(void **state)
{
	struct memdev_bytes m;
	struct smbios_memdev d;

	(void) state;
	/* 32 GiB (0x8000 MiB does not fit 15 bits: 7FFFh and the extended size), dual rank. */
	build(&m, 0x28, 0x7fff, 32768, "P1-DIMMA1", "P0_Node0_Channel0_Dimm0", 2);
	assert_int_equal(smbios_memdev_parse(m.b, m.len, &d), 0);
	assert_int_equal(d.n_problems, 0);
	assert_int_equal(d.handle, 0x1100);
	assert_int_equal(d.array_handle, 0x1000);
	assert_string_equal(d.locator, "P1-DIMMA1");
	assert_string_equal(d.bank_locator, "P0_Node0_Channel0_Dimm0");
	assert_true(d.size_known);
	assert_int_equal(d.size_kib, UINT64_C(32) << 20);
	assert_int_equal(d.rank, 2);
}

static void test_sizes(void **state)
{
	struct memdev_bytes m;
	struct smbios_memdev d;

	(void) state;
	build(&m, 0x28, 16384, 0, "DIMM_A1", "BANK 0", 1);             /* 16 GiB in MiB */
	assert_int_equal(smbios_memdev_parse(m.b, m.len, &d), 0);
	assert_int_equal(d.size_kib, UINT64_C(16384) << 10);
	build(&m, 0x28, 0x8000 | 512, 0, "DIMM_A1", "BANK 0", 1);      /* 512 KiB: bit 15 */
	assert_int_equal(smbios_memdev_parse(m.b, m.len, &d), 0);
	assert_int_equal(d.size_kib, 512);
	build(&m, 0x28, 0, 0, "DIMM_B1", "BANK 1", 0);                 /* an empty slot */
	assert_int_equal(smbios_memdev_parse(m.b, m.len, &d), 0);
	assert_true(d.size_known);
	assert_int_equal(d.size_kib, 0);
	assert_int_equal(d.rank, 0);
	build(&m, 0x28, 0xffff, 0, "DIMM_B1", "BANK 1", 0);            /* unknown */
	assert_int_equal(smbios_memdev_parse(m.b, m.len, &d), 0);
	assert_false(d.size_known);
	/* Extended size's bit 31 is reserved: not part of the size. */
	build(&m, 0x28, 0x7fff, 0x80000000u | 65536, "DIMM_C1", "BANK 2", 4);
	assert_int_equal(smbios_memdev_parse(m.b, m.len, &d), 0);
	assert_int_equal(d.size_kib, UINT64_C(65536) << 10);
	/* 7FFFh in a 2.6 structure (no extended size): 32767 MiB as the word says. */
	build(&m, 0x1c, 0x7fff, 0, "DIMM_C1", "BANK 2", 4);
	assert_int_equal(smbios_memdev_parse(m.b, m.len, &d), 0);
	assert_int_equal(d.size_kib, UINT64_C(0x7fff) << 10);
	assert_int_equal(d.rank, 4);
}

static void test_versions_and_strings(void **state)
{
	struct memdev_bytes m;
	struct smbios_memdev d;

	(void) state;
	/* SMBIOS 2.3 (length 15h): no attributes, so no rank. */
	build(&m, 0x15, 1024, 0, "DIMM0", "BANK0", 0);
	assert_int_equal(smbios_memdev_parse(m.b, m.len, &d), 0);
	assert_string_equal(d.locator, "DIMM0");
	assert_string_equal(d.bank_locator, "BANK0");
	assert_int_equal(d.rank, 0);
	/* As QEMU describes its DIMMs: a device locator and no bank locator. */
	build(&m, 0x28, 1024, 0, "DIMM 0", NULL, 0);
	assert_int_equal(smbios_memdev_parse(m.b, m.len, &d), 0);
	assert_string_equal(d.locator, "DIMM 0");
	assert_string_equal(d.bank_locator, "");
	assert_int_equal(d.n_problems, 0);
	/* No strings at all. */
	build(&m, 0x28, 1024, 0, NULL, NULL, 0);
	assert_int_equal(smbios_memdev_parse(m.b, m.len, &d), 0);
	assert_string_equal(d.locator, "");
	assert_int_equal(d.n_problems, 0);
	/* Padded with blanks, and a control byte: trimmed, shown as '?'. */
	build(&m, 0x28, 1024, 0, "DIMM\x01" "A1   ", "CPU0", 0);
	assert_int_equal(smbios_memdev_parse(m.b, m.len, &d), 0);
	assert_string_equal(d.locator, "DIMM?A1");
	/* The numbers, not the order, pick the string: bank locator first. */
	build(&m, 0x28, 1024, 0, "FIRST", "SECOND", 0);
	m.b[0x10] = 2;
	m.b[0x11] = 1;
	assert_int_equal(smbios_memdev_parse(m.b, m.len, &d), 0);
	assert_string_equal(d.locator, "SECOND");
	assert_string_equal(d.bank_locator, "FIRST");
}

static void test_broken(void **state)
{
	struct memdev_bytes m;
	struct smbios_memdev d;
	char longname[200];

	(void) state;
	build(&m, 0x28, 1024, 0, "DIMM_A1", "BANK 0", 1);
	/* Too short, wrong type, a length past the bytes, a length below the bank locator. */
	assert_int_equal(smbios_memdev_parse(m.b, 0x11, &d), -EINVAL);
	assert_string_equal(d.problem, "17 bytes: a memory device structure has at least 18");
	m.b[0] = 16;
	assert_int_equal(smbios_memdev_parse(m.b, m.len, &d), -EINVAL);
	assert_string_equal(d.problem, "type 16, not a memory device (17)");
	m.b[0] = 17;
	m.b[1] = 0xff;
	assert_int_equal(smbios_memdev_parse(m.b, 0x80, &d), -EINVAL);
	assert_string_equal(d.problem, "length 255 at offset 0x01: past the bytes given");
	m.b[1] = 0x11;
	assert_int_equal(smbios_memdev_parse(m.b, m.len, &d), -EINVAL);
	assert_string_equal(d.problem, "length 17 at offset 0x01: shorter than the bank locator's field");

	/* A string number past the set: that name is empty, the rest read. */
	build(&m, 0x28, 1024, 0, "DIMM_A1", "BANK 0", 1);
	m.b[0x11] = 5;
	assert_int_equal(smbios_memdev_parse(m.b, m.len, &d), 0);
	assert_string_equal(d.locator, "DIMM_A1");
	assert_string_equal(d.bank_locator, "");
	assert_int_equal(d.n_problems, 1);
	assert_string_equal(d.problem, "string 5 named at offset 0x11: the structure has only 2 strings");
	assert_int_equal(d.size_kib, 1024 << 10);

	/* Cut inside the strings: no end to the set, then no end to a string. */
	build(&m, 0x28, 1024, 0, "DIMM_A1", "BANK 0", 1);
	assert_int_equal(smbios_memdev_parse(m.b, 0x28 + 8, &d), 0);
	assert_string_equal(d.locator, "DIMM_A1");
	assert_string_equal(d.problem, "string 2 named at offset 0x11: the string set has no end");
	assert_int_equal(smbios_memdev_parse(m.b, 0x28 + 3, &d), 0);
	assert_string_equal(d.locator, "");
	assert_string_equal(d.problem, "string 1 named at offset 0x10: string 1 runs past the structure's end");
	assert_int_equal(d.n_problems, 2);
	/* No strings area at all. */
	assert_int_equal(smbios_memdev_parse(m.b, 0x28, &d), 0);
	assert_string_equal(d.problem, "string 1 named at offset 0x10: the string set has no end");

	/* A name longer than kept: cut, said. */
	memset(longname, 'X', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	build(&m, 0x28, 1024, 0, longname, "BANK 0", 1);
	assert_int_equal(smbios_memdev_parse(m.b, m.len, &d), 0);
	assert_int_equal(strlen(d.locator), SMBIOS_NAME_MAX);
	assert_string_equal(d.problem, "string 1 named at offset 0x10 is longer than 64 bytes: cut");
	assert_string_equal(d.bank_locator, "BANK 0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typical_server_slot),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_versions_and_strings),
		cmocka_unit_test(test_broken),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
