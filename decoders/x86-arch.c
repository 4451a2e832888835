/* SPDX-License-Identifier: MIT */
/*
 * The architectural x86 machine-check decode every record gets first:
 * the named STATUS and MCG_STATUS bits, the MCACOD class and its sub-fields,
 * the MISC address mode, the corrected-error count and threshold status, and
 * the severity.  Everything here is data (tables below); the code only walks
 * the tables.
 *
 * Sources: Intel SDM Vol. 3B, chapter 16 "Machine-Check Architecture":
 * 16.3.1 (IA32_MCG_CAP, IA32_MCG_STATUS), 16.3.2.2 (IA32_MCi_STATUS),
 * 16.3.2.3 (IA32_MCi_ADDR), 16.3.2.4 (IA32_MCi_MISC, Table "Address Mode in
 * IA32_MCi_MISC[8:6]"), 16.6 (recovery classes UCNA/SRAO/SRAR), 16.9
 * "Interpreting the MCA Error Codes" (simple and compound codes, Tables
 * "IA32_MCi_Status [15:0] Simple Error Code Encoding" and "Compound Error
 * Codes" with the TT/LL/RRRR/PP/T/II/MMM/CCCC sub-field tables); and for AMD
 * the MCA_STATUS bit list of the AMD Processor Programming Reference
 * (e.g. PPR for Family 19h Model 11h, "MCA_STATUS" register), with the
 * restartable/containable split of the AMD BKDG "Error Scope Hierarchy".
 */
#include <stddef.h>

#include "decode.h"
#include "internal.h"

#define BIT(n) (UINT64_C(1) << (n))

/* IA32_MCi_STATUS (common to all x86 vendors unless noted). */
#define ST_VAL    BIT(63)
#define ST_OVER   BIT(62)
#define ST_UC     BIT(61)
#define ST_EN     BIT(60)
#define ST_MISCV  BIT(59)
#define ST_ADDRV  BIT(58)
#define ST_PCC    BIT(57)
#define ST_S      BIT(56)     /* Intel, valid with MCG_CAP.SER_P */
#define ST_AR     BIT(55)     /* Intel, valid with MCG_CAP.SER_P */
/* AMD MCA_STATUS */
#define ST_AMD_ERRCOREIDVAL BIT(56)
#define ST_AMD_TCC          BIT(55)
#define ST_AMD_SYNDV        BIT(53)
#define ST_AMD_CECC         BIT(46)
#define ST_AMD_UECC         BIT(45)
#define ST_AMD_DEFERRED     BIT(44)
#define ST_AMD_POISON       BIT(43)
#define ST_AMD_SCRUB        BIT(40)

/* IA32_MCG_STATUS */
#define MCG_RIPV   BIT(0)
#define MCG_EIPV   BIT(1)
#define MCG_MCIP   BIT(2)
#define MCG_LMCE_S BIT(3)

/* IA32_MCG_CAP */
#define CAP_CMCI_P BIT(10)
#define CAP_TES_P  BIT(11)
#define CAP_SER_P  BIT(24)

/* The F (corrected-error filtering) bit sits inside compound codes; the
 * compound patterns ignore it. */
#define MCACOD_NO_F 0xefffu

enum vendor_class {  /* the "vc" of struct x86_flag_bit and x86_severity_rule */
	VC_ANY,
	VC_INTEL,   /* Intel and the vendors that follow its layout (Zhaoxin, Centaur, unknown) */
	VC_AMD,     /* AMD and Hygon */
};

static enum vendor_class vendor_class_of(const struct mce_record *rec)
{
	if (!(rec->have & MCE_HAVE_VENDOR))
		return VC_INTEL;
	switch (rec->vendor) {
	case MCE_VENDOR_AMD:
	case MCE_VENDOR_HYGON:
		return VC_AMD;
	default:
		return VC_INTEL;
	}
}

/* ---- named bits ---- */

