/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"
#include "cpu-list.h"
#include "daemon-config.h"
#include "fd-budget.h"
#include "file-io.h"
#include "keepalive.h"
#include "log.h"
#include "mce-trace.h"
#include "perf-ring-merge.h"
#include "perf-ring.h"
#include "ring-size.h"
#include "ras-buffer.h"
#include "ras-enrich.h"
#include "ras-record.h"
#include "ras-trace.h"
#include "source.h"
#include "sources.h"
#include "trace-buffer.h"
#include "tracefs-roots.h"

/*
 * Pages of one CPU's ring: a flat size, the same on every machine
 * (ring-size.c says why).  MCELOGD_RING_PAGES overrides it, for tests that
 * must overflow a ring on purpose to see the kernel's loss report; nothing
 * else should set it.
 */
#define RING_PAGES_ENV "MCELOGD_RING_PAGES"


/*
 * The tracepoints one per-CPU reader serves.  Each is its own perf event on
 * each CPU; all of a CPU's events write into one ring (PERF_EVENT_IOC_SET_OUTPUT
 * to the first one opened there), and every sample starts with its event's id
 * (PERF_SAMPLE_IDENTIFIER), by which it is dispatched to its decoder.
 */
enum {
	TP_MCE_RECORD,
	TP_RAS_FIRST,   /* TP_RAS_FIRST + enum ras_tp */
	_TP_MAX = TP_RAS_FIRST + _RAS_TP_MAX,
};

static const struct tracepoint_def {
	const char *system, *name;
	enum mce_source source;
	const char *needs;      /* why a kernel may lack it */
} tracepoint_defs[_TP_MAX] = {
	[TP_MCE_RECORD] = { "mce", "mce_record", MCE_SOURCE_TRACEPOINT,
			    "kernel built without CONFIG_X86_MCE, or not x86" },
	[TP_RAS_FIRST + RAS_TP_MC_EVENT] = { "ras", "mc_event", MCE_SOURCE_RAS_MC_EVENT,
					     "kernel built without CONFIG_RAS" },
	[TP_RAS_FIRST + RAS_TP_AER_EVENT] = { "ras", "aer_event", MCE_SOURCE_RAS_AER_EVENT,
					      "kernel built without CONFIG_RAS or CONFIG_PCIEAER" },
	[TP_RAS_FIRST + RAS_TP_MEMORY_FAILURE_EVENT] = {
		"ras", "memory_failure_event", MCE_SOURCE_RAS_MEMORY_FAILURE_EVENT,
		"kernel built without CONFIG_RAS or CONFIG_MEMORY_FAILURE" },
	[TP_RAS_FIRST + RAS_TP_EXTLOG_MEM_EVENT] = {
		"ras", "extlog_mem_event", MCE_SOURCE_RAS_EXTLOG_MEM_EVENT,
		"kernel built without CONFIG_RAS or CONFIG_ACPI_EXTLOG" },
	[TP_RAS_FIRST + RAS_TP_ARM_EVENT] = { "ras", "arm_event", MCE_SOURCE_RAS_ARM_EVENT,
					      "kernel built without CONFIG_RAS" },
	[TP_RAS_FIRST + RAS_TP_NON_STANDARD_EVENT] = {
		"ras", "non_standard_event", MCE_SOURCE_RAS_NON_STANDARD_EVENT,
		"kernel built without CONFIG_RAS" },
	[TP_RAS_FIRST + RAS_TP_CXL_AER_UNCORRECTABLE] = {
		"cxl", "cxl_aer_uncorrectable_error", MCE_SOURCE_CXL_AER_UNCORRECTABLE,
		"cxl_core not loaded (CONFIG_CXL_BUS)" },
	[TP_RAS_FIRST + RAS_TP_CXL_AER_CORRECTABLE] = {
		"cxl", "cxl_aer_correctable_error", MCE_SOURCE_CXL_AER_CORRECTABLE,
		"cxl_core not loaded (CONFIG_CXL_BUS)" },
	[TP_RAS_FIRST + RAS_TP_CXL_PORT_AER_UNCORRECTABLE] = {
		"cxl", "cxl_port_aer_uncorrectable_error", MCE_SOURCE_CXL_PORT_AER_UNCORRECTABLE,
		"cxl_core not loaded, or a kernel before the CXL port AER events" },
	[TP_RAS_FIRST + RAS_TP_CXL_PORT_AER_CORRECTABLE] = {
		"cxl", "cxl_port_aer_correctable_error", MCE_SOURCE_CXL_PORT_AER_CORRECTABLE,
		"cxl_core not loaded, or a kernel before the CXL port AER events" },
	[TP_RAS_FIRST + RAS_TP_CXL_OVERFLOW] = {
		"cxl", "cxl_overflow", MCE_SOURCE_CXL_OVERFLOW,
		"cxl_core not loaded, or a kernel before 6.3" },
	[TP_RAS_FIRST + RAS_TP_CXL_GENERIC_EVENT] = {
		"cxl", "cxl_generic_event", MCE_SOURCE_CXL_GENERIC_EVENT,
		"cxl_core not loaded, or a kernel before 6.3" },
	[TP_RAS_FIRST + RAS_TP_CXL_GENERAL_MEDIA] = {
		"cxl", "cxl_general_media", MCE_SOURCE_CXL_GENERAL_MEDIA,
		"cxl_core not loaded, or a kernel before 6.3" },
	[TP_RAS_FIRST + RAS_TP_CXL_DRAM] = {
		"cxl", "cxl_dram", MCE_SOURCE_CXL_DRAM,
		"cxl_core not loaded, or a kernel before 6.3" },
	[TP_RAS_FIRST + RAS_TP_CXL_MEMORY_MODULE] = {
		"cxl", "cxl_memory_module", MCE_SOURCE_CXL_MEMORY_MODULE,
		"cxl_core not loaded, or a kernel before 6.3" },
	[TP_RAS_FIRST + RAS_TP_CXL_POISON] = {
		"cxl", "cxl_poison", MCE_SOURCE_CXL_POISON,
		"cxl_core not loaded, or a kernel before 6.5" },
	[TP_RAS_FIRST + RAS_TP_CXL_MEMORY_SPARING] = {
		"cxl", "cxl_memory_sparing", MCE_SOURCE_CXL_MEMORY_SPARING,
		"cxl_core not loaded, or a kernel before 6.16" },
	[TP_RAS_FIRST + RAS_TP_PCI_HP_EVENT] = {
		"pci", "pci_hp_event", MCE_SOURCE_PCI_HP_EVENT,
		"a kernel before the pci:* RAS events (7.0-era), or built without CONFIG_PCI" },
	[TP_RAS_FIRST + RAS_TP_PCIE_LINK_EVENT] = {
		"pci", "pcie_link_event", MCE_SOURCE_PCIE_LINK_EVENT,
		"a kernel before the pci:* RAS events (7.0-era), or built without CONFIG_PCI" },
	[TP_RAS_FIRST + RAS_TP_DEVLINK_HEALTH_REPORT] = {
		"devlink", "devlink_health_report", MCE_SOURCE_DEVLINK_HEALTH_REPORT,
		"kernel built without CONFIG_NET_DEVLINK, or before 5.1" },
	[TP_RAS_FIRST + RAS_TP_DEVLINK_RECOVER_ABORTED] = {
		"devlink", "devlink_health_recover_aborted", MCE_SOURCE_DEVLINK_RECOVER_ABORTED,
		"kernel built without CONFIG_NET_DEVLINK, or before 5.1" },
	[TP_RAS_FIRST + RAS_TP_SIGNAL_GENERATE] = {
		"signal", "signal_generate", MCE_SOURCE_SIGNAL_GENERATE,
		"kernel built without CONFIG_TRACEPOINTS" },
	[TP_RAS_FIRST + RAS_TP_BLOCK_RQ_ERROR] = {
		"block", "block_rq_error", MCE_SOURCE_BLOCK_RQ_ERROR,
		"a kernel before 5.18, or built without CONFIG_BLOCK; block_rq_complete is read instead" },
	[TP_RAS_FIRST + RAS_TP_BLOCK_RQ_COMPLETE] = {
		"block", "block_rq_complete", MCE_SOURCE_BLOCK_RQ_COMPLETE,
		"kernel built without CONFIG_BLOCK" },
};

