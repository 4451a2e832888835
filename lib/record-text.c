/* SPDX-License-Identifier: MIT */
/*
 * The text record parser: every form in which people hold machine-check
 * records, fed one line at a time.
 *
 * Design:
 *  - A line is looked at through a (pointer, end) span and never copied or
 *    NUL-terminated, so embedded NULs and any line length are harmless and
 *    memory does not grow with the input: the only state is the one record
 *    being assembled, and at most TEXT_HOLD_MAX records held back for
 *    older sb_edac's DIMM lines (assemble.c).
 *  - Log prefixes (syslog, journalctl short/short-iso/short-precise, dmesg
 *    "[ 123.456]") are stripped first; then the line is recognised by the
 *    form table below: by its marker ("[Hardware Error]:", "mce_record:",
 *    "{", a keyword), or as the continuation of the open record.
 *  - Multi-line forms (kernel console, AMD EDAC, mcelog, rasdaemon) are
 *    assembled into one record.  Unlike mcelog, a record ends at a blank
 *    line, at the start of the next record, or at its form's known last
 *    line, and tokens we do not need do not cut it short.
 *  - A line that looks like a record line but carries a bad value is
 *    rejected as a whole: it contributes nothing, so a record is never built
 *    from half a line.
 *
 * Each form is a file of lib/text/ and a row of the table; the scanner they
 * share is lib/text/scanner.h.  Formats are read from the programs that
 * print them (the kernel's __print_mce() and TP_printk of
 * include/trace/events/mce.h, the AMD EDAC decoder, mcelog's ASCII
 * input/output, rasdaemon and ras-mc-ctl); see peers.md and
 * kernel-interfaces.md for the field lists.
 */
#include <stdlib.h>

#include "record-text.h"
#include "text/forms.h"
#include "text/scanner.h"

/*
 * The forms, in the order they are tried: the first that recognises a line
 * reads it, so the order settles lines more than one form could take.
 * A new form is a file of lib/text/ and a row here.
 */
static const struct text_form forms[] = {
	/* The kernel's hardware-error tag: the AMD EDAC decoder's register
	 * lines first, then the kernel's console lines, and free text. */
	{ .recognise = text_edac_amd_recognise,       .parse = text_edac_amd_parse,
	  .kernel_skip = ~(TEXT_HEAD('C') | TEXT_HEAD('M') | TEXT_HEAD('U') | TEXT_HEAD('D') |
			   TEXT_HEAD('E') | TEXT_HEAD('I') | TEXT_HEAD('P') | TEXT_HEAD('c') |
			   TEXT_HEAD('b')) },
	/* early x86_64 kernels' K8 northbridge lines: before the kernel's
	 * form, which would take "CPU n: Silent ..." for a broken head;
	 * they never carry the kernel's "mce: " */
	{ .recognise = text_k8_nb_recognise,          .parse = text_k8_nb_parse,
	  .kernel_skip = TEXT_HEADS_ALL },
	/* old kernels' head and bank lines, tagged or not: before the
	 * kernel's form, which would take the head for a broken first line */
	{ .recognise = text_panic_recognise,          .parse = text_panic_parse,
	  .kernel_skip = ~(TEXT_HEAD('<') | TEXT_HEAD('B') | TEXT_HEAD('M') | TEXT_HEAD('C')) },
	{ .recognise = text_kernel_recognise,         .parse = text_kernel_parse },
	/* "EDAC <driver> MCm:": before the chatter form skips EDAC lines */
	{ .recognise = text_edac_intel_recognise,     .parse = text_edac_intel_parse },
	/* macOS panic logs' "Machine-check capabilities" dump: its brand
	 * and note lines are free text, taken only inside the dump; no
	 * macOS line carries the kernel's tag */
	{ .recognise = text_macos_mca_recognise,      .parse = text_macos_mca_parse,
	  .kernel_skip = TEXT_HEADS_ALL },
	/* a Mac's "MCA Error Report": its "Core: N" only inside it */
	{ .recognise = text_macos_efi_recognise,      .parse = text_macos_efi_parse,
	  .kernel_skip = TEXT_HEADS_ALL },
	/* FreeBSD's "MCA: ..." lines: before mcelog's, whose decoded output
	 * has "MCA: " lines of its own; FreeBSD's never carry Linux's tag */
	{ .recognise = text_freebsd_mca_recognise,    .parse = text_freebsd_mca_parse,
	  .kernel_skip = TEXT_HEADS_ALL },
	/* "mce_record:" anywhere, or rasdaemon's unmarked continuation line */
	{ .recognise = text_mce_record_recognise,     .parse = text_mce_record_parse },
	{ .recognise = text_json_recognise,           .parse = text_json_parse },
	{ .recognise = text_ras_mc_ctl_recognise,     .parse = text_ras_mc_ctl_parse },
	/* before mcelog's: "mce: ..." and "EDAC ..." lines are no garbage */
	{ .recognise = text_kernel_chatter_recognise, .parse = NULL },
	/* last: it takes every line */
	{ .recognise = text_mcelog_recognise,         .parse = text_mcelog_parse },
};

