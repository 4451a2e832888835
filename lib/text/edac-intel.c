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
 * agent "ha", skx's "MemoryControllerId"), channel, slot and rank.  On a
 * 2-level-memory system the firmware decode (skx, i10nm, and imh on
 * Diamond Rapids, all through skx_common.c) names both the far memory
 * ("MemoryControllerId:") and the near memory that caches it
 * ("NmMemoryControllerId:"); the kernel takes the near ones when MCACOD,
 * masked with EF80H, is 0280H (skx_error_source()), and so do we.  A
 * DIMM line with no register lines before it (skx_edac prints those at
 * debug level) is no machine-check record: said, and not decoded.
 *
 * Older kernels (3.x, and RHEL 6's backport) had sb_edac print the
 * registers with the kernel's own lines under a line of its own, and the
 * EDAC core's DIMM line in the layout of its FB-DIMM helpers, the message
 * sb_edac's (edac_mc.c's edac_mc_handle_fbd_ce/ue, sb_edac.c's
 * sbridge_mce_output_error of those versions):
 *
 *   sbridge: HANDLING MCE MEMORY ERROR
 *   CPU 6: Machine Check Exception: 0 Bank 5: 8c00004000010091
 *   TSC 0 ADDR 1db6d78e40 MISC 4402a2a86 PROCESSOR 0:206d7 TIME 1402196265 SOCKET 1 APIC 20
 *   EDAC MC1: CE row 1, channel 0, label "CPU_SrcID#1_Channel#0_DIMM#1": 1 Unknown
 *     error(s): memory read on FATAL area : cpu=6 Err=0001:0091 (ch=1),
 *     addr = 0x1db6d78e40 => socket=1, Channel=0(mask=1), rank=5
 *
 * (Ivy Bridge's has "ha=h, " before Channel; an uncorrected error's line
 * is "UE row r, channel-a= a channel-b= b labels "A-B": ...").  Row and
 * channel there are the EDAC core's csrow numbering; the DIMM is after
 * "=>", and its slot is the default label's "DIMM#".  Such a record ends
 * at its DIMM line rather than at PROCESSOR.  The EDAC core printed that
 * line from a work queue, so the registers of several records may come
 * before their DIMM lines: a record that ends without its own is held
 * back for it (assemble.c), and the DIMM line joins the held record whose
 * ADDR and MSCOD:MCACOD it names.
 */
#include <inttypes.h>

#include "forms.h"

