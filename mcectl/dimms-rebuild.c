/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <systemd/sd-id128.h>
#include <systemd/sd-journal.h>

#include "collector.h"
#include "daemon-config.h"
#include "decode.h"
#include "dimm-slot-files.h"
#include "dimms-rebuild.h"
#include "entry-time.h"
#include "error-pair.h"
#include "macro.h"
#include "message-ids.h"
#include "module-feed.h"
#include "parse-number.h"
#include "ras-record-json.h"
#include "ras-record.h"
#include "read-file.h"
#include "record-json.h"
#include "rfc3339.h"
#include "rule-field.h"
#include "smbios-memdev.h"

#define DEFAULT_CONFIG SYSCONFDIR "/mcelogd/mcelogd.conf"
/* A record's JSON is a few KiB; a longer field is not mcelogd's, and is not decompressed whole. */
#define FIELD_MAX (1u << 20)
/* Problems told one by one; past it, only counted (a hostile file can hold millions). */
#define PROBLEMS_TOLD 20
/* Other machines named when a journal holds several. */
#define MACHINES_TOLD 16

struct machine {
	char id[SD_ID128_STRING_MAX];
	char host[65];
};

struct rebuild {
	const struct dimms_rebuild_args *a;
	sd_journal *j;
	struct module_ledger *l;
	struct module_feed feed;
	struct error_pair pairs;
	const char *sender;               /* a collector's sender whose files are read, NULL: none */
	struct machine machine;           /* whose records are counted: the first one met */
	struct machine others[MACHINES_TOLD];
	unsigned n_others;
	bool more_others;
	struct smbios_memdev *devs;
	size_t n_devs;
	struct dimm_slots overrides;      /* a machine check's place to its slot, as the daemon reads them */
	bool have_smbios;
	uint64_t counted, replayed, problems;
};

static void problem_config(const char *file, unsigned line, const char *msg, void *userdata)
{
	bool *bad = userdata;

	*bad = true;
	fprintf(stderr, "mcectl dimms: %s:%u: %s\n", file, line, msg);
}

/* The [Modules] thresholds the daemon uses: the verdicts depend on them. */
static int load_thresholds(const struct dimms_rebuild_args *a, struct module_thresholds *ret)
{
	const char *path = a->config ?: DEFAULT_CONFIG;
	_cleanup_free_ char *text = NULL;
	struct mcelogd_config c;
	bool bad = false;
	size_t len = 0;
	int r;

	config_set_defaults(&c);
	r = read_whole_file(path, 1u << 20, &text, &len);
	if (r == -ENOENT && !a->config_explicit) {
		*ret = c.modules;
		return 0;
	}
	if (r < 0) {
		fprintf(stderr, "mcectl dimms: cannot read %s: %s\n", path, strerror(-r));
		return r;
	}
	if (config_parse_text(text, len, path, &c, problem_config, &bad) < 0 || bad) {
		fprintf(stderr, "mcectl dimms: %s has errors: the verdicts would not be the daemon's\n", path);
		return -EINVAL;
	}
	*ret = c.modules;
	return 0;
}

/* A field's value (after "NAME=") and its length: false when absent. */
static bool field_value(sd_journal *j, const char *name, const char **ret, size_t *ret_len)
{
	const void *data;
	size_t len, skip = strlen(name) + 1;

	if (sd_journal_get_data(j, name, &data, &len) < 0 || len < skip)
		return false;
	*ret = (const char *) data + skip;
	*ret_len = len - skip;
	return true;
}

/* The value NUL-terminated in buf: 1, 0 when absent, -E2BIG when longer than buf. */
static int get_field(sd_journal *j, const char *name, char *buf, size_t size)
{
	const char *v;
	size_t len;

	if (!field_value(j, name, &v, &len))
		return 0;
	if (len >= size)
		return -E2BIG;
	memcpy(buf, v, len);
	buf[len] = '\0';
	return 1;
}

