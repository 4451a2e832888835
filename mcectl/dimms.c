/* SPDX-License-Identifier: MIT */
/*
 * mcectl dimms: the health ledger of each memory module (mcelogd(8), MODULE
 * LEDGER), from the daemon's modules.state, or built again from the journal
 * (--rebuild: dimms-rebuild.h): one row per module, worst first, or one
 * module's whole story with the journal filters that follow its errors.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dimm-slot-files.h"
#include "dimms-rebuild.h"
#include "file-io.h"
#include "json-writer.h"
#include "macro.h"
#include "message-ids.h"
#include "module-json.h"
#include "module-ledger.h"
#include "module-state.h"
#include "read-file.h"
#include "rfc3339.h"
#include "state-owner.h"
#include "verbs.h"

#define MODULES_FILE_DEFAULT LOCALSTATEDIR "/lib/mcelogd/" MODULE_STATE_FILE

static void help(void)
{
	printf("Usage: mcectl dimms [OPTIONS] [SERIAL|SLOT]\n"
	       "Show each memory module's health ledger (DIMMs by SMBIOS serial, CXL memory devices\n"
	       "by serial): lifetime error counts, fault pattern, pages retired, repairs, verdict.\n"
	       "With SERIAL or SLOT, that module's whole story and how to follow its errors.\n\n"
	       "      --state FILE       the ledger (default %s)\n"
	       "  -o, --output FORMAT    table (default) or json\n"
	       "      --rebuild          build the ledger again from mcelogd's records in the journal\n"
	       "                         (this machine's, or those below), not from the state file\n"
	       "  -D, --directory DIR    with --rebuild: the journal files in DIR\n"
	       "      --file FILE        with --rebuild: this journal file (repeatable)\n"
	       "      --machine ID|HOST  with --rebuild: that machine's records (_MACHINE_ID or\n"
	       "                         _HOSTNAME); needed when the journal holds several\n"
	       "      --dmi-dir DIR      with --rebuild: that machine's SMBIOS entries, for the DIMMs'\n"
	       "                         serials (default: this machine's, for its own records)\n"
	       "      --slots-dir DIR    with --rebuild: that machine's slot overrides, which name\n"
	       "                         the slots of machine checks' places (default: this machine's\n"
	       "                         %s, for its own records)\n"
	       "      --config FILE      with --rebuild: the [Modules] thresholds\n"
	       "                         (default %s)\n"
	       "      --include-replayed with --rebuild: also the entries of replays (mcelogd -r)\n"
	       "      --save             with --rebuild: write the ledger to the state file (--state),\n"
	       "                         the one there before kept as .old; refused while mcelogd runs\n"
	       "  -h, --help             show this help\n", MODULES_FILE_DEFAULT, SLOTS_DIR_DEFAULT,
	       SYSCONFDIR "/mcelogd/mcelogd.conf");
}

struct problems {
	const char *path;
	unsigned n;
};

static void problem(unsigned line, const char *what, void *userdata)
{
	struct problems *p = userdata;

	p->n++;
	fprintf(stderr, "mcectl dimms: %s:%u: %s (that module is not shown)\n", p->path, line, what);
}

static int read_ledger(const char *path, struct module_ledger *l)
{
	_cleanup_free_ char *text = NULL;
	struct problems p = { .path = path };
	size_t len = 0;
	int r;

	module_ledger_init(l, NULL);
	r = read_whole_file(path, MODULE_STATE_MAX, &text, &len);
	if (r == -ENOENT)
		return 0;
	if (r < 0) {
		fprintf(stderr, "mcectl dimms: cannot read %s: %s\n", path, strerror(-r));
		return r;
	}
	r = module_state_parse(text, len, l, problem, &p);
	if (r == -ENOMEM) {
		fprintf(stderr, "mcectl dimms: out of memory\n");
		return r;
	}
	return 0;
}

static void time_text(int64_t usec, char *buf, size_t size)
{
	if (usec <= 0 || format_rfc3339_usec(buf, size, usec) < 0)
		snprintf(buf, size, "-");
}

static void show_table(const struct module_ledger *l, const uint32_t *order)
{
	char when[RFC3339_MAX], pattern[160];
	int slot_width = 4, serial_width = 6;

	if (l->n == 0) {
		printf("No module has had an error, a retired page or a repair.\n");
		return;
	}
	for (size_t i = 0; i < l->n; i++) {
		if ((int) strlen(l->e[i].id.slot) > slot_width)
			slot_width = (int) strlen(l->e[i].id.slot);
		if ((int) strlen(l->e[i].id.serial) > serial_width)
			serial_width = (int) strlen(l->e[i].id.serial);
	}
	printf("%-*s %-*s %-16s %8s %6s %7s %-13s %-27s %s\n", slot_width, "SLOT", serial_width, "SERIAL", "VERDICT",
	       "CE", "UE", "RETIRED", "PATTERN", "LATEST ERROR", "REASON");
	for (size_t i = 0; i < l->n; i++) {
		const struct module_entry *m = &l->e[order[i]];
		char retired[24];

		time_text(m->last_usec, when, sizeof(when));
		snprintf(pattern, sizeof(pattern), "%s",
			 dram_pattern_to_string(dram_tracker_pattern(&m->pattern.tracker)));
		snprintf(retired, sizeof(retired), "%u", m->pages_retired + m->rows_retired);
		printf("%-*s %-*s %-16s %8" PRIu64 " %6" PRIu64 " %7s %-13s %-27s %s\n", slot_width, m->id.slot,
		       serial_width, m->id.fallback ? "(none)" : m->id.serial, module_verdict_to_string(m->verdict),
		       m->corrected, m->uncorrected, retired, pattern, when, m->reason);
	}
}

static int show_json(const struct module_ledger *l, const uint32_t *order, const struct module_entry *only)
{
	struct json_writer w;
	int r = 0;

	json_writer_init(&w);
	json_object_begin(&w, NULL);
	json_array_begin(&w, "modules");
	for (size_t i = 0; i < l->n; i++) {
		const struct module_entry *m = &l->e[order[i]];

		if (only && m != only)
			continue;
		json_object_begin(&w, NULL);
		module_entry_write_fields(m, &w);
		json_object_end(&w);
	}
	json_array_end(&w);
	json_object_end(&w);
	if (json_writer_failed(&w))
		r = -ENOMEM;
	else
		printf("%s\n", json_writer_str(&w));
	json_writer_done(&w);
	return r;
}

/* The module named by a serial, a slot or a key: the first match, worst first. */
static const struct module_entry *find(const struct module_ledger *l, const uint32_t *order, const char *what)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct module_entry *m = &l->e[order[i]];

		if ((m->id.serial[0] && streq(m->id.serial, what)) || streq(m->id.key, what))
			return m;
	}
	for (size_t i = 0; i < l->n; i++)
		if (streq(l->e[order[i]].id.slot, what))
			return &l->e[order[i]];
	return NULL;
}