/*
 * The order here is the order of the "flags" array: most important first, so
 * a truncated display still shows VAL/UC/PCC.  Bits shared between vendors
 * with different meanings (55, 56) have one row per vendor class.
 */
const struct x86_flag_bit x86_status_flags[] = {
	{ .bit = 63, .name = "VAL",   .vc = VC_ANY },
	{ .bit = 62, .name = "OVER",  .vc = VC_ANY },
	{ .bit = 61, .name = "UC",    .vc = VC_ANY },
	{ .bit = 60, .name = "EN",    .vc = VC_ANY },
	{ .bit = 59, .name = "MISCV", .vc = VC_ANY },
	{ .bit = 58, .name = "ADDRV", .vc = VC_ANY },
	{ .bit = 57, .name = "PCC",   .vc = VC_ANY },
	{ .bit = 56, .name = "S",     .vc = VC_INTEL },
	{ .bit = 55, .name = "AR",    .vc = VC_INTEL },
	/* AMD: ErrCoreIdVal, TCC, SyndV and Scrub are Scalable-MCA bits (Family 17h on). */
	{ .bit = 56, .name = "ERRCOREIDVAL", .vc = VC_AMD, .min_family = 0x17 },
	{ .bit = 55, .name = "TCC",      .vc = VC_AMD, .min_family = 0x17 },
	{ .bit = 53, .name = "SYNDV",    .vc = VC_AMD, .min_family = 0x17 },
	/* Family 0Fh (K8) is left out on purpose: its BKDG (publication 26094)
	 * is the document that would say what NB MC4_STATUS bits 46:45 are on
	 * K8, and we could not read it (issue 15).  Linux's old K8 NB status
	 * high defines and old mcelog's K8 output name them CECC/UECC, but
	 * those are not the document. */
	{ .bit = 46, .name = "CECC",     .vc = VC_AMD, .min_family = 0x10,
	  .or_have = MCE_HAVE_AMD_ECC_NAMED },
	{ .bit = 45, .name = "UECC",     .vc = VC_AMD, .min_family = 0x10,
	  .or_have = MCE_HAVE_AMD_ECC_NAMED },
	{ .bit = 44, .name = "DEFERRED", .vc = VC_AMD, .min_family = 0x15 },
	/* Family 15h bank 4 uses bit 43 for McaStatSubCache, not Poison (BKDG 42301/49125). */
	{ .bit = 43, .name = "POISON",   .vc = VC_AMD, .min_family = 0x15,
	  .except_family = 0x15, .except_bank = 4 },
	{ .bit = 40, .name = "SCRUB",    .vc = VC_AMD, .min_family = 0x17 },
	/* MCACOD bit 12, F in the compound codes: corrected-error reporting is
	 * filtered, so later errors of the same kind may have gone unreported
	 * (SDM Vol. 3B, 15.9.2.1).  The simple codes leave the bit 0. */
	{ .bit = 12, .name = "FILTERED", .vc = VC_INTEL },
};
const size_t x86_status_flags_count = sizeof(x86_status_flags) / sizeof(x86_status_flags[0]);

const struct x86_flag_bit x86_mcg_flags[] = {
	{ .bit = 0, .name = "RIPV",   .vc = VC_ANY },
	{ .bit = 1, .name = "EIPV",   .vc = VC_ANY },
	{ .bit = 2, .name = "MCIP",   .vc = VC_ANY },
	{ .bit = 3, .name = "LMCE_S", .vc = VC_INTEL },
};
const size_t x86_mcg_flags_count = sizeof(x86_mcg_flags) / sizeof(x86_mcg_flags[0]);

