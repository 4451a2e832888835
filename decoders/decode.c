/* SPDX-License-Identifier: MIT */
/*
 * mce_decode(): the architectural decode, then the one model decoder the
 * CPU identity selects; plus the enum string tables and the one-line summary
 * used as the journald MESSAGE.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "decode.h"
#include "internal.h"
#include "page-address.h"

const char *const mce_severity_names[_MCE_SEV_MAX] = {
	[MCE_SEV_CORRECTED]   = "corrected",
	[MCE_SEV_DEFERRED]    = "deferred",
	[MCE_SEV_UNCORRECTED] = "uncorrected",
	[MCE_SEV_FATAL]       = "fatal",
};

const char *const mce_recovery_names[_MCE_RECOVERY_MAX] = {
	[MCE_RECOVERY_NONE]        = NULL,
	[MCE_RECOVERY_UCNA]        = "ucna",
	[MCE_RECOVERY_SRAO]        = "srao",
	[MCE_RECOVERY_SRAR]        = "srar",
	[MCE_RECOVERY_RESTARTABLE] = "restartable",
	[MCE_RECOVERY_CONTAINABLE] = "containable",
};

/* The "error_class" values of the record contract (issue 3), one per class. */
const char *const mce_error_class_names[_MCE_CLASS_MAX] = {
	[MCE_CLASS_NO_ERROR]                          = "no_error",
	[MCE_CLASS_UNCLASSIFIED]                      = "unclassified",
	[MCE_CLASS_MICROCODE_ROM_PARITY]              = "microcode_rom_parity",
	[MCE_CLASS_EXTERNAL]                          = "external",
	[MCE_CLASS_FRC]                               = "frc",
	[MCE_CLASS_INTERNAL_PARITY]                   = "internal_parity",
	[MCE_CLASS_SMM_HANDLER_CODE_ACCESS_VIOLATION] = "smm_handler_code_access_violation",
	[MCE_CLASS_INTERNAL_TIMER]                    = "internal_timer",
	[MCE_CLASS_IO]                                = "io",
	[MCE_CLASS_INTERNAL_UNCLASSIFIED]             = "internal_unclassified",
	[MCE_CLASS_GENERIC_CACHE_HIERARCHY]           = "generic_cache_hierarchy",
	[MCE_CLASS_TLB]                               = "tlb",
	[MCE_CLASS_MEMORY_CONTROLLER]                 = "memory_controller",
	[MCE_CLASS_CACHE]                             = "cache",
	[MCE_CLASS_BUS_INTERCONNECT]                  = "bus_interconnect",
	[MCE_CLASS_UNKNOWN]                           = "unknown",
	[MCE_CLASS_THERMAL]                           = "thermal",
};

enum mce_severity mce_severity_from_string(const char *s)
{
	if (!s)
		return _MCE_SEV_INVALID;
	for (int i = 0; i < _MCE_SEV_MAX; i++)
		if (strcmp(s, mce_severity_names[i]) == 0)
			return (enum mce_severity) i;
	return _MCE_SEV_INVALID;
}

/* ---- dispatch ---- */

static const struct mce_model_match *const vendor_match_tables[] = {
	intel_model_matches,
	amd_model_matches,
	zhaoxin_model_matches,
};

static const struct mce_model_decoder *lookup_uncached(enum mce_vendor vendor, uint32_t family,
						       uint32_t model)
{
	for (size_t t = 0; t < sizeof(vendor_match_tables) / sizeof(vendor_match_tables[0]); t++)
		for (const struct mce_model_match *m = vendor_match_tables[t]; m->decoder; m++)
			if (m->vendor == vendor && m->family == family &&
			    model >= m->model_first && model <= m->model_last)
				return m->decoder;
	return NULL;
}

/*
 * A machine's records all carry the same CPU identity, and a log gathered
 * from several machines a few: remember the last few answers, the oldest
 * replaced first.  Thread-local, so concurrent decoders never share them;
 * a remembered value is a pointer into static const data, so it can never
 * go stale.
 */
#define LOOKUP_REMEMBERED 4

