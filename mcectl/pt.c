/* SPDX-License-Identifier: MIT */
/*
 * mcectl pt: decode a saved PT snapshot (lib/pt-file.h) or a raw Intel PT
 * byte stream: packet counts, TSC range, CBR, CR3, execution modes, and the
 * branch-target and FUP addresses, kernel ones symbolised from kallsyms.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "intel-pt-pmu.h"
#include "json-writer.h"
#include "macro.h"
#include "options.h"
#include "perf-aux.h"
#include "pt-decode.h"
#include "pt-file.h"
#include "read-file.h"
#include "pt-recorder.h"
#include "pt-sysfs.h"
#include "verbs.h"

#define PT_FILE_MAX (UINT64_C(1) << 30)   /* a trace larger than 1 GiB is not one of ours */

enum output { OUTPUT_TABLE, OUTPUT_JSON };

static void help(void)
{
	printf("Usage: mcectl pt FILE [OPTIONS]\n"
	       "       mcectl pt --capture SECONDS [--cpu N] [--directory DIR] [OPTIONS]\n"
	       "Decode an Intel PT snapshot saved by mcelogd, or a raw Intel PT byte stream.\n"
	       "With --capture, run mcelogd's PT flight recorder on one CPU for SECONDS under a\n"
	       "harmless load, freeze it, save the snapshot in DIR and decode it.\n\n"
	       "  -o, --output MODE    table (default) or json\n"
	       "      --kallsyms FILE  kernel symbols (default /proc/kallsyms, when readable)\n"
	       "      --capture SECS   record for SECS seconds (1..3600), then save and decode\n"
	       "      --cpu N          the CPU to record (default: the one mcectl starts on)\n"
	       "      --directory DIR  where --capture saves its file (default .)\n"
	       "  -h, --help           show this help\n\n"
	       "Exit status: 0; 1 if the file cannot be read or the trace has errors; 2 on bad usage.\n");
}

struct ksym {
	uint64_t addr;
	char *name;
};

struct ksyms {
	struct ksym *v;
	size_t n;
	char *text;
};

static void ksyms_done(struct ksyms *k)
{
	free(k->v);
	free(k->text);
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Loads "ADDR TYPE NAME [module]" lines.  Returns the count, 0 if every
 * address reads 0 (kptr_restrict hides them), or negative errno. */
static int ksyms_load(const char *path, struct ksyms *k)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len, cap = 0;
	uint8_t *text;
	char *line, *save = NULL;
	int r;

	if (fd < 0)
		return negative_errno();
	r = read_whole_fd(fd, 256u << 20, (char **) &text, &len);
	if (r < 0)
		return r;
	k->text = (char *) text;
	for (line = strtok_r(k->text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *end, *name, type;
		uint64_t addr = strtoull(line, &end, 16);

		if (end == line || *end != ' ' || !end[1] || end[2] != ' ')
			continue;
		type = end[1];
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;        /* only code: the IPs are instruction addresses */
		name = end + 3;
		name[strcspn(name, " \t")] = 0;
		if (addr == 0)
			continue;
		if (k->n == cap) {
			struct ksym *n;

			cap = cap ? cap * 2 : 4096;
			n = reallocarray(k->v, cap, sizeof(*n));
			if (!n)
				return -ENOMEM;
			k->v = n;
		}
		k->v[k->n++] = (struct ksym) { .addr = addr, .name = name };
	}
	qsort(k->v, k->n, sizeof(*k->v), cmp_ksym);
	return (int) (k->n > INT32_MAX ? INT32_MAX : k->n);
}

/* The symbol at or below ip, as "name+0xoff", for kernel addresses only. */
static bool ksyms_lookup(const struct ksyms *k, uint64_t ip, char *buf, size_t size)
{
	size_t lo = 0, hi = k->n;

	if (!(ip >> 63) || k->n == 0 || ip < k->v[0].addr)
		return false;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].addr <= ip)
			lo = mid;
		else
			hi = mid;
	}
	snprintf(buf, size, "%s+0x%" PRIx64, k->v[lo].name, ip - k->v[lo].addr);
	return true;
}

static void json_caps(struct json_writer *w, const struct pt_file_info *info)
{
	const char *p = info->caps, *end = info->caps + info->caps_bytes;

	json_object_begin(w, "caps");
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t) (end - p)) ?: end;
		const char *sp = memchr(p, ' ', (size_t) (nl - p));

		if (sp) {
			char key[64];

			snprintf(key, sizeof(key), "%.*s", (int) (sp - p), p);
			json_put_stringn(w, key, sp + 1, (size_t) (nl - sp - 1));
		}
		p = nl + 1;
	}
	json_object_end(w);
}