const struct text_form *text_form_table(size_t *n)
{
	*n = ELEMENTSOF(forms);
	return forms;
}

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

/*
 * A log pasted into Markdown (an issue, a Stack Exchange post) as its
 * source shows it: the fence lines around a code block, "```" or "~~~"
 * with an optional info string (CommonMark 0.31, section 4.5), are read
 * as the blank lines they stand for, and the backticks of a code span
 * around one line (section 6.1) are taken off.  No line of any form we
 * read begins or ends with a backtick or a tilde fence.
 */
static struct span markdown_unwrap(struct span s)
{
	if (span_starts(s, "```") || span_starts(s, "~~~"))
		return (struct span) { s.end, s.end };
	while (s.p < s.end && s.p[0] == '`')
		s.p++;
	while (s.p < s.end && s.end[-1] == '`')
		s.end--;
	span_trim(&s);
	return s;
}

/*
 * Whether the line may be Markdown's, in two compares, as this runs for
 * every line of every input: one unsigned compare takes '`' (60H) to '~'
 * (7EH), the bytes a fence or a code span begins with (and the lowercase
 * letters between, which markdown_unwrap() gives back as they are); the
 * other, a backtick at the end (a code span whose start was not pasted).
 */
static inline bool markdown_maybe(struct span s)
{
	return s.p < s.end && ((unsigned char) (s.p[0] - '`') <= '~' - '`' || s.end[-1] == '`');
}

int mce_text_parser_feed(struct mce_text_parser *p, const char *line, size_t len)
{
	struct span s = { line, line + len };
	struct text_line l;
	uint64_t head;

	if (p->stopped < 0)
		return p->stopped;
	p->line++;
	if (p->nheld > 0 && p->line - p->hold_line > TEXT_HOLD_LINES) {
		/* no DIMM line for the held records in as many lines: the hold ends */
		int k = text_hold_release(p, true);

		if (k < 0)
			return k;
	}
	span_trim(&s);
	if (markdown_maybe(s))
		s = markdown_unwrap(s);
	if (p->wrap != WRAP_NONE && p->line == p->wrap_line + 1) {
		/* the forms that wait for a wrapped line's rest stop waiting here,
		 * unless this is it */
		int k = text_wrap_edac_amd(p->wrap) ? text_edac_amd_unwrap(p, s) : text_kernel_unwrap(p, s);

		if (k < 0)
			return k;
	}
	if (span_len(s) == 0) {
		if (!p->wall)
			return text_flush(p);     /* a blank line ends a record, ... */
		p->blank = true;
		return 0;
	}
	if (span_starts(s, "Message from syslogd@")) {
		/* ... unless it only separates syslogd's wall messages, one
		 * per line: in such text a blank line ends a record only if
		 * no wall head follows it */
		p->wall = true;
		p->blank = false;
		return 0;
	}
	if (p->blank) {
		int k = text_flush(p);

		p->blank = false;
		if (k < 0)
			return k;
	}
	if (!text_line_split(s, &l))
		return 0;                 /* a log line with an empty message */

	head = l.kernel_tag ? text_head(l.tagged) : 0;
	for (size_t i = 0; i < ELEMENTSOF(forms); i++) {
		struct span body;
		unsigned kind;

		if (forms[i].kernel_skip & head)
			continue;
		body = l.msg;
		kind = forms[i].recognise(p, &l, &body);

		if (kind)
			return forms[i].parse ? forms[i].parse(p, &l, kind, body) : 0;
	}
	return 0;                         /* not reached: the last form takes every line */
}

int mce_text_parser_finish(struct mce_text_parser *p)
{
	int k;

	if (p->stopped < 0)
		return p->stopped;
	k = text_flush(p);
	if (k < 0)
		return k;
	return text_hold_release(p, true);   /* no DIMM line will come now */
}
