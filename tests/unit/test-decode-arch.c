/* SPDX-License-Identifier: MIT */
/*
 * The architectural x86 decode and the dispatch: every MCACOD class and its
 * sub-fields, every named status bit, the severity rules, the JSON rendering
 * and summary, and the invariants of the tables (no shadowed rows, sorted
 * bank lists, catch-all rule last).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "decode.h"
#include "intel.h"
#include "internal.h"
#include "json-writer.h"
#include "record-json.h"

#define BIT(n) (UINT64_C(1) << (n))
#define VAL BIT(63)
#define UC BIT(61)
#define EN BIT(60)

static struct mce_record intel_rec(uint64_t status)
{
	return (struct mce_record) {
		.have = MCE_HAVE_STATUS | MCE_HAVE_VENDOR | MCE_HAVE_CPUID | MCE_HAVE_BANK,
		.vendor = MCE_VENDOR_INTEL, .family = 6, .model = 0x8f, .bank = 1,
		.status = status,
	};
}

static struct mce_record amd_rec(uint64_t status)
{
	return (struct mce_record) {
		.have = MCE_HAVE_STATUS | MCE_HAVE_VENDOR | MCE_HAVE_CPUID | MCE_HAVE_BANK,
		.vendor = MCE_VENDOR_AMD, .family = 0x19, .model = 0x01, .bank = 5,
		.status = status,
	};
}

static bool has_flag(const struct mce_decoded *d, const char *name)
{
	for (unsigned i = 0; i < d->n_flags; i++)
		if (strcmp(d->flags[i], name) == 0)
			return true;
	return false;
}

/* ---- MCACOD classes ---- */

static void test_simple_codes(void **state)
{
	static const struct { uint16_t code; enum mce_error_class cls; } cases[] = {
		{ 0x0000, MCE_CLASS_NO_ERROR },
		{ 0x0001, MCE_CLASS_UNCLASSIFIED },
		{ 0x0002, MCE_CLASS_MICROCODE_ROM_PARITY },
		{ 0x0003, MCE_CLASS_EXTERNAL },
		{ 0x0004, MCE_CLASS_FRC },
		{ 0x0005, MCE_CLASS_INTERNAL_PARITY },
		{ 0x0006, MCE_CLASS_SMM_HANDLER_CODE_ACCESS_VIOLATION },
		{ 0x0400, MCE_CLASS_INTERNAL_TIMER },
		{ 0x0e0b, MCE_CLASS_IO },
		{ 0x0401, MCE_CLASS_INTERNAL_UNCLASSIFIED },
		{ 0x0406, MCE_CLASS_INTERNAL_UNCLASSIFIED },
		{ 0x07ff, MCE_CLASS_INTERNAL_UNCLASSIFIED },
		{ 0x0007, MCE_CLASS_UNKNOWN },
		{ 0x0200, MCE_CLASS_UNKNOWN },
		{ 0x1000, MCE_CLASS_UNKNOWN },   /* F bit alone is no code */
		{ 0x000f, MCE_CLASS_GENERIC_CACHE_HIERARCHY },
		{ 0x100c, MCE_CLASS_GENERIC_CACHE_HIERARCHY },
		{ 0x0014, MCE_CLASS_TLB },
		{ 0x009f, MCE_CLASS_MEMORY_CONTROLLER },
		{ 0x1080, MCE_CLASS_MEMORY_CONTROLLER },
		{ 0x0134, MCE_CLASS_CACHE },
		{ 0x017a, MCE_CLASS_CACHE },
		{ 0x0800, MCE_CLASS_BUS_INTERCONNECT },
		{ 0x1e0b, MCE_CLASS_BUS_INTERCONNECT },  /* F set: not the simple I/O code */
	};
	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mce_record r = intel_rec(VAL | cases[i].code);
		struct mce_decoded d;

		mce_decode(&r, &d);
		if (d.error_class != cases[i].cls)
			fail_msg("MCACOD 0x%04x: class %s, want %s", cases[i].code,
				 mce_error_class_to_string(d.error_class),
				 mce_error_class_to_string(cases[i].cls));
	}
}

static void test_cache_fields(void **state)
{
	struct mce_decoded d;
	struct mce_record r;
	(void) state;

	/* every LL, TT and RRRR value through the cache form 0001 RRRR TTLL */
	for (unsigned rrrr = 0; rrrr < 16; rrrr++)
		for (unsigned tt = 0; tt < 4; tt++)
			for (unsigned ll = 0; ll < 4; ll++) {
				r = intel_rec(VAL | 0x0100 | (rrrr << 4) | (tt << 2) | ll);
				mce_decode(&r, &d);
				assert_int_equal(d.error_class, MCE_CLASS_CACHE);
				assert_int_equal(d.cache_level, MCE_LEVEL_0 + ll);
				assert_int_equal(d.transaction_type,
						 tt == 3 ? MCE_TT_ABSENT : MCE_TT_INSTRUCTION + tt);
				assert_int_equal(d.request, rrrr <= 8 ? MCE_RQ_GENERIC + rrrr : MCE_RQ_ABSENT);
				assert_int_equal(d.channel, -1);
				assert_int_equal(d.timeout, -1);
			}

	r = intel_rec(VAL | 0x0018);   /* TLB: TT=10 generic, LL=00 */
	mce_decode(&r, &d);
	assert_int_equal(d.error_class, MCE_CLASS_TLB);
	assert_int_equal(d.transaction_type, MCE_TT_GENERIC);
	assert_int_equal(d.cache_level, MCE_LEVEL_0);
	assert_int_equal(d.request, MCE_RQ_ABSENT);

	r = intel_rec(VAL | 0x000e);   /* generic cache hierarchy, L2 */
	mce_decode(&r, &d);
	assert_int_equal(d.error_class, MCE_CLASS_GENERIC_CACHE_HIERARCHY);
	assert_int_equal(d.cache_level, MCE_LEVEL_2);
	assert_int_equal(d.transaction_type, MCE_TT_ABSENT);
}