/* Read only where the kernel lacks block_rq_error, which says the same of failed requests alone. */
#define TP_BLOCK_RQ_ERROR (TP_RAS_FIRST + RAS_TP_BLOCK_RQ_ERROR)
#define TP_BLOCK_RQ_COMPLETE (TP_RAS_FIRST + RAS_TP_BLOCK_RQ_COMPLETE)

/* Room for a kernel event filter (ras_tp_filter()). */
#define TP_FILTER_MAX 96

struct tracepoint {
	bool available;         /* wanted, and its format was read and understood */
	uint32_t id;            /* tracefs id: perf_event_attr.config */
	unsigned n_cpus;        /* CPUs it is open on */
	int first_error;        /* of perf_event_open on some CPU */
	bool said_out_of_fds;   /* EMFILE/ENFILE logged once, not per CPU */
	bool declined;          /* a device event left closed for want of descriptors: on no CPU,
				 * not even one that comes online later (open_device_events()) */
	/* The kernel filter it is opened with ("" for none): what it fires for and
	 * we do not read (other signals, completed requests) never leaves the kernel. */
	char filter[TP_FILTER_MAX];
};

struct cpu_reader {
	struct tracepoint_source *owner;
	unsigned cpu;
	int fd;                 /* the event that owns this CPU's ring */
	int tp_fd[_TP_MAX];     /* -1: not open on this CPU */
	uint64_t tp_id[_TP_MAX];/* the kernel's sample id of each (PERF_EVENT_IOC_ID) */
	void *map;
	size_t map_size;
	sd_event_source *io;
	uint64_t n_samples;
	uint64_t n_lost;
	bool holding;           /* records stamped too recently to take were left in its ring */
	bool quiet;             /* io off until the hold-back timer reads the rings (on_readable) */
	/* The ring's head when last looked at for going quiet, and when (CLOCK_MONOTONIC ns):
	 * how fast it is filling (keeps_up_until()). */
	uint64_t seen_head, seen_ns;
	uint64_t peeked;        /* how far peek_sigbus() looked into the ring */
};

struct tracepoint_source {
	const struct source_host *host;
	/* NULL: records are not kept across restarts (TraceBuffer=no, or no mce_record) */
	struct trace_buffer *trace_buffer;
	/* The same for ras:* events (NULL: TraceBuffer=no, RAS=no, or none available) */
	struct ras_buffer *ras_buffer;
	struct tracepoint tps[_TP_MAX];
	struct trace_format format;
	struct mce_trace_layout layout;
	struct ras_tp_layout ras[_RAS_TP_MAX];
	struct cpu_reader *cpus[CPU_LIST_MAX];   /* by CPU number; NULL: not read (offline) */
	/* One past the highest CPU that ever had a reader: each wake-up walks
	 * cpus[] only that far, not over all CPU_LIST_MAX slots. */
	unsigned cpus_end;
	unsigned n_open;
	unsigned n_not_renewed;     /* readers a CPU re-read could not renew: kept, maybe detached (review M5) */
	struct ring_size ring;
	uint64_t n_lost;
	uint64_t n_bad;
	size_t page_size;
	unsigned char *scratch;     /* one record copied out when it wraps the ring */
	/* read_rings()' batch: the rings holding records, and whose they are */
	struct perf_ring_cursor *batch;
	struct cpu_reader **batch_reader;
	/* Reads the rings again once what read_rings() held back is old enough. */
	sd_event_source *hold_timer;
	/* The units of processes sent a memory error's SIGBUS, read at the wake-up (peek_sigbus()). */
	struct process_units units;
};

/*
 * How old a record must be before it is taken from its ring.  The kernel
 * stamps a sample before it writes and publishes it, so when a batch begins,
 * a record another CPU stamped a moment earlier may not be in its ring yet;
 * taken later, it would reach the journal after records it came before.
 * The stamp-to-publish time is microseconds, more only if an interrupt
 * falls in between.  20 ms covers that many times over and is no delay an
 * operator sees.
 *
 * In a storm every record wakes its reader (wakeup_events 1), and woken
 * while the hold-back timer is due, the reader would find the record too
 * young to take: the wake-up would be all it cost, once per record.  So a
 * reader woken then goes quiet (its io off), and stays quiet while the
 * timer keeps coming back; the timer reads every ring, quiet or not.  If it
 * came back each time the next record turned HOLD_BACK_NS old, it would
 * still wake once per record, so it comes back no sooner than HOLD_READ_GAP_NS
 * after it last read: a storm is read in under a hundred wake-ups a second,
 * not one per record.  The timer fires at most HOLD_TIMER_SLACK_US late;
 * with the gap, that bounds how long a quiet ring goes unread (15 ms).  A
 * ring over half full is read whole at once: losing records would be worse
 * than their order.  So a reader goes quiet only if its ring, filling as fast
 * as it has lately, stays under half full until the timer comes, and the
 * timer wakes a quiet reader whose ring began to fill faster than that
 * (keeps_up_until()): a burst larger than the ring, such as a whole MCE pool
 * emitted on one CPU, is read while it arrives, at a wake-up per record.
 */
#define HOLD_BACK_NS (20 * 1000 * 1000ull)
#define HOLD_READ_GAP_NS (10 * 1000 * 1000ull)
#define HOLD_TIMER_SLACK_US (5 * 1000)

/* Set when the kernel refused a clockid (before 4.1): ras events cannot then be matched
 * with the ras trace instance, which is not read, and sample times are not CLOCK_MONOTONIC. */
static bool no_clockid;

/* The wall-clock time of a CLOCK_MONOTONIC stamp (a sample's, or the ras instance's). */
static int64_t realtime_of_stamp(uint64_t time_ns)
{
	uint64_t now_ns = now_monotonic_usec() * 1000;

	return now_realtime_usec() - (int64_t) ((now_ns - (time_ns < now_ns ? time_ns : now_ns)) / 1000);
}


/* Which of this CPU's tracepoints a sample or loss id belongs to; -1: none. */
static int tp_of_id(const struct cpu_reader *c, uint64_t id)
{
	for (int t = 0; t < _TP_MAX; t++)
		if (c->tp_fd[t] >= 0 && c->tp_id[t] == id)
			return t;
	return -1;
}

/* A record from ring_cpu's ring: skipped if the trace instance already gave it at start. */
static void submit_from_ring(struct tracepoint_source *s, unsigned ring_cpu, struct mce_record *rec)
{
	if (!trace_buffer_admit(s->trace_buffer, ring_cpu, rec))
		return;
	trace_buffer_logged(s->trace_buffer, ring_cpu, rec, source_submit(s->host, rec));
}

static void handle_mce_record(struct cpu_reader *c, const unsigned char *raw, uint32_t raw_size)
{
	struct tracepoint_source *s = c->owner;
	struct mce_record rec;
	char why[160];

	if (mce_trace_to_record(&s->layout, raw, raw_size, &rec) < 0) {
		s->n_bad++;
		log_warning("mce_record sample on CPU %u too short (%u bytes) for this kernel's format, "
			    "skipped", c->cpu, raw_size);
		return;
	}
	/* Bad vendor data costs SYND1 and SYND2, never the machine check itself. */
	if (mce_trace_vendor_data(&s->layout, raw, raw_size, &rec, why, sizeof(why)) < 0)
		log_warning("mce_record sample on CPU %u: %s; the record is kept without MCA_SYND1/2",
			    c->cpu, why);
	c->n_samples++;
	submit_from_ring(s, c->cpu, &rec);
}

/* At debug level, the raw bytes: how the test data in tests/data/ras were recorded. */
static void log_raw_sample(const char *name, unsigned cpu, const unsigned char *raw, uint32_t raw_size)
{
	static const char digits[] = "0123456789abcdef";
	char hex[2 * 4096 + 1];
	size_t n = raw_size < 4096 ? raw_size : 4096;

	if (log_get_max_level() < LOG_DEBUG)
		return;
	for (size_t i = 0; i < n; i++) {
		hex[2 * i] = digits[raw[i] >> 4];
		hex[2 * i + 1] = digits[raw[i] & 0xf];
	}
	hex[2 * n] = '\0';
	log_debug("ras:%s raw sample on CPU %u (%u bytes): %s%s", name, cpu, raw_size, hex,
		  n < raw_size ? "..." : "");
}