static bool flag_applies(const struct x86_flag_bit *f, const struct mce_record *rec,
			 enum vendor_class vc)
{
	if (f->vc != VC_ANY && f->vc != (int) vc)
		return false;
	if (f->min_family) {
		/* Without the CPU identity we cannot tell which layout applies,
		 * unless the source named the bit as this layout does. */
		if (!(rec->have & MCE_HAVE_CPUID)) {
			if (!f->or_have || !mce_record_has(rec, f->or_have))
				return false;
		} else if (rec->family < f->min_family)
			return false;
	}
	if (f->except_family && (rec->have & MCE_HAVE_CPUID) && rec->family == f->except_family &&
	    (rec->have & MCE_HAVE_BANK) && rec->bank == f->except_bank)
		return false;
	return true;
}

static void add_flags(const struct x86_flag_bit *table, size_t n, uint64_t reg,
		      const struct mce_record *rec, enum vendor_class vc, struct mce_decoded *d)
{
	for (size_t i = 0; i < n; i++) {
		if (!(reg & BIT(table[i].bit)) || !flag_applies(&table[i], rec, vc))
			continue;
		if (d->n_flags < MCE_MAX_FLAGS)
			d->flags[d->n_flags++] = table[i].name;
	}
}

/* ---- MCACOD classes (SDM 16.9.1 simple codes, 16.9.2 compound codes) ---- */

/*
 * First match wins, so exact simple codes come before the patterns that
 * would also match them (0x0400 before 01xx xxxx xxxx; 0x0E0B, the I/O
 * error, before the bus/interconnect form it is a special case of).
 * test-decode-arch asserts that no row is shadowed by an earlier one.
 */
const struct x86_mcacod_class x86_mcacod_classes[] = {
	{ .mask = 0xffff, .value = 0x0000, .cls = MCE_CLASS_NO_ERROR },
	{ .mask = 0xffff, .value = 0x0001, .cls = MCE_CLASS_UNCLASSIFIED },
	{ .mask = 0xffff, .value = 0x0002, .cls = MCE_CLASS_MICROCODE_ROM_PARITY },
	{ .mask = 0xffff, .value = 0x0003, .cls = MCE_CLASS_EXTERNAL },
	{ .mask = 0xffff, .value = 0x0004, .cls = MCE_CLASS_FRC },
	{ .mask = 0xffff, .value = 0x0005, .cls = MCE_CLASS_INTERNAL_PARITY },
	{ .mask = 0xffff, .value = 0x0006, .cls = MCE_CLASS_SMM_HANDLER_CODE_ACCESS_VIOLATION },
	{ .mask = 0xffff, .value = 0x0400, .cls = MCE_CLASS_INTERNAL_TIMER },
	{ .mask = 0xffff, .value = 0x0e0b, .cls = MCE_CLASS_IO },
	{ .mask = 0xfc00, .value = 0x0400, .cls = MCE_CLASS_INTERNAL_UNCLASSIFIED },
	/* compound: 000F 0000 0000 11LL */
	{ .mask = 0xeffc, .value = 0x000c, .cls = MCE_CLASS_GENERIC_CACHE_HIERARCHY },
	/* 000F 0000 0001 TTLL */
	{ .mask = 0xeff0, .value = 0x0010, .cls = MCE_CLASS_TLB },
	/* 000F 0000 1MMM CCCC */
	{ .mask = 0xef80, .value = 0x0080, .cls = MCE_CLASS_MEMORY_CONTROLLER },
	/* 000F 0001 RRRR TTLL */
	{ .mask = 0xef00, .value = 0x0100, .cls = MCE_CLASS_CACHE },
	/* 000F 1PPT RRRR IILL */
	{ .mask = 0xe800, .value = 0x0800, .cls = MCE_CLASS_BUS_INTERCONNECT },
};
const size_t x86_mcacod_classes_count =
	sizeof(x86_mcacod_classes) / sizeof(x86_mcacod_classes[0]);

enum mce_error_class x86_mcacod_classify(uint16_t mcacod)
{
	for (size_t i = 0; i < x86_mcacod_classes_count; i++)
		if ((mcacod & x86_mcacod_classes[i].mask) == x86_mcacod_classes[i].value)
			return x86_mcacod_classes[i].cls;
	return MCE_CLASS_UNKNOWN;
}

