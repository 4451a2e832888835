/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "actions/actions.h"
#include "alert-where.h"
#include "clock.h"
#include "dropin.h"
#include "file-io.h"
#include "keepalive.h"
#include "log.h"
#include "memory-failure.h"
#include "module-json.h"
#include "module-record.h"
#include "page-action.h"
#include "page-hold.h"
#include "page-identity.h"
#include "page-memory-check.h"
#include "ras-record.h"
#include "row-pages.h"
#include "rules-stage.h"
#include "rules-trust.h"
#include "sink.h"

#define STATE_MAX (64u << 20)   /* far above what RULE_STATE_MAX_* allow */

static void log_rule_error(const char *file, unsigned line, const char *msg, void *userdata)
{
	(void) userdata;
	if (line > 0)
		log_error("%s:%u: %s", file, line, msg);
	else
		log_error("%s: %s", file, msg);
}

/*
 * A rule file is parsed only if nobody but root can have written it
 * (rules-trust.h): from the text read through the descriptor that was
 * checked, not the walk's, which was read before any check.
 */
static int load_trusted_file(const char *path, const char *text, size_t len, int error, void *userdata)
{
	struct rule_load *l = userdata;
	_cleanup_free_ char *checked = NULL;
	size_t checked_len = 0;
	char why[PATH_MAX + 64];
	int r;

	(void) text;
	(void) len;
	if (error != 0)
		return rule_load_file(path, NULL, 0, error, l);
	why[0] = '\0';
	r = read_trusted_file(path, DROPIN_FILE_MAX, &checked, &checked_len, why, sizeof(why));
	if (r == -EPERM) {
		log_error("%s: refused: %s; its rules could run programs as root", path, why);
		l->files++;
		l->bad_files++;
		return 0;
	}
	return rule_load_file(path, r < 0 ? NULL : checked, checked_len, r < 0 ? r : 0, l);
}

int rules_load(const char *const *dirs, size_t n, struct rule_set *ret)
{
	struct rule_set set;
	struct rule_load l = { .set = &set, .err = log_rule_error };
	int r;

	rule_set_init(&set);
	r = dropin_walk(dirs, n, RULE_FILE_SUFFIX, load_trusted_file, &l);
	if (r < 0) {
		rule_set_done(&set);
		return log_error_errno(r, "Failed to read the rule directories: %m");
	}
	if (l.bad_files == 0 && rules_check_triggers(&set) < 0) {
		rule_set_done(&set);
		return -EPERM;
	}
	if (l.bad_files > 0) {
		rule_set_done(&set);
		log_error("%u of %u rule file%s have errors", l.bad_files, l.files,
			  l.files == 1 ? "" : "s");
		return -EINVAL;
	}
	log_debug("Loaded %u rule%s from %u file%s", set.n_rules, set.n_rules == 1 ? "" : "s",
		  l.files, l.files == 1 ? "" : "s");
	*ret = set;
	return 0;
}

/*
 * The journal is compacted (the state written whole) once it holds
 * JOURNAL_RATIO times the state's bytes: a storm then writes each change
 * once to the journal and, amortised, 1/JOURNAL_RATIO of it again in the
 * state.  Below JOURNAL_MIN a small state is never rewritten for it; at
 * JOURNAL_MAX always, so that a start (and mcectl) reads it whole.
 */
#define JOURNAL_RATIO 4
#define JOURNAL_MIN (1u << 20)
#define JOURNAL_MAX (STATE_MAX / 2)

static bool journal_outgrown(const struct rules_stage *st)
{
	uint64_t limit = st->state_bytes * JOURNAL_RATIO;

	if (limit < JOURNAL_MIN)
		limit = JOURNAL_MIN;
	if (limit > JOURNAL_MAX)
		limit = JOURNAL_MAX;
	return st->journal_bytes >= limit;
}

/*
 * The lines appended since the state was last written whole (a crash came
 * before the next write), applied over it; base NULL takes a journal that
 * follows any state (the state was damaged).  A damaged line is said with
 * file and line, the lines before it kept, and the journal copied aside;
 * a last line cut by a crash is said too.  *ret_found: there was a
 * journal to take in, so the state is written whole at once (a journal
 * is never appended to behind a damaged or cut line).
 */
static int load_journal(struct rules_stage *st, bool any_base, bool *ret_found)
{
	_cleanup_free_ char *text = NULL, *aside = NULL;
	size_t len = 0;
	unsigned line = 0;
	char why[256], base[64];
	int r;

	*ret_found = false;
	r = read_full_file(st->journal_path, STATE_MAX, &text, &len);
	if (r == -ENOENT || (r >= 0 && len == 0))
		return 0;
	*ret_found = true;
	rule_state_format_base(&st->state, base, sizeof(base));
	if (r >= 0)
		r = rule_state_apply_journal(&st->state, text, len, any_base ? NULL : base, why, sizeof(why), &line);
	else
		snprintf(why, sizeof(why), "%s", strerror(-r));
	if (r == -ENOMEM)
		return log_error_errno(r, "Out of memory reading %s", st->journal_path);
	if (r == -ESTALE) {
		log_info("%s: %s", st->journal_path, why);
		return 0;
	}
	if (r == RULE_JOURNAL_CUT) {
		log_warning("%s:%u: %s; the lines before it are kept", st->journal_path, line, why);
		return 0;
	}
	if (r < 0) {
		log_warning("%s:%u: %s; the lines before it are kept, not it nor any after", st->journal_path, line,
			    why);
		if (text && asprintf(&aside, "%s.damaged", st->journal_path) >= 0 &&
		    write_file_atomic(aside, text, len, true) >= 0)
			log_warning("%s: damaged; kept as %s", st->journal_path, aside);
		return 0;
	}
	log_info("Took the changes in %s into the state", st->journal_path);
	return 0;
}

/*
 * A journal kept from before this run (the whole write at start failed)
 * may end in a line a crash cut, already said and not applied: it is cut
 * off, so that the next line is not appended to it and refused with
 * everything after it at the next start.
 */
static int journal_trim_cut(struct rules_stage *st, const struct stat *sb)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	char last;
	int r;

	if (pread(st->journal_fd, &last, 1, sb->st_size - 1) == 1 && last == '\n')
		return 0;
	r = read_full_file(st->journal_path, STATE_MAX, &text, &len);
	if (r < 0)
		return log_error_errno(r, "Cannot read %s: %m", st->journal_path);
	while (len > 0 && text[len - 1] != '\n')
		len--;
	if (ftruncate(st->journal_fd, (off_t) len) < 0)
		return log_error_errno(negative_errno(), "Cannot cut the last line off %s: %m", st->journal_path);
	st->journal_bytes = len;
	return 0;
}

/* Opens the journal for appending; a new one starts with its base line (rule-state.h). */
static int journal_open(struct rules_stage *st)
{
	char base[64];
	struct stat sb;
	int r;

	if (st->journal_open)
		return 0;
	st->journal_fd = open(st->journal_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY,
			      0600);
	if (st->journal_fd < 0)
		return log_error_errno(negative_errno(), "Cannot open %s: %m", st->journal_path);
	st->journal_open = true;
	if (fstat(st->journal_fd, &sb) < 0)
		return log_error_errno(negative_errno(), "Cannot read %s: %m", st->journal_path);
	st->journal_bytes = (uint64_t) sb.st_size;
	if (sb.st_size > 0 && journal_trim_cut(st, &sb) < 0)
		return -EIO;
	if (st->journal_bytes > 0)
		return 0;
	rule_state_format_base(&st->state, base, sizeof(base));
	r = write_all(st->journal_fd, base, strlen(base));
	if (r < 0)
		return log_error_errno(r, "Cannot append to %s: %m", st->journal_path);
	st->journal_bytes += strlen(base);
	/* A new file: its name must reach the disk too, or a power loss could take the lines synced to it. */
	r = fsync_directory_of(st->journal_path);
	return r < 0 ? log_error_errno(r, "Cannot sync the directory of %s: %m", st->journal_path) : 0;
}

/*
 * Appends text to the journal; with sync, on disk before this returns (an
 * intent must be, before the write it announces; the second's counts, for
 * the crash bound).  0 or negative errno (logged).
 */
static int journal_append(struct rules_stage *st, const char *text, size_t len, bool sync)
{
	int r;

	if (!st->journal_path)
		return 0;
	r = journal_open(st);
	if (r < 0)
		return r;
	r = write_all(st->journal_fd, text, len);
	if (r < 0)
		return log_error_errno(r, "Cannot append to %s: %m", st->journal_path);
	st->journal_bytes += len;
	if (sync && fdatasync(st->journal_fd) < 0)
		return log_error_errno(negative_errno(), "Cannot sync %s: %m", st->journal_path);
	return 0;
}

static int journal_page(struct rules_stage *st, const struct rule_state_page *p, bool sync)
{
	_cleanup_free_ char *line = NULL;
	size_t len = 0;
	int r;

	if (!st->journal_path)
		return 0;
	r = rule_state_format_page(p, &line, &len);
	if (r < 0)
		return log_error_errno(r, "Out of memory journalling page 0x%" PRIx64, p->pfn);
	return journal_append(st, line, len, sync);
}

/* The state was written whole: what the journal held is in it. */
static void journal_empty(struct rules_stage *st)
{
	if (st->journal_open) {
		close(st->journal_fd);
		st->journal_open = false;
	}
	st->journal_bytes = 0;
	if (st->journal_path && unlink(st->journal_path) < 0 && errno != ENOENT)
		log_warning_errno(negative_errno(), "Cannot remove %s: %m", st->journal_path);
}

