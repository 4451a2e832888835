/* SPDX-License-Identifier: MIT */
/*
 * snapshot.pt: the Intel PT flight recorder, opt-in ([Snapshot]
 * ProcessorTrace=yes).  Every online CPU runs intel_pt into a bounded AUX
 * buffer in overwrite mode (pt-recorder.c).  For a record, the record's CPU
 * is frozen, its trace copied and saved under <state>/pt/ with what decoding
 * needs (lib/pt-file.h), and the record references the file and says whether
 * the trace reaches back to the error.  `mcectl pt FILE` decodes it.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu-list.h"
#include "daemon-config.h"
#include "fd-budget.h"
#include "file-io.h"
#include "intel-pt-pmu.h"
#include "json-writer.h"
#include "log.h"
#include "macro.h"
#include "pt-decode.h"
#include "pt-file.h"
#include "pt-providers.h"
#include "pt-recorder.h"
#include "pt-sysfs.h"
#include "source.h"

#define PT_PSB_PERIOD 3            /* a PSB every 2^(3+11) = 16 KiB: a copy syncs soon */

struct pt_cpu_slot {
	struct pt_recorder_cpu rec;
	const char *why;               /* NULL while rec is open */
	int error;
};

struct pt_state {
	struct pt_recorder_config config;
	char dir[4096];
	const char *unavailable;       /* NULL: the recorders could be opened */
	struct perf_event_attr attr;
	struct intel_pt_pmu pmu;
	char caps[PT_FILE_CAPS_MAX];
	struct pt_cpu_slot *cpus;
	size_t n_cpus;
	uint64_t n_saved, n_unavailable;
	char last_error[192];
	char budget_note[160];         /* why the descriptor budget left no room */
};

static void read_config(const struct snapshot_params *p, struct pt_recorder_config *c)
{
	const struct snapshot_config *sc = &p->config->snapshot;

	*c = (struct pt_recorder_config) {
		.enable = sc->processor_trace,
		.buffer_size = sc->pt_buffer_size,
		.max_files = sc->pt_max_files,
		.max_bytes = sc->pt_max_bytes,
	};
}

static void open_cpu(struct pt_state *s, unsigned cpu)
{
	struct pt_cpu_slot *slot = &s->cpus[cpu];
	int r;

	if (slot->rec.fd >= 0)
		return;
	r = pt_recorder_open(&s->attr, cpu, s->config.buffer_size, &slot->rec, &slot->why);
	slot->error = r;
	if (r < 0)
		log_warning_errno(r, "PT recorder on CPU %u: %s: %m", cpu, slot->why);
}

static void pt_close(void *p)
{
	struct pt_state *s = p;

	if (!s)
		return;
	for (size_t i = 0; i < s->n_cpus; i++)
		pt_recorder_close(&s->cpus[i].rec);
	free(s->cpus);
	free(s);
}

