/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <syslog.h>

#include <systemd/sd-id128.h>
#include <systemd/sd-journal.h>

#include "actions/actions.h"
#include "clock.h"
#include "log.h"
#include "daemon-config.h"
#include "entry-time.h"
#include "decode.h"
#include "json-writer.h"
#include "macro.h"
#include "message-ids.h"
#include "module-ledger.h"
#include "ras-record.h"
#include "ras-storm-key.h"
#include "rfc3339.h"
#include "sink.h"
#include "sinks.h"
#include "snapshot.h"
#include "spool.h"
#include "spool-summary.h"
#include "storm-event.h"

/* Where journald listens for native-protocol datagrams. */
#define JOURNAL_SOCKET "/run/systemd/journal/socket"

/*
 * One journal entry being built: "NAME=value" fields in one store, an iovec
 * each, for send_fields().  Shared by every kind of entry.
 */
struct journal_fields {
	struct iovec iov[64];   /* a record's fixed fields, its DRAM cell and page, 16 snapshot figures, the marker, MCE_JSON */
	unsigned n;
	char store[4096];
	size_t used;
};

/*
 * The spool is bounded ([Output] SpoolSize=), so a long outage cannot fill
 * the disk.  Past the bound the oldest corrected records leave the spool,
 * an eighth of the bound at a time, and one entry keeps their counts by
 * CPU, bank and error code; earlier such summaries fold into it
 * (spool-summary.h).  Uncorrected and fatal records, other losses and storm
 * counts always stay; a corrected record that finds the spool full of them
 * is counted in the next summary.
 */
/* How long a replay waits for journald to read its queue before an entry fails. */
#define REPLAY_WAIT_USEC (30 * 1000000ULL)
/* While entries wait, journald is asked again this often. */
#define SPOOL_RETRY_USEC (2 * 1000000ULL)

struct journal_sink {
	uint64_t n_taken;    /* entries journald accepted from us */
	struct spool *spool; /* live daemon: what journald could not take yet; NULL: none */
	sd_event_source *retry;
	uint64_t n_spooled;  /* entries that went to the spool */
	uint64_t n_refused;  /* corrected records refused with the spool full of others */
	uint64_t n_summarised; /* corrected records counted in a summary in the spool (left it, or refused) */
	struct spool_summary pending; /* refused corrected records, counted until their summary is written */
	bool spool_records;  /* the spool may hold a corrected record, which room can be made with */
	uint64_t n_retries;  /* attempts to hand the spool over */
	int last_error;      /* of the last send journald refused, for mcectl status */
	char *json_field;    /* "MCE_JSON=..." of the entry being written */
	size_t json_cap;
	uint8_t *send_buf;   /* the datagram being sent */
	size_t send_cap;
	bool replay;         /* --replay: every entry says so (REPLAY_FIELD) */
	uint64_t spool_max;  /* [Output] SpoolSize= */
	sd_event *event;
	sd_journal *reader;  /* open while journal_holds() is being asked, closed when idle */
	sd_event_source *reader_idle;
};

/* The reader maps every journal file: keep it only while a restart's questions come. */
#define READER_IDLE_USEC (5 * 1000000ULL)

/*
 * Set on every entry --replay writes, as its first field: the input
 * (another host's history, a pasted log) cannot set it, as no record key
 * becomes a field outside MCE_*, nor push it out of a full entry.  mcectl
 * query leaves these entries out unless asked.
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
static void journal_fields_add(struct journal_fields *f, const char *fmt, ...);

/*
 * Every entry starts here.  A replay's marker comes first, before any field
 * the replayed input decides the size of, so that no input can leave it out.
 * Then the error's own time (entry-time.h), early so that a reader's pass
 * over the entry's fields meets it before MCE_JSON, and the mark of an entry
 * that arrives far from it.  have_time false: what mcelogd reports now.
 */
static void journal_fields_begin(struct journal_fields *f, const struct journal_sink *j, bool have_time,
				 int64_t time_usec)
{
	int64_t now = (int64_t) now_realtime_usec();

	*f = (struct journal_fields) { .n = 0 };
	if (j->replay)
		journal_fields_add(f, REPLAY_FIELD);
	if (!have_time)
		time_usec = now;
	journal_fields_add(f, ENTRY_TIME_FIELD "=%" PRId64, time_usec);
	if (time_usec < now - ENTRY_TIME_SLACK_USEC || time_usec > now + ENTRY_TIME_SLACK_USEC)
		journal_fields_add(f, ENTRY_LATE_MATCH);
	/* Found by its own index: it may have arrived before any window's slack. */
	if (time_usec > now + ENTRY_TIME_SLACK_USEC)
		journal_fields_add(f, ENTRY_AHEAD_MATCH);
}

static bool fields_late(const struct journal_fields *f)
{
	for (unsigned i = 0; i < f->n; i++)
		if (f->iov[i].iov_len == strlen(ENTRY_LATE_MATCH) &&
		    memcmp(f->iov[i].iov_base, ENTRY_LATE_MATCH, strlen(ENTRY_LATE_MATCH)) == 0)
			return true;
	return false;
}

static void journal_fields_add(struct journal_fields *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* The last iovec is MCE_JSON's: whatever the record's fields, the entry holds all of it. */
	if (f->n >= ELEMENTSOF(f->iov) - 1 || f->used >= sizeof(f->store))
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

/*
 * Our own client of journald's native protocol (systemd.io, "Native Journal
 * Protocol"): one datagram per entry to its socket, in the same framing the
 * spool uses.  libsystemd's sd_journal_sendv() reports success when the
 * socket is missing, which would let an entry vanish while counted as
 * logged; this one says what happened to every send.
 */
static int journal_socket(void)
{
	static int fd = -1;
	int size = 8 * 1024 * 1024;

	if (fd >= 0)
		return fd;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return negative_errno();
	/* Big entries fit one datagram (the kernel caps it at wmem_max without privilege). */
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof(size)) < 0)
		(void) setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	return fd;
}

