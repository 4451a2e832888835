/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <syslog.h>

/* Our entries describe hardware, not our source code: no CODE_FILE/LINE/FUNC. */
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <systemd/sd-id128.h>
#include <systemd/sd-journal.h>

#include "clock.h"
#include "daemon-config.h"
#include "decode.h"
#include "macro.h"
#include "message-ids.h"
#include "ras-record.h"
#include "rfc3339.h"
#include "sink.h"
#include "sinks.h"
#include "storm-event.h"

/* Where journald listens; libsystemd reports success when it is missing. */
#define JOURNAL_SOCKET "/run/systemd/journal/socket"

/*
 * One journal entry being built: "NAME=value" fields in one store, an iovec
 * each, for sd_journal_sendv(f.iov, f.n).  Shared by every kind of entry.
 */
struct journal_fields {
	struct iovec iov[48];
	unsigned n;
	char store[4096];
	size_t used;
};

struct journal_sink {
	uint64_t n_taken;    /* entries journald accepted from us */
	char *json_field;    /* "MCE_JSON=..." of the entry being written */
	size_t json_cap;
	bool replay;         /* --replay: every entry says so (REPLAY_FIELD) */
};

/*
 * Set on every entry --replay writes: the input (another host's history, a
 * pasted log) cannot set or remove it, as no record key becomes a field
 * outside MCE_*.  mcectl query leaves these entries out unless asked.
 */
#define REPLAY_FIELD "MCELOGD_REPLAY=1"

/* Corrected errors are warnings: the hardware coped, but they predict failures. */
static const int severity_priorities[_MCE_SEV_MAX] = {
	[MCE_SEV_CORRECTED]   = LOG_WARNING,
	[MCE_SEV_DEFERRED]    = LOG_ERR,
	[MCE_SEV_UNCORRECTED] = LOG_CRIT,
	[MCE_SEV_FATAL]       = LOG_ALERT,
};

static int severity_priority(enum mce_severity s)
{
	if ((unsigned) s >= _MCE_SEV_MAX)
		return LOG_CRIT;
	return severity_priorities[s];
}

static int record_message(const struct mce_record *r, const struct mce_decoded *d, char *buf, size_t size)
{
	char what[256], where[128] = "", bank[160] = "";
	const char *sev = mce_severity_to_string(d->severity);
	int n;

	mce_decoded_summary(d, what, sizeof(what));
	if (r->have & MCE_HAVE_CPU)
		snprintf(where, sizeof(where), " on CPU %u", r->cpu);
	if (r->have & MCE_HAVE_BANK) {
		if (d->bank_name)
			snprintf(bank, sizeof(bank), " bank %u (%s)", r->bank, d->bank_name);
		else
			snprintf(bank, sizeof(bank), " bank %u", r->bank);
	}
	n = snprintf(buf, size, "%c%s machine check%s%s: %s", sev[0] - 'a' + 'A', sev + 1,
		     where, bank, what);
	return n;
}

_printf_(2, 3)
static void journal_fields_add(struct journal_fields *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (f->n >= ELEMENTSOF(f->iov) || f->used >= sizeof(f->store))
		return;
	va_start(ap, fmt);
	n = vsnprintf(f->store + f->used, sizeof(f->store) - f->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t) n >= sizeof(f->store) - f->used)
		return;   /* never log a truncated field; MCE_JSON still holds everything */
	f->iov[f->n++] = (struct iovec) { .iov_base = f->store + f->used, .iov_len = (size_t) n };
	f->used += (size_t) n + 1;
}

/*
 * MCE_JSON: journald needs "NAME=value" in one iovec, so the record's JSON
 * is copied behind its name into the sink's buffer, grown to fit: the whole
 * record is always in the entry, whatever its size.  -ENOMEM if it cannot be.
 */
