/* SPDX-License-Identifier: MIT */
/*
 * "key=value" fields, as rasdaemon prints an mce_record event and
 * ras-mc-ctl --errors prints what rasdaemon stored:
 *
 *   "..., status= 9c2040000000011b, ..., cpu= 2, socketid= 0, misc= ..., addr= ...,
 *    synd= ..., ipid= ..., mcgstatus= 0, mcgcap= ..., apicid= 4"
 *
 * (rasdaemon: bare hex, cpu and socketid decimal, an AMD bank as "(bank=17)"
 * in decimal), and
 *
 *   "1 2024-... error: ..., mcgstatus=0x..., status=0x..., ..., cpu=0x00000002,
 *    cpuid=0x00a20f10, ..., bank=0x00000005"
 *
 * (ras-mc-ctl, all 0x-hex).  The values follow "key=" or "key= "; free text
 * between them is decoded text.
 */
#include "scanner.h"

static const struct text_field ras_keys[] = {
	TEXT_FIELD("status",    MCE_HAVE_STATUS,    status,    16),
	TEXT_FIELD("mcgstatus", MCE_HAVE_MCGSTATUS, mcgstatus, 16),
	TEXT_FIELD("mcgcap",    MCE_HAVE_MCGCAP,    mcgcap,    16),
	TEXT_FIELD("addr",      MCE_HAVE_ADDR,      addr,      16),
	TEXT_FIELD("misc",      MCE_HAVE_MISC,      misc,      16),
	TEXT_FIELD("synd",      MCE_HAVE_SYND,      synd,      16),
	TEXT_FIELD("ipid",      MCE_HAVE_IPID,      ipid,      16),
	TEXT_FIELD("ip",        MCE_HAVE_IP,        ip,        16),
	TEXT_FIELD("tsc",       MCE_HAVE_TSC,       tsc,       16),
	TEXT_FIELD("ppin",      MCE_HAVE_PPIN,      ppin,      16),
	TEXT_FIELD("cs",        MCE_HAVE_CS,        cs,        16),
	TEXT_FIELD("cpu",       MCE_HAVE_CPU,       cpu,       0),
	TEXT_FIELD("socketid",  MCE_HAVE_SOCKET,    socket,    0),
	TEXT_FIELD("apicid",    MCE_HAVE_APICID,    apicid,    16),
	TEXT_FIELD("microcode", MCE_HAVE_MICROCODE, microcode, 16),
	TEXT_FIELD("bank",      MCE_HAVE_BANK,      bank,      16),
};

/* "+0100 " or "-0500 " at B: the zone that ends rasdaemon's time stamp. */
static bool is_zone(const char *b)
{
	return (b[0] == '+' || b[0] == '-') && is_digit(b[1]) && is_digit(b[2]) && is_digit(b[3]) &&
	       is_digit(b[4]) && b[5] == ' ';
}

/*
 * rasdaemon names an AMD SMCA bank by its long name, "..., bank Unified
 * Memory Controller (bank=17), ..." (ras-mc-ctl) or "... +0000 Unified
 * Memory Controller (bank=17), ..." (its mce_record line), and ras-mc-ctl
 * leaves out MCA_IPID: the name is then all that says which block the bank
 * is.  The name may hold commas ("Power, Interrupts, etc."), so it starts
 * after the nearest "bank " or time zone before the parenthesis.  A name
 * that is too long or odd is not kept.
 */
static void read_bank_name(const char *line, const char *paren, struct mce_record *r)
{
	const char *end = paren, *c;

	while (end > line && end[-1] == ' ')
		end--;
	for (c = end; c - line >= 6 && end - c < MCE_BANK_NAME_MAX + 6; c--) {
		const char *b = c - 5;

		if ((memcmp(b, "bank ", 5) == 0 && b[-1] == ' ') || is_zone(c - 6)) {
			(void) mce_record_set_bank_name(r, c, (size_t) (end - c));
			return;
		}
	}
}

enum kv_result text_ras_fields(struct mce_text_parser *p, struct span s, struct mce_record *r,
			       bool mc_ctl)
{
	const char *line = s.p;
	uint64_t walltime = 0, cpuid = 0;
	bool have_walltime = false, have_cpuid = false;

	for (const char *eq; (eq = memchr(s.p, '=', span_len(s))); ) {
		struct span key = { eq, eq }, val;
		const struct text_field *k;
		bool in_paren;
		uint64_t v;

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
			if (text_num(p, "cpuid", val, 16, span_eq(key, "cpuid") ? UINT32_MAX : UINT64_MAX,
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
		k = text_field_find(ras_keys, ELEMENTSOF(ras_keys), key, false);
		if (!k)
			continue;       /* mci=, mca=, ... are rasdaemon's decoded text */
		/* AMD bank names: "Load Store Unit (bank=0)" */
		if (text_field_read(p, k, val, in_paren ? 10 : k->base, r) != KV_OK)
			return KV_BAD;
		if (in_paren && span_eq(key, "bank"))
			read_bank_name(line, key.p - 1, r);
	}
	/* ras-mc-ctl's rows may span lines: the record's end checks those */
	if (!mc_ctl && !(r->have & MCE_HAVE_STATUS))
		return text_bad(p, "rasdaemon record without 'status='");
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
