/* SPDX-License-Identifier: MIT */
/*
 * What the PT flight recorder adds to a record, minus the freeze itself
 * (which needs PT hardware): finding where the copied trace begins in time
 * (pt_first_tsc, what the recorder does) and saving the file (pt_file_save),
 * for a buffer of PTBufferSize bytes; and for comparison a whole decode
 * (pt_summarize, what mcectl pt does).  The trace is libipt-encoded packets (the test's
 * reference stream, repeated), denser in IPs than most real traces.
 * Usage: bench/pt-record-cost [MIB] [ROUNDS]   (default 4 MiB, 10 rounds)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pt-decode.h"
#include "pt-file.h"
#include "pt-recorder.h"
#include "pt-stream.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char *argv[])
{
	size_t mib = argc > 1 ? (size_t) atoi(argv[1]) : 4, rounds = argc > 2 ? (size_t) atoi(argv[2]) : 10;
	size_t len = mib << 20, at = 0;
	uint8_t one[1024], header[PT_FILE_FIXED_BYTES];
	uint8_t *buf = malloc(len);
	char dir[] = "/tmp/pt-record-cost.XXXXXX", path[256];
	struct pt_file_info info = { .cpu = 0 };
	double t0, decode = 0, first = 0, save = 0;
	uint64_t tsc;
	int n = pt_stream_reference(one, sizeof(one)), h;
	uint64_t packets = 0;

	if (!buf || n <= 0 || !mkdtemp(dir) || mib == 0 || rounds == 0)
		return 1;
	while (at + (size_t) n <= len) {
		memcpy(buf + at, one, (size_t) n);
		at += (size_t) n;
	}
	info.trace_bytes = at;
	h = pt_file_header_encode(&info, header, sizeof(header));
	for (size_t r = 0; r < rounds; r++) {
		struct pt_summary s;

		t0 = now_ms();
		if (pt_summarize(buf, at, &s) < 0)
			return 1;
		decode += now_ms() - t0;
		packets = s.n_packets;
		pt_summary_done(&s);
		t0 = now_ms();
		if (pt_first_tsc(buf, at, &tsc) < 0)
			return 1;
		first += now_ms() - t0;
		t0 = now_ms();
		if (pt_file_save(dir, 0, header, (size_t) h, buf, at, 2, UINT64_MAX, path, sizeof(path)) < 0)
			return 1;
		save += now_ms() - t0;
	}
	printf("trace %zu MiB, %llu packets, per record (mean of %zu): first TSC %.3f ms, save %.2f ms; "
	       "whole decode (mcectl pt) %.2f ms\n", mib, (unsigned long long) packets, rounds,
	       first / (double) rounds, save / (double) rounds, decode / (double) rounds);
	/* the two files kept, and the directory */
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : 1;
}