static void test_memory_fields(void **state)
{
	(void) state;
	for (unsigned mmm = 0; mmm < 8; mmm++)
		for (unsigned cccc = 0; cccc < 16; cccc++) {
			struct mce_record r = intel_rec(VAL | 0x0080 | (mmm << 4) | cccc);
			struct mce_decoded d;

			mce_decode(&r, &d);
			assert_int_equal(d.error_class, MCE_CLASS_MEMORY_CONTROLLER);
			assert_int_equal(d.memory_transaction,
					 mmm <= 4 ? MCE_MT_GENERIC + mmm : MCE_MT_ABSENT);
			assert_int_equal(d.channel, cccc == 0xf ? -1 : (int) cccc);
			assert_int_equal(d.cache_level, MCE_LEVEL_ABSENT);
		}
}

static void test_bus_fields(void **state)
{
	static const char *const pp[] = { "source", "responder", "observer", "generic" };
	static const char *const ii[] = { "memory", "reserved", "io", "other" };
	(void) state;

	for (unsigned p = 0; p < 4; p++)
		for (unsigned t = 0; t < 2; t++)
			for (unsigned i = 0; i < 4; i++) {
				uint16_t c = 0x0800 | (p << 9) | (t << 8) | (0x3 << 4) | (i << 2) | 1;
				struct mce_record r = intel_rec(VAL | c);
				struct mce_decoded d;

				mce_decode(&r, &d);
				if (c == 0x0e0b)
					continue;
				assert_int_equal(d.error_class, MCE_CLASS_BUS_INTERCONNECT);
				assert_string_equal(d.participation, pp[p]);
				assert_int_equal(d.timeout, (int) t);
				assert_string_equal(d.memory_or_io, ii[i]);
				assert_int_equal(d.request, MCE_RQ_DATA_READ);
				assert_int_equal(d.cache_level, MCE_LEVEL_1);
			}
}

/* ---- bits ---- */

static void test_status_flags_intel(void **state)
{
	struct mce_record r = intel_rec(0);
	struct mce_decoded d;
	(void) state;

	for (size_t i = 0; i < x86_status_flags_count; i++) {
		const struct x86_flag_bit *f = &x86_status_flags[i];

		if (f->vc == 2)
			continue;
		r = intel_rec(BIT(f->bit));
		mce_decode(&r, &d);
		assert_true(has_flag(&d, f->name));
		assert_int_equal(d.n_flags, 1);
	}
	/* AMD-only bits never show on Intel */
	r = intel_rec(BIT(44) | BIT(43) | BIT(53));
	mce_decode(&r, &d);
	assert_int_equal(d.n_flags, 0);
}

static void test_status_flags_amd(void **state)
{
	struct mce_record r;
	struct mce_decoded d;
	(void) state;

	for (size_t i = 0; i < x86_status_flags_count; i++) {
		const struct x86_flag_bit *f = &x86_status_flags[i];

		if (f->vc == 1)
			continue;
		r = amd_rec(BIT(f->bit));
		mce_decode(&r, &d);
		assert_true(has_flag(&d, f->name));
		assert_int_equal(d.n_flags, 1);
	}
	/* S and AR are Intel names; on AMD bits 56/55 are ErrCoreIdVal and TCC */
	r = amd_rec(BIT(56) | BIT(55));
	mce_decode(&r, &d);
	assert_false(has_flag(&d, "S"));
	assert_false(has_flag(&d, "AR"));
	assert_true(has_flag(&d, "TCC"));

	/* Family 15h bank 4: bit 43 is not Poison */
	r = amd_rec(BIT(43));
	r.family = 0x15;
	r.bank = 4;
	mce_decode(&r, &d);
	assert_false(has_flag(&d, "POISON"));
	r.bank = 3;
	mce_decode(&r, &d);
	assert_true(has_flag(&d, "POISON"));

	/* SMCA-only bits need family 17h or later */
	r = amd_rec(BIT(53));
	r.family = 0x15;
	mce_decode(&r, &d);
	assert_false(has_flag(&d, "SYNDV"));

	/* no family: CECC/UECC only where the source named those bits so,
	 * and that stands for nothing else a family would tell */
	r = amd_rec(BIT(46) | BIT(45) | BIT(44) | BIT(53));
	r.have &= ~MCE_HAVE_CPUID;
	mce_decode(&r, &d);
	assert_false(has_flag(&d, "CECC"));
	assert_false(has_flag(&d, "UECC"));
	r.have |= MCE_HAVE_AMD_ECC_NAMED;
	mce_decode(&r, &d);
	assert_true(has_flag(&d, "CECC"));
	assert_true(has_flag(&d, "UECC"));
	assert_false(has_flag(&d, "DEFERRED"));
	assert_false(has_flag(&d, "SYNDV"));
	/* a known family still rules over the flag list */
	r.have |= MCE_HAVE_CPUID;
	r.family = 0xf;
	mce_decode(&r, &d);
	assert_false(has_flag(&d, "CECC"));
}