/* spool_send_fn, and the direct path: one entry to journald. */
static int send_fields(const struct iovec *iov, unsigned n, void *userdata)
{
	static const struct sockaddr_un sa = { .sun_family = AF_UNIX, .sun_path = JOURNAL_SOCKET };
	struct journal_sink *j = userdata;
	/* The spool's framing ends an entry with an empty line; a datagram needs none. */
	size_t need = journal_export_encode(iov, n, NULL, 0) - 1;
	struct msghdr mh = {
		.msg_name = (void *) &sa,
		.msg_namelen = (socklen_t) (offsetof(struct sockaddr_un, sun_path) + sizeof(JOURNAL_SOCKET)),
		.msg_iovlen = 1,
	};
	struct iovec dgram;
	int fd = journal_socket();

	if (fd < 0)
		return fd;
	if (need + 1 > j->send_cap) {
		uint8_t *p = realloc(j->send_buf, need + 1);

		if (!p)
			return -ENOMEM;
		j->send_buf = p;
		j->send_cap = need + 1;
	}
	journal_export_encode(iov, n, j->send_buf, need + 1);
	dgram = (struct iovec) { .iov_base = j->send_buf, .iov_len = need };
	mh.msg_iov = &dgram;
	/*
	 * Never wait for journald here: one that is alive but not reading (stuck
	 * on its storage, stopped) would stop the event loop, and with it every
	 * reader and the watchdog.  Its full queue answers -EAGAIN, which the
	 * daemon treats as any other refusal: the entry goes to the spool.
	 */
	for (;;) {
		if (sendmsg(fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT) >= 0)
			return 0;
		if (errno != EINTR)
			return (j->last_error = negative_errno());
	}
}

/*
 * A replay has no spool and no event loop to keep going: it waits for a
 * journald that is slow to read, a bounded time, then fails the entry.
 */
static int send_waiting(const struct iovec *iov, unsigned n, struct journal_sink *j)
{
	uint64_t deadline = now_monotonic_usec() + REPLAY_WAIT_USEC;
	int r;

	for (;;) {
		r = send_fields(iov, n, j);
		if (r != -EAGAIN || now_monotonic_usec() >= deadline)
			return r;
		(void) usleep(10000);
	}
}

/* Hands journald what waits in the spool, oldest first; stops at its first refusal. */
static void flush_spool(struct journal_sink *j)
{
	int k, cut;

	if (spool_entries(j->spool) == 0)
		return;
	j->n_retries++;
	k = spool_replay(j->spool, send_fields, j, &cut);
	if (k < 0) {
		log_warning_errno(k, "Cannot replay the spool %s: %m; its entries stay there",
				  spool_path(j->spool));
		return;
	}
	if (cut < 0)
		log_warning_errno(cut, "Cannot cut what journald took from the spool %s: %m; this process "
				  "will not send it again, but after a restart those entries are logged twice",
				  spool_path(j->spool));
	j->n_taken += (unsigned) k;
	if (k > 0)
		log_notice("journald took %d entr%s kept in the spool while it could not; %llu still wait",
			   k, k == 1 ? "y" : "ies", (unsigned long long) spool_entries(j->spool));
}

static void write_pending(struct journal_sink *j);

static int on_retry(sd_event_source *es, uint64_t usec, void *userdata)
{
	struct journal_sink *j = userdata;

	(void) usec;
	write_pending(j);
	flush_spool(j);
	if (spool_entries(j->spool) > 0) {
		(void) sd_event_source_set_time_relative(es, SPOOL_RETRY_USEC);
		(void) sd_event_source_set_enabled(es, SD_EVENT_ONESHOT);
	}
	return 0;
}

/* spool_droppable_fn: room is made by the oldest corrected records, and earlier summaries fold in. */
static bool leaves_full_spool(const struct iovec *iov, unsigned n, void *userdata)
{
	struct spool_summary *sum = userdata;

	return spool_summary_add_record(sum, iov, n) || spool_summary_fold(sum, iov, n);
}

/* spool_droppable_fn: only the summaries leave, folded into the next one. */
static bool folds_summary(const struct iovec *iov, unsigned n, void *userdata)
{
	return spool_summary_fold(userdata, iov, n);
}

/*
 * Written while the entry that filled the spool is half-built (its MCE_JSON
 * sits in j->json_field), so this one builds its own MCE_JSON field.
 */
static int append_summary(struct journal_sink *j, const struct spool_summary *sum)
{
	_cleanup_(json_writer_done) struct json_writer w;
	_cleanup_free_ char *json_field = NULL;
	struct journal_fields f;
	int r;

	journal_fields_begin(&f, j, false, 0);
	/* Always to the spool, delivered whenever journald is back. */
	if (!fields_late(&f))
		journal_fields_add(&f, ENTRY_LATE_MATCH);
	json_writer_init(&w);
	json_object_begin(&w, NULL);
	json_put_time_usec(&w, "time", now_realtime_usec());
	json_put_string(&w, "event", "loss");
	json_put_string(&w, "source", "journal_spool");
	json_put_string(&w, "reason", "spool_full");
	spool_summary_write_json(sum, &w);
	json_object_end(&w);
	if (json_writer_failed(&w))
		return -ENOMEM;
	journal_fields_add(&f, "MESSAGE=The spool %s reached its %llu KiB (SpoolSize=) while journald was "
			   "away: %" PRIu64 " corrected record(s) left it, their counts by CPU, bank and code "
			   "kept here", spool_path(j->spool), (unsigned long long) (j->spool_max >> 10), sum->count);
	journal_fields_add(&f, "MESSAGE_ID=" MCELOGD_MSGID_LOST);
	journal_fields_add(&f, "PRIORITY=%d", LOG_WARNING);
	journal_fields_add(&f, "SYSLOG_IDENTIFIER=mcelogd");
	journal_fields_add(&f, "MCE_SOURCE=journal_spool");
	journal_fields_add(&f, "MCE_LOST=%" PRIu64, sum->count);
	r = asprintf(&json_field, "MCE_JSON=%s", json_writer_str(&w));
	if (r < 0) {
		json_field = NULL;
		return -ENOMEM;
	}
	f.iov[f.n++] = (struct iovec) { .iov_base = json_field, .iov_len = (size_t) r };
	/* Not a kept entry: the next room made folds it into the next summary. */
	return spool_append(j->spool, f.iov, f.n);
}