/*
 * A damaged state still remembers actions on hardware: its repairs are kept
 * (so none is repeated) and its pages too, salvaged (known bad, never
 * offlined again on the word of a damaged file; mcectl pages lists them).
 * Then the journal's intents, which the damage did not touch.
 */
static int salvage_state(struct rules_stage *st, const char *text, size_t len, const char *aside, bool *ret_found)
{
	unsigned skipped = 0;
	int r;

	r = rule_state_salvage(text, len, &st->state, &skipped);
	if (r < 0)
		return log_error_errno(r, "Out of memory salvaging %s", aside);
	if (st->state.n_pages > 0 || st->state.n_repairs > 0)
		log_warning("%s: kept %u known-bad page%s (not offlined again: a damaged file is not trusted "
			    "to act on; see mcectl pages) and %u repair%s (none is repeated); %u line%s not taken",
			    aside, st->state.n_pages, st->state.n_pages == 1 ? "" : "s", st->state.n_repairs,
			    st->state.n_repairs == 1 ? "" : "s", skipped, skipped == 1 ? "" : "s");
	return load_journal(st, true, ret_found);
}

/* *ret_found: a journal was there (so the state is to be written whole at once). */
static int load_state(struct rules_stage *st, bool *ret_found)
{
	_cleanup_free_ char *text = NULL, *aside = NULL;
	size_t len = 0;
	unsigned line = 0, merged = 0;
	char why[256];
	int r;

	r = read_full_file(st->state_path, STATE_MAX, &text, &len);
	if (r == -ENOENT) {
		r = load_journal(st, false, ret_found);
		if (r >= 0)
			r = rule_state_restore(&st->state, st->engine);
		return r == -ENOMEM ? log_error_errno(r, "Out of memory restoring the rules' counts") : r;
	}
	if (r >= 0)
		r = rule_state_parse(text, len, &st->state, why, sizeof(why), &line);
	else
		snprintf(why, sizeof(why), "%s", strerror(-r));
	if (r == -ENOMEM)
		return log_error_errno(r, "Out of memory reading %s", st->state_path);
	if (r < 0) {
		/* Counting afresh loses at most some counts; refusing to start would lose every record. */
		if (asprintf(&aside, "%s.damaged", st->state_path) < 0)
			return log_error_errno(-ENOMEM, "Out of memory");
		if (rename(st->state_path, aside) < 0)
			log_warning_errno(negative_errno(), "Cannot set %s aside: %m", st->state_path);
		if (line > 0)
			log_warning("%s:%u: %s; set aside as %s, counting afresh", st->state_path, line, why,
				    aside);
		else
			log_warning("%s: %s; set aside as %s, counting afresh", st->state_path, why, aside);
		return salvage_state(st, text, len, aside, ret_found);
	}
	st->state_bytes = len;
	/* The journal over the state first: its count lines add to the state's buckets. */
	r = load_journal(st, false, ret_found);
	if (r < 0)
		return r;
	r = rule_state_restore(&st->state, st->engine);
	if (r < 0)
		return log_error_errno(r, "Out of memory restoring the rules' counts");
	for (unsigned i = 0; i < st->state.n_rows; i++)
		merged += row_key_names_no_dimm(st->state.rows[i].key);
	if (merged > 0)
		log_warning("%s: %u DRAM row%s that an older version keyed by an EDAC label naming no one DIMM "
			    "(\"unknown memory\", \"any memory\", \"A or B\"): dropped, as they merge DIMMs; "
			    "pages offlined already stay known-bad", st->state_path, merged, merged == 1 ? "" : "s");
	log_info("Restored %u rule count%s, %u offlined page%s, %u DRAM row%s, %u alert%s from %s",
		 st->state.n_buckets, st->state.n_buckets == 1 ? "" : "s", st->state.n_pages,
		 st->state.n_pages == 1 ? "" : "s", st->state.n_rows, st->state.n_rows == 1 ? "" : "s",
		 st->state.n_alerts, st->state.n_alerts == 1 ? "" : "s", st->state_path);
	return 0;
}

static int save_state(void *userdata)
{
	return rules_stage_flush(userdata);
}

int rules_stage_setup(struct rules_stage *st, const char *const *dirs, size_t n_dirs,
		      const char *state_directory)
{
	int r;

	json_writer_init(&st->json);
	st->save = (struct rules_save) { .save = save_state, .userdata = st };
	r = rules_load(dirs, n_dirs, &st->set);
	if (r < 0)
		return r;
	r = rule_engine_new(&st->set, 0, &st->engine);
	if (r < 0)
		return log_error_errno(r, "Out of memory");
	if (st->read_slots) {
		r = slot_names_load(&st->slots, st->dmi_dir, st->slots_dir);
		if (r < 0)
			return r;
	}
	if (state_directory) {
		if (asprintf(&st->state_path, "%s/%s", state_directory, RULES_STATE_FILE) < 0) {
			st->state_path = NULL;
			return log_error_errno(-ENOMEM, "Out of memory");
		}
		if (asprintf(&st->journal_path, "%s.journal", st->state_path) < 0) {
			st->journal_path = NULL;
			return log_error_errno(-ENOMEM, "Out of memory");
		}
		bool found = false;

		r = load_state(st, &found);
		if (r < 0)
			return r;
		/* Never append behind what a crash left (a cut line): the journal starts anew. */
		if (found)
			(void) rules_stage_save(st);
	}
	r = module_stage_setup(&st->modules, &st->module_thresholds, state_directory);
	if (r < 0)
		return r;
	log_info("%u rule%s in effect", st->set.n_rules, st->set.n_rules == 1 ? "" : "s");
	return 0;
}

static bool same_definition(const struct rule *a, const struct rule *b)
{
	return streq(a->name, b->name) && a->n_terms == b->n_terms && a->n_key == b->n_key &&
	       a->count == b->count && a->window_usec == b->window_usec &&
	       memcmp(a->terms, b->terms, a->n_terms * sizeof(a->terms[0])) == 0 &&
	       memcmp(a->key, b->key, a->n_key * sizeof(a->key[0])) == 0;
}

static const struct rule *find_rule(const struct rule_set *set, const char *name)
{
	for (unsigned i = 0; i < set->n_rules; i++)
		if (streq(set->rules[i].name, name))
			return &set->rules[i];
	return NULL;
}

int rules_stage_reload(struct rules_stage *st, const char *const *dirs, size_t n_dirs)
{
	struct rule_state counts = { 0 };
	struct rule_set set, old;
	int r;

	/* The slot names first: a bad rule file keeps the running rules, not the old names. */
	if (st->read_slots)
		(void) slot_names_load(&st->slots, st->dmi_dir, st->slots_dir);
	r = rules_load(dirs, n_dirs, &set);
	if (r < 0) {
		log_error("Rules not reloaded: keeping the %u running rule%s and their counts",
			  st->set.n_rules, st->set.n_rules == 1 ? "" : "s");
		return r;
	}
	if (st->engine) {
		r = rule_state_capture(&counts, st->engine, (uint64_t) now_realtime_usec());
		if (r < 0) {
			rule_set_done(&set);
			rule_state_done(&counts);
			return log_error_errno(r, "Out of memory reloading the rules; keeping the running ones");
		}
	}
	/* The engine points at st->set: the new set moves in before the new engine is made. */
	st->engine = rule_engine_free(st->engine);
	old = st->set;
	st->set = set;
	r = rule_engine_new(&st->set, 0, &st->engine);
	if (r < 0) {
		rule_set_done(&st->set);
		st->set = old;
		old = (struct rule_set) { 0 };
		if (rule_engine_new(&st->set, 0, &st->engine) < 0)
			st->engine = NULL;
		log_error_errno(r, "Out of memory reloading the rules; keeping the running ones%s",
				st->engine ? ", their counts lost" : ": none in effect");
	}
	/* Counts carry over only to a rule that counts the same records the same way. */
	for (unsigned i = 0; st->engine && i < counts.n_buckets; i++) {
		const struct rule_state_bucket *b = counts.buckets[i];
		const struct rule *before = find_rule(r < 0 ? &st->set : &old, b->rule);
		const struct rule *now = find_rule(&st->set, b->rule);

		if (before && now && same_definition(before, now) &&
		    rule_engine_restore(st->engine, b->rule, b->key, b->holdoff_until, b->times,
					b->n_times) < 0)
			break;
	}
	rule_set_done(&old);
	rule_state_done(&counts);
	if (r < 0)
		return r;
	log_info("Rules reloaded: %u rule%s in effect", st->set.n_rules, st->set.n_rules == 1 ? "" : "s");
	/* The journal names the old rules' counts, which a changed rule no longer has: written whole. */
	if (st->state_path)
		(void) rules_stage_save(st);
	return 0;
}

int rules_stage_save(struct rules_stage *st)
{
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r;

	if (!st->state_path || !st->engine)
		return 0;
	/* Rows whose pages have all expired, or whose rule is gone, carry nothing worth a line. */
	(void) row_pages_prune(&st->state, &st->set, (uint64_t) now_realtime_usec());
	r = rule_state_capture(&st->state, st->engine, (uint64_t) now_realtime_usec());
	if (r >= 0)
		r = rule_state_format(&st->state, &text, &len);
	if (r >= 0)
		r = write_file_atomic(st->state_path, text, len, true);
	if (r < 0)
		return log_error_errno(r, "Failed to save the rules' state to %s: %m", st->state_path);
	/* A journal begun from now on follows this state (its base line). */
	st->state.has_file_sum = rule_state_text_sum(text, len, &st->state.file_sum) >= 0;
	st->state_bytes = len;
	st->save_whole = false;
	rule_state_changes_done(&st->state, st->engine);
	journal_empty(st);
	rules_save_done(&st->save, st->engine);
	return 0;
}

