/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm-processor.h"
#include "arm-vendor.h"
#include "cper.h"
#include "edac-detail.h"
#include "macro.h"
#include "ras-trace.h"
#include "ras-trace-ctx.h"

struct tp_info {
	const char *name;
	enum mce_source source;
	enum ras_event event;
	/* Fields every kernel that has the event has had; the rest are optional. */
	const char *const *required;
};

#define FIELDS(...) (const char *const[]) { __VA_ARGS__, NULL }

static const struct tp_info tp_info[_RAS_TP_MAX] = {
	[RAS_TP_MC_EVENT] = {
		"mc_event", MCE_SOURCE_RAS_MC_EVENT, RAS_EVENT_MEMORY_CONTROLLER,
		FIELDS("error_type", "msg", "label", "error_count", "mc_index", "top_layer",
		       "middle_layer", "lower_layer", "address", "grain_bits", "syndrome"),
	},
	[RAS_TP_AER_EVENT] = {
		"aer_event", MCE_SOURCE_RAS_AER_EVENT, RAS_EVENT_PCIE_AER,
		FIELDS("dev_name", "status", "severity"),
	},
	[RAS_TP_MEMORY_FAILURE_EVENT] = {
		"memory_failure_event", MCE_SOURCE_RAS_MEMORY_FAILURE_EVENT, RAS_EVENT_MEMORY_FAILURE,
		FIELDS("pfn", "type", "result"),
	},
	[RAS_TP_EXTLOG_MEM_EVENT] = {
		"extlog_mem_event", MCE_SOURCE_RAS_EXTLOG_MEM_EVENT, RAS_EVENT_FIRMWARE_MEMORY,
		FIELDS("err_seq", "etype", "sev", "pa", "pa_mask_lsb", "fru_id", "fru_text", "data"),
	},
	[RAS_TP_ARM_EVENT] = {
		"arm_event", MCE_SOURCE_RAS_ARM_EVENT, RAS_EVENT_ARM_PROCESSOR,
		FIELDS("mpidr", "midr", "running_state", "psci_state", "affinity"),
	},
	[RAS_TP_NON_STANDARD_EVENT] = {
		"non_standard_event", MCE_SOURCE_RAS_NON_STANDARD_EVENT, RAS_EVENT_VENDOR_SECTION,
		FIELDS("sec_type", "fru_id", "fru_text", "sev", "len", "buf"),
	},
	/*
	 * cxl:*: only what every kernel since the event appeared has had (6.1
	 * for the AER pair, 6.3 for the event records, 6.5 for poison); what
	 * later kernels added is read when present.  The device's name is
	 * "dev_name" on 6.1 and "memdev" later, so neither is required.
	 */
	[RAS_TP_CXL_AER_UNCORRECTABLE] = {
		"cxl_aer_uncorrectable_error", MCE_SOURCE_CXL_AER_UNCORRECTABLE, RAS_EVENT_CXL_AER,
		FIELDS("status", "first_error"),
	},
	[RAS_TP_CXL_AER_CORRECTABLE] = {
		"cxl_aer_correctable_error", MCE_SOURCE_CXL_AER_CORRECTABLE, RAS_EVENT_CXL_AER,
		FIELDS("status"),
	},
	[RAS_TP_CXL_PORT_AER_UNCORRECTABLE] = {
		"cxl_port_aer_uncorrectable_error", MCE_SOURCE_CXL_PORT_AER_UNCORRECTABLE, RAS_EVENT_CXL_AER,
		FIELDS("device", "status", "first_error"),
	},
	[RAS_TP_CXL_PORT_AER_CORRECTABLE] = {
		"cxl_port_aer_correctable_error", MCE_SOURCE_CXL_PORT_AER_CORRECTABLE, RAS_EVENT_CXL_AER,
		FIELDS("device", "status"),
	},
	[RAS_TP_CXL_OVERFLOW] = {
		"cxl_overflow", MCE_SOURCE_CXL_OVERFLOW, RAS_EVENT_CXL_OVERFLOW,
		FIELDS("log", "count"),
	},
	[RAS_TP_CXL_GENERIC_EVENT] = {
		"cxl_generic_event", MCE_SOURCE_CXL_GENERIC_EVENT, RAS_EVENT_CXL_GENERIC,
		FIELDS("log", "hdr_uuid", "data"),
	},
	[RAS_TP_CXL_GENERAL_MEDIA] = {
		"cxl_general_media", MCE_SOURCE_CXL_GENERAL_MEDIA, RAS_EVENT_CXL_GENERAL_MEDIA,
		FIELDS("log", "dpa", "descriptor", "type"),
	},
	[RAS_TP_CXL_DRAM] = {
		"cxl_dram", MCE_SOURCE_CXL_DRAM, RAS_EVENT_CXL_DRAM,
		FIELDS("log", "dpa", "descriptor", "type"),
	},
	[RAS_TP_CXL_MEMORY_MODULE] = {
		"cxl_memory_module", MCE_SOURCE_CXL_MEMORY_MODULE, RAS_EVENT_CXL_MEMORY_MODULE,
		FIELDS("log", "event_type", "health_status", "media_status"),
	},
	[RAS_TP_CXL_POISON] = {
		"cxl_poison", MCE_SOURCE_CXL_POISON, RAS_EVENT_CXL_POISON,
		FIELDS("dpa", "trace_type"),
	},
	[RAS_TP_CXL_MEMORY_SPARING] = {
		"cxl_memory_sparing", MCE_SOURCE_CXL_MEMORY_SPARING, RAS_EVENT_CXL_MEMORY_SPARING,
		FIELDS("log", "flags", "result", "validity_flags"),
	},
	/* pci:*: both came with the same series (7.0-era, include/trace/events/pci.h). */
	[RAS_TP_PCI_HP_EVENT] = {
		"pci_hp_event", MCE_SOURCE_PCI_HP_EVENT, RAS_EVENT_PCI_HOTPLUG,
		FIELDS("port_name", "slot", "event"),
	},
	[RAS_TP_PCIE_LINK_EVENT] = {
		"pcie_link_event", MCE_SOURCE_PCIE_LINK_EVENT, RAS_EVENT_PCIE_LINK,
		FIELDS("port_name", "cur_bus_speed", "max_bus_speed", "width"),
	},
	/* devlink:*: both since 5.1, their fields unchanged since (include/trace/events/devlink.h). */
	[RAS_TP_DEVLINK_HEALTH_REPORT] = {
		"devlink_health_report", MCE_SOURCE_DEVLINK_HEALTH_REPORT, RAS_EVENT_DEVLINK_HEALTH,
		FIELDS("bus_name", "dev_name", "driver_name", "reporter_name", "msg"),
	},
	[RAS_TP_DEVLINK_RECOVER_ABORTED] = {
		"devlink_health_recover_aborted", MCE_SOURCE_DEVLINK_RECOVER_ABORTED,
		RAS_EVENT_DEVLINK_RECOVER_ABORTED,
		FIELDS("bus_name", "dev_name", "driver_name", "reporter_name", "health_state"),
	},
	/* group and result came with Linux 3.4: optional. */
	[RAS_TP_SIGNAL_GENERATE] = {
		"signal_generate", MCE_SOURCE_SIGNAL_GENERATE, RAS_EVENT_SIGBUS,
		FIELDS("sig", "code", "comm", "pid"),
	},
	/* error was "errors" before 4.12: optional here, block-trace.c reads either. */
	[RAS_TP_BLOCK_RQ_ERROR] = {
		"block_rq_error", MCE_SOURCE_BLOCK_RQ_ERROR, RAS_EVENT_DISK_ERROR,
		FIELDS("dev", "sector", "nr_sector", "rwbs"),
	},
	[RAS_TP_BLOCK_RQ_COMPLETE] = {
		"block_rq_complete", MCE_SOURCE_BLOCK_RQ_COMPLETE, RAS_EVENT_DISK_ERROR,
		FIELDS("dev", "sector", "nr_sector", "rwbs"),
	},
};