static int journal_fields_add_json(struct journal_fields *f, struct journal_sink *j, const char *json)
{
	size_t need = strlen("MCE_JSON=") + strlen(json) + 1;

	if (f->n >= ELEMENTSOF(f->iov))
		return -E2BIG;
	if (need > j->json_cap) {
		char *p = realloc(j->json_field, need);

		if (!p)
			return -ENOMEM;
		j->json_field = p;
		j->json_cap = need;
	}
	memcpy(j->json_field, "MCE_JSON=", strlen("MCE_JSON="));
	memcpy(j->json_field + strlen("MCE_JSON="), json, need - strlen("MCE_JSON="));
	f->iov[f->n++] = (struct iovec) { .iov_base = j->json_field, .iov_len = need - 1 };
	return 0;
}

static int write_mce(struct journal_sink *j, const struct mce_record *r, const struct mce_decoded *d,
		     const char *json)
{
	int k;
	struct journal_fields f = { .n = 0 };
	char text[400];

	record_message(r, d, text, sizeof(text));
	journal_fields_add(&f, "MESSAGE=%s", text);
	journal_fields_add(&f, "MESSAGE_ID=%s", severity_message_id(d->severity));
	journal_fields_add(&f, "PRIORITY=%d", severity_priority(d->severity));
	journal_fields_add(&f, "SYSLOG_IDENTIFIER=mcelogd");
	journal_fields_add(&f, "MCE_SEVERITY=%s", mce_severity_to_string(d->severity));
	if (d->recovery != MCE_RECOVERY_NONE && mce_recovery_to_string(d->recovery))
		journal_fields_add(&f, "MCE_RECOVERY=%s", mce_recovery_to_string(d->recovery));
	journal_fields_add(&f, "MCE_SOURCE=%s", mce_source_to_string(r->source));
	if (r->have & MCE_HAVE_CPU)
		journal_fields_add(&f, "MCE_CPU=%u", r->cpu);
	if (r->have & MCE_HAVE_SOCKET)
		journal_fields_add(&f, "MCE_SOCKET=%u", r->socket);
	if (r->have & MCE_HAVE_BANK)
		journal_fields_add(&f, "MCE_BANK=%u", r->bank);
	if (d->bank_name)
		journal_fields_add(&f, "MCE_BANK_NAME=%s", d->bank_name);
	if (d->bank_type)
		journal_fields_add(&f, "MCE_BANK_TYPE=%s", d->bank_type);
	journal_fields_add(&f, "MCE_ERROR_CLASS=%s", mce_error_class_to_string(d->error_class));
	if (r->have & MCE_HAVE_VENDOR)
		journal_fields_add(&f, "MCE_VENDOR=%s", mce_vendor_to_string(r->vendor));
	if (r->have & MCE_HAVE_CPUID) {
		journal_fields_add(&f, "MCE_FAMILY=%u", r->family);
		journal_fields_add(&f, "MCE_MODEL=%u", r->model);
	}
	if (r->have & MCE_HAVE_STATUS)
		journal_fields_add(&f, "MCE_STATUS=0x%016" PRIx64, r->status);
	if (r->have & MCE_HAVE_ADDR)
		journal_fields_add(&f, "MCE_ADDR=0x%016" PRIx64, r->addr);
	if (r->have & MCE_HAVE_MISC)
		journal_fields_add(&f, "MCE_MISC=0x%016" PRIx64, r->misc);
	if (r->have & MCE_HAVE_SYND)
		journal_fields_add(&f, "MCE_SYND=0x%016" PRIx64, r->synd);
	if (r->have & MCE_HAVE_IPID)
		journal_fields_add(&f, "MCE_IPID=0x%016" PRIx64, r->ipid);
	if (r->have & MCE_HAVE_MCGSTATUS)
		journal_fields_add(&f, "MCE_MCGSTATUS=0x%016" PRIx64, r->mcgstatus);
	if (r->have & MCE_HAVE_PPIN)
		journal_fields_add(&f, "MCE_PPIN=0x%016" PRIx64, r->ppin);
	if (d->channel >= 0)
		journal_fields_add(&f, "MCE_CHANNEL=%d", d->channel);
	if (j->replay)
		journal_fields_add(&f, REPLAY_FIELD);
	k = journal_fields_add_json(&f, j, json);
	if (k < 0)
		return k;

	return sd_journal_sendv(f.iov, (int) f.n);
}

