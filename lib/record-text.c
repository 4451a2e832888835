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
 * Formats are read from the programs that print them (the kernel's
 * __print_mce() and TP_printk of include/trace/events/mce.h, the AMD EDAC
 * decoder, mcelog's ASCII input/output, rasdaemon and ras-mc-ctl); see
 * peers.md and kernel-interfaces.md for the field lists.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "macro.h"
#include "record-json.h"
#include "parse-number.h"
#include "record-text.h"
#include "rfc3339.h"

/* Our JSON lines are a few hundred bytes; refuse to hand megabytes to json-c. */
#define JSON_LINE_MAX (64u * 1024u)

/* ---- spans: a view on part of the line ---- */

struct span {
	const char *p;
	const char *end;
};

static size_t span_len(struct span s)
{
	return (size_t) (s.end - s.p);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static void span_skip_space(struct span *s)
{
	while (s->p < s->end && is_space(*s->p))
		s->p++;
}

static void span_trim(struct span *s)
{
	span_skip_space(s);
	while (s->end > s->p && is_space(s->end[-1]))
		s->end--;
}

static bool span_starts_n(struct span s, const char *lit, size_t n)
{
	return span_len(s) >= n && memcmp(s.p, lit, n) == 0;
}

static bool span_starts_case_n(struct span s, const char *lit, size_t n)
{
	return span_len(s) >= n && strncasecmp(s.p, lit, n) == 0 &&
	       memchr(s.p, '\0', n) == NULL;
}

/* Advance past lit if the span starts with it. */
static bool span_eat_n(struct span *s, const char *lit, size_t n)
{
	if (!span_starts_n(*s, lit, n))
		return false;
	s->p += n;
	return true;
}

static bool span_eq_n(struct span s, const char *lit, size_t n)
{
	return span_len(s) == n && memcmp(s.p, lit, n) == 0;
}

static bool span_eq_case_n(struct span s, const char *lit, size_t n)
{
	return span_len(s) == n && span_starts_case_n(s, lit, n);
}

/* First occurrence of lit in s, or NULL. */
static const char *span_find_n(struct span s, const char *lit, size_t n)
{
	if (n == 0)
		return s.p;
	while (span_len(s) >= n) {
		const char *c = memchr(s.p, lit[0], span_len(s) - n + 1);

		if (!c)
			return NULL;
		if (memcmp(c, lit, n) == 0)
			return c;
		s.p = c + 1;
	}
	return NULL;
}

/*
 * The helpers above take the literal's length; these pass strlen(lit),
 * which the compiler folds to a constant for the string literals almost
 * every call site uses (this is the per-line hot path).
 */
#define span_starts(s, lit)      span_starts_n((s), (lit), strlen(lit))
#define span_starts_case(s, lit) span_starts_case_n((s), (lit), strlen(lit))
#define span_eat(s, lit)         span_eat_n((s), (lit), strlen(lit))
#define span_eq(s, lit)          span_eq_n((s), (lit), strlen(lit))
#define span_eq_case(s, lit)     span_eq_case_n((s), (lit), strlen(lit))
#define span_find(s, lit)        span_find_n((s), (lit), strlen(lit))

/* The next white-space-delimited token; empty at the end. */
static struct span span_token(struct span *s)
{
	struct span t;

	span_skip_space(s);
	t.p = s->p;
	while (s->p < s->end && !is_space(*s->p))
		s->p++;
	t.end = s->p;
	return t;
}

/* Print a token into a diagnostic safely: bounded and without control bytes. */
static const char *span_show(struct span s, char *buf, size_t size)
{
	size_t n = 0;

	for (const char *c = s.p; c < s.end && n + 4 < size; c++)
		buf[n++] = ((unsigned char) *c < 0x20 || (unsigned char) *c >= 0x7f) ? '?' : *c;
	if (span_len(s) > n && n + 4 <= size) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

/* A whole token as an unsigned number (see parse_unsigned()). */
static int parse_num(struct span t, int base, uint64_t max, uint64_t *ret)
{
	return parse_unsigned(t.p, span_len(t), base, max, ret);
}

/* ---- the parser ---- */

enum form {
	FORM_NONE,
	FORM_KERNEL,          /* mce: [Hardware Error]: CPU n: Machine Check ... */
	FORM_EDAC,            /* [Hardware Error]: CPU:n (f:m:s) MCb_STATUS[...] */
	FORM_MCELOG,          /* CPU 0 BANK 4 / STATUS ... */
	FORM_MCELOG_DECODED,  /* mcelog's own output: "Hardware event. ..." block */
	FORM_RAS,             /* rasdaemon's mce_record line, split by a newline in its text */
};

struct mce_text_parser {
	struct mce_text_callbacks cb;
	void *userdata;
	unsigned line;
	enum mce_source source;
	int stopped;                  /* negative return of a callback: sticky */

	bool have_default;
	enum mce_vendor def_vendor;
	uint32_t def_family;
	uint32_t def_model;

	/* the record being assembled */
	enum form form;
	struct mce_record rec;
	unsigned first, last;
	bool have_log_time;           /* a dated log prefix on the record's first line */
	int64_t log_time_usec;

	char msg[256];
};

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

_printf_(4, 5)
static void diag(struct mce_text_parser *p, enum mce_text_diag kind, unsigned line,
		 const char *fmt, ...)
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

/* Hand one finished record to the caller, after the checks every form shares. */
static int emit(struct mce_text_parser *p, struct mce_record *r, unsigned first, unsigned last,
		bool have_log_time, int64_t log_time_usec)
{
	int k;

	if (!(r->have & MCE_HAVE_STATUS)) {
		diag(p, MCE_TEXT_PARTIAL, first,
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
		} else if (vendor_known)
			diag(p, MCE_TEXT_PARTIAL, first,
			     "record (lines %u-%u) has no CPU family/model: decoding architectural "
			     "fields only (give the CPU with --cpu-id)", first, last);
		else
			diag(p, MCE_TEXT_PARTIAL, first,
			     "record (lines %u-%u) has no CPU identity (vendor, family, model): "
			     "decoding architectural fields only (give the CPU with --cpu-id)",
			     first, last);
	}
	k = p->cb.record(r, first, last, p->userdata);
	if (k < 0)
		p->stopped = k;
	return k < 0 ? k : 0;
}

static int flush(struct mce_text_parser *p)
{
	int k;

	if (p->form == FORM_NONE)
		return 0;
	p->form = FORM_NONE;
	k = emit(p, &p->rec, p->first, p->last, p->have_log_time, p->log_time_usec);
	p->rec = (struct mce_record) { 0 };
	p->have_log_time = false;
	return k;
}

/* Begin a new multi-line record at the current line, ending the previous one. */
static int begin(struct mce_text_parser *p, enum form form, bool have_log_time, int64_t log_time)
{
	int k = flush(p);

	p->form = form;
	p->rec = (struct mce_record) { 0 };
	p->first = p->last = p->line;
	p->have_log_time = have_log_time;
	p->log_time_usec = log_time;
	return k;
}

/* ---- log prefixes ---- */

static const char *const months[] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
};

static bool eat_digits(struct span *s, size_t n, int *ret)
{
	int v = 0;

	if (span_len(*s) < n)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit(s->p[i]))
			return false;
		v = v * 10 + (s->p[i] - '0');
	}
	s->p += n;
	*ret = v;
	return true;
}