/* "entry 2026-11-20T10:01:00.000000Z (host h, cursor s=...)": which entry, for journalctl --cursor. */
_printf_(3, 4)
static void entry_problem(struct rebuild *b, const char *field, const char *fmt, ...)
{
	_cleanup_free_ char *cursor = NULL;
	char when[RFC3339_MAX] = "?", host[65] = "?";
	uint64_t usec;
	va_list ap;

	if (b->problems++ >= PROBLEMS_TOLD)
		return;
	if (sd_journal_get_realtime_usec(b->j, &usec) >= 0 && usec <= INT64_MAX)
		(void) format_rfc3339_usec(when, sizeof(when), (int64_t) usec);
	if (get_field(b->j, "_HOSTNAME", host, sizeof(host)) <= 0)
		snprintf(host, sizeof(host), "?");
	(void) sd_journal_get_cursor(b->j, &cursor);
	fprintf(stderr, "mcectl dimms: entry %s (host %s, cursor %s): field %s: ", when, host, cursor ?: "?", field);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; the entry is left out\n");
}

/* The same, malloc'ed: 1, 0 when absent, -E2BIG past FIELD_MAX, -ENOMEM. */
static int copy_field(sd_journal *j, const char *name, char **ret, size_t *ret_len)
{
	const char *v;
	size_t len;

	if (!field_value(j, name, &v, &len))
		return 0;
	if (len >= FIELD_MAX)
		return -E2BIG;
	/* Not strndup(): a NUL inside the value would make it shorter than len. */
	*ret = malloc(len + 1);
	if (!*ret)
		return -ENOMEM;
	memcpy(*ret, v, len);
	(*ret)[len] = '\0';
	*ret_len = len;
	return 1;
}

static void problem_smbios(const char *path, unsigned line, const char *what, void *userdata)
{
	(void) line;
	(void) userdata;
	fprintf(stderr, "mcectl dimms: %s: %s\n", path, what);
}

static void problem_slots(const char *path, unsigned line, const char *what, void *userdata)
{
	(void) userdata;
	fprintf(stderr, "mcectl dimms: %s:%u: %s\n", path, line, what);
}

/*
 * The slot overrides that name a machine check's place (lib/dimm-slots.h):
 * --slots-dir, else this machine's own for its own records, so that a DIMM
 * the daemon knew by slot and serial is rebuilt under the same key.
 */
static int load_overrides(struct rebuild *b, bool own)
{
	const char *dir = b->a->slots_dir;

	if (!dir && own)
		dir = SLOTS_DIR_DEFAULT;
	if (!dir)
		return 0;
	return dimm_slots_read_dir(&b->overrides, dir, problem_slots, NULL);
}

/*
 * The SMBIOS table that names the machine's modules by serial: --dmi-dir,
 * else this machine's own when its local journal is read and the records are
 * its own.  Without one, a DIMM is keyed by machine and slot (module-ledger.h)
 * where the daemon had its serial: said once.
 */
static int load_smbios(struct rebuild *b)
{
	const struct dimms_rebuild_args *a = b->a;
	const char *dir = a->dmi_dir;
	sd_id128_t self;
	char self_id[SD_ID128_STRING_MAX];
	bool own = !a->directory && !a->n_files && sd_id128_get_machine(&self) >= 0 &&
		   streq(sd_id128_to_string(self, self_id), b->machine.id);
	int r;

	r = load_overrides(b, own);
	if (r < 0)
		return r;
	if (!dir && own)
		dir = DMI_ENTRIES_DEFAULT;
	if (!dir) {
		fprintf(stderr, "mcectl dimms: the records of machine %s (host %s) are read without its SMBIOS table: "
			"DIMMs are known by machine and slot, not by serial (give --dmi-dir with a copy of its %s)\n",
			b->machine.id, b->machine.host, DMI_ENTRIES_DEFAULT);
		return 0;
	}
	b->have_smbios = true;
	return smbios_memdevs_read(dir, &b->devs, &b->n_devs, problem_smbios, NULL);
}

