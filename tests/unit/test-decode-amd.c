/* SPDX-License-Identifier: MIT */
/*
 * The AMD/Hygon decoder tables and model decoders, tested directly (without the
 * dispatcher): table invariants, every bank type the kernel knows, UMC
 * location arithmetic, errata overrides, address granularity, the pre-SMCA
 * families, and robustness on arbitrary registers.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "amd.h"
#include "macro.h"

#define VAL    (1ull << 63)
#define UC     (1ull << 61)
#define EN     (1ull << 60)
#define ADDRV  (1ull << 58)
#define PCC    (1ull << 57)
#define SYNDV  (1ull << 53)
#define CECC   (1ull << 46)
#define UECC   (1ull << 45)
#define DEFERRED (1ull << 44)

static uint64_t ipid(unsigned hwid, unsigned mcatype, uint32_t instance)
{
	return ((uint64_t) mcatype << 48) | ((uint64_t) hwid << 32) | instance;
}

/* First matching row, the way the dispatcher is specified to search. */
static const struct mce_model_decoder *find(enum mce_vendor v, uint32_t fam, uint32_t model)
{
	for (const struct mce_model_match *m = amd_model_matches; m->decoder; m++)
		if (m->vendor == v && m->family == fam && model >= m->model_first &&
		    model <= m->model_last)
			return m->decoder;
	return NULL;
}

static void blank(struct mce_decoded *d)
{
	*d = (struct mce_decoded) { .channel = -1, .timeout = -1, .dimm = -1, .rank = -1,
				    .chip_select = -1 };
}

static void decode(enum mce_vendor v, uint32_t fam, uint32_t model, struct mce_record *r,
		   struct mce_decoded *d)
{
	const struct mce_model_decoder *dec = find(v, fam, model);

	assert_non_null(dec);
	r->vendor = v;
	r->family = fam;
	r->model = model;
	r->have |= MCE_HAVE_VENDOR | MCE_HAVE_CPUID;
	blank(d);
	dec->decode(dec, r, d);
}

static const struct mce_detail *detail(const struct mce_decoded *d, const char *name)
{
	for (unsigned i = 0; i < d->n_details; i++)
		if (strcmp(d->details[i].name, name) == 0)
			return &d->details[i];
	return NULL;
}

/* ---- table invariants ---- */

static void test_table_sorted_unique(void **state)
{
	(void) state;
	assert_true(smca_n_bank_types > 40);
	for (size_t i = 1; i < smca_n_bank_types; i++) {
		uint32_t a = SMCA_KEY(smca_bank_types[i - 1].hwid, smca_bank_types[i - 1].mcatype);
		uint32_t b = SMCA_KEY(smca_bank_types[i].hwid, smca_bank_types[i].mcatype);

		if (a >= b)
			fail_msg("row %zu (%s) is not after row %zu (%s)", i, smca_bank_types[i].type,
				 i - 1, smca_bank_types[i - 1].type);
	}
}

static void test_every_row_resolves(void **state)
{
	(void) state;
	for (size_t i = 0; i < smca_n_bank_types; i++) {
		const struct smca_bank_type *t = &smca_bank_types[i];
		/* Instance ids vary per bank; they must not affect the lookup. */
		const struct smca_bank_type *got =
			smca_bank_type_lookup(&smca_profile_plain, ipid(t->hwid, t->mcatype, 0x00f1e2d3u * (unsigned) i));

		assert_ptr_equal(got, t);
		assert_non_null(t->type);
		assert_non_null(t->name);
		assert_true(t->hwid <= 0xfff);
	}
}

