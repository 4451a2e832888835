/* SPDX-License-Identifier: MIT */
/*
 * "KEY value" lines: mcelog's format, and the kernel's console lines it was
 * made from.  One line may carry several pairs ("TSC 1c8e0af8d4 ADDR
 * 3fff88000 MISC 2140040486"); a bad value rejects the whole line.
 */
#include "hex-scan.h"
#include "parse-number.h"
#include "scanner.h"

/* The keys: each a number in kv_keys[], or a value read its own way. */
enum kv_key {
	K_TSC, K_ADDR, K_MISC, K_PPIN, K_SOCKET, K_APIC, K_MICROCODE_LC, K_SYND, K_IPID,
	K_STATUS, K_MCGSTATUS, K_MCGCAP, K_APICID, K_SOCKETID, K_MICROCODE, K_BANK,
	K_SYND1, K_SYND2,
	N_NUMBER_KEYS,
	K_CPU = N_NUMBER_KEYS, K_RIP, K_PROCESSOR, K_CPUID, K_TIME,
	N_KEYS,
};

/* Keywords that take one plain number.  Bases as mcelog reads and the kernel prints them. */
static const struct text_field kv_keys[N_NUMBER_KEYS] = {
	[K_TSC]          = TEXT_FIELD("TSC",       MCE_HAVE_TSC,       tsc,       16),
	[K_ADDR]         = TEXT_FIELD("ADDR",      MCE_HAVE_ADDR,      addr,      16),
	[K_MISC]         = TEXT_FIELD("MISC",      MCE_HAVE_MISC,      misc,      16),
	[K_PPIN]         = TEXT_FIELD("PPIN",      MCE_HAVE_PPIN,      ppin,      16),
	[K_SOCKET]       = TEXT_FIELD("SOCKET",    MCE_HAVE_SOCKET,    socket,    10),
	[K_APIC]         = TEXT_FIELD("APIC",      MCE_HAVE_APICID,    apicid,    16),
	[K_MICROCODE_LC] = TEXT_FIELD("microcode", MCE_HAVE_MICROCODE, microcode, 16),
	[K_SYND]         = TEXT_FIELD("SYND",      MCE_HAVE_SYND,      synd,      16),
	[K_IPID]         = TEXT_FIELD("IPID",      MCE_HAVE_IPID,      ipid,      16),
	[K_STATUS]       = TEXT_FIELD("STATUS",    MCE_HAVE_STATUS,    status,    16),
	[K_MCGSTATUS]    = TEXT_FIELD("MCGSTATUS", MCE_HAVE_MCGSTATUS, mcgstatus, 16),
	[K_MCGCAP]       = TEXT_FIELD("MCGCAP",    MCE_HAVE_MCGCAP,    mcgcap,    16),
	[K_APICID]       = TEXT_FIELD("APICID",    MCE_HAVE_APICID,    apicid,    16),
	[K_SOCKETID]     = TEXT_FIELD("SOCKETID",  MCE_HAVE_SOCKET,    socket,    10),
	[K_MICROCODE]    = TEXT_FIELD("MICROCODE", MCE_HAVE_MICROCODE, microcode, 16),
	[K_BANK]         = TEXT_FIELD("BANK",      MCE_HAVE_BANK,      bank,      10),
	/* AMD MCA_SYND1/2, which __print_mce() prints after SYND from 6.13 on */
	[K_SYND1]        = TEXT_FIELD("SYND1",     MCE_HAVE_SYND1,     synd1,     16),
	[K_SYND2]        = TEXT_FIELD("SYND2",     MCE_HAVE_SYND2,     synd2,     16),
};

/* The keys whose values are read their own way: only their names here. */
#define NAME(n) { .name = "" n, .len = sizeof("" n) - 1 }
static const struct text_field special_keys[N_KEYS - N_NUMBER_KEYS] = {
	[K_CPU - N_NUMBER_KEYS]       = NAME("CPU"),
	[K_RIP - N_NUMBER_KEYS]       = NAME("RIP"),
	[K_PROCESSOR - N_NUMBER_KEYS] = NAME("PROCESSOR"),
	[K_CPUID - N_NUMBER_KEYS]     = NAME("CPUID"),
	[K_TIME - N_NUMBER_KEYS]      = NAME("TIME"),
};

static const struct text_field *key_of(enum kv_key k)
{
	return k < N_NUMBER_KEYS ? &kv_keys[k] : &special_keys[k - N_NUMBER_KEYS];
}

