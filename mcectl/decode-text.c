/* SPDX-License-Identifier: MIT */
/*
 * The readable form of a decoded record.  Everything goes through the
 * caller's buffered FILE with fixed-size stack buffers: decoding a large
 * file must not allocate per record.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "copy-known.h"
#include "dec-digits.h"
#include "decode.h"
#include "macro.h"
#include "decode-text.h"
#include "hex-digits.h"
#include "ras-record.h"
#include "rfc3339.h"

static const char *const cache_levels[] = {
	[MCE_LEVEL_ABSENT] = NULL, [MCE_LEVEL_0] = "L0", [MCE_LEVEL_1] = "L1",
	[MCE_LEVEL_2] = "L2", [MCE_LEVEL_GENERIC] = "generic level",
};

static const char *const transaction_types[] = {
	[MCE_TT_ABSENT] = NULL, [MCE_TT_INSTRUCTION] = "instruction", [MCE_TT_DATA] = "data",
	[MCE_TT_GENERIC] = "generic",
};

static const char *const requests[] = {
	[MCE_RQ_ABSENT] = NULL, [MCE_RQ_GENERIC] = "generic", [MCE_RQ_READ] = "read",
	[MCE_RQ_WRITE] = "write", [MCE_RQ_DATA_READ] = "data read",
	[MCE_RQ_DATA_WRITE] = "data write", [MCE_RQ_INSTRUCTION_FETCH] = "instruction fetch",
	[MCE_RQ_PREFETCH] = "prefetch", [MCE_RQ_EVICTION] = "eviction", [MCE_RQ_SNOOP] = "snoop",
};

static const char *const memory_transactions[] = {
	[MCE_MT_ABSENT] = NULL, [MCE_MT_GENERIC] = "generic", [MCE_MT_READ] = "read",
	[MCE_MT_WRITE] = "write", [MCE_MT_ADDRESS_COMMAND] = "address/command",
	[MCE_MT_MEMORY_SCRUBBING] = "memory scrubbing",
};

/* Human phrasing of the decoder's classes; JSON keeps the decoder's own snake_case names. */
static const char *const error_classes[] = {
	[MCE_CLASS_NO_ERROR] = "no error",
	[MCE_CLASS_UNCLASSIFIED] = "unclassified",
	[MCE_CLASS_MICROCODE_ROM_PARITY] = "microcode ROM parity error",
	[MCE_CLASS_EXTERNAL] = "external error",
	[MCE_CLASS_FRC] = "FRC error",
	[MCE_CLASS_INTERNAL_PARITY] = "internal parity error",
	[MCE_CLASS_SMM_HANDLER_CODE_ACCESS_VIOLATION] = "SMM handler code access violation",
	[MCE_CLASS_INTERNAL_TIMER] = "internal timer error",
	[MCE_CLASS_IO] = "I/O error",
	[MCE_CLASS_INTERNAL_UNCLASSIFIED] = "internal unclassified error",
	[MCE_CLASS_GENERIC_CACHE_HIERARCHY] = "generic cache hierarchy error",
	[MCE_CLASS_TLB] = "TLB error",
	[MCE_CLASS_MEMORY_CONTROLLER] = "memory controller error",
	[MCE_CLASS_CACHE] = "cache error",
	[MCE_CLASS_BUS_INTERCONNECT] = "bus/interconnect error",
	[MCE_CLASS_THERMAL] = "thermal event, no MCA error",
};

static const char *const recoveries[] = {
	[MCE_RECOVERY_NONE] = NULL,
	[MCE_RECOVERY_UCNA] = "UCNA (uncorrected, no action required)",
	[MCE_RECOVERY_SRAO] = "SRAO (software recoverable, action optional)",
	[MCE_RECOVERY_SRAR] = "SRAR (software recoverable, action required)",
	[MCE_RECOVERY_RESTARTABLE] = "restartable",
	[MCE_RECOVERY_CONTAINABLE] = "containable",
};

#define NAME(table, v) ((unsigned) (v) < ELEMENTSOF(table) ? (table)[v] : NULL)

static bool is_memory(const struct mce_decoded *d)
{
	return d->error_class == MCE_CLASS_MEMORY_CONTROLLER ||
	       streq_ptr(d->bank_type, "UMC") || d->channel >= 0 || d->dimm >= 0 ||
	       d->chip_select >= 0;
}