/* Sub-field encodings (SDM 16.9.2, tables for LL, TT, RRRR, PP/T/II, MMM). */
static const enum mce_cache_level ll_levels[4] = {
	MCE_LEVEL_0, MCE_LEVEL_1, MCE_LEVEL_2, MCE_LEVEL_GENERIC,
};
static const enum mce_transaction_type tt_types[4] = {
	MCE_TT_INSTRUCTION, MCE_TT_DATA, MCE_TT_GENERIC, MCE_TT_ABSENT /* reserved */,
};
static const enum mce_request rrrr_requests[16] = {
	[0x0] = MCE_RQ_GENERIC,
	[0x1] = MCE_RQ_READ,
	[0x2] = MCE_RQ_WRITE,
	[0x3] = MCE_RQ_DATA_READ,
	[0x4] = MCE_RQ_DATA_WRITE,
	[0x5] = MCE_RQ_INSTRUCTION_FETCH,
	[0x6] = MCE_RQ_PREFETCH,
	[0x7] = MCE_RQ_EVICTION,
	[0x8] = MCE_RQ_SNOOP,
	/* 0x9..0xf reserved: absent */
};
static const char *const pp_participation[4] = {
	"source",     /* SRC: local processor originated the request */
	"responder",  /* RES: local processor responded to the request */
	"observer",   /* OBS: local processor observed the error as a third party */
	"generic",
};
static const char *const ii_memory_or_io[4] = {
	"memory", "reserved", "io", "other",
};
static const enum mce_memory_transaction mmm_transactions[8] = {
	[0] = MCE_MT_GENERIC,
	[1] = MCE_MT_READ,
	[2] = MCE_MT_WRITE,
	[3] = MCE_MT_ADDRESS_COMMAND,
	[4] = MCE_MT_MEMORY_SCRUBBING,
	/* 5..7 reserved: absent */
};

static void decode_compound(uint16_t c, struct mce_decoded *d)
{
	switch (d->error_class) {
	case MCE_CLASS_GENERIC_CACHE_HIERARCHY:
		d->cache_level = ll_levels[c & 3];
		break;
	case MCE_CLASS_TLB:
		d->cache_level = ll_levels[c & 3];
		d->transaction_type = tt_types[(c >> 2) & 3];
		break;
	case MCE_CLASS_MEMORY_CONTROLLER:
		d->memory_transaction = mmm_transactions[(c >> 4) & 7];
		if ((c & 0xf) != 0xf)   /* 1111: channel not specified */
			d->channel = c & 0xf;
		break;
	case MCE_CLASS_CACHE:
		d->cache_level = ll_levels[c & 3];
		d->transaction_type = tt_types[(c >> 2) & 3];
		d->request = rrrr_requests[(c >> 4) & 0xf];
		break;
	case MCE_CLASS_BUS_INTERCONNECT:
	case MCE_CLASS_IO:      /* 0x0E0B is a bus/interconnect code; keep its fields */
		d->cache_level = ll_levels[c & 3];
		d->memory_or_io = ii_memory_or_io[(c >> 2) & 3];
		d->request = rrrr_requests[(c >> 4) & 0xf];
		d->timeout = (c >> 8) & 1;
		d->participation = pp_participation[(c >> 9) & 3];
		break;
	default:
		break;
	}
}

/* ---- MISC address mode (SDM 16.3.2.4) ---- */

static const char *const misc_address_modes[8] = {
	[0] = "segment_offset",
	[1] = "linear",
	[2] = "physical",
	[3] = "memory",
	[4] = "reserved",
	[5] = "reserved",
	[6] = "reserved",
	[7] = "generic",
};

/* ---- severity: ordered rules, first match wins ---- */

#define SER_ANY 0
#define SER_YES 1
#define SER_NO  2

#define MCACOD_BITS 0xefffu

