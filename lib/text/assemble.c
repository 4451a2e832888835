/* SPDX-License-Identifier: MIT */
/*
 * The record being assembled and handing records out.  Every form ends
 * here, so the checks every record gets (a STATUS register, the CPU
 * identity, a time from the log prefix) are made in one place.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scanner.h"

void text_diag(struct mce_text_parser *p, enum mce_text_diag kind, unsigned line, const char *fmt, ...)
{
	char buf[sizeof(p->msg) + 64];   /* not p->msg: it is often an argument */
	va_list ap;

	if (!p->cb.diagnostic)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	p->cb.diagnostic(kind, line, buf, p->userdata);
}

void text_reject(struct mce_text_parser *p)
{
	text_diag(p, MCE_TEXT_MALFORMED, p->line, "%s", p->msg);
}

int text_reject_with(struct mce_text_parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
	text_reject(p);
	return 0;
}

/* Hand one finished record to the caller, after the checks every form shares. */
static int emit_now(struct mce_text_parser *p, struct mce_record *r, unsigned first, unsigned last,
		    bool have_log_time, int64_t log_time_usec)
{
	int k;

	if (!(r->have & MCE_HAVE_STATUS)) {
		text_diag(p, MCE_TEXT_PARTIAL, first,
			  "record (lines %u-%u) has no STATUS register: skipped", first, last);
		return 0;
	}
	if (r->source == MCE_SOURCE_UNKNOWN)
		r->source = p->source;
	if (!(r->have & MCE_HAVE_TIME) && have_log_time) {
		r->time_usec = log_time_usec;
		r->have |= MCE_HAVE_TIME;
	}
	if (!(r->have & MCE_HAVE_CPUID)) {
		bool vendor_known = (r->have & MCE_HAVE_VENDOR) && r->vendor != MCE_VENDOR_UNKNOWN;

		if (p->have_default && (!vendor_known || r->vendor == p->def_vendor)) {
			/* The user named the CPU; stepping is not part of --cpu-id and
			 * no decoder keys on it, so it stays 0 under the same bit. */
			r->vendor = p->def_vendor;
			r->family = p->def_family;
			r->model = p->def_model;
			r->stepping = 0;
			r->have |= MCE_HAVE_VENDOR | MCE_HAVE_CPUID;
		} else if (vendor_known && (r->vendor == MCE_VENDOR_AMD || r->vendor == MCE_VENDOR_HYGON) &&
			   (r->have & MCE_HAVE_IPID) && r->ipid)
			/* The decoder names an SMCA bank from MCA_IPID alone (decoders/amd-models.c). */
			text_diag(p, MCE_TEXT_PARTIAL, first,
				  "record (lines %u-%u) has no CPU family/model: its bank named from MCA_IPID, "
				  "no model's errata applied (give the CPU with --cpu-id)", first, last);
		else if (vendor_known)
			text_diag(p, MCE_TEXT_PARTIAL, first,
				  "record (lines %u-%u) has no CPU family/model: decoding architectural "
				  "fields only (give the CPU with --cpu-id)", first, last);
		else
			text_diag(p, MCE_TEXT_PARTIAL, first,
				  "record (lines %u-%u) has no CPU identity (vendor, family, model): "
				  "decoding architectural fields only (give the CPU with --cpu-id)",
				  first, last);
	}
	k = p->cb.record(r, first, last, p->userdata);
	if (k < 0)
		p->stopped = k;
	return k < 0 ? k : 0;
}

int text_hold_release(struct mce_text_parser *p, bool all)
{
	unsigned n = 0;
	int k = 0;

	while (n < p->nheld && (all || !p->held[n].awaits))
		n++;
	/*
	 * A record whose DIMM line never came goes out as it would have
	 * without the hold, and unremarked: sb_edac printed none for an
	 * error it could not place in a DIMM, and a log may be cut short;
	 * the record is whole without it.  The checks of emit_now() name the
	 * record's own lines, so its warnings read as they would have.
	 */
	for (unsigned i = 0; i < n && k == 0; i++) {
		struct text_held *h = &p->held[i];

		k = emit_now(p, &h->rec, h->first, h->last, h->have_log_time, h->log_time_usec);
	}
	memmove(p->held, p->held + n, (p->nheld - n) * sizeof(p->held[0]));
	p->nheld -= n;
	return k;
}

struct text_held *text_hold_find(struct mce_text_parser *p, uint64_t addr, uint32_t code)
{
	for (unsigned i = 0; i < p->nheld; i++) {
		struct text_held *h = &p->held[i];

		if (h->awaits && h->rec.addr == addr && (uint32_t) h->rec.status == code)
			return h;
	}
	return NULL;
}