static void skip_fraction(struct span *s)
{
	if (s->p < s->end && *s->p == '.') {
		s->p++;
		while (s->p < s->end && is_digit(*s->p))
			s->p++;
	}
}

/* "host ident[pid]: " after a syslog or journalctl time stamp. */
static void skip_host_ident(struct span *s)
{
	struct span t = *s, host, ident;

	host = span_token(&t);
	ident = span_token(&t);
	if (span_len(host) == 0 || span_len(ident) < 2 || ident.end[-1] != ':' ||
	    host.p[0] == '[' || host.p[0] == '{')
		return;     /* "[Hardware Error]:" is a message, not "host ident:" */
	if (host.end[-1] == ':')      /* "Nov 20 10:00:01 kernel: ..." without a host */
		t.p = host.end;
	*s = t;
	span_skip_space(s);
}

/* Syslog / journalctl short and short-precise: "Nov 20 10:00:01[.123456] " */
static bool strip_syslog_time(struct span *s)
{
	struct span t = *s;
	int d, hh, mm, ss;
	bool month = false;

	for (size_t i = 0; i < ELEMENTSOF(months); i++)
		if (span_starts(t, months[i])) {
			month = true;
			break;
		}
	if (!month || span_len(t) < 4 || t.p[3] != ' ')
		return false;
	t.p += 4;
	if (t.p < t.end && *t.p == ' ')
		t.p++;
	if (!eat_digits(&t, 1, &d))
		return false;
	(void) eat_digits(&t, 1, &d);
	if (!span_eat(&t, " ") || !eat_digits(&t, 2, &hh) || !span_eat(&t, ":") ||
	    !eat_digits(&t, 2, &mm) || !span_eat(&t, ":") || !eat_digits(&t, 2, &ss))
		return false;
	skip_fraction(&t);
	if (t.p < t.end && *t.p != ' ')
		return false;
	span_skip_space(&t);
	*s = t;
	skip_host_ident(s);
	return true;
}

/*
 * journalctl short-iso / short-iso-precise: "2026-11-20T10:00:01+0100 " or
 * "...01.123456+01:00 ".  These carry the year and zone, so they give the
 * record a time when its own text has none (the EDAC form never does).
 */
static bool strip_iso_time(struct span *s, bool *have_time, int64_t *ret_usec)
{
	struct span t = *s;
	int y, mo, d, hh, mi, ss, usec = 0, off = 0;

	if (!eat_digits(&t, 4, &y) || !span_eat(&t, "-") || !eat_digits(&t, 2, &mo) ||
	    !span_eat(&t, "-") || !eat_digits(&t, 2, &d) || !span_eat(&t, "T") ||
	    !eat_digits(&t, 2, &hh) || !span_eat(&t, ":") || !eat_digits(&t, 2, &mi) ||
	    !span_eat(&t, ":") || !eat_digits(&t, 2, &ss))
		return false;
	if (span_eat(&t, ".")) {
		int n = 0;

		while (t.p < t.end && is_digit(*t.p)) {
			if (n < 6) {
				usec = usec * 10 + (*t.p - '0');
				n++;
			}
			t.p++;
		}
		for (; n < 6; n++)
			usec *= 10;
	}
	if (span_eat(&t, "Z"))
		off = 0;
	else if (t.p < t.end && (*t.p == '+' || *t.p == '-')) {
		int sign = *t.p == '+' ? 1 : -1, oh, om;

		t.p++;
		if (!eat_digits(&t, 2, &oh))
			return false;
		(void) span_eat(&t, ":");
		if (!eat_digits(&t, 2, &om))
			return false;
		off = sign * (oh * 3600 + om * 60);
	}
	if (t.p < t.end && *t.p != ' ')
		return false;
	span_skip_space(&t);
	*s = t;
	skip_host_ident(s);
	if (mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && hh < 24 && mi < 60 && ss <= 60) {
		int64_t secs = days_from_civil(y, (unsigned) mo, (unsigned) d) * 86400 +
			       hh * 3600 + mi * 60 + ss - off;

		*ret_usec = secs * 1000000 + usec;
		*have_time = true;
	}
	return true;
}

/* dmesg "[  123.456789] ", dmesg -T "[Mon Nov 20 10:00:01 2026] ", journalctl -o short-monotonic. */
static bool strip_bracket_time(struct span *s)
{
	struct span t = *s;
	bool digit = false;

	if (!span_eat(&t, "["))
		return false;
	for (size_t n = 0; t.p < t.end && *t.p != ']'; t.p++, n++) {
		char c = *t.p;

		if (n > 40 || !(is_digit(c) || is_alpha(c) || c == ' ' || c == '.' || c == ':'))
			return false;
		digit |= is_digit(c);
	}
	if (!digit || !span_eat(&t, "]"))
		return false;
	span_skip_space(&t);
	*s = t;
	/* journalctl -o short-monotonic: "[ 12.3] host kernel: " */
	{
		struct span u = *s, first = span_token(&u);

		if (span_len(first) > 0 && first.end[-1] != ':')
			skip_host_ident(s);
	}
	return true;
}

/*
 * Strip what loggers put in front of a message.  Returns whether there was
 * such a prefix: a prefixed line that is not a machine-check line is just
 * another log line, not garbage.
 */
static bool strip_log_prefix(struct span *s, bool *have_time, int64_t *ret_usec)
{
	bool any = false;

	/* "<4>" printk level, as in /dev/kmsg-style captures */
	if (span_len(*s) >= 3 && s->p[0] == '<' && is_digit(s->p[1]) && s->p[2] == '>') {
		s->p += 3;
		any = true;
	}
	if (strip_syslog_time(s) || strip_iso_time(s, have_time, ret_usec))
		any = true;
	if (strip_bracket_time(s))
		any = true;
	return any;
}

