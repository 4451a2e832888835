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
#include <limits.h>

#include "scanner.h"

/* The keys: each a number in ras_keys[], or (walltime, cpuid) read apart. */
enum ras_key {
	R_STATUS, R_MCGSTATUS, R_MCGCAP, R_ADDR, R_MISC, R_SYND, R_IPID, R_IP, R_TSC, R_PPIN, R_CS,
	R_CPU, R_SOCKETID, R_APICID, R_MICROCODE, R_BANK,
	N_RAS_FIELDS,
	R_WALLTIME = N_RAS_FIELDS, R_CPUID,
	N_RAS_KEYS,
};

static const struct text_field ras_keys[N_RAS_KEYS] = {
	[R_STATUS]    = TEXT_FIELD("status",    MCE_HAVE_STATUS,    status,    16),
	[R_MCGSTATUS] = TEXT_FIELD("mcgstatus", MCE_HAVE_MCGSTATUS, mcgstatus, 16),
	[R_MCGCAP]    = TEXT_FIELD("mcgcap",    MCE_HAVE_MCGCAP,    mcgcap,    16),
	[R_ADDR]      = TEXT_FIELD("addr",      MCE_HAVE_ADDR,      addr,      16),
	[R_MISC]      = TEXT_FIELD("misc",      MCE_HAVE_MISC,      misc,      16),
	[R_SYND]      = TEXT_FIELD("synd",      MCE_HAVE_SYND,      synd,      16),
	[R_IPID]      = TEXT_FIELD("ipid",      MCE_HAVE_IPID,      ipid,      16),
	[R_IP]        = TEXT_FIELD("ip",        MCE_HAVE_IP,        ip,        16),
	[R_TSC]       = TEXT_FIELD("tsc",       MCE_HAVE_TSC,       tsc,       16),
	[R_PPIN]      = TEXT_FIELD("ppin",      MCE_HAVE_PPIN,      ppin,      16),
	[R_CS]        = TEXT_FIELD("cs",        MCE_HAVE_CS,        cs,        16),
	[R_CPU]       = TEXT_FIELD("cpu",       MCE_HAVE_CPU,       cpu,       0),
	[R_SOCKETID]  = TEXT_FIELD("socketid",  MCE_HAVE_SOCKET,    socket,    0),
	[R_APICID]    = TEXT_FIELD("apicid",    MCE_HAVE_APICID,    apicid,    16),
	[R_MICROCODE] = TEXT_FIELD("microcode", MCE_HAVE_MICROCODE, microcode, 16),
	[R_BANK]      = TEXT_FIELD("bank",      MCE_HAVE_BANK,      bank,      16),
	/* ras-mc-ctl's, hex, read into the record their own way: only their names here */
	[R_WALLTIME]  = { .name = "walltime", .len = 8 },
	[R_CPUID]     = { .name = "cpuid",    .len = 5 },
};

/*
 * Every "key=" of every line is looked up (a dozen a rasdaemon line, most
 * of them mci=, mca= and the like that name no field), so by a hash of its
 * length and first and last bytes, to one entry compared.  The hash is
 * perfect for these keys: two in one slot would be two initializers of one
 * element, which -Woverride-init (in -Wextra) makes an error.
 */
#define RAS_HASH(first, last, len) ((unsigned) (((first) << 2) + (last) + (len)) & 63)
#define RAS_SLOT(first, last, len, k) [RAS_HASH(first, last, len)] = (k) + 1,
#define RAS_SLOTS(X) \
	X('s', 's', 6, R_STATUS) \
	X('m', 's', 9, R_MCGSTATUS) \
	X('m', 'p', 6, R_MCGCAP) \
	X('a', 'r', 4, R_ADDR) \
	X('m', 'c', 4, R_MISC) \
	X('s', 'd', 4, R_SYND) \
	X('i', 'd', 4, R_IPID) \
	X('i', 'p', 2, R_IP) \
	X('t', 'c', 3, R_TSC) \
	X('p', 'n', 4, R_PPIN) \
	X('c', 's', 2, R_CS) \
	X('c', 'u', 3, R_CPU) \
	X('s', 'd', 8, R_SOCKETID) \
	X('a', 'd', 6, R_APICID) \
	X('m', 'e', 9, R_MICROCODE) \
	X('b', 'k', 4, R_BANK) \
	X('w', 'e', 8, R_WALLTIME) \
	X('c', 'd', 5, R_CPUID)

static const uint8_t ras_slot[64] = { RAS_SLOTS(RAS_SLOT) };

/* A key added without its slot would never be found: count them. */
#define RAS_COUNT_ONE(first, last, len, k) + 1
_Static_assert(0 RAS_SLOTS(RAS_COUNT_ONE) == N_RAS_KEYS, "every key needs a slot in ras_slot[]");

/* key's number, or N_RAS_KEYS if it names none. */
static enum ras_key ras_key_find(struct span key)
{
	size_t len = span_len(key), i;
	const struct text_field *f;
	unsigned k;

	if (len < 2 || len > 9)
		return N_RAS_KEYS;
	k = ras_slot[RAS_HASH((unsigned char) key.p[0], (unsigned char) key.end[-1], len)];
	if (k-- == 0)
		return N_RAS_KEYS;
	f = &ras_keys[k];
	if (f->len != len)
		return N_RAS_KEYS;
	/* by hand: keys are a few bytes, less than a memcmp() call costs */
	for (i = 0; i < len && key.p[i] == f->name[i]; i++)
		;
	return i == len ? (enum ras_key) k : N_RAS_KEYS;
}