/*
 * Hand the record out, or hold it back: older sb_edac printed each
 * record's registers as the machine check came and the EDAC core's DIMM
 * line for it from a work queue, so the DIMM lines of several records may
 * come after them all.  A record that awaits one starts a hold; while it
 * is on, every record that ends is held too, so that they go out in the
 * order they were read.  Out of line: most inputs never come here.
 */
static _noinline_ int emit_or_hold(struct mce_text_parser *p, struct mce_record *r, unsigned first,
				   unsigned last, bool have_log_time, int64_t log_time_usec, bool awaits)
{
	if (p->nheld == 0 && !awaits)
		return emit_now(p, r, first, last, have_log_time, log_time_usec);
	if (p->nheld == TEXT_HOLD_MAX) {
		int k = text_hold_release(p, true);

		if (k < 0 || !awaits)
			return k < 0 ? k : emit_now(p, r, first, last, have_log_time, log_time_usec);
	}
	if (p->nheld == 0)
		p->hold_line = last;
	p->held[p->nheld++] = (struct text_held) {
		.rec = *r, .first = first, .last = last, .have_log_time = have_log_time,
		.awaits = awaits, .log_time_usec = log_time_usec,
	};
	return 0;
}

/* A record that ends while no hold is on and cannot start one goes straight out. */
static inline int emit(struct mce_text_parser *p, struct mce_record *r, unsigned first, unsigned last,
		       bool have_log_time, int64_t log_time_usec)
{
	if (_likely_(p->nheld == 0))
		return emit_now(p, r, first, last, have_log_time, log_time_usec);
	return emit_or_hold(p, r, first, last, have_log_time, log_time_usec, false);
}

/*
 * The record ending is older sb_edac's, begun on the line after its
 * "sbridge: HANDLING MCE MEMORY ERROR", and its DIMM line may still come:
 * none joined it, and it is an error sb_edac placed in a DIMM, a memory
 * controller's (its check, (STATUS & 0xefff) >> 7 == 1: MCACOD 0000 0000
 * 1MMM CCCC, the filter bit 12 aside; SDM Vol. 3B 16.9.2) with ADDRV and
 * the ADDR that the DIMM line names.
 */
static bool awaits_dimm(const struct mce_text_parser *p)
{
	const struct mce_record *r = &p->rec;

	return p->first == p->sbridge_line + 1 && !p->joined &&
	       (r->have & (MCE_HAVE_STATUS | MCE_HAVE_ADDR)) == (MCE_HAVE_STATUS | MCE_HAVE_ADDR) &&
	       (r->status & TEXT_STATUS_ADDRV) && (r->status & 0xef80) == 0x0080;
}

int text_flush(struct mce_text_parser *p)
{
	int k = 0;

	if (p->open == OPEN_NONE)
		return 0;
	p->open = OPEN_NONE;
	if (p->emitted)
		;                 /* its records are out */
	else if (_unlikely_(p->sbridge_line != 0))
		k = emit_or_hold(p, &p->rec, p->first, p->last, p->have_log_time, p->log_time_usec,
				 awaits_dimm(p));
	else
		k = emit(p, &p->rec, p->first, p->last, p->have_log_time, p->log_time_usec);
	p->emitted = false;
	p->rec = (struct mce_record) { 0 };
	p->have_log_time = false;
	return k;
}

static void open_at_line(struct mce_text_parser *p, enum open_record open, bool have_time,
			 int64_t time_usec)
{
	p->open = open;
	p->first = p->last = p->line;
	p->have_log_time = have_time;
	p->log_time_usec = time_usec;
}

int text_begin(struct mce_text_parser *p, enum open_record open, bool have_time, int64_t time_usec)
{
	int k = text_flush(p);

	open_at_line(p, open, have_time, time_usec);
	p->rec = (struct mce_record) { 0 };
	return k;
}

int text_begin_with(struct mce_text_parser *p, enum open_record open, bool have_time, int64_t time_usec,
		    const struct mce_record *r)
{
	int k = text_flush(p);

	open_at_line(p, open, have_time, time_usec);
	p->rec = *r;
	return k;
}

int text_single(struct mce_text_parser *p, struct mce_record *r, bool have_time, int64_t time_usec)
{
	int k = text_flush(p);

	if (k < 0)
		return k;
	return emit(p, r, p->line, p->line, have_time, time_usec);
}

int text_emit_part(struct mce_text_parser *p, struct mce_record *r)
{
	p->emitted = true;
	p->last = p->line;
	return emit(p, r, p->first, p->line, p->have_log_time, p->log_time_usec);
}
