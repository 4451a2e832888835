/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * mce:mce_record tracepoint samples → struct mce_record.  Pure: the source
 * (mcelogd/sources/tracepoint.c) does the perf I/O and hands raw bytes here.
 */

#include <stddef.h>

#include "record.h"
#include "tracefs-format.h"

/* The fields we use, resolved once from the format file; NULL = this kernel lacks it. */
struct mce_trace_layout {
	const struct trace_field *mcgcap, *mcgstatus, *status, *addr, *misc, *synd, *ipid,
				 *ip, *tsc, *ppin, *walltime, *cpu, *cpuid, *apicid, *socketid,
				 *cs, *bank, *cpuvendor, *microcode;
	/* The vendor data (6.13 and later): a __data_loc u8[], NULL if absent or not one. */
	const struct trace_field *v_data;
	uint32_t min_size;   /* a sample shorter than this cannot hold the required fields */
};

/*
 * Resolves the layout.  status, bank and cpu are required: -EPROTO names the
 * first missing one in *ret_missing, -EDOM the first whose size is not an
 * integer's (1, 2, 4 or 8 bytes).  Everything else is optional; an optional
 * field of such a size is left out, as if the kernel lacked it.
 */
int mce_trace_layout_init(struct mce_trace_layout *l, const struct trace_format *f,
			  const char **ret_missing);

/*
 * Returns 0, or -EBADMSG if raw is too short for a required field.  The
 * vendor data is not read here: mce_trace_vendor_data() does that.
 */
int mce_trace_to_record(const struct mce_trace_layout *l, const void *raw, size_t raw_size,
			struct mce_record *ret);

/*
 * The vendor data of a sample (v_data, the kernel's struct mce_hw_err vendor
 * union copied whole) into r, which mce_trace_to_record() filled from the
 * same sample: AMD's MCA_SYND1 and MCA_SYND2, as mce_record_set_vendor_data()
 * reads them.  Returns 0 (r has them, or there were none: all zero, another
 * vendor's, a kernel without v_data); -ERANGE or -EMSGSIZE with the reason
 * in why when v_data names bytes outside the sample or is shorter than the
 * two registers: r is then unchanged and still good.
 */
int mce_trace_vendor_data(const struct mce_trace_layout *l, const void *raw, size_t raw_size,
			  struct mce_record *r, char *why, size_t why_size);
