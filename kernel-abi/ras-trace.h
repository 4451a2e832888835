/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The kernel's ras:* tracepoint samples → struct ras_record.  Pure: the
 * source (mcelogd/sources/tracepoint.c) does the perf I/O and hands raw
 * bytes here, together with the event's parsed tracefs format, so every
 * offset and size comes from the running kernel.  Strings and byte arrays
 * (__data_loc) are checked against the sample's size before they are read:
 * a hostile or truncated sample is refused with a reason, never read past.
 */

#include <stddef.h>

#include "ras-record.h"
#include "tracefs-format.h"

enum ras_tp {
	RAS_TP_MC_EVENT,
	RAS_TP_AER_EVENT,
	RAS_TP_MEMORY_FAILURE_EVENT,
	RAS_TP_EXTLOG_MEM_EVENT,
	RAS_TP_ARM_EVENT,
	RAS_TP_NON_STANDARD_EVENT,
	/* The kernel's cxl:* events (drivers/cxl/core/trace.h), decoded in cxl-trace.c. */
	RAS_TP_CXL_AER_UNCORRECTABLE,
	RAS_TP_CXL_AER_CORRECTABLE,
	RAS_TP_CXL_PORT_AER_UNCORRECTABLE,
	RAS_TP_CXL_PORT_AER_CORRECTABLE,
	RAS_TP_CXL_OVERFLOW,
	RAS_TP_CXL_GENERIC_EVENT,
	RAS_TP_CXL_GENERAL_MEDIA,
	RAS_TP_CXL_DRAM,
	RAS_TP_CXL_MEMORY_MODULE,
	RAS_TP_CXL_POISON,
	RAS_TP_CXL_MEMORY_SPARING,
	/* The kernel's pci:* events (include/trace/events/pci.h), decoded in pci-trace.c. */
	RAS_TP_PCI_HP_EVENT,
	RAS_TP_PCIE_LINK_EVENT,
	/* The kernel's devlink health events (include/trace/events/devlink.h), decoded in devlink-trace.c. */
	RAS_TP_DEVLINK_HEALTH_REPORT,
	RAS_TP_DEVLINK_RECOVER_ABORTED,
	/* signal:signal_generate, read only for SIGBUS of a memory error (signal-trace.c). */
	RAS_TP_SIGNAL_GENERATE,
	/* A failed disk request (block-trace.c); block_rq_complete only where block_rq_error is missing. */
	RAS_TP_BLOCK_RQ_ERROR,
	RAS_TP_BLOCK_RQ_COMPLETE,
	_RAS_TP_MAX,
};

/* "mc_event", "cxl_dram", ... : the name under events/<system>/ in tracefs. */
const char *ras_tp_name(enum ras_tp tp);
/* MCE_SOURCE_RAS_MC_EVENT, ... */
enum mce_source ras_tp_source(enum ras_tp tp);

#define RAS_TP_SYMBOLS_MAX 48
#define RAS_TP_SYMBOL_TEXT_MAX 48

/* One { value, "text" } pair of a __print_symbolic() in the format's print fmt. */
struct ras_tp_symbol {
	int64_t value;
	char text[RAS_TP_SYMBOL_TEXT_MAX];
};

struct ras_tp_symbols {
	struct ras_tp_symbol s[RAS_TP_SYMBOLS_MAX];
	unsigned n;
};

/* What one ras tracepoint looks like on this kernel. */
struct ras_tp_layout {
	enum ras_tp tp;
	struct trace_format format;
	/*
	 * memory_failure_event's page type numbers (an enum in include/linux/mm.h)
	 * changed between kernels; the kernel's own mapping, from the print fmt,
	 * says which name a number stands for on this kernel.  n == 0: not found,
	 * our table for 6.1 is used.
	 */
	struct ras_tp_symbols page_types;
};

/*
 * Parses a format file for tp.  Returns 0; -EINVAL (bad file, line in
 * *ret_line); -EPROTO if a field we need is missing (its name in *ret_missing).
 */
int ras_tp_layout_init(struct ras_tp_layout *l, enum ras_tp tp, const char *text, size_t len,
		       unsigned *ret_line, const char **ret_missing);

/*
 * The pairs of the __print_symbolic(REC->field, ...) in a format file's
 * print fmt.  Returns the number found (0 if there is none), -EINVAL if it is
 * malformed.
 */
int ras_tp_parse_symbols(const char *text, size_t len, const char *field, struct ras_tp_symbols *ret);

/*
 * The kernel-side filter (tracefs's event filter syntax, PERF_EVENT_IOC_SET_FILTER)
 * an event must be read through, so that what it fires for and we do not
 * want never leaves the kernel: signal_generate only for SIGBUS of a memory
 * error, block_rq_complete only for failed requests.  Returns 0 with the
 * expression in buf, -ENOENT for an event read whole, -ENOBUFS.
 */
int ras_tp_filter(const struct ras_tp_layout *l, char *buf, size_t size);

/*
 * Decodes one raw sample (the tracepoint's record, common fields first).
 * ret must be uninitialised or done; on success it holds the record (free it
 * with ras_record_done()).  Returns 0, -EBADMSG with a reason in why (the
 * sample is too short or names data outside itself), -ENOMEM.
 */
int ras_tp_decode(const struct ras_tp_layout *l, const void *raw, size_t raw_size,
		  struct ras_record *ret, char *why, size_t why_size);