/*
 * Decodes one ras:* record of ring_cpu and hands it on.  Returns what
 * source_submit_ras() returned; a record that cannot be decoded is logged,
 * counted and skipped (0: nothing will ever make it readable).
 */
static int submit_ras(struct tracepoint_source *s, unsigned ring_cpu, enum ras_tp tp, const unsigned char *raw,
		      uint32_t raw_size, int64_t time_usec, bool recovered)
{
	struct ras_record rec;
	char why[256];
	int r;

	r = ras_tp_decode(&s->ras[tp], raw, raw_size, &rec, why, sizeof(why));
	if (r < 0) {
		s->n_bad++;
		log_warning("ras:%s sample on CPU %u (%u bytes) skipped: %s", ras_tp_name(tp), ring_cpu,
			    raw_size, why);
		return 0;
	}
	rec.have_time = true;
	rec.time_usec = time_usec;
	rec.recovered = recovered;
	/* Each event is opened on one CPU (event_open()): its ring's CPU is where it fired. */
	rec.have_sample_cpu = true;
	rec.sample_cpu = ring_cpu;
	ras_enrich(&rec, &s->units);
	r = source_submit_ras(s->host, &rec);
	ras_record_done(&rec);
	return r;
}

/* time_ns: the sample's CLOCK_MONOTONIC stamp (event_open()'s clockid). */
static void handle_ras(struct cpu_reader *c, enum ras_tp tp, const unsigned char *raw, uint32_t raw_size,
		       uint64_t time_ns)
{
	struct tracepoint_source *s = c->owner;
	struct ras_mark mark = { .time_ns = time_ns, .digest = ras_mark_digest(raw, raw_size) };

	log_raw_sample(ras_tp_name(tp), c->cpu, raw, raw_size);
	c->n_samples++;
	if (!ras_buffer_admit(s->ras_buffer, c->cpu, &mark))
		return;   /* logged from the trace instance at start */
	/* The tracepoints carry no wall-clock time: the sample's stamp gives it, as it is
	 * read some milliseconds later (HOLD_BACK_NS); without a clockid, the time it is read. */
	ras_buffer_logged(s->ras_buffer, c->cpu, &mark,
			  submit_ras(s, c->cpu, tp, raw, raw_size,
				     no_clockid ? now_realtime_usec() : realtime_of_stamp(time_ns), false));
}

static void handle_sample(struct cpu_reader *c, const unsigned char *body, size_t body_size)
{
	struct tracepoint_source *s = c->owner;
	struct perf_sample sample;
	int r, tp;

	r = perf_sample_parse(body, body_size, &sample);
	if (r == -EBADMSG) {
		s->n_bad++;
		log_warning("Truncated tracepoint sample on CPU %u (%zu bytes), skipped", c->cpu, body_size);
		return;
	}
	if (r < 0) {
		s->n_bad++;
		log_warning("Tracepoint sample on CPU %u claims %u raw bytes but holds %zu, skipped",
			    c->cpu, sample.raw_size, body_size);
		return;
	}
	tp = tp_of_id(c, sample.id);
	if (tp < 0) {
		s->n_bad++;
		log_warning("Tracepoint sample on CPU %u with unknown id %llu, skipped", c->cpu,
			    (unsigned long long) sample.id);
		return;
	}
	if (tp == TP_MCE_RECORD)
		handle_mce_record(c, sample.raw, sample.raw_size);
	else
		handle_ras(c, (enum ras_tp) (tp - TP_RAS_FIRST), sample.raw, sample.raw_size, sample.time);
}

/* Events writing to this reader's ring. */
static unsigned n_events(const struct cpu_reader *c)
{
	unsigned n = 0;

	for (unsigned t = 0; t < _TP_MAX; t++)
		n += c->tp_fd[t] >= 0;
	return n;
}

/* lost records of this ring reported as lost; tp: whose, -1 when the ring is shared. */
static void report_lost(struct cpu_reader *c, int tp, uint64_t lost, bool at_start)
{
	struct tracepoint_source *s = c->owner;
	enum mce_source source = tp < 0 ? MCE_SOURCE_TRACEPOINT : tracepoint_defs[tp].source;

	if (tp < 0 && n_events(c) > 1)
		log_notice("CPU %u's ring is shared by mce:mce_record and ras:* events: the "
			   "kernel does not say which of them the %llu lost record(s) were",
			   c->cpu, (unsigned long long) lost);
	if (at_start)
		source_report_loss_at_start(s->host, source, c->cpu, lost);
	else
		source_report_loss(s->host, source, c->cpu, lost);
}

static void on_lost(struct cpu_reader *c, uint64_t id, uint64_t lost)
{
	struct tracepoint_source *s = c->owner;
	/* The kernel stamps a loss with the id of the event that wrote next, not of
	 * those that were lost: on a ring several events share, it says nothing of
	 * whose records they were.  Only a ring of one event can name it. */
	int tp = n_events(c) == 1 ? tp_of_id(c, id) : -1;

	c->n_lost += lost;
	s->n_lost += lost;
	/* The machine checks among them are in the trace instance: logged from there,
	 * and what it cannot account for is reported once the ring has caught up. */
	if (c->tp_fd[TP_MCE_RECORD] >= 0 && trace_buffer_recover_lost(s->trace_buffer, c->cpu, lost) >= 0)
		return;
	/* Dropped while the ring was still catching up with the trace instance at start:
	 * unless its newest record was among them, they came before it, and the machine
	 * checks among them are in the instance. */
	report_lost(c, tp, lost, trace_buffer_catching_up(s->trace_buffer, c->cpu));
}

/* What the trace instance could not give back of a loss on this ring. */
static void report_unaccounted(struct cpu_reader *c)
{
	uint64_t lost;
	bool at_start;

	if (trace_buffer_take_unaccounted(c->owner->trace_buffer, c->cpu, &lost, &at_start))
		report_lost(c, n_events(c) == 1 ? TP_MCE_RECORD : -1, lost, at_start);
}

/* One record of c's ring. */
static void handle_record(struct cpu_reader *c, const struct perf_ring_record *rec)
{
	uint64_t id, lost;

	if (rec->type == PERF_RECORD_SAMPLE)
		handle_sample(c, rec->body, rec->body_size);
	else if (rec->type == PERF_RECORD_LOST && perf_lost_parse(rec->body, rec->body_size, &id, &lost) >= 0)
		on_lost(c, id, lost);
}

static void read_rings(struct tracepoint_source *s, bool flush);
static bool keeps_up_until(struct cpu_reader *c, uint64_t due_usec);

/* The hold-back timer is due to read the rings (at *ret_usec). */
static bool hold_timer_due(const struct tracepoint_source *s, uint64_t *ret_usec)
{
	int enabled;

	return s->hold_timer && sd_event_source_get_enabled(s->hold_timer, &enabled) > 0 &&
	       sd_event_source_get_time(s->hold_timer, ret_usec) >= 0;
}

/*
 * After the hold-back timer's read, with the timer coming back: a quiet reader
 * whose ring filled, since the timer last looked, fast enough to pass half
 * full before it comes back wakes again (a burst that began while it slept).
 */
static void wake_outpaced(struct tracepoint_source *s)
{
	uint64_t due_usec;

	if (!hold_timer_due(s, &due_usec))
		return;
	for (unsigned cpu = 0; cpu < s->cpus_end; cpu++) {
		struct cpu_reader *c = s->cpus[cpu];

		if (c && c->quiet && !keeps_up_until(c, due_usec) &&
		    sd_event_source_set_enabled(c->io, SD_EVENT_ON) >= 0)
			c->quiet = false;
	}
}

/* Over half full: read whole, held-back records too (HOLD_BACK_NS). */
static bool ring_crowded(const struct tracepoint_source *s, uint64_t head, uint64_t tail)
{
	return head - tail >= (uint64_t) s->ring.data_pages * s->page_size / 2;
}

static int on_hold_timer(sd_event_source *es, uint64_t usec, void *userdata)
{
	(void) es;
	(void) usec;
	read_rings(userdata, false);
	wake_outpaced(userdata);
	return 0;
}

/* Wakes read_rings() when the record stamped held_ns is HOLD_BACK_NS old, and
 * no sooner than HOLD_READ_GAP_NS after now (see HOLD_BACK_NS). */
