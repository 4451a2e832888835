/* SPDX-License-Identifier: MIT */
/*
 * The PT snapshot file (lib/pt-file.c): header round trip, each header check
 * naming its field, a truncated trace; the recorder's save (pt_file_save in
 * mcelogd/snapshot/pt-recorder.c): files bounded by count and bytes, oldest
 * deleted first, the new one never; and why /proc/cpuinfo says there is no Intel PT.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "pt-file.h"
#include "pt-recorder.h"
#include "pt-sysfs.h"

static const char caps[] = "psb_cyc 1\nnum_address_ranges 2\n";

static struct pt_file_info sample(uint64_t trace_bytes)
{
	return (struct pt_file_info) {
		.cpu = 7, .aux_flags = 0x3, .tsc_begin = 100, .tsc_end = UINT64_MAX, .error_tsc = 150,
		.time_zero = 42, .time_mult = UINT32_MAX, .time_shift = 31,
		.flags = PT_FILE_HAVE_TIME_CONV | PT_FILE_HAVE_TSC_RANGE | PT_FILE_HAVE_ERROR_TSC,
		.trace_bytes = trace_bytes, .caps = caps, .caps_bytes = sizeof(caps) - 1,
	};
}

static void test_round_trip(void **state)
{
	uint8_t buf[512];
	struct pt_file_info in = sample(10), out;
	size_t off;
	const char *error = "x";
	int h = pt_file_header_encode(&in, buf, sizeof(buf));
	(void) state;

	assert_int_equal(h, PT_FILE_FIXED_BYTES + sizeof(caps) - 1);
	memset(buf + h, 0xab, 10);
	assert_true(pt_file_is_snapshot(buf, (size_t) h + 10));
	assert_int_equal(pt_file_parse(buf, (size_t) h + 10, &out, &off, &error), 0);
	assert_null(error);
	assert_int_equal(off, h);
	assert_int_equal(out.cpu, 7);
	assert_int_equal(out.aux_flags, 3);
	assert_int_equal(out.tsc_begin, 100);
	assert_int_equal(out.tsc_end, UINT64_MAX);
	assert_int_equal(out.error_tsc, 150);
	assert_int_equal(out.time_zero, 42);
	assert_int_equal(out.time_mult, UINT32_MAX);
	assert_int_equal(out.time_shift, 31);
	assert_int_equal(out.flags, in.flags);
	assert_int_equal(out.trace_bytes, 10);
	assert_memory_equal(out.caps, caps, sizeof(caps) - 1);
	/* too small a buffer, too many caps */
	assert_int_equal(pt_file_header_encode(&in, buf, (size_t) h - 1), -ENOBUFS);
	in.caps_bytes = PT_FILE_CAPS_MAX + 1;
	assert_int_equal(pt_file_header_encode(&in, buf, sizeof(buf)), -E2BIG);
}

static void test_bad_headers(void **state)
{
	uint8_t buf[512], bad[512];
	struct pt_file_info in = sample(10), out;
	size_t off;
	const char *error;
	int h = pt_file_header_encode(&in, buf, sizeof(buf));
	size_t len = (size_t) h + 10;
	(void) state;

	memset(buf + h, 0, 10);
	assert_int_equal(pt_file_parse(buf, 79, &out, &off, &error), -EBADMSG);
	assert_non_null(strstr(error, "80-byte header"));
	memcpy(bad, buf, len);
	bad[0] = 'X';
	assert_int_equal(pt_file_parse(bad, len, &out, &off, &error), -EBADMSG);
	assert_non_null(strstr(error, "offset 0"));
	memcpy(bad, buf, len);
	bad[12] = 2;
	assert_int_equal(pt_file_parse(bad, len, &out, &off, &error), -EBADMSG);
	assert_non_null(strstr(error, "offset 12"));
	memcpy(bad, buf, len);
	bad[8]++;
	assert_int_equal(pt_file_parse(bad, len, &out, &off, &error), -EBADMSG);
	assert_non_null(strstr(error, "offset 8"));
	memcpy(bad, buf, len);
	bad[73] = 0x10;     /* caps_bytes 4096 + ... */
	assert_int_equal(pt_file_parse(bad, len, &out, &off, &error), -EBADMSG);
	assert_non_null(strstr(error, "offset 72"));
	/* ends inside the caps */
	assert_int_equal(pt_file_parse(buf, 90, &out, &off, &error), -EBADMSG);
	assert_non_null(strstr(error, "inside the caps"));
	/* truncated trace: described, cut to what is there */
	assert_int_equal(pt_file_parse(buf, len - 4, &out, &off, &error), -EPIPE);
	assert_non_null(strstr(error, "truncated"));
	assert_int_equal(out.trace_bytes, 6);
	assert_int_equal(off, h);
}