static void json_snapshot(struct json_writer *w, const struct pt_file_info *info)
{
	struct perf_time_conv tc = {
		.time_zero = info->time_zero, .time_mult = info->time_mult, .time_shift = info->time_shift,
		.valid = (info->flags & PT_FILE_HAVE_TIME_CONV) && info->time_mult && info->time_shift < 64,
	};

	json_object_begin(w, "snapshot");
	json_put_u64(w, "cpu", info->cpu);
	perf_aux_flags_json(w, "aux_flags", info->aux_flags);
	if (info->flags & PT_FILE_HAVE_TSC_RANGE) {
		json_array_begin(w, "tsc_range");
		json_put_u64(w, NULL, info->tsc_begin);
		json_put_u64(w, NULL, info->tsc_end);
		json_array_end(w);
		if (tc.valid) {
			json_array_begin(w, "perf_time_range");
			json_put_u64(w, NULL, perf_tsc_to_time(&tc, info->tsc_begin));
			json_put_u64(w, NULL, perf_tsc_to_time(&tc, info->tsc_end));
			json_array_end(w);
		}
	}
	if (info->flags & PT_FILE_HAVE_ERROR_TSC)
		json_put_u64(w, "error_tsc", info->error_tsc);
	if (tc.valid) {
		json_object_begin(w, "time_conv");
		json_put_u64(w, "time_zero", tc.time_zero);
		json_put_u64(w, "time_mult", tc.time_mult);
		json_put_u64(w, "time_shift", tc.time_shift);
		json_object_end(w);
	}
	json_caps(w, info);
	json_object_end(w);
}

static void json_values(struct json_writer *w, const char *key, const struct pt_event_list *l,
			const char *value_key, bool hex, const char *flag_key)
{
	const struct pt_value_event *e = l->v;

	json_array_begin(w, key);
	for (size_t i = 0; i < l->n; i++) {
		json_object_begin(w, NULL);
		json_put_u64(w, "offset", e[i].offset);
		if (hex)
			json_put_hex64(w, value_key, e[i].value);
		else
			json_put_u64(w, value_key, e[i].value);
		if (flag_key)
			json_put_bool(w, flag_key, e[i].flag);
		json_object_end(w);
	}
	json_array_end(w);
}

static void print_json(const struct pt_summary *s, const struct pt_file_info *info,
		       const struct ksyms *k, const char *path)
{
	const struct pt_ip_event *ip = s->ips.v;
	struct json_writer w;

	json_writer_init(&w);
	json_object_begin(&w, NULL);
	json_put_string(&w, "file", path);
	json_put_string(&w, "format", info ? "snapshot" : "raw");
	if (info)
		json_snapshot(&w, info);
	json_put_u64(&w, "bytes", s->bytes);
	json_put_u64(&w, "sync_offset", s->sync_offset);
	json_put_u64(&w, "packets", s->n_packets);
	json_object_begin(&w, "counts");
	for (unsigned t = 0; t < PT_PACKET_TYPES; t++)
		if (s->counts[t])
			json_put_u64(&w, pt_packet_type_name(t), s->counts[t]);
	json_object_end(&w);
	if (s->have_tsc) {
		json_array_begin(&w, "tsc_range");
		json_put_u64(&w, NULL, s->tsc_first);
		json_put_u64(&w, NULL, s->tsc_last);
		json_array_end(&w);
	}
	json_values(&w, "cbr", &s->cbr, "ratio", false, NULL);
	json_values(&w, "cr3", &s->pip, "cr3", true, "nr");
	json_values(&w, "modes", &s->modes, "bits", false, NULL);
	json_array_begin(&w, "ips");
	for (size_t i = 0; i < s->ips.n; i++) {
		char sym[256];

		json_object_begin(&w, NULL);
		json_put_u64(&w, "offset", ip[i].offset);
		json_put_string(&w, "type", pt_ip_kind_names[ip[i].kind]);
		json_put_hex64(&w, "ip", ip[i].ip);
		if (ksyms_lookup(k, ip[i].ip, sym, sizeof(sym)))
			json_put_string(&w, "symbol", sym);
		json_object_end(&w);
	}
	json_array_end(&w);
	json_put_u64(&w, "ips_suppressed", s->ips_suppressed);
	json_put_u64(&w, "ips_without_base", s->ips_without_base);
	json_array_begin(&w, "errors");
	for (size_t i = 0; i < s->n_errors; i++) {
		json_object_begin(&w, NULL);
		json_put_u64(&w, "offset", s->errors[i].offset);
		json_put_string(&w, "message", s->errors[i].message);
		json_object_end(&w);
	}
	json_array_end(&w);
	if (s->errors_dropped)
		json_put_u64(&w, "errors_not_listed", s->errors_dropped);
	json_object_end(&w);
	if (!json_writer_failed(&w))
		printf("%s\n", json_writer_str(&w));
	json_writer_done(&w);
}

