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

void intel_model_decode(const struct mce_model_decoder *self, const struct mce_record *rec,
			struct mce_decoded *d)
{
	const struct intel_model *m = self->tables;
	const struct intel_bank *b;

	if (!m || !(rec->have & MCE_HAVE_BANK))
		return;
	b = intel_bank_lookup(m, rec->bank);
	if (!b)
		return;

	d->bank_name = b->name;
	d->bank_type = b->type;

	if (b->codes)
		for (size_t i = 0; i < b->codes->n; i++)
			if ((rec->status & b->codes->rows[i].mask) == b->codes->rows[i].value) {
				d->description = b->codes->rows[i].text;
				if (b->codes->rows[i].mnemonic)
					add_detail(d, "mnemonic", (rec->status >> MSCOD_SHIFT) & 0xffff,
						   b->codes->rows[i].mnemonic);
				break;
			}

	if (b->has_imc)
		add_detail(d, "memory_controller", b->imc, NULL);

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
	case INTEL_MISC_NONE:
	case INTEL_MISC_MIRROR_63_62:
		break;
	}
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
INTEL_DECODER(dec_nehalem_ep,     "Nehalem-EP",                 &intel_nehalem_ep);
INTEL_DECODER(dec_westmere_ep,    "Westmere-EP",                &intel_nehalem_ep);
INTEL_DECODER(dec_sandybridge_x,  "Sandy Bridge-EP",            &intel_sandybridge_x);
INTEL_DECODER(dec_ivybridge_x,    "Ivy Bridge-EP/EX",           &intel_ivybridge_x);
INTEL_DECODER(dec_denverton,      "Denverton (Goldmont-D)",     &intel_denverton);
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
 * The other models below (Westmere and Ivy Bridge clients, and those newer
 * than that edition: 06_85H Knights Mill, 06_7AH Goldmont Plus, Tremont,
 * Cannon Lake and later clients) are named from SDM Vol. 4 Table 2-1; we
 * found no MSR table of theirs that names a bank.
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
NAMED(dec_diamond,        "Diamond Rapids");

#define ROW(fam, m, dec) { .vendor = MCE_VENDOR_INTEL, .family = fam, .model_first = m, \
			   .model_last = m, .decoder = &dec }

/* Sorted by (family, model) with no overlaps; test-decode-arch checks it. */
const struct mce_model_match intel_model_matches[] = {
	ROW(6, 0x1a, dec_nehalem_ep),
	ROW(6, 0x1e, dec_nehalem),         /* Lynnfield/Clarksfield */
	ROW(6, 0x1f, dec_nehalem),         /* Auburndale/Havendale */
	ROW(6, 0x25, dec_westmere),        /* Arrandale/Clarkdale */
	ROW(6, 0x2a, dec_sandybridge),
	ROW(6, 0x2c, dec_westmere_ep),
	ROW(6, 0x2d, dec_sandybridge_x),
	ROW(6, 0x2e, dec_nehalem_ex),
	ROW(6, 0x2f, dec_westmere_ex),
	ROW(6, 0x3a, dec_ivybridge),
	ROW(6, 0x3c, dec_client),          /* Haswell */
	ROW(6, 0x3d, dec_client),          /* Broadwell */
	ROW(6, 0x3e, dec_ivybridge_x),
	ROW(6, 0x3f, dec_haswell_x),
	ROW(6, 0x45, dec_client),          /* Haswell-ULT */
	ROW(6, 0x46, dec_client),          /* Haswell-GT3e */
	ROW(6, 0x47, dec_client),          /* Broadwell-GT3e */
	ROW(6, 0x4d, dec_avoton),
	ROW(6, 0x4e, dec_client),          /* Skylake mobile */
	ROW(6, 0x4f, dec_broadwell_x),
	ROW(6, 0x55, dec_skylake_x),       /* also Cascade Lake, Cooper Lake (by stepping) */
	ROW(6, 0x56, dec_broadwell_d),
	ROW(6, 0x57, dec_knl),
	ROW(6, 0x5c, dec_goldmont),
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
	ROW(6, 0xdd, dec_clearwater),
	ROW(19, 0x01, dec_diamond),
	{ .decoder = NULL },
};