int rules_stage_flush(struct rules_stage *st)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r;

	if (!st->state_path || !st->engine)
		return 0;
	if (st->save_whole || journal_outgrown(st))
		return rules_stage_save(st);
	r = rule_state_format_changes(&st->state, st->engine, &text, &len);
	if (r < 0) {
		log_error_errno(r, "Out of memory journalling the rules' counts; writing the state whole");
		return rules_stage_save(st);
	}
	if (len > 0) {
		r = journal_append(st, text, len, true);
		/* Not appended, not lost: the state written whole holds it. */
		if (r < 0)
			return rules_stage_save(st);
		rule_state_changes_done(&st->state, st->engine);
		if (journal_outgrown(st))
			return rules_stage_save(st);
	}
	rules_save_done(&st->save, st->engine);
	return 0;
}

static int emit_alert(struct rules_stage *st, const struct rule_alert *a)
{
	struct sink_entry e = { .kind = SINK_ENTRY_ALERT, .alert = a };

	alert_write_json(a, st->hostname, st->boot_id, &st->json);
	e.json = json_writer_failed(&st->json) ? NULL : json_writer_str(&st->json);
	st->n_alerts++;
	(void) rule_state_add_alert(&st->state, &(struct rule_state_alert) { .time_usec = (uint64_t) a->time_usec });
	if (st->state.n_alerts > 0) {
		struct rule_state_alert *last = &st->state.alerts[st->state.n_alerts - 1];

		snprintf(last->rule, sizeof(last->rule), "%s", a->rule);
		snprintf(last->key, sizeof(last->key), "%s", a->key);
	}
	return st->emit(st->core, &e);
}

void rules_stage_memory_failure(const struct rules_stage *st, struct memory_failure_view *ret)
{
	if (st->read_memory_failure)
		memory_failure_read(st->procfs, st->sysfs_node, ret);
	else
		*ret = (struct memory_failure_view) { .enable_soft_offline = -1, .memory_failure_recovery = -1 };
}

/* The module serial SMBIOS gives for the record's slot, NULL if none is known. */
static const char *slot_serial(const struct rules_stage *st, const struct rule_input *in)
{
	struct rule_value slot;

	if (!rule_field_get(in, RULE_FIELD_SLOT, &slot) || !slot.is_string)
		return NULL;
	for (size_t i = 0; i < st->slots.n_devs; i++)
		if (streq(st->slots.devs[i].locator, rule_value_string(&slot)) && st->slots.devs[i].serial[0])
			return st->slots.devs[i].serial;
	return NULL;
}

/*
 * The module ledger (module-stage.h).  A change of verdict is an entry of
 * its own class (MESSAGE_ID module verdict, MCE_MODULE_* fields), raised
 * like an alert so that every sink, triggers' readers and the metrics see it.
 */
#define MODULE_VERDICT_RULE "module-verdict"

static int verdict_priority(enum module_verdict v)
{
	static const int priorities[_MODULE_VERDICT_MAX] = {
		[MODULE_OK] = LOG_INFO,
		[MODULE_WATCH] = LOG_NOTICE,
		[MODULE_ISOLATING] = LOG_WARNING,
		[MODULE_REPAIR_EXHAUSTED] = LOG_ERR,
		[MODULE_REPLACE] = LOG_ERR,
	};

	return (unsigned) v < _MODULE_VERDICT_MAX ? priorities[v] : LOG_ERR;
}

static void emit_verdict(struct rules_stage *st, const struct module_change *c, const struct rule_input *in,
			 int64_t time_usec)
{
	const struct module_entry *m = c->module;
	uint64_t errors = m->corrected + m->uncorrected;
	char message[512];

	snprintf(message, sizeof(message), "Memory module %s (%s, %s%s): %s, was %s: %s", m->id.slot,
		 module_kind_to_string(m->id.kind), m->id.fallback ? "no serial" : "serial ",
		 m->id.fallback ? "" : m->id.serial, module_verdict_to_string(c->to), module_verdict_to_string(c->from),
		 m->reason);
	st->modules.n_changes++;
	(void) emit_alert(st, &(struct rule_alert) {
		.rule = MODULE_VERDICT_RULE, .key = m->id.key, .count = errors > UINT_MAX ? UINT_MAX : (unsigned) errors,
		.first_usec = m->first_usec, .time_usec = time_usec, .priority = verdict_priority(c->to),
		.actions = "alert", .message = message, .input = in, .module = c,
	});
}

/* After a ledger update: a change's entry, the file written soon, the bound said once. */
static void module_updated(struct rules_stage *st, int r, const struct module_change *c, const struct rule_input *in,
			   int64_t time_usec)
{
	if (r == -ENOSPC && !st->module_full_logged) {
		st->module_full_logged = true;
		log_warning("The module ledger holds %d modules, its bound: events of further modules are not "
			    "kept (counted in mcectl status)", MODULE_LEDGER_MAX);
	} else if (r == -ENOMEM) {
		log_error_errno(r, "Out of memory keeping the module ledger: %m");
	}
	if (r > 0)
		emit_verdict(st, c, in, time_usec);
	if (r >= 0)
		module_stage_changed(&st->modules, st->event);
}

struct verdict_ctx {
	struct rules_stage *st;
	const struct rule_input *in;
	int64_t time_usec;
};

static void verdict_changed(const struct module_change *c, void *userdata)
{
	struct verdict_ctx *x = userdata;

	emit_verdict(x->st, c, x->in, x->time_usec);
}

/* What names this machine's modules: its SMBIOS structures, the slot overrides, its id. */
static struct module_host module_host_of(const struct rules_stage *st)
{
	return (struct module_host) { .devs = st->slots.devs, .n_devs = st->slots.n_devs,
				      .overrides = &st->slots.overrides, .machine_id = st->machine_id };
}

/* The record's memory error (or a CXL device's spares) into its module's ledger entry (rules/module-feed.h). */
static void ledger_record(struct rules_stage *st, const struct rule_input *in, int64_t time_usec, bool paired)
{
	const struct module_host host = module_host_of(st);
	struct verdict_ctx x = { .st = st, .in = in, .time_usec = time_usec };
	int r;

	/* Kept where state is kept: live, or a replay given --state-directory. */
	if (!st->modules.state_path)
		return;
	r = module_feed_record(&st->modules.ledger, &st->modules.feed, &host, in, time_usec, paired,
			       verdict_changed, &x);
	if (r != 0)
		module_updated(st, r > 0 ? 0 : r, NULL, in, time_usec);
}

/* Pages or rows retired from the module of the record that asked for it (none at start). */
static void ledger_retired(struct rules_stage *st, const struct rule_input *in, unsigned pages, unsigned rows)
{
	const struct module_host host = module_host_of(st);
	struct module_change c;
	struct module_id id;

	if (!in || !st->modules.state_path || !module_id_of_record(in, &host, &id))
		return;
	module_updated(st, module_ledger_retired(&st->modules.ledger, &id, pages, rows, &c), &c, in,
		       st->record_time_usec);
}

static void ledger_repair(struct rules_stage *st, const struct rule_input *in, const struct mem_repair_report *rep)
{
	static const enum module_repair outcomes[_MEM_REPAIR_OUTCOME_MAX] = {
		[MEM_REPAIR_DONE] = MODULE_REPAIR_DONE,
		[MEM_REPAIR_REFUSED] = MODULE_REPAIR_REFUSED,
		[MEM_REPAIR_FAILED] = MODULE_REPAIR_FAILED,
		[MEM_REPAIR_WOULD] = _MODULE_REPAIR_MAX,   /* a replay's: nothing was asked */
	};
	enum mem_repair_refusal why = rep->plan ? rep->plan->refusal : MEM_REPAIR_GO;
	const struct module_host host = module_host_of(st);
	struct module_change c;
	struct module_id id;

	if ((unsigned) rep->outcome >= _MEM_REPAIR_OUTCOME_MAX || outcomes[rep->outcome] == _MODULE_REPAIR_MAX)
		return;
	if (!in || !st->modules.state_path || !module_id_of_record(in, &host, &id))
		return;
	module_updated(st, module_ledger_repair(&st->modules.ledger, &id, outcomes[rep->outcome],
						why == MEM_REPAIR_LIMIT_DEVICE || why == MEM_REPAIR_LIMIT_DAY, &c),
		       &c, in, st->record_time_usec);
}

struct settle_ctx {
	struct rules_stage *st;
	int64_t now_usec;
	unsigned moved;
};

static void settled(const struct module_change *c, void *userdata)
{
	struct settle_ctx *x = userdata;

	x->moved++;
	emit_verdict(x->st, c, NULL, x->now_usec);
}

unsigned rules_stage_settle_modules(struct rules_stage *st)
{
	struct settle_ctx x = { .st = st, .now_usec = now_realtime_usec() };

	module_ledger_set_thresholds(&st->modules.ledger, &st->module_thresholds, settled, &x);
	if (x.moved > 0)
		module_stage_changed(&st->modules, st->event);
	return x.moved;
}

