/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>

#include "mce-trace.h"

static bool integer_size(const struct trace_field *f)
{
	return f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8;
}

int mce_trace_layout_init(struct mce_trace_layout *l, const struct trace_format *f,
			  const char **ret_missing)
{
	static const char *const required[] = { "status", "bank", "cpu" };

	*l = (struct mce_trace_layout) {
		.mcgcap = trace_format_field(f, "mcgcap"),
		.mcgstatus = trace_format_field(f, "mcgstatus"),
		.status = trace_format_field(f, "status"),
		.addr = trace_format_field(f, "addr"),
		.misc = trace_format_field(f, "misc"),
		.synd = trace_format_field(f, "synd"),
		.ipid = trace_format_field(f, "ipid"),
		.ip = trace_format_field(f, "ip"),
		.tsc = trace_format_field(f, "tsc"),
		.ppin = trace_format_field(f, "ppin"),
		.walltime = trace_format_field(f, "walltime"),
		.cpu = trace_format_field(f, "cpu"),
		.cpuid = trace_format_field(f, "cpuid"),
		.apicid = trace_format_field(f, "apicid"),
		.socketid = trace_format_field(f, "socketid"),
		.cs = trace_format_field(f, "cs"),
		.bank = trace_format_field(f, "bank"),
		.cpuvendor = trace_format_field(f, "cpuvendor"),
		.microcode = trace_format_field(f, "microcode"),
		.v_data = trace_format_field(f, "v_data"),
	};
	/* Only a __data_loc array is the vendor data the kernel defines; anything else, unread. */
	if (l->v_data && !(l->v_data->is_data_loc && l->v_data->size == 4))
		l->v_data = NULL;
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		const struct trace_field *field = trace_format_field(f, required[i]);

		if (!field || !integer_size(field)) {
			if (ret_missing)
				*ret_missing = required[i];
			return field ? -EDOM : -EPROTO;
		}
	}
	/* An optional field of a size no integer has is one we cannot read: as if absent. */
	const struct trace_field **optional[] = {
		&l->mcgcap, &l->mcgstatus, &l->addr, &l->misc, &l->synd, &l->ipid, &l->ip, &l->tsc,
		&l->ppin, &l->walltime, &l->cpuid, &l->apicid, &l->socketid, &l->cs, &l->cpuvendor,
		&l->microcode,
	};
	for (size_t i = 0; i < sizeof(optional) / sizeof(optional[0]); i++)
		if (*optional[i] && !integer_size(*optional[i]))
			*optional[i] = NULL;
	const struct trace_field *req[] = { l->status, l->bank, l->cpu };
	for (size_t i = 0; i < 3; i++)
		if (req[i]->offset + req[i]->size > l->min_size)
			l->min_size = req[i]->offset + req[i]->size;
	return 0;
}

/* Optional field: sets the have bit only when the kernel provides it and the sample holds it. */
static bool get(const struct trace_field *f, const void *raw, size_t size, uint64_t *v)
{
	return f && trace_field_read_u64(f, raw, size, v) == 0;
}

int mce_trace_to_record(const struct mce_trace_layout *l, const void *raw, size_t raw_size,
			struct mce_record *ret)
{
	struct mce_record r = { .source = MCE_SOURCE_TRACEPOINT };
	uint64_t v;

	if (raw_size < l->min_size)
		return -EBADMSG;

	get(l->status, raw, raw_size, &r.status);
	r.have |= MCE_HAVE_STATUS;
	get(l->bank, raw, raw_size, &v);
	r.bank = (uint32_t) v;
	r.have |= MCE_HAVE_BANK;
	get(l->cpu, raw, raw_size, &v);
	r.cpu = (uint32_t) v;
	r.have |= MCE_HAVE_CPU;

	if (get(l->mcgcap, raw, raw_size, &r.mcgcap))
		r.have |= MCE_HAVE_MCGCAP;
	if (get(l->mcgstatus, raw, raw_size, &r.mcgstatus))
		r.have |= MCE_HAVE_MCGSTATUS;
	/* The kernel always emits these registers; a zero ADDR/MISC/SYND/IPID is
	 * still a value the kernel read (or chose), so we keep it as known. */
	if (get(l->addr, raw, raw_size, &r.addr))
		r.have |= MCE_HAVE_ADDR;
	if (get(l->misc, raw, raw_size, &r.misc))
		r.have |= MCE_HAVE_MISC;
	if (get(l->synd, raw, raw_size, &r.synd))
		r.have |= MCE_HAVE_SYND;
	if (get(l->ipid, raw, raw_size, &r.ipid))
		r.have |= MCE_HAVE_IPID;
	if (get(l->ip, raw, raw_size, &r.ip) && r.ip)
		r.have |= MCE_HAVE_IP;
	/* 0: the kernel read no TSC (its corrected-error poll leaves it so). */
	if (get(l->tsc, raw, raw_size, &r.tsc) && r.tsc)
		r.have |= MCE_HAVE_TSC;
	if (get(l->ppin, raw, raw_size, &r.ppin) && r.ppin)
		r.have |= MCE_HAVE_PPIN;   /* 0 means the CPU has no PPIN, not PPIN 0 */
	/* As for /dev/mcelog records: seconds beyond what microseconds hold in
	 * an int64_t (year 294,000 and later) are no time the kernel read. */
	if (get(l->walltime, raw, raw_size, &v) && v && v < INT64_MAX / 1000000) {
		r.time_usec = (int64_t) v * 1000000;
		r.have |= MCE_HAVE_TIME;
	}
	if (get(l->cpuid, raw, raw_size, &v) && v)
		mce_record_set_cpuid(&r, (uint32_t) v);
	if (get(l->apicid, raw, raw_size, &v)) {
		r.apicid = (uint32_t) v;
		r.have |= MCE_HAVE_APICID;
	}
	if (get(l->socketid, raw, raw_size, &v)) {
		r.socket = (uint32_t) v;
		r.have |= MCE_HAVE_SOCKET;
	}
	if (get(l->cs, raw, raw_size, &v) && r.ip) {
		r.cs = (uint8_t) v;
		r.have |= MCE_HAVE_CS;
	}
	if (get(l->cpuvendor, raw, raw_size, &v)) {
		r.vendor = mce_vendor_from_linux_x86((unsigned) v);
		if (r.vendor != MCE_VENDOR_UNKNOWN)
			r.have |= MCE_HAVE_VENDOR;
	}
	if (get(l->microcode, raw, raw_size, &v) && v) {
		r.microcode = (uint32_t) v;
		r.have |= MCE_HAVE_MICROCODE;
	}
	*ret = r;
	return 0;
}

int mce_trace_vendor_data(const struct mce_trace_layout *l, const void *raw, size_t raw_size,
			  struct mce_record *r, char *why, size_t why_size)
{
	const unsigned char *p;
	uint64_t loc = 0;
	size_t len;

	if (why_size > 0)
		why[0] = '\0';
	if (!l->v_data)
		return 0;
	if (trace_field_data_loc(l->v_data, raw, raw_size, &p, &len) < 0) {
		(void) trace_field_read_u64(l->v_data, raw, raw_size, &loc);
		snprintf(why, why_size, "v_data names %u bytes at offset %u, outside the %zu-byte sample",
			 (unsigned) (loc >> 16), (unsigned) (loc & 0xffff), raw_size);
		return -ERANGE;
	}
	if (mce_record_set_vendor_data(r, p, len) < 0) {
		snprintf(why, why_size, "v_data holds %zu bytes, fewer than MCA_SYND1 and MCA_SYND2 take (16)",
			 len);
		return -EMSGSIZE;
	}
	return 0;
}