const char *ras_tp_name(enum ras_tp tp)
{
	return (unsigned) tp < _RAS_TP_MAX ? tp_info[tp].name : "unknown";
}

enum mce_source ras_tp_source(enum ras_tp tp)
{
	return (unsigned) tp < _RAS_TP_MAX ? tp_info[tp].source : MCE_SOURCE_UNKNOWN;
}

/* ------------------------------------------------------------ value tables */

/*
 * ras:mc_event error_type: enum hw_event_mc_err_type, include/linux/edac.h.
 * Severity: EDAC's own class of the error, one to one (the driver read it
 * from the memory controller's status registers).
 */
static const struct sev_name mc_error_types[] = {
	[0] = { "corrected",   RAS_SEV_CORRECTED },     /* HW_EVENT_ERR_CORRECTED */
	[1] = { "uncorrected", RAS_SEV_UNCORRECTED },   /* HW_EVENT_ERR_UNCORRECTED */
	[2] = { "deferred",    RAS_SEV_DEFERRED },      /* HW_EVENT_ERR_DEFERRED */
	[3] = { "fatal",       RAS_SEV_FATAL },         /* HW_EVENT_ERR_FATAL */
	[4] = { "info",        RAS_SEV_INFO },          /* HW_EVENT_ERR_INFO */
};

/*
 * ras:aer_event severity: AER_NONFATAL, AER_FATAL, AER_CORRECTABLE in
 * include/linux/aer.h.  Severity: a correctable error was corrected by the
 * link; a non-fatal uncorrectable one lost a transaction but the link works
 * (uncorrected); a fatal one makes the link unreliable until reset (fatal).
 */
static const struct sev_name aer_severities[] = {
	[0] = { "non_fatal",   RAS_SEV_UNCORRECTED },
	[1] = { "fatal",       RAS_SEV_FATAL },
	[2] = { "corrected",   RAS_SEV_CORRECTED },
};
#define AER_CORRECTABLE 2

/*
 * ras:arm_event and ras:non_standard_event sev: a GHES severity, not the
 * CPER one (include/acpi/ghes.h: GHES_SEV_NO, GHES_SEV_CORRECTED,
 * GHES_SEV_RECOVERABLE, GHES_SEV_PANIC).  drivers/acpi/apei/ghes.c hands both
 * events ghes_severity() of the CPER value: informational becomes "no", and
 * a CPER-corrected ARM section reaches the trace as 1, where CPER's 1 is
 * fatal (seen on Linux 7.3 arm64, tests/vm/arm64-ghes/80).  Severity:
 * recoverable is an uncorrected error the system survives; panic, fatal.
 */
static const struct sev_name ghes_severities[] = {
	[0] = { "none",        RAS_SEV_INFO },
	[1] = { "corrected",   RAS_SEV_CORRECTED },
	[2] = { "recoverable", RAS_SEV_UNCORRECTED },
	[3] = { "panic",       RAS_SEV_FATAL },
};

/*
 * ras:memory_failure_event result: enum mf_result, include/linux/mm.h
 * (MF_IGNORED, MF_FAILED, MF_DELAYED, MF_RECOVERED).  The event reports what
 * the kernel did with a page whose memory is bad; the error itself was
 * reported (and graded) by whoever found it (MCE, EDAC, GHES).  Severity: a
 * page that could not be isolated (ignored, failed) still holds bad memory in
 * use: uncorrected.  Delayed: the kernel will finish later: deferred.
 * Recovered: the page is out of use and nothing was lost: info.
 */
static const struct sev_name mf_results[] = {
	[0] = { "ignored",   RAS_SEV_UNCORRECTED },
	[1] = { "failed",    RAS_SEV_UNCORRECTED },
	[2] = { "delayed",   RAS_SEV_DEFERRED },
	[3] = { "recovered", RAS_SEV_INFO },
};

/*
 * ras:memory_failure_event type: enum mf_action_page_type, include/linux/mm.h.
 * The numbers are those of 6.1 (Debian 12), used only when the format file's
 * print fmt does not give the kernel's own mapping; the text is the kernel's
 * description of each (MF_PAGE_TYPE in include/ras/ras_event.h), by which a
 * newer kernel's numbering is matched to our name.
 */
static const struct page_type {
	const char *kernel_text;
	const char *name;
} page_types_6_1[] = {
	[0]  = { "reserved kernel page",                  "kernel" },
	[1]  = { "high-order kernel page",                "kernel_high_order" },
	[2]  = { "kernel slab page",                      "slab" },
	[3]  = { "different compound page after locking", "different_compound" },
	[4]  = { "huge page",                             "huge" },
	[5]  = { "free huge page",                        "free_huge" },
	[6]  = { "unmapping failed page",                 "unmap_failed" },
	[7]  = { "dirty swapcache page",                  "dirty_swapcache" },
	[8]  = { "clean swapcache page",                  "clean_swapcache" },
	[9]  = { "dirty mlocked LRU page",                "dirty_mlocked_lru" },
	[10] = { "clean mlocked LRU page",                "clean_mlocked_lru" },
	[11] = { "dirty unevictable LRU page",            "dirty_unevictable_lru" },
	[12] = { "clean unevictable LRU page",            "clean_unevictable_lru" },
	[13] = { "dirty LRU page",                        "dirty_lru" },
	[14] = { "clean LRU page",                        "clean_lru" },
	[15] = { "already truncated LRU page",            "truncated_lru" },
	[16] = { "free buddy page",                       "free_buddy" },
	[17] = { "dax page",                              "dax" },
	[18] = { "unsplit thp",                           "unsplit_thp" },
	[19] = { "unknown page",                          "unknown" },
};