/* ---- KEY value lines: mcelog's format and the kernel's console lines ---- */

enum kv_result {
	KV_OK,            /* the line was read */
	KV_NOT_OURS,      /* the line does not start with a keyword */
	KV_BAD,           /* it does, but a value is wrong: message in p->msg */
};

_printf_(2, 3)
static enum kv_result kv_bad(struct mce_text_parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
	return KV_BAD;
}

struct kv_key {
	const char *name;
	uint32_t have;
	size_t offset;
	unsigned size;      /* bytes in struct mce_record */
	int base;           /* 16: hex with optional 0x, 10: decimal */
};

#define KV(n, h, f, b) { n, h, offsetof(struct mce_record, f), \
			 sizeof(((struct mce_record *) 0)->f), b }

/* Keywords that take one plain number.  Bases as mcelog reads and the kernel prints them. */
static const struct kv_key kv_keys[] = {
	KV("STATUS",    MCE_HAVE_STATUS,    status,    16),
	KV("MCGSTATUS", MCE_HAVE_MCGSTATUS, mcgstatus, 16),
	KV("ADDR",      MCE_HAVE_ADDR,      addr,      16),
	KV("MISC",      MCE_HAVE_MISC,      misc,      16),
	KV("TSC",       MCE_HAVE_TSC,       tsc,       16),
	KV("MCGCAP",    MCE_HAVE_MCGCAP,    mcgcap,    16),
	KV("APICID",    MCE_HAVE_APICID,    apicid,    16),
	KV("APIC",      MCE_HAVE_APICID,    apicid,    16),
	KV("SOCKETID",  MCE_HAVE_SOCKET,    socket,    10),
	KV("SOCKET",    MCE_HAVE_SOCKET,    socket,    10),
	KV("SYND",      MCE_HAVE_SYND,      synd,      16),
	KV("IPID",      MCE_HAVE_IPID,      ipid,      16),
	KV("PPIN",      MCE_HAVE_PPIN,      ppin,      16),
	KV("microcode", MCE_HAVE_MICROCODE, microcode, 16),
	KV("MICROCODE", MCE_HAVE_MICROCODE, microcode, 16),
	KV("BANK",      MCE_HAVE_BANK,      bank,      10),
};

static void store_field(struct mce_record *r, size_t offset, unsigned size, uint64_t v)
{
	char *dst = (char *) r + offset;

	if (size == 8)
		memcpy(dst, &v, 8);
	else if (size == 4) {
		uint32_t x = (uint32_t) v;
		memcpy(dst, &x, 4);
	} else {
		uint8_t x = (uint8_t) v;
		memcpy(dst, &x, 1);
	}
}

static uint64_t size_max(unsigned size)
{
	return size == 8 ? UINT64_MAX : size == 4 ? UINT32_MAX : UINT8_MAX;
}

static const struct kv_key *kv_lookup(struct span t)
{
	for (size_t i = 0; i < ELEMENTSOF(kv_keys); i++)
		if (span_eq(t, kv_keys[i].name))
			return &kv_keys[i];
	return NULL;
}

static bool is_weekday(struct span t)
{
	static const char *const days[] = { "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun" };

	for (size_t i = 0; i < ELEMENTSOF(days); i++)
		if (span_eq(t, days[i]))
			return true;
	return false;
}

static enum kv_result num_or_bad(struct mce_text_parser *p, const char *key, struct span v, int base,
				 uint64_t max, uint64_t *ret)
{
	char buf[48];
	int k;

	if (span_len(v) == 0)
		return kv_bad(p, "%s: value missing", key);
	k = parse_num(v, base, max, ret);
	if (k == -ERANGE)
		return kv_bad(p, "%s: value '%s' out of range", key, span_show(v, buf, sizeof(buf)));
	if (k < 0)
		return kv_bad(p, "%s: '%s' is not a %s number", key, span_show(v, buf, sizeof(buf)),
			      base == 16 ? "hexadecimal" : "decimal");
	return KV_OK;
}

/* "cs:<ip>" or "cs:ip", as "RIP 10:<ffffffff81000000> {sym}" and mcelog print it. */
static enum kv_result parse_rip(struct mce_text_parser *p, struct span v, struct mce_record *r)
{
	const char *colon = memchr(v.p, ':', span_len(v));
	struct span cs, ip;
	uint64_t c, i;

	if (!colon)
		return kv_bad(p, "RIP: expected CS:<IP>");
	cs = (struct span) { v.p, colon };
	ip = (struct span) { colon + 1, v.end };
	if (span_eat(&ip, "<")) {
		if (ip.p == ip.end || ip.end[-1] != '>')
			return kv_bad(p, "RIP: expected CS:<IP>");
		ip.end--;
	}
	if (num_or_bad(p, "RIP", cs, 16, UINT8_MAX, &c) != KV_OK ||
	    num_or_bad(p, "RIP", ip, 16, UINT64_MAX, &i) != KV_OK)
		return KV_BAD;
	r->cs = (uint8_t) c;
	r->ip = i;
	r->have |= MCE_HAVE_CS | MCE_HAVE_IP;
	return KV_OK;
}

/* "PROCESSOR vendor:cpuid": Linux's X86_VENDOR_* number and CPUID(1).EAX. */
static enum kv_result parse_processor(struct mce_text_parser *p, struct span v, struct mce_record *r)
{
	const char *colon = memchr(v.p, ':', span_len(v));
	uint64_t vendor, eax;

	if (!colon)
		return kv_bad(p, "PROCESSOR: expected VENDOR:CPUID");
	if (num_or_bad(p, "PROCESSOR vendor", (struct span) { v.p, colon }, 10, UINT32_MAX,
		       &vendor) != KV_OK ||
	    num_or_bad(p, "PROCESSOR cpuid", (struct span) { colon + 1, v.end }, 16, UINT32_MAX,
		       &eax) != KV_OK)
		return KV_BAD;
	r->vendor = mce_vendor_from_linux_x86((unsigned) vendor);
	r->have |= MCE_HAVE_VENDOR;
	mce_record_set_cpuid(r, (uint32_t) eax);
	return KV_OK;
}

