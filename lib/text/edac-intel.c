/* SPDX-License-Identifier: MIT */
/*
 * The Intel EDAC drivers' text (sb_edac, skx_edac, i10nm_edac): their own
 * copy of the machine-check registers, "KEY value" lines (kv-line.c)
 * behind the driver's "EDAC <driver> MC<m>:" prefix,
 *
 *   EDAC sbridge MC0: HANDLING MCE MEMORY ERROR
 *   EDAC sbridge MC0: CPU 0: Machine Check Event: 0 Bank 5: 8c00004000010092
 *   EDAC sbridge MC0: TSC 0
 *   EDAC sbridge MC0: ADDR 849923380
 *   EDAC sbridge MC0: MISC 42525286
 *   EDAC sbridge MC0: PROCESSOR 0:206d7 TIME 1580149818 SOCKET 0 APIC 0
 *
 * (skx_edac and i10nm print the numbers with "0x"), then the EDAC core's
 * line naming the DIMM the driver found, which ends the record:
 *
 *   EDAC MC0: 1 CE memory read error on CPU_SrcID#0_Ha#0_Chan#2_DIMM#0 (channel:2
 *     slot:0 page:0x849923 offset:0x380 grain:32 syndrome:0x0 -  area:DRAM
 *     err_code:0001:0092 socket:0 ha:0 channel_mask:4 rank:0)
 *
 * From the parenthesis we keep socket, memory controller (sb_edac's home
 * agent "ha", skx's "MemoryControllerId"), channel, slot and rank.  A
 * DIMM line with no register lines before it (skx_edac prints those at
 * debug level) is no machine-check record: said, and not decoded.
 */
#include <inttypes.h>

#include "forms.h"

enum edac_intel_line {
	REGISTERS = 1,
	LOCATION,
	HANDLING,
};

/* Where the EDAC line's "key:value" words go; both the sb_edac and skx/i10nm spellings. */
static const struct text_field dimm_keys[] = {
	TEXT_FIELD("socket",             MCE_HAVE_DIMM_SOCKET,  dimm_socket,  0),
	TEXT_FIELD("ProcessorSocketId",  MCE_HAVE_DIMM_SOCKET,  dimm_socket,  0),
	TEXT_FIELD("ha",                 MCE_HAVE_DIMM_MC,      dimm_mc,      0),
	TEXT_FIELD("imc",                MCE_HAVE_DIMM_MC,      dimm_mc,      0),
	TEXT_FIELD("MemoryControllerId", MCE_HAVE_DIMM_MC,      dimm_mc,      0),
	TEXT_FIELD("channel",            MCE_HAVE_DIMM_CHANNEL, dimm_channel, 0),
	TEXT_FIELD("ChannelId",          MCE_HAVE_DIMM_CHANNEL, dimm_channel, 0),
	TEXT_FIELD("slot",               MCE_HAVE_DIMM_SLOT,    dimm_slot,    0),
	TEXT_FIELD("DimmSlotId",         MCE_HAVE_DIMM_SLOT,    dimm_slot,    0),
	TEXT_FIELD("rank",               MCE_HAVE_DIMM_RANK,    dimm_rank,    0),
	TEXT_FIELD("PhysicalRankId",     MCE_HAVE_DIMM_RANK,    dimm_rank,    0),
};

/* "MC<m>:" and the space after it. */
static bool eat_mc(struct span *s)
{
	if (!span_eat(s, "MC") || s->p == s->end || !is_digit(*s->p))
		return false;
	while (s->p < s->end && is_digit(*s->p))
		s->p++;
	if (!span_eat(s, ":"))
		return false;
	span_skip_space(s);
	return true;
}

/* The driver's prefix after "EDAC ": "<driver> MC<m>: " (sbridge, skx, i10nm). */
static bool eat_driver_mc(struct span *s)
{
	struct span t = span_token(s);

	span_skip_space(s);
	return span_len(t) > 0 && eat_mc(s);
}

unsigned text_edac_intel_recognise(const struct mce_text_parser *p, const struct text_line *l,
				   struct span *body)
{
	struct span s = l->msg, t;