static unsigned count_files(const char *dir, char names[][64], unsigned max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			if (n < max)
				snprintf(names[n], 64, "%.63s", e->d_name);
			n++;
		}
	closedir(d);
	return n;
}

static void test_save_bounds(void **state)
{
	char tmpl[] = "/tmp/test-pt-file.XXXXXX", dir[64], path[256], first[256], names[16][64];
	uint8_t header[16] = "HEADER", trace[1000] = { 1 };
	char *base = mkdtemp(tmpl);
	(void) state;

	assert_non_null(base);
	/* the directory is created */
	snprintf(dir, sizeof(dir), "%s/pt", base);
	/* a file that is not ours is never touched */
	assert_int_equal(pt_file_save(dir, 0, header, 6, trace, 100, 3, UINT64_MAX, first, sizeof(first)), 0);
	snprintf(path, sizeof(path), "%s/notes.txt", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pt_file_save(dir, (unsigned) i, header, 6, trace, 100, 3, UINT64_MAX,
					      path, sizeof(path)), 0);
		usleep(1000);
	}
	/* count bound: 3 .pt files and notes.txt; the first (oldest) is gone */
	assert_int_equal(count_files(dir, names, 16), 4);
	assert_int_equal(access(first, F_OK), -1);
	assert_int_equal(access(path, F_OK), 0);
	/* byte bound: 250 bytes keep 2 files of 106; a bound below one file keeps the new one */
	assert_int_equal(pt_file_save(dir, 9, header, 6, trace, 100, 100, 250, path, sizeof(path)), 0);
	assert_int_equal(count_files(dir, names, 16), 3);
	assert_int_equal(pt_file_save(dir, 9, header, 6, trace, 1000, 100, 10, path, sizeof(path)), 0);
	assert_int_equal(count_files(dir, names, 16), 2);
	assert_int_equal(access(path, F_OK), 0);
	/* the saved bytes are header then trace */
	f = fopen(path, "rb");
	uint8_t back[1006];
	assert_int_equal(fread(back, 1, sizeof(back), f), 1006);
	fclose(f);
	assert_memory_equal(back, "HEADER", 6);
	assert_int_equal(back[6], 1);

	/* cleanup */
	count_files(dir, names, 16);
	for (unsigned i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
	/* a crash mid-write left a temporary: the next save removes it, and only ours */
	assert_int_equal(mkdir(dir, 0750), 0);
	snprintf(path, sizeof(path), "%s/.cpu4-00000000000000000001.pt.tmp", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(first, sizeof(first), "%s/.notes.tmp", dir);
	f = fopen(first, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(pt_file_save(dir, 4, header, 6, trace, 10, 3, UINT64_MAX, names[0], sizeof(names[0])), 0);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(access(first, F_OK), 0);
	unlink(first);
	unlink(names[0]);
	rmdir(dir);
	rmdir(base);
	/* a directory that cannot be made: the errno */
	assert_int_equal(pt_file_save("/proc/no/such", 0, header, 6, trace, 1, 1, 1, path, sizeof(path)), -ENOENT);
}

static void test_cpuinfo(void **state)
{
	(void) state;

	assert_null(intel_pt_cpuinfo_unavailable("processor\t: 0\nvendor_id\t: GenuineIntel\n"
						  "flags\t\t: fpu vme intel_pt pdpe1gb\n"));
	/* the flag must be a whole word */
	assert_string_equal(intel_pt_cpuinfo_unavailable("processor\t: 0\nvendor_id\t: GenuineIntel\n"
							 "flags\t\t: fpu intel_ptx\n"),
			    "this Intel CPU has no Intel PT (no intel_pt flag)");
	assert_non_null(strstr(intel_pt_cpuinfo_unavailable("processor\t: 0\nvendor_id\t: GenuineIntel\n"
							    "flags\t\t: fpu hypervisor\n"), "virtual machine"));
	assert_string_equal(intel_pt_cpuinfo_unavailable("processor\t: 0\nvendor_id\t: AuthenticAMD\n"
							 "flags\t\t: fpu intel_pt\n"), "AMD CPU: no Intel PT");
	assert_non_null(strstr(intel_pt_cpuinfo_unavailable("processor\t: 0\nBogoMIPS\t: 50.00\n"
							    "Features\t: fp asimd\n"), "not an x86 CPU"));
	assert_non_null(intel_pt_cpuinfo_unavailable(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_save_bounds),
		cmocka_unit_test(test_cpuinfo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
