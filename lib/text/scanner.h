/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The text parser's shared scanner: the parser state, a line as the forms
 * see it, a row of the form table, and what every form reads lines with.
 * Private to the text parser (lib/record-text.c and lib/text/); everything
 * else uses record-text.h.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "macro.h"
#include "parse-number.h"
#include "record.h"
#include "record-text.h"
#include "span.h"

/* The form of the multi-line record being assembled, if any. */
enum open_record {
	OPEN_NONE,
	OPEN_KERNEL,          /* mce: [Hardware Error]: CPU n: Machine Check ... */
	OPEN_EDAC_AMD,        /* [Hardware Error]: CPU:n (f:m:s) MCb_STATUS[...] */
	OPEN_MCELOG,          /* CPU 0 BANK 4 / STATUS ... */
	OPEN_MCELOG_DECODED,  /* mcelog's own output: "Hardware event. ..." block */
	OPEN_RASDAEMON,       /* rasdaemon's mce_record line, split by a newline in its text */
	OPEN_EDAC_INTEL,      /* EDAC sbridge MCm: CPU n: Machine Check Event: ... */
	OPEN_PANIC,           /* CPU n: Machine Check Exception: MCGSTATUS, then Bank b: STATUS */
	OPEN_RAS_MC_CTL,      /* a ras-mc-ctl --errors row over several lines */
	OPEN_K8_NB,           /* early x86_64 kernels' K8 northbridge lines */
	OPEN_MACOS_MCA,       /* macOS panic log: Machine-check capabilities, Processor n, IA32_MCi_* */
	OPEN_MACOS_EFI,       /* a Mac's "MCA Error Report": Core: n, IA32_MCi_STATUS=... */
	OPEN_FREEBSD_MCA,     /* FreeBSD's MCA: Bank n, Status ..., then its Global Cap, Vendor, CPU lines */
};

/* What the rest of a line a console or a mailer wrapped must be, if it comes next. */
enum text_wrap {
	WRAP_NONE,
	WRAP_STATUS,          /* kernel.c: STATUS cut at the 80th column: hex digits */
	WRAP_PROCESSOR,       /* kernel.c: PROCESSOR line cut before "APIC": the record waits */
	WRAP_EDAC_CPU,        /* edac-amd.c: "CPU:n (f:m:s)" cut before its "MCb_STATUS" */
	WRAP_EDAC_TEXT,       /* kernel.c: the AMD decoder's text cut at a word */
	WRAP_EDAC_REG,        /* edac-amd.c: a register line cut after its last "Key:": the value */
	WRAP_EDAC_LAST,       /* edac-amd.c: the "cache level:" line cut after a comma: its fields */
};

/*
 * IA32_MCi_STATUS's ADDRV and MISCV (Intel SDM Vol. 3B, 16.3.2.2), for the
 * forms whose dumps print ADDR and MISC only, or meaningfully only, when valid.
 */
#define TEXT_STATUS_ADDRV (1ull << 58)
#define TEXT_STATUS_MISCV (1ull << 59)

/* The wraps whose rest edac-amd.c waits for (text_edac_amd_unwrap()), the others kernel.c's. */
static inline bool text_wrap_edac_amd(enum text_wrap w)
{
	return w == WRAP_EDAC_CPU || w == WRAP_EDAC_REG || w == WRAP_EDAC_LAST;
}

/*
 * Older sb_edac's records held back for DIMM lines that come after later
 * records (assemble.c): at most TEXT_HOLD_MAX records, and no longer than
 * TEXT_HOLD_LINES lines after the hold began or last got a DIMM line, so
 * that memory does not grow with the input and a record is not kept from
 * its reader long.
 */
#define TEXT_HOLD_MAX 16
#define TEXT_HOLD_LINES 64

/* A record that ended while a hold was on, as emit() would have been given it. */
struct text_held {
	struct mce_record rec;
	unsigned first, last;
	bool have_log_time;
	bool awaits;                  /* older sb_edac's, its DIMM line not come: the hold waits for it */
	int64_t log_time_usec;
};