void rules_stage_write_module_status(const struct rules_stage *st, struct json_writer *w)
{
	const struct module_ledger *l = &st->modules.ledger;
	uint64_t by[_MODULE_VERDICT_MAX] = { 0 };
	const struct module_entry *worst = NULL;

	for (size_t i = 0; i < l->n; i++) {
		by[l->e[i].verdict]++;
		if (!worst || l->e[i].verdict > worst->verdict)
			worst = &l->e[i];
	}
	json_object_begin(w, "modules");
	json_put_u64(w, "total", l->n);
	for (unsigned v = 0; v < _MODULE_VERDICT_MAX; v++)
		json_put_u64(w, module_verdict_to_string((enum module_verdict) v), by[v]);
	json_put_u64(w, "verdict_changes", st->modules.n_changes);
	json_put_u64(w, "refused_full", l->n_refused);
	json_put_u64(w, "damaged_lines", st->modules.n_damaged_lines);
	json_put_u64(w, "save_failures", st->modules.n_save_failures);
	if (st->modules.state_path)
		json_put_string(w, "state_file", st->modules.state_path);
	if (worst && worst->verdict != MODULE_OK) {
		json_object_begin(w, "worst");
		module_entry_write_fields(worst, w);
		json_object_end(w);
	}
	json_object_end(w);
}

/*
 * The page's entry as it is about to be offlined: this boot, this machine,
 * the memory the record names and the record itself (rules/page-identity.h).
 * At start (no record) the page keeps what it knew.
 */
static void page_entry(const struct rules_stage *st, uint64_t pfn, bool hard, const char *rule,
		       const struct rule_input *in, struct rule_state_page *ret)
{
	const struct rule_state_page *known = rule_state_find_page(&st->state, pfn);
	struct rule_value sev = { 0 }, src = { 0 };

	*ret = known ? *known : (struct rule_state_page) { .pfn = pfn };
	ret->hard = hard;
	ret->time_usec = (uint64_t) now_realtime_usec();
	snprintf(ret->boot_id, sizeof(ret->boot_id), "%s", st->boot_id ? st->boot_id : "");
	snprintf(ret->machine_id, sizeof(ret->machine_id), "%s", st->machine_id ? st->machine_id : "");
	if (!in)
		return;
	page_identity_of_record(in, slot_serial(st, in), ret->identity, sizeof(ret->identity));
	(void) rule_field_get(in, RULE_FIELD_SEVERITY, &sev);
	(void) rule_field_get(in, RULE_FIELD_SOURCE, &src);
	snprintf(ret->origin, sizeof(ret->origin), "rule=%.48s;severity=%.16s;source=%.40s;record_usec=%" PRId64, rule,
		 sev.is_string ? rule_value_string(&sev) : "-", src.is_string ? rule_value_string(&src) : "-",
		 st->record_time_usec);
}

/*
 * Offlines one page: the intent first (pending, saved with save_intent so
 * that a crash or a panic between the write and the save cannot make a
 * later start write again in this boot), then the write, then the outcome.
 * Returns 0 or the negative errno; -EPERM when vm.enable_soft_offline
 * forbids it (the kernel would answer EOPNOTSUPP: saying why is kinder);
 * -ENOLCK when a hard offline's intent could not be saved.
 */
static int offline_one_page(struct rules_stage *st, struct rule_state_page *entry, bool save_intent,
			    const struct memory_failure_view *kernel)
{
	int r = 0;

	entry->pending = true;
	entry->ok = entry->held = entry->held_absent = entry->salvaged = false;
	(void) rule_state_set_page(&st->state, entry);
	if (save_intent)
		r = journal_page(st, entry, true);
	if (r < 0 && entry->hard)
		r = -ENOLCK;
	else if (!entry->hard && !memory_failure_soft_offline_allowed(kernel))
		r = -EPERM;
	else
		r = page_offline(st->sysfs_memory, entry->pfn, entry->hard);
	if (st->acted)
		st->acted(st->core, entry->hard ? "hard-offline" : "soft-offline", r >= 0);
	entry->pending = false;
	entry->ok = r >= 0;
	(void) rule_state_set_page(&st->state, entry);
	if (r >= 0)
		ledger_retired(st, st->record, 1, 0);
	/* Not synced: lost in a crash, the intent stands, and nothing is written twice. */
	if (save_intent)
		(void) journal_page(st, entry, false);
	if (r < 0) {
		st->n_actions_failed++;
		st->n_offline_refused++;
	}
	return r;
}

static const char *offline_error(int r)
{
	return r == -EPERM ? "the kernel forbids soft offlining (vm.enable_soft_offline=0)" :
	       r == -ENOLCK ? "its intent could not be saved to the state file, and a hard offline is never "
			      "done without it" : strerror(-r);
}

/* A page counts as offlined only if the kernel took it in this boot: it forgets at a reboot. */
static bool offlined_this_boot(const struct rules_stage *st, const struct rule_state_page *p)
{
	return p && p->ok && st->boot_id && st->boot_id[0] && streq(p->boot_id, st->boot_id);
}

/* An intent of this boot without its outcome: a crash came between; never written twice. */
static bool pending_this_boot(const struct rules_stage *st, const struct rule_state_page *p)
{
	return p && p->pending && st->boot_id && st->boot_id[0] && streq(p->boot_id, st->boot_id);
}

/*
 * Offlines one page for rule `rule` (a firing's, or a row's page seen after
 * it crossed) as record `in` allows (rules/page-action.h): never twice in a
 * boot, only "would" when replaying; a refusal or a lesser action than asked
 * raises alert a (the firing's, its message replaced).
 */
static void act_on_page(struct rules_stage *st, const char *rule, uint64_t pfn, bool want_hard,
			const struct rule_input *in, struct rule_alert *a)
{
	const struct rule_state_page *done = rule_state_find_page(&st->state, pfn);
	struct memory_failure_view kernel;
	struct page_action_plan plan;
	struct rule_state_page entry;
	struct rule_alert refused;
	const char *how;
	char message[512];
	int r;

	if (offlined_this_boot(st, done) || pending_this_boot(st, done)) {
		log_info("Rule '%s': page 0x%" PRIx64 " was %s-offlined %sin this boot, not again", rule, pfn,
			 done->hard ? "hard" : "soft", done->pending ? "(its outcome unknown: a restart came between) " : "already ");
		return;
	}
	if (!st->act_pages) {
		log_notice("Rule '%s': would %s page 0x%" PRIx64 " (not done when replaying)", rule,
			   want_hard ? "hard-offline" : "soft-offline", pfn);
		return;
	}
	rules_stage_memory_failure(st, &kernel);
	page_action_plan(want_hard, false, in, kernel.memory_failure_recovery, &plan);
	if (plan.downgraded) {
		st->n_hard_refused++;
		snprintf(message, sizeof(message), "Rule %s: page 0x%" PRIx64 ": %s", rule, pfn, plan.why);
		log_warning("%s", message);
		refused = *a;
		refused.failed_action = "hard-offline";
		refused.message = message;
		refused.priority = LOG_WARNING;
		(void) emit_alert(st, &refused);
	}
	if (plan.action == PAGE_ACTION_REFUSE)
		return;
	how = page_action_to_string(plan.action);
	page_entry(st, pfn, plan.action == PAGE_ACTION_HARD, rule, in, &entry);
	r = offline_one_page(st, &entry, true, &kernel);
	if (r >= 0) {
		log_notice("Rule '%s': page 0x%" PRIx64 " (address 0x%" PRIx64 ") %s: done", rule, pfn,
			   pfn << 12, how);
		return;
	}
	log_warning("Rule '%s': %s of page 0x%" PRIx64 " failed: %s", rule, how, pfn, offline_error(r));
	snprintf(message, sizeof(message), "Rule %s: %s of page 0x%" PRIx64 " failed: %s", rule, how, pfn,
		 offline_error(r));
	a->failed_action = how;
	a->message = message;
	a->priority = LOG_ERR;
	(void) emit_alert(st, a);
	a->message = NULL;
}

static void offline_page(struct rules_stage *st, const struct rule_firing *f, struct rule_alert *a)
{
	struct rule_value page;

	/* Key= includes page (the parser insists), so the record has one. */
	if (!rule_field_get(f->input, RULE_FIELD_PAGE, &page))
		return;
	act_on_page(st, f->rule->name, page.u, f->rule->actions & RULE_ACTION_HARD_OFFLINE, f->input, a);
}

/* The row crossed its threshold: every page seen on it, soft-offlined (row-pages.h). */
static void offline_row(struct rules_stage *st, const struct rule_state_row *row, const struct rule_input *in,
			struct rule_alert *a)
{
	uint64_t pfns[RULE_STATE_ROW_PAGES];
	unsigned n = row ? row->n_pages : 0;

	/* Copied: a refusal's alert changes the state the row lives in. */
	for (unsigned i = 0; i < n; i++)
		pfns[i] = row->pages[i].pfn;
	if (row)
		ledger_retired(st, in, 0, 1);
	if (n == 0)
		log_info("Rule '%s': row %s crossed its threshold; no page seen on it yet (its records "
			 "named none), any seen later is offlined at once", a->rule, a->key);
	for (unsigned i = 0; i < n; i++)
		act_on_page(st, a->rule, pfns[i], false, in, a);
}