static void test_mcg_flags(void **state)
{
	struct mce_record r = intel_rec(VAL);
	struct mce_decoded d;
	(void) state;

	r.mcgstatus = 0xf;
	mce_decode(&r, &d);
	assert_false(has_flag(&d, "RIPV"));   /* not captured: not decoded */
	r.have |= MCE_HAVE_MCGSTATUS;
	mce_decode(&r, &d);
	assert_true(has_flag(&d, "RIPV"));
	assert_true(has_flag(&d, "EIPV"));
	assert_true(has_flag(&d, "MCIP"));
	assert_true(has_flag(&d, "LMCE_S"));
	r.mcgstatus = BIT(1);
	mce_decode(&r, &d);
	assert_false(has_flag(&d, "RIPV"));
	assert_true(has_flag(&d, "EIPV"));
}

static void test_count_threshold_misc(void **state)
{
	struct mce_record r = intel_rec(VAL | BIT(59) | BIT(58) | (UINT64_C(5) << 38) | BIT(54) | 0x9f);
	struct mce_decoded d;
	(void) state;

	r.have |= MCE_HAVE_MISC | MCE_HAVE_MCGCAP;
	r.mcgcap = BIT(10) | BIT(11) | BIT(24);
	r.misc = (2 << 6) | 12;
	mce_decode(&r, &d);
	assert_true(d.has_corrected_count);
	assert_int_equal(d.corrected_count, 5);
	assert_string_equal(d.threshold_status, "yellow");
	assert_true(d.has_address_lsb);
	assert_int_equal(d.address_lsb, 12);
	assert_string_equal(d.address_mode, "physical");

	r.status = (r.status & ~BIT(54)) | BIT(53);
	mce_decode(&r, &d);
	assert_string_equal(d.threshold_status, "green");

	/* without TES_P / CMCI_P / SER_P the fields are not architectural */
	r.mcgcap = 0;
	mce_decode(&r, &d);
	assert_null(d.threshold_status);
	assert_false(d.has_corrected_count);
	assert_false(d.has_address_lsb);

	/* ADDRV clear: MISC's address mode means nothing */
	r.mcgcap = BIT(24);
	r.status &= ~BIT(58);
	mce_decode(&r, &d);
	assert_false(d.has_address_lsb);

	/* uncorrected: no threshold status */
	r = intel_rec(VAL | UC | BIT(54) | 0x9f);
	mce_decode(&r, &d);
	assert_null(d.threshold_status);

	for (unsigned mode = 0; mode < 8; mode++) {
		static const char *const names[] = { "segment_offset", "linear", "physical", "memory",
						     "reserved", "reserved", "reserved", "generic" };

		r = intel_rec(VAL | BIT(59) | BIT(58));
		r.have |= MCE_HAVE_MISC;
		r.misc = (uint64_t) mode << 6 | 6;
		mce_decode(&r, &d);
		assert_string_equal(d.address_mode, names[mode]);
	}
}

/* ---- severity ---- */

struct sev_case {
	uint64_t status;
	bool have_mcg;
	uint64_t mcg;
	bool have_cap;
	uint64_t cap;
	bool amd;
	enum mce_severity sev;
	enum mce_recovery rec;
};