static int arm_hold_timer(struct tracepoint_source *s, uint64_t held_ns)
{
	uint64_t at_ns = held_ns + HOLD_BACK_NS, gap_ns = now_monotonic_usec() * 1000 + HOLD_READ_GAP_NS;
	uint64_t usec;
	int r;

	if (at_ns < gap_ns)
		at_ns = gap_ns;
	usec = at_ns / 1000 + 1;

	if (!s->hold_timer) {
		r = sd_event_add_time(s->host->event, &s->hold_timer, CLOCK_MONOTONIC, usec,
				      HOLD_TIMER_SLACK_US, on_hold_timer, s);
		if (r >= 0)
			(void) sd_event_source_set_description(s->hold_timer, "tracepoint-hold-back");
		return r;
	}
	r = sd_event_source_set_time(s->hold_timer, usec);
	return r < 0 ? r : sd_event_source_set_enabled(s->hold_timer, SD_EVENT_ONESHOT);
}

/*
 * Reads every CPU's ring until all are empty, records in the order of their
 * sample time across rings (perf-ring-merge.h): the kernel's MCE work item
 * may drain its pool on one CPU, then on another, and the journal's order
 * must be the order the records were emitted.  A batch is what the rings
 * held when it began; only the record being handled is ever copied (the
 * scratch, for one that wraps), and its ring's space goes back to the kernel
 * right after it: writing a record to the journal takes far longer than the
 * kernel takes to emit one, so a burst is still arriving while we read it.
 * What arrives meanwhile is the next batch: its times are later.
 *
 * Unless flush is set, records younger than HOLD_BACK_NS stay in their rings
 * until a timer comes back for them, so that one stamped earlier on another
 * CPU but not yet published is not overtaken.  Flush takes everything: a
 * reader about to close, the first read at start, the last at stop.
 */
static void read_rings(struct tracepoint_source *s, bool flush)
{
	struct perf_ring_cursor *cur = s->batch;
	struct cpu_reader **who = s->batch_reader;
	uint64_t size = (uint64_t) s->ring.data_pages * s->page_size;
	/* Sample stamps are CLOCK_MONOTONIC only with a clockid; a replay has no loop for a timer. */
	bool hold = !flush && !no_clockid && s->host->event;
	uint64_t held = UINT64_MAX;
	size_t n;

	for (;;) {
		uint64_t before = UINT64_MAX;
		size_t taken = 0;
		bool crowded = false;
		int i;

		n = 0;
		for (unsigned cpu = 0; cpu < s->cpus_end; cpu++) {
			struct cpu_reader *c = s->cpus[cpu];
			struct perf_event_mmap_page *pc;

			if (!c)
				continue;
			c->holding = false;
			pc = c->map;
			cur[n] = (struct perf_ring_cursor) {
				.data = (unsigned char *) c->map + s->page_size,
				.size = size,
				.head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE),
				.tail = pc->data_tail,
			};
			/* head behind tail: nothing the kernel would write; left alone as before */
			if (cur[n].tail < cur[n].head) {
				crowded |= ring_crowded(s, cur[n].head, cur[n].tail);
				who[n++] = c;
			}
		}
		if (n == 0)
			break;
		if (hold && !crowded) {
			uint64_t now_ns = now_monotonic_usec() * 1000;

			before = now_ns > HOLD_BACK_NS ? now_ns - HOLD_BACK_NS : 0;
		}
		while ((i = perf_ring_merge_pick_before(cur, n, before, &held)) >= 0) {
			struct cpu_reader *c = who[i];
			struct perf_event_mmap_page *pc = c->map;
			struct perf_ring_record rec;
			int r;

			r = perf_ring_next(cur[i].data, cur[i].size, cur[i].head, &cur[i].tail, s->scratch, &rec);
			if (r <= 0) {
				log_error("Corrupt perf ring on CPU %u, resynchronising (records in it are lost)",
					  c->cpu);
				cur[i].tail = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
				cur[i].head = cur[i].tail;
			} else
				handle_record(c, &rec);
			__atomic_store_n(&pc->data_tail, cur[i].tail, __ATOMIC_RELEASE);
			taken++;
		}
		/* All that is left is too young: the timer comes back for it. */
		if (held != UINT64_MAX && taken == 0)
			break;
	}
	for (size_t k = 0; k < n; k++)
		who[k]->holding = cur[k].tail < cur[k].head;
	for (unsigned cpu = 0; cpu < s->cpus_end; cpu++)
		if (s->cpus[cpu]) {
			if (!s->cpus[cpu]->holding)
				trace_buffer_ring_drained(s->trace_buffer, cpu);
			report_unaccounted(s->cpus[cpu]);
		}
	if (held != UINT64_MAX && hold) {
		int r = arm_hold_timer(s, held);

		if (r >= 0)
			return;   /* quiet readers stay quiet: the timer reads their rings */
		log_warning("Cannot arm the tracepoint hold-back timer (%s): taking the newest "
			    "records now, their order across CPUs is not checked", strerror(-r));
		read_rings(s, true);   /* which ends by waking the quiet readers */
		return;
	}
	/* Nothing held: the timer is not coming back, so quiet readers wake for what comes. */
	for (unsigned cpu = 0; cpu < s->cpus_end; cpu++) {
		struct cpu_reader *c = s->cpus[cpu];

		if (c && c->quiet && sd_event_source_set_enabled(c->io, SD_EVENT_ON) >= 0)
			c->quiet = false;
	}
}

static struct cpu_reader *reader_free(struct cpu_reader *c)
{
	if (!c)
		return NULL;
	c->io = sd_event_source_disable_unref(c->io);
	if (c->map)
		munmap(c->map, c->map_size);
	for (unsigned t = 0; t < _TP_MAX; t++) {
		if (c->tp_fd[t] < 0)
			continue;
		/* A reader is closed and opened again as its CPU goes and comes back. */
		c->owner->tps[t].n_cpus--;
		if (c->tp_fd[t] != c->fd)
			close(c->tp_fd[t]);
		c->tp_fd[t] = -1;
	}
	if (c->fd >= 0)
		close(c->fd);
	free(c);
	return NULL;
}

/* cpus[cpu] now holds a reader. */
static void reader_placed(struct tracepoint_source *s, unsigned cpu)
{
	if (cpu >= s->cpus_end)
		s->cpus_end = cpu + 1;
}

/* Each tracepoint's source state, after the set of CPUs read changed. */
static void publish_state(struct tracepoint_source *s)
{
	for (unsigned t = 0; t < _TP_MAX; t++) {
		const struct tracepoint_def *def = &tracepoint_defs[t];
		const struct tracepoint *tp = &s->tps[t];
		int e = tp->first_error;

		if (!tp->available)
			continue;   /* its state was set when its format could not be read */
		if (tp->n_cpus > 0 && s->n_not_renewed > 0)
			source_set_state(s->host, def->source, SOURCE_ACTIVE, "%s:%s on %u CPUs (%u reader%s "
						 "not renewed at the last CPU re-read: it may be detached, its records "
						 "stopped; see the log)", def->system, def->name, tp->n_cpus,
						 s->n_not_renewed, s->n_not_renewed == 1 ? "" : "s");
		else if (tp->n_cpus > 0)
			source_set_state(s->host, def->source, SOURCE_ACTIVE, "%s:%s on %u CPUs",
						 def->system, def->name, tp->n_cpus);
		else if (e == -EACCES || e == -EPERM)
			source_set_state(s->host, def->source, SOURCE_UNAVAILABLE,
						 "no permission to read %s:%s (needs CAP_PERFMON or "
						 "CAP_SYS_ADMIN and access to tracefs)", def->system, def->name);
		else
			source_set_state(s->host, def->source, SOURCE_UNAVAILABLE,
						 "%s:%s could not be opened on any online CPU: %s", def->system,
						 def->name, strerror(e < 0 ? -e : ENODEV));
	}
}

/* Logs what the reader held and closes it: the CPU is no longer read. */
static void reader_retire(struct tracepoint_source *s, unsigned cpu)
{
	struct cpu_reader *c = s->cpus[cpu];

	if (!c)
		return;
	read_rings(s, true);
	s->cpus[cpu] = reader_free(c);
	s->n_open--;
}

/*
 * Whether c's ring, filling as fast as it has since it was last looked at,
 * stays under half full until due_usec (the hold-back timer): only then may
 * its reader sleep until the timer.  Otherwise a burst larger than the ring (a
 * whole MCE pool emitted on this CPU) would overflow it unread (ring-size.c).
 */