struct mce_text_parser {
	struct mce_text_callbacks cb;
	void *userdata;
	unsigned line;
	enum mce_source source;
	int stopped;                  /* negative return of a callback: sticky */
	bool wall;                    /* syslogd's wall messages seen: blank lines separate them */
	bool blank;                   /* in wall text, a blank line came: the record may end */
	bool macos_report;            /* in a macOS panic report: its own text is no garbage */
	unsigned sbridge_line;        /* old sb_edac's "sbridge: HANDLING MCE MEMORY ERROR", if seen */
	bool joined;                  /* the open record got its older sb_edac DIMM line */
	unsigned nheld;               /* records held back, in input order; 0: no hold */
	unsigned hold_line;           /* the hold began, or last got a DIMM line, at this line */
	struct text_held held[TEXT_HOLD_MAX];

	bool have_default;
	enum mce_vendor def_vendor;
	uint32_t def_family;
	uint32_t def_model;

	/* the record being assembled */
	enum open_record open;
	struct mce_record rec;
	unsigned first, last;
	bool emitted;                 /* records were made of it (text_emit_part): ending it adds none */
	unsigned step;                /* macos-mca.c, macos-efi.c, freebsd-mca.c: where in the dump the last line was */
	bool have_log_time;           /* a dated log prefix on the record's first line */
	int64_t log_time_usec;

	/* the line before, if it was cut where a console or a mailer wraps */
	enum text_wrap wrap;
	unsigned wrap_line;           /* its number: the rest may only be the next line */
	unsigned wrap_len;            /* WRAP_STATUS: STATUS digits read; WRAP_EDAC_TEXT: its width */

	char msg[256];                /* why the current line is rejected: text_bad() */
};

/* One input line, as the forms see it. */
struct text_line {
	struct span line;             /* the whole line, trimmed */
	struct span msg;              /* the message after any log prefix: trimmed, never empty */
	struct span tagged;           /* after the kernel's "[Hardware Error]:", trimmed; .p NULL without */
	bool prefixed;                /* a log line: if it is no record, it is not garbage either */
	bool have_time;               /* the prefix carried a date, in time_usec */
	bool kernel_tag;              /* msg begins with the kernel's own "mce: [Hardware Error]:" */
	int64_t time_usec;
};

/*
 * The first byte of a tagged line's body as a bit of a set of such bytes
 * (struct text_form's kernel_skip): '<' to 'z' their own bits, any other
 * byte, or none, the top one.
 */
#define TEXT_HEAD(c) (1ull << ((c) - '<'))
#define TEXT_HEAD_OTHER (1ull << 63)
#define TEXT_HEADS_ALL (~0ull)
_Static_assert('z' - '<' < 63, "the heads '<' to 'z' fit under TEXT_HEAD_OTHER");

static inline uint64_t text_head(struct span tagged)
{
	unsigned c = tagged.p < tagged.end ? (unsigned char) tagged.p[0] : 0;

	return c - '<' <= (unsigned) ('z' - '<') ? TEXT_HEAD(c) : TEXT_HEAD_OTHER;
}

/*
 * A row of the form table in lib/record-text.c.  Rows are tried in order
 * and the first that recognises a line reads it.
 */
struct text_form {
	/*
	 * 0 if the line is not the form's; else which of the form's lines it
	 * is, a number of the form's own that parse() gets back, so that the
	 * line is classified once.  *body is the message on entry and may be
	 * narrowed to the part parse() reads.  Looking at the open record is
	 * how a form claims continuation lines that carry no mark of their own.
	 */
	unsigned (*recognise)(const struct mce_text_parser *p, const struct text_line *l,
			      struct span *body);
	/*
	 * Begin, extend or end the open record, or emit a one-line record.
	 * Returns 0 or a callback's negative result.  NULL: the form's lines
	 * are recognised only to be skipped.
	 */
	int (*parse)(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
		     struct span body);
	/*
	 * The lines with the kernel's own tag (l->kernel_tag) that recognise()
	 * never takes, by the first byte of their body (text_head()): such a
	 * line, most of a kernel log, skips the rows before the kernel's
	 * without a call.  0: none skipped.  test-record-text tries every
	 * skipped head on the recognisers.
	 */
	uint64_t kernel_skip;
};

/* ---- log.c: what logs put around the records ---- */

/* Strip s's log prefix, find the hardware-error tag.  false: nothing after the prefix. */
bool text_line_split(struct span s, struct text_line *ret);
/* The same without the shortcut for plain dmesg lines: for the tests that compare the two. */
bool text_line_general(struct span s, struct text_line *ret);
/*
 * s without the mail quoting ("> ", ">> ", "| ", "|> ") in front of it: a
 * line a mailer wrapped is measured, and its rest found, as it was before
 * it was quoted.  A Markdown table row keeps its bars.
 */