static int pt_open(const struct snapshot_params *p, void **ret)
{
	static bool online[CPU_LIST_MAX];
	struct pt_state *s;
	const char *missing;
	int r;

	*ret = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	read_config(p, &s->config);
	if (!s->config.enable) {
		free(s);
		return 0;
	}
	snprintf(s->dir, sizeof(s->dir), "%s/pt", p->paths && p->paths->state_directory ?
		 p->paths->state_directory : LOCALSTATEDIR "/lib/mcelogd");

	s->unavailable = intel_pt_unavailable();
	if (!s->unavailable) {
		r = intel_pt_sysfs_read(INTEL_PT_SYSFS, &s->pmu, s->caps, sizeof(s->caps));
		if (r < 0)
			s->unavailable = "the kernel has no intel_pt PMU (" INTEL_PT_SYSFS " is missing)";
	}
	if (!s->unavailable) {
		r = intel_pt_build_attr(&s->pmu, PT_PSB_PERIOD, &s->attr, &missing);
		if (r < 0)
			s->unavailable = "the intel_pt PMU lacks a format the recorder needs (pt, tsc, branch)";
	}
	if (s->unavailable) {
		log_info("PT flight recorder: unavailable: %s", s->unavailable);
		*ret = s;
		return 0;
	}

	r = read_cpu_list_file("/sys/devices/system/cpu/online", online, ELEMENTSOF(online));
	if (r <= 0) {
		pt_close(s);
		return log_error_errno(r < 0 ? r : -EINVAL, "Cannot read /sys/devices/system/cpu/online: %m");
	}
	for (size_t i = 0; i < ELEMENTSOF(online); i++)
		if (online[i])
			s->n_cpus = i + 1;
	/* One descriptor per CPU: all or none, since a CPU without its recorder is a gap. */
	if (p->fds && fd_budget_per_cpu(fd_budget_left(p->fds), s->n_cpus, 1) == 0) {
		snprintf(s->budget_note, sizeof(s->budget_note), "too few file descriptors left for "
			 "%zu CPU(s) after the record sources (RLIMIT_NOFILE %" PRIu64 ")",
			 s->n_cpus, p->fds->limit);
		s->unavailable = s->budget_note;
		log_warning("PT flight recorder: off: %s", s->unavailable);
		*ret = s;
		return 0;
	}
	if (p->fds)
		fd_budget_take(p->fds, s->n_cpus);
	s->cpus = calloc(s->n_cpus, sizeof(*s->cpus));
	if (!s->cpus) {
		pt_close(s);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->n_cpus; i++) {
		s->cpus[i].rec = (struct pt_recorder_cpu) { .fd = -1, .cpu = (unsigned) i };
		s->cpus[i].why = "CPU offline";
		if (online[i])
			open_cpu(s, (unsigned) i);
	}
	log_info("PT flight recorder: %" PRIu64 " KiB per CPU, files in %s (at most %u, %" PRIu64 " MiB)",
		 s->config.buffer_size >> 10, s->dir, s->config.max_files, s->config.max_bytes >> 20);
	*ret = s;
	return 0;
}

#define unavailable(s, out, ...) \
	((s)->n_unavailable++, snapshot_out_unavailable((out), "pt", __VA_ARGS__))