/* "CPUID Vendor Intel Family 6 Model 143 Step 4", as mcelog prints it (decimal). */
static enum kv_result parse_cpuid_line(struct mce_text_parser *p, struct span *s, struct mce_record *r)
{
	struct span t = span_token(s), name;
	uint64_t family = 0, model = 0, step = 0;
	bool have_family = false, have_model = false;
	char buf[32];

	if (!span_eq(t, "Vendor"))
		return kv_bad(p, "CPUID: expected 'Vendor NAME Family N Model N'");
	name = span_token(s);
	for (;;) {
		struct span k = span_token(s), v;
		uint64_t *dst;

		if (span_len(k) == 0)
			break;
		if (span_eq(k, "Family")) {
			dst = &family;
			have_family = true;
		} else if (span_eq(k, "Model")) {
			dst = &model;
			have_model = true;
		} else if (span_eq(k, "Step") || span_eq(k, "Stepping"))
			dst = &step;
		else {
			/* more KEY value pairs may follow on the same line */
			s->p = k.p;
			break;
		}
		v = span_token(s);
		if (num_or_bad(p, "CPUID", v, 10, UINT32_MAX, dst) != KV_OK)
			return KV_BAD;
	}
	if (!have_family || !have_model)
		return kv_bad(p, "CPUID: Family and Model are required");
	if (span_len(name) >= 32)
		return kv_bad(p, "CPUID: vendor name too long");
	memcpy(buf, name.p, span_len(name));
	buf[span_len(name)] = '\0';
	r->vendor = mce_vendor_from_string(buf);
	r->have |= MCE_HAVE_VENDOR;
	r->family = (uint32_t) family;
	r->model = (uint32_t) model;
	r->stepping = (uint32_t) step;
	r->have |= MCE_HAVE_CPUID;
	return KV_OK;
}

/*
 * "CPU 3: Machine Check[ Exception]: MCGSTATUS Bank B: STATUS" (the kernel's
 * first line), "CPU 0 BANK 4" or "CPU 0 4" (mcelog).  *starts is set when the
 * line names a CPU, i.e. begins a record.
 */
static enum kv_result parse_cpu(struct mce_text_parser *p, struct span *s, struct mce_record *r,
				bool *kernel_form)
{
	struct span t = span_token(s), save;
	uint64_t cpu, v;

	if (span_len(t) > 1 && t.end[-1] == ':') {
		/* kernel form */
		struct span rest;

		t.end--;
		if (num_or_bad(p, "CPU", t, 10, UINT32_MAX, &cpu) != KV_OK)
			return KV_BAD;
		span_skip_space(s);
		if (!span_eat(s, "Machine Check"))
			return kv_bad(p, "expected 'CPU N: Machine Check: MCGSTATUS Bank B: STATUS'");
		(void) span_eat(s, " Exception");
		if (!span_eat(s, ":"))
			return kv_bad(p, "expected 'CPU N: Machine Check: MCGSTATUS Bank B: STATUS'");
		rest = *s;
		t = span_token(&rest);
		if (num_or_bad(p, "MCGSTATUS", t, 16, UINT64_MAX, &v) != KV_OK)
			return KV_BAD;
		r->mcgstatus = v;
		t = span_token(&rest);
		if (!span_eq(t, "Bank"))
			return kv_bad(p, "expected 'Bank B:' after MCGSTATUS");
		t = span_token(&rest);
		if (span_len(t) < 2 || t.end[-1] != ':')
			return kv_bad(p, "expected 'Bank B:' after MCGSTATUS");
		t.end--;
		if (num_or_bad(p, "Bank", t, 10, UINT32_MAX, &v) != KV_OK)
			return KV_BAD;
		r->bank = (uint32_t) v;
		t = span_token(&rest);
		if (num_or_bad(p, "STATUS", t, 16, UINT64_MAX, &v) != KV_OK)
			return KV_BAD;
		r->status = v;
		r->cpu = (uint32_t) cpu;
		r->have |= MCE_HAVE_CPU | MCE_HAVE_BANK | MCE_HAVE_STATUS | MCE_HAVE_MCGSTATUS;
		*s = rest;
		*kernel_form = true;
		return KV_OK;
	}
	if (num_or_bad(p, "CPU", t, 10, UINT32_MAX, &cpu) != KV_OK)
		return KV_BAD;
	r->cpu = (uint32_t) cpu;
	r->have |= MCE_HAVE_CPU;
	save = *s;
	t = span_token(s);
	if (span_eq(t, "BANK"))
		t = span_token(s);
	else if (!(span_len(t) > 0 && is_digit(t.p[0]))) {
		*s = save;          /* "CPU 0" alone, or followed by other pairs */
		return KV_OK;
	}
	if (num_or_bad(p, "BANK", t, 10, UINT32_MAX, &v) != KV_OK)
		return KV_BAD;
	r->bank = (uint32_t) v;
	r->have |= MCE_HAVE_BANK;
	return KV_OK;
}

/*
 * Read a line of KEY value pairs into *r (a copy of the record being
 * assembled; the caller commits it only when the whole line is good).
 * Flags tell the caller what kind of line it was.
 */
struct kv_line {
	bool names_cpu;       /* a CPU line: begins a record */
	bool kernel_first;    /* the kernel's "CPU n: Machine Check" line */
	bool processor;       /* a PROCESSOR line: the kernel's last line */
};

static enum kv_result parse_kv_line(struct mce_text_parser *p, struct span s, struct mce_record *r,
				    struct kv_line *info)
{
	bool first = true;
	char buf[48];