/*
 * One summary of what sum and the refused records waiting in j->pending
 * count.  If it cannot be written, the counts wait in j->pending for the
 * next one: what left the spool is counted until it reaches the journal.
 */
static void write_summary(struct journal_sink *j, struct spool_summary *sum)
{
	int r;

	spool_summary_merge(sum, &j->pending);
	j->pending = (struct spool_summary) {};
	r = append_summary(j, sum);
	if (r < 0) {
		log_error("Cannot keep the counts of %" PRIu64 " corrected records that left the full spool "
			  "%s: %s; trying again later", sum->count, spool_path(j->spool), strerror(-r));
		j->pending = *sum;
		return;
	}
	j->n_summarised += sum->records;
	log_warning("The spool %s is full: %" PRIu64 " corrected record(s) counted in one entry instead "
		    "(%" PRIu64 " new, the rest from %" PRIu64 " earlier count(s))", spool_path(j->spool),
		    sum->count, sum->records, sum->folded);
}

/*
 * Corrected records refused by a spool full of entries that always stay
 * were counted in j->pending: their summary goes to the spool, the earlier
 * summaries folded into it, so that refusals add no entry.  At most once a
 * retry (SPOOL_RETRY_USEC), not for every refused record, as it rewrites
 * the spool; and before the spool is handed over or closed.
 */
static void write_pending(struct journal_sink *j)
{
	struct spool_summary sum = {};
	int r;

	if (!j->spool || j->pending.count == 0)
		return;
	r = spool_shrink(j->spool, 0, folds_summary, &sum);
	if (r < 0)
		log_error_errno(r, "Cannot fold the summaries of the spool %s: %m", spool_path(j->spool));
	write_summary(j, &sum);
}

/* The spool is full: the oldest corrected records leave it, and one entry keeps their counts. */
static void make_room(struct journal_sink *j, size_t need)
{
	struct spool_summary sum = {};
	uint64_t target = j->spool_max - j->spool_max / 8;
	int r;

	/*
	 * No corrected record left to make room with: shrinking would only fold
	 * the summary into a new one, a rewrite of the spool for every entry.
	 */
	if (!j->spool_records)
		return;
	/* Room for the entry to come and for the summary written here (a few KiB at most). */
	target = target > need + 4096 ? target - need - 4096 : 0;
	r = spool_shrink(j->spool, target, leaves_full_spool, &sum);
	if (r < 0)
		log_error_errno(r, "Cannot make room in the spool %s: %m", spool_path(j->spool));
	/* None taken and still over: every corrected record is gone, only summaries folded. */
	if (sum.records == 0 && spool_bytes(j->spool) > target)
		j->spool_records = false;
	if (r > 0)
		write_summary(j, &sum);
}

/*
 * One finished entry: to journald, or, while anything waits in the spool
 * (order is kept) or journald cannot take it, into the spool.  Only the
 * retry timer hands the spool over: doing it here would read the whole
 * spool again for every record of a burst during an outage.  Returns 0 once
 * journald or the spool holds it.  may_drop: a corrected record, which a
 * spool full of records that may not leave it refuses.
 */
static int deliver(struct journal_sink *j, const struct journal_fields *f, bool may_drop)
{
	struct iovec iov[ELEMENTSOF(f->iov) + 1];
	unsigned n;
	size_t need;
	int r;

	if (spool_entries(j->spool) == 0) {
		r = j->replay ? send_waiting(f->iov, f->n, j) : send_fields(f->iov, f->n, j);
		if (r >= 0) {
			j->n_taken++;
			return 0;
		}
		if (!j->spool)
			return r;
		if (r == -EAGAIN)
			log_warning("journald is not reading its socket (its queue is full); keeping entries "
				    "in %s until it does", spool_path(j->spool));
		else
			log_warning_errno(r, "journald does not take entries (%m); keeping them in %s until it "
					  "does", spool_path(j->spool));
	}
	/* Delivered whenever journald is back: marked late (entry-time.h). */
	n = f->n;
	memcpy(iov, f->iov, n * sizeof(iov[0]));
	if (!fields_late(f))
		iov[n++] = (struct iovec) { .iov_base = (void *) ENTRY_LATE_MATCH, .iov_len = strlen(ENTRY_LATE_MATCH) };
	/* The bound holds after the append: room is made for this entry first. */
	need = journal_export_encode(iov, n, NULL, 0);
	if (spool_bytes(j->spool) + need > j->spool_max)
		make_room(j, need);
	if (may_drop && spool_bytes(j->spool) + need > j->spool_max) {
		/* Not kept one by one, but counted: in the next summary, written at the next retry. */
		j->n_refused++;
		if (!spool_summary_add_record(&j->pending, iov, n))
			spool_summary_count_other(&j->pending);
		if (j->retry)
			(void) sd_event_source_set_enabled(j->retry, SD_EVENT_ONESHOT);
		return -ENOSPC;
	}
	r = may_drop ? spool_append(j->spool, iov, n) : spool_append_kept(j->spool, iov, n);
	if (r < 0)
		return log_error_errno(r, "Cannot keep an entry in the spool %s: %m", spool_path(j->spool));
	if (may_drop)
		j->spool_records = true;
	j->n_spooled++;
	if (j->retry)
		(void) sd_event_source_set_enabled(j->retry, SD_EVENT_ONESHOT);
	return 0;
}

