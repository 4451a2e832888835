/* SPDX-License-Identifier: MIT */
/*
 * The text record parser: every form in which people hold machine-check
 * records, fed one line at a time.
 *
 * Design:
 *  - A line is looked at through a (pointer, end) span and never copied or
 *    NUL-terminated, so embedded NULs and any line length are harmless and
 *    memory does not grow with the input: the only state is the one record
 *    being assembled.
 *  - Log prefixes (syslog, journalctl short/short-iso/short-precise, dmesg
 *    "[ 123.456]") are stripped first; then the line is recognised by its
 *    marker ("[Hardware Error]:", "mce_record:", "{", a keyword).
 *  - Multi-line forms (kernel console, AMD EDAC, mcelog) are assembled into
 *    one record.  Unlike mcelog, a record ends at a blank line, at the start
 *    of the next record, or at its form's known last line, and tokens we do
 *    not need do not cut it short.
 *  - A line that looks like a record line but carries a bad value is
 *    rejected as a whole: it contributes nothing, so a record is never built
 *    from half a line.
 *
 * The scanner the forms share (spans, log prefixes, values and record
 * fields, assembling and handing out records) is in lib/text/.
 *
 * Formats are read from the programs that print them (the kernel's
 * __print_mce() and TP_printk of include/trace/events/mce.h, the AMD EDAC
 * decoder, mcelog's ASCII input/output, rasdaemon and ras-mc-ctl); see
 * peers.md and kernel-interfaces.md for the field lists.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "parse-number.h"
#include "record-json.h"
#include "record-text.h"
#include "text/scanner.h"

/* Our JSON lines are a few hundred bytes; refuse to hand megabytes to json-c. */
#define JSON_LINE_MAX (64u * 1024u)

struct mce_text_parser *mce_text_parser_new(const struct mce_text_callbacks *cb, void *userdata)
{
	struct mce_text_parser *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->cb = *cb;
	p->userdata = userdata;
	return p;
}

struct mce_text_parser *mce_text_parser_free(struct mce_text_parser *p)
{
	free(p);
	return NULL;
}

void mce_text_parser_set_default_cpu(struct mce_text_parser *p, enum mce_vendor vendor,
				     uint32_t family, uint32_t model)
{
	p->have_default = true;
	p->def_vendor = vendor;
	p->def_family = family;
	p->def_model = model;
}

void mce_text_parser_set_source(struct mce_text_parser *p, enum mce_source source)
{
	p->source = source;
}

/* ---- the AMD EDAC decoder's lines (drivers/edac/mce_amd.c) ---- */

/* "CPU:2 (19:21:0) MC5_STATUS[Over|CE|...]: 0x9c2040000000011b" */
static enum kv_result parse_edac_status(struct mce_text_parser *p, struct span s, struct mce_record *r)
{
	struct span t;
	uint64_t cpu, fam, model, step, bank, status;
	const char *c;

