/* SPDX-License-Identifier: MIT */
/*
 * Intel CPU identity → model decoder, and the one generic decoder that
 * walks a model's tables (intel.h).  Adding a CPU is adding a row below and,
 * if its banks differ from a sibling's, a table in intel-server.c.
 *
 * Model numbers: Intel SDM Vol. 4, "Model-Specific Registers", Table 2-1
 * "CPUID Signature Values of DisplayFamily_DisplayModel", cross-checked with
 * the INTEL_* constants of Linux arch/x86/include/asm/intel-family.h.
 */
#include "intel.h"

const struct intel_bank *intel_bank_lookup(const struct intel_model *m, uint32_t bank)
{
	size_t lo = 0, hi = m->n_banks;

	/* Banks are sorted and disjoint (test-decode-arch checks it): bisect. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct intel_bank *b = &m->banks[mid];

		if (bank < b->first)
			hi = mid;
		else if (bank > b->last)
			lo = mid + 1;
		else
			return b;
	}
	return NULL;
}

static void add_detail(struct mce_decoded *d, const char *name, uint64_t value, const char *text)
{
	if (d->n_details < MCE_MAX_DETAILS)
		d->details[d->n_details++] = (struct mce_detail) { .name = name, .value = value,
								   .text = text };
}

/*
 * iMC MISC[62:59] = 8: the read was from DDR-T (persistent memory), whose
 * location the DIMM/rank bits do not describe (Linux drivers/edac/skx_common.h,
 * MCI_MISC_ECC_DDRT, used as a fact source).
 */
static bool misc_is_ddrt(uint64_t misc)
{
	return ((misc >> 59) & 0xf) == 8;
}

static void decode_codes(const struct intel_code_table *codes, const struct mce_record *rec,
			 struct mce_decoded *d)
{
	for (size_t i = 0; i < codes->n; i++)
		if ((rec->status & codes->rows[i].mask) == codes->rows[i].value) {
			d->description = codes->rows[i].text;
			if (codes->rows[i].mnemonic)
				add_detail(d, "mnemonic", (rec->status >> MSCOD_SHIFT) & 0xffff,
					   codes->rows[i].mnemonic);
			return;
		}
}

static const char *field_value_text(const struct intel_field *f, uint64_t v)
{
	for (size_t i = 0; i < f->n_values; i++)
		if (f->values[i].value == v)
			return f->values[i].text;
	return NULL;
}

/* The first set defined for this MCACOD: each of its fields that says something, as a detail. */
static void decode_fields(const struct intel_field_set *sets, size_t n_sets,
			  const struct mce_record *rec, struct mce_decoded *d)
{
	bool misc_valid = (rec->have & MCE_HAVE_MISC) && (rec->status & (UINT64_C(1) << 59));

	for (size_t s = 0; s < n_sets; s++) {
		if ((rec->status & sets[s].status_mask) != sets[s].status_value)
			continue;
		for (size_t i = 0; i < sets[s].n; i++) {
			const struct intel_field *f = &sets[s].fields[i];
			uint64_t v;

			if (f->in_misc && !misc_valid)
				continue;
			v = ((f->in_misc ? rec->misc : rec->status) >> f->lo) & ((UINT64_C(2) << (f->hi - f->lo)) - 1);

			if (f->values)
				add_detail(d, f->name, v, field_value_text(f, v));
			else if (f->text) {
				if (v)
					add_detail(d, f->name, v, f->text);
			} else if (!f->only_if || (rec->status & f->only_if))
				add_detail(d, f->name, v, NULL);
		}
		return;
	}
}

/* Diamond Rapids MC channel MISC[61:58] (intel-server.c names the source). */
static const char *const dmr_ecc_modes[16] = {
	[1] = "SDDC 128b 1LM", [2] = "SDDC 125b 1LM", [3] = "SDDC 125b 2LM",
	[4] = "ADDDC 80b 1LM", [5] = "ADDDC 80b 2LM",
	[9] = "5x8 128b 1LM", [10] = "5x8 125b 1LM", [11] = "5x8 125b 2LM",
};

/*
 * Which IMH logged a Diamond Rapids channel bank is bit 2 of the APIC ID of
 * the CPU that read it; each IMH has eight channel banks, so a memory error's
 * channel across the socket is the bank's place in the range plus 8 per IMH.
 * Without the APIC ID neither is known, and MCACOD's channel field stands.
 */
static void dmr_channel(const struct intel_bank *b, const struct mce_record *rec, struct mce_decoded *d)
{
	unsigned imh;

	if (!(rec->have & MCE_HAVE_APICID))
		return;
	imh = (rec->apicid >> 2) & 1;
	add_detail(d, "imh", imh, NULL);
	if (d->error_class == MCE_CLASS_MEMORY_CONTROLLER)
		d->channel = (int) (rec->bank - b->first + 8 * imh);
}

/* MISC beyond the DRAM cell, valid with STATUS[33] and an MSCOD below 0800H. */
static void dmr_misc(const struct mce_record *rec, struct mce_decoded *d)
{
	uint64_t m = rec->misc;
	unsigned ecc_mode;

	if (!(rec->status & (UINT64_C(1) << 33)) || ((rec->status >> MSCOD_SHIFT) & 0xffff) >= 0x800)
		return;
	d->chip_select = (int) ((m >> 55) & 3);
	add_detail(d, "sub_channel", (m >> 49) & 1, NULL);
	add_detail(d, "sub_rank", (m >> 51) & 0xf, NULL);
	if (m & (UINT64_C(1) << 63)) {
		add_detail(d, "transient", 1, "transient");
		return;
	}
	if (m & (UINT64_C(1) << 42))
		add_detail(d, "failed_device", (m >> 44) & 0x1f, NULL);
	ecc_mode = (unsigned) ((m >> 58) & 0xf);
	add_detail(d, "ecc_mode", ecc_mode, dmr_ecc_modes[ecc_mode] ? dmr_ecc_modes[ecc_mode] : "unknown");
}

void intel_model_decode(const struct mce_model_decoder *self, const struct mce_record *rec,
			struct mce_decoded *d)
{
	const struct intel_model *m = self->tables;
	const struct intel_bank *b;

	if (!m || !(rec->have & MCE_HAVE_BANK))
		return;
	b = intel_bank_lookup(m, rec->bank);
	if (b && b->codes)
		decode_codes(b->codes, rec, d);
	else if (m->codes)
		decode_codes(m->codes, rec, d);
	if (b && b->n_fields)
		decode_fields(b->fields, b->n_fields, rec, d);
	else
		decode_fields(m->fields, m->n_fields, rec, d);
	if (!b)
		return;

	d->bank_name = b->name;
	d->bank_type = b->type;

	if (b->has_imc)
		add_detail(d, "memory_controller", b->imc, NULL);
	if (b->misc == INTEL_MISC_DMR_MCCHAN)
		dmr_channel(b, rec, d);

	/* MISC is only meaningful when MISCV, and its memory fields only for memory errors. */
	if (b->misc == INTEL_MISC_MIRROR_63_62 && (rec->status & (UINT64_C(1) << 59)) &&
	    (rec->have & MCE_HAVE_MISC) && !(rec->status & (UINT64_C(1) << 61))) {
		if (rec->misc & (UINT64_C(1) << 63))
			add_detail(d, "mirror_correction", 1, "channel_failover");
		else if (rec->misc & (UINT64_C(1) << 62))
			add_detail(d, "mirror_correction", 2, "primary_scrubbed");
	}
	if (!(rec->status & (UINT64_C(1) << 59)) || !(rec->have & MCE_HAVE_MISC) ||
	    d->error_class != MCE_CLASS_MEMORY_CONTROLLER)
		return;
	switch (b->misc) {
	case INTEL_MISC_ICX_DIMM_RANK:
		if (!misc_is_ddrt(rec->misc)) {
			d->dimm = (int) ((rec->misc >> 58) & 1);
			d->rank = (int) ((rec->misc >> 56) & 3);
		}
		break;
	case INTEL_MISC_SPR_DIMM_RANK:
		if (!misc_is_ddrt(rec->misc)) {
			d->dimm = (int) ((rec->misc >> 58) & 1);
			d->rank = (int) ((rec->misc >> 57) & 1);
		}
		break;
	case INTEL_MISC_CS_57_55:
		if (rec->status & (UINT64_C(1) << 33))
			d->chip_select = (int) ((rec->misc >> 55) & 7);
		break;
	case INTEL_MISC_NHM_DIMM:
		d->dimm = (int) ((rec->misc >> 16) & 3);
		/* MCACOD's channel wins; MISC fills it in when MCACOD says "unspecified". */
		if (d->channel < 0)
			d->channel = (int) ((rec->misc >> 18) & 3);
		d->has_syndrome = true;
		d->syndrome = rec->misc >> 32;
		break;
	case INTEL_MISC_DMR_MCCHAN:
		dmr_misc(rec, d);
		break;
	case INTEL_MISC_NONE:
	case INTEL_MISC_MIRROR_63_62:
		break;
	}
	if (b->cell)
		intel_dram_misc_decode(b->cell, rec, d);
}

#define INTEL_DECODER(var, label, tbl) \
	static const struct mce_model_decoder var = { \
		.name = label, .decode = intel_model_decode, .tables = tbl, \
	}

INTEL_DECODER(dec_haswell_x,      "Haswell-EP",                 &intel_haswell_x);
INTEL_DECODER(dec_broadwell_x,    "Broadwell-EP",               &intel_broadwell_x);
INTEL_DECODER(dec_broadwell_d,    "Broadwell-DE",               &intel_broadwell_d);
INTEL_DECODER(dec_skylake_x,      "Skylake-SP/Cascade Lake/Cooper Lake", &intel_skylake_x);
INTEL_DECODER(dec_icelake_x,      "Ice Lake-SP",                &intel_icelake_x);
INTEL_DECODER(dec_icelake_d,      "Ice Lake-D",                 &intel_icelake_x);
INTEL_DECODER(dec_snowridge,      "Snow Ridge",                 &intel_icelake_x);
INTEL_DECODER(dec_sapphire,       "Sapphire Rapids",            &intel_sapphirerapids_x);
INTEL_DECODER(dec_emerald,        "Emerald Rapids",             &intel_sapphirerapids_x);
INTEL_DECODER(dec_granite_x,      "Granite Rapids",             &intel_graniterapids_x);
INTEL_DECODER(dec_granite_d,      "Granite Rapids-D",           &intel_graniterapids_x);
INTEL_DECODER(dec_sierra_forest,  "Sierra Forest",              &intel_graniterapids_x);
INTEL_DECODER(dec_grand_ridge,    "Grand Ridge",                &intel_atom_server);
INTEL_DECODER(dec_diamond,        "Diamond Rapids",             &intel_diamondrapids_x);
INTEL_DECODER(dec_nehalem_ep,     "Nehalem-EP",                 &intel_nehalem_ep);
INTEL_DECODER(dec_westmere_ep,    "Westmere-EP",                &intel_nehalem_ep);
INTEL_DECODER(dec_sandybridge_x,  "Sandy Bridge-EP",            &intel_sandybridge_x);
INTEL_DECODER(dec_ivybridge_x,    "Ivy Bridge-EP/EX",           &intel_ivybridge_x);
INTEL_DECODER(dec_denverton,      "Denverton (Goldmont-D)",     &intel_denverton);

/*
 * The front-side-bus processors (intel-fsb.c), named from SDM Vol. 3B
 * chapter 16's signature tables (Table 16-1 for P6, 16-3 for Core 2) and
 * SDM Vol. 4 Table 2-1 for family 0FH.  Family 06H models 00H, 02H, 04H,
 * 06H and 0CH are in neither table: mcelog counts them among its P6
 * models, so we name them so too, with no fields, since the P6 table is
 * defined for the listed signatures "only".
 */
INTEL_DECODER(dec_pentium_pro,    "Pentium Pro",                &intel_p6);
INTEL_DECODER(dec_pentium_ii,     "Pentium II/Pentium II Xeon", &intel_p6);
INTEL_DECODER(dec_pentium_iii,    "Pentium III/Pentium III Xeon", &intel_p6);
INTEL_DECODER(dec_pentium_m,      "Pentium M",                  &intel_p6);
INTEL_DECODER(dec_yonah,          "Core Duo/Core Solo (Yonah)", &intel_p6);
INTEL_DECODER(dec_merom,          "Core 2 (Merom)",             &intel_core2);
INTEL_DECODER(dec_penryn,         "Core 2 (Penryn)",            &intel_core2);
INTEL_DECODER(dec_dunnington,     "Xeon 7400 (Dunnington)",     &intel_dunnington);
INTEL_DECODER(dec_willamette,     "Pentium 4/Xeon (Willamette)", &intel_netburst);
INTEL_DECODER(dec_northwood,      "Pentium 4/Xeon (Northwood)", &intel_netburst);
INTEL_DECODER(dec_prescott,       "Pentium 4/Pentium D/Xeon (Prescott)", &intel_netburst);
INTEL_DECODER(dec_cedarmill,      "Pentium 4/Pentium D/Xeon 5000/7100 (Cedar Mill, Presler, Tulsa)",
	      &intel_netburst_06);
/*
 * Named only: banks report as "unknown".  Why each has no bank table (issue
 * 15, checked against the SDM edition mirrored at
 * xem.github.io/minix86/manual/intel-x86-and-64-manual-vol3, Vol. 3C
 * chapter 35 "Model-Specific Registers (MSRs)"):  the MSR tables that cover
 * these models list IA32_MC0..MCn with their scope (Core, Module, Package)
 * and a pointer to section 15.3.2 only.  The sentence that names a bank's
 * unit ("Bank MCi reports MC error from the ... module") appears in server
 * tables alone (06_3EH, 06_3FH, 06_4FH/56H, 06_55H), and chapter 16 has no
 * incremental-decoding section for these models.  Unit names borrowed from
 * a server sibling would be guesses, so we give none:
 *   Table 35-6 (+35-10)  06_37H, 06_4AH, 06_4DH (Avoton), 06_5AH, 06_5DH
 *   Table 35-12          06_5CH (Apollo Lake, Goldmont)
 *   Table 35-13          06_1EH, 06_1FH, 06_2EH (its 06_1AH has banks from
 *                        chapter 16 section 16.3, intel-older.c)
 *   Table 35-18          06_2AH (Sandy Bridge client; its 06_2DH has banks
 *                        from chapter 16 section 16.4)
 *   Table 35-40          06_57H (Knights Landing)
 * The other models below (Westmere and Ivy Bridge clients, the older Atoms
 * 06_1CH, 26H, 27H, 35H, 36H and 06_4CH, Ice Lake NNPI 06_9DH, and those
 * newer than that edition: 06_85H Knights Mill, 06_7AH Goldmont Plus,
 * Tremont, Cannon Lake and later clients) are named from SDM Vol. 4 Table
 * 2-1; we found no MSR table of theirs that names a bank, and chapter 16
 * has no section for them.
 *
 * The Haswell to Coffee Lake clients (06_3CH, 45H, 46H, 3DH, 47H, 4EH, 5EH,
 * 8EH, 9EH, "Intel Core (client)") once had a bank table citing an SDM
 * section "Incremental Decoding Information: Processor Family 06H, Models
 * 3CH, ...".  Chapter 16 "Interpreting Machine-Check Error Codes" of that
 * edition has no such section.  Its model sections run 16.2 (Core 2 and
 * Xeon 7400), 16.4 (06_2DH; Table 16-13, IA32_MC4_STATUS), 16.6 (06_3FH;
 * Table 16-20, IA32_MC4_STATUS), 16.8 (06_4FH, which reuses Table 16-20),
 * 16.9 (06_55H; Table 16-27, IA32_MC4_STATUS) and 16.10 (family 0FH), with
 * the server models 06_1AH, 06_3EH and 06_56H between them: every
 * IA32_MC4 (PCU) table is a server model's.  So these clients, like the
 * ones above, get the architectural decode and no unit names.
 */
#define NAMED(var, label) INTEL_DECODER(var, label, &intel_arch_only)
NAMED(dec_p6_other,       "P6 family");
NAMED(dec_bonnell,        "Atom (Bonnell)");
NAMED(dec_lincroft,       "Atom Z600 (Bonnell, Lincroft)");
NAMED(dec_penwell,        "Atom (Saltwell, Penwell)");
NAMED(dec_cloverview,     "Atom (Saltwell, Cloverview)");
NAMED(dec_cedarview,      "Atom (Saltwell, Cedarview)");
NAMED(dec_baytrail,       "Bay Trail (Silvermont)");
NAMED(dec_merrifield,     "Merrifield (Silvermont)");
NAMED(dec_airmont,        "Cherry Trail/Braswell (Airmont)");
NAMED(dec_moorefield,     "Moorefield (Airmont)");
NAMED(dec_sofia,          "SoFIA (Silvermont)");
NAMED(dec_icelake_nnpi,   "Ice Lake NNPI");
NAMED(dec_nehalem,        "Nehalem (client)");
NAMED(dec_nehalem_ex,     "Nehalem-EX");
NAMED(dec_westmere,       "Westmere (client)");
NAMED(dec_westmere_ex,    "Westmere-EX");
NAMED(dec_sandybridge,    "Sandy Bridge (client)");
NAMED(dec_ivybridge,      "Ivy Bridge (client)");
NAMED(dec_client,         "Intel Core (client)");
NAMED(dec_avoton,         "Avoton/Rangeley (Silvermont-D)");
NAMED(dec_knl,            "Knights Landing");
NAMED(dec_goldmont,       "Apollo Lake (Goldmont)");
NAMED(dec_cannonlake,     "Cannon Lake");
NAMED(dec_gemini_lake,    "Gemini Lake (Goldmont Plus)");
NAMED(dec_icelake,        "Ice Lake (client)");
NAMED(dec_knm,            "Knights Mill");
NAMED(dec_lakefield,      "Lakefield");
NAMED(dec_tigerlake,      "Tiger Lake");
NAMED(dec_elkhart,        "Elkhart Lake (Tremont)");
NAMED(dec_alderlake,      "Alder Lake");
NAMED(dec_jasperlake,     "Jasper Lake (Tremont)");
NAMED(dec_cometlake,      "Comet Lake");
NAMED(dec_rocketlake,     "Rocket Lake");
NAMED(dec_meteorlake,     "Meteor Lake");
NAMED(dec_arrowlake,      "Arrow Lake");
NAMED(dec_raptorlake,     "Raptor Lake");
NAMED(dec_lunarlake,      "Lunar Lake");
NAMED(dec_alderlake_n,    "Alder Lake-N (Gracemont)");
NAMED(dec_pantherlake,    "Panther Lake");
NAMED(dec_clearwater,     "Clearwater Forest");
/*
 * The newest clients, named from Linux arch/x86/include/asm/intel-family.h
 * alone: no SDM edition we could read lists them yet.  INTEL_WILDCATLAKE_L
 * IFM(6, 0xD5) (mcelog v208 names the same model), INTEL_NOVALAKE IFM(18,
 * 0x01) and INTEL_NOVALAKE_L IFM(18, 0x03) ("x86/cpu: Add CPU model numbers
 * for Novalake", Tony Luck, August 2025; cores "Coyote Cove / Arctic Wolf").
 * Nova Lake is the first part of family 18 (0FH + extended family 03H), so
 * only its CPUID signature, not a family-6 row, can name it.  Clients have no
 * published bank table (see above): architectural decode only.
 */
NAMED(dec_wildcatlake,    "Wildcat Lake");
NAMED(dec_novalake,       "Nova Lake");

#define ROWS(fam, first, last, dec) { .vendor = MCE_VENDOR_INTEL, .family = fam, \
					.model_first = first, .model_last = last, .decoder = &dec }