/* What a byte may be: in a key (a letter or '_') and in a value (a letter or a digit). */
enum { RAS_IN_KEY = 1, RAS_IN_VALUE = 2 };
static const uint8_t ras_byte[256] = {
	['a' ... 'z'] = RAS_IN_KEY | RAS_IN_VALUE,
	['A' ... 'Z'] = RAS_IN_KEY | RAS_IN_VALUE,
	['0' ... '9'] = RAS_IN_VALUE,
	['_'] = RAS_IN_KEY,
};

/* rasdaemon's "cpu_type= AMD Scalable MCA": the names, in the order that the first found wins. */
static const struct { const char *name; size_t len; enum mce_vendor v; } cpu_types[] = {
	{ "AMD", 3, MCE_VENDOR_AMD },
	{ "Intel", 5, MCE_VENDOR_INTEL },
	{ "Hygon", 5, MCE_VENDOR_HYGON },
	{ "Zhaoxin", 7, MCE_VENDOR_ZHAOXIN },
};

/* The vendor named at the start of AFTER, if it comes before BEST in cpu_types[]: its place; else BEST. */
static unsigned cpu_type_at(struct span after, unsigned best)
{
	for (size_t i = 0; i < best && i < ELEMENTSOF(cpu_types); i++)
		if (span_starts_n(after, cpu_types[i].name, cpu_types[i].len))
			return (unsigned) i;
	return best;
}

/*
 * The '=' at EQ, of the line from LINE to END, as part of "apicid=" and
 * "cpu_type= NAME" (anywhere, as text_ras_marks_find() finds them: each
 * holds one '=', and every '=' of the line comes here).
 */
static void ras_mark(const char *line, const char *end, const char *eq, struct text_ras_marks *m)
{
	size_t before = (size_t) (eq - line);

	if (before >= 6 && eq[-1] == 'd' && memcmp(eq - 6, "apicid", 6) == 0)
		m->apicid = true;
	else if (before >= 8 && eq[-1] == 'e' && end - eq >= 2 && eq[1] == ' ' &&
		 memcmp(eq - 8, "cpu_type", 8) == 0)
		m->cpu_type = cpu_type_at((struct span) { eq + 2, end }, m->cpu_type);
}

void text_ras_marks_find(struct span s, struct text_ras_marks *ret)
{
	struct text_ras_marks m = { .cpu_type = UINT_MAX };
	const char *c;

	m.apicid = span_find(s, "apicid=") != NULL;
	while ((c = span_find(s, "cpu_type= "))) {
		m.cpu_type = cpu_type_at((struct span) { c + strlen("cpu_type= "), s.end }, m.cpu_type);
		s.p = c + 1;
	}
	*ret = m;
}

void text_ras_cpu_type(const struct text_ras_marks *m, struct mce_record *r)
{
	if (r->have & MCE_HAVE_VENDOR || m->cpu_type >= ELEMENTSOF(cpu_types))
		return;
	r->vendor = cpu_types[m->cpu_type].v;
	r->have |= MCE_HAVE_VENDOR;
}

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
			       bool mc_ctl, struct text_ras_marks *ret_marks)
{
	const char *line = s.p;
	uint64_t walltime = 0, cpuid = 0;
	bool have_walltime = false, have_cpuid = false;
	struct text_ras_marks marks = { .cpu_type = UINT_MAX };

	for (const char *eq; (eq = memchr(s.p, '=', span_len(s))); ) {
		struct span key = { eq, eq }, val;
		const struct text_field *k;
		enum ras_key id;
		bool in_paren;
		uint64_t v;

		if (ret_marks)
			ras_mark(line, s.end, eq, &marks);
		while (key.p > s.p && (ras_byte[(unsigned char) key.p[-1]] & RAS_IN_KEY))
			key.p--;
		in_paren = key.p > s.p && key.p[-1] == '(';
		s.p = eq + 1;
		val.p = s.p;
		while (val.p < s.end && *val.p == ' ')
			val.p++;
		val.end = val.p;
		while (val.end < s.end && (ras_byte[(unsigned char) *val.end] & RAS_IN_VALUE))
			val.end++;
		s.p = val.end;

		id = ras_key_find(key);
		if (id == R_WALLTIME || id == R_CPUID) {
			if (text_num(p, "cpuid", val, 16, id == R_CPUID ? UINT32_MAX : UINT64_MAX, &v) != KV_OK)
				return KV_BAD;
			if (id == R_CPUID) {
				cpuid = v;
				have_cpuid = true;
			} else {
				walltime = v;
				have_walltime = true;
			}
			continue;
		}
		if (id == N_RAS_KEYS)
			continue;       /* mci=, mca=, ... are rasdaemon's decoded text */
		k = &ras_keys[id];
		/* AMD bank names: "Load Store Unit (bank=0)" */
		if (text_field_read(p, k, val, in_paren ? 10 : k->base, r) != KV_OK)
			return KV_BAD;
		if (in_paren && id == R_BANK)
			read_bank_name(line, key.p - 1, r);
	}
	if (ret_marks)
		*ret_marks = marks;
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
