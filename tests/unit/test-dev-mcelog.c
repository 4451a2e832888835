/* SPDX-License-Identifier: MIT */
/*
 * /dev/mcelog records, constructed from the kernel ABI layout
 * (arch/x86/include/uapi/asm/mce.h, struct mce), in the lengths kernels have
 * used (88: up to mcgcap; 104: + synd, ipid; 128: + ppin, microcode, kflags),
 * and the de-duplication of the copies that also reach the tracepoint.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dev-mcelog-record.h"
#include "mce-dedup.h"

static void put(uint8_t *p, size_t off, uint64_t v, unsigned size)
{
	for (unsigned i = 0; i < size; i++)
		p[off + i] = (uint8_t) (v >> (8 * i));
}

/* A struct mce as the kernel writes it; 0xee fills what lies past `len` to catch reads beyond it. */
static void make_record(uint8_t *p, size_t len)
{
	uint8_t full[160];

	memset(full, 0, sizeof(full));
	put(full, 0, 0xdc2040000000011bULL, 8);   /* status */
	put(full, 8, 0xd01a0ffe00000000ULL, 8);   /* misc */
	put(full, 16, 0x00000003bd2c8fc0ULL, 8);  /* addr */
	put(full, 24, 0x5, 8);                    /* mcgstatus */
	put(full, 32, 0, 8);                      /* ip */
	put(full, 40, 0x123456789aULL, 8);        /* tsc */
	put(full, 48, 1795168801, 8);             /* time */
	put(full, 56, 2, 1);                      /* cpuvendor: X86_VENDOR_AMD */
	put(full, 60, 0x00a20f12, 4);             /* cpuid */
	put(full, 64, 0x10, 1);                   /* cs */
	put(full, 65, 5, 1);                      /* bank */
	put(full, 66, 3, 1);                      /* cpu (obsolete) */
	put(full, 67, 1, 1);                      /* finished */
	put(full, 68, 300, 4);                    /* extcpu: more than a u8 holds */
	put(full, 72, 1, 4);                      /* socketid */
	put(full, 76, 0x81, 4);                   /* apicid */
	put(full, 80, 0x0000000001000117ULL, 8);  /* mcgcap */
	put(full, 88, 0x000000005a020001ULL, 8);  /* synd */
	put(full, 96, 0x0000009600050f00ULL, 8);  /* ipid */
	put(full, 104, 0x02b0d2e3f4a5b6c7ULL, 8); /* ppin */
	put(full, 112, 0x0a201016, 4);            /* microcode */
	put(full, 120, 0, 8);                     /* kflags */
	memset(p, 0xee, 160);
	memcpy(p, full, len);
}

static void test_full_record(void **state)
{
	uint8_t raw[160];
	struct mce_record r;

	(void) state;
	make_record(raw, 128);
	assert_int_equal(dev_mcelog_record_parse(raw, 128, &r), 0);
	assert_int_equal(r.source, MCE_SOURCE_DEV_MCELOG);
	assert_int_equal(r.status, 0xdc2040000000011bULL);
	assert_int_equal(r.misc, 0xd01a0ffe00000000ULL);
	assert_int_equal(r.addr, 0x00000003bd2c8fc0ULL);
	assert_int_equal(r.mcgstatus, 5);
	assert_int_equal(r.tsc, 0x123456789aULL);
	assert_int_equal(r.time_usec, 1795168801000000LL);
	assert_int_equal(r.vendor, MCE_VENDOR_AMD);
	assert_int_equal(r.family, 0x19);
	assert_int_equal(r.model, 0x21);
	assert_int_equal(r.bank, 5);
	assert_int_equal(r.cpu, 300);
	assert_int_equal(r.socket, 1);
	assert_int_equal(r.apicid, 0x81);
	assert_int_equal(r.mcgcap, 0x1000117);
	assert_int_equal(r.synd, 0x5a020001);
	assert_int_equal(r.ipid, 0x9600050f00ULL);
	assert_int_equal(r.ppin, 0x02b0d2e3f4a5b6c7ULL);
	assert_int_equal(r.microcode, 0x0a201016);
	assert_true(mce_record_has(&r, MCE_HAVE_STATUS | MCE_HAVE_MISC | MCE_HAVE_ADDR | MCE_HAVE_TSC |
				   MCE_HAVE_TIME | MCE_HAVE_VENDOR | MCE_HAVE_CPUID | MCE_HAVE_CPU |
				   MCE_HAVE_BANK | MCE_HAVE_SOCKET | MCE_HAVE_APICID | MCE_HAVE_MCGCAP |
				   MCE_HAVE_SYND | MCE_HAVE_IPID | MCE_HAVE_PPIN | MCE_HAVE_MICROCODE));
	assert_false(r.have & (MCE_HAVE_IP | MCE_HAVE_CS));   /* ip 0: not known */
}

/* A kernel whose struct mce ends after mcgcap (88 bytes): SYND/IPID/PPIN/microcode are unknown,
 * and the bytes after the record (0xee) are never read. */