	*info = (struct kv_line) { 0 };
	for (;;) {
		struct span t = span_token(&s), v;
		const struct kv_key *k;
		enum kv_result res;
		uint64_t x;

		if (span_len(t) == 0)
			return KV_OK;
		if (first && span_eq(t, "CPU")) {
			res = parse_cpu(p, &s, r, &info->kernel_first);
			if (res != KV_OK)
				return res;
			info->names_cpu = true;
		} else if (span_eq(t, "RIP")) {
			struct span save = s;

			v = span_token(&s);
			if (span_eq(v, "!INEXACT!"))
				v = span_token(&s);
			else if (!memchr(v.p, ':', span_len(v)))
				s = save;
			res = parse_rip(p, v, r);
			if (res != KV_OK)
				return res;
			/* the kernel appends "{symbol+0x6/0x10}" */
			save = s;
			v = span_token(&s);
			if (span_len(v) > 0 && v.p[0] == '{') {
				const char *close = memchr(v.p, '}', span_len(s) + span_len(v));

				s.p = close ? close + 1 : s.end;
			} else
				s = save;
		} else if (span_eq(t, "PROCESSOR")) {
			res = parse_processor(p, span_token(&s), r);
			if (res != KV_OK)
				return res;
			info->processor = true;
		} else if (span_eq(t, "CPUID")) {
			res = parse_cpuid_line(p, &s, r);
			if (res != KV_OK)
				return res;
		} else if (span_eq(t, "TIME")) {
			if (num_or_bad(p, "TIME", span_token(&s), 10, INT64_MAX / 1000000, &x) != KV_OK)
				return KV_BAD;
			r->time_usec = (int64_t) x * 1000000;
			r->have |= MCE_HAVE_TIME;
			/* mcelog prints the date after the number: "TIME 1700000000 Mon Nov 20 ..." */
			{
				struct span u = s, w = span_token(&u);

				if (is_weekday(w))
					s.p = s.end;
			}
		} else if ((k = kv_lookup(t))) {
			v = span_token(&s);
			if (num_or_bad(p, k->name, v, k->base, size_max(k->size), &x) != KV_OK)
				return KV_BAD;
			store_field(r, k->offset, k->size, x);
			r->have |= k->have;
		} else if (first)
			return KV_NOT_OURS;
		else
			return kv_bad(p, "unknown key '%s'", span_show(t, buf, sizeof(buf)));
		first = false;
	}
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
	if (num_or_bad(p, "CPU", t, 10, UINT32_MAX, &cpu) != KV_OK)
		return KV_BAD;
	span_skip_space(&s);
	if (!span_eat(&s, "("))
		return kv_bad(p, "expected '(FAMILY:MODEL:STEPPING)' after the CPU number");
	c = memchr(s.p, ')', span_len(s));
	if (!c)
		return kv_bad(p, "expected '(FAMILY:MODEL:STEPPING)' after the CPU number");
	{
		struct span tuple = { s.p, c }, f, m;
		const char *c1 = memchr(tuple.p, ':', span_len(tuple)), *c2;

		if (!c1 || !(c2 = memchr(c1 + 1, ':', (size_t) (tuple.end - c1 - 1))))
			return kv_bad(p, "expected '(FAMILY:MODEL:STEPPING)' after the CPU number");
		f = (struct span) { tuple.p, c1 };
		m = (struct span) { c1 + 1, c2 };
		if (num_or_bad(p, "family", f, 16, UINT32_MAX, &fam) != KV_OK ||
		    num_or_bad(p, "model", m, 16, UINT32_MAX, &model) != KV_OK ||
		    num_or_bad(p, "stepping", (struct span) { c2 + 1, tuple.end }, 16, UINT32_MAX,
			       &step) != KV_OK)
			return KV_BAD;
	}
	s.p = c + 1;
	span_skip_space(&s);
	if (!span_eat(&s, "MC"))
		return kv_bad(p, "expected 'MCn_STATUS' after the CPU identity");
	t.p = s.p;
	while (s.p < s.end && is_digit(*s.p))
		s.p++;
	t.end = s.p;
	if (num_or_bad(p, "bank", t, 10, UINT32_MAX, &bank) != KV_OK)
		return KV_BAD;
	if (!span_eat(&s, "_STATUS"))
		return kv_bad(p, "expected 'MCn_STATUS' after the CPU identity");
	/* the bracketed flag names are decoded text; the register follows "]: " */
	c = memchr(s.p, ':', span_len(s));
	if (!c)
		return kv_bad(p, "MC%" PRIu64 "_STATUS: value missing", bank);
	s.p = c + 1;
	t = span_token(&s);
	if (num_or_bad(p, "STATUS", t, 16, UINT64_MAX, &status) != KV_OK)
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
	static const struct { const char *name; uint32_t have; size_t off; } regs[] = {
		{ "Error Addr", MCE_HAVE_ADDR, offsetof(struct mce_record, addr) },
		{ "IPID",       MCE_HAVE_IPID, offsetof(struct mce_record, ipid) },
		{ "Syndrome",   MCE_HAVE_SYND, offsetof(struct mce_record, synd) },
		{ "PPIN",       MCE_HAVE_PPIN, offsetof(struct mce_record, ppin) },
	};

	while (span_len(s) > 0) {
		const char *comma = memchr(s.p, ',', span_len(s)), *colon;
		struct span item = { s.p, comma ? comma : s.end }, key, val;
		size_t i;
		uint64_t v;

		s.p = comma ? comma + 1 : s.end;
		colon = memchr(item.p, ':', span_len(item));
		if (!colon)
			continue;
		key = (struct span) { item.p, colon };
		val = (struct span) { colon + 1, item.end };
		span_trim(&key);
		span_trim(&val);
		for (i = 0; i < ELEMENTSOF(regs); i++)
			if (span_eq(key, regs[i].name))
				break;
		if (i == ELEMENTSOF(regs))
			continue;       /* "Syndrome1:", newer additions: decoded elsewhere */
		if (num_or_bad(p, regs[i].name, val, 16, UINT64_MAX, &v) != KV_OK)
			return KV_BAD;
		store_field(r, regs[i].off, 8, v);
		r->have |= regs[i].have;
	}
	return KV_OK;
}

