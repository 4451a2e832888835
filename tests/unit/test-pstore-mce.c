/* SPDX-License-Identifier: MIT */
/*
 * pstore's ERST machine-check files, built the way the kernel builds them:
 * apei_write_mce() (arch/x86/kernel/cpu/mce/apei.c) writes a packed struct
 * cper_mce_record to ERST: a CPER record header (128 bytes, UEFI N.2.1; the
 * kernel's struct cper_record_header), one section descriptor (72 bytes,
 * UEFI N.2.2; struct cper_section_descriptor) and the struct mce
 * (arch/x86/include/uapi/asm/mce.h).  pstore's ERST backend (erst_reader(),
 * drivers/acpi/apei/erst.c) hands pstore the bytes after the two headers, and
 * pstore makes them the file mce-erst-<record id>.  The record here is the
 * one QEMU's monitor injects in the rig (mce -b 0 0 0xb200000000030005 0x4 0 0).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "decode.h"
#include "pstore-mce.h"

#define HDR_LEN 128
#define SEC_LEN 72

static void put(uint8_t *p, size_t off, uint64_t v, unsigned size)
{
	for (unsigned i = 0; i < size; i++)
		p[off + i] = (uint8_t) (v >> (8 * i));
}

static uint64_t get(const uint8_t *p, size_t off, unsigned size)
{
	uint64_t v = 0;

	for (unsigned i = size; i-- > 0;)
		v = v << 8 | p[off + i];
	return v;
}

/* A GUID as the kernel's GUID_INIT() lays it out: the first three fields little-endian. */
static void put_guid(uint8_t *p, size_t off, uint32_t a, uint16_t b, uint16_t c, const uint8_t d[8])
{
	put(p, off, a, 4);
	put(p, off + 4, b, 2);
	put(p, off + 6, c, 2);
	memcpy(p + off + 8, d, 8);
}

static const uint8_t creator_mce_d[8] = { 0x8a, 0x8e, 0xbe, 0x2c, 0x64, 0x90, 0xb8, 0x9d };
static const uint8_t section_mce_d[8] = { 0xbc, 0x73, 0x40, 0x96, 0x04, 0x4a, 0x38, 0xfc };

/*
 * The struct mce of a kernel whose struct is mce_len bytes long (72: through
 * extcpu; 88: + socketid, apicid, mcgcap; 104: + synd, ipid; 128 since 5.8:
 * + ppin, microcode, kflags), as mce_setup() and the handler fill it.
 */
static void make_mce(uint8_t *m, size_t mce_len)
{
	uint8_t full[128];

	memset(full, 0, sizeof(full));
	put(full, 0, 0xb200000000030005ULL, 8);   /* status: VAL UC EN PCC, MCACOD 0x0005 */
	put(full, 8, 0, 8);                       /* misc */
	put(full, 16, 0, 8);                      /* addr */
	put(full, 24, 0x4, 8);                    /* mcgstatus: MCIP */
	put(full, 32, 0, 8);                      /* ip */
	put(full, 40, 0x2a8f7b3c41ULL, 8);        /* tsc */
	put(full, 48, 1796172062, 8);             /* time: wall-clock seconds */
	put(full, 56, 0, 1);                      /* cpuvendor: X86_VENDOR_INTEL */
	put(full, 58, 7, 1);                      /* severity (the kernel's, not read) */
	put(full, 60, 0x000806f8, 4);             /* cpuid: family 6 model 0x8f (Sapphire Rapids) */
	put(full, 65, 0, 1);                      /* bank */
	put(full, 67, 1, 1);                      /* finished */
	put(full, 68, 2, 4);                      /* extcpu */
	put(full, 72, 0, 4);                      /* socketid */
	put(full, 76, 2, 4);                      /* apicid */
	put(full, 80, 0x0000000000000c0aULL, 8);  /* mcgcap: 10 banks, MCG_SER_P, MCG_TES_P */
	put(full, 104, 0x1122334455667788ULL, 8); /* ppin */
	put(full, 112, 0x2b000571, 4);            /* microcode */
	memcpy(m, full, mce_len);
}