static const int ras_priorities[_RAS_SEV_MAX] = {
	[RAS_SEV_CORRECTED]   = LOG_WARNING,
	[RAS_SEV_DEFERRED]    = LOG_ERR,
	[RAS_SEV_UNCORRECTED] = LOG_CRIT,
	[RAS_SEV_FATAL]       = LOG_ALERT,
	[RAS_SEV_INFO]        = LOG_NOTICE,
};

static int write_ras(struct journal_sink *j, const struct ras_record *r, const char *json)
{
	int r_json;
	struct journal_fields f = { .n = 0 };
	char name[80];

	journal_fields_add(&f, "MESSAGE=%s", r->summary[0] ? r->summary : ras_event_to_string(r->event));
	journal_fields_add(&f, "MESSAGE_ID=%s", ras_event_message_id(r->event));
	journal_fields_add(&f, "PRIORITY=%d", (unsigned) r->severity < _RAS_SEV_MAX ? ras_priorities[r->severity]
								     : LOG_CRIT);
	journal_fields_add(&f, "SYSLOG_IDENTIFIER=mcelogd");
	journal_fields_add(&f, "MCE_EVENT=%s", ras_event_to_string(r->event));
	journal_fields_add(&f, "MCE_SEVERITY=%s", ras_severity_to_string(r->severity));
	journal_fields_add(&f, "MCE_SOURCE=%s", mce_source_to_string(r->source));
	if (r->have_cpu)
		journal_fields_add(&f, "MCE_CPU=%u", r->cpu);
	for (unsigned i = 0; i < r->n_fields; i++) {
		const struct ras_field *fl = &r->fields[i];
		size_t k;

		/* Journal field names are upper case; our keys are [a-z0-9_]. */
		for (k = 0; fl->key[k] && k < sizeof(name) - 1; k++)
			name[k] = (char) (fl->key[k] >= 'a' && fl->key[k] <= 'z' ? fl->key[k] - 32
										  : fl->key[k]);
		name[k] = '\0';
		switch (fl->type) {
		case RAS_FIELD_UINT:
			journal_fields_add(&f, "MCE_%s=%" PRIu64, name, fl->u);
			break;
		case RAS_FIELD_INT:
			journal_fields_add(&f, "MCE_%s=%" PRId64, name, fl->i);
			break;
		case RAS_FIELD_HEX64:
			journal_fields_add(&f, "MCE_%s=0x%016" PRIx64, name, fl->u);
			break;
		case RAS_FIELD_HEX:
			journal_fields_add(&f, "MCE_%s=0x%" PRIx64, name, fl->u);
			break;
		case RAS_FIELD_BOOL:
			journal_fields_add(&f, "MCE_%s=%s", name, fl->b ? "yes" : "no");
			break;
		case RAS_FIELD_STRING:
			/* Short text only; long text and raw bytes are in MCE_JSON. */
			if (fl->len < 256)
				journal_fields_add(&f, "MCE_%s=%s", name, fl->data);
			break;
		case RAS_FIELD_BYTES:
			break;
		}
	}
	if (j->replay)
		journal_fields_add(&f, REPLAY_FIELD);
	r_json = journal_fields_add_json(&f, j, json);
	if (r_json < 0)
		return r_json;
	return sd_journal_sendv(f.iov, (int) f.n);
}