static void print_table(const struct pt_summary *s, const struct pt_file_info *info,
			const struct ksyms *k, const char *path)
{
	const struct pt_value_event *v;
	const struct pt_ip_event *ip = s->ips.v;

	printf("File:       %s (%s, %" PRIu64 " trace bytes, first PSB at %" PRIu64 ")\n", path,
	       info ? "mcelogd snapshot" : "raw Intel PT", s->bytes, s->sync_offset);
	if (info) {
		printf("CPU:        %" PRIu32 "\n", info->cpu);
		if (info->flags & PT_FILE_HAVE_TSC_RANGE)
			printf("Saved TSC:  %" PRIu64 " .. %" PRIu64 "\n", info->tsc_begin, info->tsc_end);
		if (info->flags & PT_FILE_HAVE_ERROR_TSC)
			printf("Error TSC:  %" PRIu64 "\n", info->error_tsc);
	}
	if (s->have_tsc)
		printf("TSC range:  %" PRIu64 " .. %" PRIu64 "\n", s->tsc_first, s->tsc_last);
	else
		printf("TSC range:  none (no TSC packet)\n");
	printf("Packets:    %" PRIu64 "\n", s->n_packets);
	for (unsigned t = 0; t < PT_PACKET_TYPES; t++)
		if (s->counts[t])
			printf("  %-10s %" PRIu64 "\n", pt_packet_type_name(t), s->counts[t]);
	v = s->cbr.v;
	for (size_t i = 0; i < s->cbr.n; i++)
		printf("CBR         @%-8" PRIu64 " ratio %" PRIu64 "\n", v[i].offset, v[i].value);
	v = s->pip.v;
	for (size_t i = 0; i < s->pip.n; i++)
		printf("CR3         @%-8" PRIu64 " 0x%016" PRIx64 "%s\n", v[i].offset, v[i].value,
		       v[i].flag ? " (non-root)" : "");
	v = s->modes.v;
	for (size_t i = 0; i < s->modes.n; i++)
		printf("Mode        @%-8" PRIu64 " %" PRIu64 "-bit\n", v[i].offset, v[i].value);
	for (size_t i = 0; i < s->ips.n; i++) {
		char sym[256];

		printf("%-11s @%-8" PRIu64 " 0x%016" PRIx64 "%s%s\n", pt_ip_kind_names[ip[i].kind],
		       ip[i].offset, ip[i].ip, ksyms_lookup(k, ip[i].ip, sym, sizeof(sym)) ? " " : "",
		       ksyms_lookup(k, ip[i].ip, sym, sizeof(sym)) ? sym : "");
	}
	if (s->ips_suppressed || s->ips_without_base)
		printf("IPs not shown: %" PRIu64 " suppressed, %" PRIu64 " compressed with no base\n",
		       s->ips_suppressed, s->ips_without_base);
	for (size_t i = 0; i < s->n_errors; i++)
		printf("Error       @%-8" PRIu64 " %s\n", s->errors[i].offset, s->errors[i].message);
}

#define CAPTURE_BUFFER (4u << 20)

/* The load while recording: system calls and a little arithmetic, so the
 * trace holds user and kernel branches, harmless anywhere. */