	t = span_token(&s);       /* "CPU:2" */
	t.p += 4;
	if (text_num(p, "CPU", t, 10, UINT32_MAX, &cpu) != KV_OK)
		return KV_BAD;
	span_skip_space(&s);
	if (!span_eat(&s, "("))
		return text_bad(p, "expected '(FAMILY:MODEL:STEPPING)' after the CPU number");
	c = memchr(s.p, ')', span_len(s));
	if (!c)
		return text_bad(p, "expected '(FAMILY:MODEL:STEPPING)' after the CPU number");
	{
		struct span tuple = { s.p, c }, f, m;
		const char *c1 = memchr(tuple.p, ':', span_len(tuple)), *c2;

		if (!c1 || !(c2 = memchr(c1 + 1, ':', (size_t) (tuple.end - c1 - 1))))
			return text_bad(p, "expected '(FAMILY:MODEL:STEPPING)' after the CPU number");
		f = (struct span) { tuple.p, c1 };
		m = (struct span) { c1 + 1, c2 };
		if (text_num(p, "family", f, 16, UINT32_MAX, &fam) != KV_OK ||
		    text_num(p, "model", m, 16, UINT32_MAX, &model) != KV_OK ||
		    text_num(p, "stepping", (struct span) { c2 + 1, tuple.end }, 16, UINT32_MAX,
			       &step) != KV_OK)
			return KV_BAD;
	}
	s.p = c + 1;
	span_skip_space(&s);
	if (!span_eat(&s, "MC"))
		return text_bad(p, "expected 'MCn_STATUS' after the CPU identity");
	t.p = s.p;
	while (s.p < s.end && is_digit(*s.p))
		s.p++;
	t.end = s.p;
	if (text_num(p, "bank", t, 10, UINT32_MAX, &bank) != KV_OK)
		return KV_BAD;
	if (!span_eat(&s, "_STATUS"))
		return text_bad(p, "expected 'MCn_STATUS' after the CPU identity");
	/* the bracketed flag names are decoded text; the register follows "]: " */
	c = memchr(s.p, ':', span_len(s));
	if (!c)
		return text_bad(p, "MC%" PRIu64 "_STATUS: value missing", bank);
	s.p = c + 1;
	t = span_token(&s);
	if (text_num(p, "STATUS", t, 16, UINT64_MAX, &status) != KV_OK)
		return KV_BAD;
	r->cpu = (uint32_t) cpu;
	r->bank = (uint32_t) bank;
	r->status = status;
	/* Family 18h is only ever Hygon Dhyana; the EDAC decoder serves both. */
	r->vendor = fam == 0x18 ? MCE_VENDOR_HYGON : MCE_VENDOR_AMD;
	r->family = (uint32_t) fam;
	r->model = (uint32_t) model;
	r->stepping = (uint32_t) step;
	r->have |= MCE_HAVE_CPU | MCE_HAVE_BANK | MCE_HAVE_STATUS | MCE_HAVE_VENDOR | MCE_HAVE_CPUID;
	return KV_OK;
}

/* "Key: 0x..., Key: 0x..." lines of the EDAC decoder: Error Addr, IPID, Syndrome, PPIN. */
static enum kv_result parse_edac_regs(struct mce_text_parser *p, struct span s, struct mce_record *r)
{
	static const struct text_field regs[] = {
		TEXT_FIELD("Error Addr", MCE_HAVE_ADDR, addr, 16),
		TEXT_FIELD("IPID",       MCE_HAVE_IPID, ipid, 16),
		TEXT_FIELD("Syndrome",   MCE_HAVE_SYND, synd, 16),
		TEXT_FIELD("PPIN",       MCE_HAVE_PPIN, ppin, 16),
	};

	while (span_len(s) > 0) {
		const char *comma = memchr(s.p, ',', span_len(s)), *colon;
		struct span item = { s.p, comma ? comma : s.end }, key, val;
		const struct text_field *f;

		s.p = comma ? comma + 1 : s.end;
		colon = memchr(item.p, ':', span_len(item));
		if (!colon)
			continue;
		key = (struct span) { item.p, colon };
		val = (struct span) { colon + 1, item.end };
		span_trim(&key);
		span_trim(&val);
		f = text_field_find(regs, ELEMENTSOF(regs), key, false);
		if (!f)
			continue;       /* "Syndrome1:", newer additions: decoded elsewhere */
		if (text_field_read(p, f, val, f->base, r) != KV_OK)
			return KV_BAD;
	}
	return KV_OK;
}

static bool is_edac_severity(struct span s)
{
	return span_starts(s, "Corrected error") || span_starts(s, "Uncorrected") ||
	       span_starts(s, "Deferred error");
}