/* The pairs arch/x86/kernel/cpu/mce/amd.c lists, with the short name we give each. */
static const struct {
	unsigned hwid, mcatype;
	const char *type, *name;
} kernel_pairs[] = {
	{ 0x00, 0x0, "RESERVED", "Reserved" },
	{ 0xb0, 0x0, "LS", "Load Store Unit" },
	{ 0xb0, 0x10, "LS", "Load Store Unit" },
	{ 0xb0, 0x1, "IF", "Instruction Fetch Unit" },
	{ 0xb0, 0x2, "L2", "L2 Cache" },
	{ 0xb0, 0x3, "DE", "Decode Unit" },
	{ 0xb0, 0x5, "EX", "Execution Unit" },
	{ 0xb0, 0x6, "FP", "Floating Point Unit" },
	{ 0xb0, 0x7, "L3", "L3 Cache" },
	{ 0x2e, 0x0, "CS", "Coherent Slave" },
	{ 0x2e, 0x2, "CS", "Coherent Slave" },
	{ 0x2e, 0x1, "PIE", "Power, Interrupts, etc." },
	{ 0x2e, 0x4, "MA_LLC", "Memory Attached Last Level Cache" },
	{ 0x96, 0x0, "UMC", "Unified Memory Controller" },
	{ 0x96, 0x1, "UMC_V2", "Unified Memory Controller v2" },
	{ 0x05, 0x0, "PB", "Parameter Block" },
	{ 0xff, 0x0, "PSP", "Platform Security Processor" },
	{ 0xff, 0x1, "PSP", "Platform Security Processor" },
	{ 0x01, 0x0, "SMU", "System Management Unit" },
	{ 0x01, 0x1, "SMU", "System Management Unit" },
	{ 0x01, 0x2, "MP5", "Microprocessor 5 Unit" },
	{ 0x01, 0x3, "MPDMA", "MPDMA Unit" },
	{ 0x18, 0x0, "NBIO", "Northbridge IO Unit" },
	{ 0x46, 0x0, "PCIE", "PCI Express Unit" },
	{ 0x46, 0x1, "PCIE", "PCI Express Unit" },
	{ 0x50, 0x0, "XGMI_PCS", "Ext Global Memory Interconnect PCS Unit" },
	{ 0x6c, 0x0, "NBIF", "NBIF Unit" },
	{ 0x80, 0x0, "SHUB", "System Hub Unit" },
	{ 0xa8, 0x0, "SATA", "SATA Unit" },
	{ 0xaa, 0x0, "USB", "USB Unit" },
	{ 0x170, 0x0, "USR_DP", "Ultra Short Reach Data Plane Controller" },
	{ 0x180, 0x0, "USR_CP", "Ultra Short Reach Control Plane Controller" },
	{ 0x241, 0x0, "GMI_PCS", "Global Memory Interconnect PCS Unit" },
	{ 0x259, 0x0, "XGMI_PHY", "Ext Global Memory Interconnect PHY Unit" },
	{ 0x267, 0x0, "WAFL_PHY", "WAFL PHY Unit" },
	{ 0x269, 0x0, "GMI_PHY", "Global Memory Interconnect PHY Unit" },
	/* Added to Linux in 2026. */
	{ 0x12, 0x0, "MPRAS", "MPRAS Unit" },
	{ 0x5c, 0x0, "SSBDCI", "Die to Die Interconnect Unit" },
	{ 0xbe, 0x0, "MPDACC", "MPDACC Unit" },
	{ 0xf9, 0x0, "MPM", "MPM Unit" },
	{ 0xfd, 0x0, "MPASP", "MPASP Unit" },
	{ 0xfd, 0x1, "MPASP", "MPASP Unit" },
	{ 0xff, 0x2, "MPART", "MPART Unit" },
	{ 0x157, 0x0, "DACC_FE", "DACC Front-end Unit" },
	{ 0x164, 0x0, "DACC_BE", "DACC Back-end Unit" },
	{ 0x1e0, 0x0, "EDDR5CMN", "eDDR5 CMN Unit" },
	{ 0x1e1, 0x0, "PCIE_PL", "PCIe Link Unit" },
};

static void test_kernel_pairs(void **state)
{
	(void) state;
	assert_int_equal(ELEMENTSOF(kernel_pairs), smca_n_bank_types);
	for (size_t i = 0; i < ELEMENTSOF(kernel_pairs); i++) {
		const struct smca_bank_type *t =
			smca_bank_type_lookup(NULL, ipid(kernel_pairs[i].hwid, kernel_pairs[i].mcatype, 0));

		if (!t)
			fail_msg("HWID 0x%x McaType 0x%x unknown", kernel_pairs[i].hwid,
				 kernel_pairs[i].mcatype);
		assert_string_equal(t->type, kernel_pairs[i].type);
		assert_string_equal(t->name, kernel_pairs[i].name);
	}
}

static void test_xec_tables_in_range(void **state)
{
	unsigned with_tables = 0;

	(void) state;
	for (size_t i = 0; i < smca_n_bank_types; i++) {
		const struct amd_xec_table *x = smca_bank_types[i].xec;
		unsigned named = 0;

		if (!x)
			continue;
		with_tables++;
		/* XEC is six bits. */
		assert_in_range(x->n, 1, 64);
		assert_non_null(x->source);
		for (unsigned c = 0; c < x->n; c++)
			if (x->text[c]) {
				assert_true(strlen(x->text[c]) > 3);
				named++;
			}
		assert_true(named > 0);
		/* Out of range never reads past the table. */
		assert_null(smca_xec_text(&smca_bank_types[i], x->n));
		assert_null(smca_xec_text(&smca_bank_types[i], 0x3f + 1));
	}
	assert_true(with_tables >= 35);
	assert_null(smca_xec_text(&smca_cs_v2_erratum_1384, 0x12));
	assert_non_null(smca_xec_text(&smca_umc_hbm3, 0x0f));
}

