/* SPDX-License-Identifier: MIT */
/*
 * mcectl query: machine-check records, and the other hardware-error records
 * (struct ras_record: EDAC, AER, poisoned pages, firmware sections), from the
 * local journal.
 *
 * Only entries mcelogd itself wrote are shown: any local process can send an
 * entry with our MESSAGE_ID and MCE_* fields, so every match is ANDed with
 * fields journald itself sets and a client cannot forge (_COMM, _UID).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-journal.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "collector.h"
#include "decode.h"
#include "entry-time.h"
#include "journal-direct.h"
#include "json-sure.h"
#include "query-walk.h"
#include "late-entries.h"
#include "macro.h"
#include "options.h"
#include "message-ids.h"
#include "parse-number.h"
#include "ras-record.h"
#include "rfc3339.h"
#include "snapshot-line.h"
#include "summary.h"
#include "timespec.h"
#include "verbs.h"

enum output_mode { OUTPUT_TABLE, OUTPUT_JSON, OUTPUT_CSV };

/*
 * Every id plan_id_check() may list: the machine-check classes, the other
 * records' kinds, and storm, storm end, loss, alert, repair and module verdict.  Sized from the
 * lists themselves, so that a new kind of record cannot overrun it.
 */
#define QUERY_IDS_MAX \
	(sizeof((const char *[]) { MCELOGD_RECORD_MSGIDS, MCELOGD_RAS_MSGIDS }) / sizeof(const char *) + 6)

struct query_args {
	const char *verb;            /* "query", "follow" or "summary": for messages */
	bool follow;                 /* mcectl follow: then wait for new entries */
	bool summary;                /* mcectl summary: count, do not list */
	enum summary_by by;
	struct summary *counts;
	bool have_since, have_until;
	int64_t since, until;
	bool have_cpu, have_bank;
	unsigned cpu, bank;
	const char *severity;
	enum output_mode output;
	const char *directory;
	const char *files[64];       /* --file, repeatable; NULL-terminated */
	unsigned n_files;
	bool merge;                  /* --merge: every journal there is, collected ones too */
	const char *host;            /* --host: that machine's entries only (_HOSTNAME) */
	/* Reading one sender's files on a collector (collector.h): the host of every entry. */
	const char *sender;
	bool header_printed;
	/* The entries mcelogd --replay wrote, found up front (query, summary): asking each
	 * entry for a field it lacks makes libsystemd decompress its MCE_JSON. */
	struct entry_stamps *replayed;
	size_t n_replayed;
	bool have_replayed;
	uint64_t replayed_from;      /* those that arrived before are not in the list */
	/*
	 * The entries marked late (entry-time.h), found up front through the
	 * journal's index of the mark: the main pass reads only the arrival
	 * window and leaves them out (stamps, sorted), and they are shown or
	 * counted from their own list (late.c), merged by the error's time.
	 */
	struct late_entries *late;
	sd_journal *late_j;          /* where they are read from: the same matches */
	bool catching_up;            /* the entries before following: the time filters hold */
	unsigned trusted_uid;
	char trusted_uid_text[16];   /* as _UID spells it: compared on every entry */
	bool include_replayed;
	bool alerts;                 /* --alerts: the rules' alerts only */
	/* The first half of a split summary stops at this entry (split_summary). */
	const char *stop_cursor;
	uint64_t stop_usec;
	/* Without field filters the journal is matched on _COMM and _UID alone (one
	 * value each) and the ids are checked here: libsystemd 252 walks the ORed ids
	 * ANDed with the rest several times slower (bench/journal-bench.sh). */
	bool check_ids;
	const char *ids[QUERY_IDS_MAX];
	size_t n_ids;
};

static void query_help(const struct query_args *a)
{
	if (a->summary)
		printf("Usage: mcectl summary [OPTIONS]\n"
		       "Count the records mcelogd logged per component, top offenders first: records\n"
		       "(storm summaries' counts included), corrected and worse, first and last seen,\n"
		       "the rate per hour and the storms.\n\n"
		       "  -b, --by WHAT         dimm, channel, bank (default), cpu, socket, page, error\n"
		       "                        host, row, memdev, process (SIGBUS) or disk\n"
		       "  -S, --since TIME      records at or after TIME (e.g. '1h', 'yesterday'); the\n"
		       "                        rate is over --since to --until (or now)\n"
		       "  -U, --until TIME      records before or at TIME\n");
	else if (a->follow)
		printf("Usage: mcectl follow [OPTIONS]\n"
		       "Show machine-check records as mcelogd logs them, until interrupted (like\n"
		       "journalctl -f); the same filters and outputs as mcectl query.\n\n"
		       "  -S, --since TIME      first the records since TIME, then the new ones\n"
		       "                        (default: only new ones)\n");
	else
		printf("Usage: mcectl query [OPTIONS]\n"
		       "Show machine-check records that mcelogd logged to the journal.\n\n"
		       "  -S, --since TIME      records whose error is at or after TIME (e.g. '1h',\n"
		       "                        '-30min', 'yesterday', '2026-11-20 10:00', '@1790000000'),\n"
		       "                        however late they reached the journal\n"
		       "  -U, --until TIME      records whose error is before or at TIME\n");
	printf("      --cpu N           only records from CPU N\n"
	       "      --bank N          only records from bank N (machine checks only)\n"
	       "      --severity S      corrected, deferred, uncorrected, fatal or info (corrected\n"
	       "                        includes storm summaries)\n"
	       "  -o, --output MODE     table (default; severity in colour on a terminal, unless\n"
	       "                        NO_COLOR is set), json (one record or storm event per\n"
	       "                        line) or csv\n"
	       "  -D, --directory DIR   read the journal files in DIR instead of the local journal\n"
	       "                        (e.g. systemd-journal-remote's /var/log/journal/remote)\n"
	       "      --file PATH       read this journal file (repeatable)\n"
	       "  -m, --merge           read every journal there is, those collected from other\n"
	       "                        hosts too\n"
	       "  -H, --host NAME       only the entries of the host NAME (its _HOSTNAME); the table\n"
	       "                        shows each entry's host when reading other hosts' journals\n"
	       "      --alerts          only the alerts of mcelogd's rules (mcelogd.rules(5));\n"
	       "                        without filters they are shown among the records\n"
	       "      --include-replayed  also entries that mcelogd --replay wrote (recorded\n"
	       "                        input, perhaps another host's), not this machine's errors\n"
	       "  -h, --help            show this help\n");
}

static int parse_uint(const char *s, unsigned *ret)
{
	uint64_t v;

	if (parse_unsigned(s, strlen(s), 10, UINT_MAX, &v) < 0)
		return -EINVAL;
	*ret = (unsigned) v;
	return 0;
}

static int parse_time_arg(const char *verb, const char *option, const char *arg, int64_t now, int64_t *ret)
{
	if (parse_time_spec(arg, now, ret) < 0) {
		fprintf(stderr, "mcectl %s: %s: cannot parse time '%s' (try '1h', '-30min', "
			"'yesterday', '2026-11-20 10:00' or '@EPOCH')\n", verb, option, arg);
		return -EINVAL;
	}
	return 0;
}