static void pt_annotate(void *p, const struct snapshot_subject *sub, struct snapshot_out *out)
{
	struct pt_state *s = p;
	struct pt_cpu_slot *slot;
	struct pt_copy copy;
	uint64_t tsc_first = 0;
	bool have_tsc;
	uint8_t header[PT_FILE_FIXED_BYTES + PT_FILE_CAPS_MAX];
	struct pt_file_info info;
	char path[4200];
	bool have_error_tsc = sub->tsc != 0;
	int r, h;

	if (s->unavailable) {
		unavailable(s, out, "%s", s->unavailable);
		return;
	}
	if (!sub->have_cpu) {
		unavailable(s, out, "the record names no CPU");
		return;
	}
	if (sub->cpu >= s->n_cpus || s->cpus[sub->cpu].rec.fd < 0) {
		unavailable(s, out, "no PT recorder on CPU %u: %s", sub->cpu,
			    sub->cpu < s->n_cpus ? s->cpus[sub->cpu].why : "CPU unknown");
		return;
	}
	slot = &s->cpus[sub->cpu];
	r = pt_recorder_copy(&slot->rec, &copy);
	if (r < 0 || copy.len == 0) {
		unavailable(s, out, "%s", r < 0 ? strerror(-r) : "the trace buffer is still empty");
		pt_copy_done(&copy);
		return;
	}
	/* Where the kept trace begins in time: its first TSC packet; it ends at the freeze. */
	have_tsc = pt_first_tsc(copy.data, copy.len, &tsc_first) == 0;
	info = (struct pt_file_info) {
		.cpu = sub->cpu,
		.aux_flags = copy.wrapped ? PERF_AUX_FLAG_OVERWRITE : 0,
		.tsc_begin = tsc_first,
		.tsc_end = copy.freeze_tsc,
		.error_tsc = have_error_tsc ? sub->tsc : 0,
		.time_zero = copy.time_conv.time_zero,
		.time_mult = copy.time_conv.time_mult,
		.time_shift = copy.time_conv.time_shift,
		.flags = (copy.time_conv.valid ? PT_FILE_HAVE_TIME_CONV : 0) |
			 (have_tsc && copy.freeze_tsc ? PT_FILE_HAVE_TSC_RANGE : 0) | (have_error_tsc ? PT_FILE_HAVE_ERROR_TSC : 0),
		.trace_bytes = copy.len,
		.caps = s->caps,
		.caps_bytes = (uint32_t) strlen(s->caps),
	};
	h = pt_file_header_encode(&info, header, sizeof(header));
	r = h < 0 ? h : pt_file_save(s->dir, sub->cpu, header, (size_t) h, copy.data, copy.len,
				     s->config.max_files, s->config.max_bytes, path, sizeof(path));
	if (r < 0) {
		snprintf(s->last_error, sizeof(s->last_error), "saving in %.100s: %s", s->dir, strerror(-r));
		unavailable(s, out, "%s", s->last_error);
	} else {
		s->n_saved++;
		json_object_begin(out->json, "pt");
		json_put_u64(out->json, "cpu", sub->cpu);
		json_put_string(out->json, "file", path);
		json_put_u64(out->json, "bytes", copy.len);
		json_put_bool(out->json, "wrapped", copy.wrapped);
		if (info.flags & PT_FILE_HAVE_TSC_RANGE) {
			json_array_begin(out->json, "tsc_range");
			json_put_u64(out->json, NULL, info.tsc_begin);
			json_put_u64(out->json, NULL, info.tsc_end);
			json_array_end(out->json);
		}
		/* Does the trace reach back to the error?  Only the TSC can say. */
		if (have_error_tsc && (info.flags & PT_FILE_HAVE_TSC_RANGE))
			json_put_bool(out->json, "covers_error", tsc_first <= sub->tsc && sub->tsc <= info.tsc_end);
		else
			json_put_string(out->json, "covers_error", "unknown: no TSC in the record or the trace");
		json_object_end(out->json);
		snapshot_out_field(out, "SNAPSHOT_PT_FILE", "%s", path);
	}
	pt_copy_done(&copy);
}

static void pt_cpu_online(void *p, unsigned cpu)
{
	struct pt_state *s = p;

	if (!s->unavailable && cpu < s->n_cpus)
		open_cpu(s, cpu);
}

static void pt_cpu_offline(void *p, unsigned cpu)
{
	struct pt_state *s = p;

	if (cpu < s->n_cpus) {
		pt_recorder_close(&s->cpus[cpu].rec);
		s->cpus[cpu].why = "CPU offline";
	}
}

static void pt_status(void *p, struct json_writer *w)
{
	struct pt_state *s = p;
	size_t open = 0;

	if (s->unavailable) {
		json_put_string(w, "unavailable", s->unavailable);
		return;
	}
	for (size_t i = 0; i < s->n_cpus; i++)
		open += s->cpus[i].rec.fd >= 0;
	json_put_u64(w, "cpus_recording", open);
	json_put_u64(w, "buffer_bytes", s->config.buffer_size);
	json_put_string(w, "directory", s->dir);
	json_put_u64(w, "saved", s->n_saved);
	json_put_u64(w, "unavailable_records", s->n_unavailable);
	if (s->last_error[0])
		json_put_string(w, "last_error", s->last_error);
}

const struct snapshot_ops snapshot_pt_ops = {
	.name = "pt",
	.open = pt_open,
	.close = pt_close,
	.annotate = pt_annotate,
	.cpu_online = pt_cpu_online,
	.cpu_offline = pt_cpu_offline,
	.status = pt_status,
};