/*
 * Every token of every line is looked up, so by a hash of its length and
 * first and last bytes, to one entry compared.  The hash is perfect for
 * these keys: two keys in one slot would be two initializers of one
 * element, which -Woverride-init (in -Wextra) makes an error.
 */
#define KV_HASH(first, last, len) ((unsigned) ((first) + ((last) << 1) + (len) * 3) & 63)
#define SLOT(first, last, len, k) [KV_HASH(first, last, len)] = (k) + 1,
#define KV_SLOTS(X) \
	X('T', 'C', 3, K_TSC) \
	X('A', 'R', 4, K_ADDR) \
	X('M', 'C', 4, K_MISC) \
	X('P', 'N', 4, K_PPIN) \
	X('S', 'T', 6, K_SOCKET) \
	X('A', 'C', 4, K_APIC) \
	X('m', 'e', 9, K_MICROCODE_LC) \
	X('S', 'D', 4, K_SYND) \
	X('I', 'D', 4, K_IPID) \
	X('S', 'S', 6, K_STATUS) \
	X('M', 'S', 9, K_MCGSTATUS) \
	X('M', 'P', 6, K_MCGCAP) \
	X('A', 'D', 6, K_APICID) \
	X('S', 'D', 8, K_SOCKETID) \
	X('M', 'E', 9, K_MICROCODE) \
	X('B', 'K', 4, K_BANK) \
	X('S', '1', 5, K_SYND1) \
	X('S', '2', 5, K_SYND2) \
	X('C', 'U', 3, K_CPU) \
	X('R', 'P', 3, K_RIP) \
	X('P', 'R', 9, K_PROCESSOR) \
	X('C', 'D', 5, K_CPUID) \
	X('T', 'E', 4, K_TIME)

static const uint8_t kv_slot[64] = { KV_SLOTS(SLOT) };

/* A key added without its slot would never be found: count them. */
#define COUNT_ONE(first, last, len, k) + 1
_Static_assert(0 KV_SLOTS(COUNT_ONE) == N_KEYS, "every key needs a slot in kv_slot[]");

static uint32_t load4(const char *s)
{
	uint32_t x;

	memcpy(&x, s, 4);
	return x;
}

static uint16_t load2(const char *s)
{
	uint16_t x;

	memcpy(&x, s, 2);
	return x;
}

/*
 * Whether the len bytes at a and b are the same, 3 <= len <= 9: two loads
 * that overlap rather than a loop over the bytes.
 */
static inline __attribute__((always_inline)) bool same_key(const char *a, const char *b, size_t len)
{
	if (len >= 8) {
		uint64_t x, y, u, v;

		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		memcpy(&u, a + len - 8, 8);
		memcpy(&v, b + len - 8, 8);
		return x == y && u == v;
	}
	if (len >= 4)
		return load4(a) == load4(b) && load4(a + len - 4) == load4(b + len - 4);
	return load2(a) == load2(b) && load2(a + len - 2) == load2(b + len - 2);
}

/*
 * The key that most often follows each, 1 + its number (0: none
 * foreseen): the kernel prints its pairs in one order (__print_mce():
 * "TSC ADDR MISC PPIN SYND IPID", on AMD from 6.13 "SYND SYND1 SYND2 IPID"
 * when they are non-zero, "PROCESSOR TIME SOCKET APIC
 * microcode"), and so does mcelog ("STATUS MCGSTATUS", "MCGCAP APICID
 * SOCKETID").  A line that keeps to it has each next key checked in
 * place rather than cut out and looked up; any other goes the long way.
 */
#define NEXT(a, b) [a] = (b) + 1
static const uint8_t kv_next[N_KEYS] = {
	NEXT(K_TSC, K_ADDR), NEXT(K_ADDR, K_MISC), NEXT(K_MISC, K_PPIN), NEXT(K_PPIN, K_SYND),
	NEXT(K_SYND, K_IPID), NEXT(K_SYND1, K_SYND2), NEXT(K_SYND2, K_IPID),
	NEXT(K_PROCESSOR, K_TIME), NEXT(K_TIME, K_SOCKET), NEXT(K_SOCKET, K_APIC),
	NEXT(K_APIC, K_MICROCODE_LC),
	NEXT(K_STATUS, K_MCGSTATUS), NEXT(K_MCGCAP, K_APICID), NEXT(K_APICID, K_SOCKETID),
};