/*
 * PCIe AER status registers (PCI Express Base Specification 5.0, 7.8.4.2
 * Uncorrectable Error Status, 7.8.4.5 Correctable Error Status): bit → name.
 */
static const char *const aer_correctable_bits[32] = {
	[0]  = "Receiver Error",
	[6]  = "Bad TLP",
	[7]  = "Bad DLLP",
	[8]  = "REPLAY_NUM Rollover",
	[12] = "Replay Timer Timeout",
	[13] = "Advisory Non-Fatal Error",
	[14] = "Corrected Internal Error",
	[15] = "Header Log Overflow",
};

static const char *const aer_uncorrectable_bits[32] = {
	[0]  = "Undefined",
	[4]  = "Data Link Protocol Error",
	[5]  = "Surprise Down Error",
	[12] = "Poisoned TLP Received",
	[13] = "Flow Control Protocol Error",
	[14] = "Completion Timeout",
	[15] = "Completer Abort",
	[16] = "Unexpected Completion",
	[17] = "Receiver Overflow",
	[18] = "Malformed TLP",
	[19] = "ECRC Error",
	[20] = "Unsupported Request Error",
	[21] = "ACS Violation",
	[22] = "Uncorrectable Internal Error",
	[23] = "MC Blocked TLP",
	[24] = "AtomicOp Egress Blocked",
	[25] = "TLP Prefix Blocked Error",
	[26] = "Poisoned TLP Egress Blocked",
};

/*
 * The kernel's struct cper_mem_err_compact (include/linux/cper.h), packed:
 * the fields of the CPER Memory Error Section (UEFI 2.10 N.2.5) without
 * error status, address and mask.  Offsets within the struct; "extended"
 * is absent on kernels before 5.10 (the struct is then 54 bytes).
 */
enum {
	CMEM_VALIDATION = 0, CMEM_NODE = 8, CMEM_CARD = 10, CMEM_MODULE = 12, CMEM_BANK = 14,
	CMEM_DEVICE = 16, CMEM_ROW = 18, CMEM_COLUMN = 20, CMEM_BIT_POS = 22,
	CMEM_REQUESTOR = 24, CMEM_RESPONDER = 32, CMEM_TARGET = 40, CMEM_RANK = 48,
	CMEM_CARD_HANDLE = 50, CMEM_MODULE_HANDLE = 52, CMEM_EXTENDED = 54,
	CMEM_MIN_SIZE = 54,
};

/* Validation bits of the Memory Error Section (UEFI 2.10 N.2.5, Table N-31). */
enum {
	CPER_MEM_VALID_NODE          = 1u << 3,
	CPER_MEM_VALID_CARD          = 1u << 4,
	CPER_MEM_VALID_MODULE        = 1u << 5,
	CPER_MEM_VALID_BANK          = 1u << 6,
	CPER_MEM_VALID_DEVICE        = 1u << 7,
	CPER_MEM_VALID_ROW           = 1u << 8,
	CPER_MEM_VALID_COLUMN        = 1u << 9,
	CPER_MEM_VALID_BIT_POSITION  = 1u << 10,
	CPER_MEM_VALID_REQUESTOR     = 1u << 11,
	CPER_MEM_VALID_RESPONDER     = 1u << 12,
	CPER_MEM_VALID_TARGET        = 1u << 13,
	CPER_MEM_VALID_RANK          = 1u << 15,
	CPER_MEM_VALID_CARD_HANDLE   = 1u << 16,
	CPER_MEM_VALID_MODULE_HANDLE = 1u << 17,
	CPER_MEM_VALID_ROW_EXT       = 1u << 18,   /* Extended bits 0-1 are row bits 16-17 */
	CPER_MEM_VALID_BANK_GROUP    = 1u << 19,   /* Bank bits 15-8 */
	CPER_MEM_VALID_BANK_ADDRESS  = 1u << 20,   /* Bank bits 7-0 */
	CPER_MEM_VALID_CHIP_ID       = 1u << 21,   /* Extended bits 7-5 */
};

static const struct cmem_u16 {
	uint32_t valid;
	unsigned offset;
	const char *key;
} cmem_u16_fields[] = {
	{ CPER_MEM_VALID_NODE,          CMEM_NODE,          "node" },
	{ CPER_MEM_VALID_CARD,          CMEM_CARD,          "card" },
	{ CPER_MEM_VALID_MODULE,        CMEM_MODULE,        "module" },
	{ CPER_MEM_VALID_DEVICE,        CMEM_DEVICE,        "device" },
	{ CPER_MEM_VALID_COLUMN,        CMEM_COLUMN,        "column" },
	{ CPER_MEM_VALID_BIT_POSITION,  CMEM_BIT_POS,       "bit_position" },
	{ CPER_MEM_VALID_RANK,          CMEM_RANK,          "rank" },
	{ CPER_MEM_VALID_CARD_HANDLE,   CMEM_CARD_HANDLE,   "card_handle" },
	{ CPER_MEM_VALID_MODULE_HANDLE, CMEM_MODULE_HANDLE, "module_handle" },
};

static const struct cmem_u64 {
	uint32_t valid;
	unsigned offset;
	const char *key;
} cmem_u64_fields[] = {
	{ CPER_MEM_VALID_REQUESTOR, CMEM_REQUESTOR, "requestor_id" },
	{ CPER_MEM_VALID_RESPONDER, CMEM_RESPONDER, "responder_id" },
	{ CPER_MEM_VALID_TARGET,    CMEM_TARGET,    "target_id" },
};

/* ------------------------------------------------------------ format */