static bool keeps_up_until(struct cpu_reader *c, uint64_t due_usec)
{
	const struct tracepoint_source *s = c->owner;
	const struct perf_event_mmap_page *pc = c->map;
	uint64_t head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE), tail = pc->data_tail;
	uint64_t now_ns = now_monotonic_usec() * 1000, due_ns = due_usec * 1000;
	uint64_t arrived = head - c->seen_head, over_ns = now_ns - c->seen_ns;
	bool fills;

	fills = ring_size_half_full_by(&s->ring, head > tail ? head - tail : 0, arrived, over_ns,
				       due_ns > now_ns ? due_ns - now_ns : 0);
	c->seen_head = head;
	c->seen_ns = now_ns;
	return !fills;
}

/* The hold-back timer is due to read the rings, and c's keeps up until then:
 * its reader can go quiet (see HOLD_BACK_NS). */
static bool hold_timer_reads_soon(struct cpu_reader *c)
{
	uint64_t due_usec;

	return hold_timer_due(c->owner, &due_usec) && keeps_up_until(c, due_usec);
}

/*
 * At the wake-up, before any record is taken: a memory error's SIGBUS in c's
 * ring has its process's unit read now, while the process may still exist
 * (ras-enrich.h).  Each record is looked at once; only headers are read for
 * the others.
 */
static void peek_sigbus(struct tracepoint_source *s, struct cpu_reader *c)
{
	const unsigned t = TP_RAS_FIRST + RAS_TP_SIGNAL_GENERATE;
	struct perf_event_mmap_page *pc = c->map;
	uint64_t head, pos, size = (uint64_t) s->ring.data_pages * s->page_size;
	struct perf_ring_record rec;

	if (c->tp_fd[t] < 0)
		return;
	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	pos = c->peeked > pc->data_tail ? c->peeked : pc->data_tail;
	while (pos < head && perf_ring_next((unsigned char *) c->map + s->page_size, size, head, &pos, s->scratch,
					    &rec) > 0) {
		struct perf_sample sample;
		struct ras_record r;
		const struct ras_field *pid;
		char why[64];

		if (rec.type != PERF_RECORD_SAMPLE || perf_sample_parse(rec.body, rec.body_size, &sample) < 0 ||
		    sample.id != c->tp_id[t])
			continue;
		if (ras_tp_decode(&s->ras[RAS_TP_SIGNAL_GENERATE], sample.raw, sample.raw_size, &r, why,
				  sizeof(why)) < 0)
			continue;
		pid = ras_record_find(&r, "pid");
		if (pid && pid->type == RAS_FIELD_INT)
			ras_enrich_remember(&s->units, pid->i);
		ras_record_done(&r);
	}
	c->peeked = pos;
}

static int on_readable(sd_event_source *es, int fd, uint32_t revents, void *userdata)
{
	struct cpu_reader *c = userdata;
	struct tracepoint_source *s = c->owner;

	(void) es;
	(void) fd;
	if (revents & EPOLLHUP) {
		unsigned cpu = c->cpu;

		/* The event went away under us: stop watching it rather than spin. */
		log_notice("Tracepoint reader for CPU %u hung up, closing it", cpu);
		reader_retire(s, cpu);
		publish_state(s);
		s->host->changed(s->host->core);
		return 0;
	}
	peek_sigbus(s, c);
	if (!hold_timer_reads_soon(c))
		read_rings(s, false);
	else if (sd_event_source_set_enabled(c->io, SD_EVENT_OFF) >= 0)
		c->quiet = true;
	return 0;
}


static int event_open(const struct tracepoint *tp, unsigned cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = tp->id,
		/* A filtered event starts disabled: not one unfiltered sample before its filter is set. */
		.disabled = tp->filter[0] != '\0',
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW,
		.wakeup_events = 1,
		/* The clock the ras trace instance stamps by (ras-buffer.c), so that a
		 * live sample and the instance's copy of it can be matched (use_clockid
		 * below).  All events of a ring must share one clock. */
		.clockid = CLOCK_MONOTONIC,
	};
	int fd;

	attr.use_clockid = !no_clockid;
	fd = (int) syscall(SYS_perf_event_open, &attr, -1, (int) cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EINVAL && attr.use_clockid) {
		attr.use_clockid = 0;
		fd = (int) syscall(SYS_perf_event_open, &attr, -1, (int) cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0)
			no_clockid = true;
	}
	if (fd < 0)
		return negative_errno();
	/* Never read unfiltered: a kernel that refuses the filter does not get the event opened.
	 * It is enabled once its samples have a ring to go to (reader_add()). */
	if (tp->filter[0] && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, tp->filter) < 0) {
		int r = negative_errno();

		close(fd);
		return r;
	}
	return fd;
}

/* Opens tracepoint t on the reader's CPU: the first one opened there owns the ring. */
static int reader_add(struct tracepoint_source *s, struct cpu_reader *c, unsigned t)
{
	_cleanup_close_ int fd = event_open(&s->tps[t], c->cpu);
	uint64_t id;
	int r;

	if (fd < 0)
		return fd;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
		return negative_errno();
	if (c->fd < 0) {
		c->map_size = (size_t) s->ring.map_bytes;
		c->map = mmap(NULL, c->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (c->map == MAP_FAILED) {
			c->map = NULL;
			return negative_errno();
		}
		r = sd_event_add_io(s->host->event, &c->io, fd, EPOLLIN, on_readable, c);
		if (r < 0) {
			munmap(c->map, c->map_size);
			c->map = NULL;
			return r;
		}
		(void) sd_event_source_set_description(c->io, "tracepoint-cpu");
		c->fd = fd;
	} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, c->fd) < 0)
		return negative_errno();
	if (s->tps[t].filter[0] && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		r = negative_errno();
		if (c->fd == fd) {
			/* It owned the ring just set up: undone, so the next event can own it. */
			c->io = sd_event_source_disable_unref(c->io);
			munmap(c->map, c->map_size);
			c->map = NULL;
			c->fd = -1;
		}
		return r;
	}
	c->tp_id[t] = id;
	c->tp_fd[t] = TAKE_FD(fd);
	s->tps[t].n_cpus++;
	return 0;
}

static void log_open_failure(int r, unsigned t, unsigned cpu)
{
	const struct tracepoint_def *def = &tracepoint_defs[t];

	if (r == -EACCES || r == -EPERM)
		log_warning_errno(r, "perf_event_open of %s:%s on CPU %u refused: %m (needs CAP_PERFMON "
				  "or CAP_SYS_ADMIN)", def->system, def->name, cpu);
	else
		log_warning_errno(r, "Cannot read %s:%s on CPU %u: %m; records the kernel emits there "
				  "are not logged", def->system, def->name, cpu);
}

/*
 * Which tracepoints open first.  Each is one descriptor per CPU, and a kernel
 * with every cxl:*, pci:* and devlink health event has 22 of them: at 64 CPUs
 * and a low RLIMIT_NOFILE, opening CPU by CPU would leave the last CPUs
 * without even mce:mce_record.  So the machine-check path (mce:mce_record and
 * the ras:* events) is opened on every CPU first, and the device events
 * (cxl:*, pci:*, devlink:*) after, where descriptors are left.
 */
enum tp_tier {
	TIER_CORE = 1 << 0,
	TIER_DEVICE = 1 << 1,
	TIERS_ALL = TIER_CORE | TIER_DEVICE,
};

static enum tp_tier tp_tier(unsigned t)
{
	return t >= TP_RAS_FIRST && t - TP_RAS_FIRST >= RAS_TP_CXL_AER_UNCORRECTABLE ? TIER_DEVICE : TIER_CORE;
}

static bool out_of_descriptors(int r)
{
	return r == -EMFILE || r == -ENFILE;
}

/*
 * Adds the available tracepoints of the given tiers to c, a new reader;
 * returns the first error, or 0.  Logs each failure unless quiet, but one
 * line per tracepoint for running out of descriptors, not one per CPU.
 */