static bool machine_id_valid(const char *s)
{
	if (strlen(s) != SD_ID128_STRING_MAX - 1)
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return true;
}

static void note_other(struct rebuild *b, const struct machine *m)
{
	for (unsigned i = 0; i < b->n_others; i++)
		if (streq(b->others[i].id, m->id))
			return;
	if (b->n_others < MACHINES_TOLD)
		b->others[b->n_others++] = *m;
	else
		b->more_others = true;
}

/* The record's time as the daemon took it: its own, else when it was written (MCE_TIME). */
static int64_t entry_time(struct rebuild *b, bool have, int64_t record_usec)
{
	char text[32];
	uint64_t u;

	if (have && record_usec > 0)
		return record_usec;
	if (get_field(b->j, ENTRY_TIME_FIELD, text, sizeof(text)) > 0 &&
	    parse_unsigned(text, strlen(text), 10, INT64_MAX, &u) >= 0)
		return (int64_t) u;
	if (sd_journal_get_realtime_usec(b->j, &u) >= 0 && u <= INT64_MAX)
		return (int64_t) u;
	return 0;
}

static int feed(struct rebuild *b, struct rule_input *in, int64_t time_usec)
{
	const struct module_host host = { .devs = b->devs, .n_devs = b->n_devs, .overrides = &b->overrides,
					  .machine_id = b->machine.id };
	bool paired = false;
	int r;

	(void) error_pair_input(&b->pairs, in, time_usec > 0 ? (uint64_t) time_usec : 0, &paired);
	r = module_feed_record(b->l, &b->feed, &host, in, time_usec, paired, NULL, NULL);
	if (r == -ENOMEM)
		return r;
	b->counted += r > 0;
	return 0;
}

/* One entry: its record, parsed as --replay parses it, into the ledger. */
static int take_entry(struct rebuild *b)
{
	_cleanup_free_ char *json = NULL;
	struct machine m = {};
	char why[256];
	struct ras_record ras;
	struct mce_record mce;
	struct mce_decoded d;
	size_t len = 0;
	int r;

	r = get_field(b->j, "_MACHINE_ID", m.id, sizeof(m.id));
	if (r <= 0 || !machine_id_valid(m.id)) {
		entry_problem(b, "_MACHINE_ID", r == 0 ? "missing" : "not a machine id");
		return 0;
	}
	if (b->sender)
		snprintf(m.host, sizeof(m.host), "%s", b->sender);
	else if (get_field(b->j, "_HOSTNAME", m.host, sizeof(m.host)) <= 0)
		snprintf(m.host, sizeof(m.host), "?");
	if (!b->machine.id[0]) {
		b->machine = m;
		r = load_smbios(b);
		if (r < 0)
			return r;
	} else if (!streq(b->machine.id, m.id)) {
		note_other(b, &m);
		return 0;
	}
	if (!b->a->include_replayed && sd_journal_get_data(b->j, "MCELOGD_REPLAY", &(const void *) { NULL },
							   &(size_t) { 0 }) >= 0) {
		b->replayed++;
		return 0;
	}
	r = copy_field(b->j, "MCE_JSON", &json, &len);
	if (r <= 0) {
		if (r == -ENOMEM)
			return r;
		entry_problem(b, "MCE_JSON", r == 0 ? "missing" : "longer than %u bytes", FIELD_MAX);
		return 0;
	}
	r = ras_record_parse_json(json, len, &ras, why, sizeof(why));
	if (r == 0) {
		r = feed(b, &(struct rule_input) { .ras = &ras }, entry_time(b, ras.have_time, ras.time_usec));
		ras_record_done(&ras);
		return r;
	}
	if (r == -ENOMEM)
		return r;
	if (r != -ENOMSG) {
		entry_problem(b, "MCE_JSON", "%s", why);
		return 0;
	}
	/* No "event": a machine check's. */
	if (mce_record_parse_json(json, len, &mce, why, sizeof(why)) < 0) {
		entry_problem(b, "MCE_JSON", "%s", why);
		return 0;
	}
	mce_decode(&mce, &d);
	return feed(b, &(struct rule_input) { .mce = &mce, .decoded = &d },
		    entry_time(b, mce.have & MCE_HAVE_TIME, mce.time_usec));
}