static void test_xec_spot_checks(void **state)
{
	(void) state;
	const struct smca_bank_type *umc = smca_bank_type_lookup(NULL, ipid(0x96, 0, 0));
	const struct smca_bank_type *l3 = smca_bank_type_lookup(NULL, ipid(0xb0, 7, 0));
	const struct smca_bank_type *ex = smca_bank_type_lookup(NULL, ipid(0xb0, 5, 0));

	assert_string_equal(smca_xec_text(umc, 0), "DRAM ECC error");
	assert_null(smca_xec_text(umc, 0x0c));          /* reserved */
	assert_string_equal(smca_xec_text(umc, 0x10), "RFM SRAM ECC error");
	assert_string_equal(smca_xec_text(l3, 4), "L3 data array ECC error");
	assert_string_equal(smca_xec_text(ex, 0), "Watchdog timeout");
}

/* ---- the SMCA decoder ---- */

static void test_unknown_ipid(void **state)
{
	struct mce_record r = { .have = MCE_HAVE_STATUS | MCE_HAVE_IPID | MCE_HAVE_BANK,
				.status = VAL | EN | (0x5ull << 16), .bank = 5,
				.ipid = ipid(0xabc, 0x77, 0x1234) };
	struct mce_decoded d;

	(void) state;
	assert_null(smca_bank_type_lookup(&smca_profile_plain, r.ipid));
	decode(MCE_VENDOR_AMD, 0x19, 0x01, &r, &d);
	assert_null(d.bank_type);
	assert_null(d.bank_name);
	assert_null(d.description);
	assert_true(d.has_extended_error_code);
	assert_int_equal(d.extended_error_code, 5);
	assert_int_equal(detail(&d, "hardware_id")->value, 0xabc);
	assert_int_equal(detail(&d, "mca_type")->value, 0x77);
	assert_string_equal(d.cpu_model, "AMD Family 19h");
}

/* Never from the bank number: bank 5 without an IPID stays unnamed. */
static void test_no_ipid_no_bank_type(void **state)
{
	struct mce_record r = { .have = MCE_HAVE_STATUS | MCE_HAVE_BANK, .status = VAL | EN, .bank = 0 };
	struct mce_decoded d;

	(void) state;
	decode(MCE_VENDOR_AMD, 0x17, 0x31, &r, &d);
	assert_null(d.bank_type);
	assert_null(d.bank_name);
	assert_true(d.has_extended_error_code);

	/* An IPID of zero is "not read", not the reserved block. */
	r.have |= MCE_HAVE_IPID;
	r.ipid = 0;
	decode(MCE_VENDOR_AMD, 0x19, 0x21, &r, &d);
	assert_null(d.bank_type);
	assert_null(d.bank_name);
	/* With an instance id, HWID 0 / McaType 0 is the reserved type Linux names. */
	r.ipid = 0x1;
	decode(MCE_VENDOR_AMD, 0x19, 0x21, &r, &d);
	assert_string_equal(d.bank_name, "Reserved");
}

/* ---- a bank named by the text, no IPID (rasdaemon's rows) ---- */

static void set_name(struct mce_record *r, const char *name)
{
	assert_int_equal(mce_record_set_bank_name(r, name, strlen(name)), 0);
}

/* Every row's documented name finds its own row; revisions sharing a name share the short type. */
static void test_every_name_resolves(void **state)
{
	(void) state;
	for (size_t i = 0; i < smca_n_bank_types; i++) {
		const struct smca_bank_type *t = &smca_bank_types[i], *got[4];
		size_t n = smca_bank_types_by_name(&smca_profile_plain, t->name, got, ELEMENTSOF(got));
		bool self = false;

		/* the decoder handles at most ELEMENTSOF(got) revisions of one name */
		if (n == 0 || n > ELEMENTSOF(got))
			fail_msg("row %zu (%s): %zu rows named \"%s\"", i, t->type, n, t->name);
		for (size_t k = 0; k < n; k++) {
			self |= got[k] == t;
			assert_string_equal(got[k]->type, t->type);
			assert_string_equal(got[k]->name, t->name);
		}
		if (!self)
			fail_msg("row %zu (%s): its name \"%s\" does not find it", i, t->type, t->name);
	}
	/* exact match only */
	{
		const struct smca_bank_type *got[4];

		assert_int_equal(smca_bank_types_by_name(NULL, "unified memory controller", got, 4), 0);
		assert_int_equal(smca_bank_types_by_name(NULL, "Unified Memory", got, 4), 0);
		assert_int_equal(smca_bank_types_by_name(NULL, "Unified Memory Controller v2", got, 4), 1);
		assert_string_equal(got[0]->type, "UMC_V2");
	}
}