static int write_loss(const char *source, unsigned cpu, uint64_t lost, const char *json)
{
	return sd_journal_send("MESSAGE=Kernel reported %" PRIu64 " machine-check record(s) lost "
			       "from %s on CPU %u", lost, source, cpu,
			       "MESSAGE_ID=" MCELOGD_MSGID_LOST,
			       "PRIORITY=%d", LOG_ERR,
			       "SYSLOG_IDENTIFIER=mcelogd",
			       "MCE_SOURCE=%s", source,
			       "MCE_CPU=%u", cpu,
			       "MCE_LOST=%" PRIu64, lost,
			       "MCE_JSON=%s", json ? json : "",
			       NULL);
}

static int count_own_entries(sd_journal *j, uint64_t *ret)
{
	uint64_t n = 0;
	int r;

	r = sd_journal_seek_head(j);
	if (r < 0)
		return r;
	while ((r = sd_journal_next(j)) > 0)
		n++;
	if (r < 0)
		return r;
	*ret = n;
	return 0;
}

static int wait_matching(const char *const *matches, size_t n_matches, uint64_t n_expected,
			       uint64_t timeout_usec)
{
	_cleanup_(sd_journal_closep) sd_journal *j = NULL;
	uint64_t deadline = now_monotonic_usec() + timeout_usec, n = 0;
	char match[80], boot[SD_ID128_STRING_MAX];
	sd_id128_t boot_id;
	int r;

	if (n_expected == 0)
		return 0;
	r = sd_journal_open(&j, SD_JOURNAL_LOCAL_ONLY);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n_matches; i++) {
		r = sd_journal_add_match(j, matches[i], 0);
		if (r < 0)
			return r;
	}
	/* Ours: this process in this boot (a pid of an earlier boot may be the same). */
	snprintf(match, sizeof(match), "_PID=%ld", (long) getpid());
	r = sd_journal_add_match(j, match, 0);
	if (r >= 0 && sd_id128_get_boot(&boot_id) >= 0) {
		snprintf(match, sizeof(match), "_BOOT_ID=%s", sd_id128_to_string(boot_id, boot));
		r = sd_journal_add_match(j, match, 0);
	}
	if (r < 0)
		return r;
	for (;;) {
		uint64_t now;

		r = count_own_entries(j, &n);
		if (r < 0)
			return r;
		if (n >= n_expected)
			return 0;
		now = now_monotonic_usec();
		if (now >= deadline)
			return -ETIMEDOUT;
		r = sd_journal_wait(j, deadline - now < 100000 ? deadline - now : 100000);
		if (r < 0)
			return r;
	}
}

static void add_time(struct journal_fields *f, const char *name, int64_t usec)
{
	char t[RFC3339_MAX];

	format_rfc3339_usec(t, sizeof(t), usec);
	journal_fields_add(f, "%s=%s", name, t);
}

static int write_storm(struct journal_sink *j, const struct storm_event *ev, const struct storm_output *o,
		       const char *message, const char *json)
{
	int k;
	struct journal_fields f = { .n = 0 };
	bool summary = ev->type == STORM_EVENT_SUMMARY;
	char code[19];

	storm_code_string(ev->key.code, code);
	journal_fields_add(&f, "MESSAGE=%s", message);
	journal_fields_add(&f, "MESSAGE_ID=%s", summary ? MCELOGD_MSGID_STORM : MCELOGD_MSGID_STORM_END);
	/* A storm is a failing part: a warning, like each of its records; the end is news only. */
	journal_fields_add(&f, "PRIORITY=%d", summary ? LOG_WARNING : LOG_NOTICE);
	journal_fields_add(&f, "SYSLOG_IDENTIFIER=mcelogd");
	journal_fields_add(&f, "MCE_SEVERITY=corrected");
	journal_fields_add(&f, "MCE_STORM_SCOPE=%s", ev->key.per_cpu ? "cpu" : "shared");
	if (ev->key.per_cpu)
		journal_fields_add(&f, "MCE_CPU=%" PRIu32, ev->key.cpu);
	journal_fields_add(&f, "MCE_BANK=%" PRIu32, ev->key.bank);
	journal_fields_add(&f, "MCE_STORM_CODE=%s", code);
	if (summary)
		journal_fields_add(&f, "MCE_STORM_COUNT=%" PRIu64, ev->count);
	journal_fields_add(&f, "MCE_STORM_TOTAL=%" PRIu64, ev->total);
	journal_fields_add(&f, "MCE_STORM_LOGGED=%u", ev->logged);
	add_time(&f, "MCE_STORM_FIRST", storm_realtime_usec(o, ev->first_usec));
	add_time(&f, "MCE_STORM_LAST", storm_realtime_usec(o, ev->last_usec));
	add_time(&f, "MCE_STORM_START", storm_realtime_usec(o, ev->start_usec));
	if (!summary)
		journal_fields_add(&f, "MCE_STORM_REASON=%s", storm_end_reason_to_string(o->reason));
	if (j->replay)
		journal_fields_add(&f, REPLAY_FIELD);
	k = journal_fields_add_json(&f, j, json);
	if (k < 0)
		return k;
	return sd_journal_sendv(f.iov, (int) f.n);
}

