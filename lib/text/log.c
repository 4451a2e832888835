/* SPDX-License-Identifier: MIT */
/*
 * What logs put around machine-check text: the prefixes loggers add
 * (syslog, journalctl short/short-iso/short-precise/short-monotonic, dmesg
 * "[ 123.456]", printk levels), the kernel's hardware-error tag, and the
 * kernel's lines that belong to no record.
 */
#include "forms.h"
#include "rfc3339.h"
#include "scanner.h"

/* The kernel's HW_ERR printk prefix: its console form and the EDAC decoders carry it. */
#define HW_ERR_TAG "[Hardware Error]:"

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

/* "HH:MM:SS", the clock of every time stamp here; ranges are the caller's. */
static bool eat_clock(struct span *s, int *hh, int *mm, int *ss)
{
	return eat_digits(s, 2, hh) && span_eat(s, ":") && eat_digits(s, 2, mm) && span_eat(s, ":") &&
	       eat_digits(s, 2, ss);
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
	    host.p[0] == '[' || host.p[0] == '{' || is_digit(ident.p[0]))
		return;     /* "[Hardware Error]:", "CPU 1:" are a message, not "host ident:" */
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

	/* most lines begin otherwise: no month is tried for them */
	if (span_len(t) < 4 || t.p[3] != ' ' || !(t.p[0] >= 'A' && t.p[0] <= 'Z'))
		return false;
	for (size_t i = 0; i < ELEMENTSOF(months); i++)
		if (span_starts_n(t, months[i], 3)) {   /* a constant length: no memcmp call per month */
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
	if (!span_eat(&t, " ") || !eat_clock(&t, &hh, &mm, &ss))
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
 * A syslog line pasted without its month and day: "08:01:58 host kernel: ".
 * A clock time alone could begin some other text, so it counts only with
 * the "host ident:" that a syslog line has after it.
 */
static bool strip_clock_time(struct span *s)
{
	struct span t = *s, rest;
	int hh, mm, ss;

	if (span_len(t) < 9 || !is_digit(t.p[0]) || !is_digit(t.p[1]) || t.p[2] != ':')
		return false;
	if (!eat_clock(&t, &hh, &mm, &ss) || hh > 23 || mm > 59 || ss > 60)
		return false;
	skip_fraction(&t);
	if (t.p == t.end || *t.p != ' ')
		return false;
	span_skip_space(&t);
	rest = t;
	skip_host_ident(&t);
	if (t.p == rest.p)
		return false;
	*s = t;
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
	bool zone = false, space;

	/*
	 * A console server's stamp has a space for the 'T' and no zone:
	 * "2016-12-21 16:07:49    [2592938.163474] ...".  Its local time is
	 * no time we can give the record; the stamp is only taken off.
	 */
	if (!eat_digits(&t, 4, &y) || !span_eat(&t, "-") || !eat_digits(&t, 2, &mo) ||
	    !span_eat(&t, "-") || !eat_digits(&t, 2, &d))
		return false;
	space = span_eat(&t, " ");
	if ((!space && !span_eat(&t, "T")) || !eat_clock(&t, &hh, &mi, &ss))
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
		zone = true;
	else if (t.p < t.end && (*t.p == '+' || *t.p == '-')) {
		int sign = *t.p == '+' ? 1 : -1, oh, om;

		t.p++;
		if (!eat_digits(&t, 2, &oh))
			return false;
		(void) span_eat(&t, ":");
		if (!eat_digits(&t, 2, &om))
			return false;
		off = sign * (oh * 3600 + om * 60);
		zone = true;
	}
	if (t.p < t.end && *t.p != ' ')
		return false;
	span_skip_space(&t);
	*s = t;
	skip_host_ident(s);
	if (space && !zone)
		return true;
	if (mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && hh < 24 && mi < 60 && ss <= 60) {
		int64_t secs = days_from_civil(y, (unsigned) mo, (unsigned) d) * 86400 +
			       hh * 3600 + mi * 60 + ss - off;

		*ret_usec = secs * 1000000 + usec;
		*have_time = true;
	}
	return true;
}

/*
 * dmesg "[  123.456789] ", dmesg -T "[Mon Nov 20 10:00:01 2026] ", dmesg -H
 * "[May19 19:57] " and its deltas "[  +0.000013] ", journalctl -o short-monotonic.
 */
static bool strip_bracket_time(struct span *s)
{
	/*
	 * What these stamps are made of, as a table since every dmesg line is
	 * scanned: 2 for a digit, 1 for the rest, 0 for other bytes and the
	 * closing ']'.  At most 41 bytes in the brackets.
	 */
	static const uint8_t stamp_byte[256] = {
		['0' ... '9'] = 2, ['a' ... 'z'] = 1, ['A' ... 'Z'] = 1,
		[' '] = 1, ['.'] = 1, [':'] = 1, ['+'] = 1,
	};
	struct span t = *s;
	const char *lim;
	unsigned kinds = 0, k;

	if (!span_eat(&t, "["))
		return false;
	lim = span_len(t) > 41 ? t.p + 41 : t.end;
	while (t.p < lim && (k = stamp_byte[(unsigned char) *t.p]) != 0) {
		kinds |= k;
		t.p++;
	}
	if (!(kinds & 2) || !span_eat(&t, "]"))
		return false;
	span_skip_space(&t);
	*s = t;
	/* journalctl -o short-monotonic: "[ 12.3] host kernel: " */
	{
		struct span u = *s, first = span_token(&u), ident;

		/* only "kernel:" or "ident[pid]:": dmesg's messages begin
		 * with words too ("EDAC MC0: ...", "CPU 1: ...") */
		if (span_len(first) == 0 || first.end[-1] == ':')
			return true;      /* "mce:", "kernel:": no host before it */
		ident = span_token(&u);
		if (span_eq(ident, "kernel:") || (span_len(ident) > 2 && ident.end[-2] == ']' &&
						  ident.end[-1] == ':'))
			skip_host_ident(s);
	}
	return true;
}

/* "ident[pid]: " alone at the start of the line. */
static bool strip_ident_pid(struct span *s)
{
	const char *c = s->p;

	if (c == s->end || !is_alpha(*c))
		return false;
	while (c < s->end && (is_alpha(*c) || is_digit(*c) || *c == '_' || *c == '-' || *c == '.'))
		c++;
	if (c == s->end || *c++ != '[' || c == s->end || !is_digit(*c))
		return false;
	while (c < s->end && is_digit(*c))
		c++;
	if (s->end - c < 2 || c[0] != ']' || c[1] != ':')
		return false;
	s->p = c + 2;
	span_skip_space(s);
	return true;
}

/*
 * Strip what loggers put in front of a message.  Returns whether there was
 * such a prefix: a prefixed line that is not a machine-check line is just
 * another log line, not garbage.
 */
/*
 * The prefixes that come first: mail quoting, a printk level, a syslog or
 * ISO time stamp, "ident[pid]:".  None of them begins with '['.
 */
/*
 * A bar that quotes: followed by a space, a tab, '>' or the end of the line
 * ("| ", "|> ", "|" alone on a quoted blank line).  "|---|" and "|CPU|"
 * are Markdown's.
 */
static bool quote_bar(const char *c, const char *end)
{
	return c + 1 == end || c[1] == ' ' || c[1] == '\t' || c[1] == '>';
}

/*
 * A Markdown table row ("| CPU | Bank |", "| 0 | 4 | 0x9c00 |"): its
 * columns' bars stand between spaces, and a row ends with one.  A record
 * line never holds " | "; one quoted with bars does not end with a bar.
 */
static bool table_row(struct span s)
{
	return (s.p < s.end && s.end[-1] == '|') || span_find(s, " | ");
}

/*
 * The quote marks from c, the first of them, on: the rare quoted lines,
 * kept out of line so that text_unquote() saves no registers for them.
 */
static __attribute__((noinline)) struct span unquote_marks(struct span s, const char *c)
{
	const char *first = c, *bar = NULL;

	while (c < s.end && (*c == '>' || *c == ' ' || *c == '\t' || (*c == '|' && quote_bar(c, s.end)))) {
		if (*c == '|' && !bar)
			bar = c;
		c++;
	}
	/*
	 * A Markdown table's row is left whole, as it was before bars were
	 * read (only '>' in front of it is taken off): its bars are columns,
	 * and the row is told as the text it is.
	 */
	if (bar && table_row((struct span) { c, s.end }))
		c = bar;
	/* no mark taken off ("|---|", a row unquoted): the line as it came */
	if (c > first)
		s.p = c;
	return s;
}

struct span text_unquote(struct span s)
{
	const char *c = s.p;

	/*
	 * Mail quoting in front of a log pasted into a reply: "> " and
	 * " > > ", and the bars some mailers and archives quote with, Pine's
	 * "| " among them, alone or mixed with '>' ("|> ", "> | ").  Every
	 * line not led by dmesg's '[' comes here: it is let go after the
	 * compares it took before bars were read.
	 */
	while (c < s.end && (*c == ' ' || *c == '\t'))
		c++;
	if (c == s.end || (*c != '>' && *c != '|'))
		return s;
	return unquote_marks(s, c);
}

static bool strip_leading_prefixes(struct span *s, bool *have_time, int64_t *ret_usec)
{
	bool any = false;
	struct span u = text_unquote(*s);

	if (u.p != s->p) {
		*s = u;
		any = true;
	}
	/* "<4>" printk level, as in /dev/kmsg-style captures */
	if (span_len(*s) >= 3 && s->p[0] == '<' && is_digit(s->p[1]) && s->p[2] == '>') {
		s->p += 3;
		any = true;
	}
	if (strip_syslog_time(s) || strip_iso_time(s, have_time, ret_usec) || strip_clock_time(s))
		any = true;
	/* "mcelog[808]: ", a journal line pasted without its date and host */
	if (strip_ident_pid(s))
		any = true;
	else if (!any) {
		/*
		 * "host mcelog[808]: ", the same line pasted with its host but
		 * not its date.  The host is one word with no ':' of its own;
		 * only "ident[pid]:" after it makes it one.
		 */
		struct span t = *s, host = span_token(&t);

		span_skip_space(&t);
		if (span_len(host) > 0 && host.end[-1] != ':' && host.p[0] != '[' &&
		    strip_ident_pid(&t)) {
			*s = t;
			any = true;
		}
	}
	return any;
}

static bool strip_log_prefix(struct span *s, bool *have_time, int64_t *ret_usec)
{
	bool any = false;

	/* dmesg's "[  123.456789] " begins most lines: it skips what cannot begin so */
	if (s->p < s->end && s->p[0] != '[')
		any = strip_leading_prefixes(s, have_time, ret_usec);
	/* sysklogd's wall message named the host too: "localhost kernel: CPU 1: ..." */
	{
		struct span t = *s, host = span_token(&t);

		/* "kernel:" as the whole next token, without reading on to its end */
		span_skip_space(&t);
		if (span_len(host) > 0 && host.end[-1] != ':' && span_eat(&t, "kernel:") &&
		    (t.p == t.end || is_space(*t.p))) {
			*s = t;
			span_skip_space(s);
			any = true;
		}
	}
	/* syslogd's wall message to terminals: "kernel:CPU 0: ..." under a
	 * "Message from syslogd@host at ..." line */
	if (span_eat(s, "kernel:")) {
		span_skip_space(s);
		any = true;
	}
	if (strip_bracket_time(s))
		any = true;
	return any;
}

/*
 * The tag as copies through web pages and wikis leave it, where markup ate
 * its "]" ("[Hardware Error: Error Addr: 0x...") or "[Hardware" and "]"
 * ("Error: CPU:2 (19:21:0) MC5_STATUS0x...").  A line that begins
 * "Error:" is taken for such a copy: what follows is read as the tagged
 * lines are, and free text under that tag is no garbage.
 */
static struct span damaged_tag(struct span s)
{
	const char *m;

	if ((m = span_find(s, "[Hardware Error:")))
		s.p = m + strlen("[Hardware Error:");
	else if (!span_eat(&s, "Error:"))
		return (struct span) { NULL, NULL };
	span_trim(&s);
	return s;
}

/*
 * The line nearly every kernel console capture is made of, "[  123.456789]
 * mce: [Hardware Error]: ...", split without trying the other prefixes
 * first.  Only a plain dmesg stamp followed by the tag is taken, and such
 * a line text_line_general() splits the same way: test-record-text
 * compares the two on every sample line and on lines made to sit at the
 * edges of this one.
 */
static bool split_dmesg_tagged(struct span s, struct text_line *ret)
{
	static const char tag[] = "mce: " HW_ERR_TAG;
	const size_t n = sizeof(tag) - 1;
	const char *c = s.p + 1, *lim, *digits;

	if (span_len(s) < 2 || s.p[0] != '[')
		return false;
	/* as strip_bracket_time() reads the stamp: at most 41 bytes in the brackets */
	lim = s.end - c > 41 ? c + 41 : s.end;
	while (c < lim && *c == ' ')
		c++;
	digits = c;
	while (c < lim && is_digit(*c))
		c++;
	if (c == digits || c == lim || *c != '.')
		return false;
	digits = ++c;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * printk's six digits of microseconds and the ']' (within the 41
	 * bytes) told by one load, rather than a digit at a time: each of the
	 * six bytes' high nibble 3 and low nibble below 10 (adding 6 leaves
	 * the high nibble 3).  Any other stamp is read bytewise.
	 */
	if (lim - c >= 7 && s.end - c >= 8) {
		const uint64_t six = 0x0000ffffffffffffull, high = 0xf0f0f0f0f0f0f0f0ull;
		uint64_t x;

		memcpy(&x, c, 8);
		if ((x & six & high) == (0x3030303030303030ull & six) &&
		    ((x + 0x0606060606060606ull) & six & high) == (0x3030303030303030ull & six) &&
		    c[6] == ']')
			c += 6;
	}