/*
 * Whether s goes on with one space and key k's name, ending at white
 * space or the end, as span_token() and kv_key_find() would find it:
 * if so, s is moved past the name.
 */
static inline __attribute__((always_inline)) bool kv_expected(struct span *s, enum kv_key k)
{
	const struct text_field *f = key_of(k);
	size_t left = span_len(*s);

	if (left < 1 + f->len || s->p[0] != ' ' || !same_key(s->p + 1, f->name, f->len) ||
	    (left > 1 + f->len && !is_space(s->p[1 + f->len])))
		return false;
	s->p += 1 + f->len;
	return true;
}

/* t's key, or N_KEYS if it names none. */
static enum kv_key kv_key_find(struct span t)
{
	size_t len = span_len(t);
	const struct text_field *f;
	unsigned k;

	if (len < 3 || len > 9)
		return N_KEYS;
	k = kv_slot[KV_HASH((unsigned char) t.p[0], (unsigned char) t.end[-1], len)];
	if (k-- == 0)
		return N_KEYS;
	f = key_of(k);
	return f->len == len && same_key(t.p, f->name, len) ? (enum kv_key) k : N_KEYS;
}

/*
 * A field's value read as its token is scanned, in one pass: the plain
 * digits that are almost every value.  false, with *s untouched, for
 * anything else (a "0x", too many digits, a bad byte, a value too large),
 * which text_field_read() then reads and words the error for.
 */
static bool kv_fast_value(struct span *s, const struct text_field *f, struct mce_record *r)
{
	const char *c = s->p, *start;
	uint64_t v = 0;
	char *dst = (char *) r + f->offset;

	while (c < s->end && is_space(*c))
		c++;
	start = c;
	if (f->base == 16) {
#ifdef HEX_SCAN_WORDS
		/*
		 * Eight digits a step while the line holds them, tried only
		 * where the eighth byte is one (a value's last few digits
		 * seldom are); the rest a byte at a time.
		 */
		for (uint64_t w; c - start <= 8 && s->end - c >= 8 && parse_digit_value_1[(unsigned char) c[7]] &&
				 hex_scan8(c, &w); c += 8)
			v = v << 32 | w;
#endif
		for (unsigned d; c < s->end && (d = parse_digit_value_1[(unsigned char) *c]) != 0; c++)
			v = v << 4 | (d - 1);
		if (c - start > 16)
			return false;
	} else {
		for (; c < s->end && is_digit(*c); c++)
			v = v * 10 + (unsigned) (*c - '0');
		if (c - start > 19)
			return false;
	}
	if (c == start || (c < s->end && !is_space(*c)))
		return false;
	if (f->size == 8)
		memcpy(dst, &v, 8);
	else if (f->size == 4 && v <= UINT32_MAX) {
		uint32_t x32 = (uint32_t) v;
		memcpy(dst, &x32, 4);
	} else
		return false;
	r->have |= f->have;
	s->p = c;
	return true;
}

static bool is_weekday(struct span t)
{
	static const char *const days[] = { "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun" };

	for (size_t i = 0; i < ELEMENTSOF(days); i++)
		if (span_eq_n(t, days[i], 3))
			return true;
	return false;
}

/* "CPUID Vendor Intel Family 6 Model 143 Step 4", as mcelog prints it (decimal). */
static enum kv_result parse_cpuid(struct mce_text_parser *p, struct span *s, struct mce_record *r)
{
	struct span t = span_token(s), name;
	uint64_t family = 0, model = 0, step = 0;
	bool have_family = false, have_model = false;
	char buf[32];

	if (!span_eq(t, "Vendor"))
		return text_bad(p, "CPUID: expected 'Vendor NAME Family N Model N'");
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
		if (text_num(p, "CPUID", v, 10, UINT32_MAX, dst) != KV_OK)
			return KV_BAD;
	}
	if (!have_family || !have_model)
		return text_bad(p, "CPUID: Family and Model are required");
	if (span_len(name) >= 32)
		return text_bad(p, "CPUID: vendor name too long");
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
 * first line), "CPU 0 BANK 4", "CPU 0 4" or "CPU 0 THERMAL EVENT" (mcelog).  *kernel_form is set
 * for the kernel's.
 */