struct span text_unquote(struct span s);
/* Kernel lines that belong to no record and must not be mistaken for garbage. */
bool text_kernel_noise(struct span s);
/* macos-mca.c: s is a line of a macOS panic report's own text, not of a record */
bool text_macos_report_text(const struct mce_text_parser *p, struct span s);
/*
 * Its two halves: s begins as such a line does; s holds "Machine check
 * events logged" anywhere.  A line that reads whole as "KEY value" pairs
 * cannot hold the latter (kv_line.unchecked says when it might).
 */
bool text_kernel_noise_head(struct span s);
bool text_kernel_logged(struct span s);

/*
 * kernel.c, edac-amd.c: line s (whole, trimmed) is not the rest of the
 * wrapped line before it: give up waiting for it.  Returns 0 or a
 * callback's negative result.
 */
int text_kernel_unwrap(struct mce_text_parser *p, struct span s);
int text_edac_amd_unwrap(struct mce_text_parser *p, struct span s);

/* ---- assemble.c: the record being assembled, and handing records out ---- */

_printf_(4, 5)
void text_diag(struct mce_text_parser *p, enum mce_text_diag kind, unsigned line, const char *fmt, ...);
/* Reject the current line as malformed, for the reason in p->msg. */
void text_reject(struct mce_text_parser *p);
/* The line is malformed, for the reason fmt gives: said, and 0 (reading goes on). */
_printf_(2, 3)
int text_reject_with(struct mce_text_parser *p, const char *fmt, ...);
/* Emit the open record, if any. */
int text_flush(struct mce_text_parser *p);
/*
 * Hand out the held records from the first on: all of them (the hold
 * ends), or only those before the first that still awaits its DIMM line.
 */
int text_hold_release(struct mce_text_parser *p, bool all);
/* The held record still awaiting the older DIMM line naming addr and STATUS[31:0] code, or NULL. */
struct text_held *text_hold_find(struct mce_text_parser *p, uint64_t addr, uint32_t code);
/* Open a new multi-line record at the current line, ending the previous one. */
int text_begin(struct mce_text_parser *p, enum open_record open, bool have_time, int64_t time_usec);
/* The same, the new record *r (its first line, read) rather than empty: not cleared to be overwritten. */
int text_begin_with(struct mce_text_parser *p, enum open_record open, bool have_time, int64_t time_usec,
		    const struct mce_record *r);
/*
 * A record made of the open one and the current line, which keeps the open
 * one open for more such lines (old kernels' one line per bank under one
 * head); ending the open one then emits nothing more.
 */
int text_emit_part(struct mce_text_parser *p, struct mce_record *r);
/* One complete record on the current line: emit it, after ending any open record. */
int text_single(struct mce_text_parser *p, struct mce_record *r, bool have_time, int64_t time_usec);

/* ---- fields.c: values and the record fields they go to ---- */

enum kv_result {
	KV_OK,            /* the line was read */
	KV_NOT_OURS,      /* the line does not start with a keyword */
	KV_BAD,           /* it does, but a value is wrong: message in p->msg */
};

/* Where a named value goes in struct mce_record. */
struct text_field {
	const char *name;
	size_t len;         /* strlen(name): tables are searched for every token */
	uint32_t have;      /* the MCE_HAVE_* bit it sets */
	size_t offset;
	unsigned size;      /* bytes in struct mce_record */
	int base;           /* as parse_unsigned() takes it */
};

/* n is a string literal: pasting "" to it makes anything else an error. */
#define TEXT_FIELD(n, h, f, b) {                                      \
		.name = "" n,                                         \
		.len = sizeof("" n) - 1,                              \
		.have = (h),                                          \
		.offset = offsetof(struct mce_record, f),             \
		.size = sizeof(((struct mce_record *) 0)->f),         \
		.base = (b),                                          \
	}

/* Puts the reason in p->msg, returns KV_BAD. */
_printf_(2, 3)
enum kv_result text_bad(struct mce_text_parser *p, const char *fmt, ...);
/* text_num() for all but plain digits: "0x", too long, bad bytes, too large, the errors. */
enum kv_result text_num_other(struct mce_text_parser *p, const char *key, struct span v, int base,
			      uint64_t max, uint64_t *ret);

