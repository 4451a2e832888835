/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "dev-mcelog-record.h"
#include "macro.h"

static uint64_t get(const uint8_t *p, unsigned size)
{
	uint64_t v = 0;

	for (unsigned i = size; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

/*
 * struct mce field offsets (arch/x86/include/uapi/asm/mce.h; x86 ABI alignment).
 * A field is taken only when the record length covers it.
 */
enum dev_mcelog_field {
	F_STATUS, F_MISC, F_ADDR, F_MCGSTATUS, F_IP, F_TSC, F_TIME, F_CPUVENDOR, F_CPUID, F_CS,
	F_BANK, F_EXTCPU, F_SOCKETID, F_APICID, F_MCGCAP, F_SYND, F_IPID, F_PPIN, F_MICROCODE,
};

static const struct {
	uint8_t off, size;
} layout[] = {
	[F_STATUS]    = { 0, 8 },
	[F_MISC]      = { 8, 8 },
	[F_ADDR]      = { 16, 8 },
	[F_MCGSTATUS] = { 24, 8 },
	[F_IP]        = { 32, 8 },
	[F_TSC]       = { 40, 8 },
	[F_TIME]      = { 48, 8 },    /* wall-clock time_t */
	[F_CPUVENDOR] = { 56, 1 },    /* the kernel's X86_VENDOR_* */
	[F_CPUID]     = { 60, 4 },    /* CPUID(1).EAX */
	[F_CS]        = { 64, 1 },
	[F_BANK]      = { 65, 1 },
	[F_EXTCPU]    = { 68, 4 },
	[F_SOCKETID]  = { 72, 4 },
	[F_APICID]    = { 76, 4 },
	[F_MCGCAP]    = { 80, 8 },
	[F_SYND]      = { 88, 8 },
	[F_IPID]      = { 96, 8 },
	[F_PPIN]      = { 104, 8 },
	[F_MICROCODE] = { 112, 4 },
};

int dev_mcelog_record_parse(const void *buf, size_t record_len, struct mce_record *ret)
{
	const uint8_t *p = buf;
	struct mce_record r = { .source = MCE_SOURCE_DEV_MCELOG };
	uint64_t v[ELEMENTSOF(layout)];
	bool have[ELEMENTSOF(layout)];

	if (record_len < DEV_MCELOG_RECORD_MIN)
		return -EINVAL;
	for (size_t i = 0; i < ELEMENTSOF(layout); i++) {
		have[i] = (size_t) layout[i].off + layout[i].size <= record_len;
		v[i] = have[i] ? get(p + layout[i].off, layout[i].size) : 0;
	}

	r.status = v[F_STATUS];
	r.misc = v[F_MISC];
	r.addr = v[F_ADDR];
	r.mcgstatus = v[F_MCGSTATUS];
	r.ip = v[F_IP];
	r.tsc = v[F_TSC];
	r.cs = (uint8_t) v[F_CS];
	r.bank = (uint32_t) v[F_BANK];
	r.cpu = (uint32_t) v[F_EXTCPU];
	/* Known the same way as in the tracepoint's record (mce-trace.c), so one error
	 * renders the same from either source: the kernel fills ADDR/MISC even when zero. */
	r.have = MCE_HAVE_STATUS | MCE_HAVE_MCGSTATUS | MCE_HAVE_TSC | MCE_HAVE_BANK | MCE_HAVE_CPU |
		 MCE_HAVE_ADDR | MCE_HAVE_MISC;
	if (r.ip)
		r.have |= MCE_HAVE_IP | MCE_HAVE_CS;
	if (v[F_TIME] > 0 && v[F_TIME] < INT64_MAX / 1000000) {
		r.time_usec = (int64_t) v[F_TIME] * 1000000;
		r.have |= MCE_HAVE_TIME;
	}
	r.vendor = mce_vendor_from_linux_x86((unsigned) v[F_CPUVENDOR]);
	if (r.vendor != MCE_VENDOR_UNKNOWN)
		r.have |= MCE_HAVE_VENDOR;
	if (v[F_CPUID])
		mce_record_set_cpuid(&r, (uint32_t) v[F_CPUID]);
	if (have[F_SOCKETID]) {
		r.socket = (uint32_t) v[F_SOCKETID];
		r.have |= MCE_HAVE_SOCKET;
	}
	if (have[F_APICID]) {
		r.apicid = (uint32_t) v[F_APICID];
		r.have |= MCE_HAVE_APICID;
	}
	if (have[F_MCGCAP]) {
		r.mcgcap = v[F_MCGCAP];
		r.have |= MCE_HAVE_MCGCAP;
	}
	if (have[F_SYND]) {
		r.synd = v[F_SYND];
		r.have |= MCE_HAVE_SYND;
	}
	if (have[F_IPID]) {
		r.ipid = v[F_IPID];
		r.have |= MCE_HAVE_IPID;
	}
	if (v[F_PPIN]) {
		r.ppin = v[F_PPIN];
		r.have |= MCE_HAVE_PPIN;
	}
	if (v[F_MICROCODE]) {
		r.microcode = (uint32_t) v[F_MICROCODE];
		r.have |= MCE_HAVE_MICROCODE;
	}
	*ret = r;
	return 0;
}