static void test_named_bank_without_ipid(void **state)
{
	struct mce_record r = {
		.have = MCE_HAVE_STATUS | MCE_HAVE_BANK | MCE_HAVE_ADDR, .bank = 17,
		.status = VAL | EN | ADDRV | CECC | 0x011b, .addr = 0x27aad20c0,
	};
	struct mce_decoded d;

	(void) state;
	set_name(&r, "Unified Memory Controller");
	decode(MCE_VENDOR_AMD, 0x17, 0x71, &r, &d);
	assert_string_equal(d.bank_type, "UMC");
	assert_string_equal(d.bank_name, "Unified Memory Controller");
	assert_string_equal(d.description, "DRAM ECC error");
	assert_string_equal(detail(&d, "bank_type_from")->text, "text_bank_name");
	assert_string_equal(detail(&d, "mnemonic")->text, "DramEccErr");
	/* the channel is in MCA_IPID, which this record lacks */
	assert_int_equal(d.channel, -1);
	assert_null(detail(&d, "instance_id"));

	/* An IPID wins over the name, and then nothing says "from the name". */
	r.have |= MCE_HAVE_IPID;
	r.ipid = ipid(0xb0, 0x2, 0);
	decode(MCE_VENDOR_AMD, 0x17, 0x71, &r, &d);
	assert_string_equal(d.bank_type, "L2");
	assert_null(detail(&d, "bank_type_from"));

	/* An IPID of zero is "not read": the name stands in. */
	r.ipid = 0;
	decode(MCE_VENDOR_AMD, 0x17, 0x71, &r, &d);
	assert_string_equal(d.bank_type, "UMC");

	/* On MI300 the profile's HBM3 UMC table gives the meaning. */
	r.have &= ~MCE_HAVE_IPID;
	decode(MCE_VENDOR_AMD, 0x19, 0x90, &r, &d);
	assert_string_equal(d.bank_type, "UMC");
	assert_string_equal(d.description, smca_xec_text(&smca_umc_hbm3, 0));
}

/* LS and LS v2 share "Load Store Unit" but not their codes: no meaning is guessed. */
static void test_named_bank_revisions_disagree(void **state)
{
	struct mce_record r = { .have = MCE_HAVE_STATUS, .status = VAL | EN | (0x0cull << 16) };
	const struct smca_bank_type *ls = smca_bank_type_lookup(NULL, ipid(0xb0, 0, 0));
	const struct smca_bank_type *ls2 = smca_bank_type_lookup(NULL, ipid(0xb0, 0x10, 0));
	struct mce_decoded d;

	(void) state;
	assert_string_not_equal(smca_xec_text(ls, 0x0c), smca_xec_text(ls2, 0x0c));
	set_name(&r, "Load Store Unit");
	decode(MCE_VENDOR_AMD, 0x19, 0x11, &r, &d);
	assert_string_equal(d.bank_type, "LS");
	assert_null(d.description);
	assert_null(detail(&d, "mnemonic"));
	assert_non_null(detail(&d, "bank_type_from"));
}

/* A name that is no bank's changes nothing; one that does not fit is not kept. */
static void test_unknown_or_long_bank_name(void **state)
{
	struct mce_record r = { .have = MCE_HAVE_STATUS, .status = VAL | EN | CECC | 0x011b };
	struct mce_decoded d;
	char longname[MCE_BANK_NAME_MAX + 8];

	(void) state;
	set_name(&r, "Memory Controller 3");
	decode(MCE_VENDOR_AMD, 0x17, 0x71, &r, &d);
	assert_null(d.bank_type);
	assert_null(d.bank_name);
	assert_null(d.description);
	assert_int_equal(d.n_details, 0);

	memset(longname, 'A', sizeof(longname));
	r = (struct mce_record) { 0 };
	assert_int_equal(mce_record_set_bank_name(&r, longname, sizeof(longname)), -ENAMETOOLONG);
	assert_int_equal(mce_record_set_bank_name(&r, longname, MCE_BANK_NAME_MAX), -ENAMETOOLONG);
	assert_false(mce_record_has(&r, MCE_HAVE_BANK_NAME));
	assert_int_equal(mce_record_set_bank_name(&r, "Unified\nMemory", 14), -EINVAL);
	assert_int_equal(mce_record_set_bank_name(&r, "", 0), -EINVAL);
	assert_false(mce_record_has(&r, MCE_HAVE_BANK_NAME));
	assert_int_equal(mce_record_set_bank_name(&r, longname, MCE_BANK_NAME_MAX - 1), 0);
	assert_int_equal(strlen(r.bank_name), MCE_BANK_NAME_MAX - 1);
}