/* apei_write_mce() for a kernel with a struct mce of mce_len bytes; returns the record's length. */
static size_t make_cper_mce_record(uint8_t *rcd, size_t mce_len)
{
	size_t len = HDR_LEN + SEC_LEN + mce_len;

	memset(rcd, 0, len);
	memcpy(rcd, "CPER", 4);                   /* signature */
	put(rcd, 4, 0x0100, 2);                   /* revision: CPER_RECORD_REV */
	put(rcd, 6, 0xffffffff, 4);               /* signature_end: CPER_SIG_END */
	put(rcd, 10, 1, 2);                       /* section_count */
	put(rcd, 12, 1, 4);                       /* error_severity: CPER_SEV_FATAL */
	put(rcd, 16, 0, 4);                       /* validation_bits: no timestamp, platform, partition */
	put(rcd, 20, len, 4);                     /* record_length */
	put_guid(rcd, 64, 0x75a574e3, 0x5052, 0x4b29, creator_mce_d);   /* creator_id: CPER_CREATOR_MCE */
	put(rcd, 96, 0x6b2f1e1e00000001ULL, 8);   /* record_id: cper_next_record_id(), seconds << 32 | n */
	put(rcd, 104, 0x2, 4);                    /* flags: CPER_HW_ERROR_FLAGS_PREVERR */

	put(rcd, HDR_LEN + 0, HDR_LEN + SEC_LEN, 4);  /* section_offset */
	put(rcd, HDR_LEN + 4, mce_len, 4);            /* section_length */
	put(rcd, HDR_LEN + 8, 0x0100, 2);             /* revision: CPER_SEC_REV */
	put(rcd, HDR_LEN + 12, 0x1, 4);               /* flags: CPER_SEC_PRIMARY */
	put_guid(rcd, HDR_LEN + 16, 0xfe08ffbe, 0x95e4, 0x4be7, section_mce_d);  /* CPER_SECTION_TYPE_MCE */
	put(rcd, HDR_LEN + 48, 1, 4);                 /* section_severity: fatal */

	make_mce(rcd + HDR_LEN + SEC_LEN, mce_len);
	return len;
}

/*
 * What erst_reader() gives pstore: a record of the pstore creator whose section
 * is of the MCE type becomes PSTORE_TYPE_MCE, and its data is all that
 * follows struct cper_pstore_record (the two headers).  Returns the file's length.
 */
static size_t pstore_file_of(const uint8_t *rcd, const uint8_t **ret)
{
	uint8_t guid[16];

	put_guid(guid, 0, 0x75a574e3, 0x5052, 0x4b29, creator_mce_d);
	assert_memory_equal(rcd + 64, guid, 16);
	put_guid(guid, 0, 0xfe08ffbe, 0x95e4, 0x4be7, section_mce_d);
	assert_memory_equal(rcd + HDR_LEN + 16, guid, 16);
	*ret = rcd + HDR_LEN + SEC_LEN;
	return get(rcd, 20, 4) - (HDR_LEN + SEC_LEN);
}

static void test_file_of_a_6_1_kernel(void **state)
{
	uint8_t rcd[HDR_LEN + SEC_LEN + 128];
	const uint8_t *file;
	struct mce_record r;
	struct mce_decoded d;
	const char *why;
	size_t len;

	(void) state;
	make_cper_mce_record(rcd, 128);
	len = pstore_file_of(rcd, &file);
	assert_int_equal(len, 128);
	assert_int_equal(pstore_mce_parse(file, len, MCE_SOURCE_PREVIOUS_BOOT, &r, &why), 0);
	assert_null(why);
	assert_int_equal(r.source, MCE_SOURCE_PREVIOUS_BOOT);
	assert_int_equal(r.status, 0xb200000000030005ULL);
	assert_int_equal(r.mcgstatus, 0x4);
	assert_int_equal(r.addr, 0);
	assert_int_equal(r.misc, 0);
	assert_int_equal(r.bank, 0);
	assert_int_equal(r.cpu, 2);
	assert_int_equal(r.apicid, 2);
	assert_int_equal(r.tsc, 0x2a8f7b3c41ULL);
	assert_int_equal(r.time_usec, 1796172062000000LL);
	assert_int_equal(r.vendor, MCE_VENDOR_INTEL);
	assert_int_equal(r.family, 6);
	assert_int_equal(r.model, 0x8f);
	assert_int_equal(r.mcgcap, 0xc0a);
	assert_int_equal(r.ppin, 0x1122334455667788ULL);
	assert_int_equal(r.microcode, 0x2b000571);
	assert_true(mce_record_has(&r, MCE_HAVE_STATUS | MCE_HAVE_MCGSTATUS | MCE_HAVE_BANK | MCE_HAVE_CPU |
				   MCE_HAVE_TSC | MCE_HAVE_TIME | MCE_HAVE_VENDOR | MCE_HAVE_CPUID |
				   MCE_HAVE_APICID | MCE_HAVE_MCGCAP | MCE_HAVE_PPIN | MCE_HAVE_MICROCODE));

	/* Decoded like a live record: processor context corrupt, the machine could not go on. */
	mce_decode(&r, &d);
	assert_int_equal(d.severity, MCE_SEV_FATAL);
}

