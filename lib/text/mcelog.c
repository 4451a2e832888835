/* SPDX-License-Identifier: MIT */
/*
 * mcelog's text: its --ascii input format, "KEY value" lines (kv-line.c)
 * with '#' comments,
 *
 *   CPU 0 BANK 2
 *   STATUS 0x8800000000000080
 *
 * and its own decoded output, a block opened by "Hardware event. This is
 * not a software error." in which those lines come between decoded text.
 * The kernel's console lines without their prefixes read the same way.
 *
 * Last in the form table: it takes any line, and says which it cannot read.
 */
#include "forms.h"

enum mcelog_line {
	COMMENT = 1,
	LINE,
};

/* mcelog's banner, which begins its output of a record */
static const char *const banners[] = {
	"Hardware event. This is not a software error",
	"HARDWARE ERROR. This is *NOT* a software problem",     /* older versions' */
};

/*
 * A line that opens a record of mcelog's output: its banner, the older
 * versions' banner, or "MCE <n>", which older versions began with.
 */
static bool decoded_head(struct span s)
{
	struct span t;

	for (size_t i = 0; i < ELEMENTSOF(banners); i++)
		if (span_starts(s, banners[i]))
			return true;
	if (!span_eat(&s, "MCE "))
		return false;
	t = span_token(&s);
	span_skip_space(&s);
	for (const char *c = t.p; c < t.end; c++)
		if (!is_digit(*c))
			return false;
	return span_len(t) > 0 && s.p == s.end;
}

/* Where mcelog's output begins in a line: its banner, whose length goes to *len; or NULL. */
static const char *find_banner(struct span s, size_t *len)
{
	const char *first = NULL;

	for (size_t i = 0; i < ELEMENTSOF(banners); i++) {
		const char *m = span_find(s, banners[i]);

		if (m && (!first || m < first)) {
			first = m;
			*len = strlen(banners[i]);
		}
	}
	return first;
}

/*
 * The words that begin one of mcelog's lines in its output: where a line
 * that a web page made of the whole output is cut back into lines.  The
 * decoded text between them ("MCG status:", "MCA: ...") is a line of its
 * own, begun by "MCG", so that no value swallows it ("TIME" takes the
 * date after its number, and what follows that).
 */
static bool begins_line(struct span w)
{
	static const char *const heads[] = {
		"MCE", "CPU", "TIME", "MCG", "STATUS", "CPUID",
	};

	for (size_t i = 0; i < ELEMENTSOF(heads); i++)
		if (span_eq_n(w, heads[i], strlen(heads[i])))
			return true;
	return false;
}

static int parse_line(struct mce_text_parser *p, const struct text_line *l, struct span s);

/* One of the lines mcelog prints its registers and CPU on, by its first word. */
static bool register_line(struct span s)
{
	struct span w = span_token(&s);

	return span_eq(w, "STATUS") || span_eq(w, "MCGCAP") || span_eq(w, "CPUID");
}

/*
 * mcelog's whole output in one line, as a web page shows a paste whose
 * line breaks it lost: "mcelog: ... Hardware event. This is not a
 * software error. MCE 0 CPU 0 BANK 11 MISC ... STATUS ... CPUID Vendor
 * Intel Family 6 Model 79".  Read as the lines it was made of: from each
 * banner to the next, the banner, then a line at each of mcelog's
 * line-starting words.  The pieces are read as lines, never as
 * flattened output again (a piece may be long and hold a banner).
 */
