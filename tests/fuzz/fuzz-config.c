/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: mcelogd.conf (mcelogd/daemon-config.c), which an admin
 * edits by hand.  Whatever the text, the parser refuses it exactly when it
 * names a problem, each problem names a line of the file, and what it accepts
 * is a configuration the daemon can start with: every value within the range
 * mcelogd.conf(5) gives, every string terminated within its field.
 * fuzz-link: mcelogd/daemon-config.c mcelogd/log.c
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon-config.h"
#include "storm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct problems {
	unsigned n;
	unsigned lines;     /* how many lines the text has: the last may lack its newline */
};

static void on_problem(const char *file, unsigned line, const char *msg, void *userdata)
{
	struct problems *p = userdata;

	if (strcmp(file, "fuzz.conf") != 0 || line == 0 || line > p->lines || !msg || !*msg)
		abort();
	p->n++;
}

static bool terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

static void check_accepted(const struct mcelogd_config *c)
{
	const struct snapshot_config *s = &c->snapshot;

	if (!terminated(c->json_output, sizeof(c->json_output)) ||
	    !terminated(c->metrics_output, sizeof(c->metrics_output)) ||
	    !terminated(c->socket_group, sizeof(c->socket_group)))
		abort();
	if ((c->json_output[0] && strcmp(c->json_output, "-") != 0 && c->json_output[0] != '/') ||
	    (c->metrics_output[0] && c->metrics_output[0] != '/'))
		abort();
	if (c->source_dev_mcelog < CONFIG_TRISTATE_AUTO || c->source_dev_mcelog > CONFIG_TRISTATE_NO ||
	    c->msr_poll > MSR_POLL_NO || c->log_level < 0 || c->log_level > 7)
		abort();
	if (c->spool_max_bytes < SPOOL_SIZE_MIN || c->spool_max_bytes > SPOOL_SIZE_MAX ||
	    c->msr_poll_interval_usec < MSR_POLL_INTERVAL_MIN_USEC ||
	    c->msr_poll_interval_usec > MSR_POLL_INTERVAL_MAX_USEC)
		abort();
	/* The daemon hands [Storm] to storm_new(), which must not refuse what we accepted. */
	if (storm_config_validate(&c->storm) < 0)
		abort();
	if (s->n_counter_events > SNAPSHOT_COUNTER_EVENTS_MAX || (!s->counters && s->n_counter_events))
		abort();
	for (size_t i = 0; i < s->n_counter_events; i++)
		if (!terminated(s->counter_events[i], SNAPSHOT_EVENT_NAME_MAX) || !s->counter_events[i][0])
			abort();
	if (s->interval_usec < SNAPSHOT_INTERVAL_MIN_USEC || s->interval_usec > SNAPSHOT_INTERVAL_MAX_USEC ||
	    s->history < SNAPSHOT_HISTORY_MIN || s->history > SNAPSHOT_HISTORY_MAX ||
	    s->pt_buffer_size < SNAPSHOT_PT_BUFFER_MIN || s->pt_buffer_size > SNAPSHOT_PT_BUFFER_MAX ||
	    (s->pt_buffer_size & (s->pt_buffer_size - 1)) || s->pt_max_files == 0 ||
	    s->pt_max_files > SNAPSHOT_PT_MAX_FILES_MAX || s->pt_max_bytes == 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct problems p = { .lines = 0 };
	struct mcelogd_config c;
	int r;

	for (size_t i = 0; i < size; i++)
		if (data[i] == '\n')
			p.lines++;
	if (size > 0 && data[size - 1] != '\n')
		p.lines++;

	config_set_defaults(&c);
	r = config_parse_text((const char *) data, size, "fuzz.conf", &c, on_problem, &p);
	if ((r < 0) != (p.n > 0) || (r < 0 && r != -EINVAL))
		abort();
	if (r < 0)
		return 0;
	check_accepted(&c);
	return 0;
}