/* An older kernel's shorter struct: what it lacked stays unknown. */
static void test_file_of_older_kernels(void **state)
{
	static const size_t lens[] = { 72, 88, 104, 120 };
	uint8_t rcd[HDR_LEN + SEC_LEN + 128];
	const uint8_t *file;
	struct mce_record r;
	const char *why;

	(void) state;
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		size_t len;

		make_cper_mce_record(rcd, lens[i]);
		len = pstore_file_of(rcd, &file);
		assert_int_equal(len, lens[i]);
		assert_int_equal(pstore_mce_parse(file, len, MCE_SOURCE_PREVIOUS_BOOT, &r, &why), 0);
		assert_int_equal(r.status, 0xb200000000030005ULL);
		assert_int_equal(r.cpu, 2);
		assert_int_equal(!!(r.have & MCE_HAVE_MCGCAP), lens[i] >= 88);
		assert_int_equal(!!(r.have & MCE_HAVE_PPIN), lens[i] >= 112);
	}
}

static void test_hostile_lengths(void **state)
{
	uint8_t buf[PSTORE_MCE_MAX + 8];
	struct mce_record r;
	const char *why;

	(void) state;
	memset(buf, 0xff, sizeof(buf));
	assert_int_equal(pstore_mce_parse(buf, 0, MCE_SOURCE_PREVIOUS_BOOT, &r, &why), -EBADMSG);
	assert_non_null(strstr(why, "truncated"));
	assert_int_equal(pstore_mce_parse(buf, 71, MCE_SOURCE_PREVIOUS_BOOT, &r, &why), -EBADMSG);
	assert_non_null(strstr(why, "truncated"));
	/* Cut inside a field of a 128-byte struct. */
	assert_int_equal(pstore_mce_parse(buf, 100, MCE_SOURCE_PREVIOUS_BOOT, &r, &why), -EBADMSG);
	assert_non_null(strstr(why, "multiple of 8"));
	assert_int_equal(pstore_mce_parse(buf, PSTORE_MCE_MAX + 8, MCE_SOURCE_PREVIOUS_BOOT, &r, &why), -EBADMSG);
	assert_non_null(strstr(why, "longer"));
	/* Any bytes of a plausible length are a record; the decoder judges the registers. */
	assert_int_equal(pstore_mce_parse(buf, PSTORE_MCE_MAX, MCE_SOURCE_PREVIOUS_BOOT, &r, &why), 0);
}

static void test_names(void **state)
{
	struct pstore_mce_name n;

	(void) state;
	/* fs/pstore/inode.c: "%s-%s-%llu", type name, backend name, record id */
	assert_int_equal(pstore_mce_name_parse("mce-erst-7723151386046693377", &n), 0);
	assert_string_equal(n.backend, "erst");
	assert_int_equal(n.id, 7723151386046693377ULL);
	assert_int_equal(pstore_mce_name_parse("mce-erst-0", &n), 0);
	assert_int_equal(n.id, 0);
	/* A backend whose name has a dash: the id is after the last one. */
	assert_int_equal(pstore_mce_name_parse("mce-efi-pstore-12", &n), 0);
	assert_string_equal(n.backend, "efi-pstore");

	assert_int_equal(pstore_mce_name_parse("dmesg-erst-7723151386046693377", &n), -EINVAL);
	assert_int_equal(pstore_mce_name_parse("mce-erst-", &n), -EINVAL);
	assert_int_equal(pstore_mce_name_parse("mce-erst-12x", &n), -EINVAL);
	assert_int_equal(pstore_mce_name_parse("mce-erst-12.enc.z", &n), -EINVAL);
	assert_int_equal(pstore_mce_name_parse("mce--5", &n), -EINVAL);
	assert_int_equal(pstore_mce_name_parse("mce-5", &n), -EINVAL);
	assert_int_equal(pstore_mce_name_parse("mce-erst-18446744073709551616", &n), -EINVAL);
	assert_int_equal(pstore_mce_name_parse("mce-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-1", &n), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_of_a_6_1_kernel),
		cmocka_unit_test(test_file_of_older_kernels),
		cmocka_unit_test(test_hostile_lengths),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