static void test_severity(void **state)
{
	const uint64_t S = BIT(56), AR = BIT(55), PCC = BIT(57), OVER = BIT(62);
	const uint64_t SER = BIT(24), DEF = BIT(44);
	const struct sev_case cases[] = {
		{ VAL | 0x9f, .sev = MCE_SEV_CORRECTED },
		{ VAL | UC | PCC, .sev = MCE_SEV_FATAL },
		{ VAL | UC | EN | S | AR | 0x134, .sev = MCE_SEV_UNCORRECTED, .rec = MCE_RECOVERY_SRAR },
		{ VAL | UC | EN | S | AR | OVER | 0x134, .sev = MCE_SEV_FATAL, .rec = MCE_RECOVERY_SRAR },
		{ VAL | UC | EN | S | 0xc0, .sev = MCE_SEV_UNCORRECTED, .rec = MCE_RECOVERY_SRAO },
		{ VAL | UC | EN | 0xc0, .have_cap = true, .cap = SER,
		  .sev = MCE_SEV_UNCORRECTED, .rec = MCE_RECOVERY_SRAO },
		{ VAL | UC | EN | 0x17a, .have_cap = true, .cap = SER,
		  .sev = MCE_SEV_UNCORRECTED, .rec = MCE_RECOVERY_SRAO },
		{ VAL | UC | 0x9f, .have_cap = true, .cap = SER,
		  .sev = MCE_SEV_UNCORRECTED, .rec = MCE_RECOVERY_UCNA },
		{ VAL | UC | 0x9f, .sev = MCE_SEV_UNCORRECTED },              /* SER unknown */
		{ VAL | UC | 0x9f, .have_cap = true, .cap = 0, .sev = MCE_SEV_UNCORRECTED },
		{ VAL | UC | OVER | 0x9f, .have_cap = true, .cap = 0, .sev = MCE_SEV_FATAL },
		{ VAL | UC | AR | 0x134, .have_cap = true, .cap = SER, .sev = MCE_SEV_FATAL },
		{ VAL | UC | S | AR | 0x134, .have_mcg = true, .mcg = BIT(2),
		  .sev = MCE_SEV_FATAL },
		{ VAL | UC | S | AR | 0x134, .have_mcg = true, .mcg = BIT(2) | BIT(1),
		  .sev = MCE_SEV_UNCORRECTED, .rec = MCE_RECOVERY_SRAR },
		/* AMD */
		{ VAL | 0x9f, .amd = true, .sev = MCE_SEV_CORRECTED },
		{ VAL | DEF | 0x9f, .amd = true, .sev = MCE_SEV_DEFERRED },
		{ VAL | UC | PCC, .amd = true, .have_mcg = true, .mcg = 1, .sev = MCE_SEV_FATAL },
		{ VAL | UC, .amd = true, .have_mcg = true, .mcg = 1,
		  .sev = MCE_SEV_UNCORRECTED, .rec = MCE_RECOVERY_RESTARTABLE },
		{ VAL | UC, .amd = true, .have_mcg = true, .mcg = 0,
		  .sev = MCE_SEV_UNCORRECTED, .rec = MCE_RECOVERY_CONTAINABLE },
		{ VAL | UC | DEF, .amd = true, .sev = MCE_SEV_UNCORRECTED },
		/* no SER on AMD; bit 55 is TCC there (family 19h): the task must die */
		{ VAL | UC | S | AR, .amd = true,
		  .sev = MCE_SEV_UNCORRECTED, .rec = MCE_RECOVERY_CONTAINABLE },
		{ VAL | UC | AR, .amd = true, .have_mcg = true, .mcg = 1,
		  .sev = MCE_SEV_UNCORRECTED, .rec = MCE_RECOVERY_CONTAINABLE },
	};
	(void) state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct sev_case *c = &cases[i];
		struct mce_record r = c->amd ? amd_rec(c->status) : intel_rec(c->status);
		struct mce_decoded d;

		if (c->have_mcg) {
			r.have |= MCE_HAVE_MCGSTATUS;
			r.mcgstatus = c->mcg;
		}
		if (c->have_cap) {
			r.have |= MCE_HAVE_MCGCAP;
			r.mcgcap = c->cap;
		}
		mce_decode(&r, &d);
		if (d.severity != c->sev || d.recovery != c->rec)
			fail_msg("case %zu (status 0x%016llx): %s/%s, want %s/%s (rule \"%s\")", i,
				 (unsigned long long) c->status, mce_severity_to_string(d.severity),
				 mce_recovery_to_string(d.recovery) ?: "-",
				 mce_severity_to_string(c->sev), mce_recovery_to_string(c->rec) ?: "-",
				 x86_severity_rules[x86_severity_rule_index(&r)].why);
	}
}

static void test_severity_table_shape(void **state)
{
	const struct x86_severity_rule *last = &x86_severity_rules[x86_severity_rules_count - 1];
	struct mce_record r = intel_rec(0);
	(void) state;

	/* catch-all last: no conditions at all */
	assert_int_equal(last->mask, 0);
	assert_false(last->need_mcg);
	assert_int_equal(last->ser, 0);
	assert_int_equal(last->vc, 0);
	/* every rule is reachable: no rule is an exact duplicate of an earlier one */
	for (size_t j = 0; j < x86_severity_rules_count; j++)
		for (size_t i = 0; i < j; i++) {
			const struct x86_severity_rule *a = &x86_severity_rules[i], *b = &x86_severity_rules[j];

			assert_false(a->vc == b->vc && a->mask == b->mask && a->value == b->value &&
				     a->need_mcg == b->need_mcg && a->mcg_mask == b->mcg_mask &&
				     a->mcg_value == b->mcg_value && a->ser == b->ser);
		}
	/* the index function never runs off the table */
	for (unsigned bits = 0; bits < 256; bits++) {
		r.status = (uint64_t) bits << 55;
		assert_true(x86_severity_rule_index(&r) < x86_severity_rules_count);
	}
}

static void test_mcacod_table_not_shadowed(void **state)
{
	(void) state;
	/* every row is the first match for at least one code, so none is dead */
	for (size_t i = 0; i < x86_mcacod_classes_count; i++) {
		bool reachable = false;

		for (uint32_t c = 0; c <= 0xffff && !reachable; c++) {
			size_t first = x86_mcacod_classes_count;

			for (size_t k = 0; k < x86_mcacod_classes_count; k++)
				if ((c & x86_mcacod_classes[k].mask) == x86_mcacod_classes[k].value) {
					first = k;
					break;
				}
			if (first == i) {
				reachable = true;
				assert_int_equal(x86_mcacod_classify((uint16_t) c), x86_mcacod_classes[i].cls);
			}
		}
		if (!reachable)
			fail_msg("MCACOD row %zu (mask 0x%04x value 0x%04x) is shadowed", i,
				 x86_mcacod_classes[i].mask, x86_mcacod_classes[i].value);
	}
	/* every class but UNKNOWN has a row */
	for (int c = 0; c < MCE_CLASS_UNKNOWN; c++) {
		bool found = false;

		for (size_t i = 0; i < x86_mcacod_classes_count; i++)
			found |= x86_mcacod_classes[i].cls == (enum mce_error_class) c;
		assert_true(found);
	}
}