/*
 * Our own grading, after the ideas of SDM 16.6 (UCR error classification,
 * table "MC Error Classifications") and 16.10 (guidelines for recovery), and
 * for AMD the BKDG/PPR error scope hierarchy.  We grade a logged record, not
 * a live exception, so there is no "in kernel" context here: "fatal" means
 * the record itself says the processor could not continue (PCC, no restart
 * IP during an exception, a required action whose state was overwritten).
 */
const struct x86_severity_rule x86_severity_rules[] = {
	/* --- AMD and Hygon --- */
	{ .why = "AMD: corrected error deferred to software",
	  .vc = VC_AMD, .mask = ST_UC | ST_AMD_DEFERRED, .value = ST_AMD_DEFERRED,
	  .sev = MCE_SEV_DEFERRED },
	{ .why = "AMD: corrected error",
	  .vc = VC_AMD, .mask = ST_UC, .value = 0, .sev = MCE_SEV_CORRECTED },
	{ .why = "AMD: processor context corrupt",
	  .vc = VC_AMD, .mask = ST_PCC, .value = ST_PCC, .sev = MCE_SEV_FATAL },
	/*
	 * PPR MCA_STATUS[TCC] (Scalable MCA, Family 17h on): the hardware context
	 * of the interrupted process may be corrupt, so that process must be
	 * terminated and cannot be restarted even when MCG_STATUS.RIPV says the
	 * IP is valid; PCC=0, so the system itself can go on.  Linux graded it
	 * the same way (TCC in user context: kill the task; in kernel: panic).
	 */
	{ .why = "AMD: task context corrupt: the interrupted process must be terminated",
	  .vc = VC_AMD, .mask = ST_AMD_TCC, .value = ST_AMD_TCC, .min_family = 0x17,
	  .sev = MCE_SEV_UNCORRECTED, .recovery = MCE_RECOVERY_CONTAINABLE },
	{ .why = "AMD: uncorrected, restart IP valid: software restartable",
	  .vc = VC_AMD, .need_mcg = true, .mcg_mask = MCG_RIPV, .mcg_value = MCG_RIPV,
	  .sev = MCE_SEV_UNCORRECTED, .recovery = MCE_RECOVERY_RESTARTABLE },
	{ .why = "AMD: uncorrected, no restart IP: contained to the interrupted context",
	  .vc = VC_AMD, .need_mcg = true, .mcg_mask = MCG_RIPV, .mcg_value = 0,
	  .sev = MCE_SEV_UNCORRECTED, .recovery = MCE_RECOVERY_CONTAINABLE },
	{ .why = "AMD: uncorrected, MCG_STATUS unknown",
	  .vc = VC_AMD, .sev = MCE_SEV_UNCORRECTED },

	/* --- Intel and the vendors sharing its layout --- */
	{ .why = "corrected error",
	  .vc = VC_INTEL, .mask = ST_UC, .value = 0, .sev = MCE_SEV_CORRECTED },
	{ .why = "processor context corrupt",
	  .vc = VC_INTEL, .mask = ST_PCC, .value = ST_PCC, .sev = MCE_SEV_FATAL },
	{ .why = "machine check in progress with neither restart nor error IP",
	  .vc = VC_INTEL, .need_mcg = true, .mcg_mask = MCG_MCIP | MCG_RIPV | MCG_EIPV,
	  .mcg_value = MCG_MCIP, .sev = MCE_SEV_FATAL },
	{ .why = "SRAR with an overflow: the state needed for recovery was lost",
	  .vc = VC_INTEL, .ser = SER_YES, .mask = ST_OVER | ST_S | ST_AR, .value = ST_OVER | ST_S | ST_AR,
	  .sev = MCE_SEV_FATAL, .recovery = MCE_RECOVERY_SRAR },
	{ .why = "AR without S is not a valid UCR combination",
	  .vc = VC_INTEL, .ser = SER_YES, .mask = ST_S | ST_AR, .value = ST_AR,
	  .sev = MCE_SEV_FATAL },
	{ .why = "SRAR: software recoverable, action required",
	  .vc = VC_INTEL, .ser = SER_YES, .mask = ST_S | ST_AR, .value = ST_S | ST_AR,
	  .sev = MCE_SEV_UNCORRECTED, .recovery = MCE_RECOVERY_SRAR },
	{ .why = "SRAO: software recoverable, action optional",
	  .vc = VC_INTEL, .ser = SER_YES, .mask = ST_S | ST_AR, .value = ST_S,
	  .sev = MCE_SEV_UNCORRECTED, .recovery = MCE_RECOVERY_SRAO },
	/* Patrol scrub and L3 write-back errors are SRAO even when signalled by CMCI (S=0). */
	{ .why = "SRAO by code: memory patrol scrub error",
	  .vc = VC_INTEL, .ser = SER_YES, .mask = ST_AR | 0xeff0, .value = 0x00c0,
	  .sev = MCE_SEV_UNCORRECTED, .recovery = MCE_RECOVERY_SRAO },
	{ .why = "SRAO by code: last-level cache write-back error",
	  .vc = VC_INTEL, .ser = SER_YES, .mask = ST_AR | MCACOD_BITS, .value = 0x017a,
	  .sev = MCE_SEV_UNCORRECTED, .recovery = MCE_RECOVERY_SRAO },
	{ .why = "UCNA: uncorrected, no action required",
	  .vc = VC_INTEL, .ser = SER_YES, .mask = ST_S | ST_AR, .value = 0,
	  .sev = MCE_SEV_UNCORRECTED, .recovery = MCE_RECOVERY_UCNA },
	{ .why = "uncorrected with an overflow and no recovery support",
	  .vc = VC_INTEL, .ser = SER_NO, .mask = ST_OVER, .value = ST_OVER, .sev = MCE_SEV_FATAL },

	/* catch-all; keep last */
	{ .why = "uncorrected", .vc = VC_ANY, .sev = MCE_SEV_UNCORRECTED },
};
const size_t x86_severity_rules_count =
	sizeof(x86_severity_rules) / sizeof(x86_severity_rules[0]);