/* Kernel lines that belong to no record and must not be mistaken for garbage. */
static bool is_kernel_noise(struct span s)
{
	static const char *const noise[] = {
		"Machine check events logged",
		"Run the above through",
		"Machine check: ",
		"Kernel panic",
		"Some CPUs didn't answer",
		"Timeout: Not all CPUs",
		"Hardware error from APEI",
		"event severity:",
		"Error ",                  /* APEI/CPER sections: " Error 0, type: corrected" */
		"section_type:",
		"MCE records pool",
		"Fake kernel panic",
	};

	for (size_t i = 0; i < ELEMENTSOF(noise); i++)
		if (span_starts(s, noise[i]))
			return true;
	return span_find(s, "Machine check events logged") != NULL;
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

	span_trim(&s);
	if (span_starts(s, "CPU:")) {
		/* EDAC: a severity line may have opened this record already */
		if (!(p->form == FORM_EDAC && !(p->rec.have & MCE_HAVE_STATUS))) {
			k = begin(p, FORM_EDAC, have_time, log_time);
			if (k < 0)
				return k;
		}
		r = p->rec;
		if (parse_edac_status(p, s, &r) != KV_OK) {
			diag(p, MCE_TEXT_MALFORMED, p->line, "%s", p->msg);
			return 0;
		}
		p->rec = r;
		p->last = p->line;
		return 0;
	}
	if (is_edac_severity(s))
		return begin(p, FORM_EDAC, have_time, log_time);
	if (span_starts(s, "Error Addr:") || span_starts(s, "IPID:") || span_starts(s, "PPIN:")) {
		if (p->form != FORM_EDAC && (k = begin(p, FORM_EDAC, have_time, log_time)) < 0)
			return k;
		r = p->rec;
		if (parse_edac_regs(p, s, &r) != KV_OK) {
			diag(p, MCE_TEXT_MALFORMED, p->line, "%s", p->msg);
			return 0;
		}
		p->rec = r;
		p->last = p->line;
		return 0;
	}
	if (p->form == FORM_EDAC && (span_starts(s, "cache level:") || span_starts(s, "bus error"))) {
		/* the decoder's last line: the record is complete */
		p->last = p->line;
		return flush(p);
	}
	if (is_kernel_noise(s))
		return 0;

	r = p->form == FORM_KERNEL ? p->rec : (struct mce_record) { 0 };
	res = parse_kv_line(p, s, &r, &info);
	if (res == KV_NOT_OURS) {
		/* decoded text (EDAC bank descriptions and the like) */
		if (p->form == FORM_EDAC)
			p->last = p->line;
		return 0;
	}
	if (res == KV_BAD) {
		diag(p, MCE_TEXT_MALFORMED, p->line, "%s", p->msg);
		return 0;
	}
	if (info.names_cpu || p->form != FORM_KERNEL) {
		k = begin(p, FORM_KERNEL, have_time, log_time);
		if (k < 0)
			return k;
		if (!info.names_cpu) {
			/* a continuation line whose first line we never saw */
			r = (struct mce_record) { 0 };
			(void) parse_kv_line(p, s, &r, &info);
		}
	}
	p->rec = r;
	p->last = p->line;
	if (info.processor)
		return flush(p);     /* the kernel's last line of a record */
	return 0;
}

/* A line of mcelog's format (or kernel console lines copied without their prefix). */
static int mcelog_line(struct mce_text_parser *p, struct span s, bool prefixed)
{
	struct mce_record r;
	struct kv_line info;
	enum kv_result res;
	int k;
	bool decoded = p->form == FORM_MCELOG_DECODED;

	if (span_starts(s, "Hardware event. This is not a software error"))
		return begin(p, FORM_MCELOG_DECODED, false, 0);

	r = (p->form == FORM_MCELOG || decoded || p->form == FORM_KERNEL) ? p->rec
									     : (struct mce_record) { 0 };
	res = parse_kv_line(p, s, &r, &info);
	if (res == KV_NOT_OURS) {
		if (decoded || prefixed || is_kernel_noise(s) || span_starts(s, "mcelog:") ||
		    span_starts(s, "Running trigger"))
			return 0;       /* mcelog's decoded text, or another log line */
		{
			char buf[64];

			diag(p, MCE_TEXT_UNKNOWN, p->line, "not a machine-check record line: '%s'",
			     span_show(s, buf, sizeof(buf)));
		}
		return 0;
	}
	if (res == KV_BAD) {
		/* In mcelog's decoded output a keyword may start free text; don't judge it. */
		if (!decoded)
			diag(p, MCE_TEXT_MALFORMED, p->line, "%s", p->msg);
		return 0;
	}
	if (info.names_cpu) {
		bool same = decoded && !(p->rec.have & (MCE_HAVE_CPU | MCE_HAVE_BANK));

		/* a new CPU line ends the previous record (mcelog would merge them) */
		if (!same) {
			enum form f = info.kernel_first ? FORM_KERNEL : FORM_MCELOG;
			struct mce_record keep = r;

			if (p->form != FORM_NONE) {
				/* r was built on top of the old record: rebuild from scratch */
				keep = (struct mce_record) { 0 };
				(void) parse_kv_line(p, s, &keep, &info);
			}
			if ((k = begin(p, f, false, 0)) < 0)
				return k;
			r = keep;
		}
	} else if (p->form == FORM_NONE) {
		if ((k = begin(p, FORM_MCELOG, false, 0)) < 0)
			return k;
	}
	p->rec = r;
	p->last = p->line;
	if (info.processor && p->form == FORM_KERNEL)
		return flush(p);
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
			return kv_bad(p, "expected 'Key: value', got '%s'", span_show(item, buf, sizeof(buf)));
		key = (struct span) { item.p, colon };
		val = (struct span) { colon + 1, item.end };
		span_trim(&key);
		span_trim(&val);

		if (span_eq_case(key, "vendor data"))
			break;      /* newest kernels: an array with commas of its own, last */
		if (span_eq(key, "CPU")) {
			if (num_or_bad(p, "CPU", val, 10, UINT32_MAX, &v) != KV_OK)
				return KV_BAD;
			r->cpu = (uint32_t) v;
			r->have |= MCE_HAVE_CPU;
		} else if (span_eq(key, "MCGc/s")) {
			const char *slash = memchr(val.p, '/', span_len(val));

			if (!slash)
				return kv_bad(p, "MCGc/s: expected MCGCAP/MCGSTATUS");
			if (num_or_bad(p, "MCGCAP", (struct span) { val.p, slash }, 16, UINT64_MAX,
				       &r->mcgcap) != KV_OK ||
			    num_or_bad(p, "MCGSTATUS", (struct span) { slash + 1, val.end }, 16,
				       UINT64_MAX, &r->mcgstatus) != KV_OK)
				return KV_BAD;
			r->have |= MCE_HAVE_MCGCAP | MCE_HAVE_MCGSTATUS;
		} else if (span_len(key) > 2 && key.p[0] == 'M' && key.p[1] == 'C' && is_digit(key.p[2])) {
			if (num_or_bad(p, "bank", (struct span) { key.p + 2, key.end }, 10, UINT32_MAX,
				       &v) != KV_OK)
				return KV_BAD;
			r->bank = (uint32_t) v;
			if (num_or_bad(p, "STATUS", val, 16, UINT64_MAX, &r->status) != KV_OK)
				return KV_BAD;
			r->have |= MCE_HAVE_BANK | MCE_HAVE_STATUS;
		} else if (span_eq(key, "ADDR/MISC/SYND") || span_eq(key, "ADDR/MISC")) {
			uint64_t *dst[3] = { &r->addr, &r->misc, &r->synd };
			const uint32_t bits[3] = { MCE_HAVE_ADDR, MCE_HAVE_MISC, MCE_HAVE_SYND };
			unsigned n = span_eq(key, "ADDR/MISC") ? 2 : 3;

			for (unsigned i = 0; i < n; i++) {
				const char *slash = i + 1 < n ? memchr(val.p, '/', span_len(val)) : val.end;

				if (!slash)
					return kv_bad(p, "%.*s: expected %u values separated by '/'",
						      (int) span_len(key), key.p, n);
				if (num_or_bad(p, "ADDR/MISC/SYND", (struct span) { val.p, slash }, 16,
					       UINT64_MAX, dst[i]) != KV_OK)
					return KV_BAD;
				r->have |= bits[i];
				val.p = slash < val.end ? slash + 1 : val.end;
			}
		} else if (span_eq(key, "RIP")) {
			if (parse_rip(p, val, r) != KV_OK)
				return KV_BAD;
		} else if (span_eq_case(key, "vendor")) {
			if (num_or_bad(p, "vendor", val, 10, UINT32_MAX, &v) != KV_OK)
				return KV_BAD;
			r->vendor = mce_vendor_from_linux_x86((unsigned) v);
			r->have |= MCE_HAVE_VENDOR;
		} else if (span_eq(key, "CPUID")) {
			if (num_or_bad(p, "CPUID", val, 16, UINT32_MAX, &v) != KV_OK)
				return KV_BAD;
			mce_record_set_cpuid(r, (uint32_t) v);
		} else if (span_eq_case(key, "PROCESSOR")) {
			if (parse_processor(p, val, r) != KV_OK)
				return KV_BAD;
		} else if (span_eq_case(key, "time")) {
			if (num_or_bad(p, "time", val, 10, INT64_MAX / 1000000, &v) != KV_OK)
				return KV_BAD;
			r->time_usec = (int64_t) v * 1000000;
			r->have |= MCE_HAVE_TIME;
		} else if (span_eq_case(key, "socket")) {
			if (num_or_bad(p, "socket", val, 10, UINT32_MAX, &v) != KV_OK)
				return KV_BAD;
			r->socket = (uint32_t) v;
			r->have |= MCE_HAVE_SOCKET;
		} else if (span_eq_case(key, "MICROCODE REVISION")) {
			if (num_or_bad(p, "microcode", val, 10, UINT32_MAX, &v) != KV_OK)
				return KV_BAD;
			r->microcode = (uint32_t) v;
			r->have |= MCE_HAVE_MICROCODE;
		} else {
			static const struct kv_key hex[] = {
				KV("IPID", MCE_HAVE_IPID, ipid, 16),
				KV("ADDR", MCE_HAVE_ADDR, addr, 16),
				KV("MISC", MCE_HAVE_MISC, misc, 16),
				KV("SYND", MCE_HAVE_SYND, synd, 16),
				KV("TSC", MCE_HAVE_TSC, tsc, 16),
				KV("PPIN", MCE_HAVE_PPIN, ppin, 16),
				KV("APIC", MCE_HAVE_APICID, apicid, 16),
				KV("microcode", MCE_HAVE_MICROCODE, microcode, 16),
			};
			size_t i;

			for (i = 0; i < ELEMENTSOF(hex); i++)
				if (span_eq_case(key, hex[i].name))
					break;
			if (i == ELEMENTSOF(hex))
				continue;       /* a field newer than us: not a reason to reject */
			if (num_or_bad(p, hex[i].name, val, 16, size_max(hex[i].size), &v) != KV_OK)
				return KV_BAD;
			store_field(r, hex[i].offset, hex[i].size, v);
			r->have |= hex[i].have;
		}
	}
	if (!(r->have & MCE_HAVE_STATUS))
		return kv_bad(p, "mce_record line without 'MCn: STATUS'");
	return KV_OK;
}

