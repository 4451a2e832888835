/* SPDX-License-Identifier: MIT */
/*
 * AMD Scalable MCA model decoder (families 17h, 19h, 1Ah; Hygon 18h).
 *
 * Runs after the architectural decode and adds what only SMCA defines: the
 * bank's identity from MCA_IPID, the extended error code and its meaning, the
 * memory channel and chip select of UMC errors, MCA_SYND, and the address
 * granularity, and the FRU text of MCA_SYND1/2.  Register layouts: AMD PPR
 * for Family 19h Model 11h (pub. 55901), sections "MCA_STATUS", "MCA_ADDR",
 * "MCA_IPID", "MCA_SYND"; the FRU text as cited at smca_fru_text().
 */
#include <string.h>

#include "amd.h"
#include "macro.h"

#define STATUS_ADDRV          (1ull << 58)
#define STATUS_ERRCOREIDVAL   (1ull << 56)
#define STATUS_SYNDV          (1ull << 53)
#define STATUS_ECC_SHIFT      45            /* [46:45] = CECC:UECC */
#define STATUS_ECC_CORRECTED  0x2           /* CECC alone: a corrected ECC error */

static inline unsigned bits(uint64_t v, unsigned hi, unsigned lo)
{
	return (unsigned) ((v >> lo) & ((1ull << (hi - lo + 1)) - 1));
}

void amd_add_detail(struct mce_decoded *d, const char *name, uint64_t value, const char *text)
{
	if (d->n_details >= MCE_MAX_DETAILS)
		return;
	d->details[d->n_details++] = (struct mce_detail) { .name = name, .value = value, .text = text };
}

static int cmp_key(uint32_t key, const struct smca_bank_type *t)
{
	uint32_t k = SMCA_KEY(t->hwid, t->mcatype);

	return key < k ? -1 : key > k ? 1 : 0;
}