#endif
	while (c < lim && is_digit(*c))
		c++;
	if (c == digits || c == s.end || *c != ']')
		return false;
	c++;
	while (c < s.end && is_space(*c))
		c++;
	if ((size_t) (s.end - c) < n || memcmp(c, tag, n) != 0)
		return false;
	*ret = (struct text_line) {
		.line = s,
		.msg = { c, s.end },
		.prefixed = true,
		.kernel_tag = true,
		.tagged = { c + n, s.end },
	};
	span_trim(&ret->tagged);
	return true;
}

bool text_line_split(struct span s, struct text_line *ret)
{
	return split_dmesg_tagged(s, ret) || text_line_general(s, ret);
}

bool text_line_general(struct span s, struct text_line *ret)
{
	bool prefixed, have_time = false;
	int64_t time_usec = 0;
	const char *m;
	struct span line = s;

	prefixed = strip_log_prefix(&s, &have_time, &time_usec);
	if (span_len(s) == 0)
		return false;
	*ret = (struct text_line) {
		.line = line,
		.msg = s,
		.prefixed = prefixed,
		.have_time = have_time,
		.time_usec = time_usec,
	};
	/*
	 * Found here, once, since several forms' lines carry it; right after
	 * the kernel's "mce: " on most lines, where it is looked at first.
	 */
	if (span_starts(s, "mce: " HW_ERR_TAG)) {
		m = s.p + strlen("mce: ");
		ret->kernel_tag = true;
	} else
		m = span_find(s, HW_ERR_TAG);
	if (m) {
		ret->tagged = (struct span) { m + strlen(HW_ERR_TAG), s.end };
		span_trim(&ret->tagged);
	} else
		ret->tagged = damaged_tag(s);
	return true;
}