/* A line after "[Hardware Error]:": the kernel's console form or the EDAC decoder's. */
static int kernel_line(struct mce_text_parser *p, struct span s, bool have_time, int64_t log_time)
{
	struct mce_record r;
	struct kv_line info;
	enum kv_result res;
	int k;

	if (span_starts(s, "CPU:")) {
		/* EDAC: a severity line may have opened this record already */
		if (!(p->open == OPEN_EDAC_AMD && !(p->rec.have & MCE_HAVE_STATUS))) {
			k = text_begin(p, OPEN_EDAC_AMD, have_time, log_time);
			if (k < 0)
				return k;
		}
		r = p->rec;
		if (parse_edac_status(p, s, &r) != KV_OK) {
			text_reject(p);
			return 0;
		}
		p->rec = r;
		p->last = p->line;
		return 0;
	}
	if (is_edac_severity(s))
		return text_begin(p, OPEN_EDAC_AMD, have_time, log_time);
	if (span_starts(s, "Error Addr:") || span_starts(s, "IPID:") || span_starts(s, "PPIN:")) {
		if (p->open != OPEN_EDAC_AMD && (k = text_begin(p, OPEN_EDAC_AMD, have_time, log_time)) < 0)
			return k;
		r = p->rec;
		if (parse_edac_regs(p, s, &r) != KV_OK) {
			text_reject(p);
			return 0;
		}
		p->rec = r;
		p->last = p->line;
		return 0;
	}
	if (p->open == OPEN_EDAC_AMD && (span_starts(s, "cache level:") || span_starts(s, "bus error"))) {
		/* the decoder's last line: the record is complete */
		p->last = p->line;
		return text_flush(p);
	}
	if (text_kernel_noise(s))
		return 0;

	r = p->open == OPEN_KERNEL ? p->rec : (struct mce_record) { 0 };
	res = text_kv_line(p, s, &r, &info);
	if (res == KV_NOT_OURS) {
		/* decoded text (EDAC bank descriptions and the like) */
		if (p->open == OPEN_EDAC_AMD)
			p->last = p->line;
		return 0;
	}
	if (res == KV_BAD) {
		text_reject(p);
		return 0;
	}
	if (info.names_cpu || p->open != OPEN_KERNEL) {
		k = text_begin(p, OPEN_KERNEL, have_time, log_time);
		if (k < 0)
			return k;
		if (!info.names_cpu) {
			/* a continuation line whose first line we never saw */
			r = (struct mce_record) { 0 };
			(void) text_kv_line(p, s, &r, &info);
		}
	}
	p->rec = r;
	p->last = p->line;
	if (info.processor)
		return text_flush(p);     /* the kernel's last line of a record */
	return 0;
}

/* A line of mcelog's format (or kernel console lines copied without their prefix). */
static int mcelog_line(struct mce_text_parser *p, struct span s, bool prefixed)
{
	struct mce_record r;
	struct kv_line info;
	enum kv_result res;
	int k;
	bool decoded = p->open == OPEN_MCELOG_DECODED;

	if (span_starts(s, "Hardware event. This is not a software error"))
		return text_begin(p, OPEN_MCELOG_DECODED, false, 0);

	r = (p->open == OPEN_MCELOG || decoded || p->open == OPEN_KERNEL) ? p->rec
									     : (struct mce_record) { 0 };
	res = text_kv_line(p, s, &r, &info);
	if (res == KV_NOT_OURS) {
		if (decoded || prefixed || text_kernel_noise(s) || span_starts(s, "mcelog:") ||
		    span_starts(s, "Running trigger"))
			return 0;       /* mcelog's decoded text, or another log line */
		{
			char buf[64];

			text_diag(p, MCE_TEXT_UNKNOWN, p->line, "not a machine-check record line: '%s'",
			     span_show(s, buf, sizeof(buf)));
		}
		return 0;
	}
	if (res == KV_BAD) {
		/* In mcelog's decoded output a keyword may start free text; don't judge it. */
		if (!decoded)
			text_reject(p);
		return 0;
	}
	if (info.names_cpu) {
		bool same = decoded && !(p->rec.have & (MCE_HAVE_CPU | MCE_HAVE_BANK));

		/* a new CPU line ends the previous record (mcelog would merge them) */
		if (!same) {
			enum open_record f = info.kernel_first ? OPEN_KERNEL : OPEN_MCELOG;
			struct mce_record keep = r;

			if (p->open != OPEN_NONE) {
				/* r was built on top of the old record: rebuild from scratch */
				keep = (struct mce_record) { 0 };
				(void) text_kv_line(p, s, &keep, &info);
			}
			if ((k = text_begin(p, f, false, 0)) < 0)
				return k;
			r = keep;
		}
	} else if (p->open == OPEN_NONE) {
		if ((k = text_begin(p, OPEN_MCELOG, false, 0)) < 0)
			return k;
	}
	p->rec = r;
	p->last = p->line;
	if (info.processor && p->open == OPEN_KERNEL)
		return text_flush(p);
	return 0;
}

/* ---- single-line forms ---- */