static int write_mce(struct journal_sink *j, const struct mce_record *r, const struct mce_decoded *d,
		     const struct snapshot_field *snap, size_t n_snap, uint64_t error_id, const char *json)
{
	int k;
	struct journal_fields f;
	char text[400];

	journal_fields_begin(&f, j, r->have & MCE_HAVE_TIME, r->time_usec);
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
	if (r->have & MCE_HAVE_SYND1)
		journal_fields_add(&f, "MCE_SYND1=0x%016" PRIx64, r->synd1);
	if (r->have & MCE_HAVE_SYND2)
		journal_fields_add(&f, "MCE_SYND2=0x%016" PRIx64, r->synd2);
	/* The part to replace, as the CPU names it: journalctl MCE_FRU_TEXT=... finds its errors. */
	if (d->fru_text[0])
		journal_fields_add(&f, "MCE_FRU_TEXT=%s", d->fru_text);
	if (r->have & MCE_HAVE_IPID)
		journal_fields_add(&f, "MCE_IPID=0x%016" PRIx64, r->ipid);
	if (r->have & MCE_HAVE_MCGSTATUS)
		journal_fields_add(&f, "MCE_MCGSTATUS=0x%016" PRIx64, r->mcgstatus);
	/* With CPU and STATUS, what tells this record from any other: journal_holds() matches it. */
	if (r->have & MCE_HAVE_TSC)
		journal_fields_add(&f, "MCE_TSC=0x%016" PRIx64, r->tsc);
	if (r->have & MCE_HAVE_PPIN)
		journal_fields_add(&f, "MCE_PPIN=0x%016" PRIx64, r->ppin);
	if (d->channel >= 0)
		journal_fields_add(&f, "MCE_CHANNEL=%d", d->channel);
	/* Where in the DRAM, when the bank's MISC says (journalctl MCE_ROW=... finds a row's errors). */
	if (d->dimm >= 0)
		journal_fields_add(&f, "MCE_DIMM=%d", d->dimm);
	if (d->rank >= 0)
		journal_fields_add(&f, "MCE_RANK=%d", d->rank);
	if (d->row >= 0) {
		journal_fields_add(&f, "MCE_BANK_GROUP=%d", d->bank_group);
		journal_fields_add(&f, "MCE_DRAM_BANK=%d", d->dram_bank);
		journal_fields_add(&f, "MCE_ROW=%d", d->row);
		journal_fields_add(&f, "MCE_COLUMN=%d", d->column);
	}
	/* The page rules count, or why there is none: the same names as a ras record's fields. */
	if (d->has_page)
		journal_fields_add(&f, "MCE_PAGE=0x%" PRIx64, d->page);
	if (d->no_page)
		journal_fields_add(&f, "MCE_NO_PAGE=%s", d->no_page);
	if (error_id)
		journal_fields_add(&f, "MCE_ERROR_ID=0x%" PRIx64, error_id);
	/* The snapshot's most useful figures, flat, so journalctl can match them. */
	for (size_t i = 0; i < n_snap; i++)
		journal_fields_add(&f, "MCE_%s=%s", snap[i].name, snap[i].value);
	k = journal_fields_add_json(&f, j, json);
	if (k < 0)
		return k;

	return deliver(j, &f, d->severity == MCE_SEV_CORRECTED);
}

static const int ras_priorities[_RAS_SEV_MAX] = {
	[RAS_SEV_CORRECTED]   = LOG_WARNING,
	[RAS_SEV_DEFERRED]    = LOG_ERR,
	[RAS_SEV_UNCORRECTED] = LOG_CRIT,
	[RAS_SEV_FATAL]       = LOG_ALERT,
	[RAS_SEV_INFO]        = LOG_NOTICE,
};

static int write_ras(struct journal_sink *j, const struct ras_record *r, const struct snapshot_field *snap,
		     size_t n_snap, const char *json)
{
	int r_json;
	struct journal_fields f;
	char name[80];

	journal_fields_begin(&f, j, r->have_time, r->time_usec);
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
	for (size_t i = 0; i < n_snap; i++)
		journal_fields_add(&f, "MCE_%s=%s", snap[i].name, snap[i].value);
	r_json = journal_fields_add_json(&f, j, json);
	if (r_json < 0)
		return r_json;
	return deliver(j, &f, r->severity == RAS_SEV_CORRECTED || r->severity == RAS_SEV_INFO);
}