static void test_enum_strings(void **state)
{
	(void) state;
	for (int c = 0; c < _MCE_CLASS_MAX; c++)
		assert_non_null(mce_error_class_to_string(c));
	assert_string_equal(mce_error_class_to_string(MCE_CLASS_BUS_INTERCONNECT), "bus_interconnect");
	for (int s = 0; s < _MCE_SEV_MAX; s++)
		assert_int_equal(mce_severity_from_string(mce_severity_to_string(s)), s);
	assert_int_equal(mce_severity_from_string("bogus"), _MCE_SEV_INVALID);
	assert_null(mce_recovery_to_string(MCE_RECOVERY_NONE));
	for (int r = 1; r < _MCE_RECOVERY_MAX; r++)
		assert_non_null(mce_recovery_to_string(r));
}

/* ---- dispatch and model tables ---- */

static void test_intel_match_table_sorted(void **state)
{
	(void) state;
	for (const struct mce_model_match *m = intel_model_matches; m->decoder; m++) {
		assert_true(m->model_first <= m->model_last);
		assert_int_equal(m->vendor, MCE_VENDOR_INTEL);
		if (m[1].decoder) {
			uint64_t a = (uint64_t) m->family << 32 | m->model_last;
			uint64_t b = (uint64_t) m[1].family << 32 | m[1].model_first;

			assert_true(a < b);
		}
		assert_ptr_equal(mce_model_decoder_lookup(m->vendor, m->family, m->model_first),
				 m->decoder);
	}
	assert_null(mce_model_decoder_lookup(MCE_VENDOR_INTEL, 6, 0x10));
	assert_null(mce_model_decoder_lookup(MCE_VENDOR_INTEL, 15, 0x05));
	assert_null(mce_model_decoder_lookup(MCE_VENDOR_UNKNOWN, 6, 0x8f));
}

/* Rows matched first to last: each says something, and no earlier row hides it. */
static void check_code_table(const struct intel_code_table *codes)
{
	for (size_t k = 0; k < codes->n; k++) {
		const struct intel_code *c = &codes->rows[k];

		assert_non_null(c->text);
		assert_int_equal(c->value & ~c->mask, 0);
		/* a row that an earlier row of the same table hides is dead */
		for (size_t e = 0; e < k; e++)
			assert_false((c->value & codes->rows[e].mask) == codes->rows[e].value);
	}
}

/*
 * Bit-field sets: each set reachable (no earlier set takes all its codes),
 * its fields inside STATUS and disjoint, flags one bit wide, an enumerated
 * field's values distinct and within its width.
 */
static void check_field_sets(const struct intel_field_set *sets, size_t n_sets)
{
	for (size_t s = 0; s < n_sets; s++) {
		uint64_t used[2] = { 0, 0 };   /* STATUS, MISC */

		assert_int_equal(sets[s].status_value & ~sets[s].status_mask, 0);
		for (size_t e = 0; e < s; e++)
			assert_false((sets[s].status_value & sets[e].status_mask) == sets[e].status_value &&
				     (sets[e].status_mask & ~sets[s].status_mask) == 0);
		assert_true(sets[s].n > 0);
		for (size_t i = 0; i < sets[s].n; i++) {
			const struct intel_field *f = &sets[s].fields[i];
			uint64_t bits;

			assert_non_null(f->name);
			assert_true(f->lo <= f->hi && f->hi < 64);
			bits = ((UINT64_C(2) << (f->hi - f->lo)) - 1) << f->lo;
			assert_int_equal(used[f->in_misc] & bits, 0);
			used[f->in_misc] |= bits;
			if (f->text)
				assert_int_equal(f->lo, f->hi);
			for (size_t k = 0; k < f->n_values; k++) {
				assert_non_null(f->values[k].text);
				assert_true(f->values[k].value <= (bits >> f->lo));
				for (size_t e = 0; e < k; e++)
					assert_int_not_equal(f->values[e].value, f->values[k].value);
			}
		}
	}
}

static void check_intel_model(const struct intel_model *im)
{
	assert_non_null(im);
	assert_non_null(im->source);
	if (im->codes)
		check_code_table(im->codes);
	check_field_sets(im->fields, im->n_fields);
	for (size_t i = 0; i < im->n_banks; i++) {
		const struct intel_bank *b = &im->banks[i];

		assert_true(b->first <= b->last);
		assert_non_null(b->name);
		assert_non_null(b->type);
		if (i > 0)
			assert_true(im->banks[i - 1].last < b->first);
		assert_ptr_equal(intel_bank_lookup(im, b->first), b);
		assert_ptr_equal(intel_bank_lookup(im, b->last), b);
		if (b->codes)
			check_code_table(b->codes);
		check_field_sets(b->fields, b->n_fields);
	}
}