/*
 * The tracepoint's own text (trace_pipe, perf script):
 * "mce_record: CPU: 0, MCGc/s: 0/0, MC5: 9c2040000000011b, IPID: ..., ADDR: ...,
 *  MISC: ..., SYND: ..., RIP: 00:<0>, TSC: ..., PPIN: ..., vendor: 2, CPUID: a20f10,
 *  time: 1700000000, socket: 0, APIC: 6, microcode: a201016"
 * Older kernels print "ADDR/MISC/SYND: a/b/c" and "PROCESSOR: 2:a20f10".
 */
static enum kv_result parse_trace(struct mce_text_parser *p, struct span s, struct mce_record *r)
{
	char buf[48];

	while (span_len(s) > 0) {
		const char *comma = memchr(s.p, ',', span_len(s)), *colon;
		struct span item = { s.p, comma ? comma : s.end }, key, val;
		uint64_t v;

		s.p = comma ? comma + 1 : s.end;
		span_trim(&item);
		if (span_len(item) == 0)
			continue;
		colon = memchr(item.p, ':', span_len(item));
		if (!colon)
			return text_bad(p, "expected 'Key: value', got '%s'", span_show(item, buf, sizeof(buf)));
		key = (struct span) { item.p, colon };
		val = (struct span) { colon + 1, item.end };
		span_trim(&key);
		span_trim(&val);

		if (span_eq_case(key, "vendor data"))
			break;      /* newest kernels: an array with commas of its own, last */
		if (span_eq(key, "CPU")) {
			if (text_num(p, "CPU", val, 10, UINT32_MAX, &v) != KV_OK)
				return KV_BAD;
			r->cpu = (uint32_t) v;
			r->have |= MCE_HAVE_CPU;
		} else if (span_eq(key, "MCGc/s")) {
			const char *slash = memchr(val.p, '/', span_len(val));

			if (!slash)
				return text_bad(p, "MCGc/s: expected MCGCAP/MCGSTATUS");
			if (text_num(p, "MCGCAP", (struct span) { val.p, slash }, 16, UINT64_MAX,
				       &r->mcgcap) != KV_OK ||
			    text_num(p, "MCGSTATUS", (struct span) { slash + 1, val.end }, 16,
				       UINT64_MAX, &r->mcgstatus) != KV_OK)
				return KV_BAD;
			r->have |= MCE_HAVE_MCGCAP | MCE_HAVE_MCGSTATUS;
		} else if (span_len(key) > 2 && key.p[0] == 'M' && key.p[1] == 'C' && is_digit(key.p[2])) {
			if (text_num(p, "bank", (struct span) { key.p + 2, key.end }, 10, UINT32_MAX,
				       &v) != KV_OK)
				return KV_BAD;
			r->bank = (uint32_t) v;
			if (text_num(p, "STATUS", val, 16, UINT64_MAX, &r->status) != KV_OK)
				return KV_BAD;
			r->have |= MCE_HAVE_BANK | MCE_HAVE_STATUS;
		} else if (span_eq(key, "ADDR/MISC/SYND") || span_eq(key, "ADDR/MISC")) {
			uint64_t *dst[3] = { &r->addr, &r->misc, &r->synd };
			const uint32_t bits[3] = { MCE_HAVE_ADDR, MCE_HAVE_MISC, MCE_HAVE_SYND };
			unsigned n = span_eq(key, "ADDR/MISC") ? 2 : 3;

			for (unsigned i = 0; i < n; i++) {
				const char *slash = i + 1 < n ? memchr(val.p, '/', span_len(val)) : val.end;

				if (!slash)
					return text_bad(p, "%.*s: expected %u values separated by '/'",
						      (int) span_len(key), key.p, n);
				if (text_num(p, "ADDR/MISC/SYND", (struct span) { val.p, slash }, 16,
					       UINT64_MAX, dst[i]) != KV_OK)
					return KV_BAD;
				r->have |= bits[i];
				val.p = slash < val.end ? slash + 1 : val.end;
			}
		} else if (span_eq(key, "RIP")) {
			if (text_rip(p, val, r) != KV_OK)
				return KV_BAD;
		} else if (span_eq_case(key, "vendor")) {
			if (text_num(p, "vendor", val, 10, UINT32_MAX, &v) != KV_OK)
				return KV_BAD;
			r->vendor = mce_vendor_from_linux_x86((unsigned) v);
			r->have |= MCE_HAVE_VENDOR;
		} else if (span_eq(key, "CPUID")) {
			if (text_num(p, "CPUID", val, 16, UINT32_MAX, &v) != KV_OK)
				return KV_BAD;
			mce_record_set_cpuid(r, (uint32_t) v);
		} else if (span_eq_case(key, "PROCESSOR")) {
			if (text_processor(p, val, r) != KV_OK)
				return KV_BAD;
		} else if (span_eq_case(key, "time")) {
			if (text_num(p, "time", val, 10, INT64_MAX / 1000000, &v) != KV_OK)
				return KV_BAD;
			r->time_usec = (int64_t) v * 1000000;
			r->have |= MCE_HAVE_TIME;
		} else if (span_eq_case(key, "socket")) {
			if (text_num(p, "socket", val, 10, UINT32_MAX, &v) != KV_OK)
				return KV_BAD;
			r->socket = (uint32_t) v;
			r->have |= MCE_HAVE_SOCKET;
		} else if (span_eq_case(key, "MICROCODE REVISION")) {
			if (text_num(p, "microcode", val, 10, UINT32_MAX, &v) != KV_OK)
				return KV_BAD;
			r->microcode = (uint32_t) v;
			r->have |= MCE_HAVE_MICROCODE;
		} else {
			static const struct text_field hex[] = {
				TEXT_FIELD("IPID", MCE_HAVE_IPID, ipid, 16),
				TEXT_FIELD("ADDR", MCE_HAVE_ADDR, addr, 16),
				TEXT_FIELD("MISC", MCE_HAVE_MISC, misc, 16),
				TEXT_FIELD("SYND", MCE_HAVE_SYND, synd, 16),
				TEXT_FIELD("TSC", MCE_HAVE_TSC, tsc, 16),
				TEXT_FIELD("PPIN", MCE_HAVE_PPIN, ppin, 16),
				TEXT_FIELD("APIC", MCE_HAVE_APICID, apicid, 16),
				TEXT_FIELD("microcode", MCE_HAVE_MICROCODE, microcode, 16),
			};
			const struct text_field *f = text_field_find(hex, ELEMENTSOF(hex), key, true);

			if (!f)
				continue;       /* a field newer than us: not a reason to reject */
			if (text_field_read(p, f, val, f->base, r) != KV_OK)
				return KV_BAD;
		}
	}
	if (!(r->have & MCE_HAVE_STATUS))
		return text_bad(p, "mce_record line without 'MCn: STATUS'");
	return KV_OK;
}

