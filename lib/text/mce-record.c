/* SPDX-License-Identifier: MIT */
/*
 * The mce_record tracepoint's text, marked "mce_record:", as the kernel
 * prints it (trace_pipe, perf script) and as rasdaemon does.
 */
#include "forms.h"

#define MARK "mce_record:"

enum mce_record_line {
	TRACE = 1,            /* the kernel's TP_printk: one line, one record */
	RASDAEMON,            /* rasdaemon's: a record, or its first line */
	RASDAEMON_MORE,       /* the rest of a rasdaemon record */
};

/*
 * The vendor data as __print_array() prints a u8 array (kernel/trace/
 * trace_output.c trace_print_array_seq): "{0x41,0x4d,0x0}", each byte "0x%x".
 * An array that is not that, or on AMD too short for MCA_SYND1 and
 * MCA_SYND2, is said (its line named), and costs the record only those two.
 */
#define VENDOR_DATA_MAX 64

static void text_vendor_data(struct mce_text_parser *p, struct span s, struct mce_record *r)
{
	unsigned char bytes[VENDOR_DATA_MAX];
	size_t n = 0;
	uint64_t v;

	span_trim(&s);
	if (span_len(s) < 2 || s.p[0] != '{' || s.end[-1] != '}') {
		(void) text_reject_with(p, "vendor data: expected '{0x..,0x..}'; record kept without it");
		return;
	}
	s.p++;
	s.end--;
	while (span_len(s) > 0) {
		const char *comma = memchr(s.p, ',', span_len(s));
		struct span item = { s.p, comma ? comma : s.end };

		s.p = comma ? comma + 1 : s.end;
		span_trim(&item);
		if (n >= sizeof(bytes)) {
			(void) text_reject_with(p, "vendor data: more than %d bytes; record kept without it",
						VENDOR_DATA_MAX);
			return;
		}
		if (text_num(p, "vendor data byte", item, 16, UINT8_MAX, &v) != KV_OK) {
			text_reject(p);
			return;
		}
		bytes[n++] = (unsigned char) v;
	}
	if (mce_record_set_vendor_data(r, bytes, n) < 0)
		(void) text_reject_with(p, "vendor data: %zu bytes, fewer than MCA_SYND1 and MCA_SYND2 take "
					"(16); record kept without them", n);
}

/*
 * The kernel's: "mce_record: CPU: 0, MCGc/s: 0/0, MC5: 9c2040000000011b,
 * IPID: ..., ADDR: ..., MISC: ..., SYND: ..., RIP: 00:<0>, TSC: ..., PPIN: ...,
 * vendor: 2, CPUID: a20f10, time: 1700000000, socket: 0, APIC: 6, microcode: a201016"
 * and, from 6.13, ", vendor data: {0x..,...}" (AMD's MCA_SYND1 and MCA_SYND2).
 * Older kernels print "ADDR/MISC/SYND: a/b/c" and "PROCESSOR: 2:a20f10".
 */
static enum kv_result parse_trace(struct mce_text_parser *p, struct span s, struct mce_record *r)
{
	static const struct text_field hex[] = {
		TEXT_FIELD("IPID",      MCE_HAVE_IPID,      ipid,      16),
		TEXT_FIELD("ADDR",      MCE_HAVE_ADDR,      addr,      16),
		TEXT_FIELD("MISC",      MCE_HAVE_MISC,      misc,      16),
		TEXT_FIELD("SYND",      MCE_HAVE_SYND,      synd,      16),
		TEXT_FIELD("TSC",       MCE_HAVE_TSC,       tsc,       16),
		TEXT_FIELD("PPIN",      MCE_HAVE_PPIN,      ppin,      16),
		TEXT_FIELD("APIC",      MCE_HAVE_APICID,    apicid,    16),
		TEXT_FIELD("microcode", MCE_HAVE_MICROCODE, microcode, 16),
	};
	char buf[48];

	while (span_len(s) > 0) {
		const char *comma = memchr(s.p, ',', span_len(s)), *colon;
		struct span item = { s.p, comma ? comma : s.end }, key, val;
		const struct text_field *f;
		uint64_t v;

		s.p = comma ? comma + 1 : s.end;
		span_trim(&item);
		if (span_len(item) == 0)
			continue;
		colon = memchr(item.p, ':', span_len(item));
		if (!colon)
			return text_bad(p, "expected 'Key: value', got '%s'",
					span_show(item, buf, sizeof(buf)));
		key = (struct span) { item.p, colon };
		val = (struct span) { colon + 1, item.end };
		span_trim(&key);
		span_trim(&val);

		if (span_eq_case(key, "vendor data")) {
			/* 6.13 and later: an array with commas of its own, last */
			text_vendor_data(p, (struct span) { colon + 1, s.end }, r);
			break;
		}
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
			f = text_field_find(hex, ELEMENTSOF(hex), key, true);
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

unsigned text_mce_record_recognise(const struct mce_text_parser *p, const struct text_line *l,
				   struct span *body)
{
	const char *m = span_find(l->msg, MARK);

	if (m) {
		*body = (struct span) { m + strlen(MARK), l->msg.end };
		span_skip_space(body);
		return span_starts(*body, "CPU:") ? TRACE : RASDAEMON;
	}
	/* rasdaemon's continuation line has no mark: its record being open is all there is */
	return p->open == OPEN_RASDAEMON ? RASDAEMON_MORE : 0;
}

int text_mce_record_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
			  struct span body)
{
	struct text_ras_marks marks;
	struct mce_record r;
	enum kv_result res;
	int k;

	if (kind == RASDAEMON_MORE) {
		r = p->rec;
		if (text_ras_fields(p, body, &r, false, &marks) != KV_OK) {
			text_reject(p);
			return text_flush(p);
		}
		text_ras_cpu_type(&marks, &r);
		p->rec = r;
		p->last = p->line;
		if (marks.apicid)
			return text_flush(p);
		return 0;
	}

	r = (struct mce_record) { 0 };
	if (kind == TRACE) {
		res = parse_trace(p, body, &r);
		if (res == KV_OK)
			text_ras_marks_find(body, &marks);
	} else
		res = text_ras_fields(p, body, &r, false, &marks);
	if (res != KV_OK) {
		text_reject(p);
		return 0;
	}
	if (kind == RASDAEMON && !marks.apicid) {
		/*
		 * rasdaemon ends its AMD bank description with a newline, so
		 * the rest of the record (cpu_type= ... apicid=) comes on the
		 * next line; "apicid=" is always printed, and last but a few.
		 */
		k = text_begin(p, OPEN_RASDAEMON, l->have_time, l->time_usec);
		if (k < 0)
			return k;
		p->rec = r;
		return 0;
	}
	text_ras_cpu_type(&marks, &r);
	return text_single(p, &r, l->have_time, l->time_usec);
}
