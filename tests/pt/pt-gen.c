/* SPDX-License-Identifier: MIT */
/*
 * Writes a PT stream of tests/pt/pt-stream.c to stdout:
 *   pt-gen reference|bad-opcode     the raw stream
 *   pt-gen snapshot [CUT]           the reference stream in a snapshot file
 *                                   (lib/pt-file.h), less CUT bytes at the end
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pt-file.h"
#include "pt-stream.h"

static const char caps[] = "psb_cyc 1\nip_filtering 1\nnum_address_ranges 2\n";

int main(int argc, char *argv[])
{
	uint8_t buf[4096];
	int n;

	if (argc == 2 || argc == 3) {
		if (strcmp(argv[1], "snapshot") == 0) {
			uint8_t head[PT_FILE_FIXED_BYTES + sizeof(caps)];
			struct pt_file_info info = {
				.cpu = 3, .aux_flags = 0x2,
				.tsc_begin = 0x1000, .tsc_end = 0x2000, .error_tsc = 0x1800,
				.time_zero = 1000000, .time_mult = 1 << 20, .time_shift = 21,
				.flags = PT_FILE_HAVE_TIME_CONV | PT_FILE_HAVE_TSC_RANGE | PT_FILE_HAVE_ERROR_TSC,
				.caps = caps, .caps_bytes = sizeof(caps) - 1,
			};
			int h;
			size_t cut = argc == 3 ? (size_t) atoi(argv[2]) : 0;

			n = pt_stream_reference(buf, sizeof(buf));
			if (n < 0)
				return 1;
			info.trace_bytes = (uint64_t) n;
			h = pt_file_header_encode(&info, head, sizeof(head));
			if (h < 0 || cut > (size_t) n)
				return 1;
			return fwrite(head, 1, (size_t) h, stdout) == (size_t) h &&
			       fwrite(buf, 1, (size_t) n - cut, stdout) == (size_t) n - cut ? 0 : 1;
		}
	}
	if (argc != 2)
		return 2;
	if (strcmp(argv[1], "reference") == 0)
		n = pt_stream_reference(buf, sizeof(buf));
	else if (strcmp(argv[1], "bad-opcode") == 0)
		n = pt_stream_bad_opcode(buf, sizeof(buf));
	else
		return 2;
	if (n < 0) {
		fprintf(stderr, "pt-gen: libipt encoder error %d\n", n);
		return 1;
	}
	return fwrite(buf, 1, (size_t) n, stdout) == (size_t) n ? 0 : 1;
}