/* ras-mc-ctl --errors: "CPU n" (the X86_VENDOR_* number, omitted when 0 = Intel). */
static void ras_mc_ctl_vendor(struct span s, struct mce_record *r)
{
	const char *c = span_find(s, ", CPU ");
	uint64_t v = 0;

	if (!(r->have & MCE_HAVE_CPUID))
		return;         /* no cpuid column: the vendor alone does not help */
	if (c) {
		struct span t = { c + 6, s.end };

		t = span_token(&t);
		if (span_len(t) > 0 && t.end[-1] == ',')
			t.end--;
		if (parse_unsigned(t.p, span_len(t), 10, UINT32_MAX, &v) < 0)
			return;
	}
	r->vendor = mce_vendor_from_linux_x86((unsigned) v);
	r->have |= MCE_HAVE_VENDOR;
}

/* rasdaemon's "cpu_type= AMD Scalable MCA" names the vendor, if nothing else does. */
static void ras_cpu_type(struct span s, struct mce_record *r)
{
	static const struct { const char *tag; enum mce_vendor v; } vendors[] = {
		{ "cpu_type= AMD", MCE_VENDOR_AMD },
		{ "cpu_type= Intel", MCE_VENDOR_INTEL },
		{ "cpu_type= Hygon", MCE_VENDOR_HYGON },
		{ "cpu_type= Zhaoxin", MCE_VENDOR_ZHAOXIN },
	};

	if (r->have & MCE_HAVE_VENDOR)
		return;
	for (size_t i = 0; i < ELEMENTSOF(vendors); i++)
		if (span_find(s, vendors[i].tag)) {
			r->vendor = vendors[i].v;
			r->have |= MCE_HAVE_VENDOR;
			return;
		}
}