static int add_match_text(sd_journal *j, const char *name, const char *value)
{
	char buf[256];

	if ((size_t) snprintf(buf, sizeof(buf), "%s=%s", name, value) >= sizeof(buf))
		return -E2BIG;
	return sd_journal_add_match(j, buf, 0);
}

/* mcelogd's records (the ids of their classes), written by mcelogd as root, of --machine. */
static int add_matches(struct rebuild *b)
{
	static const char *const ids[] = { MCELOGD_RECORD_MSGIDS, MCELOGD_RAS_MSGIDS };
	const char *machine = b->a->machine;
	int r;

	for (size_t i = 0; i < ELEMENTSOF(ids); i++) {
		r = add_match_text(b->j, "MESSAGE_ID", ids[i]);
		if (r < 0)
			return r;
	}
	r = sd_journal_add_match(b->j, "_COMM=" MCELOGD_COMM, 0);
	if (r >= 0)
		r = sd_journal_add_match(b->j, "_UID=0", 0);
	/* A sender's files: --machine named the sender. */
	if (r >= 0 && machine && !b->sender)
		r = add_match_text(b->j, machine_id_valid(machine) ? "_MACHINE_ID" : "_HOSTNAME", machine);
	return r;
}

static int refuse_mixed(const struct rebuild *b)
{
	fprintf(stderr, "mcectl dimms: the journal holds mcelogd's records of more than one machine: %s (host %s)",
		b->machine.id, b->machine.host);
	for (unsigned i = 0; i < b->n_others; i++)
		fprintf(stderr, ", %s (host %s)", b->others[i].id, b->others[i].host);
	fprintf(stderr, "%s; a ledger is one machine's: rebuild one at a time with --machine ID or --machine HOST\n",
		b->more_others ? " and more" : "");
	return 2;
}

/*
 * A collector's files (collector.h): one sender's at a time, as query reads
 * them, since the files are what journal-remote vouches for, not the fields
 * in them.  The group --machine names as its sender; else the files that name
 * no sender (--machine then picks by the entries' fields); else the only one.
 * NULL after saying why.
 */
static const struct collector_group *pick_group(const struct collector *c, const char *machine)
{
	const struct collector_group *unnamed = NULL;

	for (size_t i = 0; i < c->n_groups; i++) {
		if (machine && c->groups[i].sender[0] && streq(c->groups[i].sender, machine))
			return &c->groups[i];
		if (!c->groups[i].sender[0])
			unnamed = &c->groups[i];
	}
	if (c->n_groups == 1 && !machine)
		return &c->groups[0];
	if (machine && unnamed)
		return unnamed;
	fprintf(stderr, "mcectl dimms: %s%s%s the records of several senders of a collector:",
		machine ? "no sender named " : "the files hold", machine ?: "", machine ? " among" : "");
	for (size_t i = 0; i < c->n_groups; i++)
		fprintf(stderr, "%s %s", i ? "," : "", c->groups[i].sender[0] ? c->groups[i].sender :
			"(files that name no sender)");
	fprintf(stderr, "; a ledger is one machine's: rebuild one at a time with --machine SENDER\n");
	return NULL;
}