/*
 * "Machine check events logged" anywhere in s, looked for by its "logged":
 * a record's own lines hold no 'l' but in "microcode", where a search
 * from the 'M' stops at every "Machine Check" and "MISC".
 */
static bool logged_anywhere(struct span s)
{
	static const char before[] = "Machine check events ";
	const size_t n = sizeof(before) - 1;
	struct span t = s;
	const char *m;

	while ((m = span_find(t, "logged"))) {
		if ((size_t) (m - s.p) >= n && memcmp(m - n, before, n) == 0)
			return true;
		t.p = m + 1;
	}
	return false;
}

/*
 * The heads of the kernel's lines that belong to no record, by their first
 * byte: every kernel line is tried against them, and a record's own lines
 * ("CPU", "TSC", "PROCESSOR", ...) are settled by one switch and at most
 * two comparisons of known lengths.
 */
static bool noise_head(struct span s)
{
	switch (s.p[0]) {
	case 'M':
		return span_starts(s, "Machine check: ") || span_starts(s, "MCE records pool");
	case 'R':
		return span_starts(s, "Run the above through") ||
		       span_starts(s, "Run through mcelog --ascii");     /* 2.6.x panic banner */
	case 'K':
		return span_starts(s, "Kernel panic") ||
		       span_starts(s, "Kernel Panic");   /* as retyped into mails and forums */
	case 'k':
		return span_starts(s, "kernel panic");
	case 'F':
		return span_starts(s, "Fake kernel panic");
	case 'S':
		return span_starts(s, "Some CPUs didn't answer");
	case 'T':
		return span_starts(s, "Timeout: Not all CPUs") ||
		       span_starts(s, "This is not a software problem");   /* 2.6.x banner */
	case 'H':
		return span_starts(s, "Hardware error from APEI") ||
		       span_starts(s, "HARDWARE ERROR");                   /* 2.6.x banner */
	case 'e':
		return span_starts(s, "event severity:");
	case 'E':
		/* APEI/CPER sections: " Error 0, type: corrected" */
		return span_starts(s, "Error ");
	case 's':
		return span_starts(s, "section_type:");
	case '-':
		/* journalctl's own markers between a unit's lines */
		return span_starts(s, "-- Reboot --") || span_starts(s, "-- Boot ") ||
		       span_starts(s, "-- Logs begin at ") || span_starts(s, "-- Journal begins at ") ||
		       span_starts(s, "-- No entries --");
	default:
		return false;
	}
}

bool text_kernel_noise_head(struct span s)
{
	return span_len(s) > 0 && noise_head(s);
}

bool text_kernel_logged(struct span s)
{
	/* "Machine check events logged" is the kernel's wherever it stands */
	return logged_anywhere(s);
}

bool text_kernel_noise(struct span s)
{
	return text_kernel_noise_head(s) || text_kernel_logged(s);
}

/* Kernel MCE/EDAC chatter without the hardware-error tag: no record, and not garbage. */
unsigned text_kernel_chatter_recognise(const struct mce_text_parser *p, const struct text_line *l,
				       struct span *body)
{
	(void) p;
	(void) body;
	/* the RIP line's "{symbol+0x4a/0x60}", split off onto a line of its own */
	if (l->msg.p[0] == '{' && l->msg.end[-1] == '}' && span_find(l->msg, "+0x"))
		return 1;
	return span_starts(l->msg, "mce: ") || span_starts(l->msg, "EDAC ") ||
	       span_starts(l->msg, "mce_notify_irq");
}