static void show_story(const struct module_entry *m)
{
	const struct module_pattern *p = &m->pattern;
	char first[RFC3339_MAX], last[RFC3339_MAX], pattern[160];

	time_text(m->first_usec, first, sizeof(first));
	time_text(m->last_usec, last, sizeof(last));
	module_pattern_describe(p, pattern, sizeof(pattern));
	printf("Module:       %s %s%s%s\n", module_kind_to_string(m->id.kind),
	       m->id.fallback ? "without a serial, known by this machine and its slot" : "serial ",
	       m->id.fallback ? "" : m->id.serial, m->id.part[0] ? "" : "");
	if (m->id.part[0])
		printf("Part number:  %s\n", m->id.part);
	printf("Slot:         %s (where it was last seen)\n", m->id.slot);
	printf("Verdict:      %s: %s\n", module_verdict_to_string(m->verdict), m->reason);
	printf("Errors:       %" PRIu64 " corrected (%" PRIu64 " in its latest week), %" PRIu64
	       " uncorrected, over its life\n", m->corrected, m->week_corrected, m->uncorrected);
	printf("First error:  %s\n", first);
	printf("Latest error: %s  %s\n", last, m->last_error[0] ? m->last_error : "");
	printf("Pattern:      %s\n", pattern);
	for (unsigned i = 0; i < p->n_rows; i++)
		printf("  row 0x%x bank %u: %u corrected\n", p->rows[i].row, p->rows[i].bank, p->rows[i].corrected);
	if (p->more_rows)
		printf("  (more rows than the ledger keeps: %u)\n", MODULE_ROWS_MAX);
	if (m->ue_on_row)
		printf("  the last uncorrected error: row 0x%x bank %u, after %u corrected there\n", m->ue_row,
		       m->ue_bank, m->ue_row_corrected);
	printf("Retired:      %u page%s, %u DRAM row%s\n", m->pages_retired, m->pages_retired == 1 ? "" : "s",
	       m->rows_retired, m->rows_retired == 1 ? "" : "s");
	printf("Repairs:      %u done, %u refused, %u failed%s\n", m->repairs[MODULE_REPAIR_DONE],
	       m->repairs[MODULE_REPAIR_REFUSED], m->repairs[MODULE_REPAIR_FAILED],
	       m->repair_limit_reached ? " (a limit was reached)" : "");
	if (m->spares_left >= 0)
		printf("Spares left:  %" PRId64 "\n", m->spares_left);
	printf("\nFollow it:\n");
	if (m->first_usec > 0)
		printf("  mcectl query --since '@%" PRId64 "'%s\n", m->first_usec / 1000000,
		       "   # every record since its first error");
	if (m->id.kind == MODULE_CXL)
		printf("  journalctl _COMM=%s MCE_MEMDEV='%s'   # its CXL records\n", MCELOGD_COMM, m->id.slot);
	else
		printf("  journalctl _COMM=%s MCE_DIMM_SLOT='%s' + _COMM=%s MCE_LABEL='%s'   # its records\n",
		       MCELOGD_COMM, m->id.slot, MCELOGD_COMM, m->id.slot);
	printf("  journalctl MESSAGE_ID=%s MCE_MODULE_KEY='%s'   # its verdicts\n", MCELOGD_MSGID_MODULE_VERDICT,
	       m->id.key);
}