/*
 * Does the record support software error recovery (MCG_CAP.SER_P)?  When
 * MCG_CAP was not captured (common in console logs), the S or AR bit being
 * set is itself evidence; with both clear we cannot tell UCNA from a
 * pre-SER uncorrected error, and say SER_NO so "recovery" stays absent.
 */
static bool record_has_ser(const struct mce_record *rec)
{
	if (rec->have & MCE_HAVE_MCGCAP)
		return rec->mcgcap & CAP_SER_P;
	return rec->status & (ST_S | ST_AR);
}

size_t x86_severity_rule_index(const struct mce_record *rec)
{
	enum vendor_class vc = vendor_class_of(rec);
	bool ser = vc == VC_INTEL && record_has_ser(rec);
	bool have_mcg = rec->have & MCE_HAVE_MCGSTATUS;
	size_t i;

	for (i = 0; i < x86_severity_rules_count - 1; i++) {
		const struct x86_severity_rule *r = &x86_severity_rules[i];

		if (r->vc != VC_ANY && r->vc != (int) vc)
			continue;
		if ((rec->status & r->mask) != r->value)
			continue;
		if (r->need_mcg && (!have_mcg || (rec->mcgstatus & r->mcg_mask) != r->mcg_value))
			continue;
		if ((r->ser == SER_YES && !ser) || (r->ser == SER_NO && ser))
			continue;
		if (r->min_family &&
		    (!(rec->have & MCE_HAVE_CPUID) || rec->family < r->min_family))
			continue;
		/* Every rule but the catch-all grades uncorrected records or says UC=0 itself. */
		if (!(r->mask & ST_UC) && !(rec->status & ST_UC))
			continue;
		break;
	}
	return i;
}