/* A page first seen on a row that crossed its threshold before: offlined at once. */
static void offline_row_page_now(const struct rule *r, const struct rule_state_row *row, uint64_t pfn,
				 void *userdata)
{
	struct rules_stage *st = userdata;
	char message[512];
	struct rule_alert a = {
		.rule = r->name, .key = row ? row->key : "", .count = r->count, .window_usec = r->window_usec,
		.time_usec = st->record_time_usec, .priority = r->priority, .actions = "offline-row",
		.message = message, .input = st->record,
	};

	snprintf(message, sizeof(message), "Rule %s: page 0x%" PRIx64 " is on row %s, which crossed its "
		 "threshold before: a page seen on it later is soft-offlined at once", r->name, pfn, a.key);
	log_notice("%s", message);
	if (r->actions & RULE_ACTION_ALERT)
		(void) emit_alert(st, &a);
	act_on_page(st, r->name, pfn, false, st->record, &a);
	st->row_page_acted = true;
}

void rules_stage_write_memory_status(const struct rules_stage *st, struct json_writer *w)
{
	struct memory_failure_view v;
	uint64_t this_boot = 0, rows_crossed = 0, held_waiting = 0;

	rules_stage_memory_failure(st, &v);
	for (unsigned i = 0; i < st->state.n_rows; i++)
		if (st->state.rows[i].isolated_usec)
			rows_crossed++;
	for (unsigned i = 0; i < st->state.n_pages; i++) {
		this_boot += offlined_this_boot(st, &st->state.pages[i]);
		held_waiting += page_hold_retry_wanted(&st->state.pages[i]);
	}
	json_object_begin(w, "memory");
	json_put_bool(w, "soft_offline_allowed", memory_failure_soft_offline_allowed(&v));
	if (v.enable_soft_offline >= 0)
		json_put_i64(w, "enable_soft_offline", v.enable_soft_offline);
	if (v.memory_failure_recovery >= 0)
		json_put_i64(w, "memory_failure_recovery", v.memory_failure_recovery);
	if (v.have_hardware_corrupted)
		json_put_u64(w, "hardware_corrupted_kib", v.hardware_corrupted_kib);
	if (v.n_nodes > 0) {
		json_object_begin(w, "memory_failure");
		json_put_u64(w, "nodes", v.n_nodes);
		for (unsigned i = 0; i < MEMORY_FAILURE_COUNTERS; i++)
			json_put_u64(w, memory_failure_counter_names[i], v.counters[i]);
		json_object_end(w);
	}
	json_put_u64(w, "pages_known_bad", st->state.n_pages);
	json_put_u64(w, "pages_offlined_this_boot", this_boot);
	json_put_u64(w, "pages_offlined_again_at_start", st->n_offlined_again);
	json_put_u64(w, "offlinings_refused", st->n_offline_refused);
	/* Issue 36: hard offlines refused or done soft instead, pages held back at start. */
	json_put_u64(w, "hard_offlines_refused", st->n_hard_refused);
	json_put_u64(w, "pages_held_memory_changed", st->n_pages_held);
	/* Of those, held for memory not there yet, and those offlined since it came online. */
	json_put_u64(w, "pages_held_waiting_for_memory", held_waiting);
	json_put_u64(w, "pages_offlined_when_memory_came_online", st->n_retried_offlined);
	json_put_u64(w, "pages_salvaged", st->n_pages_salvaged);
	json_put_u64(w, "rows_tracked", st->state.n_rows);
	json_put_u64(w, "rows_crossed", rows_crossed);
	/* What the bounds cost (rule-state.h): rows pushed out, pages a full row did not keep. */
	json_put_u64(w, "rows_evicted", st->state.rows_evicted);
	json_put_u64(w, "row_pages_dropped", st->state.row_pages_dropped);
	/* Memory repair (Action=repair): whether it may act, what this run asked, what the state holds. */
	json_put_bool(w, "repair_enabled", st->repair_limits.enabled);
	json_put_string(w, "repair_persist", st->repair_limits.allow_hard ? "hard" : "soft");
	for (unsigned o = 0; o < _MEM_REPAIR_OUTCOME_MAX; o++) {
		char key[32];

		snprintf(key, sizeof(key), "repairs_%s", mem_repair_outcome_to_string(o));
		json_put_u64(w, key, st->n_repairs[o]);
	}
	/* Each refusal by its reason (MCE_REPAIR_REFUSED), those of this run. */
	json_object_begin(w, "repairs_refused_by_reason");
	for (unsigned r = 0; r < _MEM_REPAIR_REFUSAL_MAX; r++)
		if (st->n_repair_refusals[r] > 0)
			json_put_u64(w, mem_repair_refusal_to_string((enum mem_repair_refusal) r), st->n_repair_refusals[r]);
	json_object_end(w);
	json_put_u64(w, "repairs_known", st->state.n_repairs);
	json_object_end(w);
}

/* The alert of a start that could not offline a known-bad page again. */
#define OFFLINE_AGAIN_RULE "page-offline-again"

static void offline_again_failed(struct rules_stage *st, uint64_t pfn, int r)
{
	char key[64], message[256];

	snprintf(key, sizeof(key), "page=0x%" PRIx64, pfn);
	snprintf(message, sizeof(message), "Page 0x%" PRIx64 ", offlined in an earlier boot for its "
		 "errors, could not be offlined again: %s", pfn, offline_error(r));
	log_warning("%s", message);
	(void) emit_alert(st, &(struct rule_alert) {
		.rule = OFFLINE_AGAIN_RULE, .key = key, .count = 1, .time_usec = now_realtime_usec(),
		.priority = LOG_ERR, .actions = "soft-offline", .failed_action = "soft-offline", .message = message,
	});
}

/*
 * Whether a page of the state is offlined again at this start: not one this
 * boot took (or meant to, before a crash), not with OfflineAgainAtBoot=no
 * or when replaying, not when its memory is not the memory that erred
 * (page-memory-check.h: held, said once, kept for an operator; one held for
 * memory not there yet is looked at again when memory comes online).
 */
static bool offline_again_wanted(struct rules_stage *st, struct rule_state_page *p, struct page_memory_now *now)
{
	bool was_held = p->held;
	char why[256];

	if (offlined_this_boot(st, p))
		return false;
	if (pending_this_boot(st, p)) {
		log_notice("Page 0x%" PRIx64 ": an offlining of this boot was interrupted before its outcome was "
			   "saved; not written again", p->pfn);
		return false;
	}
	if (!st->offline_again_at_boot || !st->act_pages) {
		log_info("Page 0x%" PRIx64 " was %s-offlined in an earlier boot; not again at start (%s)",
			 p->pfn, p->hard ? "hard" : "soft",
			 st->act_pages ? "OfflineAgainAtBoot=no" : "not done when replaying");
		return false;
	}
	if (p->salvaged) {
		st->n_pages_salvaged++;
		return false;
	}
	if (page_hold_note(p, page_memory_check(p, now, why, sizeof(why))))
		return true;
	if (!was_held)
		log_warning("Page 0x%" PRIx64 " is known bad, but not offlined again: %s; kept for an operator "
			    "(mcectl pages)%s", p->pfn, why,
			    p->held_absent ? "; looked at again when memory comes online in this boot" : "");
	st->n_pages_held++;
	return false;
}

/* A known-bad page to offline again, and whether it was hard-offlined when it went bad. */
struct again_page {
	uint64_t pfn;
	bool was_hard;
};

/*
 * Offlines the pages of todo[0..n) again, each by migration, each intent
 * saved before its write; when: "" at start, else what brought it about,
 * for the log.
 */
static unsigned offline_again(struct rules_stage *st, const struct again_page *todo, unsigned n, const char *when,
			      bool save_intent)
{
	struct memory_failure_view kernel;
	unsigned again = 0;

	rules_stage_memory_failure(st, &kernel);
	for (unsigned i = 0; i < n; i++) {
		/* Only ever by migration, whatever took the page then (page-action.h). */
		struct rule_state_page e;
		int r;

		page_entry(st, todo[i].pfn, false, NULL, NULL, &e);
		/* Each migration can take a while, and at start this runs before READY=1 (review M17). */
		keepalive();
		r = offline_one_page(st, &e, save_intent, &kernel);
		if (r < 0) {
			offline_again_failed(st, todo[i].pfn, r);
			continue;
		}
		again++;
		st->n_offlined_again++;
		log_notice("Page 0x%" PRIx64 ", offlined in an earlier boot, soft-offline again%s: done%s",
			   todo[i].pfn, when, todo[i].was_hard ? " (it was hard-offlined then; offlined again, a page is only ever "
			   "soft-offlined, so nothing is lost and vm.memory_failure_recovery=0 cannot panic)" : "");
	}
	return again;
}

