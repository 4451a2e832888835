/* SPDX-License-Identifier: MIT */
/*
 * snapshot.rtit: the Intel PT (RTIT) registers of the record's CPU, read
 * through /dev/cpu/N/msr at the moment the record is processed, decoded by
 * decoders/rtit.c, with the PT capabilities of the intel_pt PMU.  Only where
 * the CPU has PT (the intel_pt flag); everywhere else {"unavailable": why}.
 */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "intel-pt-pmu.h"
#include "json-writer.h"
#include "log.h"
#include "macro.h"
#include "pt-providers.h"
#include "pt-sysfs.h"
#include "rtit.h"

struct rtit_state {
	const char *unavailable;          /* NULL: the CPUs have PT */
	struct intel_pt_pmu pmu;
	bool have_pmu;
	unsigned n_addr_ranges;
	uint64_t n_annotated, n_unavailable;
};

static int rtit_open(const struct snapshot_params *p, void **ret)
{
	_cleanup_free_ struct rtit_state *s = calloc(1, sizeof(*s));
	uint64_t ranges;

	(void) p;
	if (!s)
		return -ENOMEM;
	s->unavailable = intel_pt_unavailable();
	if (!s->unavailable) {
		/* The caps say how many address ranges ADDRn_A/B exist; without the PMU,
		 * the architectural minimum of what the MSRs can be read for is none. */
		s->have_pmu = intel_pt_sysfs_read(INTEL_PT_SYSFS, &s->pmu, NULL, 0) == 0;
		if (s->have_pmu && intel_pt_pmu_cap(&s->pmu, "num_address_ranges", &ranges) == 0)
			s->n_addr_ranges = ranges > RTIT_ADDR_RANGES_MAX ? RTIT_ADDR_RANGES_MAX : (unsigned) ranges;
	}
	log_debug("snapshot rtit: %s", s->unavailable ?: "Intel PT present");
	*ret = TAKE_PTR(s);
	return 0;
}

static void rtit_close(void *p)
{
	free(p);
}

#define unavailable(s, out, ...) \
	((s)->n_unavailable++, snapshot_out_unavailable((out), "rtit", __VA_ARGS__))

static void put_caps(const struct rtit_state *s, struct json_writer *w)
{
	if (!s->have_pmu) {
		json_put_string(w, "caps", "unavailable: no intel_pt PMU in sysfs");
		return;
	}
	json_object_begin(w, "caps");
	for (size_t i = 0; i < s->pmu.n_caps; i++)
		json_put_u64(w, s->pmu.caps[i].name, s->pmu.caps[i].value);
	json_object_end(w);
}

static void rtit_annotate(void *p, const struct snapshot_subject *sub, struct snapshot_out *out)
{
	struct rtit_state *s = p;
	struct rtit_regs regs = { .n_addr_ranges = s->n_addr_ranges };
	_cleanup_close_ int fd = -1;
	char path[64];
	int read_errno = 0;

	if (s->unavailable) {
		unavailable(s, out, "%s", s->unavailable);
		return;
	}
	if (!sub->have_cpu) {
		unavailable(s, out, "the record names no CPU");
		return;
	}
	snprintf(path, sizeof(path), "/dev/cpu/%u/msr", sub->cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		unavailable(s, out, "%s: %s", path,
			    e == ENOENT ? "missing (the msr module is not loaded, or the CPU is offline)" :
			    e == EACCES || e == EPERM ? "no permission (reading MSRs needs CAP_SYS_RAWIO)" :
			    strerror(e));
		return;
	}
	/* pread at the MSR number reads it on that CPU (the msr driver's ABI). */
	for (size_t m = 0; m < _RTIT_MSR_MAX; m++) {
		uint64_t v;

		if (m >= RTIT_ADDR0_A && (m - RTIT_ADDR0_A) / 2 >= s->n_addr_ranges)
			break;
		if (pread(fd, &v, sizeof(v), rtit_msrs[m].address) == (ssize_t) sizeof(v)) {
			regs.v[m] = v;
			regs.have |= 1u << m;
		} else if (!read_errno) {
			read_errno = errno ? errno : EIO;
		}
	}
	if (!(regs.have & (1u << RTIT_CTL))) {
		unavailable(s, out, "reading IA32_RTIT_CTL (MSR 0x570) of CPU %u failed: %s", sub->cpu,
			    strerror(read_errno));
		return;
	}
	s->n_annotated++;
	json_object_begin(out->json, "rtit");
	json_put_u64(out->json, "cpu", sub->cpu);
	rtit_decode_json(&regs, out->json);
	put_caps(s, out->json);
	json_object_end(out->json);
	snapshot_out_field(out, "SNAPSHOT_RTIT_CTL", "0x%016" PRIx64, regs.v[RTIT_CTL]);
}

static void rtit_status(void *p, struct json_writer *w)
{
	struct rtit_state *s = p;

	json_put_u64(w, "annotated", s->n_annotated);
	json_put_u64(w, "unavailable_records", s->n_unavailable);
}

static const char *rtit_unavailable(void *p)
{
	return ((struct rtit_state *) p)->unavailable;
}

const struct snapshot_ops snapshot_rtit_ops = {
	.name = "rtit",
	.open = rtit_open,
	.close = rtit_close,
	.annotate = rtit_annotate,
	.status = rtit_status,
	.unavailable = rtit_unavailable,
};
