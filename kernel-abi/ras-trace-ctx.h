/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Inside the tracepoint decoders (kernel-abi/ras-trace.c, cxl-trace.c): one
 * sample being turned into a ras_record, and the readers every decoder uses.
 * A reader looks its field up by name in this kernel's format; a field the
 * kernel lacks reads as absent (false / NULL), a field the sample cannot hold
 * sets c->error with a reason, and every later reader then does nothing.  Not
 * for use outside kernel-abi.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "macro.h"
#include "ras-trace.h"

struct ras_tp_ctx {
	const struct ras_tp_layout *l;
	const unsigned char *raw;
	size_t size;
	struct ras_record *r;
	char *why;
	size_t why_size;
	int error;
};

/* One row of a kernel value → (our name, severity) table, indexed by the value. */
struct sev_name {
	const char *name;
	enum ras_severity severity;
};

_printf_(2, 3)
void tp_fail(struct ras_tp_ctx *c, const char *fmt, ...);

bool tp_u(struct ras_tp_ctx *c, const char *name, uint64_t *v);
bool tp_s(struct ras_tp_ctx *c, const char *name, int64_t *v);
/* A fixed-size field of at least min bytes; NULL if absent or unreadable. */
const unsigned char *tp_bytes(struct ras_tp_ctx *c, const char *name, size_t min, size_t *ret_size);
/* A __data_loc field's payload. */
const unsigned char *tp_dynamic(struct ras_tp_ctx *c, const char *name, size_t *ret_len);

/* The result of a ras_record_add_*(): only running out of memory fails the sample. */
void tp_added(struct ras_tp_ctx *c, int r);
/* Kernel text, printable ASCII only, empty omitted. */
void tp_add_text(struct ras_tp_ctx *c, const char *key, const unsigned char *p, size_t n);
void tp_add_string_field(struct ras_tp_ctx *c, const char *key, const char *name);
void tp_add_no_page(struct ras_tp_ctx *c, const char *why);
/* Sets severity and a "<key>" naming the kernel's value; unknown values are uncorrected. */
void tp_set_severity(struct ras_tp_ctx *c, const char *key, const struct sev_name *table, size_t n,
		     uint64_t v);

/* "A|B" (with sep) for the set bits a table names, "bit N" for the rest; "" for none. */
void tp_flag_names(const char *const names[32], uint32_t bits, const char *sep, char *buf, size_t size);

const char *tp_text_of(const struct ras_record *r, const char *key);
/* "Corrected", "Uncorrected", ...: the first word of a summary. */

/* The cxl:* decoders (kernel-abi/cxl-trace.c). */
void cxl_decode_aer_uncorrectable(struct ras_tp_ctx *c);
void cxl_decode_aer_correctable(struct ras_tp_ctx *c);
void cxl_decode_overflow(struct ras_tp_ctx *c);
void cxl_decode_generic(struct ras_tp_ctx *c);
void cxl_decode_general_media(struct ras_tp_ctx *c);
void cxl_decode_dram(struct ras_tp_ctx *c);
void cxl_decode_memory_module(struct ras_tp_ctx *c);
void cxl_decode_poison(struct ras_tp_ctx *c);
void cxl_decode_memory_sparing(struct ras_tp_ctx *c);

/* The pci:* decoders (kernel-abi/pci-trace.c). */
void pci_decode_hp_event(struct ras_tp_ctx *c);
void pci_decode_link_event(struct ras_tp_ctx *c);

/* The devlink:* decoders (kernel-abi/devlink-trace.c). */
void devlink_decode_health_report(struct ras_tp_ctx *c);
void devlink_decode_recover_aborted(struct ras_tp_ctx *c);
/* signal:signal_generate (kernel-abi/signal-trace.c) and its filter. */
void signal_decode_generate(struct ras_tp_ctx *c);
int ras_tp_signal_filter(char *buf, size_t size);

/* block:block_rq_error and block_rq_complete (kernel-abi/block-trace.c), and the latter's filter. */
void block_decode_rq_error(struct ras_tp_ctx *c);
int ras_tp_block_complete_filter(const struct ras_tp_layout *l, char *buf, size_t size);