const struct mce_model_decoder *mce_model_decoder_lookup(enum mce_vendor vendor, uint32_t family,
							 uint32_t model)
{
	static _Thread_local struct {
		bool valid;
		enum mce_vendor vendor;
		uint32_t family, model;
		const struct mce_model_decoder *decoder;
	} seen[LOOKUP_REMEMBERED];
	static _Thread_local unsigned oldest;
	unsigned i;

	for (i = 0; i < LOOKUP_REMEMBERED; i++)
		if (seen[i].valid && seen[i].vendor == vendor && seen[i].family == family &&
		    seen[i].model == model)
			return seen[i].decoder;
	i = oldest;
	oldest = (oldest + 1) % LOOKUP_REMEMBERED;
	seen[i].decoder = lookup_uncached(vendor, family, model);
	seen[i].vendor = vendor;
	seen[i].family = family;
	seen[i].model = model;
	seen[i].valid = true;
	return seen[i].decoder;
}

void mce_decode(const struct mce_record *rec, struct mce_decoded *d)
{
	const struct mce_model_decoder *md = NULL;
	bool thermal;

	/*
	 * Everything but the two arrays cleared: only their first n_flags
	 * and n_details entries are ever written or read, and clearing the
	 * 400 bytes they hold was most of the cost of starting a record.
	 */
	memset(d, 0, offsetof(struct mce_decoded, flags));
	memset(&d->n_flags, 0, offsetof(struct mce_decoded, details) - offsetof(struct mce_decoded, n_flags));
	memset(&d->n_details, 0, sizeof(*d) - offsetof(struct mce_decoded, n_details));
	d->channel = -1;
	d->timeout = -1;
	d->dimm = -1;
	d->rank = -1;
	d->chip_select = -1;
	d->bank_group = -1;
	d->dram_bank = -1;
	d->row = -1;
	d->column = -1;

	d->has_bank = rec->have & MCE_HAVE_BANK;
	thermal = x86_thermal_record(rec);
	if (thermal)
		x86_thermal_decode(rec, d);
	else
		x86_arch_decode(rec, d);

	if (mce_record_has(rec, MCE_HAVE_VENDOR | MCE_HAVE_CPUID))
		md = mce_model_decoder_lookup(rec->vendor, rec->family, rec->model);
	else
		md = amd_model_without_cpuid(rec);
	if (!md)
		d->unknown_model = true;
	else {
		d->cpu_model = md->name;
		/* a thermal record is no MCA bank's: no model decoder has a table for it */
		if (md->decode && !thermal)
			md->decode(md, rec, d);
	}
	/* Last: whether an AMD address is a page depends on the bank type the model decoder found. */
	if (!thermal)
		mce_page_decode(rec, d);
}

/* ---- summary ---- */

static const char *const level_words[] = {
	[MCE_LEVEL_0] = "Level-0", [MCE_LEVEL_1] = "Level-1", [MCE_LEVEL_2] = "Level-2",
	[MCE_LEVEL_GENERIC] = "Generic-level",
};
static const char *const tt_words[] = {
	[MCE_TT_INSTRUCTION] = "instruction ", [MCE_TT_DATA] = "data ", [MCE_TT_GENERIC] = "",
};
static const char *const request_words[] = {
	[MCE_RQ_GENERIC] = "", [MCE_RQ_READ] = "read ", [MCE_RQ_WRITE] = "write ",
	[MCE_RQ_DATA_READ] = "data-read ", [MCE_RQ_DATA_WRITE] = "data-write ",
	[MCE_RQ_INSTRUCTION_FETCH] = "instruction-fetch ", [MCE_RQ_PREFETCH] = "prefetch ",
	[MCE_RQ_EVICTION] = "eviction ", [MCE_RQ_SNOOP] = "snoop ",
};
static const char *const mt_words[] = {
	[MCE_MT_GENERIC] = "", [MCE_MT_READ] = "read ", [MCE_MT_WRITE] = "write ",
	[MCE_MT_ADDRESS_COMMAND] = "address/command ", [MCE_MT_MEMORY_SCRUBBING] = "patrol scrub ",
};
static const char *const simple_phrases[_MCE_CLASS_MAX] = {
	[MCE_CLASS_NO_ERROR]                          = "No error",
	[MCE_CLASS_UNCLASSIFIED]                      = "Unclassified error",
	[MCE_CLASS_MICROCODE_ROM_PARITY]              = "Microcode ROM parity error",
	[MCE_CLASS_EXTERNAL]                          = "External error (BINIT# from another processor)",
	[MCE_CLASS_FRC]                               = "Functional redundancy check error",
	[MCE_CLASS_INTERNAL_PARITY]                   = "Internal parity error",
	[MCE_CLASS_SMM_HANDLER_CODE_ACCESS_VIOLATION] = "SMM handler code access violation",
	[MCE_CLASS_INTERNAL_TIMER]                    = "Internal timer error",
	[MCE_CLASS_IO]                                = "I/O error",
	[MCE_CLASS_INTERNAL_UNCLASSIFIED]             = "Internal unclassified error",
	[MCE_CLASS_THERMAL]                           = "Thermal event",
};