	(void) p;
	if (!span_eat(&s, "EDAC "))
		return 0;
	if (eat_mc(&s)) {
		/* the EDAC core: "<count> CE|UE <what> on <label> (<fields>)" */
		struct span u = s;

		t = span_token(&u);
		if (span_len(t) == 0 || !is_digit(t.p[0]))
			return 0;
		t = span_token(&u);
		if (!span_eq(t, "CE") && !span_eq(t, "UE"))
			return 0;
		*body = s;
		return LOCATION;
	}
	if (!eat_driver_mc(&s) || s.p == s.end)
		return 0;
	*body = s;
	return span_starts(s, "HANDLING MCE MEMORY ERROR") ? HANDLING : REGISTERS;
}

/* The DIMM location in the EDAC core's parenthesis, into the open record; then it ends. */
static int parse_location(struct mce_text_parser *p, struct span s)
{
	const char *open = memchr(s.p, '(', span_len(s));
	struct mce_record r = p->rec;
	struct span in;

	if (p->open != OPEN_EDAC_INTEL) {
		/* skx_edac and i10nm print the registers at debug level only */
		text_diag(p, MCE_TEXT_PARTIAL, p->line,
			  "EDAC memory error without the machine-check registers before it "
			  "(the driver prints them at debug level): not decoded");
		return 0;
	}
	if (!open || s.end[-1] != ')') {
		text_bad(p, "EDAC DIMM line: expected '(channel:C slot:D ... )' after the DIMM label");
		text_reject(p);
		return 0;
	}
	in = (struct span) { open + 1, s.end - 1 };
	for (;;) {
		struct span t = span_token(&in), key, v;
		const struct text_field *f;
		const char *colon;
		uint64_t x;

		if (span_len(t) == 0)
			break;
		colon = memchr(t.p, ':', span_len(t));
		if (!colon)
			continue;     /* "-" between the core's and the driver's part */
		key = (struct span) { t.p, colon };
		v = (struct span) { colon + 1, t.end };
		if ((span_eq(key, "page") || span_eq(key, "offset")) && (r.have & MCE_HAVE_ADDR)) {
			/*
			 * The EDAC core prints the error address as page (ADDR >>
			 * PAGE_SHIFT, 12 on x86) and offset in the page.  Older
			 * sb_edac printed every record's registers first and the
			 * DIMM lines after them all: a line naming another
			 * address is not this record's.
			 */
			bool page = span_eq(key, "page");

			if (text_num(p, page ? "page" : "offset", v, 16, UINT64_MAX, &x) != KV_OK) {
				text_reject(p);
				return 0;
			}
			if (x != (page ? r.addr >> 12 : (r.addr & 0xfff))) {
				text_diag(p, MCE_TEXT_PARTIAL, p->line,
					  "EDAC DIMM line names another address than the record before "
					  "it (ADDR 0x%" PRIx64 "): not joined to it",
					  r.addr);
				return text_flush(p);
			}
			continue;
		}
		f = text_field_find(dimm_keys, ELEMENTSOF(dimm_keys), key, false);
		if (!f || (span_len(v) > 0 && v.p[0] == '-'))
			continue;     /* a key we do not keep, or "-1": not known */
		if (text_field_read(p, f, v, f->base, &r) != KV_OK) {
			text_reject(p);
			return 0;
		}
	}
	p->rec = r;
	p->last = p->line;
	return text_flush(p);
}

int text_edac_intel_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
			  struct span body)
{
	switch (kind) {
	case HANDLING:
		return 0;
	case LOCATION:
		return parse_location(p, body);
	default:
		break;
	}
	/*
	 * The drivers print "ADDR %llx " and "MISC %llx " with no newline,
	 * so a console may show the next line's prefix inside this one:
	 * "ADDR 12345000 EDAC sbridge MC3: MISC 144780c86" (the kernel's
	 * Documentation/firmware-guide/acpi/apei/einj.rst has such a copy).
	 * Each part is read as the line it was printed as.
	 */
	for (;;) {
		const char *m = span_find(body, " EDAC ");
		struct span rest;
		int k;

		if (!m)
			break;
		rest = (struct span) { m + strlen(" EDAC "), body.end };
		if (!eat_driver_mc(&rest) || rest.p == rest.end)
			break;
		/* the DIMM line, not PROCESSOR, ends this form's record */
		k = text_kv_record(p, l, (struct span) { body.p, m }, OPEN_EDAC_INTEL, false);
		if (k < 0)
			return k;
		body = rest;
	}
	return text_kv_record(p, l, body, OPEN_EDAC_INTEL, false);
}