unsigned rules_stage_offline_again(struct rules_stage *st)
{
	struct page_memory_now now = {
		.machine_id = st->machine_id, .sysfs_memory = st->sysfs_memory, .sysfs_cxl = st->sysfs_cxl,
		.memory_block_bytes = st->state.n_pages ? page_memory_block_bytes(st->sysfs_memory) : 0,
		.devs = st->slots.devs, .n_devs = st->slots.n_devs,
	};
	_cleanup_free_ struct again_page *todo = NULL;
	unsigned again, n_todo = 0, n = st->state.n_pages;
	bool held_changed = false;

	st->n_pages_held = st->n_pages_salvaged = 0;
	if (n == 0)
		return 0;
	todo = calloc(n, sizeof(*todo));
	if (!todo) {
		log_error("Out of memory: the known-bad pages are not offlined again at this start");
		return 0;
	}
	for (unsigned i = 0; i < n; i++) {
		bool was_held = st->state.pages[i].held;

		if (offline_again_wanted(st, &st->state.pages[i], &now))
			todo[n_todo++] = (struct again_page) { st->state.pages[i].pfn, st->state.pages[i].hard };
		held_changed |= was_held != st->state.pages[i].held;
	}
	page_memory_now_done(&now);
	/* Each page's intent, saved once for all before any write (offline_one_page() without its own save). */
	for (unsigned i = 0; i < n_todo; i++) {
		struct rule_state_page e;

		page_entry(st, todo[i].pfn, false, NULL, NULL, &e);
		e.pending = true;
		(void) rule_state_set_page(&st->state, &e);
	}
	if (n_todo > 0 || held_changed)
		(void) rules_stage_save(st);
	again = offline_again(st, todo, n_todo, "", false);
	if (n_todo > 0)
		(void) rules_stage_save(st);
	return again;
}

unsigned rules_stage_retry_held(struct rules_stage *st, const char *cause)
{
	struct page_memory_now now = {
		.machine_id = st->machine_id, .sysfs_memory = st->sysfs_memory, .sysfs_cxl = st->sysfs_cxl,
		.devs = st->slots.devs, .n_devs = st->slots.n_devs,
	};
	_cleanup_free_ struct again_page *todo = NULL;
	unsigned n_wanted = 0, n_todo = 0, still = 0, changed = 0, again, n = st->state.n_pages;

	for (unsigned i = 0; i < n; i++)
		n_wanted += page_hold_retry_wanted(&st->state.pages[i]);
	/* A reload may have turned it off since start: then nothing is offlined again, as at start. */
	if (n_wanted == 0 || !st->offline_again_at_boot || !st->act_pages) {
		log_debug("Memory came online (%s): no known-bad page waits for it", cause);
		return 0;
	}
	todo = calloc(n_wanted, sizeof(*todo));
	if (!todo) {
		log_error("Out of memory: the held known-bad pages are not looked at again");
		return 0;
	}
	/* The block size is read afresh: memory hotplug is what happened. */
	now.memory_block_bytes = page_memory_block_bytes(st->sysfs_memory);
	log_info("Memory came online (%s): looking again at %u known-bad page%s held for memory that was not "
		 "there", cause, n_wanted, n_wanted == 1 ? "" : "s");
	for (unsigned i = 0; i < n; i++) {
		struct rule_state_page *p = &st->state.pages[i];
		enum page_memory_verdict v;
		char why[256];

		if (!page_hold_retry_wanted(p))
			continue;
		v = page_memory_check(p, &now, why, sizeof(why));
		if (page_hold_note(p, v)) {
			log_info("Page 0x%" PRIx64 ": its memory is back, the memory that erred: offlining it again",
				 p->pfn);
			todo[n_todo++] = (struct again_page) { p->pfn, p->hard };
		} else if (v == PAGE_MEMORY_CHANGED) {
			changed++;
			log_warning("Page 0x%" PRIx64 " is known bad, but not offlined again: %s; kept for an "
				    "operator (mcectl pages), not looked at again in this boot", p->pfn, why);
		} else {
			still++;
			log_info("Page 0x%" PRIx64 " still held: %s", p->pfn, why);
		}
	}
	page_memory_now_done(&now);
	/* The same path as a live firing: each intent appended and synced before its write. */
	again = offline_again(st, todo, n_todo, " now that its memory came online", true);
	st->n_pages_held -= n_todo <= st->n_pages_held ? n_todo : st->n_pages_held;
	st->n_retried_offlined += again;
	/* Pages held for good: no journal line says that, the state is written whole. */
	if (st->state_path && changed > 0)
		st->save_whole = true;
	if (st->state_path && (n_todo > 0 || changed > 0))
		rules_save_soon(&st->save, st->event);
	log_info("Memory came online: of %u held page%s, %u offlined again, %u refused, %u still waiting, %u "
		 "held for good (other memory)", n_wanted, n_wanted == 1 ? "" : "s", again, n_todo - again, still,
		 changed);
	return again;
}

#define PAGE_FORGOTTEN_RULE "page-forgotten"

int rules_stage_forget_page(struct rules_stage *st, uint64_t pfn, unsigned uid, int pid)
{
	const struct rule_state_page *p = rule_state_find_page(&st->state, pfn);
	char key[64], message[512];
	int r;

	if (!p)
		return -ENOENT;
	snprintf(key, sizeof(key), "page=0x%" PRIx64, pfn);
	snprintf(message, sizeof(message), "Page 0x%" PRIx64 " forgotten at the request of uid %u (pid %d): it "
		 "is no longer known bad and will not be offlined again (it was %s-offlined, memory %s, %s)",
		 pfn, uid, pid, p->hard ? "hard" : "soft", p->identity[0] ? p->identity : "unknown",
		 p->origin[0] ? p->origin : "origin unknown");
	(void) rule_state_forget_page(&st->state, pfn);
	r = rules_stage_save(st);
	log_notice("%s", message);
	(void) emit_alert(st, &(struct rule_alert) {
		.rule = PAGE_FORGOTTEN_RULE, .key = key, .count = 1, .time_usec = now_realtime_usec(),
		.priority = LOG_NOTICE, .actions = "forget", .message = message,
	});
	return r;
}

static void offline_cpu(struct rules_stage *st, const struct rule_firing *f, struct rule_alert *a)
{
	struct rule_value cpu;
	char message[256];
	int r;

	/* Key= includes cpu (the parser insists), so the record has one. */
	if (!rule_field_get(f->input, RULE_FIELD_CPU, &cpu))
		return;
	if (!st->act_cpus) {
		log_notice("Rule '%s': would take CPU %" PRIu64 " offline (not done when replaying)",
			   f->rule->name, cpu.u);
		return;
	}
	r = cpu_offline(st->sysfs_cpu, (unsigned) cpu.u);
	if (r == -EALREADY) {
		log_info("Rule '%s': CPU %" PRIu64 " is offline already", f->rule->name, cpu.u);
		return;
	}
	if (st->acted)
		st->acted(st->core, "cpu-offline", r >= 0);
	if (r >= 0) {
		log_notice("Rule '%s': CPU %" PRIu64 " taken offline", f->rule->name, cpu.u);
		return;
	}
	st->n_actions_failed++;
	snprintf(message, sizeof(message), "Rule %s: taking CPU %" PRIu64 " offline failed: %s",
		 f->rule->name, cpu.u,
		 r == -EBUSY ? "it is the last online CPU" :
		 r == -EOPNOTSUPP ? "the kernel cannot take this CPU offline" : strerror(-r));
	log_warning("%s", message);
	a->failed_action = "cpu-offline";
	a->message = message;
	a->priority = LOG_ERR;
	(void) emit_alert(st, a);
	a->message = NULL;   /* the caller's alert outlives this frame's message (review M18) */
}

/* ---- memory repair (Action=repair) ---- */

#define REPAIR_OFFERS_MAX 16   /* mem_repairN per device: the CXL driver registers at most five */
#define DAY_USEC (UINT64_C(86400) * 1000000)

struct repair_history_ctx {
	const struct rules_stage *st;
	uint64_t now_usec;           /* the wall clock at the repair: RepairsPerDay= counts by it */
};

/*
 * What the state says of earlier repairs of this device and this repair
 * unit.  Every kept repair counts against the limits (the kernel's refusals
 * are not kept); the unit is repaired while the device still has the
 * repair: a hard one for good, a soft one until the boot it was made in
 * ends.  An intent without an outcome (a crash in between) counts as done.
 */
static void repair_history(const char *device_key, const char *unit, struct mem_repair_history *ret,
			   void *userdata)
{
	const struct repair_history_ctx *c = userdata;
	const char *boot = c->st->boot_id ? c->st->boot_id : "";

	*ret = (struct mem_repair_history) { 0 };
	for (unsigned i = 0; i < c->st->state.n_repairs; i++) {
		const struct rule_state_repair *r = &c->st->state.repairs[i];

		if (!streq(r->device, device_key))
			continue;
		ret->device_total++;
		/* A repair dated after now (the clock was set back) is within the day too. */
		if (r->time_usec > c->now_usec || c->now_usec - r->time_usec < DAY_USEC)
			ret->device_last_day++;
		if (!streq(r->location, unit) || (!r->hard && (!boot[0] || !streq(r->boot_id, boot))))
			continue;
		ret->location_repaired = true;
		if (r->status == RULE_STATE_REPAIR_INTENT)
			ret->outcome_unknown = true;
	}
}

/*
 * Keeps the intent of a repair in the state, synced, before the device is
 * asked: a crash after the write can then never repeat it.  Returns its
 * index, or -1 (and fills plan's refusal) when it cannot be kept.
 */
static int keep_repair_intent(struct rules_stage *st, const struct mem_repair_target *t,
			      struct mem_repair_plan *p, uint64_t now_usec)
{
	struct rule_state_repair r = { .time_usec = now_usec, .status = RULE_STATE_REPAIR_INTENT, .hard = p->hard };
	int k;

