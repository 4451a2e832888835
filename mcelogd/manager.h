/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The daemon's single state object: the event loop, configuration, sources
 * and sinks.  Every record, whatever its source, goes through
 * manager_submit_record(): decode → render once → every enabled sink.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <systemd/sd-event.h>

#include "daemon-config.h"
#include "json-writer.h"
#include "record.h"

struct tracepoint_source;

struct manager {
	sd_event *event;
	struct mcelogd_config config;
	const char *config_path;
	bool config_path_explicit;

	/* command-line overrides, re-applied after every reload */
	const char *arg_json_output;
	bool arg_no_journal;
	int arg_log_level;           /* -1: not given */

	char hostname[MCE_HOSTNAME_MAX];
	char boot_id[MCE_BOOT_ID_LEN + 1];

	struct json_writer json;
	FILE *json_out;
	bool json_out_close;
	bool json_flush_each;        /* live: every record reaches the file at once */

	struct tracepoint_source *tracepoint;

	uint64_t n_records;
	uint64_t n_journal_written;  /* record entries sd_journal_sendv() accepted */
	uint64_t n_sink_failures;
};

int manager_init(struct manager *m);
void manager_done(struct manager *m);

/* (Re)applies m->config plus command-line overrides to the sinks. */
int manager_apply_config(struct manager *m);

/* Fills hostname/boot_id, decodes, writes to every sink.  Returns 0 or negative errno. */
int manager_submit_record(struct manager *m, struct mce_record *rec);

/* A loss the kernel reported: logged as its own record class. */
void manager_report_loss(struct manager *m, const char *source, unsigned cpu, uint64_t lost);

/* Human status for systemd's STATUS= and the log. */
void manager_update_status(struct manager *m);