int ras_tp_parse_symbols(const char *text, size_t len, const char *field, struct ras_tp_symbols *ret)
{
	char needle[96];
	const char *p = NULL, *end = text + len;
	size_t nlen;

	*ret = (struct ras_tp_symbols) { .n = 0 };
	nlen = (size_t) snprintf(needle, sizeof(needle), "__print_symbolic(REC->%s,", field);
	if (nlen >= sizeof(needle))
		return -EINVAL;
	for (const char *s = text; s + nlen <= end; s++)
		if (memcmp(s, needle, nlen) == 0) {
			p = s + nlen;
			break;
		}
	if (!p)
		return 0;

	for (;;) {
		struct ras_tp_symbol sym = { 0 };
		bool neg = false;
		uint64_t v = 0;
		size_t n = 0;

		while (p < end && (*p == ' ' || *p == ','))
			p++;
		if (p < end && *p == ')')
			return (int) ret->n;
		if (p >= end || *p++ != '{')
			return -EINVAL;
		while (p < end && *p == ' ')
			p++;
		if (p < end && *p == '-') {
			neg = true;
			p++;
		}
		if (p >= end || *p < '0' || *p > '9')
			return -EINVAL;
		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			if (v > (UINT64_MAX - 9) / 10)
				return -EINVAL;
			v = v * 10 + (uint64_t) (*p - '0');
		}
		if (v > INT64_MAX)
			return -EINVAL;
		sym.value = neg ? -(int64_t) v : (int64_t) v;
		while (p < end && *p == ' ')
			p++;
		if (p >= end || *p++ != ',')
			return -EINVAL;
		while (p < end && *p == ' ')
			p++;
		if (p >= end || *p++ != '"')
			return -EINVAL;
		for (; p < end && *p != '"' && *p != '\n'; p++) {
			/* The kernel's names are printable ASCII; anything else would reach the
			 * record's JSON and the journal as bytes no reader takes back the same. */
			if ((unsigned char) *p < 0x20 || (unsigned char) *p > 0x7e)
				return -EINVAL;
			if (n < sizeof(sym.text) - 1)
				sym.text[n++] = *p;
		}
		if (p >= end || *p++ != '"')
			return -EINVAL;
		while (p < end && *p == ' ')
			p++;
		if (p >= end || *p++ != '}')
			return -EINVAL;
		if (ret->n >= ELEMENTSOF(ret->s))
			return -EINVAL;
		ret->s[ret->n++] = sym;
	}
}

int ras_tp_layout_init(struct ras_tp_layout *l, enum ras_tp tp, const char *text, size_t len,
		       unsigned *ret_line, const char **ret_missing)
{
	int r;

	if ((unsigned) tp >= _RAS_TP_MAX)
		return -EINVAL;
	*l = (struct ras_tp_layout) { .tp = tp };
	r = trace_format_parse(text, len, &l->format, ret_line);
	if (r < 0)
		return r;
	for (const char *const *f = tp_info[tp].required; *f; f++)
		if (!trace_format_field(&l->format, *f)) {
			if (ret_missing)
				*ret_missing = *f;
			return -EPROTO;
		}
	if (tp == RAS_TP_MEMORY_FAILURE_EVENT && ras_tp_parse_symbols(text, len, "type", &l->page_types) < 0)
		/* A print fmt we cannot read: our 6.1 table stands in for it. */
		l->page_types.n = 0;
	return 0;
}

/* ------------------------------------------------------------ decoding */

_printf_(2, 3)
void tp_fail(struct ras_tp_ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->error)
		return;
	c->error = -EBADMSG;
	va_start(ap, fmt);
	vsnprintf(c->why, c->why_size, fmt, ap);
	va_end(ap);
}

static void outside(struct ras_tp_ctx *c, const struct trace_field *f)
{
	tp_fail(c, "field '%s' (offset %u, size %u) lies beyond the %zu-byte sample", f->name, f->offset,
	     f->size, c->size);
}

/* Reads an integer field.  false: absent (optional) or unreadable (c->error set). */
static bool integer(struct ras_tp_ctx *c, const char *name, bool is_signed, uint64_t *u, int64_t *s)
{
	const struct trace_field *f = trace_format_field(&c->l->format, name);
	int r;

	if (!f || c->error)
		return false;
	if (f->size > 8 || (f->size & (f->size - 1))) {
		tp_fail(c, "field '%s' has size %u, not an integer's", name, f->size);
		return false;
	}
	r = is_signed ? trace_field_read_s64(f, c->raw, c->size, s)
		      : trace_field_read_u64(f, c->raw, c->size, u);
	if (r < 0) {
		outside(c, f);
		return false;
	}
	return true;
}

bool tp_u(struct ras_tp_ctx *c, const char *name, uint64_t *v)
{
	return integer(c, name, false, v, NULL);
}

bool tp_s(struct ras_tp_ctx *c, const char *name, int64_t *v)
{
	return integer(c, name, true, NULL, v);
}

/* A fixed-size field of at least min bytes. */
const unsigned char *tp_bytes(struct ras_tp_ctx *c, const char *name, size_t min, size_t *ret_size)
{
	const struct trace_field *f = trace_format_field(&c->l->format, name);
	const unsigned char *p;

	if (!f || c->error)
		return NULL;
	if (f->size < min) {
		tp_fail(c, "field '%s' is %u bytes, expected at least %zu", name, f->size, min);
		return NULL;
	}
	if (trace_field_bytes(f, c->raw, c->size, &p) < 0) {
		outside(c, f);
		return NULL;
	}
	if (ret_size)
		*ret_size = f->size;
	return p;
}

/* A __data_loc field's payload. */
const unsigned char *tp_dynamic(struct ras_tp_ctx *c, const char *name, size_t *ret_len)
{
	const struct trace_field *f = trace_format_field(&c->l->format, name);
	const unsigned char *p;
	int r;

	if (!f || c->error)
		return NULL;
	r = trace_field_data_loc(f, c->raw, c->size, &p, ret_len);
	if (r == -ENOENT)
		tp_fail(c, "field '%s' is not a __data_loc field", name);
	else if (r == -EBADMSG)
		outside(c, f);
	else if (r == -ERANGE) {
		uint64_t loc = 0;

		(void) trace_field_read_u64(f, c->raw, c->size, &loc);
		tp_fail(c, "field '%s' names %u bytes at offset %u, outside the %zu-byte sample", name,
		     (unsigned) (loc >> 16), (unsigned) (loc & 0xffff), c->size);
	}
	return r < 0 ? NULL : p;
}

void tp_added(struct ras_tp_ctx *c, int r)
{
	/* -E2BIG: the record is full and says so ("truncated"); keep what fits. */
	if (r == -ENOMEM && !c->error) {
		c->error = -ENOMEM;
		snprintf(c->why, c->why_size, "out of memory");
	}
}

/*
 * Text from the kernel (labels, device names, messages): up to its NUL,
 * with anything but printable ASCII replaced, so that no journal field or
 * JSON string carries control bytes or broken UTF-8.  Empty text is omitted.
 */
void tp_add_text(struct ras_tp_ctx *c, const char *key, const unsigned char *p, size_t n)
{
	char buf[1024];
	size_t len = 0;

	if (!p)
		return;
	for (; len < n && len < sizeof(buf) - 1 && p[len]; len++)
		buf[len] = p[len] >= 0x20 && p[len] < 0x7f ? (char) p[len] : '?';
	buf[len] = '\0';
	if (len > 0)
		tp_added(c, ras_record_add_string(c->r, key, buf, len));
}

void tp_add_string_field(struct ras_tp_ctx *c, const char *key, const char *name)
{
	size_t n = 0;
	const unsigned char *p = tp_dynamic(c, name, &n);

	tp_add_text(c, key, p, n);
}