	mem_repair_device_key(t, r.device, sizeof(r.device));
	snprintf(r.location, sizeof(r.location), "%s", p->unit);
	snprintf(r.boot_id, sizeof(r.boot_id), "%s", st->boot_id ? st->boot_id : "");
	if (!st->state_path) {
		p->refusal = MEM_REPAIR_NO_STATE;
		snprintf(p->why, sizeof(p->why), "mcelogd keeps no state here (no --state-directory): a repair "
			 "it could not remember after a restart is not made");
		return -1;
	}
	k = rule_state_add_repair(&st->state, &r);
	if (k >= 0) {
		k = rules_stage_save(st);
		if (k < 0)
			rule_state_remove_repair(&st->state, st->state.n_repairs - 1);
	}
	if (k < 0) {
		p->refusal = MEM_REPAIR_NO_STATE;
		snprintf(p->why, sizeof(p->why), "the intent to repair %s could not be saved to %s (%s): a repair "
			 "that a crash could make mcelogd repeat is not made", p->unit, st->state_path, strerror(-k));
		return -1;
	}
	return (int) st->state.n_repairs - 1;
}

/* "cxl_mem0 mem_repair0 (ppr, soft)" */
static void describe_offer(const struct mem_repair_offer *o, char *buf, size_t size)
{
	snprintf(buf, size, "%s mem_repair%u (%s%s)", o->device, o->instance,
		 o->type_text[0] ? o->type_text : "unknown type",
		 o->persist_mode < 0 ? "" : o->persist_mode ? ", hard" : ", soft");
}

/* One repair report: logged, counted (by outcome, and a refusal by its reason), in the journal. */
static void report_repair(struct rules_stage *st, struct rule_alert *a, const struct mem_repair_report *rep,
			  const char *message, int priority)
{
	st->n_repairs[rep->outcome]++;
	if (rep->outcome == MEM_REPAIR_REFUSED && (unsigned) rep->plan->refusal < _MEM_REPAIR_REFUSAL_MAX)
		st->n_repair_refusals[rep->plan->refusal]++;
	ledger_repair(st, a->input, rep);
	log_internal(priority, 0, "%s", message);
	a->priority = priority;
	a->message = message;
	a->repair = rep;
	(void) emit_alert(st, a);
	a->message = NULL;   /* neither outlives this report (review M18) */
	a->repair = NULL;
}

/*
 * Asks the device: the intent kept first, then the writes, each read back
 * before the repair itself.  Fills rep and message.  A write the kernel
 * refused before asking the device (mem_repair_kernel_refused(), or any
 * write before repair=1) leaves nothing in the state: it spends no limit.
 */
static void ask_repair(struct rules_stage *st, const char *rule, const struct mem_repair_target *t,
		       struct mem_repair_plan *plan, uint64_t now_usec, struct mem_repair_report *rep,
		       char *message, size_t size)
{
	struct mem_repair_result res;
	const struct mem_repair_write *w;
	char offer[128];
	int intent, r;

	describe_offer(plan->offer, offer, sizeof(offer));
	intent = keep_repair_intent(st, t, plan, now_usec);
	if (intent < 0) {
		rep->outcome = MEM_REPAIR_REFUSED;
		snprintf(message, size, "Rule %s: no memory repair of %s: %s", rule, t->memdev, plan->why);
		return;
	}
	r = mem_repair_execute(st->sysfs_edac, plan, &res);
	w = &plan->writes[res.failed];
	/* Its outcome is no journal line: the state is written whole (the firing's write, within the second). */
	st->save_whole = true;
	if (r >= 0) {
		st->state.repairs[intent].status = RULE_STATE_REPAIR_DONE;
		rep->outcome = MEM_REPAIR_DONE;
		snprintf(message, size, "Rule %s: %s repaired %s (%s): done", rule, offer, plan->unit,
			 plan->hard ? "hard: permanent" : "soft: until the device loses power");
		return;
	}
	rep->error = r;
	rep->failed_attr = w->attr;
	rep->counted = res.failed == plan->n_writes - 1 && !mem_repair_kernel_refused(r);
	if (rep->counted)
		st->state.repairs[intent].status = RULE_STATE_REPAIR_FAILED;
	else
		rule_state_remove_repair(&st->state, (unsigned) intent);
	if (r == -ESTALE) {
		rep->outcome = MEM_REPAIR_REFUSED;
		plan->refusal = MEM_REPAIR_ATTRS_CHANGED;
		snprintf(plan->why, sizeof(plan->why), "%s read back as %s after mcelogd wrote %s: another writer "
			 "is using %s mem_repair%u (stop any other repair agent); repair not written", w->attr,
			 res.read_back, w->value, plan->offer->device, plan->offer->instance);
		snprintf(message, size, "Rule %s: no memory repair of %s: %s", rule, t->memdev, plan->why);
		return;
	}
	if (plan->soft_probe && res.failed == 0) {
		rep->outcome = MEM_REPAIR_REFUSED;
		plan->refusal = MEM_REPAIR_HARD_ONLY;
		snprintf(plan->why, sizeof(plan->why), "%s mem_repair%u cannot be set to soft (persist_mode=0: %s): "
			 "a device that repairs only permanently is never asked for a hard repair",
			 plan->offer->device, plan->offer->instance, strerror(-r));
		snprintf(message, size, "Rule %s: no memory repair of %s: %s", rule, t->memdev, plan->why);
		return;
	}
	rep->outcome = MEM_REPAIR_FAILED;
	snprintf(message, size, "Rule %s: repair of %s by %s failed: the kernel refused %s=%s: %s (record's "
		 "dpa_flags '%s'; %s)%s", rule, plan->location, offer, w->attr, w->value, strerror(-r), t->dpa_flags,
		 rep->counted ? "counted against the limits: the device may have acted" :
		 "the kernel refused before asking the device: no limit spent",
		 /* The unit's ProtectKernelTunables= keeps /sys read-only: say the way out. */
		 r == -EROFS ? "; /sys is read-only for the service: install the drop-in "
			       "/usr/share/mcelogd/drop-ins/repair.conf (mcelogd.rules(5), REPAIR)" : "");
}

/*
 * Asks the record's memory device to repair the record's location: planned
 * (rules/mem-repair.h) against what the device offers, the limits and the
 * earlier repairs, then written (actions/repair-memory.c).  Every outcome is
 * one report in the journal, under its own MESSAGE_ID.
 */
static void repair_memory(struct rules_stage *st, const struct rule_firing *f, const struct rule_alert *fired)
{
	struct mem_repair_offer offers[REPAIR_OFFERS_MAX];
	/* The repair's own time, not the record's: a record recovered days late is a repair now. */
	uint64_t now_usec = (uint64_t) now_realtime_usec();
	struct repair_history_ctx hc = { .st = st, .now_usec = now_usec };
	struct mem_repair_report rep = { 0 };
	struct mem_repair_target t;
	struct mem_repair_plan plan;
	struct rule_alert a = *fired;
	char device[MEM_REPAIR_DEVICE_MAX + 8], message[1024];
	const char *why = NULL;
	size_t n = 0;

	/* The firing's alert may carry a page offlining's failure: this report is the repair's own. */
	a.failed_action = NULL;
	if (!f->input->ras || mem_repair_target_from_record(f->input->ras, &t, &why) < 0) {
		plan = (struct mem_repair_plan) { .refusal = MEM_REPAIR_NO_TARGET };
		snprintf(plan.why, sizeof(plan.why), "%s",
			 why ? why : "only a CXL DRAM or general media event names memory a device can repair");
		rep = (struct mem_repair_report) { .outcome = MEM_REPAIR_REFUSED, .plan = &plan, .memdev = "" };
		snprintf(message, sizeof(message), "Rule %s: no memory repair: %s", f->rule->name, plan.why);
		report_repair(st, &a, &rep, message, LOG_WARNING);
		return;
	}
	rep = (struct mem_repair_report) { .plan = &plan, .memdev = t.memdev, .dpa_flags = t.dpa_flags };
	/* A replay's devices are not this machine's: their features are not read, nothing is asked. */
	if (!st->act_repairs) {
		plan = (struct mem_repair_plan) { .refusal = MEM_REPAIR_GO };
		plan.refusal = mem_repair_check_record(&t, plan.why, sizeof(plan.why));
		rep.outcome = plan.refusal == MEM_REPAIR_GO ? MEM_REPAIR_WOULD : MEM_REPAIR_REFUSED;
		if (plan.refusal != MEM_REPAIR_GO)
			snprintf(message, sizeof(message), "Rule %s: no memory repair of %s: %s", f->rule->name,
				 t.memdev, plan.why);
		else
			snprintf(message, sizeof(message), "Rule %s: would ask %s for a memory repair at DPA 0x%" PRIx64
				 " (not done when replaying%s)", f->rule->name, t.memdev, t.value[MEM_REPAIR_ATTR_DPA],
				 st->repair_limits.enabled ? "" : "; and [Memory] Repair=no");
		report_repair(st, &a, &rep, message, plan.refusal == MEM_REPAIR_GO ? LOG_NOTICE : LOG_WARNING);
		return;
	}
	if (mem_repair_edac_device(t.memdev, device, sizeof(device)) >= 0)
		n = mem_repair_offers_read(st->sysfs_edac, device, offers, ELEMENTSOF(offers));
	mem_repair_plan(&t, offers, n, &st->repair_limits, repair_history, &hc, &plan);
	if (plan.refusal != MEM_REPAIR_GO) {
		rep.outcome = MEM_REPAIR_REFUSED;
		snprintf(message, sizeof(message), "Rule %s: no memory repair of %s: %s", f->rule->name, t.memdev,
			 plan.why);
	} else {
		ask_repair(st, f->rule->name, &t, &plan, now_usec, &rep, message, sizeof(message));
		if (st->acted && rep.outcome != MEM_REPAIR_REFUSED)
			st->acted(st->core, "repair", rep.outcome == MEM_REPAIR_DONE);
	}
	if (rep.outcome == MEM_REPAIR_FAILED) {
		a.failed_action = "repair";
		st->n_actions_failed++;
	}
	report_repair(st, &a, &rep, message,
		      rep.outcome == MEM_REPAIR_DONE ? LOG_NOTICE :
		      rep.outcome == MEM_REPAIR_FAILED ? LOG_ERR :
		      plan.refusal == MEM_REPAIR_DISABLED ? LOG_NOTICE : LOG_WARNING);
}

