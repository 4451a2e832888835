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

/* Returns 0, or -EBADMSG if raw is too short for a required field. */
int mce_trace_to_record(const struct mce_trace_layout *l, const void *raw, size_t raw_size,
			struct mce_record *ret);