/*
 * rasdaemon's printout of an mce_record event and ras-mc-ctl --errors lines:
 * "..., status= 9c2040000000011b, ..., cpu= 2, socketid= 0, misc= ..., addr= ...,
 *  synd= ..., ipid= ..., mcgstatus= 0, mcgcap= ..., apicid= 4" (rasdaemon, bare hex,
 * cpu and socketid decimal, AMD bank as "(bank=17)" in decimal), and
 * "1 2024-... error: ..., mcgstatus=0x..., status=0x..., ..., cpu=0x00000002,
 *  cpuid=0x00a20f10, ..., bank=0x00000005" (ras-mc-ctl, all 0x-hex).
 * The values follow "key=" or "key= "; free text between them is decoded text.
 */
struct ras_key {
	const char *name;
	uint32_t have;
	size_t offset;
	unsigned size;
	int base;
};

#define RK(n, h, f, b) { n, h, offsetof(struct mce_record, f), sizeof(((struct mce_record *) 0)->f), b }

static const struct ras_key ras_keys[] = {
	RK("status",    MCE_HAVE_STATUS,    status,    16),
	RK("mcgstatus", MCE_HAVE_MCGSTATUS, mcgstatus, 16),
	RK("mcgcap",    MCE_HAVE_MCGCAP,    mcgcap,    16),
	RK("addr",      MCE_HAVE_ADDR,      addr,      16),
	RK("misc",      MCE_HAVE_MISC,      misc,      16),
	RK("synd",      MCE_HAVE_SYND,      synd,      16),
	RK("ipid",      MCE_HAVE_IPID,      ipid,      16),
	RK("ip",        MCE_HAVE_IP,        ip,        16),
	RK("tsc",       MCE_HAVE_TSC,       tsc,       16),
	RK("ppin",      MCE_HAVE_PPIN,      ppin,      16),
	RK("cs",        MCE_HAVE_CS,        cs,        16),
	RK("cpu",       MCE_HAVE_CPU,       cpu,       0),
	RK("socketid",  MCE_HAVE_SOCKET,    socket,    0),
	RK("apicid",    MCE_HAVE_APICID,    apicid,    16),
	RK("microcode", MCE_HAVE_MICROCODE, microcode, 16),
	RK("bank",      MCE_HAVE_BANK,      bank,      16),
};