static void test_random_registers_never_crash(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	static const uint32_t fams[][2] = {
		{ 0x17, 0x31 }, { 0x19, 0x11 }, { 0x19, 0x90 }, { 0x19, 0x01 }, { 0x1a, 0x44 },
		{ 0x10, 0x04 }, { 0x11, 0x03 }, { 0x12, 0x01 }, { 0x14, 0x02 }, { 0x15, 0x60 },
		{ 0x15, 0x02 }, { 0x16, 0x30 },
	};

	(void) state;
	for (int i = 0; i < 20000; i++) {
		struct mce_record r = { 0 };
		struct mce_decoded d;

		/* xorshift64 */
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		r.status = x;
		r.ipid = x * 0x2545f4914f6cdd1dull;
		r.synd = ~x;
		r.addr = x >> 3;
		r.bank = (uint32_t) (x % 70);
		r.have = (uint32_t) (x >> 40) | MCE_HAVE_STATUS;
		decode(i % 7 == 0 ? MCE_VENDOR_HYGON : MCE_VENDOR_AMD,
		       i % 7 == 0 ? 0x18 : fams[i % ELEMENTSOF(fams)][0],
		       i % 7 == 0 ? 0x01 : fams[i % ELEMENTSOF(fams)][1], &r, &d);
		assert_true(d.n_details <= MCE_MAX_DETAILS);
		assert_true(d.extended_error_code <= 0x3f);
		if (d.bank_type)
			assert_non_null(d.bank_name);
	}
}

/* A corrected DRAM ECC error in UMC instance 0x00350f00 on an EPYC 7003 part. */
static void test_umc_dram_ecc(void **state)
{
	struct mce_record r = {
		.have = MCE_HAVE_STATUS | MCE_HAVE_IPID | MCE_HAVE_SYND | MCE_HAVE_ADDR | MCE_HAVE_BANK,
		.bank = 17,
		.status = VAL | EN | ADDRV | SYNDV | CECC | 0x009f,
		.ipid = ipid(0x96, 0, 0x00350f00),
		/* length 16 at [23:18], chip select 5 in [2:0], syndrome 0xbeef in [47:32] */
		.synd = (0x1234beefull << 32) | (16u << 18) | 0x5,
		.addr = 0x1234567c0,
	};
	struct mce_decoded d;

	(void) state;
	decode(MCE_VENDOR_AMD, 0x19, 0x01, &r, &d);
	assert_string_equal(d.bank_type, "UMC");
	assert_string_equal(d.bank_name, "Unified Memory Controller");
	assert_string_equal(d.description, "DRAM ECC error");
	assert_int_equal(d.extended_error_code, 0);
	assert_int_equal(d.channel, 3);
	assert_int_equal(d.chip_select, 5);
	assert_true(d.has_syndrome);
	assert_int_equal(d.syndrome, r.synd);
	assert_int_equal(detail(&d, "ecc_syndrome")->value, 0xbeef);
	assert_int_equal(detail(&d, "instance_id")->value, 0x00350f00);
	assert_false(d.has_address_lsb);

	/* Without SyndV there is no syndrome and no chip select, but still a channel. */
	r.status &= ~SYNDV;
	decode(MCE_VENDOR_AMD, 0x19, 0x01, &r, &d);
	assert_false(d.has_syndrome);
	assert_int_equal(d.chip_select, -1);
	assert_int_equal(d.channel, 3);
	assert_null(detail(&d, "ecc_syndrome"));

	/* Another UMC code: about the controller, not a DRAM location. */
	r.status = VAL | EN | (0x5ull << 16);
	decode(MCE_VENDOR_AMD, 0x19, 0x01, &r, &d);
	assert_string_equal(d.description, "Write data CRC error");
	assert_int_equal(d.channel, -1);
}