enum edac_intel_line {
	REGISTERS = 1,
	LOCATION,
	HANDLING,
	OLD_HANDLING,         /* "sbridge: HANDLING MCE MEMORY ERROR": the kernel's lines follow */
	OLD_LOCATION,         /* "EDAC MCm: CE row r, channel c, label ...: ... => socket=..." */
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

/* The firmware's coordinates that a near-memory error takes from the "Nm" spelling instead. */
static const char *const near_memory_keys[] = { "MemoryControllerId", "ChannelId", "DimmSlotId", "PhysicalRankId" };

static bool is_near_memory_key(struct span key)
{
	for (size_t i = 0; i < ELEMENTSOF(near_memory_keys); i++)
		if (span_eq(key, near_memory_keys[i]))
			return true;
	return false;
}

/* skx_common.c's MCACOD_MEM_ERR_MASK and MCACOD_EXT_MEM_ERR: an error in the near memory. */
static bool near_memory_error(const struct mce_record *r, struct span in)
{
	static const char nm[] = " NmMemoryControllerId:";

	return (r->have & MCE_HAVE_STATUS) && (r->status & 0xef80) == 0x0280 &&
	       memmem(in.p, span_len(in), nm, sizeof(nm) - 1);
}

/* The older DIMM line's "key=value" items after "=>": Channel is the real channel. */
static const struct text_field old_dimm_keys[] = {
	TEXT_FIELD("socket",  MCE_HAVE_DIMM_SOCKET,  dimm_socket,  10),
	TEXT_FIELD("ha",      MCE_HAVE_DIMM_MC,      dimm_mc,      10),
	TEXT_FIELD("Channel", MCE_HAVE_DIMM_CHANNEL, dimm_channel, 10),
	TEXT_FIELD("rank",    MCE_HAVE_DIMM_RANK,    dimm_rank,    10),
};

/* The slot, in the label sb_edac gives each DIMM: "CPU_SrcID#s_Channel#c_DIMM#d". */
static const struct text_field old_label_slot = TEXT_FIELD("DIMM#", MCE_HAVE_DIMM_SLOT, dimm_slot, 10);

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
	if (span_starts(s, "sbridge: HANDLING MCE MEMORY ERROR"))
		return OLD_HANDLING;
	if (!span_eat(&s, "EDAC "))
		return 0;
	if (eat_mc(&s)) {
		/* the EDAC core: "<count> CE|UE <what> on <label> (<fields>)" */
		struct span u = s;

		if (span_starts(s, "CE row ") || span_starts(s, "UE row ")) {
			*body = s;
			return OLD_LOCATION;
		}

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

/*
 * Said of a DIMM line that is not the open record's, nor a held one's:
 * the record ends without it.  Older sb_edac printed records' registers
 * first and their DIMM lines after them, and a record held back for its
 * DIMM line is let go after TEXT_HOLD_MAX records or TEXT_HOLD_LINES
 * lines, so this is no malformed line.
 */
static int not_joined(struct mce_text_parser *p, bool addr)
{
	if (addr)
		text_diag(p, MCE_TEXT_PARTIAL, p->line,
			  "EDAC DIMM line names another address than the record before it "
			  "(ADDR 0x%" PRIx64 "): not joined to it", p->rec.addr);
	else
		text_diag(p, MCE_TEXT_PARTIAL, p->line,
			  "EDAC DIMM line names another error than the record before it "
			  "(STATUS 0x%016" PRIx64 "): not joined to it", p->rec.status);
	return text_flush(p);
}

/* The DIMM location in the EDAC core's parenthesis, into the open record; then it ends. */
static int parse_location(struct mce_text_parser *p, struct span s)
{
	const char *open = memchr(s.p, '(', span_len(s));
	struct mce_record r = p->rec;
	struct span in;
	bool near;

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
	near = near_memory_error(&r, in);
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
			 * PAGE_SHIFT, 12 on x86) and offset in the page: a line
			 * naming another address is not this record's.
			 */
			bool page = span_eq(key, "page");

			if (text_num(p, page ? "page" : "offset", v, 16, UINT64_MAX, &x) != KV_OK) {
				text_reject(p);
				return 0;
			}
			if (x != (page ? r.addr >> 12 : (r.addr & 0xfff)))
				return not_joined(p, true);
			continue;
		}
		if (near) {
			/* the near memory's "NmChannelId" is this error's "ChannelId", the far one's is not */
			if (is_near_memory_key(key))
				continue;
			if (span_len(key) > 2 && key.p[0] == 'N' && key.p[1] == 'm') {
				key.p += 2;
				if (!is_near_memory_key(key))
					continue;
			}
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

/* Said of an older DIMM line with no record, open or held, it could be joined to. */
static int no_record(struct mce_text_parser *p)
{
	text_diag(p, MCE_TEXT_PARTIAL, p->line,
		  "EDAC DIMM line (the older 'CE row' layout) without a machine-check record "
		  "before it: not decoded");
	return 0;
}

/* The open record names no other address or error than the older DIMM line's. */
static bool old_location_fits(const struct mce_record *r, uint64_t addr, uint32_t code)
{
	return (!(r->have & MCE_HAVE_ADDR) || addr == r->addr) &&
	       (!(r->have & MCE_HAVE_STATUS) || code == (uint32_t) r->status);
}

/*
 * The older DIMM line, "CE row r, channel c, label "L": ... Err=m:c (ch=n),
 * addr = 0xA => socket=s, [ha=h, ]Channel=c(mask=m), rank=k", into the
 * open record if it names the record's error and address; then it ends.
 * Else into the held record that it names (assemble.c holds them back
 * for this); the open record, not its, ends too.
 */
static int parse_old_location(struct mce_text_parser *p, struct span s)
{
	const char *q = memchr(s.p, '"', span_len(s)), *q2 = NULL, *arrow, *m;
	bool open = p->open != OPEN_NONE && !p->emitted;
	struct text_held *h = NULL;
	struct mce_record r;
	struct span label, before, after;
	uint64_t addr, mscod, code;
	int k;

	if (!open && p->nheld == 0)
		return no_record(p);
	if (q)
		q2 = memchr(q + 1, '"', (size_t) (s.end - q - 1));
	if (!q2 || s.end - q2 < 2 || q2[1] != ':')
		return text_reject_with(p, "EDAC DIMM line: expected 'label \"...\":' after the row "
					"and channel");
	label = (struct span) { q + 1, q2 };
	before = (struct span) { q2 + 2, s.end };
	arrow = span_find(before, " => ");
	if (!arrow) {
		/* the FB-DIMM drivers' own messages name no machine-check register */
		text_diag(p, MCE_TEXT_PARTIAL, p->line,
			  "EDAC DIMM line without sb_edac's 'addr = 0x... => socket=...': not joined "
			  "to the record before it");
		return text_flush(p);
	}
	after = (struct span) { arrow + strlen(" => "), s.end };
	before.end = arrow;

	/* "Err=mscod:code": STATUS[31:16] and [15:0], as sb_edac split them */
	m = span_find(before, "Err=");
	if (!m)
		return text_reject_with(p, "EDAC DIMM line: expected 'Err=MSCOD:MCACOD' before '=>'");
	{
		struct span e = { m + strlen("Err="), before.end }, t = span_token(&e);
		const char *colon = memchr(t.p, ':', span_len(t));

		if (!colon)
			return text_reject_with(p, "EDAC DIMM line: expected 'Err=MSCOD:MCACOD' before '=>'");
		if (text_num(p, "Err", (struct span) { t.p, colon }, 16, 0xffff, &mscod) != KV_OK ||
		    text_num(p, "Err", (struct span) { colon + 1, t.end }, 16, 0xffff, &code) != KV_OK) {
			text_reject(p);
			return 0;
		}
	}
	m = span_find(before, "addr = ");
	if (!m)
		return text_reject_with(p, "EDAC DIMM line: expected 'addr = 0x...' before '=>'");
	{
		struct span a = { m + strlen("addr = "), before.end };

		if (text_hex_0x(p, "addr", span_token(&a), UINT64_MAX, &addr) != KV_OK) {
			text_reject(p);
			return 0;
		}
	}
	code |= mscod << 16;
	if (open && old_location_fits(&p->rec, addr, (uint32_t) code))
		r = p->rec;
	else if ((h = text_hold_find(p, addr, (uint32_t) code)))
		r = h->rec;
	else if (!open)
		return no_record(p);
	else
		return not_joined(p, (p->rec.have & MCE_HAVE_ADDR) && addr != p->rec.addr);

	/* "socket=1, Channel=0(mask=1), rank=5" */
	while (span_len(after) > 0) {
		const char *comma = memchr(after.p, ',', span_len(after));
		struct span item = { after.p, comma ? comma : after.end }, key, v;
		const struct text_field *f;
		const char *eq, *paren;

		after.p = comma ? comma + 1 : after.end;
		span_trim(&item);
		eq = memchr(item.p, '=', span_len(item));
		if (!eq)
			return text_reject_with(p, "EDAC DIMM line: expected 'key=value' items after '=>'");
		key = (struct span) { item.p, eq };
		paren = memchr(eq, '(', (size_t) (item.end - eq));
		v = (struct span) { eq + 1, paren ? paren : item.end };
		f = text_field_find(old_dimm_keys, ELEMENTSOF(old_dimm_keys), key, false);
		if (f && text_field_read(p, f, v, f->base, &r) != KV_OK) {
			text_reject(p);
			return 0;
		}
	}
	m = span_find(label, "DIMM#");
	if (m) {
		struct span d = { m + strlen("DIMM#"), m + strlen("DIMM#") };

		while (d.end < label.end && is_digit(*d.end))
			d.end++;
		/* a label the administrator set names no slot we can read */
		if (span_len(d) > 0 && text_field_read(p, &old_label_slot, d, 10, &r) != KV_OK) {
			text_reject(p);
			return 0;
		}
	}
	if (!h) {
		p->rec = r;
		p->last = p->line;
		p->joined = true;     /* so that it is not held for a DIMM line */
		k = text_flush(p);
		p->joined = false;
		return k;
	}
	h->rec = r;
	h->last = p->line;
	h->awaits = false;
	p->hold_line = p->line;
	if ((k = text_hold_release(p, false)) < 0)
		return k;
	/* a record whose parts are out (text_emit_part) is left open, as with no DIMM line */
	return open ? text_flush(p) : 0;
}

int text_edac_intel_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
			  struct span body)
{
	switch (kind) {
	case HANDLING:
		return 0;
	case LOCATION:
		return parse_location(p, body);
	case OLD_HANDLING: {
		/* the record before is complete: its DIMM line, if any, did not come */
		int k = text_flush(p);

		p->sbridge_line = p->line;
		return k;
	}
	case OLD_LOCATION:
		return parse_old_location(p, body);
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