static bool looks_like_ras_mc_ctl(struct span s)
{
	/* "<id> <date> <time> <zone> error: ..., status=0x..." */
	return s.p < s.end && is_digit(*s.p) && span_find(s, " error: ") && span_find(s, "status=");
}

int mce_text_parser_feed(struct mce_text_parser *p, const char *line, size_t len)
{
	struct span s = { line, line + len };
	struct text_line l;
	struct mce_record r;
	bool prefixed, have_time;
	int64_t log_time;
	const char *m;

	if (p->stopped < 0)
		return p->stopped;
	p->line++;
	span_trim(&s);
	if (span_len(s) == 0)
		return text_flush(p);     /* a blank line ends a record */

	if (!text_line_split(s, &l))
		return 0;       /* a log line with an empty message */
	s = l.msg;
	prefixed = l.prefixed;
	have_time = l.have_time;
	log_time = l.time_usec;

	if (l.tagged.p)
		return kernel_line(p, l.tagged, have_time, log_time);

	if ((m = span_find(s, "mce_record:"))) {
		struct span body = { m + 11, s.end };
		enum kv_result res;

		span_skip_space(&body);
		r = (struct mce_record) { 0 };
		if (span_starts(body, "CPU:"))
			res = parse_trace(p, body, &r);
		else
			res = text_ras_fields(p, body, &r, false);
		if (res != KV_OK) {
			text_reject(p);
			return 0;
		}
		if (!span_starts(body, "CPU:") && !span_find(body, "apicid=")) {
			/*
			 * rasdaemon ends its AMD bank description with a newline, so
			 * the rest of the record (cpu_type= ... apicid=) comes on the
			 * next line; "apicid=" is always printed, and last but a few.
			 */
			int k = text_begin(p, OPEN_RASDAEMON, have_time, log_time);

			if (k < 0)
				return k;
			p->rec = r;
			return 0;
		}
		ras_cpu_type(body, &r);
		return text_single(p, &r, have_time, log_time);
	}

	if (p->open == OPEN_RASDAEMON) {
		r = p->rec;
		if (text_ras_fields(p, s, &r, false) != KV_OK) {
			text_reject(p);
			return text_flush(p);
		}
		ras_cpu_type(s, &r);
		p->rec = r;
		p->last = p->line;
		if (span_find(s, "apicid="))
			return text_flush(p);
		return 0;
	}

	if (s.p[0] == '{') {
		char err[200];

		if (span_len(s) > JSON_LINE_MAX) {
			text_diag(p, MCE_TEXT_MALFORMED, p->line, "JSON line longer than %u bytes", JSON_LINE_MAX);
			return 0;
		}
		if (memchr(s.p, '\0', span_len(s))) {
			text_diag(p, MCE_TEXT_MALFORMED, p->line, "NUL byte in a JSON line");
			return 0;
		}
		if (mce_record_parse_json(s.p, span_len(s), &r, err, sizeof(err)) < 0) {
			text_diag(p, MCE_TEXT_MALFORMED, p->line, "%s", err);
			return 0;
		}
		return text_single(p, &r, have_time, log_time);
	}

	if (s.p[0] == '#')
		return 0;       /* mcelog input comments */

	if (looks_like_ras_mc_ctl(s)) {
		r = (struct mce_record) { 0 };
		if (text_ras_fields(p, s, &r, true) != KV_OK) {
			text_reject(p);
			return 0;
		}
		ras_mc_ctl_vendor(s, &r);
		return text_single(p, &r, have_time, log_time);
	}
	if (span_eq(s, "MCE events:") || span_eq(s, "No MCE errors."))
		return 0;       /* ras-mc-ctl --errors headings */
	if (span_starts(s, "mce: ") || span_starts(s, "EDAC ") || span_starts(s, "mce_notify_irq"))
		return 0;       /* kernel MCE/EDAC chatter that is not a record */

	return mcelog_line(p, s, prefixed);
}

int mce_text_parser_finish(struct mce_text_parser *p)
{
	if (p->stopped < 0)
		return p->stopped;
	return text_flush(p);
}