static void test_short_record(void **state)
{
	uint8_t raw[160];
	struct mce_record r;

	(void) state;
	make_record(raw, 88);
	assert_int_equal(dev_mcelog_record_parse(raw, 88, &r), 0);
	assert_int_equal(r.mcgcap, 0x1000117);
	assert_true(mce_record_has(&r, MCE_HAVE_MCGCAP | MCE_HAVE_APICID | MCE_HAVE_SOCKET));
	assert_false(r.have & (MCE_HAVE_SYND | MCE_HAVE_IPID | MCE_HAVE_PPIN | MCE_HAVE_MICROCODE));
	assert_int_equal(r.synd, 0);
	assert_int_equal(r.ppin, 0);

	/* 72 bytes: through extcpu only */
	make_record(raw, 72);
	assert_int_equal(dev_mcelog_record_parse(raw, 72, &r), 0);
	assert_int_equal(r.cpu, 300);
	assert_false(r.have & (MCE_HAVE_SOCKET | MCE_HAVE_APICID | MCE_HAVE_MCGCAP));

	assert_int_equal(dev_mcelog_record_parse(raw, 71, &r), -EINVAL);
}

/* A future kernel's longer record: the known prefix is read, the rest ignored. */
static void test_long_record(void **state)
{
	uint8_t raw[160];
	struct mce_record r;

	(void) state;
	make_record(raw, 128);
	assert_int_equal(dev_mcelog_record_parse(raw, 160, &r), 0);
	assert_int_equal(r.microcode, 0x0a201016);
}

static struct mce_record rec(enum mce_source s, uint32_t cpu, uint64_t status, uint64_t tsc)
{
	return (struct mce_record) { .source = s, .cpu = cpu, .bank = 4, .status = status,
				     .addr = 0x1000, .misc = 0x8, .tsc = tsc };
}

static void test_dedup_each_copy_once(void **state)
{
	static struct mce_dedup d;
	struct mce_record a = rec(MCE_SOURCE_TRACEPOINT, 1, 0x9c00000000000135ULL, 1000);
	struct mce_record b = rec(MCE_SOURCE_DEV_MCELOG, 1, 0x9c00000000000135ULL, 1000);

	(void) state;
	memset(&d, 0, sizeof(d));
	assert_false(mce_dedup_check(&d, &a));   /* tracepoint first: logged */
	assert_true(mce_dedup_check(&d, &b));    /* its /dev/mcelog copy: dropped */
	/* the same registers again at another TSC: a new error, from either source */
	b.tsc = 2000;
	assert_false(mce_dedup_check(&d, &b));
	a.tsc = 2000;
	assert_true(mce_dedup_check(&d, &a));
	/* a third copy with the same key is not hidden behind the pair already matched */
	assert_false(mce_dedup_check(&d, &b));
}

static void test_dedup_same_source_never_dropped(void **state)
{
	static struct mce_dedup d;
	struct mce_record a = rec(MCE_SOURCE_DEV_MCELOG, 0, 0xbe00000000800400ULL, 0);

	(void) state;
	memset(&d, 0, sizeof(d));
	/* /dev/mcelog records from before boot can carry TSC 0: identical ones are separate events */
	assert_false(mce_dedup_check(&d, &a));
	assert_false(mce_dedup_check(&d, &a));
}

static void test_dedup_key_fields(void **state)
{
	static struct mce_dedup d;
	struct mce_record a = rec(MCE_SOURCE_TRACEPOINT, 2, 0x9c00000000000135ULL, 77), b;

	(void) state;
	memset(&d, 0, sizeof(d));
	assert_false(mce_dedup_check(&d, &a));
	b = a, b.source = MCE_SOURCE_DEV_MCELOG, b.cpu = 3;
	assert_false(mce_dedup_check(&d, &b));
	b = a, b.source = MCE_SOURCE_DEV_MCELOG, b.bank = 5;
	assert_false(mce_dedup_check(&d, &b));
	b = a, b.source = MCE_SOURCE_DEV_MCELOG, b.addr = 0;
	assert_false(mce_dedup_check(&d, &b));
	b = a, b.source = MCE_SOURCE_DEV_MCELOG, b.misc = 0;
	assert_false(mce_dedup_check(&d, &b));
	b = a, b.source = MCE_SOURCE_DEV_MCELOG, b.status ^= 1;
	assert_false(mce_dedup_check(&d, &b));
	b = a, b.source = MCE_SOURCE_DEV_MCELOG;
	assert_true(mce_dedup_check(&d, &b));
}

/* The window is the last MCE_DEDUP_SIZE records: an older copy is no longer matched. */
static void test_dedup_window(void **state)
{
	static struct mce_dedup d;
	struct mce_record a = rec(MCE_SOURCE_TRACEPOINT, 0, 0x9c00000000000135ULL, 1), b;

	(void) state;
	memset(&d, 0, sizeof(d));
	assert_false(mce_dedup_check(&d, &a));
	for (unsigned i = 0; i < MCE_DEDUP_SIZE; i++) {
		b = rec(MCE_SOURCE_TRACEPOINT, 0, 0x9c00000000000135ULL, 100 + i);
		assert_false(mce_dedup_check(&d, &b));
	}
	b = a, b.source = MCE_SOURCE_DEV_MCELOG;
	assert_false(mce_dedup_check(&d, &b));
	/* while one just inside the window still is */
	b = rec(MCE_SOURCE_DEV_MCELOG, 0, 0x9c00000000000135ULL, 100 + MCE_DEDUP_SIZE - 1);
	assert_true(mce_dedup_check(&d, &b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_record),
		cmocka_unit_test(test_short_record),
		cmocka_unit_test(test_long_record),
		cmocka_unit_test(test_dedup_each_copy_once),
		cmocka_unit_test(test_dedup_same_source_never_dropped),
		cmocka_unit_test(test_dedup_key_fields),
		cmocka_unit_test(test_dedup_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