const char *tp_text_of(const struct ras_record *r, const char *key)
{
	const struct ras_field *f = ras_record_find(r, key);

	return f && f->type == RAS_FIELD_STRING ? f->data : NULL;
}

/* Sets severity and a "<key>" naming the kernel's value; unknown values are uncorrected. */
void tp_set_severity(struct ras_tp_ctx *c, const char *key, const struct sev_name *table, size_t n,
			 uint64_t v)
{
	if (v < n && table[v].name) {
		c->r->severity = table[v].severity;
		tp_added(c, ras_record_add_string(c->r, key, table[v].name, SIZE_MAX));
	} else {
		/* A value this table does not know is never reported as harmless. */
		c->r->severity = RAS_SEV_UNCORRECTED;
		tp_added(c, ras_record_add_uint(c->r, key, v));
	}
}

/* CPER severity (UEFI N.2.1), as extlog_mem_event carries it (the section's own field). */
static void set_cper_severity(struct ras_tp_ctx *c, uint64_t v)
{
	const char *name = cper_severity_name(v);

	/* Unknown: cper_severity_to_ras() says uncorrected, never harmless. */
	c->r->severity = cper_severity_to_ras(v);
	if (name)
		tp_added(c, ras_record_add_string(c->r, "cper_severity", name, SIZE_MAX));
	else
		tp_added(c, ras_record_add_uint(c->r, "cper_severity", v));
}

static void add_guid(struct ras_tp_ctx *c, const char *key, const char *name)
{
	const unsigned char *g = tp_bytes(c, name, 16, NULL);
	static const unsigned char zero[16];
	char text[CPER_GUID_STRING_MAX];
	struct cper_guid guid;

	/* The kernel passes an all-zero GUID when firmware gave none. */
	if (!g || memcmp(g, zero, 16) == 0)
		return;
	cper_guid_from_bytes(&guid, g);
	cper_guid_to_string(&guid, text);
	tp_added(c, ras_record_add_string(c->r, key, text, SIZE_MAX));
}

#define EDAC_PAGE_SHIFT 12

void tp_add_no_page(struct ras_tp_ctx *c, const char *why)
{
	tp_added(c, ras_record_add_string(c->r, "no_page", why, SIZE_MAX));
}

static void decode_mc_event(struct ras_tp_ctx *c)
{
	struct ras_record *r = c->r;
	uint64_t type = 0, count = 0, mc = 0, addr = 0, grain_bits = 0, synd = 0;
	int64_t layer[3] = { -1, -1, -1 };
	static const char *const layer_keys[3] = { "top_layer", "middle_layer", "lower_layer" };
	const char *label, *msg;
	char where[64] = "";

	tp_u(c, "error_type", &type);
	tp_set_severity(c, "error_type", mc_error_types, ELEMENTSOF(mc_error_types), type);
	if (tp_u(c, "error_count", &count))
		tp_added(c, ras_record_add_uint(r, "error_count", count));
	tp_add_string_field(c, "label", "label");
	tp_add_string_field(c, "message", "msg");
	if (tp_u(c, "mc_index", &mc))
		tp_added(c, ras_record_add_uint(r, "mc", mc));
	for (unsigned i = 0; i < 3; i++)
		/* -1: the driver does not use this layer. */
		if (tp_s(c, layer_keys[i], &layer[i]) && layer[i] >= 0)
			tp_added(c, ras_record_add_int(r, layer_keys[i], layer[i]));
	/*
	 * EDAC traces address 0 when the driver does not know it (ghes_edac
	 * without a valid physical address, amd64_edac when translation
	 * failed): that is no address, and certainly not page 0.
	 */
	if (tp_u(c, "address", &addr)) {
		if (addr != 0)
			tp_added(c, ras_record_add_hex64(r, "address", addr));
		else
			tp_add_no_page(c, "address_unknown");
	}
	if (tp_u(c, "grain_bits", &grain_bits) && grain_bits < 64) {
		tp_added(c, ras_record_add_uint(r, "grain", UINT64_C(1) << grain_bits));
		/* An address good only to more than a page names no one page. */
		if (addr != 0 && grain_bits > EDAC_PAGE_SHIFT)
			tp_add_no_page(c, "coarse_address");
	}
	if (tp_u(c, "syndrome", &synd))
		tp_added(c, ras_record_add_hex64(r, "syndrome", synd));
	tp_add_string_field(c, "driver_detail", "driver_detail");
	/* The DRAM location the driver printed there, as fields rules and the classifier read. */
	tp_added(c, ras_record_add_edac_location(r));
	if (c->error)
		return;

	label = tp_text_of(r, "label");
	msg = tp_text_of(r, "message");
	if (layer[0] >= 0)
		snprintf(where, sizeof(where), ", location %" PRId64 ":%" PRId64 ":%" PRId64,
			 layer[0], layer[1], layer[2]);
	snprintf(r->summary, sizeof(r->summary),
		 "%s memory error%s on %s (memory controller %" PRIu64 "%s, address 0x%" PRIx64 ")%s%s",
		 ras_severity_word(r->severity), count > 1 ? "s" : "", label ? label : "unknown DIMM", mc,
		 where, addr, msg ? ": " : "", msg ? msg : "");
}

void tp_flag_names(const char *const names[32], uint32_t bits, const char *sep, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned bit = 0; bit < 32; bit++) {
		int n;

		if (!(bits & (UINT32_C(1) << bit)))
			continue;
		if (names[bit])
			n = snprintf(buf + used, size - used, "%s%s", used ? sep : "", names[bit]);
		else
			n = snprintf(buf + used, size - used, "%sbit %u", used ? sep : "", bit);
		if (n < 0 || (size_t) n >= size - used)
			break;
		used += (size_t) n;
	}
}

/*
 * How much of the tracepoint's TLP header array the device logged.  Outside
 * Flit mode the Header Log is 4 dwords, followed by the TLP Prefix Log if
 * the port has one; in Flit mode it is up to 14 dwords (PCIe Base 6.0,
 * 7.8.4.12 and 7.8.4.13).  Kernels up to 6.12 pass 4 dwords; 7.3 passes an
 * array of 14 (tests/data/tracefs/7.3/ras/aer_event.format), zero past what
 * it read, and not how many it read.  So keep the 4 of the standard header
 * and after them whatever is not trailing zeros: on a port without prefix
 * or Flit logs, the record is the same on either kernel.
 */
static size_t tlp_log_size(const unsigned char *p, size_t n)
{
	static const unsigned char zero_dword[4];

	while (n > 16 && memcmp(p + n - 4, zero_dword, 4) == 0)
		n -= 4;
	return n;
}