/* ---- the decode ---- */

/*
 * Without MCG_CAP, whether STATUS[54:38] holds CMCI's corrected-error count
 * and threshold state: only on CPUs known to have CMCI, Intel family 6 from
 * Nehalem (06_1AH) on and the families after 0FH (SDM Vol. 3B, 15.5).  On
 * older CPUs (P6, Pentium 4, Core 2) those bits are model-specific: an
 * Athlon's or a Pentium III's would read as a count in the thousands.  A
 * record naming neither CPU nor vendor comes from such an old kernel or
 * hand copy (the kernel's report has named both for many years); one naming
 * Intel alone is taken as modern.
 */
static inline __attribute__((always_inline)) bool cmci_fields_known(const struct mce_record *rec)
{
	if (rec->have & MCE_HAVE_MCGCAP)
		return rec->mcgcap & CAP_CMCI_P;
	if (!(rec->have & MCE_HAVE_CPUID))
		return (rec->have & MCE_HAVE_VENDOR) && rec->vendor == MCE_VENDOR_INTEL;
	return (rec->family == 6 && rec->model >= 0x1a) || rec->family > 0xf;
}

static void decode_intel_fields(const struct mce_record *rec, struct mce_decoded *d)
{
	uint64_t st = rec->status;
	bool uc = st & ST_UC;
	bool have_cap = rec->have & MCE_HAVE_MCGCAP;

	/* MSCOD is architecturally "model specific"; the model decoder names it. */
	d->has_model_specific_code = true;
	d->model_specific_code = d->mscod;

	/* 52:38 corrected error count, with CMCI (MCG_CAP[10]). */
	if (cmci_fields_known(rec)) {
		uint32_t cnt = (uint32_t) ((st >> 38) & 0x7fff);

		if (!uc || cnt) {
			d->has_corrected_count = true;
			d->corrected_count = cnt;
		}
	}
	/* 54:53 threshold-based status, only for corrected errors and with MCG_TES_P. */
	if (!uc && (have_cap ? (rec->mcgcap & CAP_TES_P) : cmci_fields_known(rec))) {
		switch ((st >> 53) & 3) {
		case 1: d->threshold_status = "green"; break;
		case 2: d->threshold_status = "yellow"; break;
		default: break;
		}
	}
	/* MISC[8:0] are architectural when MISCV (with ADDRV giving them a use) and SER_P. */
	if ((st & ST_MISCV) && (st & ST_ADDRV) && (rec->have & MCE_HAVE_MISC) &&
	    (!have_cap || (rec->mcgcap & CAP_SER_P))) {
		d->has_address_lsb = true;
		d->address_lsb = (uint32_t) (rec->misc & 0x3f);
		d->address_mode = misc_address_modes[(rec->misc >> 6) & 7];
	}
}

static void decode_amd_fields(const struct mce_record *rec, struct mce_decoded *d)
{
	if ((rec->status & ST_AMD_SYNDV) && (rec->have & MCE_HAVE_SYND) &&
	    (rec->have & MCE_HAVE_CPUID) && rec->family >= 0x17) {
		d->has_syndrome = true;
		d->syndrome = rec->synd;
	}
}

/*
 * A memory error that firmware reported (APEI/GHES, "firmware first") names
 * no MCA bank; Linux still makes a machine-check record of it, with bank -1,
 * 255 in the record's byte, and a STATUS of its own making: VAL, EN, ADDRV,
 * MISCV and MCACOD 9FH, UC from "recoverable" up, PCC at "panic" (Linux
 * arch/x86/kernel/cpu/mce/apei.c, apei_mce_report_mem_error(), used as a
 * fact source).  No bank of Linux's can have that number: it keeps at most
 * 64 (MAX_NR_BANKS).
 */
#define LINUX_APEI_BANK 255u