/* Zhaoxin's tables take the Intel shape (zhaoxin-models.c): the same checks. */
static void test_intel_bank_tables_sorted(void **state)
{
	(void) state;
	for (const struct mce_model_match *m = intel_model_matches; m->decoder; m++)
		check_intel_model(m->decoder->tables);
	for (const struct mce_model_match *m = zhaoxin_model_matches; m->decoder; m++)
		check_intel_model(m->decoder->tables);
}

/*
 * Issue 15: every code of the memory-path tables from Ice Lake-SP on (iMC,
 * Sapphire Rapids M2M/HBM, Granite Rapids MC channel and B2CMI) carries the
 * documented name, and the decoder reports it; a row added without one fails.
 */
static void test_intel_memory_codes_have_mnemonics(void **state)
{
	static const struct intel_model *const models[] = {
		&intel_icelake_x, &intel_sapphirerapids_x, &intel_graniterapids_x, &intel_diamondrapids_x,
	};
	static const char *const memory_types[] = { "IMC", "HBM", "M2M", "HBM_M2M", "MCCHAN", "B2CMI" };
	unsigned checked = 0;

	(void) state;
	for (size_t mi = 0; mi < sizeof(models) / sizeof(models[0]); mi++)
		for (size_t i = 0; i < models[mi]->n_banks; i++) {
			const struct intel_bank *b = &models[mi]->banks[i];
			bool memory = false;

			for (size_t t = 0; t < sizeof(memory_types) / sizeof(memory_types[0]); t++)
				memory |= strcmp(b->type, memory_types[t]) == 0;
			/* Ice Lake's bit-flag M2M table follows the SDM's prose, which names no codes */
			if (!memory || !b->codes || (models[mi] == &intel_icelake_x && !strcmp(b->type, "M2M")))
				continue;
			for (size_t k = 0; k < b->codes->n; k++) {
				const struct intel_code *c = &b->codes->rows[k];

				if (!c->mnemonic || !*c->mnemonic)
					fail_msg("bank %u code row %zu (%s) has no mnemonic", b->first, k, c->text);
				checked++;
			}
		}
	/* each bank counts its table: at least one bank of each of the five tables */
	assert_true(checked >= 17 + 23 + 10 + 15 + 6);
}

static void test_unknown_model_and_bank(void **state)
{
	struct mce_record r = intel_rec(VAL | 0x0134);
	struct mce_decoded d;
	(void) state;

	r.model = 0x10;
	mce_decode(&r, &d);
	assert_true(d.unknown_model);
	assert_null(d.cpu_model);
	assert_null(d.bank_name);
	assert_int_equal(d.error_class, MCE_CLASS_CACHE);

	r.model = 0x8f;
	r.bank = 27;   /* not in the Sapphire Rapids table */
	mce_decode(&r, &d);
	assert_false(d.unknown_model);
	assert_string_equal(d.cpu_model, "Sapphire Rapids");
	assert_null(d.bank_name);

	r.bank = 1;
	mce_decode(&r, &d);
	assert_string_equal(d.bank_name, "Data Cache Unit");
	assert_string_equal(d.bank_type, "DCU");
}

/*
 * Linux's record of a firmware-reported (APEI) memory error: bank 255 and
 * STATUS VAL|UC|EN|MISCV|ADDRV|9FH, named so on every vendor and model,
 * known or not; bank 254 is no such record.
 */
static void test_apei_bank(void **state)
{
	const uint64_t apei_status = 0xbc0000000000009full;
	struct mce_record recs[] = { intel_rec(apei_status), amd_rec(apei_status), intel_rec(apei_status) };
	struct mce_decoded d;
	(void) state;

	recs[2].model = 0x01;                            /* a model we do not know */
	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++) {
		recs[i].bank = 255;
		mce_decode(&recs[i], &d);
		assert_non_null(d.bank_name);
		assert_string_equal(d.bank_type, "APEI");
		assert_true(strstr(d.bank_name, "no MCA bank") != NULL);
		assert_int_equal(d.error_class, MCE_CLASS_MEMORY_CONTROLLER);
		assert_int_equal(d.severity, MCE_SEV_UNCORRECTED);
		recs[i].bank = 254;
		mce_decode(&recs[i], &d);
		assert_true(d.bank_type == NULL || strcmp(d.bank_type, "APEI") != 0);
	}
}

/* ---- rendering ---- */

static struct json_object *render(const struct mce_record *r, const struct mce_decoded *d)
{
	struct json_writer w;
	struct json_object *o;

	json_writer_init(&w);
	mce_record_write_json(r, d, &w);
	assert_false(json_writer_failed(&w));
	o = json_tokener_parse(json_writer_str(&w));
	json_writer_done(&w);
	assert_non_null(o);
	return o;
}

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return NULL;
	return json_object_get_string(v);
}