static void decode_aer_event(struct ras_tp_ctx *c)
{
	struct ras_record *r = c->r;
	uint64_t status = 0, sev = 0, tlp_valid = 0;
	char errors[512];
	const char *dev, *bus;

	tp_add_string_field(c, "dev_name", "dev_name");
	/* Newer kernels say which protocol the link runs, "PCIe" or "CXL" (the CXL AER series). */
	tp_add_string_field(c, "bus_type", "bus_type");
	tp_u(c, "severity", &sev);
	tp_set_severity(c, "aer_severity", aer_severities, ELEMENTSOF(aer_severities), sev);
	/* Named as in the firmware's PCIe section: which of the two registers it is. */
	if (tp_u(c, "status", &status))
		tp_added(c, ras_record_add_hex(r, sev == AER_CORRECTABLE ? "correctable_status"
								     : "uncorrectable_status", status));
	tp_flag_names(sev == AER_CORRECTABLE ? aer_correctable_bits : aer_uncorrectable_bits,
		      (uint32_t) status, ", ", errors, sizeof(errors));
	if (errors[0])
		tp_added(c, ras_record_add_string(r, "errors", errors, SIZE_MAX));
	if (tp_u(c, "tlp_header_valid", &tlp_valid) && tlp_valid) {
		size_t n = 0;
		const unsigned char *p = tp_bytes(c, "tlp_header", 4, &n);

		/* The header log's bytes as they are in memory, as the firmware records give it. */
		if (p)
			tp_added(c, ras_record_add_bytes(r, "tlp_header", p, tlp_log_size(p, n)));
	}
	if (c->error)
		return;
	dev = tp_text_of(r, "dev_name");
	bus = tp_text_of(r, "bus_type");
	snprintf(r->summary, sizeof(r->summary), "%s %.8s error on %s: %.200s", ras_severity_word(r->severity),
		 bus ? bus : "PCIe", dev ? dev : "unknown device", errors[0] ? errors : "no status bit set");
}

static const char *page_type_name(const struct ras_tp_layout *l, int64_t v)
{
	if (l->page_types.n == 0)
		return v >= 0 && (uint64_t) v < ELEMENTSOF(page_types_6_1) ? page_types_6_1[v].name : NULL;
	for (unsigned i = 0; i < l->page_types.n; i++) {
		const char *text = l->page_types.s[i].text;

		if (l->page_types.s[i].value != v)
			continue;
		for (size_t k = 0; k < ELEMENTSOF(page_types_6_1); k++)
			if (streq(page_types_6_1[k].kernel_text, text))
				return page_types_6_1[k].name;
		/* A page type newer than our table: the kernel's own words. */
		return text;
	}
	return NULL;
}

static void decode_memory_failure_event(struct ras_tp_ctx *c)
{
	struct ras_record *r = c->r;
	uint64_t pfn = 0;
	int64_t type = -1, result = -1;
	const char *type_name = NULL;

	if (tp_u(c, "pfn", &pfn))
		tp_added(c, ras_record_add_hex(r, "pfn", pfn));
	if (tp_s(c, "type", &type)) {
		type_name = page_type_name(c->l, type);
		if (type_name)
			tp_added(c, ras_record_add_string(r, "page_type", type_name, SIZE_MAX));
		else
			tp_added(c, ras_record_add_int(r, "page_type_code", type));
	}
	tp_s(c, "result", &result);
	tp_set_severity(c, "result", mf_results, ELEMENTSOF(mf_results), (uint64_t) result);
	if (c->error)
		return;
	snprintf(r->summary, sizeof(r->summary), "Memory failure at pfn 0x%" PRIx64 ", page type %s: %s",
		 pfn, type_name ? type_name : "unknown",
		 result >= 0 && (uint64_t) result < ELEMENTSOF(mf_results) ? mf_results[result].name
									    : "unknown result");
}

static uint16_t le16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void decode_cper_mem_compact(struct ras_tp_ctx *c, const unsigned char *d, size_t n)
{
	struct ras_record *r = c->r;
	uint64_t valid = le64(d + CMEM_VALIDATION);
	uint64_t row;

	for (size_t i = 0; i < ELEMENTSOF(cmem_u16_fields); i++)
		if (valid & cmem_u16_fields[i].valid)
			tp_added(c, ras_record_add_uint(r, cmem_u16_fields[i].key,
						     le16(d + cmem_u16_fields[i].offset)));
	if (valid & (CPER_MEM_VALID_BANK_GROUP | CPER_MEM_VALID_BANK_ADDRESS)) {
		if (valid & CPER_MEM_VALID_BANK_GROUP)
			tp_added(c, ras_record_add_uint(r, "bank_group", le16(d + CMEM_BANK) >> 8));
		if (valid & CPER_MEM_VALID_BANK_ADDRESS)
			tp_added(c, ras_record_add_uint(r, "bank_address", le16(d + CMEM_BANK) & 0xff));
	} else if (valid & CPER_MEM_VALID_BANK)
		tp_added(c, ras_record_add_uint(r, "bank", le16(d + CMEM_BANK)));
	if (valid & CPER_MEM_VALID_ROW) {
		row = le16(d + CMEM_ROW);
		if (n > CMEM_EXTENDED && (valid & CPER_MEM_VALID_ROW_EXT))
			row |= (uint64_t) (d[CMEM_EXTENDED] & 0x3) << 16;
		tp_added(c, ras_record_add_uint(r, "row", row));
	}
	if (n > CMEM_EXTENDED && (valid & CPER_MEM_VALID_CHIP_ID))
		tp_added(c, ras_record_add_uint(r, "chip_id", d[CMEM_EXTENDED] >> 5));
	for (size_t i = 0; i < ELEMENTSOF(cmem_u64_fields); i++)
		if (valid & cmem_u64_fields[i].valid)
			tp_added(c, ras_record_add_hex64(r, cmem_u64_fields[i].key,
						      le64(d + cmem_u64_fields[i].offset)));
}