static enum kv_result parse_cpu(struct mce_text_parser *p, struct span *s, struct mce_record *r,
				bool *kernel_form, bool *unchecked)
{
	struct span t = span_token(s), save;
	uint64_t cpu, v;

	if (span_len(t) > 1 && t.end[-1] == ':') {
		/* kernel form */
		struct span rest;

		t.end--;
		if (text_num(p, "CPU", t, 10, UINT32_MAX, &cpu) != KV_OK)
			return KV_BAD;
		span_skip_space(s);
		if (!span_eat(s, "Machine Check"))
			return text_bad(p, "expected 'CPU N: Machine Check: MCGSTATUS Bank B: STATUS'");
		/* the Intel EDAC drivers' copy says "Machine Check Event" */
		if (!span_eat(s, " Exception"))
			(void) span_eat(s, " Event");
		if (!span_eat(s, ":"))
			return text_bad(p, "expected 'CPU N: Machine Check: MCGSTATUS Bank B: STATUS'");
		rest = *s;
		t = span_token(&rest);
		if (text_num(p, "MCGSTATUS", t, 16, UINT64_MAX, &v) != KV_OK)
			return KV_BAD;
		r->mcgstatus = v;
		t = span_token(&rest);
		if (!span_eq(t, "Bank"))
			return text_bad(p, "expected 'Bank B:' after MCGSTATUS");
		t = span_token(&rest);
		if (span_len(t) < 2 || t.end[-1] != ':')
			return text_bad(p, "expected 'Bank B:' after MCGSTATUS");
		t.end--;
		if (text_num(p, "Bank", t, 10, UINT32_MAX, &v) != KV_OK)
			return KV_BAD;
		r->bank = (uint32_t) v;
		t = span_token(&rest);
		if (text_num(p, "STATUS", t, 16, UINT64_MAX, &v) != KV_OK)
			return KV_BAD;
		r->status = v;
		r->cpu = (uint32_t) cpu;
		r->have |= MCE_HAVE_CPU | MCE_HAVE_BANK | MCE_HAVE_STATUS | MCE_HAVE_MCGSTATUS;
		*s = rest;
		*kernel_form = true;
		return KV_OK;
	}
	if (text_num(p, "CPU", t, 10, UINT32_MAX, &cpu) != KV_OK)
		return KV_BAD;
	r->cpu = (uint32_t) cpu;
	r->have |= MCE_HAVE_CPU;
	save = *s;
	t = span_token(s);
	bool named = false;

	if (span_eq(t, "BANK"))
		t = span_token(s);
	else if (span_eq(t, "THERMAL")) {
		/* mcelog's "CPU n THERMAL EVENT" for Linux's thermal record, bank 128 (its MCE_THERMAL_BANK) */
		if (!span_eq(span_token(s), "EVENT"))
			return text_bad(p, "expected 'CPU N THERMAL EVENT'");
		r->bank = 128;
		r->have |= MCE_HAVE_BANK;
		return KV_OK;
	} else if (!(span_len(t) > 0 && is_digit(t.p[0]))) {
		*s = save;          /* "CPU 0" alone, or followed by other pairs */
		return KV_OK;
	} else
		named = true;
	if (text_num(p, "BANK", t, 10, UINT32_MAX, &v) != KV_OK)
		return KV_BAD;
	r->bank = (uint32_t) v;
	r->have |= MCE_HAVE_BANK;
	/* older mcelog named the bank after its number, in lower case:
	 * "CPU 2 4 northbridge TSC ...", "CPU 0 1 data cache" */
	while (named) {
		struct span u = *s, w = span_token(&u);

		if (span_len(w) == 0 || !(w.p[0] >= 'a' && w.p[0] <= 'z') || span_eq(w, "microcode"))
			break;
		*s = u;
		*unchecked = true;
	}
	return KV_OK;
}

/*
 * "CPU3: Machine Check Exception: ..." as typed by hand, without the kernel's
 * space: only with the old head's exact wording after it, so no other
 * "CPUn:" text is taken for a record.
 */
static bool cpu_without_space(struct span t, struct span rest)
{
	if (span_len(t) < 5 || !span_starts(t, "CPU") || !is_digit(t.p[3]) || t.end[-1] != ':')
		return false;
	span_skip_space(&rest);
	return span_starts(rest, "Machine Check Exception:");
}