#define PICK(table, i) ((unsigned) (i) < sizeof(table) / sizeof(table[0]) && table[i] ? table[i] : "")

/*
 * The summary as snprintf() would print it into buf: the text cut to
 * size - 1 bytes and terminated, n its full length.  By hand, because
 * mcectl decode prints a summary per record and snprintf() was a good part
 * of that.
 */
struct summary {
	char *buf;
	size_t size;
	size_t n;
};

/* Inline, so that a literal's length is a constant and its copy a few moves. */
static inline void put_n(struct summary *s, const char *text, size_t len)
{
	if (s->n + len < s->size)
		memcpy(s->buf + s->n, text, len);
	else if (s->n + 1 < s->size)
		memcpy(s->buf + s->n, text, s->size - 1 - s->n);
	s->n += len;
}

static void put(struct summary *s, const char *text)
{
	put_n(s, text, strlen(text));
}

/* lit: a string literal ("" lit makes anything else an error) */
#define put_lit(s, lit) put_n((s), "" lit, sizeof(lit) - 1)

/* "%d" */
static void put_int(struct summary *s, int v)
{
	char tmp[16];
	size_t i = sizeof(tmp);
	unsigned u = v < 0 ? 0u - (unsigned) v : (unsigned) v;

	tmp[--i] = '\0';
	do {
		tmp[--i] = (char) ('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[--i] = '-';
	put(s, tmp + i);
}

/* "%04x" */
static void put_hex4(struct summary *s, unsigned v)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[16];
	size_t i = sizeof(tmp);

	tmp[--i] = '\0';
	do {
		tmp[--i] = hex[v & 0xf];
		v >>= 4;
	} while (v);
	while (sizeof(tmp) - 1 - i < 4)
		tmp[--i] = '0';
	put(s, tmp + i);
}

int mce_decoded_summary(const struct mce_decoded *d, char *buf, size_t size)
{
	struct summary s = { .buf = buf, .size = size };

	if (!d || (!buf && size))
		return -EINVAL;

	switch (d->error_class) {
	case MCE_CLASS_GENERIC_CACHE_HIERARCHY:
		put(&s, PICK(level_words, d->cache_level));
		put_lit(&s, " cache hierarchy error");
		break;
	case MCE_CLASS_TLB:
		put(&s, PICK(level_words, d->cache_level));
		put_lit(&s, " ");
		put(&s, PICK(tt_words, d->transaction_type));
		put_lit(&s, "TLB error");
		break;
	case MCE_CLASS_CACHE:
		put(&s, PICK(level_words, d->cache_level));
		put_lit(&s, " ");
		put(&s, PICK(tt_words, d->transaction_type));
		put_lit(&s, "cache ");
		put(&s, PICK(request_words, d->request));
		put_lit(&s, "error");
		break;
	case MCE_CLASS_MEMORY_CONTROLLER:
		put_lit(&s, "Memory controller ");
		put(&s, PICK(mt_words, d->memory_transaction));
		put_lit(&s, "error");
		break;
	case MCE_CLASS_BUS_INTERCONNECT:
		put_lit(&s, "Bus/interconnect ");
		put(&s, PICK(request_words, d->request));
		put(&s, d->memory_or_io && strcmp(d->memory_or_io, "io") == 0 ? "I/O " : "");
		put_lit(&s, "error");
		put(&s, d->timeout == 1 ? " (timed out)" : "");
		break;
	case MCE_CLASS_UNKNOWN:
		put_lit(&s, "Unknown error code 0x");
		put_hex4(&s, d->mcacod);
		break;
	default:
		put(&s, PICK(simple_phrases, d->error_class));
		break;
	}

	if (d->channel >= 0) {
		put_lit(&s, ", channel ");
		put_int(&s, d->channel);
	}
	/* The part to replace, as the CPU names it: what the operator acts on. */
	if (d->fru_text[0]) {
		put_lit(&s, ", FRU ");
		put(&s, d->fru_text);
	}
	if (d->description) {
		put_lit(&s, ": ");
		put(&s, d->description);
	} else if (d->bank_name) {
		put_lit(&s, " (");
		put(&s, d->bank_name);
		put_lit(&s, ")");
	}
	if (size)
		buf[s.n < size ? s.n : size - 1] = '\0';
	return (int) s.n;
}