static int journal_open(const struct sink_params *p, void **ret)
{
	struct journal_sink *j;

	*ret = NULL;
	if (!p->config->sink_journal)
		return 0;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	j->replay = !p->live;
	*ret = j;
	return 0;
}

static void journal_close(void *s)
{
	struct journal_sink *j = s;

	free(j->json_field);
	free(j);
}

static int journal_write(void *s, const struct sink_entry *e)
{
	struct journal_sink *j = s;
	int r = -EINVAL;

	/* libsystemd reports success when journald's socket is missing: the entry would
	 * be lost while counted as written, and cursors would move past it. */
	if (access(JOURNAL_SOCKET, F_OK) < 0)
		return -ENOTCONN;
	switch (e->kind) {
	case SINK_ENTRY_MCE:
		r = write_mce(j, e->mce.rec, e->mce.decoded, e->json);
		break;
	case SINK_ENTRY_RAS:
		r = write_ras(j, e->ras, e->json);
		break;
	case SINK_ENTRY_LOSS:
		r = write_loss(e->loss.source, e->loss.cpu, e->loss.lost, e->json);
		break;
	case SINK_ENTRY_STORM:
		r = write_storm(j, e->storm.event, e->storm.out, e->storm.message, e->json);
		break;
	case _SINK_ENTRY_KIND_MAX:
		break;
	}
	if (r >= 0)
		j->n_taken++;
	return r < 0 ? r : 0;
}

/*
 * Waits until journald has stored every entry it accepted from us (matched
 * by _PID, which journald takes from the socket credentials).  journald fills
 * _COMM and _EXE from /proc after the fact, so a process that exits first
 * leaves entries without them, and mcectl shows only entries whose trusted
 * _COMM is ours.
 */
static int journal_sync(void *s, uint64_t timeout_usec)
{
	static const char *const ids[] = {
		MCELOGD_RECORD_MSGIDS, MCELOGD_RAS_MSGIDS,
		MCELOGD_MSGID_LOST, MCELOGD_MSGID_STORM, MCELOGD_MSGID_STORM_END,
	};
	const struct journal_sink *j = s;
	char text[ELEMENTSOF(ids)][sizeof("MESSAGE_ID=") + 32];
	const char *matches[ELEMENTSOF(ids)];

	if (j->n_taken == 0)
		return 0;
	/* Nobody will store them: say so now rather than wait out the timeout. */
	if (access(JOURNAL_SOCKET, F_OK) < 0)
		return -ENOTCONN;
	for (size_t i = 0; i < ELEMENTSOF(ids); i++) {
		snprintf(text[i], sizeof(text[i]), "MESSAGE_ID=%s", ids[i]);
		matches[i] = text[i];
	}
	return wait_matching(matches, ELEMENTSOF(matches), j->n_taken, timeout_usec);
}

const struct sink_ops journal_sink_ops = {
	.name = "journal",
	.open = journal_open,
	.close = journal_close,
	.write = journal_write,
	.sync = journal_sync,
};