/*
 * --rebuild --save: the rebuilt ledger becomes the daemon's, written as it
 * writes it (atomic, mode 0600).  Never under a running daemon that keeps
 * its state there: it holds its ledger in memory and would write it over
 * this one at its next save.
 */
static int save_ledger(const char *path, const struct module_ledger *l)
{
	_cleanup_free_ char *text = NULL, *dir = strdup(path), *aside = NULL;
	char *slash;
	pid_t owner;
	int n, r;

	if (!dir || asprintf(&aside, "%s.old", path) < 0) {
		fprintf(stderr, "mcectl dimms: out of memory\n");
		return -ENOMEM;
	}
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, strlen(dir) + 1, ".");
	else
		slash[slash == dir] = '\0';
	owner = state_directory_owner(dir);
	if (owner != 0) {
		if (owner > 0)
			fprintf(stderr, "mcectl dimms: not saved: mcelogd (pid %d) keeps its state in %s and its ledger "
				"in memory, and would write that over the rebuilt one; stop it first, then save\n",
				(int) owner, dir);
		else
			fprintf(stderr, "mcectl dimms: not saved: cannot tell whether mcelogd runs (/proc: %s)\n",
				strerror((int) -owner));
		return -EBUSY;
	}
	n = module_state_format(l, &text);
	if (n < 0) {
		fprintf(stderr, "mcectl dimms: out of memory\n");
		return n;
	}
	if (rename(path, aside) < 0 && errno != ENOENT) {
		fprintf(stderr, "mcectl dimms: not saved: cannot keep %s aside as %s: %s\n", path, aside,
			strerror(errno));
		return -errno;
	}
	r = write_file_atomic(path, text, (size_t) n, true);
	if (r < 0) {
		fprintf(stderr, "mcectl dimms: cannot write %s: %s\n", path, strerror(-r));
		return r;
	}
	fprintf(stderr, "mcectl dimms: the rebuilt ledger (%zu module%s) saved to %s\n", l->n, l->n == 1 ? "" : "s",
		path);
	return 0;
}