/*
 * Short operator advice.  It depends only on how bad the error is and
 * whether memory is involved: anything finer is the decoder's description.
 */
static const char *advice(const struct mce_decoded *d)
{
	bool mem = is_memory(d);

	/* the CPU's own cooling measure, graded corrected only for want of a lower grade */
	if (d->error_class == MCE_CLASS_THERMAL)
		return "No error: the CPU limits its clock while too hot or over its power limit, "
		       "and says so again when that ends.  Frequent events point at the cooling "
		       "(fan, heatsink, airflow) or the power settings.";
	switch (d->severity) {
	case MCE_SEV_CORRECTED:
		return mem ? "No action needed now: the hardware corrected it.  If corrected errors "
			     "keep coming from the same channel/DIMM, plan to replace that DIMM."
			   : "No action needed now: the hardware corrected it.  A steady rate from "
			     "the same bank points at a failing part; watch for repeats.";
	case MCE_SEV_DEFERRED:
		return "Data was found bad and marked poisoned but not yet used.  The kernel may "
		       "take the page offline.  Replace the part if errors at this location recur.";
	case MCE_SEV_UNCORRECTED:
		return mem ? "Data was lost: a process may have been killed and the page taken "
			     "offline.  Check the kernel log and replace the DIMM named above."
			   : "Data was lost: a process may have been killed.  Check the kernel log; "
			     "if it repeats, service the CPU/component named above.";
	case MCE_SEV_FATAL:
		return "The machine had to reset (processor context corrupt).  Service the "
		       "component named above, and check firmware and microcode updates.";
	default:
		return "Unknown severity.";
	}
}

/*
 * The records are put together in the caller's buffer and written in
 * whole chunks (decode_write_chunks()): some sixty fprintf() calls a
 * record were most of mcectl decode's time.  The helpers print what the
 * printf() conversions they replace did.
 */
int decode_write_all(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, buf, n);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += k;
		n -= (size_t) k;
	}
	return 0;
}

int decode_write_chunks(int fd, char *buf, size_t *n)
{
	size_t whole = *n - *n % DECODE_OUT_CHUNK;
	int k;

	if (whole == 0)
		return 0;
	k = decode_write_all(fd, buf, whole);
	memmove(buf, buf + whole, *n - whole);
	*n -= whole;
	return k;
}

static void out_error(struct decode_text_out *o, int k)
{
	if (k < 0 && o->error == 0)
		o->error = k;
}

/* The whole chunks held written: less than a chunk, and so the rest of the buffer, is left. */
static void out_drain(struct decode_text_out *o)
{
	out_error(o, decode_write_chunks(o->fd, o->buf, &o->n));
	o->drains++;
}

void decode_text_flush(struct decode_text_out *o)
{
	out_error(o, decode_write_all(o->fd, o->buf, o->n));
	o->n = 0;
}

/*
 * A piece that does not fit: the chunks held written first, then, if it
 * is larger than the room after a chunk, put in a part at a time.
 */
static void out_big(struct decode_text_out *o, const char *s, size_t n)
{
	out_drain(o);
	while (n > 0) {
		size_t fit = sizeof(o->buf) - o->n;

		if (fit > n)
			fit = n;
		memcpy(o->buf + o->n, s, fit);
		o->n += fit;
		s += fit;
		n -= fit;
		out_drain(o);
	}
}

void decode_text_record_end(struct decode_text_out *o)
{
	/* what a fully buffered stdout would have written by now */
	if (o->n >= DECODE_OUT_CHUNK)
		out_drain(o);
}

/* Inline: with out_lit()'s constant lengths the copy is a move or two. */
static inline __attribute__((always_inline)) void out_mem(struct decode_text_out *o, const char *s,
							   size_t n)
{
	if (o->n + n > sizeof(o->buf)) {
		out_big(o, s, n);
		return;
	}
	memcpy(o->buf + o->n, s, n);
	o->n += n;
}

/*
 * Room for n more bytes (n no more than the room after a chunk), for
 * writers that put their bytes in place: the copy of a length not known
 * at compile time would be a call.
 */
static inline char *out_room(struct decode_text_out *o, size_t n)
{
	if (o->n + n > sizeof(o->buf))
		out_drain(o);
	return o->buf + o->n;
}