static void harmless_load(unsigned seconds)
{
	struct timespec end, now, nap = { .tv_nsec = 1000000 };
	uint64_t x = 0;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += seconds;
	do {
		for (unsigned i = 0; i < 100000; i++)
			x += (uint64_t) getppid() + i;
		/* keep the loop: the compiler must not drop the system calls' sum */
		__asm__ volatile("" : : "r"(x));
		nanosleep(&nap, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
}

/* Arms the daemon's recorder (pt-recorder.c) on cpu, freezes, saves: *ret_path. */
static int capture(unsigned seconds, int cpu_arg, const char *dir, char *ret_path, size_t path_size)
{
	static char caps[PT_FILE_CAPS_MAX];
	struct intel_pt_pmu pmu;
	struct perf_event_attr attr;
	struct pt_recorder_cpu rec = { .fd = -1 };
	struct pt_copy copy;
	uint64_t tsc_first = 0;
	bool have_tsc;
	uint8_t header[PT_FILE_FIXED_BYTES + PT_FILE_CAPS_MAX];
	const char *why = intel_pt_unavailable(), *missing;
	unsigned cpu;
	cpu_set_t set;
	int r, h;

	if (why) {
		fprintf(stderr, "mcectl pt: --capture: no Intel PT here: %s\n", why);
		return -EOPNOTSUPP;
	}
	r = intel_pt_sysfs_read(INTEL_PT_SYSFS, &pmu, caps, sizeof(caps));
	if (r < 0) {
		fprintf(stderr, "mcectl pt: --capture: the kernel has no intel_pt PMU (%s): %s\n",
			INTEL_PT_SYSFS, strerror(-r));
		return r;
	}
	r = intel_pt_build_attr(&pmu, 3, &attr, &missing);
	if (r < 0) {
		fprintf(stderr, "mcectl pt: --capture: the intel_pt PMU has no '%s'\n", missing ?: "psb_period");
		return r;
	}
	r = sched_getcpu();
	cpu = cpu_arg >= 0 ? (unsigned) cpu_arg : r >= 0 ? (unsigned) r : 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		fprintf(stderr, "mcectl pt: --capture: cannot run on CPU %u: %s\n", cpu, strerror(errno));
		return negative_errno();
	}
	r = pt_recorder_open(&attr, cpu, CAPTURE_BUFFER, &rec, &why);
	if (r < 0) {
		fprintf(stderr, "mcectl pt: --capture: CPU %u: %s: %s\n", cpu, why, strerror(-r));
		return r;
	}
	fprintf(stderr, "mcectl pt: recording CPU %u for %u s (%u KiB buffer, overwrite mode)...\n", cpu,
		seconds, CAPTURE_BUFFER >> 10);
	harmless_load(seconds);
	r = pt_recorder_copy(&rec, &copy);
	pt_recorder_close(&rec);
	if (r < 0 || copy.len == 0) {
		fprintf(stderr, "mcectl pt: --capture: %s\n", r < 0 ? strerror(-r) : "the recorder wrote no trace");
		pt_copy_done(&copy);
		return r < 0 ? r : -ENODATA;
	}
	have_tsc = pt_first_tsc(copy.data, copy.len, &tsc_first) == 0;
	struct pt_file_info info = {
		.cpu = cpu,
		.aux_flags = copy.wrapped ? PERF_AUX_FLAG_OVERWRITE : 0,
		.tsc_begin = tsc_first,
		.tsc_end = copy.freeze_tsc,
		.time_zero = copy.time_conv.time_zero,
		.time_mult = copy.time_conv.time_mult,
		.time_shift = copy.time_conv.time_shift,
		.flags = (copy.time_conv.valid ? PT_FILE_HAVE_TIME_CONV : 0) | (have_tsc && copy.freeze_tsc ? PT_FILE_HAVE_TSC_RANGE : 0),
		.trace_bytes = copy.len,
		.caps = caps,
		.caps_bytes = (uint32_t) strlen(caps),
	};
	h = pt_file_header_encode(&info, header, sizeof(header));
	r = h < 0 ? h : pt_file_save(dir, cpu, header, (size_t) h, copy.data, copy.len, UINT32_MAX, UINT64_MAX,
				     ret_path, path_size);
	pt_copy_done(&copy);
	if (r < 0) {
		fprintf(stderr, "mcectl pt: --capture: saving in '%s': %s\n", dir, strerror(-r));
		return r;
	}
	fprintf(stderr, "mcectl pt: saved %s\n", ret_path);
	return 0;
}

int verb_pt(int argc, char *argv[])
{
	enum { ARG_KALLSYMS = 0x100, ARG_CAPTURE, ARG_CPU, ARG_DIRECTORY };
	static const struct option options[] = {
		{ "output",    required_argument, NULL, 'o' },
		{ "kallsyms",  required_argument, NULL, ARG_KALLSYMS },
		{ "capture",   required_argument, NULL, ARG_CAPTURE },
		{ "cpu",       required_argument, NULL, ARG_CPU },
		{ "directory", required_argument, NULL, ARG_DIRECTORY },
		{ "help",     no_argument,       NULL, 'h' },
		{}
	};
	_cleanup_(ksyms_done) struct ksyms k = {};
	_cleanup_free_ uint8_t *buf = NULL;
	_cleanup_close_ int fd = -1;
	struct pt_summary s;
	struct pt_file_info info;
	bool have_info = false;
	const char *kallsyms = NULL, *path, *directory = ".";
	char saved[4200];
	unsigned capture_seconds = 0;
	int cpu = -1;
	enum output output = OUTPUT_TABLE;
	size_t len, trace_off = 0, trace_len;
	int opt, r, status = 0;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:h", options, NULL)) >= 0) {
		switch (opt) {
		case 'o':
			if (streq(optarg, "table"))
				output = OUTPUT_TABLE;
			else if (streq(optarg, "json"))
				output = OUTPUT_JSON;
			else {
				fprintf(stderr, "mcectl pt: --output '%s': expected 'table' or 'json'\n", optarg);
				return 2;
			}
			break;
		case ARG_KALLSYMS:
			kallsyms = optarg;
			break;
		case ARG_CAPTURE:
		case ARG_CPU: {
			char *end;
			unsigned long v;

			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (!*optarg || *optarg == '-' || *end || errno ||
			    (opt == ARG_CAPTURE ? v < 1 || v > 3600 : v >= 8192)) {
				fprintf(stderr, "mcectl pt: --%s '%s': expected %s\n", opt == ARG_CAPTURE ? "capture" : "cpu",
					optarg, opt == ARG_CAPTURE ? "seconds, 1 to 3600" : "a CPU number");
				return 2;
			}
			if (opt == ARG_CAPTURE)
				capture_seconds = (unsigned) v;
			else
				cpu = (int) v;
			break;
		}
		case ARG_DIRECTORY:
			directory = optarg;
			break;
		case 'h':
			help();
			return 0;
		default:
			return option_error("pt", opt, argv);
		}
	}
	if (capture_seconds ? optind != argc : optind != argc - 1) {
		fprintf(stderr, "mcectl pt: expected %s (try 'mcectl pt --help')\n",
			capture_seconds ? "no FILE with --capture" : "one FILE");
		return 2;
	}
	if (capture_seconds) {
		if (capture(capture_seconds, cpu, directory, saved, sizeof(saved)) < 0)
			return 1;
		path = saved;
	} else {
		path = argv[optind];
	}

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "mcectl pt: cannot open '%s': %s\n", path, strerror(errno));
		return 1;
	}
	r = read_whole_fd(fd, PT_FILE_MAX, (char **) &buf, &len);
	if (r < 0) {
		fprintf(stderr, "mcectl pt: cannot read '%s': %s\n", path,
			r == -EFBIG ? "larger than 1 GiB" : strerror(-r));
		return 1;
	}
	trace_len = len;
	if (pt_file_is_snapshot(buf, len)) {
		const char *error;

		r = pt_file_parse(buf, len, &info, &trace_off, &error);
		if (r == -EBADMSG) {
			fprintf(stderr, "mcectl pt: '%s': bad snapshot header: %s\n", path, error);
			return 1;
		}
		if (r < 0) {
			fprintf(stderr, "mcectl pt: '%s': %s; decoding the %" PRIu64 " trace bytes there are\n",
				path, error, info.trace_bytes);
			status = 1;
		}
		have_info = true;
		trace_len = info.trace_bytes;
	}

	/* Symbols are a help, not a need: without them the addresses stay bare. */
	r = ksyms_load(kallsyms ?: "/proc/kallsyms", &k);
	if (r < 0 && kallsyms) {
		fprintf(stderr, "mcectl pt: cannot read --kallsyms '%s': %s\n", kallsyms, strerror(-r));
		return 1;
	}

	r = pt_summarize(buf + trace_off, trace_len, &s);
	if (r < 0) {
		fprintf(stderr, "mcectl pt: '%s': %s\n", path, strerror(-r));
		return 1;
	}
	if (output == OUTPUT_JSON)
		print_json(&s, have_info ? &info : NULL, &k, path);
	else
		print_table(&s, have_info ? &info : NULL, &k, path);
	for (size_t i = 0; i < s.n_errors; i++)
		fprintf(stderr, "mcectl pt: '%s': offset %" PRIu64 ": %s\n", path,
			s.errors[i].offset + trace_off, s.errors[i].message);
	if (s.n_errors)
		status = 1;
	pt_summary_done(&s);
	return status;
}