static enum kv_result parse_ras(struct mce_text_parser *p, struct span s, struct mce_record *r,
				bool mc_ctl)
{
	uint64_t walltime = 0, cpuid = 0;
	bool have_walltime = false, have_cpuid = false;

	for (const char *eq; (eq = memchr(s.p, '=', span_len(s))); ) {
		struct span key = { eq, eq }, val;
		const struct ras_key *k = NULL;
		bool in_paren;
		uint64_t v;
		int base;

		while (key.p > s.p && (is_alpha(key.p[-1]) || key.p[-1] == '_'))
			key.p--;
		in_paren = key.p > s.p && key.p[-1] == '(';
		s.p = eq + 1;
		val.p = s.p;
		while (val.p < s.end && *val.p == ' ')
			val.p++;
		val.end = val.p;
		while (val.end < s.end && (is_alpha(*val.end) || is_digit(*val.end)))
			val.end++;
		s.p = val.end;

		if (span_eq(key, "walltime") || span_eq(key, "cpuid")) {
			if (num_or_bad(p, "cpuid", val, 16, span_eq(key, "cpuid") ? UINT32_MAX : UINT64_MAX,
				       &v) != KV_OK)
				return KV_BAD;
			if (span_eq(key, "cpuid")) {
				cpuid = v;
				have_cpuid = true;
			} else {
				walltime = v;
				have_walltime = true;
			}
			continue;
		}
		for (size_t i = 0; i < ELEMENTSOF(ras_keys); i++)
			if (span_eq(key, ras_keys[i].name)) {
				k = &ras_keys[i];
				break;
			}
		if (!k)
			continue;       /* mci=, mca=, ... are rasdaemon's decoded text */
		base = k->base;
		if (in_paren)
			base = 10;      /* AMD bank names: "Load Store Unit (bank=0)" */
		if (num_or_bad(p, k->name, val, base, size_max(k->size), &v) != KV_OK)
			return KV_BAD;
		store_field(r, k->offset, k->size, v);
		r->have |= k->have;
	}
	if (!(r->have & MCE_HAVE_STATUS))
		return kv_bad(p, "rasdaemon record without 'status='");
	if (have_cpuid)
		mce_record_set_cpuid(r, (uint32_t) cpuid);
	if (have_walltime && walltime <= INT64_MAX / 1000000 && walltime > 0) {
		r->time_usec = (int64_t) walltime * 1000000;
		r->have |= MCE_HAVE_TIME;
	}
	if (mc_ctl)
		/*
		 * ras-mc-ctl prints a column only when it is non-zero, so in this
		 * form an absent column is a known zero, not an unknown value.
		 */
		r->have |= MCE_HAVE_CPU | MCE_HAVE_BANK | MCE_HAVE_SOCKET | MCE_HAVE_APICID |
			   MCE_HAVE_MCGSTATUS;
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
		if (parse_num(t, 10, UINT32_MAX, &v) < 0)
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

/* One complete record on one line: emit it, after ending any multi-line record. */
static int single_line(struct mce_text_parser *p, struct mce_record *r, bool have_time, int64_t t)
{
	int k = flush(p);

	if (k < 0)
		return k;
	return emit(p, r, p->line, p->line, have_time, t);
}

static bool looks_like_ras_mc_ctl(struct span s)
{
	/* "<id> <date> <time> <zone> error: ..., status=0x..." */
	return s.p < s.end && is_digit(*s.p) && span_find(s, " error: ") && span_find(s, "status=");
}

int mce_text_parser_feed(struct mce_text_parser *p, const char *line, size_t len)
{
	struct span s = { line, line + len };
	struct mce_record r;
	bool prefixed, have_time = false;
	int64_t log_time = 0;
	const char *m;

	if (p->stopped < 0)
		return p->stopped;
	p->line++;
	span_trim(&s);
	if (span_len(s) == 0)
		return flush(p);     /* a blank line ends a record */

	prefixed = strip_log_prefix(&s, &have_time, &log_time);
	if (span_len(s) == 0)
		return 0;       /* a log line with an empty message */

	if ((m = span_find(s, "[Hardware Error]:")))
		return kernel_line(p, (struct span) { m + 17, s.end }, have_time, log_time);

	if ((m = span_find(s, "mce_record:"))) {
		struct span body = { m + 11, s.end };
		enum kv_result res;

		span_skip_space(&body);
		r = (struct mce_record) { 0 };
		if (span_starts(body, "CPU:"))
			res = parse_trace(p, body, &r);
		else
			res = parse_ras(p, body, &r, false);
		if (res != KV_OK) {
			diag(p, MCE_TEXT_MALFORMED, p->line, "%s", p->msg);
			return 0;
		}
		if (!span_starts(body, "CPU:") && !span_find(body, "apicid=")) {
			/*
			 * rasdaemon ends its AMD bank description with a newline, so
			 * the rest of the record (cpu_type= ... apicid=) comes on the
			 * next line; "apicid=" is always printed, and last but a few.
			 */
			int k = begin(p, FORM_RAS, have_time, log_time);

			if (k < 0)
				return k;
			p->rec = r;
			return 0;
		}
		ras_cpu_type(body, &r);
		return single_line(p, &r, have_time, log_time);
	}

	if (p->form == FORM_RAS) {
		r = p->rec;
		if (parse_ras(p, s, &r, false) != KV_OK) {
			diag(p, MCE_TEXT_MALFORMED, p->line, "%s", p->msg);
			return flush(p);
		}
		ras_cpu_type(s, &r);
		p->rec = r;
		p->last = p->line;
		if (span_find(s, "apicid="))
			return flush(p);
		return 0;
	}

	if (s.p[0] == '{') {
		char err[200];

		if (span_len(s) > JSON_LINE_MAX) {
			diag(p, MCE_TEXT_MALFORMED, p->line, "JSON line longer than %u bytes", JSON_LINE_MAX);
			return 0;
		}
		if (memchr(s.p, '\0', span_len(s))) {
			diag(p, MCE_TEXT_MALFORMED, p->line, "NUL byte in a JSON line");
			return 0;
		}
		if (mce_record_parse_json(s.p, span_len(s), &r, err, sizeof(err)) < 0) {
			diag(p, MCE_TEXT_MALFORMED, p->line, "%s", err);
			return 0;
		}
		return single_line(p, &r, have_time, log_time);
	}

	if (s.p[0] == '#')
		return 0;       /* mcelog input comments */

	if (looks_like_ras_mc_ctl(s)) {
		r = (struct mce_record) { 0 };
		if (parse_ras(p, s, &r, true) != KV_OK) {
			diag(p, MCE_TEXT_MALFORMED, p->line, "%s", p->msg);
			return 0;
		}
		ras_mc_ctl_vendor(s, &r);
		return single_line(p, &r, have_time, log_time);
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
	return flush(p);
}