/* Apart from text_kv_line(): its buffer would cost every line a stack guard. */
static __attribute__((noinline)) enum kv_result unknown_key(struct mce_text_parser *p, struct span t)
{
	char buf[48];

	return text_bad(p, "unknown key '%s'", span_show(t, buf, sizeof(buf)));
}

/* text_kv_line(), with each next key foreseen (kv_next[]) or not: one copy of it, not two */
static __attribute__((noinline)) enum kv_result
kv_line(struct mce_text_parser *p, struct span s, struct mce_record *r, struct kv_line *info,
	bool foresee)
{
	bool first = true;
	unsigned next = 0;

	*info = (struct kv_line) { 0 };
	for (;;) {
		struct span t, v;
		const struct text_field *k;
		enum kv_key key;
		enum kv_result res;
		uint64_t x;

		if (foresee && next && kv_expected(&s, (enum kv_key) (next - 1))) {
			key = (enum kv_key) (next - 1);
			t = (struct span) { s.p - key_of(key)->len, s.p };
		} else {
			t = span_token(&s);
			if (span_len(t) == 0)
				return KV_OK;
			if (first && cpu_without_space(t, s)) {
				s.p = t.p + strlen("CPU");
				t.end = s.p;
			}
			key = kv_key_find(t);
		}
		if (key < N_NUMBER_KEYS) {
			k = &kv_keys[key];
			if (!kv_fast_value(&s, k, r) &&
			    text_field_read(p, k, span_token(&s), k->base, r) != KV_OK)
				return KV_BAD;
		} else if (first && key == K_CPU) {
			res = parse_cpu(p, &s, r, &info->kernel_first, &info->unchecked);
			if (res != KV_OK)
				return res;
			info->names_cpu = true;
		} else if (key == K_RIP) {
			struct span save = s;

			v = span_token(&s);
			if (span_eq(v, "!INEXACT!"))
				v = span_token(&s);
			else if (!memchr(v.p, ':', span_len(v)))
				s = save;
			else if (v.end[-1] == ':') {
				/* a space typed after CS's colon: "RIP 10: <ffffffff802cfefe>" */
				struct span u = s, w = span_token(&u);

				if (span_len(w) > 2 && w.p[0] == '<' && w.end[-1] == '>') {
					v.end = w.end;
					s = u;
				}
			}
			res = text_rip(p, v, r);
			if (res != KV_OK)
				return res;
			/* the kernel appends "{symbol+0x6/0x10}" */
			save = s;
			v = span_token(&s);
			if (span_len(v) > 0 && v.p[0] == '{') {
				const char *close = memchr(v.p, '}', span_len(s) + span_len(v));

				s.p = close ? close + 1 : s.end;
				info->unchecked = true;
			} else
				s = save;
		} else if (key == K_PROCESSOR) {
			res = text_processor(p, span_token(&s), r);
			if (res != KV_OK)
				return res;
			info->processor = true;
		} else if (key == K_CPUID) {
			res = parse_cpuid(p, &s, r);
			if (res != KV_OK)
				return res;
		} else if (key == K_TIME) {
			if (text_num(p, "TIME", span_token(&s), 10, INT64_MAX / 1000000, &x) != KV_OK)
				return KV_BAD;
			r->time_usec = (int64_t) x * 1000000;
			r->have |= MCE_HAVE_TIME;
			/*
			 * mcelog prints the date after the number: "TIME 1700000000 Mon Nov 20 ...".
			 * A next word that starts after one white-space byte and has four
			 * bytes or more (the kernel's "SOCKET") is no day's name, and is
			 * not cut out to be compared.
			 */
			if (!(span_len(s) > 4 && is_space(s.p[0]) && !is_space(s.p[1]) && !is_space(s.p[2]) &&
			      !is_space(s.p[3]) && !is_space(s.p[4]))) {
				struct span u = s, w = span_token(&u);

				if (is_weekday(w)) {
					s.p = s.end;
					info->unchecked = true;
				}
			}
		} else if (first)
			return KV_NOT_OURS;
		else
			return unknown_key(p, t);
		first = false;
		next = kv_next[key];
	}
}

enum kv_result text_kv_line(struct mce_text_parser *p, struct span s, struct mce_record *r,
			    struct kv_line *info)
{
	return kv_line(p, s, r, info, true);
}

enum kv_result text_kv_line_unforeseen(struct mce_text_parser *p, struct span s, struct mce_record *r,
				       struct kv_line *info)
{
	return kv_line(p, s, r, info, false);
}
