/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The forms' entry points, for the form table in lib/record-text.c.
 *
 * A new form is a file lib/text/<form>.c with a recognise/parse pair (see
 * struct text_form) declared here, listed in lib/text/include.am, and a
 * row in the table, above the forms whose lines it must take first.  If
 * its records span lines, it also gets an OPEN_* value in scanner.h.
 */

#include "scanner.h"

/* record-text.c: the form table, for the test that holds its kernel_skip sets to the recognisers */
const struct text_form *text_form_table(size_t *n);

/* edac-amd.c: the AMD EDAC decoder's lines */
unsigned text_edac_amd_recognise(const struct mce_text_parser *p, const struct text_line *l,
				 struct span *body);
int text_edac_amd_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
			struct span body);

/* edac-intel.c: the Intel EDAC drivers' copy of the record and the DIMM it names */
unsigned text_edac_intel_recognise(const struct mce_text_parser *p, const struct text_line *l,
				   struct span *body);
int text_edac_intel_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
			  struct span body);

/* k8-nb.c: early x86_64 kernels' K8 northbridge lines */
unsigned text_k8_nb_recognise(const struct mce_text_parser *p, const struct text_line *l,
			      struct span *body);
int text_k8_nb_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
		     struct span body);

/* macos-mca.c: the machine-check dump of a macOS panic log */
unsigned text_macos_mca_recognise(const struct mce_text_parser *p, const struct text_line *l,
				  struct span *body);
int text_macos_mca_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
			 struct span body);

/* macos-efi.c: the "MCA Error Report" at the top of some Macs' panic reports */
unsigned text_macos_efi_recognise(const struct mce_text_parser *p, const struct text_line *l,
				  struct span *body);
int text_macos_efi_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
			 struct span body);

/* freebsd-mca.c: FreeBSD's "MCA: Bank n, Status 0x..." lines */
unsigned text_freebsd_mca_recognise(const struct mce_text_parser *p, const struct text_line *l,
				    struct span *body);
int text_freebsd_mca_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
			   struct span body);

/* panic.c: old kernels' head line and one line per bank, the corrected-error poller's */
unsigned text_panic_recognise(const struct mce_text_parser *p, const struct text_line *l,
			      struct span *body);
int text_panic_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
		     struct span body);

/* kernel.c: the kernel's console lines */
unsigned text_kernel_recognise(const struct mce_text_parser *p, const struct text_line *l,
			       struct span *body);
int text_kernel_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
		      struct span body);

/* mce-record.c: the mce_record tracepoint's text, as the kernel and rasdaemon print it */
unsigned text_mce_record_recognise(const struct mce_text_parser *p, const struct text_line *l,
				   struct span *body);
int text_mce_record_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
			  struct span body);

/* json.c: our JSON lines */
unsigned text_json_recognise(const struct mce_text_parser *p, const struct text_line *l,
			     struct span *body);
int text_json_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
		    struct span body);

/* ras-mc-ctl.c: ras-mc-ctl --errors */
unsigned text_ras_mc_ctl_recognise(const struct mce_text_parser *p, const struct text_line *l,
				   struct span *body);
int text_ras_mc_ctl_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
			  struct span body);

/* log.c: the kernel's MCE/EDAC chatter, skipped */
unsigned text_kernel_chatter_recognise(const struct mce_text_parser *p, const struct text_line *l,
				       struct span *body);

/* mcelog.c: mcelog's input format and its decoded output */
unsigned text_mcelog_recognise(const struct mce_text_parser *p, const struct text_line *l,
			       struct span *body);
int text_mcelog_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
		      struct span body);