void x86_arch_decode(const struct mce_record *rec, struct mce_decoded *d)
{
	enum vendor_class vc = vendor_class_of(rec);
	const struct x86_severity_rule *rule;

	d->mcacod = (uint16_t) (rec->status & 0xffff);
	d->mscod = (uint16_t) ((rec->status >> 16) & 0xffff);

	add_flags(x86_status_flags, x86_status_flags_count, rec->status, rec, vc, d);
	if (rec->have & MCE_HAVE_MCGSTATUS)
		add_flags(x86_mcg_flags, x86_mcg_flags_count, rec->mcgstatus, rec, vc, d);

	d->error_class = x86_mcacod_classify(d->mcacod);
	decode_compound(d->mcacod, d);

	if (vc == VC_AMD)
		decode_amd_fields(rec, d);
	else
		decode_intel_fields(rec, d);

	rule = &x86_severity_rules[x86_severity_rule_index(rec)];
	d->severity = rule->sev;
	d->recovery = rule->recovery;

	if (rec->bank == LINUX_APEI_BANK && (rec->have & MCE_HAVE_BANK)) {
		d->bank_name = "Firmware (APEI) report, no MCA bank";
		d->bank_type = "APEI";
	}
}

/*
 * Linux logged the CPU's thermal interrupts as machine-check records of a
 * bank of its own making, MCE_THERMAL_BANK = 128 (its MCE_EXTENDED_BANK).
 * STATUS is no MCA status: its low half is the thermal status MSR read,
 * IA32_THERM_STATUS (19CH) for the core or IA32_PACKAGE_THERM_STATUS (1B1H)
 * for the package, and bits 63:62 say which event was logged: core
 * throttling, core power limit, package throttling, package power limit
 * (Linux arch/x86/include/asm/mce.h and therm_throt.c, CORE_THROTTLED ..
 * PACKAGE_POWER_LIMIT, used as fact sources).  So bit 63 is no VAL here.
 * No real bank has that number: Linux keeps at most 64 (MAX_NR_BANKS).
 * mcelog prints such a record as "CPU n THERMAL EVENT".
 */
#define LINUX_THERMAL_BANK 128u

struct thermal_event {
	uint64_t status_bit;    /* the MSR's bit that is set while the condition lasts */
	const char *on, *off;
};

/*
 * By STATUS[63:62].  Bit 0 is Thermal Status (PROCHOT, throttling), bit 10
 * Power Limitation Status, in both MSRs (SDM Vol. 3B, 15.8.5.2 and 15.8.6).
 */
static const struct thermal_event thermal_events[4] = {
	[0] = { .status_bit = BIT(0),
		.on = "Core temperature above the throttling threshold, clock throttled",
		.off = "Core temperature back below the throttling threshold, throttling ended" },
	[1] = { .status_bit = BIT(10),
		.on = "Core power limit reached, clock limited",
		.off = "Core power back under its limit" },
	[2] = { .status_bit = BIT(0),
		.on = "Package temperature above the throttling threshold, clock throttled",
		.off = "Package temperature back below the throttling threshold, throttling ended" },
	[3] = { .status_bit = BIT(10),
		.on = "Package power limit reached, clock limited",
		.off = "Package power back under its limit" },
};

bool x86_thermal_record(const struct mce_record *rec)
{
	return (rec->have & MCE_HAVE_BANK) && rec->bank == LINUX_THERMAL_BANK;
}

void x86_thermal_decode(const struct mce_record *rec, struct mce_decoded *d)
{
	const struct thermal_event *e = &thermal_events[rec->status >> 62];

	d->mcacod = (uint16_t) (rec->status & 0xffff);
	d->error_class = MCE_CLASS_THERMAL;
	/* an event, not an error: the mildest grade there is */
	d->severity = MCE_SEV_CORRECTED;
	d->bank_name = "Thermal event (Linux's thermal record, not an MCA bank)";
	d->bank_type = "THERMAL";
	d->description = (rec->status & e->status_bit) ? e->on : e->off;
}