static void decode_extlog_mem_event(struct ras_tp_ctx *c)
{
	struct ras_record *r = c->r;
	uint64_t seq = 0, etype = 0xff, sev = 0, pa = UINT64_MAX, lsb = 0xff;
	const unsigned char *data;
	const char *type_name = NULL;
	size_t n = 0;
	char where[48] = "";

	tp_u(c, "sev", &sev);
	set_cper_severity(c, sev);
	if (tp_u(c, "err_seq", &seq))
		tp_added(c, ras_record_add_uint(r, "error_sequence", seq));
	/* ~0 in etype, pa and pa_mask_lsb: firmware did not mark them valid. */
	if (tp_u(c, "etype", &etype) && etype != 0xff) {
		type_name = cper_mem_error_type_name(etype);
		if (type_name)
			tp_added(c, ras_record_add_string(r, "error_type", type_name, SIZE_MAX));
		else
			tp_added(c, ras_record_add_uint(r, "error_type", etype));
	}
	if (tp_u(c, "pa", &pa) && pa != UINT64_MAX)
		tp_added(c, ras_record_add_hex64(r, "physical_address", pa));
	if (tp_u(c, "pa_mask_lsb", &lsb) && lsb != 0xff)
		tp_added(c, ras_record_add_uint(r, "physical_address_mask_lsb", lsb));
	add_guid(c, "fru_id", "fru_id");
	tp_add_string_field(c, "fru_text", "fru_text");
	data = tp_bytes(c, "data", CMEM_MIN_SIZE, &n);
	if (data)
		decode_cper_mem_compact(c, data, n);
	if (c->error)
		return;
	if (pa != UINT64_MAX)
		snprintf(where, sizeof(where), " at 0x%" PRIx64, pa);
	snprintf(r->summary, sizeof(r->summary), "%s firmware-reported memory error%s%s%s",
		 ras_severity_word(r->severity), where, type_name ? ": " : "", type_name ? type_name : "");
}

/* A length field and the __data_loc array it sizes must agree.  Returns the array (NULL: none). */
static const unsigned char *add_sized_array(struct ras_tp_ctx *c, const char *key, const char *len_name,
					    const char *buf_name, size_t *ret_n)
{
	uint64_t len = 0;
	size_t n = 0;
	const unsigned char *p;

	if (!tp_u(c, len_name, &len))
		return NULL;
	p = tp_dynamic(c, buf_name, &n);
	if (!p)
		return NULL;
	if (len != n) {
		tp_fail(c, "field '%s' says %" PRIu64 " bytes but '%s' holds %zu", len_name, len, buf_name, n);
		return NULL;
	}
	if (n > 0)
		tp_added(c, ras_record_add_bytes(c->r, key, p, n));
	*ret_n = n;
	return p;
}

/*
 * What a decoder of the bytes in buf_name found wrong: a field of its own
 * (key), never a failed sample: the record and its raw bytes are kept.
 */
static void block_problem(struct ras_tp_ctx *c, const char *key, const char *buf_name, int r,
			  const struct arm_problem *problem)
{
	char text[300];

	if (r == -ENOMEM)
		tp_added(c, -ENOMEM);
	else if (r == -EBADMSG) {
		snprintf(text, sizeof(text), "%s byte %zu: %s", buf_name, problem->offset, problem->what);
		tp_added(c, ras_record_add_string(c->r, key, text, SIZE_MAX));
	}
}

/*
 * The context structures of an arm_event.  Linux 7.3 (seen on arm64,
 * tests/vm/arm64-ghes/80) traces ctx_len as 8 bytes a context, the headers
 * alone, and the register arrays follow in oem_buf ahead of the vendor
 * bytes.  So when ctx_buf does not walk by itself, but ctx_len / 8 contexts
 * walked on into oem_buf fit, those are decoded, "ctx_from_oem" says how
 * many bytes of oem_buf they took and "vendor_data" holds the bytes after them
 * (only when each of those contexts is of a defined type with registers:
 * arm_contexts_plausible())
 * ("vendor" is the vendor decoders' name of the vendor).
 * The raw ctx and oem stay as the kernel gave them.
 */
static void decode_arm_contexts(struct ras_tp_ctx *c, const unsigned char *ctx, size_t ctx_n,
				const unsigned char *oem, size_t oem_n)
{
	uint32_t count = (uint32_t) (ctx_n / ARM_CONTEXT_HEADER_LEN);
	_cleanup_free_ unsigned char *joined = NULL;
	struct arm_problem problem;
	size_t used, span;

	if (ctx_n % ARM_CONTEXT_HEADER_LEN == 0 && oem && oem_n > 0 &&
	    arm_context_span(ctx, ctx_n, ARM_COUNT_FROM_LENGTH, &span) < 0) {
		joined = malloc(ctx_n + oem_n);
		if (!joined) {
			tp_added(c, -ENOMEM);
			return;
		}
		memcpy(joined, ctx, ctx_n);
		memcpy(joined + ctx_n, oem, oem_n);
		/*
		 * Only the kernel form (review M14): the contexts ctx_len counts as
		 * headers are each a defined type with registers.  A correct
		 * kernel's malformed firmware context would otherwise walk on into
		 * zero-filled bytes as empty contexts, and decode as nonsense.
		 */
		if (arm_context_span(joined, ctx_n + oem_n, count, &span) == 0 &&
		    arm_contexts_plausible(joined, span, count)) {
			block_problem(c, "ctx_problem", "ctx_buf",
				      arm_context_decode(c->r, joined, span, count, &used, &problem), &problem);
			tp_added(c, ras_record_add_uint(c->r, "ctx_from_oem", span - ctx_n));
			if (span < ctx_n + oem_n)
				tp_added(c, ras_record_add_bytes(c->r, "vendor_data", joined + span, ctx_n + oem_n - span));
			return;
		}
	}
	block_problem(c, "ctx_problem", "ctx_buf",
		      arm_context_decode(c->r, ctx, ctx_n, ARM_COUNT_FROM_LENGTH, &used, &problem), &problem);
}

static void decode_arm_event(struct ras_tp_ctx *c)
{
	struct ras_record *r = c->r;
	uint64_t mpidr = 0, midr = 0, running = UINT32_MAX, psci = 0, affinity = 0xff, sev;
	int64_t cpu;
	const unsigned char *pei, *ctx, *oem;
	size_t pei_n = 0, ctx_n = 0, oem_n = 0;
	struct arm_problem problem;
	char what[96] = "processor error";

	/*
	 * Kernels before the event carried "sev" give no severity at all; an
	 * error of unknown severity is never reported as harmless: uncorrected.
	 */
	if (tp_u(c, "sev", &sev))
		tp_set_severity(c, "ghes_severity", ghes_severities, ELEMENTSOF(ghes_severities), sev);
	if (tp_s(c, "cpu", &cpu) && cpu >= 0 && cpu <= UINT32_MAX) {
		r->have_cpu = true;
		r->cpu = (uint32_t) cpu;
	}
	/* ~0 in affinity, running_state and psci_state: not valid in the CPER section. */
	if (tp_u(c, "affinity", &affinity) && affinity != 0xff)
		tp_added(c, ras_record_add_uint(r, "affinity", affinity));
	if (tp_u(c, "mpidr", &mpidr))
		tp_added(c, ras_record_add_hex64(r, "mpidr", mpidr));
	if (tp_u(c, "midr", &midr))
		tp_added(c, ras_record_add_hex64(r, "midr", midr));
	if (tp_u(c, "running_state", &running) && running != UINT32_MAX) {
		tp_added(c, ras_record_add_hex(r, "running_state", running));
		if (tp_u(c, "psci_state", &psci))
			tp_added(c, ras_record_add_hex(r, "psci_state", psci));
	}
	/* Raw, under the names the firmware (BERT) ARM records use, then decoded beside them. */
	pei = add_sized_array(c, "pei", "pei_len", "pei_buf", &pei_n);
	ctx = add_sized_array(c, "ctx", "ctx_len", "ctx_buf", &ctx_n);
	oem = add_sized_array(c, "oem", "oem_len", "oem_buf", &oem_n);
	if (c->error)
		return;
	if (pei && pei_n > 0)
		block_problem(c, "pei_problem", "pei_buf",
			      arm_error_info_decode(r, pei, pei_n, ARM_COUNT_FROM_LENGTH, &problem), &problem);
	if (ctx && ctx_n > 0)
		decode_arm_contexts(c, ctx, ctx_n, oem, oem_n);
	if (c->error)
		return;
	arm_error_describe(r, what, sizeof(what));
	/* "cache error, level 2, on CPU 3": a comma after a level, none after "processor error" */
	if (r->have_cpu)
		snprintf(r->summary, sizeof(r->summary), "%s ARM %s%s on CPU %" PRIu32
			 " (MPIDR 0x%" PRIx64 ", MIDR 0x%" PRIx64 ")", ras_severity_word(r->severity), what,
			 strchr(what, ',') ? "," : "", r->cpu, mpidr, midr);
	else
		snprintf(r->summary, sizeof(r->summary), "%s ARM %s (MPIDR 0x%" PRIx64
			 ", MIDR 0x%" PRIx64 ")", ras_severity_word(r->severity), what, mpidr, midr);
}