/*
 * A whole span as an unsigned number; key names it in the message.
 * Inline: a few a line, and the call cost more than the plain digits
 * that are most numbers of most lines, read here.
 */
static inline enum kv_result text_num(struct mce_text_parser *p, const char *key, struct span v,
				      int base, uint64_t max, uint64_t *ret)
{
	size_t n = span_len(v), i = 0;
	uint64_t x = 0;

	if (base == 16 && n > 0 && n <= 16) {
		unsigned d;

		while (i < n && (d = parse_digit_value_1[(unsigned char) v.p[i]]) != 0) {
			x = x << 4 | (d - 1);
			i++;
		}
	} else if (base == 10 && n > 0 && n <= 19) {
		while (i < n && is_digit(v.p[i])) {
			x = x * 10 + (unsigned) (v.p[i] - '0');
			i++;
		}
	} else
		return text_num_other(p, key, v, base, max, ret);
	if (i == n && x <= max) {
		*ret = x;
		return KV_OK;
	}
	return text_num_other(p, key, v, base, max, ret);
}

/* "0x" and hex digits, the whole span, up to max: the form dumps print registers in. */
enum kv_result text_hex_0x(struct mce_text_parser *p, const char *key, struct span t, uint64_t max,
			   uint64_t *ret);
const struct text_field *text_field_find(const struct text_field *fields, size_t n, struct span key,
					 bool fold_case);
/* Read v in base into f's place in *r. */
enum kv_result text_field_read(struct mce_text_parser *p, const struct text_field *f, struct span v,
			       int base, struct mce_record *r);
/* "cs:<ip>" or "cs:ip". */
enum kv_result text_rip(struct mce_text_parser *p, struct span v, struct mce_record *r);
/* "vendor:cpuid": Linux's X86_VENDOR_* number and CPUID(1).EAX. */
enum kv_result text_processor(struct mce_text_parser *p, struct span v, struct mce_record *r);

/* ---- kv-line.c: "KEY value" lines, the kernel console's and mcelog's ---- */

struct kv_line {
	bool names_cpu;       /* a CPU line: begins a record */
	bool kernel_first;    /* the kernel's "CPU n: Machine Check" line */
	bool processor;       /* a PROCESSOR line: the kernel's last line */
	bool unchecked;       /* text was passed over unread (a symbol, a date, a bank's name) */
};

/*
 * Read a line of KEY value pairs into *r (a copy of the record being
 * assembled; the caller commits it only when the whole line is good).
 * *info tells the caller what kind of line it was.
 */
enum kv_result text_kv_line(struct mce_text_parser *p, struct span s, struct mce_record *r,
			    struct kv_line *info);
/* The same, each key cut out and looked up: for the test that compares the two. */
enum kv_result text_kv_line_unforeseen(struct mce_text_parser *p, struct span s, struct mce_record *r,
				       struct kv_line *info);

/*
 * kernel.c: a line of "KEY value" pairs in a record of form open, which a
 * CPU line begins; end_at_processor: the PROCESSOR line ends the record.
 */
int text_kv_record(struct mce_text_parser *p, const struct text_line *l, struct span body,
		   enum open_record open, bool end_at_processor);

/* ---- ras-fields.c: "key=value" fields, rasdaemon's and ras-mc-ctl's ---- */

/*
 * What rasdaemon's mce_record lines are searched for besides their fields,
 * found in the same pass over their '='s.
 */
struct text_ras_marks {
	bool apicid;          /* "apicid=" somewhere: the record's last line */
	unsigned cpu_type;    /* "cpu_type= NAME": the vendor that wins (text_ras_cpu_type()) */
};

/* ret_marks: NULL, or filled when the line reads (KV_OK). */
enum kv_result text_ras_fields(struct mce_text_parser *p, struct span s, struct mce_record *r,
			       bool mc_ctl, struct text_ras_marks *ret_marks);
/*
 * rasdaemon's "cpu_type= AMD Scalable MCA" names the vendor, if nothing
 * else does; should a line hold more than one, the first vendor of the
 * table found anywhere wins, as it always has.
 */
void text_ras_cpu_type(const struct text_ras_marks *m, struct mce_record *r);
/* The marks of a line that text_ras_fields() does not read, by searching it. */
void text_ras_marks_find(struct span s, struct text_ras_marks *ret);