static int reader_add_tiers(struct tracepoint_source *s, struct cpu_reader *c, enum tp_tier tiers, bool quiet)
{
	int err[_TP_MAX] = {}, first = 0, r;
	unsigned n_failed = 0, n_tried = 0;
	bool same = true;

	for (unsigned t = 0; t < _TP_MAX; t++) {
		if (!s->tps[t].available || s->tps[t].declined || !(tp_tier(t) & tiers))
			continue;
		n_tried++;
		r = reader_add(s, c, t);
		if (r < 0) {
			if (!s->tps[t].first_error)
				s->tps[t].first_error = r;
			if (!first)
				first = r;
			same = same && r == first;
			err[t] = r;
			n_failed++;
		}
	}
	if (!quiet && n_failed > 1 && n_failed == n_tried && same && !out_of_descriptors(first))
		/* One cause (typically a sandbox without CAP_PERFMON): one line per CPU. */
		log_warning_errno(first, "perf_event_open of all %u tracepoints on CPU %u failed: %m%s",
				  n_tried, c->cpu, first == -EACCES || first == -EPERM ?
				  " (needs CAP_PERFMON or CAP_SYS_ADMIN)" : "");
	else if (!quiet)
		for (unsigned t = 0; t < _TP_MAX; t++) {
			if (err[t] >= 0)
				continue;
			if (!out_of_descriptors(err[t]))
				log_open_failure(err[t], t, c->cpu);
			else if (!s->tps[t].said_out_of_fds) {
				s->tps[t].said_out_of_fds = true;
				log_warning_errno(err[t], "Cannot read %s:%s on CPU %u and maybe others: %m; records "
						  "the kernel emits there are not logged (raise LimitNOFILE=; "
						  "mcectl status shows the descriptors)",
						  tracepoint_defs[t].system, tracepoint_defs[t].name, c->cpu);
			}
		}
	return first;
}

/*
 * A reader for one CPU with every available tracepoint of the given tiers on
 * it; fails only if none could be opened.  quiet: no log per failure (the
 * caller says it once).
 */
static int reader_open(struct tracepoint_source *s, unsigned cpu, enum tp_tier tiers, bool quiet,
		       struct cpu_reader **ret)
{
	struct cpu_reader *c;
	int first;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	*c = (struct cpu_reader) { .owner = s, .cpu = cpu, .fd = -1 };
	for (unsigned t = 0; t < _TP_MAX; t++)
		c->tp_fd[t] = -1;
	first = reader_add_tiers(s, c, tiers, quiet);
	if (c->fd < 0) {
		reader_free(c);
		return first ? first : -ENODEV;
	}
	*ret = c;
	return 0;
}

/* One CPU's ring (ring-size.h), with MCELOGD_RING_PAGES if it is set and valid. */
static int plan_ring(size_t page_size, struct ring_size *ret)
{
	static bool possible[CPU_LIST_MAX];
	const char *env = getenv(RING_PAGES_ENV);
	unsigned override = 0;
	int n, r;

	if (env && ring_size_parse_override(env, &override) < 0)
		log_error("$%s='%s' is not a power of two from 1 to %u, ignored", RING_PAGES_ENV, env,
			  RING_PAGES_OVERRIDE_MAX);
	/* The possible CPUs size the kernel's MCE pool: only for the note below. */
	n = read_cpu_list_file("/sys/devices/system/cpu/possible", possible, ELEMENTSOF(possible));
	if (n <= 0)
		n = 0;
	r = ring_size_plan((unsigned) n, page_size, override, ret);
	if (r < 0)
		return log_error_errno(r, "Cannot size the tracepoint rings for a page of %zu bytes: %m",
				       page_size);
	if (ret->overridden)
		log_notice("Ring of %u page(s) per CPU, as $%s says (a testing aid)", ret->data_pages,
			   RING_PAGES_ENV);
	else if (ring_size_pool_exceeds_ring(ret))
		log_info("The kernel's machine-check pool holds up to %llu records on %d possible CPUs, "
			 "more than one CPU's ring (%llu): a pool drained at once is read as it arrives, "
			 "and what a ring drops is logged from the trace instance",
			 (unsigned long long) ret->pool_records, n, (unsigned long long) ret->samples);
	return 0;
}

static int find_format(const char *tracefs_root, const struct tracepoint_def *def, char **text,
		       size_t *ret_len, char *path, size_t path_size)
{
	int r = -ENOENT;

	for (size_t i = 0; i < TRACEFS_N_ROOTS; i++) {
		const char *root = tracefs_root ? tracefs_root : tracefs_roots[i];

		snprintf(path, path_size, "%s/events/%s/%s/format", root, def->system, def->name);
		/* A format file is a few KiB; a larger one is not one we understand. */
		r = read_full_file(path, 1024 * 1024, text, ret_len);
		if (r >= 0 || tracefs_root)
			return r;
		if (r != -ENOENT)
			return r;
	}
	return r;
}

static bool tracepoint_wanted(const struct mcelogd_config *c, unsigned t)
{
	return t == TP_MCE_RECORD ? c->source_tracepoint : c->source_ras;
}

/*
 * Reads and checks tracepoint t's format.  On failure logs why, sets the
 * source's state and returns a negative errno; the other tracepoints go on.
 */
static int tracepoint_load(struct tracepoint_source *s, const char *tracefs_root, unsigned t)
{
	_cleanup_free_ char *text = NULL;
	const struct tracepoint_def *def = &tracepoint_defs[t];
	/* A kernel without, say, extlog is normal; without mce_record on x86 it is not
	 * (elsewhere, as on arm64, no kernel has it). */
#if defined(__x86_64__) || defined(__i386__)
	int level = t == TP_MCE_RECORD ? LOG_WARNING : LOG_NOTICE;
#else
	int level = LOG_NOTICE;
#endif
	enum mce_source src = def->source;
	const char *missing = NULL;
	struct trace_format *format;
	char path[512];
	unsigned line = 0;
	size_t len;
	int r;

	r = find_format(tracefs_root, def, &text, &len, path, sizeof(path));
	if (r == -ENOENT) {
		source_set_state(s->host, src, SOURCE_UNAVAILABLE, "the kernel has no %s:%s tracepoint "
					 "(%s)", def->system, def->name, def->needs);
		return log_internal(level, r, "The kernel has no %s:%s tracepoint (%s missing: %s, or "
				    "tracefs not mounted); that source is off", def->system, def->name,
				    path, def->needs);
	}
	if (r == -EACCES || r == -EPERM) {
		source_set_state(s->host, src, SOURCE_UNAVAILABLE, "no permission to read %s", path);
		return log_warning_errno(r, "No permission to read %s (mcelogd needs root or "
					 "CAP_SYS_ADMIN, and tracefs must not be hidden by the unit's "
					 "sandboxing); %s:%s source is off", path, def->system, def->name);
	}
	if (r < 0) {
		source_set_state(s->host, src, SOURCE_UNAVAILABLE, "cannot read %s: %s", path,
					 strerror(-r));
		return log_warning_errno(r, "Failed to read %s: %m; %s:%s source is off", path,
					 def->system, def->name);
	}
	if (t == TP_MCE_RECORD) {
		format = &s->format;
		r = trace_format_parse(text, len, format, &line);
		if (r >= 0 && format->have_id)
			r = mce_trace_layout_init(&s->layout, format, &missing);
	} else {
		format = &s->ras[t - TP_RAS_FIRST].format;
		r = ras_tp_layout_init(&s->ras[t - TP_RAS_FIRST], (enum ras_tp) (t - TP_RAS_FIRST), text, len,
				       &line, &missing);
	}
	if (r >= 0 && !format->have_id)
		r = -EINVAL;
	if (r == -EDOM) {
		source_set_state(s->host, src, SOURCE_UNAVAILABLE,
				 "its format's '%s' field has a size no integer has", missing);
		return log_error_errno(r, "%s: the tracepoint's '%s' field is not 1, 2, 4 or 8 bytes; "
				       "%s:%s source is off", path, missing, def->system, def->name);
	}
	if (r == -EPROTO) {
		source_set_state(s->host, src, SOURCE_UNAVAILABLE, "its format has no '%s' field", missing);
		return log_error_errno(r, "%s: tracepoint has no '%s' field; %s:%s source is off", path,
				       missing, def->system, def->name);
	}
	if (r < 0) {
		source_set_state(s->host, src, SOURCE_UNAVAILABLE, "cannot parse %s", path);
		return log_error_errno(-EPROTO, "%s:%u: cannot parse the tracepoint format; %s:%s source "
				       "is off", path, line, def->system, def->name);
	}
	if (t != TP_MCE_RECORD) {
		r = ras_tp_filter(&s->ras[t - TP_RAS_FIRST], s->tps[t].filter, sizeof(s->tps[t].filter));
		if (r < 0 && r != -ENOENT) {
			source_set_state(s->host, src, SOURCE_UNAVAILABLE, "no room for its kernel filter");
			return log_error_errno(r, "%s:%s: cannot build its kernel filter: %m; that source is off",
					       def->system, def->name);
		}
		if (r < 0)
			s->tps[t].filter[0] = '\0';
	}
	s->tps[t].id = format->id;
	s->tps[t].available = true;
	return 0;
}