static void decode_non_standard_event(struct ras_tp_ctx *c)
{
	struct ras_record *r = c->r;
	uint64_t sev = 0;
	const unsigned char *d, *g;
	const char *type, *name = NULL;
	size_t n = 0;
	struct arm_problem problem;
	struct cper_guid guid;
	char what[160] = "";
	int k = 0;

	tp_u(c, "sev", &sev);
	tp_set_severity(c, "ghes_severity", ghes_severities, ELEMENTSOF(ghes_severities), sev);
	add_guid(c, "section_type", "sec_type");
	add_guid(c, "fru_id", "fru_id");
	tp_add_string_field(c, "fru_text", "fru_text");
	d = add_sized_array(c, "data", "len", "buf", &n);
	g = tp_bytes(c, "sec_type", 16, NULL);
	if (c->error)
		return;
	if (g && d) {
		cper_guid_from_bytes(&guid, g);
		name = arm_vendor_section_name(&guid);
		if (name)
			tp_added(c, ras_record_add_string(r, "section_name", name, SIZE_MAX));
		k = arm_vendor_decode(&guid, r, d, n, what, sizeof(what), &problem);
		block_problem(c, "data_problem", "buf", k, &problem);
	}
	if (c->error)
		return;
	type = tp_text_of(r, "section_type");
	if (what[0])
		snprintf(r->summary, sizeof(r->summary), "%s %s (vendor section %s, %zu bytes)",
			 ras_severity_word(r->severity), what, type ? type : "unknown", n);
	else
		snprintf(r->summary, sizeof(r->summary), "%s hardware error in a vendor section (type %s, %zu bytes)",
			 ras_severity_word(r->severity), type ? type : "unknown", n);
}

static void (*const decoders[_RAS_TP_MAX])(struct ras_tp_ctx *c) = {
	[RAS_TP_MC_EVENT]             = decode_mc_event,
	[RAS_TP_AER_EVENT]            = decode_aer_event,
	[RAS_TP_MEMORY_FAILURE_EVENT] = decode_memory_failure_event,
	[RAS_TP_EXTLOG_MEM_EVENT]     = decode_extlog_mem_event,
	[RAS_TP_ARM_EVENT]            = decode_arm_event,
	[RAS_TP_NON_STANDARD_EVENT]   = decode_non_standard_event,
	[RAS_TP_CXL_AER_UNCORRECTABLE]      = cxl_decode_aer_uncorrectable,
	[RAS_TP_CXL_AER_CORRECTABLE]        = cxl_decode_aer_correctable,
	[RAS_TP_CXL_PORT_AER_UNCORRECTABLE] = cxl_decode_aer_uncorrectable,
	[RAS_TP_CXL_PORT_AER_CORRECTABLE]   = cxl_decode_aer_correctable,
	[RAS_TP_CXL_OVERFLOW]               = cxl_decode_overflow,
	[RAS_TP_CXL_GENERIC_EVENT]          = cxl_decode_generic,
	[RAS_TP_CXL_GENERAL_MEDIA]          = cxl_decode_general_media,
	[RAS_TP_CXL_DRAM]                   = cxl_decode_dram,
	[RAS_TP_CXL_MEMORY_MODULE]          = cxl_decode_memory_module,
	[RAS_TP_CXL_POISON]                 = cxl_decode_poison,
	[RAS_TP_CXL_MEMORY_SPARING]         = cxl_decode_memory_sparing,
	[RAS_TP_PCI_HP_EVENT]               = pci_decode_hp_event,
	[RAS_TP_PCIE_LINK_EVENT]            = pci_decode_link_event,
	[RAS_TP_DEVLINK_HEALTH_REPORT]      = devlink_decode_health_report,
	[RAS_TP_DEVLINK_RECOVER_ABORTED]    = devlink_decode_recover_aborted,
	[RAS_TP_SIGNAL_GENERATE]            = signal_decode_generate,
	[RAS_TP_BLOCK_RQ_ERROR]             = block_decode_rq_error,
	[RAS_TP_BLOCK_RQ_COMPLETE]          = block_decode_rq_error,
};

int ras_tp_filter(const struct ras_tp_layout *l, char *buf, size_t size)
{
	switch (l->tp) {
	case RAS_TP_SIGNAL_GENERATE:   return ras_tp_signal_filter(buf, size);
	case RAS_TP_BLOCK_RQ_COMPLETE: return ras_tp_block_complete_filter(l, buf, size);
	default:                       return -ENOENT;
	}
}

int ras_tp_decode(const struct ras_tp_layout *l, const void *raw, size_t raw_size,
		  struct ras_record *ret, char *why, size_t why_size)
{
	struct ras_tp_ctx c = {
		.l = l, .raw = raw, .size = raw_size, .r = ret, .why = why, .why_size = why_size,
	};

	if ((unsigned) l->tp >= _RAS_TP_MAX)
		return -EINVAL;
	if (why_size > 0)
		why[0] = '\0';
	ras_record_init(ret, tp_info[l->tp].event, tp_info[l->tp].source);
	decoders[l->tp](&c);
	if (c.error) {
		ras_record_done(ret);
		return c.error;
	}
	return 0;
}