#define ROW(fam, m, dec) ROWS(fam, m, m, dec)

/* Sorted by (family, model) with no overlaps; test-decode-arch checks it. */
const struct mce_model_match intel_model_matches[] = {
	ROW(6, 0x00, dec_p6_other),
	ROW(6, 0x01, dec_pentium_pro),
	ROW(6, 0x02, dec_p6_other),
	ROW(6, 0x03, dec_pentium_ii),      /* Klamath */
	ROW(6, 0x04, dec_p6_other),
	ROW(6, 0x05, dec_pentium_ii),      /* Deschutes */
	ROW(6, 0x06, dec_p6_other),
	ROWS(6, 0x07, 0x08, dec_pentium_iii), /* Katmai, Coppermine */
	ROW(6, 0x09, dec_pentium_m),       /* Banias */
	ROWS(6, 0x0a, 0x0b, dec_pentium_iii), /* Coppermine T, Tualatin */
	ROW(6, 0x0c, dec_p6_other),
	ROW(6, 0x0d, dec_pentium_m),       /* Dothan */
	ROW(6, 0x0e, dec_yonah),
	ROW(6, 0x0f, dec_merom),           /* also Xeon 3000, 3200, 5100, 5300, 7300 */
	ROW(6, 0x17, dec_penryn),          /* also Xeon 5200, 5400 */
	ROW(6, 0x1a, dec_nehalem_ep),
	ROW(6, 0x1c, dec_bonnell),         /* Silverthorne, Diamondville, Pineview */
	ROW(6, 0x1d, dec_dunnington),
	ROW(6, 0x1e, dec_nehalem),         /* Lynnfield/Clarksfield */
	ROW(6, 0x1f, dec_nehalem),         /* Auburndale/Havendale */
	ROW(6, 0x25, dec_westmere),        /* Arrandale/Clarkdale */
	ROW(6, 0x26, dec_lincroft),
	ROW(6, 0x27, dec_penwell),
	ROW(6, 0x2a, dec_sandybridge),
	ROW(6, 0x2c, dec_westmere_ep),
	ROW(6, 0x2d, dec_sandybridge_x),
	ROW(6, 0x2e, dec_nehalem_ex),
	ROW(6, 0x2f, dec_westmere_ex),
	ROW(6, 0x35, dec_cloverview),
	ROW(6, 0x36, dec_cedarview),
	ROW(6, 0x37, dec_baytrail),
	ROW(6, 0x3a, dec_ivybridge),
	ROW(6, 0x3c, dec_client),          /* Haswell */
	ROW(6, 0x3d, dec_client),          /* Broadwell */
	ROW(6, 0x3e, dec_ivybridge_x),
	ROW(6, 0x3f, dec_haswell_x),
	ROW(6, 0x45, dec_client),          /* Haswell-ULT */
	ROW(6, 0x46, dec_client),          /* Haswell-GT3e */
	ROW(6, 0x47, dec_client),          /* Broadwell-GT3e */
	ROW(6, 0x4a, dec_merrifield),
	ROW(6, 0x4c, dec_airmont),
	ROW(6, 0x4d, dec_avoton),
	ROW(6, 0x4e, dec_client),          /* Skylake mobile */
	ROW(6, 0x4f, dec_broadwell_x),
	ROW(6, 0x55, dec_skylake_x),       /* also Cascade Lake, Cooper Lake (by stepping) */
	ROW(6, 0x56, dec_broadwell_d),
	ROW(6, 0x57, dec_knl),
	ROW(6, 0x5a, dec_moorefield),
	ROW(6, 0x5c, dec_goldmont),
	ROW(6, 0x5d, dec_sofia),
	ROW(6, 0x5e, dec_client),          /* Skylake desktop */
	ROW(6, 0x5f, dec_denverton),
	ROW(6, 0x66, dec_cannonlake),
	ROW(6, 0x6a, dec_icelake_x),
	ROW(6, 0x6c, dec_icelake_d),
	ROW(6, 0x7a, dec_gemini_lake),
	ROW(6, 0x7d, dec_icelake),
	ROW(6, 0x7e, dec_icelake),         /* Ice Lake mobile */
	ROW(6, 0x85, dec_knm),
	ROW(6, 0x86, dec_snowridge),
	ROW(6, 0x8a, dec_lakefield),
	ROW(6, 0x8c, dec_tigerlake),       /* mobile */
	ROW(6, 0x8d, dec_tigerlake),
	ROW(6, 0x8e, dec_client),          /* Kaby/Coffee/Whiskey/Amber Lake mobile */
	ROW(6, 0x8f, dec_sapphire),
	ROW(6, 0x96, dec_elkhart),
	ROW(6, 0x97, dec_alderlake),
	ROW(6, 0x9a, dec_alderlake),       /* mobile */
	ROW(6, 0x9c, dec_jasperlake),
	ROW(6, 0x9d, dec_icelake_nnpi),
	ROW(6, 0x9e, dec_client),          /* Kaby/Coffee Lake desktop */
	ROW(6, 0xa5, dec_cometlake),
	ROW(6, 0xa6, dec_cometlake),       /* mobile */
	ROW(6, 0xa7, dec_rocketlake),
	ROW(6, 0xaa, dec_meteorlake),      /* mobile */
	ROW(6, 0xac, dec_meteorlake),
	ROW(6, 0xad, dec_granite_x),
	ROW(6, 0xae, dec_granite_d),
	ROW(6, 0xaf, dec_sierra_forest),
	ROW(6, 0xb5, dec_arrowlake),       /* U */
	ROW(6, 0xb6, dec_grand_ridge),
	ROW(6, 0xb7, dec_raptorlake),
	ROW(6, 0xba, dec_raptorlake),      /* P */
	ROW(6, 0xbd, dec_lunarlake),
	ROW(6, 0xbe, dec_alderlake_n),
	ROW(6, 0xbf, dec_raptorlake),      /* S */
	ROW(6, 0xc5, dec_arrowlake),       /* H */
	ROW(6, 0xc6, dec_arrowlake),
	ROW(6, 0xcc, dec_pantherlake),
	ROW(6, 0xcf, dec_emerald),
	ROW(6, 0xd5, dec_wildcatlake),     /* L */
	ROW(6, 0xdd, dec_clearwater),
	ROWS(15, 0x00, 0x01, dec_willamette),
	ROW(15, 0x02, dec_northwood),
	ROWS(15, 0x03, 0x04, dec_prescott), /* also Smithfield, Nocona, Irwindale, Paxville */
	ROW(15, 0x06, dec_cedarmill),
	ROW(18, 0x01, dec_novalake),
	ROW(18, 0x03, dec_novalake),       /* L */
	ROW(19, 0x01, dec_diamond),
	{ .decoder = NULL },
};