static void run_trigger(struct rules_stage *st, const struct rule_firing *f, const struct rule_alert *a)
{
	int r;

	if (!st->run_triggers) {
		log_notice("Rule '%s': would run %s (not done when replaying without --run-triggers)",
			   f->rule->name, f->rule->trigger);
		return;
	}
	if (!st->triggers) {
		r = trigger_runner_new(st->event, &st->triggers);
		if (r < 0) {
			st->n_actions_failed++;
			log_error_errno(r, "Rule '%s': cannot run triggers: %m", f->rule->name);
			return;
		}
	}
	alert_write_json(a, st->hostname, st->boot_id, &st->json);
	r = trigger_submit(st->triggers, f->rule, a,
			   json_writer_failed(&st->json) ? NULL : json_writer_str(&st->json));
	if (r < 0)
		st->n_actions_failed++;
}

struct fire_ctx {
	struct rules_stage *st;
	int64_t time_usec;
	bool fired;
};

static void on_fire(const struct rule_firing *f, void *userdata)
{
	struct fire_ctx *c = userdata;
	struct rules_stage *st = c->st;
	char actions[128], threshold[64], message[512], row_text[96] = "", where[128];
	const struct rule_state_row *row = NULL;
	struct rule_alert a;

	c->fired = true;
	rule_format_actions(f->rule, actions, sizeof(actions));
	rule_format_threshold(f->rule, threshold, sizeof(threshold));
	if (f->rule->actions & RULE_ACTION_OFFLINE_ROW) {
		row = row_pages_isolate(&st->state, f->rule->name, f->key, f->now_usec, f->window_usec);
		if (!row)
			log_error("Rule '%s': cannot keep row %s: %s", f->rule->name, f->key, strerror(errno));
		snprintf(row_text, sizeof(row_text), "; offlining the %u page%s seen on the row, and any seen "
			 "on it later", row ? row->n_pages : 0, row && row->n_pages == 1 ? "" : "s");
	}
	alert_where(f->input, where, sizeof(where));
	snprintf(message, sizeof(message), "Rule %s fired%s%s: %s%s%s", f->rule->name,
		 f->key[0] ? " for " : "", f->key, threshold, where, row_text);
	a = (struct rule_alert) {
		.rule = f->rule->name, .key = f->key, .count = f->count, .window_usec = f->window_usec,
		.first_usec = (int64_t) f->first_usec, .time_usec = c->time_usec,
		.priority = f->rule->priority, .actions = actions, .message = message, .input = f->input,
	};
	if (f->rule->actions & RULE_ACTION_ALERT)
		(void) emit_alert(st, &a);
	else
		log_info("%s", message);
	/* The trigger hears of the firing itself; a failed offlining raises its own alert. */
	if (f->rule->actions & RULE_ACTION_TRIGGER)
		run_trigger(st, f, &a);
	if (f->rule->actions & (RULE_ACTION_SOFT_OFFLINE | RULE_ACTION_HARD_OFFLINE))
		offline_page(st, f, &a);
	if (f->rule->actions & RULE_ACTION_CPU_OFFLINE)
		offline_cpu(st, f, &a);
	if (f->rule->actions & RULE_ACTION_OFFLINE_ROW)
		offline_row(st, row, f->input, &a);
	if (f->rule->actions & RULE_ACTION_REPAIR)
		repair_memory(st, f, &a);
}

/* The built-in watch of DRAM fault patterns: an alert when a DIMM's errors widen past one cell. */
#define DRAM_ALERT_RULE "dram-fault-pattern"

static void watch_dram(struct rules_stage *st, const struct rule_input *in, int64_t time_usec)
{
	struct dram_watch_event ev;
	char message[512], key[128];
	int r;

	r = dram_watch_feed(&st->dram, in, &ev);
	if (r < 0)
		log_error_errno(r, "Out of memory following DRAM fault patterns: %m");
	if (r <= 0)
		return;
	snprintf(key, sizeof(key), "dimm=%s", ev.dimm);
	snprintf(message, sizeof(message), "DIMM %s: its %" PRIu64 " corrected errors now form a %s fault "
		 "(first bank %u row %u column %u, now bank %u row %u column %u); field studies tie such "
		 "faults to later uncorrectable errors", ev.dimm, ev.errors, dram_pattern_to_string(ev.to),
		 ev.first.bank, ev.first.row, ev.first.column, ev.cell.bank, ev.cell.row, ev.cell.column);
	(void) emit_alert(st, &(struct rule_alert) {
		.rule = DRAM_ALERT_RULE, .key = key, .count = (unsigned) ev.errors, .time_usec = time_usec,
		.priority = LOG_WARNING, .actions = "alert", .message = message, .input = in,
	});
}

void rules_stage_name_slot(struct rules_stage *st, struct ras_record *rec)
{
	if (st->read_slots)
		slot_names_annotate(&st->slots, rec);
}

static bool keys_by(const struct rule *r, enum rule_field f)
{
	for (unsigned i = 0; i < r->n_key; i++)
		if (r->key[i] == f)
			return true;
	return false;
}

/*
 * An EDAC record that names no one DIMM is not counted by the rules keyed
 * by label (rule-field.h): counting it would merge DIMMs, and a row rule
 * would offline pages of healthy ones.  Said once per run and reason, not
 * per record: a controller that reports so does it for every error.
 */
static void note_no_dimm(struct rules_stage *st, const struct rule_input *in)
{
	enum rule_no_dimm why = rule_field_no_dimm(in);
	const struct rule *first = NULL;
	const struct ras_field *label;
	unsigned n = 0;

	if (why == RULE_NO_DIMM_NONE || (st->no_dimm_logged & (1u << why)))
		return;
	for (unsigned i = 0; i < st->set.n_rules; i++) {
		const struct rule *r = &st->set.rules[i];

		if (keys_by(r, RULE_FIELD_LABEL) && rule_matches(r, in) && n++ == 0)
			first = r;
	}
	if (!first)
		return;
	st->no_dimm_logged |= 1u << why;
	label = ras_record_find(in->ras, "label");
	log_warning("EDAC record with label '%s' not counted for DRAM rows or DIMMs (rule '%s'%s, keyed by "
		    "label): %s; logged once per run for this reason",
		    label && label->type == RAS_FIELD_STRING ? label->data : "", first->name,
		    n > 1 ? " and others" : "", rule_no_dimm_to_string(why));
}

uint64_t rules_stage_record(struct rules_stage *st, const struct rule_input *in, int64_t time_usec)
{
	struct fire_ctx c = { .st = st, .time_usec = time_usec };
	struct rule_input counted = *in;
	bool paired = false;
	int r;

	if (error_pair_input(&st->pairs, &counted, time_usec > 0 ? (uint64_t) time_usec : 0, &paired) && paired)
		log_debug("Memory error 0x%" PRIx64 ": its %s copy, counted once", counted.error_id,
			  in->mce ? "machine-check" : "EDAC");
	if (!st->engine)
		return counted.error_id;
	/* Pages onto their rows first, so that the row's firing includes this record's page. */
	st->record = &counted;
	st->record_time_usec = time_usec;
	st->row_page_acted = false;
	r = row_pages_input(&st->state, &st->set, &counted, time_usec > 0 ? (uint64_t) time_usec : 0,
			    offline_row_page_now, st);
	if (r < 0)
		log_error_errno(r, "Out of memory noting a page on its DRAM row: %m");
	r = rule_engine_feed(st->engine, &counted, time_usec > 0 ? (uint64_t) time_usec : 0, on_fire, &c);
	if (r < 0)
		log_error_errno(r, "Out of memory counting a record for the rules: %m");
	note_no_dimm(st, &counted);
	watch_dram(st, &counted, time_usec);
	ledger_record(st, &counted, time_usec, paired);
	/*
	 * What fired changed alerts and rows: written within the second, off the
	 * record path (an offlining's own lines are in the journal already).  A
	 * storm used to rewrite the whole state at every firing.
	 */
	if (st->state_path && (c.fired || st->row_page_acted))
		rules_save_soon(&st->save, st->event);
	else if (st->state_path)
		rules_save_after_record(&st->save, st->engine, st->event);
	st->record = NULL;
	return counted.error_id;
}

void rules_stage_done(struct rules_stage *st)
{
	st->triggers = trigger_runner_free(st->triggers);
	rules_save_free(&st->save);
	(void) rules_stage_save(st);
	st->engine = rule_engine_free(st->engine);
	dram_watch_done(&st->dram);
	module_stage_stop(&st->modules);
	slot_names_done(&st->slots);
	rule_set_done(&st->set);
	rule_state_done(&st->state);
	if (st->journal_open)
		close(st->journal_fd);
	st->journal_open = false;
	free(st->state_path);
	free(st->journal_path);
	st->state_path = st->journal_path = NULL;
	json_writer_done(&st->json);
}