static int parse_query_args(int argc, char *argv[], struct query_args *a)
{
	enum { ARG_CPU = 0x100, ARG_BANK, ARG_SEVERITY, ARG_INCLUDE_REPLAYED, ARG_ALERTS, ARG_BY, ARG_FILE };
	static const struct option options[] = {
		{ "since",     required_argument, NULL, 'S' },
		{ "until",     required_argument, NULL, 'U' },
		{ "cpu",       required_argument, NULL, ARG_CPU },
		{ "bank",      required_argument, NULL, ARG_BANK },
		{ "severity",  required_argument, NULL, ARG_SEVERITY },
		{ "output",    required_argument, NULL, 'o' },
		{ "directory", required_argument, NULL, 'D' },
		{ "file",      required_argument, NULL, ARG_FILE },
		{ "merge",     no_argument,       NULL, 'm' },
		{ "host",      required_argument, NULL, 'H' },
		{ "include-replayed", no_argument, NULL, ARG_INCLUDE_REPLAYED },
		{ "alerts",    no_argument,       NULL, ARG_ALERTS },
		{ "by",        required_argument, NULL, ARG_BY },
		{ "help",      no_argument,       NULL, 'h' },
		{}
	};
	/* One "now" for the whole invocation, so --since and --until agree. */
	int64_t now = now_realtime_usec();
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":S:U:o:D:mH:h", options, NULL)) >= 0) {
		switch (c) {
		case 'S':
			if (parse_time_arg(a->verb, "--since", optarg, now, &a->since) < 0)
				return -EINVAL;
			a->have_since = true;
			break;
		case 'U':
			if (parse_time_arg(a->verb, "--until", optarg, now, &a->until) < 0)
				return -EINVAL;
			a->have_until = true;
			break;
		case ARG_CPU:
			if (parse_uint(optarg, &a->cpu) < 0) {
				fprintf(stderr, "mcectl %s: --cpu: '%s' is not a CPU number\n", a->verb, optarg);
				return -EINVAL;
			}
			a->have_cpu = true;
			break;
		case ARG_BANK:
			if (parse_uint(optarg, &a->bank) < 0) {
				fprintf(stderr, "mcectl %s: --bank: '%s' is not a bank number\n", a->verb, optarg);
				return -EINVAL;
			}
			a->have_bank = true;
			break;
		case ARG_SEVERITY:
			/* "info" exists only for the other hardware-error records (ras_severity). */
			if (ras_severity_from_string(optarg) == _RAS_SEV_INVALID) {
				fprintf(stderr, "mcectl %s: --severity: unknown severity '%s' (expected "
					"corrected, deferred, uncorrected, fatal or info)\n", a->verb, optarg);
				return -EINVAL;
			}
			a->severity = optarg;
			break;
		case 'o':
			if (streq(optarg, "json"))
				a->output = OUTPUT_JSON;
			else if (streq(optarg, "table"))
				a->output = OUTPUT_TABLE;
			else if (streq(optarg, "csv"))
				a->output = OUTPUT_CSV;
			else {
				fprintf(stderr, "mcectl %s: --output: unknown mode '%s' (expected table "
					"json or csv)\n", a->verb, optarg);
				return -EINVAL;
			}
			break;
		case 'D':
			a->directory = optarg;
			break;
		case ARG_FILE:
			if (a->n_files + 1 >= ELEMENTSOF(a->files)) {
				fprintf(stderr, "mcectl %s: --file: at most %zu files\n", a->verb, ELEMENTSOF(a->files) - 1);
				return -EINVAL;
			}
			a->files[a->n_files++] = optarg;
			break;
		case 'm':
			a->merge = true;
			break;
		case 'H':
			/* A host name as journald stamps it: no '=' or newline could match anyway. */
			if (!optarg[0] || strpbrk(optarg, "=\n") || strlen(optarg) > 64) {
				fprintf(stderr, "mcectl %s: --host: '%s' is not a host name\n", a->verb, optarg);
				return -EINVAL;
			}
			a->host = optarg;
			break;
		case ARG_INCLUDE_REPLAYED:
			a->include_replayed = true;
			break;
		case ARG_ALERTS:
			a->alerts = true;
			break;
		case ARG_BY:
			if (!a->summary) {
				fprintf(stderr, "mcectl %s: --by is an option of mcectl summary\n", a->verb);
				return -EINVAL;
			}
			a->by = summary_by_from_string(optarg);
			if (a->by == _SUMMARY_BY_INVALID) {
				fprintf(stderr, "mcectl summary: --by: unknown component '%s' (expected %s)\n",
					optarg, summary_by_choices());
				return -EINVAL;
			}
			break;
		case 'h':
			query_help(a);
			return 0;
		default:
			option_error(a->verb, c, argv);
			return -EINVAL;
		}
	}
	if (no_arguments_left(a->verb, argc, argv))
		return -EINVAL;
	/* An alert is about a rule's key, not one CPU, bank or severity. */
	if (a->alerts && (a->have_cpu || a->have_bank || a->severity)) {
		fprintf(stderr, "mcectl %s: --alerts cannot be combined with --cpu, --bank or "
			"--severity\n", a->verb);
		return -EINVAL;
	}
	if (!!a->directory + !!a->n_files + a->merge > 1) {
		fprintf(stderr, "mcectl %s: --directory, --file and --merge each choose the journals: give one\n",
			a->verb);
		return -EINVAL;
	}
	if (a->summary && a->alerts) {
		fprintf(stderr, "mcectl summary: --alerts cannot be used: alerts are not records\n");
		return -EINVAL;
	}
	if (a->follow && a->have_until) {
		fprintf(stderr, "mcectl follow: --until cannot be used: follow shows records as they come\n");
		return -EINVAL;
	}
	if (a->have_since && a->have_until && a->since > a->until) {
		fprintf(stderr, "mcectl %s: --since is later than --until\n", a->verb);
		return -EINVAL;
	}
	return 1;
}