int dimms_rebuild(const struct dimms_rebuild_args *a, struct module_ledger *l)
{
	const struct collector_group *group = NULL;
	struct module_thresholds t;
	struct rebuild b = { .a = a, .l = l };
	struct collector c = {};
	int r, status = 1;

	if (a->machine && (!a->machine[0] || strpbrk(a->machine, "=\n"))) {
		fprintf(stderr, "mcectl dimms: --machine: '%s' is not a machine id or host name\n", a->machine);
		return 2;
	}
	/* Read at the first record: a typo would otherwise only lose the serials. */
	if (a->dmi_dir && access(a->dmi_dir, R_OK | X_OK) < 0) {
		fprintf(stderr, "mcectl dimms: --dmi-dir: cannot read %s: %s\n", a->dmi_dir, strerror(errno));
		return 1;
	}
	if (a->slots_dir && access(a->slots_dir, R_OK | X_OK) < 0) {
		fprintf(stderr, "mcectl dimms: --slots-dir: cannot read %s: %s\n", a->slots_dir, strerror(errno));
		return 1;
	}
	if (load_thresholds(a, &t) < 0)
		return 1;
	if (a->directory || a->n_files) {
		r = collector_scan(a->directory, a->files, a->n_files, &c);
		if (r < 0) {
			fprintf(stderr, "mcectl dimms: cannot list the journal files%s%s: %s\n", a->directory ? " in " : "",
				a->directory ?: "", r == -E2BIG ? "a sender with more files than can be read at once" :
				strerror(-r));
			return 1;
		}
		if (collector_has_senders(&c) && !(group = pick_group(&c, a->machine))) {
			collector_done(&c);
			return 2;
		}
		if (group && group->sender[0])
			b.sender = group->sender;
	}
	module_ledger_init(l, &t);
	if (group)
		r = sd_journal_open_files(&b.j, (const char **) group->files, 0);
	else if (a->directory)
		r = sd_journal_open_directory(&b.j, a->directory, 0);
	else if (a->n_files)
		r = sd_journal_open_files(&b.j, (const char **) a->files, 0);
	else
		r = sd_journal_open(&b.j, SD_JOURNAL_LOCAL_ONLY);
	if (r < 0) {
		fprintf(stderr, "mcectl dimms: cannot open the journal%s%s: %s\n", a->directory ? " in " : a->n_files ? " " : "",
			a->directory ?: a->n_files ? a->files[0] : "", strerror(-r));
		return 1;
	}
	r = sd_journal_set_data_threshold(b.j, FIELD_MAX);
	if (r >= 0)
		r = add_matches(&b);
	if (r < 0) {
		fprintf(stderr, "mcectl dimms: cannot read the journal: %s\n", strerror(-r));
		goto out;
	}
	/* In the journal's order, the order the daemon met them in: a week's window and the pairs need it. */
	while ((r = sd_journal_next(b.j)) > 0) {
		r = take_entry(&b);
		if (r < 0)
			break;
	}
	if (r == -ENOMEM) {
		fprintf(stderr, "mcectl dimms: out of memory\n");
		goto out;
	}
	if (r < 0) {
		fprintf(stderr, "mcectl dimms: cannot read the journal: %s\n", strerror(-r));
		goto out;
	}
	if (b.n_others > 0) {
		status = refuse_mixed(&b);
		goto out;
	}
	if (b.problems > PROBLEMS_TOLD)
		fprintf(stderr, "mcectl dimms: %" PRIu64 " entries left out in all for fields that cannot be read\n",
			b.problems);
	if (b.replayed > 0)
		fprintf(stderr, "mcectl dimms: %" PRIu64 " entr%s written by mcelogd --replay left out "
			"(--include-replayed counts them)\n", b.replayed, b.replayed == 1 ? "y" : "ies");
	if (l->n_refused > 0)
		fprintf(stderr, "mcectl dimms: the ledger's bound (%d modules) refused %" PRIu64 " records\n",
			MODULE_LEDGER_MAX, l->n_refused);
	status = 0;
out:
	if (status != 0)
		module_ledger_done(l);
	free(b.devs);
	dimm_slots_done(&b.overrides);
	sd_journal_close(b.j);
	collector_done(&c);
	return status;
}