/* "%s" */
static void out_s(struct decode_text_out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

/* Longer static strings are not remembered (out_room() holds no more than its buffer): copied as out_s() does. */
#define KNOWN_MAX 512

/*
 * "%s" of a string of static storage that never changes: the decoders'
 * and this file's.  Its length is remembered by its address; every bit of
 * the address counts, as literals lie a few bytes apart.
 */
static inline __attribute__((always_inline)) void out_static(struct decode_text_out *o, const char *s)
{
	size_t slot = (size_t) (((uint64_t) (uintptr_t) s * 0x9e3779b97f4a7c15ull) >> 54) %
		      DECODE_TEXT_KNOWN_SLOTS;
	size_t n;

	if (o->known->slot[slot].s == s) {
		n = o->known->slot[slot].len;
		copy_known(out_room(o, n), s, n);
		o->n += n;
		return;
	}
	/* the first sight, or another string took the slot: as out_s() does */
	n = strlen(s);
	out_mem(o, s, n);
	if (n <= KNOWN_MAX) {
		o->known->slot[slot].s = s;
		o->known->slot[slot].len = (uint32_t) n;
	}
}

/* "%u", "%" PRIu64 */
static void out_u(struct decode_text_out *o, uint64_t v)
{
	/* most are a CPU's, a bank's or a DIMM's number: below 100, written without counting */
	if (v < 100) {
		char *d = out_room(o, 2);

		if (v < 10) {
			d[0] = (char) ('0' + v);
			o->n++;
		} else {
			dec_put2(d, (unsigned) v);
			o->n += 2;
		}
		return;
	}
	unsigned n = dec_u64_len(v);

	dec_u64_put(out_room(o, n), v, n);
	o->n += n;
}

/* "%d" */
static void out_d(struct decode_text_out *o, int v)
{
	if (v < 0) {
		out_mem(o, "-", 1);
		out_u(o, (uint64_t) 0 - (uint64_t) (int64_t) v);
	} else
		out_u(o, (uint64_t) v);
}

/* "0x%0<width>" PRIx64; width 0: "0x%" PRIx64 */
static void out_x(struct decode_text_out *o, uint64_t v, unsigned width)
{
	static const char hex[] = "0123456789abcdef";

	if (width == 16) {
		/* the registers, most of a record: 16 digits always fit */
		char *d = out_room(o, 18);

		d[0] = '0';
		d[1] = 'x';
		hex_digits16(d + 2, v);
		o->n += 18;
		return;
	}
	/* the digits counted first, then written in place, as out_u() does */
	unsigned n = v ? (unsigned) (64 - __builtin_clzll(v) + 3) / 4 : 1;
	char *d;

	if (n < width)
		n = width;
	d = out_room(o, 2 + n);
	d[0] = '0';
	d[1] = 'x';
	for (unsigned k = n; k > 0; k--) {
		d[1 + k] = hex[v & 0xf];
		v >>= 4;
	}
	o->n += 2 + n;
}

/* The first byte told apart before the call: a record's details are looked through twice. */
static const struct mce_detail *find_detail(const struct mce_decoded *d, const char *name)
{
	for (unsigned i = 0; i < d->n_details && i < MCE_MAX_DETAILS; i++)
		if (d->details[i].name[0] == name[0] && streq(d->details[i].name, name))
			return &d->details[i];
	return NULL;
}

/* A detail that says how the decode was made ("bank_type_from"), not what the
 * hardware reported: JSON keeps it for tools; text says it in words.  from:
 * the provenance it must name, or NULL for any. */
static bool is_provenance(const struct mce_detail *x, const char *from)
{
	return x && x->name[0] == 'b' && streq(x->name, "bank_type_from") && (!from || (x->text && streq(x->text, from)));
}

/*
 * A run of a record's text that depends on nothing but KEY, N values (the
 * decode's static strings by address, its numbers, and whatever else the
 * run prints from): if a run of the same key is kept, it is printed again
 * and true returned.  Else false: the caller prints the run and hands it
 * to out_run_keep() with the place out_run_start() gave before.
 */
struct out_run_at {
	size_t n;
	unsigned drains;
};

/* What each key begins with: the kind of run it is of, its places in decode_text_known.runs. */
enum { RUN_HEAD, RUN_WHAT, RUN_CPU_TO_ACTION, _RUN_KINDS };
_Static_assert(_RUN_KINDS == DECODE_TEXT_RUN_KINDS, "a place for each kind of run");

/* The decode's one-line summary in buf (size bytes): its length, as much as fit. */
static size_t summary_of(const struct mce_decoded *d, char *buf, size_t size)
{
	int k = mce_decoded_summary(d, buf, size);

	/* what it returns is the summary's whole length, which may not have fit */
	return k < 0 ? 0 : (size_t) k < size ? (size_t) k : size - 1;
}

/* memcmp() and memcpy() below, not loops: a key is some sixty values, a run hundreds of bytes */
static bool run_is(const struct decode_text_run *r, const uint64_t *key, size_t n)
{
	return r->n == n && memcmp(r->key, key, n * sizeof(key[0])) == 0;
}

/*
 * A key's place among its kind's runs (key[0]): a hash of its length and
 * first fifteen values.  Fewer let records that differ only further on
 * (their flags, details, advice) push each other out; a text run is
 * long enough that the hash costs less than that.
 */
static struct decode_text_run *run_place(struct decode_text_known *k, const uint64_t *key, size_t n)
{
	uint64_t h = n;

	for (size_t i = 1; i < n && i < 16; i++)
		h = (h ^ key[i]) * 0x9e3779b97f4a7c15ull;
	return &k->runs[key[0]][(h >> 59) % DECODE_TEXT_RUNS];
}

static bool out_run_again(struct decode_text_out *o, const uint64_t *key, size_t n)
{
	const struct decode_text_run *r = run_place(o->known, key, n);

	if (!run_is(r, key, n))
		return false;
	out_mem(o, r->text, r->len);
	return true;
}

static struct out_run_at out_run_start(const struct decode_text_out *o)
{
	return (struct out_run_at) { .n = o->n, .drains = o->drains };
}

static void out_run_keep(struct decode_text_out *o, const uint64_t *key, size_t n, struct out_run_at start)
{
	struct decode_text_run *r = run_place(o->known, key, n);
	size_t len = o->n - start.n;

	/* a run the buffer moved under (a chunk written), or too long, is not kept */
	if (n > DECODE_TEXT_RUN_KEY || o->drains != start.drains || len > DECODE_TEXT_RUN_TEXT)
		return;
	memcpy(r->key, key, n * sizeof(key[0]));
	r->n = n;
	memcpy(r->text, o->buf + start.n, len);
	r->len = (uint32_t) len;
}

/* lit: a string literal ("" n makes anything else an error) */
#define out_lit(o, lit) out_mem((o), "" lit, sizeof(lit) - 1)

/* " NAME 0x<16 digits>", the space only after the first; the name's length a constant */
static inline void reg_n(struct decode_text_out *out, bool *any, const char *name, size_t n, uint64_t v)
{
	char *d = out_room(out, 1 + n + 3 + 16);

	d[0] = ' ';
	d += *any;
	memcpy(d, name, n);
	memcpy(d + n, " 0x", 3);
	hex_digits16(d + n + 3, v);
	out->n = (size_t) (d + n + 3 + 16 - out->buf);
	*any = true;
}
#define reg(out, any, name, v) reg_n((out), (any), "" name, sizeof(name) - 1, (v))

/* "%Y-%m-%d %H:%M:%S UTC" of a time in seconds; strftime() outside years 1000-9999 */
static void out_time(struct decode_text_out *out, int64_t secs)
{
	/* 1000-01-01T00:00:00Z and 10000-01-01T00:00:00Z */
	static const int64_t year1000 = -30610224000LL, year10000 = 253402300800LL;
	char buf[64];
	int64_t day = secs / 86400 - (secs % 86400 < 0), sec = secs - day * 86400;

	if (out->known->time_known && day == out->known->time_day) {
		/* the day of the last time printed, as records nearly always share it */
		char *d = out_room(out, 36);

		memcpy(d, "  Time:     ", 12);
		memcpy(d + 12, out->known->time_text, 10);
		d[22] = ' ';
		dec_put2(d + 23, (unsigned) (sec / 3600));
		d[25] = ':';
		dec_put2(d + 26, (unsigned) (sec / 60 % 60));
		d[28] = ':';
		dec_put2(d + 29, (unsigned) (sec % 60));
		memcpy(d + 31, " UTC\n", 5);
		out->n += 36;
		return;
	}
	if (secs >= year1000 && secs < year10000 &&
	    format_rfc3339_usec(buf, sizeof(buf), secs * 1000000) == 27) {
		/* "YYYY-MM-DDTHH:MM:SS.uuuuuuZ"; years 1000-9999 are whole days */
		memcpy(out->known->time_text, buf, 10);
		out->known->time_day = day;
		out->known->time_known = true;
		buf[10] = ' ';
		memcpy(buf + 19, " UTC", 5);
	} else {
		time_t t = (time_t) secs;
		struct tm tm;

		if (!gmtime_r(&t, &tm) || !strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", &tm))
			return;
	}
	out_lit(out, "  Time:     ");
	out_s(out, buf);
	out_lit(out, "\n");
}

void decode_print_text(struct decode_text_out *out, unsigned index, const struct mce_record *r,
		       const struct mce_decoded *d, unsigned first, unsigned last,
		       const char *snapshot)
{
	char summary[256];
	const char *s;
	bool any;
	uint64_t key[DECODE_TEXT_RUN_KEY];
	size_t n, summary_len = SIZE_MAX;     /* SIZE_MAX: not made yet */

	out_lit(out, "Record ");
	out_u(out, index);
	if (first) {
		if (first == last)
			out_lit(out, " (line ");
		else
			out_lit(out, " (lines ");
		out_u(out, first);
		if (first != last) {
			out_lit(out, "-");
			out_u(out, last);
		}
		out_lit(out, ")");
	}
	out_lit(out, ": ");
	/*
	 * The severity and the summary: from what mce_decoded_summary() reads
	 * of the decode, so kept for the records to come; but for the FRU
	 * text, held in the decode rather than pointed to.
	 */
	n = 0;
	key[n++] = RUN_HEAD;
	key[n++] = (uintptr_t) mce_severity_to_string(d->severity);
	key[n++] = d->error_class;
	key[n++] = d->cache_level;
	key[n++] = d->transaction_type;
	key[n++] = d->request;
	key[n++] = d->memory_transaction;
	key[n++] = (uintptr_t) d->memory_or_io;
	key[n++] = (uint64_t) (int64_t) d->timeout;
	key[n++] = d->mcacod;
	key[n++] = (uint64_t) (int64_t) d->channel;
	key[n++] = (uintptr_t) d->description;
	key[n++] = (uintptr_t) d->bank_name;
	if (d->fru_text[0] || !out_run_again(out, key, n)) {
		struct out_run_at start = out_run_start(out);

		summary_len = summary_of(d, summary, sizeof(summary));
		out_static(out, mce_severity_to_string(d->severity));
		out_lit(out, ": ");
		out_mem(out, summary, summary_len);
		out_lit(out, "\n");
		if (!d->fru_text[0])
			out_run_keep(out, key, n, start);
	}

	/* what happened: from the decode alone, so kept for the records to come (out_run_again()) */
	n = 0;
	key[n++] = RUN_WHAT;
	key[n++] = (uintptr_t) d->description;
	key[n++] = (uintptr_t) NAME(error_classes, d->error_class);
	key[n++] = (uintptr_t) NAME(cache_levels, d->cache_level);
	key[n++] = (uintptr_t) NAME(transaction_types, d->transaction_type);
	key[n++] = (uintptr_t) NAME(requests, d->request);
	key[n++] = (uintptr_t) NAME(memory_transactions, d->memory_transaction);
	key[n++] = (uintptr_t) d->participation;
	key[n++] = d->timeout == 1;
	key[n++] = (uintptr_t) d->memory_or_io;
	key[n++] = d->error_class == MCE_CLASS_THERMAL;
	key[n++] = d->mcacod;
	key[n++] = d->has_model_specific_code;
	key[n++] = d->has_model_specific_code ? d->model_specific_code : 0;
	key[n++] = d->has_extended_error_code;
	key[n++] = d->has_extended_error_code ? d->extended_error_code : 0;
	/* without a description the summary stands in, which the key does not hold */
	if (!d->description || !out_run_again(out, key, n)) {
		struct out_run_at start = out_run_start(out);

		out_lit(out, "  What:     ");
		if (d->description)
			out_static(out, d->description);
		else {
			if (summary_len == SIZE_MAX)
				summary_len = summary_of(d, summary, sizeof(summary));
			out_mem(out, summary, summary_len);
		}
		s = NAME(error_classes, d->error_class);
		out_lit(out, " [");
		if (s)
			out_static(out, s);
		else
			out_lit(out, "unknown error class");
		if ((s = NAME(cache_levels, d->cache_level))) {
			out_lit(out, ", ");
			out_static(out, s);
		}
		if ((s = NAME(transaction_types, d->transaction_type))) {
			out_lit(out, ", ");
			out_static(out, s);
			out_lit(out, " transaction");
		}
		if ((s = NAME(requests, d->request))) {
			out_lit(out, ", ");
			out_static(out, s);
			out_lit(out, " request");
		}
		if ((s = NAME(memory_transactions, d->memory_transaction))) {
			out_lit(out, ", memory ");
			out_static(out, s);
		}
		if (d->participation) {
			out_lit(out, ", ");
			out_static(out, d->participation);
		}
		if (d->timeout == 1)
			out_lit(out, ", timed out");
		if (d->memory_or_io) {
			out_lit(out, ", ");
			out_static(out, d->memory_or_io);
		}
		/* a thermal record's STATUS is IA32_THERM_STATUS: its low bits are no MCACOD */
		if (d->error_class != MCE_CLASS_THERMAL) {
			out_lit(out, ", MCACOD ");
			out_x(out, d->mcacod, 4);
		}
		if (d->has_model_specific_code) {
			out_lit(out, ", model-specific code ");
			out_x(out, d->model_specific_code, 0);
		}
		if (d->has_extended_error_code) {
			out_lit(out, ", extended error code ");
			out_x(out, d->extended_error_code, 0);
		}
		out_lit(out, "]\n");
		if (d->description)
			out_run_keep(out, key, n, start);
	}

	/* where */
	out_lit(out, "  Where:   ");
	if (r->have & MCE_HAVE_CPU) {
		out_lit(out, " CPU ");
		out_u(out, r->cpu);
	}
	if (r->have & MCE_HAVE_SOCKET) {
		out_lit(out, ", socket ");
		out_u(out, r->socket);
	}
	if (r->have & MCE_HAVE_BANK) {
		if (r->have & (MCE_HAVE_CPU | MCE_HAVE_SOCKET))
			out_lit(out, ", ");
		else
			out_lit(out, " ");
		out_lit(out, "bank ");
		out_u(out, r->bank);
	}
	if (d->bank_name || d->bank_type) {
		out_lit(out, " (");
		if (d->bank_name)
			out_static(out, d->bank_name);
		if (d->bank_name && d->bank_type)
			out_lit(out, ", ");
		if (d->bank_type)
			out_static(out, d->bank_type);
		if (is_provenance(find_detail(d, "bank_type_from"), "text_bank_name"))
			out_lit(out, ", known from the bank's name: the record has no MCA_IPID");
		out_lit(out, ")");
	} else
		out_lit(out, " (bank unknown to the decoder)");
	if (d->channel >= 0) {
		out_lit(out, ", channel ");
		out_d(out, d->channel);
	}
	if (d->dimm >= 0) {
		out_lit(out, ", DIMM ");
		out_d(out, d->dimm);
	}
	if (d->rank >= 0) {
		out_lit(out, ", rank ");
		out_d(out, d->rank);
	}
	if (d->chip_select >= 0) {
		out_lit(out, ", chip select ");
		out_d(out, d->chip_select);
	}
	/* The part to replace, in the CPU's own words (AMD FRU text). */
	if (d->fru_text[0]) {
		out_lit(out, ", FRU \"");
		out_s(out, d->fru_text);
		out_lit(out, "\"");
	}
	if (d->row >= 0) {
		out_lit(out, ", bank group ");
		out_d(out, d->bank_group);
		out_lit(out, ", bank ");
		out_d(out, d->dram_bank);
		out_lit(out, ", row ");
		out_d(out, d->row);
		out_lit(out, ", column ");
		out_d(out, d->column);
	}
	out_lit(out, "\n");
	if (r->have & MCE_HAVE_ADDR) {
		out_lit(out, "  Address:  ");
		out_x(out, r->addr, 16);
		if (d->address_mode) {
			out_lit(out, " (");
			out_static(out, d->address_mode);
		}
		if (d->has_address_lsb) {
			if (d->address_mode)
				out_lit(out, ", ");
			else
				out_lit(out, " (");
			out_lit(out, "granularity 2^");
			out_u(out, d->address_lsb);
			out_lit(out, " bytes");
		}
		if (d->address_mode || d->has_address_lsb)
			out_lit(out, ")");
		out_lit(out, "\n");
	}
	/*
	 * The CPU, Severity, Detail and Action lines: from the CPU's identity
	 * and the decode alone, so kept for the records to come.
	 */
	n = 0;
	key[n++] = RUN_CPU_TO_ACTION;
	key[n++] = (r->have & MCE_HAVE_VENDOR) && r->vendor != MCE_VENDOR_UNKNOWN ? 1 + (uint64_t) r->vendor : 0;
	key[n++] = (r->have & MCE_HAVE_CPUID) != 0;
	key[n++] = r->have & MCE_HAVE_CPUID ? r->family : 0;
	key[n++] = r->have & MCE_HAVE_CPUID ? r->model : 0;
	key[n++] = r->have & MCE_HAVE_CPUID ? r->stepping : 0;
	key[n++] = (uintptr_t) d->cpu_model;
	key[n++] = (uintptr_t) mce_severity_to_string(d->severity);
	key[n++] = (uintptr_t) NAME(recoveries, d->recovery);
	key[n++] = d->has_corrected_count;
	key[n++] = d->has_corrected_count ? d->corrected_count : 0;
	key[n++] = (uintptr_t) d->threshold_status;
	key[n++] = d->n_flags < MCE_MAX_FLAGS ? d->n_flags : MCE_MAX_FLAGS;
	for (unsigned i = 0; i < d->n_flags && i < MCE_MAX_FLAGS; i++)
		key[n++] = (uintptr_t) d->flags[i];
	key[n++] = d->n_details < MCE_MAX_DETAILS ? d->n_details : MCE_MAX_DETAILS;
	for (unsigned i = 0; i < d->n_details && i < MCE_MAX_DETAILS; i++) {
		key[n++] = (uintptr_t) d->details[i].name;
		key[n++] = (uintptr_t) d->details[i].text;
		key[n++] = d->details[i].value;
	}
	key[n++] = (uintptr_t) advice(d);
	if (!out_run_again(out, key, n)) {
		struct out_run_at start = out_run_start(out);

		out_lit(out, "  CPU:      ");
		if ((r->have & MCE_HAVE_VENDOR) && r->vendor != MCE_VENDOR_UNKNOWN) {
			out_static(out, mce_vendor_to_string(r->vendor));
			out_lit(out, " ");
		}
		if (r->have & MCE_HAVE_CPUID) {
			out_lit(out, "family ");
			out_x(out, r->family, 0);
			out_lit(out, " model ");
			out_x(out, r->model, 0);
			out_lit(out, " stepping ");
			out_u(out, r->stepping);
		} else
			out_lit(out, "unknown (give it with --cpu-id)");
		if (d->cpu_model) {
			out_lit(out, " (");
			out_static(out, d->cpu_model);
			out_lit(out, ")");
		} else if (r->have & MCE_HAVE_CPUID)
			out_lit(out, " (a model the decoder does not know: architectural decode only)");
		out_lit(out, "\n");

		/* how bad */
		out_lit(out, "  Severity: ");
		out_static(out, mce_severity_to_string(d->severity));
		if ((s = NAME(recoveries, d->recovery))) {
			out_lit(out, ", recovery ");
			out_static(out, s);
		}
		if (d->has_corrected_count) {
			out_lit(out, ", corrected count ");
			out_u(out, d->corrected_count);
		}
		if (d->threshold_status) {
			out_lit(out, ", threshold ");
			out_static(out, d->threshold_status);
		}
		if (d->n_flags) {
			out_lit(out, "; flags");
			for (unsigned i = 0; i < d->n_flags && i < MCE_MAX_FLAGS; i++) {
				out_lit(out, " ");
				out_static(out, d->flags[i]);
			}
		}
		out_lit(out, "\n");
		for (unsigned i = 0; i < d->n_details && i < MCE_MAX_DETAILS; i++) {
			const struct mce_detail *x = &d->details[i];

			/* Where the bank type came from is said on the bank line, not as a field. */
			if (is_provenance(x, NULL))
				continue;
			out_lit(out, "  Detail:   ");
			out_static(out, x->name);
			out_lit(out, " = ");
			/* The meaning first, the raw field value after it: "DramEccErr (0x0)". */
			if (x->text) {
				out_static(out, x->text);
				out_lit(out, " (");
			}
			out_x(out, x->value, 0);
			if (x->text)
				out_lit(out, ")");
			out_lit(out, "\n");
		}

		/* what to do */
		out_lit(out, "  Action:   ");
		out_static(out, advice(d));
		out_lit(out, "\n");
		out_run_keep(out, key, n, start);
	}

	/* the raw registers, so nothing is lost in the rendering */
	any = false;
	out_lit(out, "  Registers: ");
	if (r->have & MCE_HAVE_STATUS)
		reg(out, &any, "STATUS", r->status);
	if (r->have & MCE_HAVE_MCGSTATUS)
		reg(out, &any, "MCGSTATUS", r->mcgstatus);
	if (r->have & MCE_HAVE_ADDR)
		reg(out, &any, "ADDR", r->addr);
	if (r->have & MCE_HAVE_MISC)
		reg(out, &any, "MISC", r->misc);
	if (r->have & MCE_HAVE_SYND)
		reg(out, &any, "SYND", r->synd);
	if (r->have & MCE_HAVE_SYND1)
		reg(out, &any, "SYND1", r->synd1);
	if (r->have & MCE_HAVE_SYND2)
		reg(out, &any, "SYND2", r->synd2);
	if (r->have & MCE_HAVE_IPID)
		reg(out, &any, "IPID", r->ipid);
	out_lit(out, "\n");
	if (r->have & MCE_HAVE_TIME)
		out_time(out, r->time_usec / 1000000);
	if (snapshot) {
		out_lit(out, "  Snapshot: ");
		out_s(out, snapshot);
		out_lit(out, "\n");
	}
	out_lit(out, "\n");
	decode_text_record_end(out);
}

/* "  %-28s ": a field's key in its column */
static void out_key(struct decode_text_out *o, const char *key)
{
	static const char spaces[] = "                            ";   /* 28 */
	size_t n = strlen(key);

	out_lit(o, "  ");
	out_mem(o, key, n);
	if (n < sizeof(spaces) - 1)
		out_mem(o, spaces, sizeof(spaces) - 1 - n);
	out_lit(o, " ");
}

void decode_print_ras_text(struct decode_text_out *out, unsigned index, unsigned line, const struct ras_record *r)
{
	out_lit(out, "Record ");
	out_u(out, index);
	out_lit(out, " (line ");
	out_u(out, line);
	out_lit(out, "): ");
	out_s(out, r->summary);
	out_lit(out, "\n");
	out_key(out, "source");
	out_static(out, mce_source_to_string(r->source));
	out_lit(out, "\n");
	out_key(out, "severity");
	out_static(out, ras_severity_to_string(r->severity));
	out_lit(out, "\n");
	for (unsigned i = 0; i < r->n_fields; i++) {
		const struct ras_field *f = &r->fields[i];

		out_key(out, f->key);
		switch (f->type) {
		case RAS_FIELD_STRING:
			out_s(out, f->data);
			break;
		case RAS_FIELD_HEX64:
			out_x(out, f->u, 16);
			break;
		case RAS_FIELD_HEX:
			out_x(out, f->u, 0);
			break;
		case RAS_FIELD_BYTES:
			/* as the JSON line has them: two lower-case hex digits a byte */
			for (size_t b = 0; b < f->len; b++)
				out_mem(out, hex_pairs + 2 * (uint8_t) f->data[b], 2);
			break;
		case RAS_FIELD_INT:
			if (f->i < 0) {
				out_lit(out, "-");
				out_u(out, (uint64_t) -(f->i + 1) + 1);
			} else
				out_u(out, (uint64_t) f->i);
			break;
		default:
			out_u(out, f->u);
			break;
		}
		out_lit(out, "\n");
	}
	decode_text_record_end(out);
}
