/* SPDX-License-Identifier: MIT */
/*
 * What libsystemd alone costs mcectl summary: walk a journal directory's
 * entries under the given matches (ANDed when of different fields) and read
 * the first ITEMS fields of each, doing nothing with them.  The floor under
 * any one-pass summary, and the price of matching on more fields.
 *   bench/journal-walk DIR ITEMS [FIELD=VALUE...]
 * e.g. perf stat -r 3 -e task-clock bench/journal-walk DIR 18 _COMM=mcelogd
 * (not run by make check; see bench/journal-bench.sh).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-journal.h>

int main(int argc, char *argv[])
{
	sd_journal *j = NULL;
	uint64_t entries = 0, items = 0;
	long want;
	int r;

	if (argc < 3 || (want = strtol(argv[2], NULL, 10)) < 0) {
		fprintf(stderr, "usage: %s DIR ITEMS [FIELD=VALUE...]\n", argv[0]);
		return 2;
	}
	r = sd_journal_open_directory(&j, argv[1], 0);
	for (int i = 3; r >= 0 && i < argc; i++)
		r = sd_journal_add_match(j, argv[i], 0);
	if (r >= 0)
		r = sd_journal_seek_head(j);
	while (r >= 0 && (r = sd_journal_next(j)) > 0) {
		const void *data;
		size_t len;
		uint64_t t;
		long k = 0;

		/* As mcectl does: the time from the entry's header, then a pass over its fields. */
		if (sd_journal_get_realtime_usec(j, &t) < 0)
			continue;
		entries++;
		sd_journal_restart_data(j);
		while (k < want && sd_journal_enumerate_available_data(j, &data, &len) > 0)
			k++;
		items += (uint64_t) k;
	}
	sd_journal_close(j);
	if (r < 0) {
		fprintf(stderr, "%s: %s\n", argv[1], strerror(-r));
		return 1;
	}
	printf("%" PRIu64 " entries, %" PRIu64 " fields read\n", entries, items);
	return 0;
}
