/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file-io.h"
#include "log.h"
#include "macro.h"
#include "module-stage.h"
#include "module-state.h"

struct load_ctx {
	const char *path;
	unsigned problems;
};

static void log_problem(unsigned line, const char *what, void *userdata)
{
	struct load_ctx *c = userdata;

	c->problems++;
	log_warning("%s:%u: %s; that line (and a module line's module) skipped, the other modules kept", c->path,
		    line, what);
}

/*
 * A damaged file is copied aside before anything replaces it: what could
 * not be read stays for a person to look at, and the next write holds every
 * module that could.
 */
static void keep_aside(const char *path, const char *text, size_t len)
{
	_cleanup_free_ char *aside = NULL;
	int r;

	if (asprintf(&aside, "%s.damaged", path) < 0)
		return;
	r = write_file_atomic(aside, text, len, true);
	if (r < 0)
		log_warning_errno(r, "Cannot keep the damaged %s as %s: %m", path, aside);
	else
		log_warning("%s: damaged; kept as %s", path, aside);
}

static int load(struct module_stage *ms)
{
	_cleanup_free_ char *text = NULL;
	struct load_ctx c = { .path = ms->state_path };
	size_t len = 0;
	int r;

	r = read_full_file(ms->state_path, MODULE_STATE_MAX, &text, &len);
	if (r == -ENOENT)
		return 0;
	if (r == -ENOMEM)
		return log_error_errno(r, "Out of memory reading %s", ms->state_path);
	if (r < 0) {
		/* Unreadable (too big, an I/O error): set aside whole, the ledger starts afresh. */
		_cleanup_free_ char *aside = NULL;

		log_warning_errno(r, "Cannot read %s: %m; the module ledger starts afresh", ms->state_path);
		if (asprintf(&aside, "%s.damaged", ms->state_path) >= 0 && rename(ms->state_path, aside) < 0)
			log_warning_errno(negative_errno(), "Cannot set %s aside: %m", ms->state_path);
		return 0;
	}
	r = module_state_parse(text, len, &ms->ledger, log_problem, &c);
	if (r == -ENOMEM)
		return log_error_errno(r, "Out of memory reading %s", ms->state_path);
	ms->n_damaged_lines = c.problems;
	if (c.problems > 0)
		keep_aside(ms->state_path, text, len);
	log_info("Restored %zu module%s from %s", ms->ledger.n, ms->ledger.n == 1 ? "" : "s", ms->state_path);
	return 0;
}

static int save_cb(void *userdata)
{
	return module_stage_save(userdata);
}

int module_stage_setup(struct module_stage *ms, const struct module_thresholds *t, const char *state_directory)
{
	module_ledger_init(&ms->ledger, t);
	ms->save = (struct rules_save) { .save = save_cb, .userdata = ms, .interval_usec = MODULE_SAVE_INTERVAL_USEC };
	if (!state_directory)
		return 0;
	if (asprintf(&ms->state_path, "%s/%s", state_directory, MODULE_STATE_FILE) < 0) {
		ms->state_path = NULL;
		return log_error_errno(-ENOMEM, "Out of memory");
	}
	return load(ms);
}

void module_stage_changed(struct module_stage *ms, sd_event *event)
{
	if (ms->state_path)
		rules_save_soon(&ms->save, event);
}

int module_stage_save(struct module_stage *ms)
{
	_cleanup_free_ char *text = NULL;
	int n, r;

	if (!ms->state_path)
		return 0;
	n = module_state_format(&ms->ledger, &text);
	r = n < 0 ? n : write_file_atomic(ms->state_path, text, (size_t) n, true);
	rules_save_done(&ms->save, NULL);
	if (r < 0) {
		ms->n_save_failures++;
		return log_error_errno(r, "Failed to save the module ledger to %s: %m", ms->state_path);
	}
	return 0;
}

void module_stage_stop(struct module_stage *ms)
{
	rules_save_free(&ms->save);
	(void) module_stage_save(ms);
}

void module_stage_done(struct module_stage *ms)
{
	rules_save_free(&ms->save);
	module_ledger_done(&ms->ledger);
	free(ms->state_path);
	ms->state_path = NULL;
}