static int write_loss(struct journal_sink *j, const char *source, unsigned cpu, uint64_t lost, bool at_start,
		      const char *json)
{
	struct journal_fields f;
	int k;

	journal_fields_begin(&f, j, false, 0);
	journal_fields_add(&f, "MESSAGE=Kernel reported %" PRIu64 " machine-check record(s) lost from %s "
			   "on CPU %u%s", lost, source, cpu, at_start ? LOSS_AT_START_TEXT : "");
	if (at_start)
		journal_fields_add(&f, "MCE_LOSS_AT_START=yes");
	journal_fields_add(&f, "MESSAGE_ID=" MCELOGD_MSGID_LOST);
	journal_fields_add(&f, "PRIORITY=%d", LOG_ERR);
	journal_fields_add(&f, "SYSLOG_IDENTIFIER=mcelogd");
	journal_fields_add(&f, "MCE_SOURCE=%s", source);
	journal_fields_add(&f, "MCE_CPU=%u", cpu);
	journal_fields_add(&f, "MCE_LOST=%" PRIu64, lost);
	if (json) {
		k = journal_fields_add_json(&f, j, json);
		if (k < 0)
			return k;
	}
	return deliver(j, &f, false);
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

static int write_storm(struct journal_sink *j, const struct storm_event *ev, const struct ras_storm_key *ras,
		       const struct storm_output *o, const char *message, const char *json)
{
	int k;
	struct journal_fields f;
	bool summary = ev->type == STORM_EVENT_SUMMARY;
	char code[19];

	journal_fields_begin(&f, j, false, 0);
	storm_code_string(ev->key.code, code);
	journal_fields_add(&f, "MESSAGE=%s", message);
	journal_fields_add(&f, "MESSAGE_ID=%s", summary ? MCELOGD_MSGID_STORM : MCELOGD_MSGID_STORM_END);
	/* A storm is a failing part: a warning, like each of its records; the end is news only. */
	journal_fields_add(&f, "PRIORITY=%d", summary ? LOG_WARNING : LOG_NOTICE);
	journal_fields_add(&f, "SYSLOG_IDENTIFIER=mcelogd");
	journal_fields_add(&f, "MCE_SEVERITY=%s",
			   ras ? ras_severity_to_string(ras_storm_severity(ras->event)) : "corrected");
	if (ras) {
		/* A ras storm has no CPU, bank or code: its kind and signature name it. */
		journal_fields_add(&f, "MCE_STORM_SCOPE=ras");
		journal_fields_add(&f, "MCE_STORM_EVENT=%s", ras_event_to_string(ras->event));
		/* As on its records: mcectl summary counts the storm with them. */
		journal_fields_add(&f, "MCE_SOURCE=%s", mce_source_to_string(ras_storm_source(ras->event)));
		journal_fields_add(&f, "MCE_STORM_SIGNATURE=%s", ras->text);
		if (summary)
			journal_fields_add(&f, "MCE_STORM_COUNT=%" PRIu64, ev->count);
	} else {
		journal_fields_add(&f, "MCE_STORM_SCOPE=%s", ev->key.per_cpu ? "cpu" : "shared");
		if (ev->key.per_cpu)
			journal_fields_add(&f, "MCE_CPU=%" PRIu32, ev->key.cpu);
		journal_fields_add(&f, "MCE_BANK=%" PRIu32, ev->key.bank);
		journal_fields_add(&f, "MCE_STORM_CODE=%s", code);
		if (summary) {
			journal_fields_add(&f, "MCE_STORM_COUNT=%" PRIu64, ev->count);
			journal_fields_add(&f, "MCE_STORM_PAGES=%" PRIu64, ev->pages);
		}
	}
	journal_fields_add(&f, "MCE_STORM_TOTAL=%" PRIu64, ev->total);
	journal_fields_add(&f, "MCE_STORM_LOGGED=%u", ev->logged);
	add_time(&f, "MCE_STORM_FIRST", storm_realtime_usec(o, ev->first_usec));
	add_time(&f, "MCE_STORM_LAST", storm_realtime_usec(o, ev->last_usec));
	add_time(&f, "MCE_STORM_START", storm_realtime_usec(o, ev->start_usec));
	if (!summary)
		journal_fields_add(&f, "MCE_STORM_REASON=%s", storm_end_reason_to_string(o->reason));
	k = journal_fields_add_json(&f, j, json);
	if (k < 0)
		return k;
	return deliver(j, &f, false);
}

/* A repair report's own fields (mcelogd.rules(5), REPAIR). */
static void add_repair_fields(struct journal_fields *f, const struct mem_repair_report *rep)
{
	const struct mem_repair_plan *p = rep->plan;

	journal_fields_add(f, "MCE_REPAIR_OUTCOME=%s", mem_repair_outcome_to_string(rep->outcome));
	if (rep->memdev[0])
		journal_fields_add(f, "MCE_MEMDEV=%s", rep->memdev);
	if (p->offer) {
		journal_fields_add(f, "MCE_REPAIR_DEVICE=%s", p->offer->device);
		journal_fields_add(f, "MCE_REPAIR_INSTANCE=%u", p->offer->instance);
		journal_fields_add(f, "MCE_REPAIR_TYPE=%s", p->offer->type_text);
		if (p->offer->persist_mode >= 0)
			journal_fields_add(f, "MCE_REPAIR_PERSIST=%s", p->offer->persist_mode ? "hard" : "soft");
	}
	if (p->location[0])
		journal_fields_add(f, "MCE_REPAIR_LOCATION=%s", p->location);
	if (p->unit[0])
		journal_fields_add(f, "MCE_REPAIR_UNIT=%s", p->unit);
	if (p->refusal != MEM_REPAIR_GO) {
		journal_fields_add(f, "MCE_REPAIR_REFUSED=%s", mem_repair_refusal_to_string(p->refusal));
		journal_fields_add(f, "MCE_REPAIR_REASON=%s", p->why);
	}
	if (rep->outcome == MEM_REPAIR_FAILED) {
		journal_fields_add(f, "MCE_REPAIR_FAILED_ATTRIBUTE=%s", rep->failed_attr ? rep->failed_attr : "");
		journal_fields_add(f, "MCE_REPAIR_ERRNO=%d", -rep->error);
		journal_fields_add(f, "MCE_REPAIR_COUNTED=%s", rep->counted ? "yes" : "no");
	}
}

/* A module's change of verdict (mcelogd(8), MODULE LEDGER): its identity and the evidence. */
static void add_module_fields(struct journal_fields *f, const struct module_change *c)
{
	const struct module_entry *m = c->module;
	char pattern[160];

	journal_fields_add(f, "MCE_MODULE_KIND=%s", module_kind_to_string(m->id.kind));
	journal_fields_add(f, "MCE_MODULE_SERIAL=%s", m->id.serial);
	journal_fields_add(f, "MCE_MODULE_PART=%s", m->id.part);
	journal_fields_add(f, "MCE_MODULE_SLOT=%s", m->id.slot);
	journal_fields_add(f, "MCE_MODULE_KEY=%s", m->id.key);
	journal_fields_add(f, "MCE_MODULE_KEY_FALLBACK=%s", m->id.fallback ? "yes" : "no");
	journal_fields_add(f, "MCE_MODULE_VERDICT=%s", module_verdict_to_string(c->to));
	journal_fields_add(f, "MCE_MODULE_PREVIOUS_VERDICT=%s", module_verdict_to_string(c->from));
	journal_fields_add(f, "MCE_MODULE_REASON=%s", m->reason);
	journal_fields_add(f, "MCE_MODULE_CORRECTED=%" PRIu64, m->corrected);
	journal_fields_add(f, "MCE_MODULE_UNCORRECTED=%" PRIu64, m->uncorrected);
	journal_fields_add(f, "MCE_MODULE_CORRECTED_WEEK=%" PRIu64, m->week_corrected);
	module_pattern_describe(&m->pattern, pattern, sizeof(pattern));
	journal_fields_add(f, "MCE_MODULE_PATTERN=%s", pattern);
	journal_fields_add(f, "MCE_MODULE_PAGES_RETIRED=%u", m->pages_retired);
	journal_fields_add(f, "MCE_MODULE_ROWS_RETIRED=%u", m->rows_retired);
	journal_fields_add(f, "MCE_MODULE_REPAIRS_DONE=%u", m->repairs[MODULE_REPAIR_DONE]);
	journal_fields_add(f, "MCE_MODULE_REPAIRS_REFUSED=%u", m->repairs[MODULE_REPAIR_REFUSED]);
	journal_fields_add(f, "MCE_MODULE_REPAIRS_FAILED=%u", m->repairs[MODULE_REPAIR_FAILED]);
	if (m->spares_left >= 0)
		journal_fields_add(f, "MCE_MODULE_SPARES_LEFT=%" PRId64, m->spares_left);
	if (m->first_usec > 0)
		add_time(f, "MCE_MODULE_FIRST_ERROR", m->first_usec);
}

static int write_alert(struct journal_sink *j, const struct rule_alert *a, const char *json)
{
	struct journal_fields f;
	int k;

	journal_fields_begin(&f, j, false, 0);
	journal_fields_add(&f, "MESSAGE=%s", a->message);
	journal_fields_add(&f, "MESSAGE_ID=%s", a->module ? MCELOGD_MSGID_MODULE_VERDICT :
			   a->repair ? MCELOGD_MSGID_REPAIR : MCELOGD_MSGID_ALERT);
	journal_fields_add(&f, "PRIORITY=%d", a->priority);
	journal_fields_add(&f, "SYSLOG_IDENTIFIER=mcelogd");
	journal_fields_add(&f, "MCE_RULE=%s", a->rule);
	if (a->key[0])
		journal_fields_add(&f, "MCE_RULE_KEY=%s", a->key);
	journal_fields_add(&f, "MCE_RULE_COUNT=%u", a->count);
	journal_fields_add(&f, "MCE_RULE_WINDOW_USEC=%" PRIu64, a->window_usec);
	if (a->first_usec > 0)
		add_time(&f, "MCE_RULE_FIRST", a->first_usec);
	journal_fields_add(&f, "MCE_RULE_ACTIONS=%s", a->actions);
	if (a->failed_action)
		journal_fields_add(&f, "MCE_RULE_FAILED_ACTION=%s", a->failed_action);
	if (a->repair)
		add_repair_fields(&f, a->repair);
	if (a->module)
		add_module_fields(&f, a->module);
	if (json) {
		k = journal_fields_add_json(&f, j, json);
		if (k < 0)
			return k;
	}
	return deliver(j, &f, false);
}

/* What opening the spool found wrong with it, said once. */
static void log_spool_repair(const struct spool *s)
{
	const struct spool_repair *rep = spool_repaired(s);

	if (rep->torn_bytes > 0)
		log_notice("The spool %s ended in an entry cut short by a crash (%" PRIu64 " bytes, never "
			   "acknowledged): dropped", spool_path(s), rep->torn_bytes);
	if (rep->set_aside[0])
		log_error("The spool %s is damaged at byte %" PRIu64 ": the file is kept as %s, and the %" PRIu64
			  " entr%s that still read stay in the spool; what did not read is only in that file",
			  spool_path(s), rep->damaged_at, rep->set_aside, rep->kept, rep->kept == 1 ? "y" : "ies");
}

static int journal_open(const struct sink_params *p, void **ret)
{
	struct journal_sink *j;
	int r;

	*ret = NULL;
	if (!p->config->sink_journal)
		return 0;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	j->replay = !p->live;
	j->event = p->event;
	j->spool_max = p->config->spool_max_bytes;
	/* The daemon keeps what journald cannot take; a replay fails instead, loudly. */
	if (p->live && p->state_directory) {
		r = spool_open(p->state_directory, &j->spool);
		if (r < 0)
			log_warning_errno(r, "Cannot open the journal spool in %s: %m; records journald "
					  "cannot take are lost", p->state_directory);
		else
			log_spool_repair(j->spool);
	}
	if (j->spool && p->event) {
		r = sd_event_add_time_relative(p->event, &j->retry, CLOCK_MONOTONIC, SPOOL_RETRY_USEC,
					       SPOOL_RETRY_USEC / 4, on_retry, j);
		if (r >= 0)
			(void) sd_event_source_set_enabled(j->retry, SD_EVENT_OFF);
	}
	/* What an earlier run left may hold corrected records to make room with. */
	j->spool_records = spool_entries(j->spool) > 0;
	if (spool_entries(j->spool) > 0) {
		log_notice("%llu entr%s from an earlier run wait in %s",
			   (unsigned long long) spool_entries(j->spool),
			   spool_entries(j->spool) == 1 ? "y" : "ies", spool_path(j->spool));
		flush_spool(j);
		if (spool_entries(j->spool) > 0 && j->retry)
			(void) sd_event_source_set_enabled(j->retry, SD_EVENT_ONESHOT);
	}
	*ret = j;
	return 0;
}

static void close_reader(struct journal_sink *j)
{
	if (j->reader)
		sd_journal_close(j->reader);
	j->reader = NULL;
}

static void journal_close(void *s)
{
	struct journal_sink *j = s;

	j->reader_idle = sd_event_source_disable_unref(j->reader_idle);
	close_reader(j);

	j->retry = sd_event_source_disable_unref(j->retry);
	/* A reload closes the sink too: refused records' counts go to the spool, not away. */
	write_pending(j);
	spool_close(j->spool);
	free(j->send_buf);
	free(j->json_field);
	free(j);
}

static int journal_write(void *s, const struct sink_entry *e)
{
	struct journal_sink *j = s;
	int r = -EINVAL;

	switch (e->kind) {
	case SINK_ENTRY_MCE:
		r = write_mce(j, e->mce.rec, e->mce.decoded, e->snapshot_fields, e->n_snapshot_fields,
			      e->mce.error_id, e->json);
		break;
	case SINK_ENTRY_RAS:
		r = write_ras(j, e->ras, e->snapshot_fields, e->n_snapshot_fields, e->json);
		break;
	case SINK_ENTRY_LOSS:
		r = write_loss(j, e->loss.source, e->loss.cpu, e->loss.lost, e->loss.at_start, e->json);
		break;
	case SINK_ENTRY_STORM:
		r = write_storm(j, e->storm.event, e->storm.ras, e->storm.out, e->storm.message, e->json);
		break;
	case SINK_ENTRY_ALERT:
		r = write_alert(j, e->alert, e->json);
		break;
	case _SINK_ENTRY_KIND_MAX:
		break;
	}
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
		MCELOGD_MSGID_LOST, MCELOGD_MSGID_STORM, MCELOGD_MSGID_STORM_END, MCELOGD_MSGID_ALERT,
		MCELOGD_MSGID_REPAIR, MCELOGD_MSGID_MODULE_VERDICT,
	};
	struct journal_sink *j = s;
	char text[ELEMENTSOF(ids)][sizeof("MESSAGE_ID=") + 32];
	const char *matches[ELEMENTSOF(ids)];

	write_pending(j);
	flush_spool(j);
	if (spool_entries(j->spool) > 0)
		log_notice("%llu entr%s stay in %s for journald, for the next start",
			   (unsigned long long) spool_entries(j->spool),
			   spool_entries(j->spool) == 1 ? "y" : "ies", spool_path(j->spool));
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

/*
 * Entries of ours found again after a crash: those holding every match, in one
 * boot.  What the callers need of them is gathered on the way.
 */
struct entry_query {
	/* Room for a ras storm's MCE_STORM_SIGNATURE=, up to RAS_STORM_KEY_MAX: a match cut
	 * short would find nothing, and the counts the journal holds would be written twice. */
	char match[5][sizeof("MCE_STORM_SIGNATURE=") + RAS_STORM_KEY_MAX];
	unsigned n_match;
	char boot_id[SD_ID128_STRING_MAX];   /* "": this boot */
	bool first_only;                     /* one is enough */
	unsigned found;
	uint64_t max_total;                  /* highest MCE_STORM_TOTAL= among them */
	bool storm_end;                      /* one of them is a storm's end */
};

_printf_(2, 3)
static void query_match(struct entry_query *q, const char *fmt, ...)
{
	va_list ap;

	if (q->n_match >= ELEMENTSOF(q->match))
		return;
	va_start(ap, fmt);
	vsnprintf(q->match[q->n_match++], sizeof(q->match[0]), fmt, ap);
	va_end(ap);
}

static void query_note_field(struct entry_query *q, const char *data, size_t len)
{
	static const char total[] = "MCE_STORM_TOTAL=", end[] = "MESSAGE_ID=" MCELOGD_MSGID_STORM_END;
	char num[24];

	if (len > strlen(total) && len - strlen(total) < sizeof(num) && memcmp(data, total, strlen(total)) == 0) {
		uint64_t v;

		memcpy(num, data + strlen(total), len - strlen(total));
		num[len - strlen(total)] = '\0';
		if (sscanf(num, "%" SCNu64, &v) == 1 && v > q->max_total)
			q->max_total = v;
	} else if (len == strlen(end) && memcmp(data, end, len) == 0)
		q->storm_end = true;
}

static int query_spooled(const struct iovec *iov, unsigned n, void *userdata)
{
	struct entry_query *q = userdata;
	unsigned hits = 0;

	for (unsigned i = 0; i < n; i++)
		for (unsigned k = 0; k < q->n_match; k++)
			if (iov[i].iov_len == strlen(q->match[k]) &&
			    memcmp(iov[i].iov_base, q->match[k], iov[i].iov_len) == 0)
				hits++;
	if (hits < q->n_match)
		return 0;
	q->found++;
	for (unsigned i = 0; i < n; i++)
		query_note_field(q, iov[i].iov_base, iov[i].iov_len);
	return q->first_only ? -ECANCELED : 0;   /* -ECANCELED: found, stop the scan */
}

static int on_reader_idle(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct journal_sink *j = userdata;

	(void) s;
	(void) usec;
	close_reader(j);
	return 0;
}

/* The reader, kept open while a restart's questions come, closed when they stop. */
static int reader(struct journal_sink *j, sd_journal **ret)
{
	int r;

	if (!j->reader) {
		r = sd_journal_open(&j->reader, SD_JOURNAL_LOCAL_ONLY);
		if (r < 0)
			return r;
	}
	if (j->event) {
		if (!j->reader_idle)
			(void) sd_event_add_time_relative(j->event, &j->reader_idle, CLOCK_MONOTONIC,
							  READER_IDLE_USEC, 0, on_reader_idle, j);
		else
			(void) sd_event_source_set_time_relative(j->reader_idle, READER_IDLE_USEC);
		if (j->reader_idle)
			(void) sd_event_source_set_enabled(j->reader_idle, SD_EVENT_ONESHOT);
	}
	*ret = j->reader;
	return 0;
}

/*
 * Runs q over the spool and this boot's (or q->boot_id's) journal.  journald
 * handles a client's datagrams in order, well within the time systemd takes
 * to restart us, so what the killed process sent is there.
 */
static int run_query(struct journal_sink *j, struct entry_query *q)
{
	char boot[sizeof("_BOOT_ID=") + SD_ID128_STRING_MAX];
	sd_journal *jr;
	int r;

	if (j->spool) {
		r = spool_scan(j->spool, query_spooled, q);
		if (q->found && q->first_only)
			return 0;
		if (r < 0 && r != -ECANCELED)
			log_debug_errno(r, "Cannot read the spool %s: %m", spool_path(j->spool));
	}
	if (!q->boot_id[0]) {
		sd_id128_t id;

		r = sd_id128_get_boot(&id);
		if (r < 0)
			return r;
		sd_id128_to_string(id, q->boot_id);
	}
	r = reader(j, &jr);
	if (r < 0)
		return r;
	sd_journal_flush_matches(jr);
	for (unsigned k = 0; k < q->n_match; k++) {
		r = sd_journal_add_match(jr, q->match[k], 0);
		if (r < 0)
			return r;
	}
	snprintf(boot, sizeof(boot), "_BOOT_ID=%s", q->boot_id);
	r = sd_journal_add_match(jr, boot, 0);
	if (r < 0)
		return r;
	SD_JOURNAL_FOREACH(jr) {
		const void *data;
		size_t len;

		q->found++;
		if (q->first_only)
			break;
		SD_JOURNAL_FOREACH_DATA(jr, data, len)
			query_note_field(q, data, len);
	}
	return 0;
}

/*
 * After a crash the kernel's copy of a batch that was handed over, but not yet
 * noted in the cursor, comes back at start.  It is already logged when this
 * boot's journal, or the spool, has an entry of ours with its CPU, STATUS and
 * TSC (the TSC makes it unique).
 */
static int journal_holds(void *s, const struct mce_record *rec)
{
	struct entry_query q = { .first_only = true };
	int r;

	/* Without a TSC two records of one bank can look the same: rather log twice. */
	if (!mce_record_has(rec, MCE_HAVE_CPU | MCE_HAVE_STATUS | MCE_HAVE_TSC) || rec->tsc == 0)
		return -ENODATA;
	query_match(&q, "MCE_TSC=0x%016" PRIx64, rec->tsc);
	query_match(&q, "MCE_CPU=%u", rec->cpu);
	query_match(&q, "MCE_STATUS=0x%016" PRIx64, rec->status);
	r = run_query(s, &q);
	return r < 0 ? r : q.found > 0;
}

/* A storm is named by its signature and its start, as its summaries and end carry them. */
static int journal_storm_logged(void *s, const struct storm_key *key, const struct ras_storm_key *ras,
				int64_t start_usec, const char *boot_id, uint64_t *ret_total, bool *ret_ended)
{
	struct entry_query q = {};
	char code[19], start[RFC3339_MAX];
	int r;

	format_rfc3339_usec(start, sizeof(start), start_usec);
	query_match(&q, "MCE_STORM_START=%s", start);
	if (ras) {
		query_match(&q, "MCE_STORM_SCOPE=ras");
		query_match(&q, "MCE_STORM_EVENT=%s", ras_event_to_string(ras->event));
		query_match(&q, "MCE_STORM_SIGNATURE=%s", ras->text);
	} else {
		storm_code_string(key->code, code);
		query_match(&q, "MCE_STORM_CODE=%s", code);
		query_match(&q, "MCE_BANK=%" PRIu32, key->bank);
		query_match(&q, "MCE_STORM_SCOPE=%s", key->per_cpu ? "cpu" : "shared");
		if (key->per_cpu)
			query_match(&q, "MCE_CPU=%" PRIu32, key->cpu);
	}
	if (boot_id && boot_id[0])
		snprintf(q.boot_id, sizeof(q.boot_id), "%s", boot_id);
	r = run_query(s, &q);
	if (r < 0)
		return r;
	*ret_total = q.max_total;
	*ret_ended = q.storm_end;
	return q.found > 0;
}

static void journal_status(void *s, struct json_writer *w)
{
	const struct journal_sink *j = s;

	if (!j->spool)
		return;
	json_object_begin(w, "spool");
	json_put_string(w, "path", spool_path(j->spool));
	json_put_u64(w, "entries", spool_entries(j->spool));
	json_put_u64(w, "bytes", spool_bytes(j->spool));
	json_put_u64(w, "spooled", j->n_spooled);
	json_put_u64(w, "refused", j->n_refused);
	json_put_u64(w, "summarised", j->n_summarised);
	json_put_u64(w, "retries", j->n_retries);
	if (j->last_error)
		json_put_string(w, "last_error", strerror(-j->last_error));
	json_object_end(w);
}

const struct sink_ops journal_sink_ops = {
	.name = "journal",
	.status = journal_status,
	.open = journal_open,
	.close = journal_close,
	.write = journal_write,
	.sync = journal_sync,
	.holds = journal_holds,
	.storm_logged = journal_storm_logged,
};