/* MI300 (19h model 90h): the UMC McaType carries HBM3 codes and HBM channel numbering. */
static void test_umc_hbm3(void **state)
{
	struct mce_record r = {
		.have = MCE_HAVE_STATUS | MCE_HAVE_IPID | MCE_HAVE_BANK,
		.status = VAL | EN | UC | (0xfull << 16),
		.ipid = ipid(0x96, 0, 0x00353000),   /* UMC 3 (odd), PHY 3 */
	};
	struct mce_decoded d;

	(void) state;
	decode(MCE_VENDOR_AMD, 0x19, 0x90, &r, &d);
	assert_string_equal(d.bank_type, "UMC");
	assert_string_equal(d.description, "HBM CRC error");

	r.status = VAL | EN;
	decode(MCE_VENDOR_AMD, 0x19, 0x90, &r, &d);
	assert_string_equal(d.description, "HBM on-die ECC error");
	assert_int_equal(d.channel, 7);
	assert_int_equal(d.chip_select, 3);

	/* The same IPID on an EPYC 9004 part is a DRAM channel. */
	decode(MCE_VENDOR_AMD, 0x19, 0x11, &r, &d);
	assert_int_equal(d.channel, 3);

	/* UMC v2 (GPU-attached HBM on a heterogeneous system), even UMC 2, PHY 1. */
	r.ipid = ipid(0x96, 1, 0x00251000);
	decode(MCE_VENDOR_AMD, 0x19, 0x30, &r, &d);
	assert_string_equal(d.bank_type, "UMC_V2");
	assert_string_equal(d.bank_name, "Unified Memory Controller v2");
	assert_int_equal(d.channel, 1);
	assert_int_equal(d.chip_select, 1);
}

/* Erratum 1384 moves CS codes from 0x09 up on Genoa-class parts. */
static void test_cs_erratum_1384(void **state)
{
	struct mce_record r = {
		.have = MCE_HAVE_STATUS | MCE_HAVE_IPID,
		.status = VAL | EN | UC | (0x9ull << 16),
		.ipid = ipid(0x2e, 2, 0x0),
	};
	struct mce_decoded d;

	(void) state;
	decode(MCE_VENDOR_AMD, 0x19, 0x01, &r, &d);
	assert_string_equal(d.description, "Probe filter protocol error");
	decode(MCE_VENDOR_AMD, 0x19, 0x11, &r, &d);
	assert_string_equal(d.bank_type, "CS");
	assert_string_equal(d.bank_name, "Coherent Slave");
	assert_string_equal(d.description, "SDP read response carried an unexpected RETRY");
	decode(MCE_VENDOR_AMD, 0x1a, 0x44, &r, &d);
	assert_string_equal(d.description, "SDP read response carried an unexpected RETRY");
	assert_string_equal(d.cpu_model, "AMD Family 1Ah");
	decode(MCE_VENDOR_AMD, 0x1a, 0x02, &r, &d);
	assert_string_equal(d.description, "Probe filter protocol error");
}

static void test_address_lsb(void **state)
{
	struct mce_record r = {
		.have = MCE_HAVE_STATUS | MCE_HAVE_IPID | MCE_HAVE_ADDR,
		.status = VAL | EN | ADDRV | (12ull << 24),
		.ipid = ipid(0xb0, 0, 0),
		.addr = (6ull << 56) | 0x1000,
	};
	struct mce_decoded d;

	(void) state;
	/* Family 19h: STATUS[29:24] wins. */
	decode(MCE_VENDOR_AMD, 0x19, 0x11, &r, &d);
	assert_true(d.has_address_lsb);
	assert_int_equal(d.address_lsb, 12);
	/* Family 17h: those STATUS bits are reserved, MCA_ADDR[61:56] holds it. */
	decode(MCE_VENDOR_AMD, 0x17, 0x31, &r, &d);
	assert_int_equal(d.address_lsb, 6);
	/* No ADDRV, no granularity. */
	r.status &= ~ADDRV;
	decode(MCE_VENDOR_AMD, 0x19, 0x11, &r, &d);
	assert_false(d.has_address_lsb);
	/* A kernel record with both fields stripped. */
	r.status = VAL | EN | ADDRV;
	r.addr = 0x1000;
	decode(MCE_VENDOR_AMD, 0x19, 0x11, &r, &d);
	assert_false(d.has_address_lsb);
}

static void test_hygon(void **state)
{
	struct mce_record r = {
		.have = MCE_HAVE_STATUS | MCE_HAVE_IPID,
		.status = VAL | EN | (0x2ull << 16),
		.ipid = ipid(0xb0, 2, 0x200),
	};
	struct mce_decoded d;

	(void) state;
	decode(MCE_VENDOR_HYGON, 0x18, 0x00, &r, &d);
	assert_string_equal(d.cpu_model, "Hygon Family 18h");
	assert_string_equal(d.bank_type, "L2");
	assert_string_equal(d.description, "L2 data array ECC error");
	/* Hygon is not AMD family 18h: no such AMD row. */
	assert_null(find(MCE_VENDOR_AMD, 0x18, 0x00));
}