static int add_match_fmt(sd_journal *j, const char *fmt, ...) _printf_(2, 3);
static int add_match_fmt(sd_journal *j, const char *fmt, ...)
{
	char buf[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return sd_journal_add_match(j, buf, 0);
}

/*
 * One group of ANDed matches: any of the ids (same field: ORed), written by
 * us (trusted fields), and the filters that apply to this class of record.
 */
static int add_group(sd_journal *j, const struct query_args *a, const char *const *ids, size_t n_ids,
		     bool match_severity)
{
	int r;

	for (size_t i = 0; i < n_ids; i++) {
		r = add_match_fmt(j, "MESSAGE_ID=%s", ids[i]);
		if (r < 0)
			return r;
	}
	r = sd_journal_add_match(j, "_COMM=" MCELOGD_COMM, 0);
	if (r < 0)
		return r;
	r = add_match_fmt(j, "_UID=%u", a->trusted_uid);
	if (r < 0)
		return r;
	if (a->host) {
		r = add_match_fmt(j, "_HOSTNAME=%s", a->host);
		if (r < 0)
			return r;
	}
	if (match_severity) {
		r = add_match_fmt(j, "MCE_SEVERITY=%s", a->severity);
		if (r < 0)
			return r;
	}
	if (a->have_cpu) {
		r = add_match_fmt(j, "MCE_CPU=%u", a->cpu);
		if (r < 0)
			return r;
	}
	if (a->have_bank) {
		r = add_match_fmt(j, "MCE_BANK=%u", a->bank);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Storm summaries and ends stand for corrected records that were only counted. */
static const char *const storm_ids[] = { MCELOGD_MSGID_STORM, MCELOGD_MSGID_STORM_END };

/* The kernel's loss reports: a gap in the history, shown where it happened. */
static const char *const lost_ids[] = { MCELOGD_MSGID_LOST };

/* The rules' alerts, the reports of the repairs they asked for (mcelogd.rules(5)), and the
 * modules' changes of verdict (mcelogd(8), MODULE LEDGER). */
static const char *const alert_ids[] = { MCELOGD_MSGID_ALERT, MCELOGD_MSGID_REPAIR, MCELOGD_MSGID_MODULE_VERDICT };

/* The other hardware-error records, one id per kind. */
static const char *const ras_msgids[] = { MCELOGD_RAS_MSGIDS };

/*
 * (machine-check classes AND filters) OR (other record classes AND filters).
 * A machine check's MESSAGE_ID is its severity class; the other records have
 * one id per kind of error, so their severity is matched on MCE_SEVERITY.
 */
static int add_matches(sd_journal *j, const struct query_args *a)
{
	static const char *const mca_ids[] = { MCELOGD_RECORD_MSGIDS };
	enum mce_severity sev = a->severity ? mce_severity_from_string(a->severity) : _MCE_SEV_INVALID;
	bool want_mca = !a->severity || sev != _MCE_SEV_INVALID;
	/* Only machine checks have banks. */
	bool want_ras = !a->have_bank;
	bool unfiltered = !a->severity && !a->have_cpu && !a->have_bank;
	int r;

	/* _UID too: another user's entries named mcelogd are then not even read. */
	if (a->check_ids) {
		r = sd_journal_add_match(j, "_COMM=" MCELOGD_COMM, 0);
		return r < 0 ? r : add_match_fmt(j, "_UID=%u", a->trusted_uid);
	}
	if (a->alerts)
		return add_group(j, a, alert_ids, ELEMENTSOF(alert_ids), false);
	if (want_mca) {
		const char *ids[ELEMENTSOF(mca_ids) + ELEMENTSOF(storm_ids) + ELEMENTSOF(lost_ids) +
				ELEMENTSOF(alert_ids)];
		size_t n = 0;

		if (a->severity)
			ids[n++] = severity_message_id(sev);
		else
			for (size_t i = 0; i < ELEMENTSOF(mca_ids); i++)
				ids[n++] = mca_ids[i];
		/* Only corrected errors storm (mcelogd(8)): their summaries belong to them. */
		for (size_t i = 0; (!a->severity || sev == MCE_SEV_CORRECTED) && i < ELEMENTSOF(storm_ids); i++)
			ids[n++] = storm_ids[i];
		/* A loss has no severity: whatever was lost may have been any. */
		for (size_t i = 0; !a->severity && i < ELEMENTSOF(lost_ids); i++)
			ids[n++] = lost_ids[i];
		/* Alerts carry no CPU, bank or severity field: shown only without those filters. */
		for (size_t i = 0; unfiltered && i < ELEMENTSOF(alert_ids); i++)
			ids[n++] = alert_ids[i];
		r = add_group(j, a, ids, n, false);
		if (r < 0)
			return r;
	}
	if (want_mca && want_ras) {
		r = sd_journal_add_disjunction(j);
		if (r < 0)
			return r;
	}
	if (want_ras || !want_mca)
		return add_group(j, a, ras_msgids, ELEMENTSOF(ras_msgids), a->severity != NULL);
	return 0;
}

/*
 * The ids add_matches() would OR when nothing but the ids filters: the same
 * set checked on each entry instead (see check_ids).
 */
/* Every id of ours, in ids[QUERY_IDS_MAX]; returns how many. */
static size_t list_all_ids(const char **ids)
{
	static const char *const mca_ids[] = { MCELOGD_RECORD_MSGIDS };
	const char *const *groups[] = { mca_ids, storm_ids, lost_ids, alert_ids, ras_msgids };
	const size_t sizes[] = { ELEMENTSOF(mca_ids), ELEMENTSOF(storm_ids), ELEMENTSOF(lost_ids),
				 ELEMENTSOF(alert_ids), ELEMENTSOF(ras_msgids) };
	size_t n = 0;

	_Static_assert(ELEMENTSOF(storm_ids) + ELEMENTSOF(lost_ids) + ELEMENTSOF(alert_ids) == 6,
		       "QUERY_IDS_MAX counts six ids beside the record and ras ones");
	for (size_t g = 0; g < ELEMENTSOF(groups); g++)
		for (size_t i = 0; i < sizes[g]; i++)
			ids[n++] = groups[g][i];
	return n;
}

static void plan_id_check(struct query_args *a)
{
	if (a->host || a->severity || a->have_cpu || a->have_bank)
		return;
	a->n_ids = 0;
	if (a->alerts)
		for (size_t i = 0; i < ELEMENTSOF(alert_ids); i++)
			a->ids[a->n_ids++] = alert_ids[i];
	else
		a->n_ids = list_all_ids(a->ids);
	snprintf(a->trusted_uid_text, sizeof(a->trusted_uid_text), "%u", a->trusted_uid);
	a->check_ids = true;
}

/*
 * The fields query and summary ask of almost every entry, read in one pass
 * over the entry and kept until the next one.  sd_journal_get_data() walks the
 * entry's fields from the start on every call, loading each; one resumable
 * sd_journal_enumerate_available_data() pass stops at the last field asked, so
 * MCE_JSON (mcelogd's last field, compressed) is reached only when a field is
 * absent, as with get_data.  Values are cut to 255 bytes; MESSAGE, the one
 * longer field asked, goes to get_data.
 */
#define CACHED(name) { name, sizeof(name) - 1 }
/* With their lengths: every item of every entry is looked up here. */
static const struct {
	const char *name;
	size_t len;
} cached_fields[] = {
	CACHED(ENTRY_TIME_FIELD), CACHED("_UID"), CACHED("_HOSTNAME"), CACHED("MESSAGE_ID"), CACHED("MCE_CPU"), CACHED("MCE_BANK"),
	CACHED("MCE_SEVERITY"), CACHED("MCE_BANK_NAME"), CACHED("MCE_STATUS"), CACHED("MCE_SOCKET"),
	CACHED("MCE_SOURCE"), CACHED("MCE_EVENT"), CACHED("MCE_STORM_COUNT"), CACHED("MCE_STORM_START"),
	CACHED("MCE_STORM_CODE"), CACHED("MCE_RULE"), CACHED("MCE_SNAPSHOT_CPU"),
};
#undef CACHED

/* Per thread: mcectl summary counts half the journal in another (split_summary). */
static _Thread_local struct {
	char value[ELEMENTSOF(cached_fields)][256];
	size_t len[ELEMENTSOF(cached_fields)];
	bool seen[ELEMENTSOF(cached_fields)];
	bool exhausted;      /* the pass reached the entry's end */
	/* MCE_JSON whole, when the pass met it: libsystemd decompresses it then, and
	 * sd_journal_get_data() would decompress it twice more (the name, then all). */
	char *json;
	size_t json_len, json_size;
	bool json_seen, json_unkept;
	struct json_tokener *tok;   /* entry_json's */
} entry_cache;

static void free_entry_cache(void)
{
	free(entry_cache.json);
	entry_cache.json = NULL;
	entry_cache.json_size = 0;
	if (entry_cache.tok)
		json_tokener_free(entry_cache.tok);
	entry_cache.tok = NULL;
}

/* A new current entry: nothing read of it yet. */
static void forget_entry(sd_journal *j)
{
	memset(entry_cache.seen, 0, sizeof(entry_cache.seen));
	entry_cache.exhausted = false;
	entry_cache.json_seen = entry_cache.json_unkept = false;
	sd_journal_restart_data(j);
}

static ssize_t cached_index(const char *field, size_t flen)
{
	for (size_t i = 0; i < ELEMENTSOF(cached_fields); i++)
		if (cached_fields[i].len == flen && memcmp(cached_fields[i].name, field, flen) == 0)
			return (ssize_t) i;
	return -1;
}

/* The first MCE_JSON of the entry, kept whole.  -ENOMEM: then it is read as if absent. */
static int keep_json(const char *value, size_t len)
{
	if (len + 1 > entry_cache.json_size) {
		size_t size = len + 1 > 4096 ? len + 1 : 4096;
		char *p = realloc(entry_cache.json, size);

		if (!p)
			return -ENOMEM;
		entry_cache.json = p;
		entry_cache.json_size = size;
	}
	memcpy(entry_cache.json, value, len);
	entry_cache.json[len] = '\0';
	entry_cache.json_len = len;
	entry_cache.json_seen = true;
	return 0;
}

/* Reads on from where the pass stopped until *done (a seen flag) or the entry's end. */
static void read_entry_until(sd_journal *j, const bool *done)
{
	const void *data;
	size_t len;

	while (!*done && !entry_cache.exhausted) {
		const char *d, *eq;
		ssize_t i;

		if (sd_journal_enumerate_available_data(j, &data, &len) <= 0) {
			entry_cache.exhausted = true;
			break;
		}
		d = data;
		eq = memchr(d, '=', len);
		if (!eq)
			continue;
		if (!entry_cache.json_seen && (size_t) (eq - d) == strlen("MCE_JSON") &&
		    memcmp(d, "MCE_JSON", strlen("MCE_JSON")) == 0) {
			if (keep_json(eq + 1, len - strlen("MCE_JSON=")) < 0)
				entry_cache.json_unkept = true;
			continue;
		}
		/* The first of a repeated field, as get_data gives. */
		i = cached_index(d, (size_t) (eq - d));
		if (i < 0 || entry_cache.seen[i])
			continue;
		len -= (size_t) (eq - d) + 1;
		if (len >= sizeof(entry_cache.value[0]))
			len = sizeof(entry_cache.value[0]) - 1;
		memcpy(entry_cache.value[i], eq + 1, len);
		entry_cache.value[i][len] = '\0';
		entry_cache.len[i] = len;
		entry_cache.seen[i] = true;
	}
}

/* Field k of the current entry; NULL if absent. */
static const char *cached_field(sd_journal *j, size_t k)
{
	read_entry_until(j, &entry_cache.seen[k]);
	return entry_cache.seen[k] ? entry_cache.value[k] : NULL;
}

/* Value of FIELD in the current entry, as a NUL-terminated copy in buf; NULL if absent or empty. */
/*
 * The entry being shown from files read directly (journal-direct.h), which
 * the functions below read when given no sd_journal: the same fields, cut
 * the same way.
 */
static _Thread_local struct query_fields *direct_entry;

static const char *get_field(sd_journal *j, const char *field, char *buf, size_t size)
{
	const void *data;
	size_t len, flen = strlen(field);
	ssize_t k = cached_index(field, flen);
	const char *v;

	if (!j) {
		if (!direct_entry || !query_fields_get(direct_entry, field, flen, &v, &len) || len == 0)
			return NULL;
		/* As the cache cuts its fields. */
		if (k >= 0 && len >= sizeof(entry_cache.value[0]))
			len = sizeof(entry_cache.value[0]) - 1;
		if (len >= size)
			len = size - 1;
		memcpy(buf, v, len);
		buf[len] = '\0';
		return buf;
	}
	if (k >= 0) {
		v = cached_field(j, (size_t) k);
		if (!v || entry_cache.len[k] == 0)
			return NULL;
		len = entry_cache.len[k] < size ? entry_cache.len[k] : size - 1;
		memcpy(buf, v, len);
		buf[len] = '\0';
		return buf;
	}
	if (sd_journal_get_data(j, field, &data, &len) < 0 || len <= flen + 1)
		return NULL;
	len -= flen + 1;
	if (len >= size)
		len = size - 1;
	memcpy(buf, (const char *) data + flen + 1, len);
	buf[len] = '\0';
	return buf;
}

enum entry_kind { ENTRY_RECORD, ENTRY_RAS, ENTRY_STORM_SUMMARY, ENTRY_STORM_END, ENTRY_LOSS, ENTRY_ALERT };

/*
 * What an entry is, from its MESSAGE_ID alone: one field read, and never a
 * field the entry may lack (looking for one makes libsystemd decompress
 * MCE_JSON on the way).  The matches let only mcelogd's ids through.
 */
static enum entry_kind kind_of_id(const char *v)
{
	if (streq(v, MCELOGD_MSGID_STORM))
		return ENTRY_STORM_SUMMARY;
	if (streq(v, MCELOGD_MSGID_STORM_END))
		return ENTRY_STORM_END;
	if (streq(v, MCELOGD_MSGID_LOST))
		return ENTRY_LOSS;
	if (streq(v, MCELOGD_MSGID_ALERT) || streq(v, MCELOGD_MSGID_REPAIR) || streq(v, MCELOGD_MSGID_MODULE_VERDICT))
		return ENTRY_ALERT;
	for (size_t i = 0; i < ELEMENTSOF(ras_msgids); i++)
		if (streq(v, ras_msgids[i]))
			return ENTRY_RAS;
	return ENTRY_RECORD;
}

/*
 * A journal holds a handful of ids, mostly in runs of one: the last id's
 * answers are kept, one comparison instead of a dozen on most entries.
 */
static _Thread_local struct {
	char id[64];
	bool valid;
	enum entry_kind kind;
	bool wanted_known, wanted;   /* one invocation's ids: the answer holds for the run */
} last_id;

static void remember_id(const char *v)
{
	if (last_id.valid && streq(v, last_id.id))
		return;
	snprintf(last_id.id, sizeof(last_id.id), "%s", v);
	last_id.kind = kind_of_id(v);
	last_id.wanted_known = false;
	last_id.valid = true;
}

static enum entry_kind kind_of(sd_journal *j)
{
	char id[64];
	const char *v = get_field(j, "MESSAGE_ID", id, sizeof(id));

	if (!v)
		return ENTRY_RECORD;
	remember_id(v);
	return last_id.kind;
}

/* What the matches left out when check_ids is set: our ids, written as the trusted user. */
static bool wanted_entry(sd_journal *j, const struct query_args *a)
{
	char v[64];

	if (!get_field(j, "_UID", v, sizeof(v)))
		return false;
	if (!streq(v, a->trusted_uid_text) || !get_field(j, "MESSAGE_ID", v, sizeof(v)))
		return false;
	remember_id(v);
	if (!last_id.wanted_known) {
		last_id.wanted = false;
		for (size_t i = 0; i < a->n_ids; i++)
			if (streq(v, a->ids[i]))
				last_id.wanted = true;
		last_id.wanted_known = true;
	}
	return last_id.wanted;
}

/* Other hosts' journals (a collector): each row says whose it is. */
static bool shows_host(const struct query_args *a)
{
	return a->directory || a->n_files || a->merge || a->host;
}

/* One entry as the table and CSV show it. */
struct row {
	char time[RFC3339_MAX];
	char host[64];
	char cpu[16], bank[16], severity[32];
	char name[128];      /* bank name, the record's source, or what kind of entry it is */
	const char *error;   /* points into msg */
	char msg[512];
};

/*
 * The host: on a collector the sender its file is named after, then '!' and the
 * entry's _HOSTNAME (the sender's own word) when that names another host, as
 * it always does for a sender known by its address only.
 */
static void host_of(sd_journal *j, const struct query_args *a, char *buf, size_t size)
{
	char claimed[64];

	if (!get_field(j, "_HOSTNAME", claimed, sizeof(claimed)))
		snprintf(claimed, sizeof(claimed), "-");
	if (!a->sender)
		snprintf(buf, size, "%s", claimed);
	else if (streq(claimed, a->sender))
		snprintf(buf, size, "%.*s", (int) size - 1, a->sender);
	else
		snprintf(buf, size, "%.*s!%.*s", (int) size / 2 - 1, a->sender, (int) size / 2 - 1, claimed);
}

static void row_of(sd_journal *j, const struct query_args *a, int64_t time, struct row *r)
{
	char event[64], rule[80];
	enum entry_kind kind = kind_of(j);
	const char *m, *colon;

	format_rfc3339_usec(r->time, sizeof(r->time), time);
	host_of(j, a, r->host, sizeof(r->host));
	if (!get_field(j, "MCE_CPU", r->cpu, sizeof(r->cpu)))
		snprintf(r->cpu, sizeof(r->cpu), "-");
	if (!get_field(j, "MCE_BANK", r->bank, sizeof(r->bank)))
		snprintf(r->bank, sizeof(r->bank), "-");
	if (!get_field(j, "MCE_SEVERITY", r->severity, sizeof(r->severity)))
		snprintf(r->severity, sizeof(r->severity), "-");
	m = get_field(j, "MESSAGE", r->msg, sizeof(r->msg));
	r->error = m ?: "-";
	/* A storm entry's MESSAGE is one line that says it all: counts, code, span. */
	if (kind == ENTRY_STORM_SUMMARY || kind == ENTRY_STORM_END)
		snprintf(r->name, sizeof(r->name), "%s", kind == ENTRY_STORM_SUMMARY ? "(storm summary)" : "(storm end)");
	else if (kind == ENTRY_ALERT) {
		snprintf(r->name, sizeof(r->name), "(alert: %s)", get_field(j, "MCE_RULE", rule, sizeof(rule)) ?: "?");
		snprintf(r->cpu, sizeof(r->cpu), "-");
		snprintf(r->bank, sizeof(r->bank), "-");
		snprintf(r->severity, sizeof(r->severity), "alert");
	} else if (kind == ENTRY_LOSS) {
		snprintf(r->name, sizeof(r->name), "(records lost)");
		snprintf(r->bank, sizeof(r->bank), "-");
		snprintf(r->severity, sizeof(r->severity), "-");
	} else if (kind == ENTRY_RAS) {
		if (!get_field(j, "MCE_EVENT", event, sizeof(event)))
			snprintf(event, sizeof(event), "-");
		/* Not a machine check: no bank; the source (ras:mc_event, ...) and the whole summary. */
		if (!get_field(j, "MCE_SOURCE", r->name, sizeof(r->name)))
			snprintf(r->name, sizeof(r->name), "%s", event);
		snprintf(r->bank, sizeof(r->bank), "-");
	} else {
		if (!get_field(j, "MCE_BANK_NAME", r->name, sizeof(r->name)))
			snprintf(r->name, sizeof(r->name), "-");
		/* MESSAGE is "Severity machine check on CPU n bank b (name): what" — show the "what". */
		colon = m ? strstr(m, ": ") : NULL;
		if (colon)
			r->error = colon + 2;
	}
}

/* Severity in colour, on a terminal only and never with NO_COLOR set (no-color.org). */
static bool use_colour(void)
{
	static int cached = -1;
	const char *term = getenv("TERM");

	if (cached < 0)
		cached = isatty(STDOUT_FILENO) && !(getenv("NO_COLOR") && getenv("NO_COLOR")[0]) &&
			 !(term && streq(term, "dumb"));
	return cached;
}

static const char *severity_colour(const char *severity)
{
	if (streq(severity, "fatal"))
		return "\033[1;31m";
	if (streq(severity, "uncorrected"))
		return "\033[31m";
	if (streq(severity, "deferred") || streq(severity, "alert"))
		return "\033[33m";
	return NULL;
}

static void print_table_header(const struct query_args *a)
{
	printf("%-27s %s%4s %4s %-11s %-28s %s\n", "TIME", shows_host(a) ? "HOST             " : "", "CPU", "BANK",
	       "SEVERITY", "BANK NAME / SOURCE", "ERROR");
}

static void print_table_row(const struct query_args *a, const struct row *r)
{
	const char *on = use_colour() ? severity_colour(r->severity) : NULL;

	printf("%-27s ", r->time);
	if (shows_host(a))
		printf("%-16.16s ", r->host);
	/* Padded outside the escapes, so that columns line up either way. */
	printf("%4s %4s %s%-11s%s %-28.28s %s\n", r->cpu, r->bank, on ?: "", r->severity, on ? "\033[0m" : "",
	       r->name, r->error);
}

/* RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
static void put_csv_field(const char *v, bool last)
{
	if (strpbrk(v, ",\"\r\n")) {
		putchar('"');
		for (; *v; v++) {
			if (*v == '"')
				putchar('"');
			putchar(*v);
		}
		putchar('"');
	} else
		fputs(v, stdout);
	putchar(last ? '\n' : ',');
}

static void print_csv_header(void)
{
	puts("time,host,cpu,bank,severity,bank_name_or_source,error");
}

static void print_csv_row(const struct row *r)
{
	put_csv_field(r->time, false);
	put_csv_field(r->host, false);
	put_csv_field(r->cpu, false);
	put_csv_field(r->bank, false);
	put_csv_field(r->severity, false);
	put_csv_field(r->name, false);
	put_csv_field(r->error, true);
}

/*
 * Under a record with a snapshot, one line of what its CPU was doing, from the
 * flat MCE_SNAPSHOT_* fields (mcelogd(8)); the whole object is in MCE_JSON.
 */
static void print_snapshot_line(sd_journal *j)
{
	struct snapshot_summary s = {};
	char line[480];

	/* Most records have none: one field asked, not eight (each absent one costs
	 * libsystemd a decompression of MCE_JSON). */
	if (!get_field(j, "MCE_SNAPSHOT_CPU", s.cpu, sizeof(s.cpu)))
		return;
	get_field(j, "MCE_SNAPSHOT_WINDOW_SEC", s.window_sec, sizeof(s.window_sec));
	get_field(j, "MCE_SNAPSHOT_READ_AFTER_ERROR_USEC", s.after_usec, sizeof(s.after_usec));
	get_field(j, "MCE_SNAPSHOT_IPC", s.ipc, sizeof(s.ipc));
	get_field(j, "MCE_SNAPSHOT_EFFECTIVE_MHZ", s.effective_mhz, sizeof(s.effective_mhz));
	get_field(j, "MCE_SNAPSHOT_CACHE_MISS_RATE", s.cache_miss_rate, sizeof(s.cache_miss_rate));
	get_field(j, "MCE_SNAPSHOT_BRANCH_MISS_RATE", s.branch_miss_rate, sizeof(s.branch_miss_rate));
	get_field(j, "MCE_SNAPSHOT_LARGEST_CHANGE", s.largest_change, sizeof(s.largest_change));
	if (snapshot_line_format(&s, line, sizeof(line)) >= 0)
		printf("%27s snapshot: %s\n", "", line);
}

/* The entry's MCE_JSON text; false when it has none. */
static bool entry_json_text(sd_journal *j, const char **ret_text, size_t *ret_len)
{
	const void *data;
	size_t len;

	if (!j)
		return direct_entry && query_fields_get(direct_entry, "MCE_JSON", strlen("MCE_JSON"), ret_text, ret_len);
	read_entry_until(j, &entry_cache.json_seen);
	if (entry_cache.json_seen) {
		*ret_text = entry_cache.json;
		*ret_len = entry_cache.json_len;
		return true;
	}
	/* Only when keeping it failed: otherwise the pass found none. */
	if (!entry_cache.json_unkept || sd_journal_get_data(j, "MCE_JSON", &data, &len) < 0 || len <= strlen("MCE_JSON="))
		return false;
	*ret_text = (const char *) data + strlen("MCE_JSON=");
	*ret_len = len - strlen("MCE_JSON=");
	return true;
}

/*
 * The entry's MCE_JSON, parsed (the caller puts it), with its text in *ret_text.
 * Never pass on a damaged entry as if it were a record: NULL then.
 */
static json_object *entry_json(sd_journal *j, const char **ret_text, size_t *ret_len)
{
	size_t len;
	const char *json;
	struct json_tokener *tok;
	struct json_object *o;

	if (!entry_json_text(j, &json, &len))
		return NULL;
	if (len == 0)
		return NULL;
	if (len > INT_MAX)
		return NULL;
	/* One tokener a thread, reset for each entry: not two allocations a record. */
	if (!entry_cache.tok && !(entry_cache.tok = json_tokener_new()))
		return NULL;
	tok = entry_cache.tok;
	json_tokener_reset(tok);
	o = json_tokener_parse_ex(tok, json, (int) len);
	if (o && (json_tokener_get_error(tok) != json_tokener_success || !json_object_is_type(o, json_type_object))) {
		json_object_put(o);
		o = NULL;
	}
	*ret_text = json;
	*ret_len = len;
	return o;
}

/*
 * MCE_JSON verbatim: the record contract is the same object mcelogd logged.
 * Parsed only when its text alone does not show that it parses (json-sure.h):
 * building the object was most of a query's time.
 */
static int print_json_row(sd_journal *j)
{
	const char *json;
	size_t len;
	json_object *o;

	if (!entry_json_text(j, &json, &len) || !json_object_text_sure(json, len)) {
		o = entry_json(j, &json, &len);
		if (!o)
			return -EBADMSG;
		json_object_put(o);
	}
	fwrite(json, 1, len, stdout);
	fputc('\n', stdout);
	return 0;
}

/*
 * A journal entry's fields for the summary: the flat MCE_* fields mcelogd
 * writes beside MCE_JSON where they say the same, the JSON (parsed once, when
 * first needed) for the rest.  Reading MCE_JSON costs a decompression in
 * libsystemd; most summaries never need it.
 */
struct entry_fields {
	sd_journal *j;
	char values[16][256];
	unsigned n_values;
	json_object *json;
	bool json_read, damaged;
};

static const struct {
	const char *key, *field;
} flat_fields[] = {
	{ "cpu", "MCE_CPU" },                 { "bank", "MCE_BANK" },
	{ "bank_name", "MCE_BANK_NAME" },     { "severity", "MCE_SEVERITY" },
	{ "status", "MCE_STATUS" },           { "socket", "MCE_SOCKET" },
	{ "source", "MCE_SOURCE" },           { "count", "MCE_STORM_COUNT" },
	{ "storm_start", "MCE_STORM_START" }, { "code", "MCE_STORM_CODE" },
	/* The host journald stamped: on a collector, the sender. */
	{ "hostname", "_HOSTNAME" },
};

static const char *entry_value(struct entry_fields *e, const char *field)
{
	char *buf;

	if (e->n_values == ELEMENTSOF(e->values))
		return NULL;
	buf = e->values[e->n_values];
	if (!get_field(e->j, field, buf, sizeof(e->values[0])))
		return NULL;
	e->n_values++;
	return buf;
}

static const char *entry_get(void *userdata, const char *key)
{
	struct entry_fields *e = userdata;
	const char *text;
	size_t len;

	if (streq(key, "event"))
		switch (kind_of(e->j)) {
		case ENTRY_STORM_SUMMARY: return "storm_summary";
		case ENTRY_STORM_END:     return "storm_end";
		case ENTRY_LOSS:          return "loss";
		case ENTRY_ALERT:         return "alert";
		/* The other records name their kind; a machine check has none. */
		case ENTRY_RAS:           return entry_value(e, "MCE_EVENT");
		default:                  return NULL;
		}
	for (size_t i = 0; i < ELEMENTSOF(flat_fields); i++)
		if (streq(key, flat_fields[i].key))
			return entry_value(e, flat_fields[i].field);
	if (!e->json_read) {
		e->json_read = true;
		e->json = entry_json(e->j, &text, &len);
		e->damaged = !e->json;
	}
	if (!e->json)
		return NULL;
	return (summary_json_fields(e->json).get)(e->json, key);
}

static int count_entry(sd_journal *j, const struct query_args *a, int64_t t)
{
	struct entry_fields e = { .j = j };
	const struct summary_fields f = { .get = entry_get, .userdata = &e };
	int r = summary_add_fields(a->counts, &f, t);

	json_object_put(e.json);
	if (r >= 0 && e.damaged)
		return -EBADMSG;
	return r;
}

/* Set by SIGINT and SIGTERM while following: the loop ends cleanly. */
static volatile sig_atomic_t stop_following;

static void on_stop_signal(int sig)
{
	(void) sig;
	stop_following = 1;
}

/*
 * SIGINT and SIGTERM are blocked but during the wait, which they then end
 * (ppoll's mask: no race with the flag's check).  A closed pipe becomes EPIPE
 * on write.
 */
static void follow_signals(sigset_t *ret_wait_mask)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };
	sigset_t block;

	sigemptyset(&sa.sa_mask);
	(void) sigaction(SIGINT, &sa, NULL);
	(void) sigaction(SIGTERM, &sa, NULL);
	(void) signal(SIGPIPE, SIG_IGN);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	(void) sigprocmask(SIG_BLOCK, &block, ret_wait_mask);
	sigdelset(ret_wait_mask, SIGINT);
	sigdelset(ret_wait_mask, SIGTERM);
}

/* Until the journal changes or a signal comes.  (sd_journal_wait() retries after a signal.) */
static int wait_journal(sd_journal *j, const sigset_t *wait_mask)
{
	struct pollfd p = { .fd = sd_journal_get_fd(j) };
	struct timespec ts, *tsp = NULL;
	uint64_t until;
	int r;

	if (p.fd < 0)
		return p.fd;
	r = sd_journal_get_events(j);
	if (r < 0)
		return r;
	p.events = (short) r;
	if (sd_journal_get_timeout(j, &until) >= 0 && until != UINT64_MAX) {
		uint64_t now = now_monotonic_usec(), left = until > now ? until - now : 0;

		ts = (struct timespec) { .tv_sec = (time_t) (left / 1000000), .tv_nsec = (long) (left % 1000000) * 1000 };
		tsp = &ts;
	}
	if (ppoll(&p, 1, tsp, wait_mask) < 0)
		return errno == EINTR ? 0 : -errno;
	r = sd_journal_process(j);
	return r < 0 ? r : 0;
}

/*
 * Where the entries a query reads begin to arrive (entry-time.h): the window's
 * slack before --since; 0, from the first, without it.
 */
static uint64_t arrived_from(const struct query_args *a)
{
	return a->have_since && a->since > ENTRY_TIME_SLACK_USEC ? (uint64_t) (a->since - ENTRY_TIME_SLACK_USEC) : 0;
}

/*
 * The entries mcelogd --replay wrote that arrived from a->replayed_from on: a
 * match finds them without reading the others, and only mcelogd's own (the
 * trusted fields), so that no other user's entries cost anything.
 */
static int find_replayed(sd_journal *j, struct query_args *a)
{
	size_t cap = 0;
	int r;

	a->replayed_from = arrived_from(a);
	r = sd_journal_add_match(j, "MCELOGD_REPLAY=1", 0);
	if (r >= 0)
		r = sd_journal_add_match(j, "_COMM=" MCELOGD_COMM, 0);
	if (r >= 0)
		r = add_match_fmt(j, "_UID=%u", a->trusted_uid);
	if (r >= 0)
		r = a->replayed_from ? sd_journal_seek_realtime_usec(j, a->replayed_from) : sd_journal_seek_head(j);
	while (r >= 0 && (r = sd_journal_next(j)) > 0) {
		struct entry_stamps x;

		if (entry_stamps_of(j, &x) < 0 || x.realtime < a->replayed_from)
			continue;
		if (a->n_replayed == cap) {
			struct entry_stamps *p = realloc(a->replayed, (cap = cap ? cap * 2 : 64) * sizeof(*p));

			if (!p)
				return -ENOMEM;
			a->replayed = p;
		}
		a->replayed[a->n_replayed++] = x;
	}
	sd_journal_flush_matches(j);
	if (r < 0)
		return r;
	/* (None found: no array, which qsort and bsearch may not be given.) */
	if (a->n_replayed > 1)
		qsort(a->replayed, a->n_replayed, sizeof(*a->replayed), entry_stamps_cmp);
	a->have_replayed = true;
	return 0;
}

static bool is_replayed(sd_journal *j, const struct query_args *a)
{
	struct entry_stamps x;

	/* Stamps are not unique for sure: one that matches is asked for the field after all,
	 * as is one from before the list (a late entry whose time is ahead). */
	if (a->have_replayed && entry_stamps_of(j, &x) >= 0 && x.realtime >= a->replayed_from &&
	    (a->n_replayed == 0 || !bsearch(&x, a->replayed, a->n_replayed, sizeof(x), entry_stamps_cmp)))
		return false;
	return sd_journal_get_data(j, "MCELOGD_REPLAY", &(const void *) { NULL }, &(size_t) { 0 }) >= 0;
}

static int open_journal(struct query_args *a, sd_journal **ret)
{
	_cleanup_(sd_journal_closep) sd_journal *j = NULL;
	int r;

	if (a->directory)
		r = sd_journal_open_directory(&j, a->directory, 0);
	else if (a->n_files)
		r = sd_journal_open_files(&j, (const char **) a->files, 0);
	else
		r = sd_journal_open(&j, a->merge ? 0 : SD_JOURNAL_LOCAL_ONLY);
	if (r < 0) {
		fprintf(stderr, "mcectl %s: cannot open the journal%s%s: %s\n", a->verb,
			a->directory ? " in " : a->n_files ? " " : "",
			a->directory ? a->directory : a->n_files ? a->files[0] : "", strerror(-r));
		return r;
	}
	/* Following, new replayed entries can come: those are asked one by one. */
	/* (Once: a split summary's second journal shares the list.) */
	if (!a->include_replayed && !a->follow && !a->have_replayed) {
		r = find_replayed(j, a);
		if (r < 0) {
			fprintf(stderr, "mcectl %s: cannot read the journal: %s\n", a->verb, strerror(-r));
			return r;
		}
	}
	/* (Following from now on, nothing before is read.) */
	if (!a->late && (!a->follow || a->have_since)) {
		char uid[16];
		const char *mode = getenv("MCECTL_JOURNAL_READER");

		snprintf(uid, sizeof(uid), "%u", a->trusted_uid);
		r = late_entries_find(j, uid, arrived_from(a), &a->late);
		if (r < 0) {
			fprintf(stderr, "mcectl %s: cannot read the journal: %s\n", a->verb, strerror(-r));
			return r;
		}
		if (mode && streq(mode, "debug"))
			fprintf(stderr, "mcectl %s: %zu late entries of mcelogd's read\n", a->verb, a->late->n);
	}
	plan_id_check(a);
	r = add_matches(j, a);
	if (r < 0) {
		fprintf(stderr, "mcectl %s: cannot set up journal matches: %s\n", a->verb, strerror(-r));
		return r;
	}
	/* The journal is indexed by arrival: an entry not marked late arrived
	 * within the slack of its time (entry-time.h). */
	if (a->have_since)
		r = sd_journal_seek_realtime_usec(j, arrived_from(a));
	else if (a->follow) {
		/* From now on: the next entry after the newest one there is. */
		r = sd_journal_seek_tail(j);
		if (r >= 0)
			r = sd_journal_previous(j);
	} else
		r = sd_journal_seek_head(j);
	if (r < 0) {
		fprintf(stderr, "mcectl %s: cannot seek in the journal: %s\n", a->verb, strerror(-r));
		return r;
	}
	*ret = TAKE_PTR(j);
	return 0;
}

struct shown {
	unsigned shown, damaged;
	bool past_until;
	bool at_stop;        /* reached a->stop_cursor */
};

/* The error's time of the current entry (entry-time.h); arrival: its journal stamp. */
static int64_t entry_time(sd_journal *j, uint64_t arrival)
{
	char v[32];
	const char *t = get_field(j, ENTRY_TIME_FIELD, v, sizeof(v));

	return entry_time_of(t, t ? strlen(t) : 0, arrival);
}

/* One entry that passed the filters, shown or counted.  Negative errno only for -ENOMEM. */
static int show_one(sd_journal *j, const struct query_args *a, int64_t t, struct shown *n)
{
	int r;

	if (a->summary) {
		r = count_entry(j, a, t);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			n->damaged++;
		if (r <= 0)
			return 0;
	} else if (a->output == OUTPUT_JSON) {
		if (print_json_row(j) < 0) {
			n->damaged++;
			return 0;
		}
	} else {
		struct row row;

		row_of(j, a, t, &row);
		if (a->output == OUTPUT_CSV)
			print_csv_row(&row);
		else {
			print_table_row(a, &row);
			print_snapshot_line(j);
		}
	}
	n->shown++;
	return 0;
}

/* Whether a late entry is one the filters let through: read where it is, with the matches. */
static bool keep_late(void *userdata, const struct late_entry *e)
{
	struct query_args *a = userdata;
	sd_journal *j = a->late_j;

	if ((a->have_since && e->time < a->since) || (a->have_until && e->time > a->until))
		return false;
	/* Every replayed entry is late: those are left out by their stamps, without a seek each. */
	if (!a->include_replayed && a->n_replayed > 0 &&
	    bsearch(&e->stamps, a->replayed, a->n_replayed, sizeof(*a->replayed), entry_stamps_cmp))
		return false;
	if (sd_journal_seek_cursor(j, e->cursor) < 0 || sd_journal_next(j) <= 0 ||
	    sd_journal_test_cursor(j, e->cursor) <= 0)
		return false;
	forget_entry(j);
	if (a->check_ids && !wanted_entry(j, a))
		return false;
	return a->include_replayed || !is_replayed(j, a);
}

/* The kept late entries up to time limit, in time order, from where the last call stopped. */
static int show_late(const struct query_args *a, int64_t limit, struct shown *n)
{
	struct late_entries *l = a->late;
	int r;

	for (; l && a->late_j && l->next < l->n_kept && l->v[l->next].time <= limit; l->next++) {
		const struct late_entry *e = &l->v[l->next];

		if (sd_journal_seek_cursor(a->late_j, e->cursor) < 0 || sd_journal_next(a->late_j) <= 0)
			continue;
		forget_entry(a->late_j);
		r = show_one(a->late_j, a, e->time, n);
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * Prints the matching entries after the current position.  Returns 0 or
 * negative errno.  Catching up (not yet following), only those whose error
 * time is in --since..--until, read from the arrival window around it; the
 * late entries are merged in by time (show_late).
 */
static int show_entries(sd_journal *j, const struct query_args *a, struct shown *n)
{
	int r;

	while ((r = sd_journal_next(j)) > 0) {
		uint64_t arrival;
		int64_t t;

		forget_entry(j);

		if (stop_following)
			return 0;
		if (sd_journal_get_realtime_usec(j, &arrival) < 0)
			continue;
		if (a->stop_cursor && arrival == a->stop_usec && sd_journal_test_cursor(j, a->stop_cursor) > 0) {
			n->at_stop = true;
			return 0;
		}
		if (a->catching_up) {
			/* Seeking lands near, not exactly at, the time: re-check both ends. */
			if (a->have_since && (int64_t) arrival < a->since - ENTRY_TIME_SLACK_USEC)
				continue;
			if (a->have_until && (int64_t) arrival > a->until + ENTRY_TIME_SLACK_USEC) {
				n->past_until = true;
				return 0;
			}
		}
		/* Read from their own list, by time. */
		if (late_entries_has(a->late, j))
			continue;
		forget_entry(j);
		t = entry_time(j, arrival);
		if (a->catching_up && ((a->have_since && t < a->since) || (a->have_until && t > a->until)))
			continue;
		if (a->check_ids && !wanted_entry(j, a))
			continue;
		/* Written by mcelogd --replay: recorded input, not an error of this machine. */
		if (!a->include_replayed && is_replayed(j, a))
			continue;
		if (!a->summary && a->late && a->late->next < a->late->n_kept) {
			r = show_late(a, t, n);
			if (r < 0)
				return r;
			forget_entry(j);
		}
		r = show_one(j, a, t, n);
		if (r < 0)
			return r;
	}
	return r;
}

/*
 * The late entries the filters keep, in time order, and a journal to read
 * them from (a->late_j).  Counted or shown as the main pass meets their time,
 * the rest at its end.
 */
static int prepare_late(struct query_args *a)
{
	int r;

	if (!a->late || a->late->n_kept == 0)
		return 0;
	r = open_journal(a, &a->late_j);
	if (r < 0)
		return r;
	late_entries_order(a->late, keep_late, a);
	return 0;
}

static void late_done(struct query_args *a)
{
	sd_journal_close(a->late_j);
	a->late_j = NULL;
	a->late = late_entries_free(a->late);
}

/*
 * mcectl summary over a long journal: the second half counted at the same time
 * by another thread on its own sd_journal, the two summaries merged
 * (summary_merge: the same as counted in order).  Reading the entries'
 * fields in libsystemd is most of the time, and a single pass cannot go
 * faster (bench/journal-bench.sh).  The halves meet at an entry E, the first
 * at or after the middle time: the second half starts at E, the first stops
 * there.  If the first half does not meet E (a clock set back, --until) it
 * has counted everything in order, and the second half's counts are dropped.
 */
struct half {
	struct query_args a;      /* a copy with its own counts */
	sd_journal *j;
	struct shown n;
	int r;
	char *cursor;             /* E */
	pthread_t thread;
	bool running;
};

static void *count_half(void *userdata)
{
	struct half *h = userdata;

	h->r = show_entries(h->j, &h->a, &h->n);
	free_entry_cache();   /* this thread's */
	return NULL;
}

static void half_done(struct half *h)
{
	if (h->running)
		(void) pthread_join(h->thread, NULL);
	h->running = false;
	h->a.counts = summary_free(h->a.counts);
	sd_journal_close(h->j);
	h->j = NULL;
	free(h->cursor);
	h->cursor = NULL;
}

/* The realtime of the entry next (or previous) from here; 0: none. */
static uint64_t step_time(sd_journal *j, bool forward)
{
	uint64_t t;

	if ((forward ? sd_journal_next(j) : sd_journal_previous(j)) <= 0 || sd_journal_get_realtime_usec(j, &t) < 0)
		return 0;
	return t;
}

/* A summary (or a part of one, counted by another thread) of the journals a names. */
static struct summary *new_counts(const struct query_args *a, bool part)
{
	struct summary *s = part ? summary_new_part(a->by) : summary_new(a->by);

	if (s)
		summary_set_host(s, a->sender);
	return s;
}

/* Starts the second half, and sets where the first stops.  0 also when not split. */
static int split_summary(struct query_args *a, struct half *h)
{
	uint64_t since = a->since > 0 ? (uint64_t) a->since : 0, until = a->until > 0 ? (uint64_t) a->until : 0;
	uint64_t lo, hi, mid, t;
	const char *no = getenv("MCECTL_SUMMARY_ONE_PASS");   /* tests compare the two ways */

	if (!a->summary || a->follow || (no && no[0]))
		return 0;
	h->a = *a;
	h->a.counts = new_counts(a, true);
	if (!h->a.counts)
		return -ENOMEM;
	if (open_journal(&h->a, &h->j) < 0)
		return -EIO;
	/* The time span of the entries the summary will read. */
	/* (By arrival: the window's slack included, entry-time.h.) */
	lo = a->have_since ? (since > ENTRY_TIME_SLACK_USEC ? since - ENTRY_TIME_SLACK_USEC : 1) : step_time(h->j, true);
	if (sd_journal_seek_tail(h->j) < 0)
		return 0;
	hi = step_time(h->j, false);
	if (a->have_until && until + ENTRY_TIME_SLACK_USEC < hi)
		hi = until + ENTRY_TIME_SLACK_USEC;
	if (!lo || hi <= lo)
		return 0;
	mid = lo + (hi - lo) / 2;
	if (sd_journal_seek_realtime_usec(h->j, mid) < 0 || !(t = step_time(h->j, true)) || t > hi ||
	    sd_journal_get_cursor(h->j, &h->cursor) < 0 || sd_journal_seek_cursor(h->j, h->cursor) < 0)
		return 0;
	if (pthread_create(&h->thread, NULL, count_half, h) != 0)
		return 0;
	h->running = true;
	a->stop_cursor = h->cursor;
	a->stop_usec = t;
	return 0;
}

/* Waits for new entries and shows them until a signal or a closed output. */
static int follow_journal(sd_journal *j, struct query_args *a, struct shown *n)
{
	sigset_t wait_mask;
	int r;

	/* New entries: all shown as they come, whatever time they carry. */
	a->catching_up = false;
	follow_signals(&wait_mask);
	while (!stop_following) {
		/* Each batch reaches a pipe as it comes, not when a buffer fills. */
		if (fflush(stdout) != 0 || ferror(stdout))
			return errno == EPIPE ? 0 : -errno;
		r = wait_journal(j, &wait_mask);
		if (r < 0) {
			fprintf(stderr, "mcectl follow: waiting for the journal failed: %s\n", strerror(-r));
			return r;
		}
		r = show_entries(j, a, n);
		if (r < 0) {
			fprintf(stderr, "mcectl follow: failed to read the journal: %s\n", strerror(-r));
			return r;
		}
	}
	return 0;
}

/*
 * mcectl summary of --directory or --file journals: first straight from the
 * files (journal-direct.h), several times faster than libsystemd's entry by
 * entry; where that walk cannot be sure to count what libsystemd would, it
 * gives up and this returns 0 for the libsystemd path.  1: counted.
 */
static int direct_summary(struct query_args *a, struct shown *n)
{
	const char *ids[QUERY_IDS_MAX];
	char uid[16];
	struct summary_walk_args w;
	const char *mode = getenv("MCECTL_JOURNAL_READER");
	size_t n_ids = 0;
	int r;

	if (!a->summary || a->follow || a->alerts)
		return 0;
	/* The filters on fields other than the ids are left to libsystemd's matches. */
	if (a->severity || a->have_cpu || a->have_bank || a->merge) {
		if (mode && streq(mode, "debug"))
			fprintf(stderr, "mcectl summary: journal files not read directly (%s): libsystemd reads them\n",
				a->merge ? "--merge" : "--severity, --cpu or --bank");
		return 0;
	}
	/* The ids that count: without filters, add_matches() and plan_id_check() both take all. */
	n_ids = list_all_ids(ids);
	snprintf(uid, sizeof(uid), "%u", a->trusted_uid);
	w = (struct summary_walk_args) {
		.have_since = a->have_since, .since = a->since,
		.have_until = a->have_until, .until = a->until,
		.trusted_uid = uid, .ids = ids, .n_ids = n_ids,
		.host = a->host, .include_replayed = a->include_replayed,
	};
	r = summary_direct(a->directory, a->n_files ? a->files : NULL, &w, a->by, a->counts, &n->damaged);
	if (r == -ENOMEM)
		return r;
	if (r >= 0)
		return 1;
	/* Half counted: libsystemd starts afresh. */
	summary_free(a->counts);
	a->counts = new_counts(a, false);
	n->damaged = 0;
	return a->counts ? 0 : -ENOMEM;
}

/* journal-direct.h's show(): the header, then each entry as show_one() shows it. */
struct direct_show {
	struct query_args *a;
	struct shown *n;
};

static int show_direct(void *userdata, struct query_fields *e, int64_t time)
{
	struct direct_show *d = userdata;
	int r;

	if (!e) {
		if (d->a->output == OUTPUT_TABLE && !d->a->header_printed)
			print_table_header(d->a);
		else if (d->a->output == OUTPUT_CSV && !d->a->header_printed)
			print_csv_header();
		d->a->header_printed = true;
		return 0;
	}
	direct_entry = e;
	r = show_one(NULL, d->a, time, d->n);
	direct_entry = NULL;
	return r;
}

/*
 * mcectl query of --directory, --file or the local journal: first straight
 * from the files (journal-direct.h), which finds the window through the
 * journal's index and reads each entry once, where libsystemd costs most of a
 * short query in opening and per-entry machinery (bench/journal-bench.sh).
 * Where that cannot be sure to show what libsystemd would, nothing is shown
 * and this returns 0 for the libsystemd path.  1: shown; -EIO: failed (said).
 */
static int direct_query(struct query_args *a, struct shown *n)
{
	const char *mode = getenv("MCECTL_JOURNAL_READER");
	struct direct_show d = { .a = a, .n = n };
	struct query_walk_args w;
	int r;

	if (a->summary || a->follow)
		return 0;
	/* The filters on fields other than the ids are left to libsystemd's matches. */
	if (a->host || a->severity || a->have_cpu || a->have_bank || a->merge) {
		if (mode && streq(mode, "debug"))
			fprintf(stderr, "mcectl query: journal files not read directly (%s): libsystemd reads them\n",
				a->merge ? "--merge" : "--host, --severity, --cpu or --bank");
		return 0;
	}
	plan_id_check(a);
	w = (struct query_walk_args) {
		.have_since = a->have_since, .since = a->since,
		.have_until = a->have_until, .until = a->until,
		.trusted_uid = a->trusted_uid_text, .ids = a->ids, .n_ids = a->n_ids,
		.include_replayed = a->include_replayed,
	};
	r = query_direct(a->directory, a->n_files ? a->files : NULL, &w, show_direct, &d);
	if (r == -EOPNOTSUPP)
		return 0;
	if (r < 0) {
		fprintf(stderr, "mcectl %s: failed to read the journal: %s\n", a->verb, strerror(-r));
		return -EIO;
	}
	return 1;
}

/*
 * Through libsystemd: the matching entries shown or counted (a summary in two
 * halves), then, following, the new ones.  0, 1: done (the exit status), or
 * -EAGAIN: on to the totals.
 */
static int read_journal(struct query_args *a, struct shown *n)
{
	_cleanup_(sd_journal_closep) sd_journal *j = NULL;
	_cleanup_(half_done) struct half second = {};
	int r;

	if (open_journal(a, &j) < 0)
		return 1;
	if (prepare_late(a) < 0)
		return 1;
	a->catching_up = true;

	if (split_summary(a, &second) == -ENOMEM) {
		fprintf(stderr, "mcectl summary: out of memory\n");
		return 1;
	}

	if (a->output == OUTPUT_TABLE && !a->summary && !a->header_printed)
		print_table_header(a);
	else if (a->output == OUTPUT_CSV && !a->summary && !a->header_printed)
		print_csv_header();
	a->header_printed = true;
	r = show_entries(j, a, n);
	if (second.running) {
		(void) pthread_join(second.thread, NULL);
		second.running = false;
		/* Met E: the second half holds the rest, in order. */
		if (r >= 0 && n->at_stop) {
			r = second.r;
			if (r >= 0)
				r = summary_merge(a->counts, second.a.counts);
			n->damaged += second.n.damaged;
		}
	}
	/* The late entries after the last one shown, or all of them for a summary. */
	if (r >= 0)
		r = show_late(a, INT64_MAX, n);
	if (r < 0) {
		fprintf(stderr, "mcectl %s: failed to read the journal: %s\n", a->verb, strerror(-r));
		return 1;
	}
	if (a->follow) {
		r = follow_journal(j, a, n);
		/* Interrupted, or the reader went away (head -n 1): a normal end. */
		(void) fflush(stdout);
		return r < 0 ? 1 : 0;
	}
	return -EAGAIN;
}

/* The entries of the journals a names: -EAGAIN, on to the totals, or the exit status. */
static int read_entries(struct query_args *a, struct shown *n)
{
	int r = direct_summary(a, n);

	if (r < 0) {
		fprintf(stderr, "mcectl summary: out of memory\n");
		return 1;
	}
	if (r == 0 && (r = direct_query(a, n)) < 0)
		return 1;
	if (r == 0)
		return read_journal(a, n);
	return -EAGAIN;
}

/*
 * A collector's files, one sender at a time: every entry of a sender's file is
 * attributed to that sender, the only name journal-remote vouches for, and
 * --host picks senders, not _HOSTNAME values.  Files that name no sender keep
 * their _HOSTNAME.
 */
static int read_senders(struct query_args *a, const struct collector *c, struct shown *n)
{
	const char *host = a->host;
	struct summary *total = a->counts;
	int r = -EAGAIN;

	if (a->follow && !host) {
		fprintf(stderr, "mcectl follow: a collector's files are followed one sender at a time: "
			"give --host\n");
		return 2;
	}
	a->directory = NULL;
	for (size_t i = 0; i < c->n_groups && r == -EAGAIN; i++) {
		const struct collector_group *g = &c->groups[i];

		if (host && g->sender[0] && !streq(g->sender, host))
			continue;
		memcpy(a->files, g->files, (g->n_files + 1) * sizeof(g->files[0]));
		a->n_files = (unsigned) g->n_files;
		a->sender = g->sender[0] ? g->sender : NULL;
		a->host = a->sender ? NULL : host;
		/* Replayed and late entries are found per journal read. */
		late_done(a);
		free(a->replayed);
		a->replayed = NULL;
		a->n_replayed = 0;
		a->have_replayed = false;
		if (total && !(a->counts = new_counts(a, false))) {
			fprintf(stderr, "mcectl summary: out of memory\n");
			r = 1;
			break;
		}
		r = read_entries(a, n);
		if (total && r == -EAGAIN && summary_merge(total, a->counts) < 0) {
			fprintf(stderr, "mcectl summary: out of memory\n");
			r = 1;
		}
		if (total)
			a->counts = summary_free(a->counts);
	}
	a->counts = total;
	a->host = host;
	a->sender = NULL;
	return r;
}

static int run(struct query_args *a, int argc, char *argv[])
{
	struct shown n = {};
	int r;

	r = parse_query_args(argc, argv, a);
	if (r <= 0)
		return r < 0 ? 2 : 0;
	if (a->summary && !(a->counts = new_counts(a, false))) {
		fprintf(stderr, "mcectl summary: out of memory\n");
		return 1;
	}
	if (a->directory || a->n_files) {
		struct collector c;

		r = collector_scan(a->directory, a->files, a->n_files, &c);
		if (r < 0) {
			fprintf(stderr, "mcectl %s: cannot list the journal files%s%s: %s\n", a->verb,
				a->directory ? " in " : "", a->directory ?: "",
				r == -E2BIG ? "a sender with more files than can be read at once" : strerror(-r));
			return 1;
		}
		r = collector_has_senders(&c) ? read_senders(a, &c, &n) : read_entries(a, &n);
		collector_done(&c);
	} else
		r = read_entries(a, &n);
	if (r != -EAGAIN)
		return r;
	if (n.damaged)
		fprintf(stderr, "mcectl %s: %u entr%s without a readable MCE_JSON skipped\n", a->verb, n.damaged,
			n.damaged == 1 ? "y" : "ies");
	if (a->summary) {
		int64_t start = a->have_since ? a->since : 0, end = a->have_until ? a->until : now_realtime_usec();

		if (!a->have_since)
			end = 0;   /* no window asked for: each component's own span */
		if (a->output == OUTPUT_JSON)
			summary_print_json(a->counts, stdout, start, end);
		else if (a->output == OUTPUT_CSV)
			summary_print_csv(a->counts, stdout, start, end);
		else if (summary_groups(a->counts) > 0)
			summary_print_table(a->counts, stdout, start, end);
		else
			fprintf(stderr, "-- No machine-check records%s --\n", a->have_since ? " in that time range" : "");
		return fflush(stdout) != 0 ? 1 : 0;
	}
	if (a->output == OUTPUT_TABLE && n.shown == 0)
		fprintf(stderr, "-- No %s%s --\n", a->alerts ? "alerts" : "machine-check records",
			a->have_since ? " in that time range" : "");
	if (fflush(stdout) != 0)
		return 1;
	return 0;
}

int verb_query(int argc, char *argv[])
{
	struct query_args a = { .verb = "query", .output = OUTPUT_TABLE, .trusted_uid = 0 };
	int r = run(&a, argc, argv);

	free(a.replayed);
	late_done(&a);
	free_entry_cache();
	return r;
}

int verb_summary(int argc, char *argv[])
{
	struct query_args a = { .verb = "summary", .summary = true, .by = SUMMARY_BY_BANK,
				.output = OUTPUT_TABLE, .trusted_uid = 0 };
	int r;

	r = run(&a, argc, argv);
	a.counts = summary_free(a.counts);
	late_done(&a);
	free(a.replayed);
	free_entry_cache();
	return r;
}

int verb_follow(int argc, char *argv[])
{
	struct query_args a = { .verb = "follow", .follow = true, .output = OUTPUT_TABLE, .trusted_uid = 0 };
	int r = run(&a, argc, argv);

	late_done(&a);
	free_entry_cache();
	return r;
}