/* What was opened, once at start. */
static void tracepoint_log_opened(struct tracepoint_source *s, unsigned t, unsigned n_online)
{
	const struct tracepoint_def *def = &tracepoint_defs[t];
	const struct tracepoint *tp = &s->tps[t];

	if (!tp->available || tp->declined)  /* a declined one was said with its cost */
		return;
	if (tp->n_cpus == 0)
		log_error("No CPU's %s:%s could be opened; that source is off", def->system, def->name);
	else if (t == TP_MCE_RECORD)
		log_info("Reading mce:mce_record (tracepoint id %u, %u fields%s%s%s) on %u of %u online "
			 "CPUs, %u KiB ring each", s->format.id, s->format.n_fields,
			 s->layout.ppin ? ", with ppin" : "", s->layout.microcode ? ", with microcode" : "",
			 s->layout.v_data ? ", with vendor data" : "",
			 tp->n_cpus, n_online, (unsigned) (s->ring.data_pages * s->page_size / 1024));
	else
		log_info("Reading %s:%s (tracepoint id %u, %u fields%s%s%s) on %u of %u online CPUs", def->system,
			 def->name, tp->id, s->ras[t - TP_RAS_FIRST].format.n_fields, tp->filter[0] ? ", filter '" : "",
			 tp->filter, tp->filter[0] ? "'" : "", tp->n_cpus, n_online);
}

static void tracepoint_close(void *userdata);

/* Records the kernel kept while we were stopped, logged once (trace-buffer.h). */
static void recover_trace_buffer(struct tracepoint_source *s, const char *tracefs_root)
{
	const struct source_host *h = s->host;

	if (!h->config->source_tracepoint || !h->config->trace_buffer || s->tps[TP_MCE_RECORD].n_cpus == 0)
		return;
	if (trace_buffer_open(h, tracefs_root, h->paths->state_directory, &s->trace_buffer) < 0)
		return;
	(void) trace_buffer_recover(s->trace_buffer);
}

/* A ras event the instance kept: decoded and handed on like a live sample. */
static int submit_kept_ras(void *userdata, unsigned ring_cpu, const unsigned char *raw, size_t size,
			   uint64_t time_ns)
{
	struct tracepoint_source *s = userdata;
	uint16_t type;

	if (size < sizeof(type) || size > UINT32_MAX)
		return -ENOENT;
	memcpy(&type, raw, sizeof(type));
	for (unsigned t = TP_RAS_FIRST; t < _TP_MAX; t++)
		if (s->tps[t].n_cpus > 0 && s->tps[t].id == type)
			return submit_ras(s, ring_cpu, (enum ras_tp) (t - TP_RAS_FIRST), raw, (uint32_t) size,
					  realtime_of_stamp(time_ns), true);
	return -ENOENT;
}

/* ras:* events the kernel kept while we were not reading, logged once (ras-buffer.h). */
static void recover_ras_buffer(struct tracepoint_source *s, const char *tracefs_root, uint64_t opened_ns)
{
	const struct source_host *h = s->host;
	bool any = false;

	for (unsigned t = TP_RAS_FIRST; t < _TP_MAX; t++)
		any = any || s->tps[t].n_cpus > 0;
	if (!h->config->source_ras || !h->config->trace_buffer || !any)
		return;
	if (no_clockid) {
		log_notice("This kernel's perf events cannot use CLOCK_MONOTONIC (before Linux 4.1): ras "
			   "events while mcelogd is stopped are not recovered");
		return;
	}
	if (ras_buffer_open(h, tracefs_root, h->paths->state_directory, &s->ras_buffer) < 0)
		return;
	(void) ras_buffer_recover(s->ras_buffer, opened_ns, submit_kept_ras, s);
}

/*
 * The device events (enum tp_tier) on every CPU that has a reader, each one
 * only if it fits on all of them with FD_RESERVE_BASE descriptors still left
 * for the rest of the daemon: an event read on some CPUs would lose what the
 * kernel emits on the others, at random, and one that took the last
 * descriptors would leave no room for the journal, the control socket or
 * the snapshots.  What does not fit is said once, with its cost.
 */
static void open_device_events(struct tracepoint_source *s)
{
	struct fd_budget budget;
	uint64_t left;

	if (s->n_open == 0)
		return;
	if (fd_budget_measure(&budget, FD_RESERVE_BASE) < 0)
		budget = (struct fd_budget) { .limit = UINT64_MAX };
	left = fd_budget_left(&budget);
	for (unsigned t = 0; t < _TP_MAX; t++) {
		const struct tracepoint_def *def = &tracepoint_defs[t];
		int r = 0;

		if (!s->tps[t].available || tp_tier(t) != TIER_DEVICE)
			continue;
		if (left < s->n_open) {
			log_warning("Not reading %s:%s: it needs %u descriptors (one per CPU), and %llu are left "
				    "beyond the %d kept back (RLIMIT_NOFILE %llu; raise LimitNOFILE=)",
				    def->system, def->name, s->n_open, (unsigned long long) left, FD_RESERVE_BASE,
				    (unsigned long long) budget.limit);
			s->tps[t].declined = true;
			continue;
		}
		for (unsigned cpu = 0; cpu < s->cpus_end && r >= 0; cpu++) {
			if (!s->cpus[cpu])
				continue;
			keepalive();
			r = reader_add(s, s->cpus[cpu], t);
			if (r < 0) {
				if (!s->tps[t].first_error)
					s->tps[t].first_error = r;
				log_open_failure(r, t, cpu);
			}
		}
		left -= s->n_open;
	}
}

static int tracepoint_open(const struct source_host *h, void **ret)
{
	const char *tracefs_root = h->paths->tracefs;
	_cleanup_free_ struct tracepoint_source *s = NULL;
	static bool online[CPU_LIST_MAX];
	unsigned n_available = 0;
	uint64_t opened_ns;
	int r, n, first_error = 0;

	s = calloc(1, sizeof(*s));
	if (!s)
		return log_error_errno(-ENOMEM, "Out of memory");
	s->host = h;
	s->page_size = (size_t) sysconf(_SC_PAGESIZE);
	/* Before the live rings open, so that the kernel keeps what they might miss. */
	if (h->config->source_tracepoint && h->config->trace_buffer)
		(void) trace_buffer_setup(tracefs_root);
	if (h->config->source_ras && h->config->trace_buffer)
		(void) ras_buffer_setup(tracefs_root);

	for (unsigned t = 0; t < _TP_MAX; t++) {
		const struct tracepoint_def *def = &tracepoint_defs[t];

		if (!tracepoint_wanted(h->config, t)) {
			source_set_state(s->host, def->source, SOURCE_DISABLED, "%s=no in the configuration",
						 t == TP_MCE_RECORD ? "Tracepoint" : "RAS");
			continue;
		}
		if (t == TP_BLOCK_RQ_COMPLETE && s->tps[TP_BLOCK_RQ_ERROR].available) {
			source_set_state(s->host, def->source, SOURCE_DISABLED,
					 "block:block_rq_error is read instead");
			continue;
		}
		r = tracepoint_load(s, tracefs_root, t);
		if (r < 0) {
			if (!first_error)
				first_error = r;
			continue;
		}
		n_available++;
	}
	if (n_available == 0 && !first_error) {
		log_notice("Tracepoint source disabled by configuration");
		return 0;
	}
	if (n_available == 0)
		return first_error;

	n = read_cpu_list_file("/sys/devices/system/cpu/online", online, ELEMENTSOF(online));
	if (n <= 0)
		return log_error_errno(n < 0 ? n : -EINVAL, "Cannot read /sys/devices/system/cpu/online: %m");

	r = plan_ring(s->page_size, &s->ring);
	if (r < 0)
		return r;
	opened_ns = now_monotonic_usec() * 1000;
	s->scratch = malloc(PERF_RING_RECORD_MAX);
	s->batch = calloc(CPU_LIST_MAX, sizeof(*s->batch));
	s->batch_reader = calloc(CPU_LIST_MAX, sizeof(*s->batch_reader));
	if (!s->scratch || !s->batch || !s->batch_reader) {
		tracepoint_close(TAKE_PTR(s));
		return log_error_errno(-ENOMEM, "Out of memory");
	}
	/* Offline CPUs are not read, and that is no error: when they come online,
	 * cpu-hotplug.c has their readers opened. */
	first_error = 0;
	for (unsigned cpu = 0; cpu < ELEMENTSOF(online); cpu++) {
		if (!online[cpu])
			continue;
		keepalive();
		r = reader_open(s, cpu, TIER_CORE, false, &s->cpus[cpu]);
		if (r < 0) {
			if (!first_error)
				first_error = r;
			continue;
		}
		reader_placed(s, cpu);
		s->n_open++;
	}
	open_device_events(s);
	publish_state(s);
	/* With no reader at all, the one line below says it for every tracepoint. */
	for (unsigned t = 0; s->n_open > 0 && t < _TP_MAX; t++)
		tracepoint_log_opened(s, t, (unsigned) n);
	if (s->n_open == 0) {
		tracepoint_close(TAKE_PTR(s));
		return log_error_errno(first_error ? first_error : -ENODEV,
				       "No tracepoint could be opened on any CPU; tracepoint sources are off");
	}
	recover_trace_buffer(s, tracefs_root);
	recover_ras_buffer(s, tracefs_root, opened_ns);
	*ret = TAKE_PTR(s);
	return 0;
}