/* ---- match table ---- */

static void test_match_table(void **state)
{
	const struct mce_model_match *m;
	static const uint32_t amd_fams[] = { 0x10, 0x11, 0x12, 0x14, 0x15, 0x16, 0x17, 0x19, 0x1a };

	(void) state;
	for (m = amd_model_matches; m->decoder; m++) {
		assert_true(m->vendor == MCE_VENDOR_AMD || m->vendor == MCE_VENDOR_HYGON);
		assert_true(m->model_first <= m->model_last);
		assert_non_null(m->decoder->decode);
		assert_non_null(m->decoder->name);
		assert_non_null(m->decoder->tables);
		/* Every row is reachable: its first model is not taken by an earlier row. */
		assert_ptr_equal(find(m->vendor, m->family, m->model_first), m->decoder);
	}
	assert_true(m - amd_model_matches >= 15);
	for (size_t i = 0; i < ELEMENTSOF(amd_fams); i++)
		for (uint32_t model = 0; model <= 0xff; model++)
			assert_non_null(find(MCE_VENDOR_AMD, amd_fams[i], model));
	assert_null(find(MCE_VENDOR_AMD, 0x13, 0));
	assert_null(find(MCE_VENDOR_INTEL, 0x19, 0x01));
	assert_ptr_equal(find(MCE_VENDOR_AMD, 0x19, 0x11)->tables, &smca_profile_cs_erratum_1384);
	assert_ptr_equal(find(MCE_VENDOR_AMD, 0x19, 0x91)->tables, &smca_profile_hbm3);
	assert_ptr_equal(find(MCE_VENDOR_AMD, 0x19, 0x21)->tables, &smca_profile_plain);
	assert_ptr_equal(find(MCE_VENDOR_AMD, 0x15, 0x65)->tables, &amd_f15h_m60h);
}

/* ---- families 10h-16h ---- */

static void test_legacy_nb_dram_ecc(void **state)
{
	/* Corrected DRAM ECC, XEC 8, syndrome low byte 0x5a in [54:47], high byte 0x3c in [31:24]. */
	struct mce_record r = {
		.have = MCE_HAVE_STATUS | MCE_HAVE_BANK, .bank = 4,
		.status = VAL | EN | ADDRV | CECC | (0x5aull << 47) | (0x3cull << 24) |
			  (0x8ull << 16) | 0x011c,
	};
	struct mce_decoded d;

	(void) state;
	decode(MCE_VENDOR_AMD, 0x10, 0x04, &r, &d);
	assert_string_equal(d.cpu_model, "AMD Family 10h");
	assert_string_equal(d.bank_type, "NB");
	assert_string_equal(d.bank_name, "Northbridge");
	assert_int_equal(d.extended_error_code, 8);
	assert_string_equal(d.description, "DRAM ECC error detected by the northbridge");
	assert_true(d.has_syndrome);
	assert_int_equal(d.syndrome, 0x3c5a);

	/* Family 11h has no DRAM ECC in the northbridge. */
	decode(MCE_VENDOR_AMD, 0x11, 0x03, &r, &d);
	assert_null(d.description);
	assert_false(d.has_syndrome);

	/* The northbridge keeps five XEC bits even where other banks have four. */
	r.status = VAL | EN | UC | (0x1cull << 16) | 0x0000;
	decode(MCE_VENDOR_AMD, 0x10, 0x04, &r, &d);
	assert_int_equal(d.extended_error_code, 0x1c);
	assert_string_equal(d.description, "L3 cache data ECC error");

	/* GART walk vs DMA exclusion vector walk: same XEC, different code class. */
	r.status = VAL | EN | (0xfull << 16) | 0x0011;
	decode(MCE_VENDOR_AMD, 0x10, 0x04, &r, &d);
	assert_string_equal(d.description, "GART table walk data error");
	r.status = VAL | EN | (0xfull << 16) | 0x0e0f;
	decode(MCE_VENDOR_AMD, 0x10, 0x04, &r, &d);
	assert_string_equal(d.description, "DMA exclusion vector table walk error");
	r.status = VAL | EN | (0x19ull << 16);
	decode(MCE_VENDOR_AMD, 0x10, 0x04, &r, &d);
	assert_null(d.description);
	decode(MCE_VENDOR_AMD, 0x15, 0x02, &r, &d);
	assert_string_equal(d.description, "Compute unit data error");
}