int verb_dimms(int argc, char *argv[])
{
	enum { ARG_STATE = 0x100, ARG_REBUILD, ARG_FILE, ARG_MACHINE, ARG_DMI_DIR, ARG_SLOTS_DIR, ARG_CONFIG,
	       ARG_INCLUDE_REPLAYED, ARG_SAVE };
	static const struct option options[] = {
		{ "state",     required_argument, NULL, ARG_STATE },
		{ "output",    required_argument, NULL, 'o' },
		{ "rebuild",   no_argument,       NULL, ARG_REBUILD },
		{ "directory", required_argument, NULL, 'D' },
		{ "file",      required_argument, NULL, ARG_FILE },
		{ "machine",   required_argument, NULL, ARG_MACHINE },
		{ "dmi-dir",   required_argument, NULL, ARG_DMI_DIR },
		{ "slots-dir", required_argument, NULL, ARG_SLOTS_DIR },
		{ "config",    required_argument, NULL, ARG_CONFIG },
		{ "include-replayed", no_argument, NULL, ARG_INCLUDE_REPLAYED },
		{ "save",      no_argument,       NULL, ARG_SAVE },
		{ "help",      no_argument,       NULL, 'h' },
		{}
	};
	const char *state = MODULES_FILE_DEFAULT, *journal_option = NULL;
	struct dimms_rebuild_args rebuild = {};
	bool rebuilding = false, state_given = false, save = false;
	_cleanup_free_ uint32_t *order = NULL;
	const struct module_entry *only = NULL;
	struct module_ledger l;
	bool json = false;
	int opt, r;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:D:h", options, NULL)) >= 0) {
		switch (opt) {
		case ARG_STATE: state = optarg; state_given = true; break;
		case ARG_REBUILD: rebuilding = true; break;
		case 'D': rebuild.directory = optarg; journal_option = "--directory"; break;
		case ARG_FILE:
			if (rebuild.n_files >= DIMMS_REBUILD_FILES_MAX) {
				fprintf(stderr, "mcectl dimms: --file: at most %d files\n", DIMMS_REBUILD_FILES_MAX);
				return 2;
			}
			rebuild.files[rebuild.n_files++] = optarg;
			journal_option = "--file";
			break;
		case ARG_MACHINE: rebuild.machine = optarg; journal_option = "--machine"; break;
		case ARG_DMI_DIR: rebuild.dmi_dir = optarg; journal_option = "--dmi-dir"; break;
		case ARG_SLOTS_DIR: rebuild.slots_dir = optarg; journal_option = "--slots-dir"; break;
		case ARG_CONFIG:
			rebuild.config = optarg;
			rebuild.config_explicit = true;
			journal_option = "--config";
			break;
		case ARG_INCLUDE_REPLAYED: rebuild.include_replayed = true; journal_option = "--include-replayed"; break;
		case ARG_SAVE: save = true; journal_option = "--save"; break;
		case 'o':
			if (streq(optarg, "json"))
				json = true;
			else if (!streq(optarg, "table")) {
				fprintf(stderr, "mcectl dimms: --output: '%s' is not table or json\n", optarg);
				return 2;
			}
			break;
		case 'h': help(); return 0;
		case ':':
			fprintf(stderr, "mcectl dimms: option '%s' needs a value\n", argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, "mcectl dimms: unknown option '%s'\n", argv[optind - 1]);
			return 2;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "mcectl dimms: one module at most, got '%s' and '%s'\n", argv[optind], argv[optind + 1]);
		return 2;
	}
	if (!rebuilding && journal_option) {
		fprintf(stderr, "mcectl dimms: %s goes with --rebuild (the ledger from the journal)\n", journal_option);
		return 2;
	}
	if (rebuilding && state_given && !save) {
		fprintf(stderr, "mcectl dimms: --state and --rebuild: the ledger comes from the file or from the "
			"journal, not both (--save writes it to the file)\n");
		return 2;
	}
	if (rebuild.directory && rebuild.n_files) {
		fprintf(stderr, "mcectl dimms: --directory and --file: give one of them\n");
		return 2;
	}
	if (rebuilding) {
		r = dimms_rebuild(&rebuild, &l);
		if (r != 0)
			return r;
		if (save && save_ledger(state, &l) < 0) {
			module_ledger_done(&l);
			return 1;
		}
		state = "the journal";
	} else if (read_ledger(state, &l) < 0)
		return 1;
	order = calloc(l.n ? l.n : 1, sizeof(*order));
	if (!order) {
		module_ledger_done(&l);
		fprintf(stderr, "mcectl dimms: out of memory\n");
		return 1;
	}
	module_ledger_order(&l, order);
	if (optind < argc) {
		only = find(&l, order, argv[optind]);
		if (!only) {
			fprintf(stderr, "mcectl dimms: no module with serial, slot or key '%s' in %s\n", argv[optind],
				state);
			module_ledger_done(&l);
			return 1;
		}
	}
	if (json)
		r = show_json(&l, order, only);
	else if (only)
		show_story(only);
	else
		show_table(&l, order);
	module_ledger_done(&l);
	return r < 0 ? 1 : 0;
}