static void test_json(void **state)
{
	struct mce_record r = intel_rec(VAL | EN | BIT(59) | BIT(58) | (UINT64_C(3) << 38) | 0x00100092);
	struct mce_decoded d;
	struct json_object *o, *v;
	(void) state;

	r.bank = 13;
	r.have |= MCE_HAVE_MISC;
	r.misc = (UINT64_C(2) << 56) | (2 << 6) | 6;
	mce_decode(&r, &d);
	o = render(&r, &d);
	assert_string_equal(jstr(o, "severity"), "corrected");
	assert_null(jstr(o, "recovery"));
	assert_string_equal(jstr(o, "error_class"), "memory_controller");
	assert_string_equal(jstr(o, "memory_transaction"), "read");
	assert_string_equal(jstr(o, "cpu_model"), "Sapphire Rapids");
	assert_string_equal(jstr(o, "bank_name"), "Integrated Memory Controller");
	assert_string_equal(jstr(o, "description"), "Uncorrected patrol scrub error");
	assert_string_equal(jstr(o, "address_mode"), "physical");
	assert_true(json_object_object_get_ex(o, "channel", &v));
	assert_int_equal(json_object_get_int(v), 2);
	/* Sapphire Rapids: MISC[57] is the rank, MISC[58] the DIMM */
	assert_true(json_object_object_get_ex(o, "rank", &v));
	assert_int_equal(json_object_get_int(v), 1);
	assert_true(json_object_object_get_ex(o, "dimm", &v));
	assert_int_equal(json_object_get_int(v), 0);
	assert_true(json_object_object_get_ex(o, "model_specific_code", &v));
	assert_int_equal(json_object_get_int(v), 0x0010);
	assert_true(json_object_object_get_ex(o, "flags", &v));
	assert_int_equal(json_object_array_length(v), 4);
	assert_false(json_object_object_get_ex(o, "cache_level", &v));
	assert_false(json_object_object_get_ex(o, "timeout", &v));
	json_object_put(o);

	/* generic level renders as a string, others as integers; unknown bank as "unknown" */
	r = intel_rec(VAL | 0x000f);
	r.bank = 99;
	mce_decode(&r, &d);
	o = render(&r, &d);
	assert_string_equal(jstr(o, "cache_level"), "generic");
	assert_string_equal(jstr(o, "bank_name"), "unknown");
	assert_string_equal(jstr(o, "description"), "unknown");
	json_object_put(o);

	r = intel_rec(VAL | 0x0e0b);
	r.have &= ~(uint32_t) (MCE_HAVE_CPUID | MCE_HAVE_BANK);
	mce_decode(&r, &d);
	o = render(&r, &d);
	assert_string_equal(jstr(o, "cpu_model"), "unknown");
	assert_null(jstr(o, "bank_name"));
	assert_true(json_object_object_get_ex(o, "timeout", &v));
	assert_true(json_object_is_type(v, json_type_boolean));
	assert_true(json_object_object_get_ex(o, "cache_level", &v));
	assert_true(json_object_is_type(v, json_type_string));
	json_object_put(o);
}

static void test_summary(void **state)
{
	struct mce_record r = intel_rec(VAL | 0x0134);
	struct mce_decoded d;
	char buf[160];
	int n;
	(void) state;

	mce_decode(&r, &d);
	n = mce_decoded_summary(&d, buf, sizeof(buf));
	assert_string_equal(buf, "Level-0 data cache data-read error (Data Cache Unit)");
	assert_int_equal(n, (int) strlen(buf));

	r = intel_rec(VAL | 0x0092);
	r.have &= ~(uint32_t) MCE_HAVE_CPUID;
	mce_decode(&r, &d);
	mce_decoded_summary(&d, buf, sizeof(buf));
	assert_string_equal(buf, "Memory controller read error, channel 2");

	/* truncation: returns the full length, never overflows */
	n = mce_decoded_summary(&d, buf, 8);
	assert_int_equal(n, (int) strlen("Memory controller read error, channel 2"));
	assert_int_equal(strlen(buf), 7);
	assert_int_equal(mce_decoded_summary(&d, NULL, 0), n);
}

/* Cut short at every size, the summary is the full one's prefix, and the length is the full one's (as snprintf). */
static void test_summary_every_size(void **state)
{
	(void) state;
	for (uint32_t code = 0; code <= 0xffff; code += (code < 0x1000 ? 1 : 0x3d)) {
		struct mce_record r = intel_rec(VAL | code);
		struct mce_decoded d;
		char full[256], cut[256];
		int n;

		mce_decode(&r, &d);
		n = mce_decoded_summary(&d, full, sizeof(full));
		assert_true(n > 0 && (size_t) n < sizeof(full));
		assert_int_equal(n, (int) strlen(full));
		assert_int_equal(mce_decoded_summary(&d, NULL, 0), n);
		for (size_t size = 1; size <= (size_t) n + 1; size++) {
			memset(cut, 'x', sizeof(cut));
			assert_int_equal(mce_decoded_summary(&d, cut, size), n);
			assert_int_equal(strlen(cut), size - 1);
			assert_memory_equal(cut, full, size - 1);
		}
	}
}

/*
 * mce_decode() leaves the flag and detail arrays past their counts as
 * they were, and clears everything else: a record decodes the same into
 * a struct full of zeros and into one full of other bytes, whatever the
 * vendor, model, bank and bits.
 */
static void decoded_same_over_junk(struct mce_record *r)
{
	static struct mce_decoded a, b;

	memset(&a, 0, sizeof(a));
	memset(&b, 0xa5, sizeof(b));
	mce_decode(r, &a);
	mce_decode(r, &b);
	assert_int_equal(a.n_flags, b.n_flags);
	assert_int_equal(a.n_details, b.n_details);
	assert_true(a.n_flags <= MCE_MAX_FLAGS && a.n_details <= MCE_MAX_DETAILS);
	assert_memory_equal(&a, &b, offsetof(struct mce_decoded, flags) + a.n_flags * sizeof(a.flags[0]));
	assert_memory_equal(&a.n_flags, &b.n_flags,
			    offsetof(struct mce_decoded, details) - offsetof(struct mce_decoded, n_flags) +
			    a.n_details * sizeof(a.details[0]));
	assert_memory_equal(&a.n_details, &b.n_details, sizeof(a) - offsetof(struct mce_decoded, n_details));
}