static void test_legacy_banks(void **state)
{
	struct mce_record r = { .have = MCE_HAVE_STATUS | MCE_HAVE_BANK };
	struct mce_decoded d;

	(void) state;
	/* 10h DC: data TLB, L1 (TT=data, LL=1) with XEC 2: locked miss. */
	r.bank = 0;
	r.status = VAL | EN | (0x2ull << 16) | 0x0015;
	decode(MCE_VENDOR_AMD, 0x10, 0x02, &r, &d);
	assert_string_equal(d.bank_type, "DC");
	assert_string_equal(d.description, "Data TLB locked miss");

	/* 10h: XEC is four bits outside the NB, so bit 20 is not part of it. */
	r.status = VAL | EN | (0x12ull << 16) | 0x0015;
	decode(MCE_VENDOR_AMD, 0x10, 0x02, &r, &d);
	assert_int_equal(d.extended_error_code, 2);

	/* 14h has no bank 3. */
	r.bank = 3;
	r.status = VAL | EN | 0x0830;
	decode(MCE_VENDOR_AMD, 0x14, 0x02, &r, &d);
	assert_null(d.bank_type);
	assert_null(d.description);
	decode(MCE_VENDOR_AMD, 0x10, 0x02, &r, &d);
	assert_string_equal(d.bank_type, "LS");
	assert_string_equal(d.description, "Load/store unit error on a data read");

	/* 15h EX bank: XEC 0xd and the five-bit mask. */
	r.bank = 5;
	r.status = VAL | EN | UC | PCC | (0xdull << 16) | 0x0000;
	decode(MCE_VENDOR_AMD, 0x15, 0x02, &r, &d);
	assert_string_equal(d.bank_name, "Execution Unit");
	assert_string_equal(d.description, "Retire status queue parity error");
	/* Before 15h only the watchdog. */
	decode(MCE_VENDOR_AMD, 0x10, 0x02, &r, &d);
	assert_string_equal(d.bank_name, "FIROB");
	assert_null(d.description);

	/* 15h IC decoder parity errors 0x11-0x15. */
	r.bank = 1;
	r.status = VAL | EN | (0x15ull << 16) | 0x0150;
	decode(MCE_VENDOR_AMD, 0x15, 0x01, &r, &d);
	assert_string_equal(d.description, "Decoder dispatch micro-op queue parity error");

	/* 16h L2: probe tag ECC, data array. */
	r.bank = 2;
	r.status = VAL | EN | (0xaull << 16) | 0x0181;
	decode(MCE_VENDOR_AMD, 0x16, 0x00, &r, &d);
	assert_string_equal(d.bank_type, "L2");
	assert_string_equal(d.description, "L2 tag ECC error on a probe");
	r.status = VAL | EN | (0x1bull << 16) | 0x0112;
	decode(MCE_VENDOR_AMD, 0x16, 0x00, &r, &d);
	assert_string_equal(d.description, "L2 data array ECC error");

	/* 15h model 60h: six-bit XEC. */
	r.bank = 0;
	r.status = VAL | EN | (0x3full << 16);
	decode(MCE_VENDOR_AMD, 0x15, 0x60, &r, &d);
	assert_int_equal(d.extended_error_code, 0x3f);
	decode(MCE_VENDOR_AMD, 0x15, 0x02, &r, &d);
	assert_int_equal(d.extended_error_code, 0x1f);

	/* Bank beyond the fixed ones: nothing invented. */
	r.bank = 9;
	decode(MCE_VENDOR_AMD, 0x15, 0x02, &r, &d);
	assert_null(d.bank_type);
	assert_null(d.description);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_sorted_unique),
		cmocka_unit_test(test_every_row_resolves),
		cmocka_unit_test(test_kernel_pairs),
		cmocka_unit_test(test_xec_tables_in_range),
		cmocka_unit_test(test_xec_spot_checks),
		cmocka_unit_test(test_unknown_ipid),
		cmocka_unit_test(test_no_ipid_no_bank_type),
		cmocka_unit_test(test_every_name_resolves),
		cmocka_unit_test(test_named_bank_without_ipid),
		cmocka_unit_test(test_named_bank_revisions_disagree),
		cmocka_unit_test(test_unknown_or_long_bank_name),
		cmocka_unit_test(test_random_registers_never_crash),
		cmocka_unit_test(test_umc_dram_ecc),
		cmocka_unit_test(test_umc_hbm3),
		cmocka_unit_test(test_cs_erratum_1384),
		cmocka_unit_test(test_address_lsb),
		cmocka_unit_test(test_hygon),
		cmocka_unit_test(test_match_table),
		cmocka_unit_test(test_legacy_nb_dram_ecc),
		cmocka_unit_test(test_legacy_banks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