static int parse_flattened(struct mce_text_parser *p, const struct text_line *l, struct span s,
			   const char *banner, size_t banner_len)
{
	int k;

	for (;;) {
		struct span head = { banner, banner + banner_len }, rest, part;
		size_t next_len = 0;
		const char *end = find_banner((struct span) { head.end, s.end }, &next_len);

		if (!end)
			end = s.end;
		/* the banner, its full stop, and the lines after it */
		if (head.end < end && *head.end == '.')
			head.end++;
		if ((k = parse_line(p, l, head)) < 0)
			return k;
		rest = (struct span) { head.end, end };
		span_skip_space(&rest);
		part = rest;
		while (rest.p < rest.end) {
			struct span t = rest, w = span_token(&t);

			if (w.p != part.p && begins_line(w)) {
				part.end = w.p;
				span_trim(&part);
				if ((k = parse_line(p, l, part)) < 0)
					return k;
				part = (struct span) { w.p, end };
			}
			rest = t;
			span_skip_space(&rest);
		}
		span_trim(&part);
		if (span_len(part) > 0 && (k = parse_line(p, l, part)) < 0)
			return k;
		if (end == s.end)
			return 0;
		banner = end;
		banner_len = next_len;
	}
}

unsigned text_mcelog_recognise(const struct mce_text_parser *p, const struct text_line *l,
			       struct span *body)
{
	(void) p;
	(void) body;
	return l->msg.p[0] == '#' ? COMMENT : LINE;
}

int text_mcelog_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
		      struct span s)
{
	if (kind == COMMENT)
		return 0;
	if (span_len(s) > 120) {
		/* longer than any line of mcelog's: its whole output, flattened? */
		size_t len;
		const char *b = find_banner(s, &len);

		if (b)
			return parse_flattened(p, l, s, b, len);
	}
	return parse_line(p, l, s);
}

static int parse_line(struct mce_text_parser *p, const struct text_line *l, struct span s)
{
	struct mce_record r;
	struct kv_line info;
	enum kv_result res;
	int k;
	bool decoded = p->open == OPEN_MCELOG_DECODED;

	if (decoded_head(s)) {
		/* "Hardware event..." then "MCE 0" head one record, not two */
		if (decoded && p->rec.have == 0)
			return 0;
		return text_begin(p, OPEN_MCELOG_DECODED, l->have_time, l->time_usec);
	}

	r = (p->open == OPEN_MCELOG || decoded || p->open == OPEN_KERNEL) ? p->rec
									 : (struct mce_record) { 0 };
	res = text_kv_line(p, s, &r, &info);
	if (res == KV_NOT_OURS && p->open == OPEN_MCELOG && span_starts(s, "MCG status:")) {
		/*
		 * mcelog's decoded text, its banner cut off by whoever copied it
		 * from "CPU n BANK b" on: "MCG status:" is the first line of its
		 * own, always printed.  The rest of its text is passed over.
		 */
		p->open = OPEN_MCELOG_DECODED;
		return 0;
	}
	if (res == KV_NOT_OURS) {
		if (decoded || l->prefixed || text_kernel_noise(s) || span_starts(s, "mcelog:") ||
		    span_starts(s, "Running trigger") || text_macos_report_text(p, s))
			return 0;       /* mcelog's decoded text, another log line, a panic report's */
		{
			char buf[64];

			text_diag(p, MCE_TEXT_UNKNOWN, p->line, "not a machine-check record line: '%s'",
				  span_show(s, buf, sizeof(buf)));
		}
		return 0;
	}
	if (res == KV_BAD) {
		/*
		 * In mcelog's decoded output a keyword may start free text
		 * ("CPU is unsupported"); don't judge it.  Its register lines
		 * are judged there too: no text of its own begins "STATUS ",
		 * "MCGCAP " or "CPUID ", and a bad one lost would lose the
		 * record's registers or its CPU unsaid.
		 */
		if (!decoded || register_line(s))
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
			if ((k = text_begin(p, f, l->have_time, l->time_usec)) < 0)
				return k;
			r = keep;
		}
	} else if (p->open == OPEN_NONE) {
		if ((k = text_begin(p, OPEN_MCELOG, l->have_time, l->time_usec)) < 0)
			return k;
	}
	p->rec = r;
	p->last = p->line;
	/*
	 * PROCESSOR is the kernel's last line, unless old sb_edac announced
	 * the record on the line before it: then its DIMM line ends it.
	 */
	if (info.processor && p->open == OPEN_KERNEL &&
	    !(p->sbridge_line != 0 && p->first == p->sbridge_line + 1))
		return text_flush(p);
	return 0;
}
