/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "daemon-config.h"
#include "log.h"
#include "macro.h"
#include "sink.h"
#include "sinks.h"

/*
 * [Output] JSON= / --output json / --output-file: one JSON object per line,
 * the same object as MCE_JSON.  Records, ras records and storm entries;
 * a loss report goes to the journal only, so that every line of the file
 * reads back with mcelogd --replay.
 */
struct json_lines_sink {
	FILE *out;
	bool close;          /* our own file, not stdout */
	bool flush_each;     /* live: every entry reaches the file at once */
};

static void json_lines_close(void *s)
{
	struct json_lines_sink *k = s;

	fflush(k->out);
	if (k->close)
		fclose(k->out);
	free(k);
}

static int json_lines_open(const struct sink_params *p, void **ret)
{
	const char *path = p->config->json_output;
	_cleanup_free_ struct json_lines_sink *k = NULL;
	int fd;

	*ret = NULL;
	if (path[0] == '\0')
		return 0;
	k = calloc(1, sizeof(*k));
	if (!k)
		return log_error_errno(-ENOMEM, "Out of memory");
	k->flush_each = p->live;
	if (streq(path, "-")) {
		k->out = stdout;
		*ret = TAKE_PTR(k);
		return 0;
	}
	/* Appending: records already written by an earlier run must stay. */
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0640);
	if (fd < 0)
		return log_error_errno(negative_errno(), "Failed to open JSON output %s: %m", path);
	k->out = fdopen(fd, "a");
	if (!k->out) {
		int r = negative_errno();

		close(fd);
		return log_error_errno(r, "Failed to open JSON output %s: %m", path);
	}
	k->close = true;
	*ret = TAKE_PTR(k);
	return 0;
}

static int json_lines_write(void *s, const struct sink_entry *e)
{
	struct json_lines_sink *k = s;

	if (!e->json || e->kind == SINK_ENTRY_LOSS)
		return 1;
	if (fputs(e->json, k->out) < 0 || fputc('\n', k->out) < 0 || (k->flush_each && fflush(k->out) != 0))
		return -EIO;
	return 0;
}

static int json_lines_sync(void *s, uint64_t timeout_usec)
{
	struct json_lines_sink *k = s;

	(void) timeout_usec;
	return fflush(k->out) == 0 ? 0 : -EIO;
}

const struct sink_ops json_lines_sink_ops = {
	.name = "json_lines",
	.open = json_lines_open,
	.close = json_lines_close,
	.write = json_lines_write,
	.sync = json_lines_sync,
};