static void test_decode_over_junk(void **state)
{
	static const struct { enum mce_vendor v; uint32_t family, model; } cpus[] = {
		{ MCE_VENDOR_INTEL, 6, 0x8f }, { MCE_VENDOR_INTEL, 6, 0x55 }, { MCE_VENDOR_INTEL, 6, 0x200 },
		{ MCE_VENDOR_AMD, 0x19, 0x11 }, { MCE_VENDOR_AMD, 0x17, 0x31 }, { MCE_VENDOR_AMD, 0x10, 2 },
		{ MCE_VENDOR_UNKNOWN, 0, 0 },
	};
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void) state;
	for (size_t c = 0; c < sizeof(cpus) / sizeof(cpus[0]); c++)
		for (unsigned i = 0; i < 3000; i++) {
			struct mce_record r = {
				.have = MCE_HAVE_STATUS | MCE_HAVE_BANK | MCE_HAVE_MISC | MCE_HAVE_ADDR |
					MCE_HAVE_MCGSTATUS | MCE_HAVE_SYND | MCE_HAVE_IPID,
				.vendor = cpus[c].v, .family = cpus[c].family, .model = cpus[c].model,
			};

			if (cpus[c].v != MCE_VENDOR_UNKNOWN)
				r.have |= MCE_HAVE_VENDOR | MCE_HAVE_CPUID;
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			r.status = x | 1ull << 63;
			r.bank = (unsigned) (x >> 7) % 32;
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			r.misc = x;
			r.mcgstatus = x >> 60;
			r.addr = x >> 12;
			r.ipid = (x & 0xffffffffull) << 32 | (x >> 40);
			r.synd = x >> 3;
			decoded_same_over_junk(&r);
		}
}

/*
 * mce_model_decoder_lookup() remembers its last few answers: asked in any
 * order, over and over, among more CPUs than it remembers, it answers each
 * as it did when asked first with nothing of it remembered.
 */
static void test_lookup_remembered(void **state)
{
	static const struct { enum mce_vendor v; uint32_t family, model; } cpus[] = {
		{ MCE_VENDOR_INTEL, 6, 0x8f }, { MCE_VENDOR_INTEL, 6, 0x55 }, { MCE_VENDOR_INTEL, 6, 0x6a },
		{ MCE_VENDOR_INTEL, 6, 0x200 }, { MCE_VENDOR_INTEL, 0x19, 0x11 }, { MCE_VENDOR_AMD, 0x19, 0x11 },
		{ MCE_VENDOR_AMD, 0x17, 0x31 }, { MCE_VENDOR_AMD, 0x19, 0xa0 }, { MCE_VENDOR_HYGON, 0x18, 0 },
		{ MCE_VENDOR_AMD, 6, 0x8f }, { MCE_VENDOR_UNKNOWN, 6, 0x8f }, { MCE_VENDOR_INTEL, 6, 0x55 + 1 },
	};
	const struct mce_model_decoder *first[sizeof(cpus) / sizeof(cpus[0])];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	unsigned named = 0;

	(void) state;
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		/* CPUs no table has, more than are remembered: nothing of cpus[i] is left */
		for (uint32_t k = 0; k < 8; k++)
			assert_null(mce_model_decoder_lookup(MCE_VENDOR_INTEL, 0x7f, 0x1000 + k));
		first[i] = mce_model_decoder_lookup(cpus[i].v, cpus[i].family, cpus[i].model);
		named += first[i] != NULL;
	}
	assert_true(named >= 4);
	for (unsigned n = 0; n < 20000; n++) {
		size_t i;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		i = (size_t) (x % (sizeof(cpus) / sizeof(cpus[0])));
		assert_ptr_equal(mce_model_decoder_lookup(cpus[i].v, cpus[i].family, cpus[i].model), first[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simple_codes),
		cmocka_unit_test(test_summary_every_size),
		cmocka_unit_test(test_cache_fields),
		cmocka_unit_test(test_memory_fields),
		cmocka_unit_test(test_bus_fields),
		cmocka_unit_test(test_status_flags_intel),
		cmocka_unit_test(test_status_flags_amd),
		cmocka_unit_test(test_mcg_flags),
		cmocka_unit_test(test_count_threshold_misc),
		cmocka_unit_test(test_severity),
		cmocka_unit_test(test_severity_table_shape),
		cmocka_unit_test(test_mcacod_table_not_shadowed),
		cmocka_unit_test(test_enum_strings),
		cmocka_unit_test(test_intel_match_table_sorted),
		cmocka_unit_test(test_intel_bank_tables_sorted),
		cmocka_unit_test(test_intel_memory_codes_have_mnemonics),
		cmocka_unit_test(test_unknown_model_and_bank),
		cmocka_unit_test(test_apei_bank),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_decode_over_junk),
		cmocka_unit_test(test_lookup_remembered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