static int cpu_changed(struct tracepoint_source *s, unsigned cpu, bool online)
{
	int r;

	if (!s || cpu >= CPU_LIST_MAX)
		return 0;
	if (!online) {
		uint64_t n;

		if (!s->cpus[cpu])
			return 0;
		/* The event is already detached from the CPU; what it caught before is still in the ring. */
		n = s->cpus[cpu]->n_samples;
		reader_retire(s, cpu);
		log_info("CPU %u went offline: its tracepoint reader drained (%llu record(s) in all) "
			 "and closed; reading on %u CPUs", cpu, (unsigned long long) n, s->n_open);
		publish_state(s);
		return 1;
	}
	/* A reader opened after the event was sent is already current. */
	if (s->cpus[cpu])
		return 0;
	r = reader_open(s, cpu, TIERS_ALL, false, &s->cpus[cpu]);
	if (r < 0)
		return r;
	reader_placed(s, cpu);
	s->n_open++;
	log_info("CPU %u came online: reading its tracepoints; reading on %u CPUs", cpu, s->n_open);
	publish_state(s);
	return 1;
}

static int tracepoint_cpus_resync(void *userdata, const bool *online, size_t n_online)
{
	struct tracepoint_source *s = userdata;
	unsigned opened = 0, closed = 0, renewed = 0, not_renewed = 0;
	int r, ret = 0;

	if (!s)
		return 0;
	for (unsigned cpu = 0; cpu < CPU_LIST_MAX; cpu++) {
		bool want = cpu < n_online && online[cpu];
		struct cpu_reader *fresh;

		if (!want) {
			if (s->cpus[cpu]) {
				reader_retire(s, cpu);
				closed++;
			}
			continue;
		}
		/*
		 * The CPU may have gone offline and come back in the events we
		 * missed: its old event would then be detached for good.  Open the
		 * new reader before draining the old one, so no record falls in
		 * between (one emitted in that instant may be logged twice).
		 */
		keepalive();
		r = reader_open(s, cpu, TIERS_ALL, s->cpus[cpu] != NULL, &fresh);
		if (r < 0) {
			if (ret == 0)
				ret = r;
			/* The old reader stays, but may be detached for good: say so, loudly (review M5). */
			if (s->cpus[cpu]) {
				log_warning_errno(r, "CPU %u: its reader could not be renewed at the CPU re-read: %m; "
						  "the old one is kept, but if the CPU went down and came back meanwhile "
						  "it is detached and that CPU's records stop", cpu);
				not_renewed++;
			}
			continue;
		}
		if (s->cpus[cpu]) {
			read_rings(s, true);
			reader_free(s->cpus[cpu]);
			renewed++;
		} else {
			s->n_open++;
			opened++;
		}
		s->cpus[cpu] = fresh;
		reader_placed(s, cpu);
		/* A detached reader saw nothing since its CPU went down (a resume, missed
		 * hotplug events): the machine checks it missed are in the trace instance. */
		if (fresh->tp_fd[TP_MCE_RECORD] >= 0 && s->trace_buffer) {
			r = trace_buffer_recover_lost(s->trace_buffer, cpu, 0);
			if (r > 0)
				log_notice("Logged %d machine-check record(s) of CPU %u from the trace instance, "
					   "kept while its reader was detached", r, cpu);
		}
	}
	log_info("CPU set re-read: %u reader(s) opened, %u closed, %u renewed; reading on %u CPUs",
		 opened, closed, renewed, s->n_open);
	s->n_not_renewed = not_renewed;
	publish_state(s);
	return ret;
}

static int tracepoint_cpu_online(void *s, unsigned cpu)
{
	return cpu_changed(s, cpu, true);
}

static int tracepoint_cpu_offline(void *s, unsigned cpu)
{
	return cpu_changed(s, cpu, false);
}

/* At start the first drain also ends the trace buffer's matching; at stop it saves the cursor. */
static void tracepoint_drain(void *userdata)
{
	struct tracepoint_source *s = userdata;

	read_rings(s, true);
	trace_buffer_drain_done(s->trace_buffer);
	for (unsigned cpu = 0; cpu < s->cpus_end; cpu++)
		if (s->cpus[cpu])
			report_unaccounted(s->cpus[cpu]);
}

static void tracepoint_close(void *userdata)
{
	struct tracepoint_source *s = userdata;

	if (!s)
		return;
	s->hold_timer = sd_event_source_disable_unref(s->hold_timer);
	for (unsigned cpu = 0; cpu < CPU_LIST_MAX; cpu++)
		s->cpus[cpu] = reader_free(s->cpus[cpu]);
	if (s->trace_buffer)
		(void) trace_buffer_save(s->trace_buffer);
	s->trace_buffer = trace_buffer_free(s->trace_buffer);
	s->ras_buffer = ras_buffer_free(s->ras_buffer);
	free(s->scratch);
	free(s->batch);
	free(s->batch_reader);
	free(s);
}

/* One reader serves every tracepoint: a changed set reopens it (with what it holds logged first). */
static bool tracepoint_reload_needed(const struct mcelogd_config *old, const struct mcelogd_config *cur)
{
	return old->source_tracepoint != cur->source_tracepoint || old->source_ras != cur->source_ras;
}

static size_t tracepoint_describe(void *userdata, char *buf, size_t size)
{
	const struct tracepoint_source *s = userdata;
	bool mce = s->tps[TP_MCE_RECORD].n_cpus > 0;
	unsigned n_ras = 0;
	int n;

	for (unsigned t = TP_RAS_FIRST; t < _TP_MAX; t++)
		if (s->tps[t].n_cpus > 0)
			n_ras++;
	if (!mce && n_ras == 0)
		return 0;
	if (n_ras)
		n = snprintf(buf, size, "Watching %s%s%u ras:* tracepoint(s) on %u CPUs", mce ? "mce:mce_record" : "",
			     mce ? " and " : "", n_ras, s->n_open);
	else
		n = snprintf(buf, size, "Watching mce:mce_record on %u CPUs", s->n_open);
	return n < 0 ? 0 : (size_t) n;
}

static void tracepoint_accounted(void *userdata)
{
	struct tracepoint_source *s = userdata;

	trace_buffer_accounted(s->trace_buffer);
	ras_buffer_accounted(s->ras_buffer);
}

const struct source_ops tracepoint_source_ops = {
	.name = "tracepoint",
	.open = tracepoint_open,
	.close = tracepoint_close,
	.drain = tracepoint_drain,
	.reload_needed = tracepoint_reload_needed,
	.cpu_online = tracepoint_cpu_online,
	.cpu_offline = tracepoint_cpu_offline,
	.cpus_resync = tracepoint_cpus_resync,
	.describe = tracepoint_describe,
	.accounted = tracepoint_accounted,
};
