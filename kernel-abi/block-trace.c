/* SPDX-License-Identifier: MIT */
/*
 * block:block_rq_error (Linux 5.18, "block: introduce block_rq_error
 * tracepoint") and block:block_rq_complete (include/trace/events/block.h,
 * class block_rq_completion) → struct ras_record: a disk request that failed.
 * block_rq_error fires only for failed requests; block_rq_complete fires for
 * every request, so on kernels before 5.18 the source reads it only through
 * a kernel filter on its error field (ras_tp_filter()) and never unfiltered.
 *
 * dev is the kernel's dev_t: major in the bits above 20, minor in the low 20
 * (include/linux/kdev_t.h MINORBITS), not the user-space encoding.  error is
 * blk_status_to_errno() of the request's status: a negative errno whose
 * meaning for a disk is the kernel's table of block errors (block/blk-core.c
 * blk_errors[]).  Kernels before 4.12 called the field "errors".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "macro.h"
#include "ras-trace-ctx.h"

#define KERNEL_MINOR_BITS 20

/* The block layer's errno → what failed, after blk_errors[] in block/blk-core.c. */
static const struct block_error {
	int errno_value;
	const char *name;
	const char *words;
} block_errors[] = {
	{ EOPNOTSUPP, "not_supported",   "operation not supported" },
	{ ETIMEDOUT,  "timeout",         "timeout" },
	{ ENOSPC,     "space",           "critical space allocation" },
	{ ENOLINK,    "transport",       "recoverable transport" },
	{ EREMOTEIO,  "target",          "critical target" },
	{ EBADE,      "nexus",           "critical nexus" },
	{ ENODATA,    "medium",          "critical medium" },
	{ EILSEQ,     "protection",      "protection" },
	{ ENOMEM,     "kernel_resource", "kernel resource" },
	{ EBUSY,      "device_resource", "device resource" },
	{ EAGAIN,     "retry",           "nonblocking retry" },
	{ EIO,        "io",              "I/O" },
};

static const struct block_error *block_error_of(int64_t error)
{
	for (size_t i = 0; i < ELEMENTSOF(block_errors); i++)
		if (error == -(int64_t) block_errors[i].errno_value)
			return &block_errors[i];
	return NULL;
}

int ras_tp_block_complete_filter(const struct ras_tp_layout *l, char *buf, size_t size)
{
	const char *field = trace_format_field(&l->format, "error") ? "error" : "errors";
	int n = snprintf(buf, size, "%s != 0", field);

	return n < 0 || (size_t) n >= size ? -ENOBUFS : 0;
}

void block_decode_rq_error(struct ras_tp_ctx *c)
{
	struct ras_record *r = c->r;
	uint64_t dev = 0, sector = 0, nr_sector = 0;
	int64_t error = 0;
	const struct block_error *e;
	const unsigned char *p;
	const char *rwbs;
	char devname[32];
	size_t n = 0;
	bool have_error;

	tp_u(c, "dev", &dev);
	tp_u(c, "sector", &sector);
	tp_u(c, "nr_sector", &nr_sector);
	have_error = tp_s(c, "error", &error) || tp_s(c, "errors", &error);
	snprintf(devname, sizeof(devname), "%" PRIu64 ":%" PRIu64, dev >> KERNEL_MINOR_BITS,
		 dev & ((UINT64_C(1) << KERNEL_MINOR_BITS) - 1));
	tp_added(c, ras_record_add_string(r, "dev", devname, SIZE_MAX));
	tp_added(c, ras_record_add_uint(r, "sector", sector));
	tp_added(c, ras_record_add_uint(r, "nr_sector", nr_sector));
	e = have_error ? block_error_of(error) : NULL;
	if (have_error)
		tp_added(c, ras_record_add_int(r, "error", error));
	if (e)
		tp_added(c, ras_record_add_string(r, "error_type", e->name, SIZE_MAX));
	p = tp_bytes(c, "rwbs", 1, &n);
	tp_add_text(c, "rwbs", p, n);
	/* The SCSI command of a passthrough request; newer kernels leave it empty. */
	tp_add_string_field(c, "cmd", "cmd");
	/* The request failed and what it carried was not read or not written. */
	r->severity = RAS_SEV_UNCORRECTED;
	if (c->error)
		return;
	rwbs = tp_text_of(r, "rwbs");
	if (e)
		snprintf(r->summary, sizeof(r->summary), "Disk %s: %s error, %s sector %" PRIu64 " + %" PRIu64,
			 devname, e->words, rwbs ? rwbs : "?", sector, nr_sector);
	else
		snprintf(r->summary, sizeof(r->summary), "Disk %s: error %" PRId64 ", %s sector %" PRIu64 " + %"
			 PRIu64, devname, error, rwbs ? rwbs : "?", sector, nr_sector);
}