const struct smca_bank_type *smca_bank_type_lookup(const struct smca_profile *p, uint64_t ipid)
{
	uint32_t key = SMCA_KEY(bits(ipid, 43, 32), bits(ipid, 63, 48));
	size_t lo = 0, hi = smca_n_bank_types;

	if (p)
		for (const struct smca_bank_type *const *o = p->overrides; *o; o++)
			if (cmp_key(key, *o) == 0)
				return *o;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_key(key, &smca_bank_types[mid]);

		if (c == 0)
			return &smca_bank_types[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static const struct smca_bank_type *with_override(const struct smca_profile *p,
						 const struct smca_bank_type *t)
{
	if (p)
		for (const struct smca_bank_type *const *o = p->overrides; *o; o++)
			if ((*o)->hwid == t->hwid && (*o)->mcatype == t->mcatype)
				return *o;
	return t;
}

size_t smca_bank_types_by_name(const struct smca_profile *p, const char *name,
			       const struct smca_bank_type **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < smca_n_bank_types; i++) {
		if (strcmp(smca_bank_types[i].name, name) != 0)
			continue;
		if (n < max)
			out[n] = with_override(p, &smca_bank_types[i]);
		n++;
	}
	return n;
}

const char *smca_xec_text(const struct smca_bank_type *t, unsigned xec)
{
	if (!t || !t->xec || xec >= t->xec->n)
		return NULL;
	return t->xec->text[xec];
}

const char *smca_xec_mnemonic(const struct smca_bank_type *t, unsigned xec)
{
	if (!t || !t->xec || !t->xec->mnemonic || xec >= t->xec->n_mnemonic)
		return NULL;
	return t->xec->mnemonic[xec];
}

/*
 * The error address granularity.  Parts with MCA_CONFIG[McaLsbInStatusSupported]
 * (Family 19h and later) keep it in MCA_STATUS[29:24], where older parts have
 * reserved zeroes; the others keep it in MCA_ADDR[61:56].  Linux strips both
 * from the address it logs but leaves STATUS alone, so a kernel record may
 * still carry it in STATUS, while a raw register read carries it in either.
 * A zero is indistinguishable from "stripped", so it counts as absent.
 */
static bool smca_address_lsb(const struct mce_record *rec, uint32_t *lsb)
{
	unsigned v;

	if (!(rec->status & STATUS_ADDRV))
		return false;
	if (rec->family >= 0x19 && (v = bits(rec->status, 29, 24)) != 0) {
		*lsb = v;
		return true;
	}
	if (mce_record_has(rec, MCE_HAVE_ADDR) && (v = bits(rec->addr, 61, 56)) != 0) {
		*lsb = v;
		return true;
	}
	return false;
}

/*
 * Where a UMC error is, the way Linux's amd64_edac finds it: a CPU UMC drives
 * one channel, numbered by MCA_IPID[31:20] (the instance id's top bits); for a
 * DRAM ECC error MCA_SYND[2:0] (ErrorInformation) holds the chip select.  An
 * HBM UMC pair drives eight channels: MCA_IPID[15:12] is the PHY/channel within
 * the UMC and odd UMC numbers hold channels 4-7.
 */
static void smca_locate(const struct smca_bank_type *t, const struct mce_record *rec,
			unsigned xec, struct mce_decoded *d)
{
	unsigned umc = bits(rec->ipid, 31, 20);
	unsigned phy = bits(rec->ipid, 15, 12);
	bool syndv = (rec->status & STATUS_SYNDV) && mce_record_has(rec, MCE_HAVE_SYND);

	/* Only a DRAM ECC error names a location; other UMC codes are about the controller. */
	if (xec != 0)
		return;

	switch (t->locator) {
	case SMCA_LOC_UMC:
		d->channel = (int) umc;
		if (syndv)
			d->chip_select = (int) (rec->synd & 0x7);
		break;
	case SMCA_LOC_UMC_HBM:
		d->channel = (int) ((umc & 1) ? phy + 4 : phy);
		d->chip_select = (int) phy;
		break;
	case SMCA_LOC_NONE:
		break;
	}

	/* The ECC syndrome of a corrected error: MCA_SYND[63:32], Length bits given in [23:18]. */
	if (t->locator != SMCA_LOC_NONE && syndv &&
	    bits(rec->status, 46, STATUS_ECC_SHIFT) == STATUS_ECC_CORRECTED) {
		unsigned len = bits(rec->synd, 23, 18);

		if (len > 0 && len <= 32)
			amd_add_detail(d, "ecc_syndrome", bits(rec->synd, 32 + len - 1, 32), NULL);
	}
}

/* The text all of N strings agree on; NULL when any differs or is missing. */
static const char *agreed(const char *const *texts, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (!texts[0] || !texts[i] || strcmp(texts[0], texts[i]) != 0)
			return NULL;
	return n ? texts[0] : NULL;
}

/*
 * A record without MCA_IPID whose text named the bank (rasdaemon's rows):
 * the bank type whose documented long name it is.  Where revisions of a
 * block share the name (LS and LS v2, CS and CS v2, ...) nothing tells
 * which revision the bank is, so a code gets a meaning only when every
 * revision's table gives it the same one.  No channel or chip select: the
 * UMC's channel is in MCA_IPID.
 */
static void smca_decode_by_name(const struct smca_profile *p, const struct mce_record *rec,
				unsigned xec, struct mce_decoded *d)
{
	const struct smca_bank_type *t[4];
	const char *text[ELEMENTSOF(t)], *mnemonic[ELEMENTSOF(t)];
	size_t n = smca_bank_types_by_name(p, rec->bank_name, t, ELEMENTSOF(t));

	if (n == 0 || n > ELEMENTSOF(t))
		return;
	for (size_t i = 0; i < n; i++) {
		text[i] = smca_xec_text(t[i], xec);
		mnemonic[i] = smca_xec_mnemonic(t[i], xec);
	}
	d->bank_type = t[0]->type;
	d->bank_name = t[0]->name;
	d->description = agreed(text, n);
	amd_add_detail(d, "bank_type_from", 0, "text_bank_name");
	if (agreed(mnemonic, n))
		amd_add_detail(d, "mnemonic", xec, agreed(mnemonic, n));
}

/*
 * FRU text: on banks with MCA_CONFIG[9] McaFruTextInMca, MCA_SYND1 and
 * MCA_SYND2 hold the name of the field-replaceable unit the error is in, 16
 * ASCII bytes in register (little-endian) order, SYND1 first, NUL-padded
 * (Linux drivers/edac/mce_amd.c, "EDAC/mce_amd: Add support for FRU text in
 * MCA", Y. Ghannam, 2024: "If SYND1 and SYND2 are !NULL, then userspace can
 * assume that they contain FRU text information").  The kernel does not
 * export MCA_CONFIG, so that is the rule: registers that are not all
 * printable text up to their first NUL are some other information, kept as
 * the registers only.
 */
static void smca_fru_text(const struct mce_record *rec, struct mce_decoded *d)
{
	unsigned char bytes[16];
	size_t n;

	if (!mce_record_has(rec, MCE_HAVE_SYND1 | MCE_HAVE_SYND2))
		return;
	for (unsigned i = 0; i < 8; i++) {
		bytes[i] = (unsigned char) (rec->synd1 >> (8 * i));
		bytes[8 + i] = (unsigned char) (rec->synd2 >> (8 * i));
	}
	for (n = 0; n < sizeof(bytes) && bytes[n]; n++)
		if (bytes[n] < 0x20 || bytes[n] > 0x7e)
			return;
	for (size_t i = n; i < sizeof(bytes); i++)
		if (bytes[i])
			return;     /* text, a NUL, then more: not the NUL-padded name */
	memcpy(d->fru_text, bytes, n);
	d->fru_text[n] = '\0';
}

void amd_smca_decode(const struct mce_model_decoder *self, const struct mce_record *rec,
		     struct mce_decoded *d)
{
	const struct smca_profile *p = self->tables;
	const struct smca_bank_type *t;
	const char *mnemonic;
	unsigned xec = bits(rec->status, 21, 16);
	uint32_t lsb;

	d->cpu_model = self->name;

	if (!mce_record_has(rec, MCE_HAVE_STATUS))
		return;

	d->has_extended_error_code = true;
	d->extended_error_code = xec;

	if ((rec->status & STATUS_SYNDV) && mce_record_has(rec, MCE_HAVE_SYND)) {
		d->has_syndrome = true;
		d->syndrome = rec->synd;
	}
	smca_fru_text(rec, d);

	/* MCA_MISC0 on AMD is the error thresholding register, not the SDM's MISC layout. */
	d->has_address_lsb = smca_address_lsb(rec, &lsb);
	d->address_lsb = d->has_address_lsb ? lsb : 0;

	if (rec->status & STATUS_ERRCOREIDVAL)
		amd_add_detail(d, "error_core_id", bits(rec->status, 37, 32), NULL);

	/*
	 * Without MCA_IPID the bank is unknown: the bank number says nothing on
	 * SMCA.  An all-zero IPID is what a source reports when it did not read
	 * the register, not a "Reserved" block, so it is unknown too.  Only
	 * a bank name the text gave can stand in for it.
	 */
	if (!mce_record_has(rec, MCE_HAVE_IPID) || rec->ipid == 0) {
		if (mce_record_has(rec, MCE_HAVE_BANK_NAME))
			smca_decode_by_name(p, rec, xec, d);
		return;
	}

	amd_add_detail(d, "instance_id", bits(rec->ipid, 31, 0), NULL);

	t = smca_bank_type_lookup(p, rec->ipid);
	if (!t) {
		amd_add_detail(d, "hardware_id", bits(rec->ipid, 43, 32), NULL);
		amd_add_detail(d, "mca_type", bits(rec->ipid, 63, 48), NULL);
		return;
	}

	d->bank_type = t->type;
	d->bank_name = t->name;
	d->description = smca_xec_text(t, xec);
	mnemonic = smca_xec_mnemonic(t, xec);
	if (mnemonic)
		amd_add_detail(d, "mnemonic", xec, mnemonic);
	smca_locate(t, rec, xec, d);
}
