/* SPDX-License-Identifier: MIT */
/*
 * mcectl decode: decode machine-check records held as text (dmesg, syslog,
 * journal, EDAC, mcelog, rasdaemon, our JSON lines) or given as registers
 * on the command line.
 *
 * Speed matters (people feed it whole log archives): input is read in large
 * blocks and split in place, records are written to stdout many at a time,
 * and the per-record path (parse, decode, render) allocates nothing once
 * warmed up.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cxl-text-line.h"
#include "line-reader.h"
#include "decode-text.h"
#include "decode.h"
#include "json-writer.h"
#include "macro.h"
#include "options.h"
#include "parse-number.h"
#include "ras-record.h"
#include "record-json.h"
#include "record-text.h"
#include "snapshot-line.h"
#include "vendor-section-text.h"
#include "verbs.h"

enum output { OUTPUT_TEXT, OUTPUT_JSON };

struct decode_ctx {
	struct text_input in;         /* first: take_cxl_line() finds the context from it */
	FILE *out;
	enum output output;
	struct json_writer w;             /* JSON output: the lines not yet written */
	struct decode_text_out *text;     /* text output: what is not yet written */
	unsigned records;
	unsigned partial_diags;       /* PARTIAL warnings ... */
	unsigned partial_records;     /* ... of which for records still decoded */
	bool have_default;
	int error;                    /* first output error */
};

static void help(void)
{
	printf("Usage: mcectl decode [FILE|-] [--output text|json] [--cpu-id VENDOR:FAMILY:MODEL]\n"
	       "       mcectl decode --status 0x... [--bank N] [--ipid 0x...] [--addr 0x...]\n"
	       "                     [--misc 0x...] [--synd 0x...] [--mcgstatus 0x...] [--mcgcap 0x...]\n"
	       "                     [--apicid 0x...] [--cpu-id VENDOR:FAMILY:MODEL] [--output text|json]\n"
	       "\n"
	       "Decode machine-check records from FILE (or standard input): kernel console and\n"
	       "dmesg lines, syslog and journalctl output, the AMD EDAC decoder's lines, mcelog's\n"
	       "text format, rasdaemon / ras-mc-ctl lines and mcelogd's JSON lines.\n"
	       "\n"
	       "  -o, --output FORMAT   text (default) or json (one record per line)\n"
	       "  -c, --cpu-id ID       CPU for records that do not name one, e.g. amd:0x19:0x21\n"
	       "                        or intel:6:143 (numbers: 0x for hex, else decimal)\n"
	       "  -h, --help            this text\n"
	       "\n"
	       "Exit status: 0 all decoded, 1 some input was rejected, 2 usage error.\n");
}

/* A family or model up to the next ':' or the end: "0x19" is hex, "25" decimal. */
static int parse_id(const char *s, const char **ret_end, uint32_t *ret)
{
	size_t n = strcspn(s, ":");
	uint64_t v;
	int r;

	r = parse_unsigned(s, n, 0, UINT32_MAX, &v);
	if (r < 0)
		return r;
	*ret_end = s + n;
	*ret = (uint32_t) v;
	return 0;
}

/* "amd:0x19:0x21", "intel:6:143"; mcectl rules --cpu-id too. */
int parse_cpu_id_arg(const char *s, enum mce_vendor *ret_vendor, uint32_t *ret_family,
		     uint32_t *ret_model)
{
	char vendor[32];
	const char *colon = strchr(s, ':'), *end;
	uint32_t f, m;
	enum mce_vendor v;

	if (!colon || colon == s || (size_t) (colon - s) >= sizeof(vendor))
		return -EINVAL;
	memcpy(vendor, s, (size_t) (colon - s));
	vendor[colon - s] = '\0';
	v = mce_vendor_from_string(vendor);
	if (v == MCE_VENDOR_UNKNOWN)
		return -EINVAL;
	if (parse_id(colon + 1, &end, &f) < 0 || *end != ':')
		return -EINVAL;
	if (parse_id(end + 1, &end, &m) < 0 || *end)
		return -EINVAL;
	*ret_vendor = v;
	*ret_family = f;
	*ret_model = m;
	return 0;
}

int parse_cpu_id_option(const char *verb, const char *s, enum mce_vendor *ret_vendor, uint32_t *ret_family,
			uint32_t *ret_model)
{
	if (parse_cpu_id_arg(s, ret_vendor, ret_family, ret_model) >= 0)
		return 0;
	fprintf(stderr, "mcectl %s: --cpu-id '%s': expected VENDOR:FAMILY:MODEL such as amd:0x19:0x21 or "
		"intel:6:143 (vendor intel, amd, hygon, zhaoxin or centaur; numbers 0x-hex or decimal)\n",
		verb, s);
	return -EINVAL;
}

/* Registers are hex, as every tool prints them; "0x" is optional. */
static int parse_reg(const char *s, uint64_t max, uint64_t *ret)
{
	return parse_unsigned(s, strlen(s), 16, max, ret);
}

/*
 * A record of mcelogd's JSON (a JSON-lines file, MCE_JSON) may carry what its
 * CPU was doing: the same one-line summary as `mcectl query` prints, in buf.
 */
static const char *snapshot_of_line(const char *line, size_t len, char *buf, size_t size)
{
	const char *brace = line ? memchr(line, '{', len) : NULL;
	struct snapshot_summary s;
	json_object *o, *snapshot;
	struct json_tokener *tok;
	const char *ret = NULL;

	if (!brace || len - (size_t) (brace - line) > INT_MAX || !memmem(brace, len - (size_t) (brace - line),
									  "\"snapshot\"", 10))
		return NULL;
	tok = json_tokener_new();
	if (!tok)
		return NULL;
	o = json_tokener_parse_ex(tok, brace, (int) (len - (size_t) (brace - line)));
	json_tokener_free(tok);
	if (o && json_object_object_get_ex(o, "snapshot", &snapshot) &&
	    snapshot_summary_from_json(snapshot, &s) >= 0 && snapshot_line_format(&s, buf, size) >= 0)
		ret = buf;
	json_object_put(o);
	return ret;
}

/* The first write error is the one reported. */
static void keep_error(struct decode_ctx *c, int k)
{
	if (k < 0 && c->error == 0)
		c->error = k;
}

/* All that is held written out: at the end, as the stdio stream was flushed. */
static void flush_output(struct decode_ctx *c)
{
	if (c->output == OUTPUT_JSON) {
		keep_error(c, decode_write_all(fileno(c->out), c->w.buf, c->w.len));
		json_writer_reset(&c->w);
	} else {
		decode_text_flush(c->text);
		keep_error(c, c->text->error);
	}
}

/*
 * A record's JSON line is written into c->w from DONE on: ends it, and
 * writes what a fully buffered stdout would have written by now
 * (decode-text.h), so the held output stays within a chunk whatever kind of
 * records the input holds.
 */
static void json_line_end(struct decode_ctx *c, size_t done)
{
	json_writer_byte(&c->w, '\n');
	if (json_writer_failed(&c->w)) {
		/* the lines before it are whole: they are written, this one is not */
		c->w.len = done;
		flush_output(c);
		c->error = -ENOMEM;
		return;
	}
	if (c->w.len >= DECODE_OUT_CHUNK)
		keep_error(c, decode_write_chunks(fileno(c->out), c->w.buf, &c->w.len));
}

static void emit_record(struct decode_ctx *c, const struct mce_record *r, unsigned first,
			unsigned last)
{
	struct mce_decoded d;

	mce_decode(r, &d);
	c->records++;
	if (c->output == OUTPUT_JSON) {
		size_t done = c->w.len;

		json_writer_next(&c->w);
		mce_record_write_json(r, &d, &c->w);
		json_line_end(c, done);
	} else {
		char snapshot[512];
		/* The record came whole from the line being fed: one JSON line. */
		bool one_line = first != 0 && first == last && first == c->in.lineno;

		decode_print_text(c->text, c->records, r, &d, first, last,
				  one_line ? snapshot_of_line(c->in.line, c->in.line_len, snapshot, sizeof(snapshot)) : NULL);
	}
}

static int on_record(const struct mce_record *r, unsigned first, unsigned last, void *userdata)
{
	struct decode_ctx *c = userdata;

	/* The parser warned about this one (PARTIAL) and still hands it over. */
	if (!(r->have & MCE_HAVE_CPUID))
		c->partial_records++;
	emit_record(c, r, first, last);
	return c->error;
}

static void on_diag(enum mce_text_diag kind, unsigned line, const char *msg, void *userdata)
{
	struct decode_ctx *c = userdata;

	if (kind == MCE_TEXT_PARTIAL) {
		c->partial_diags++;
		fprintf(stderr, "mcectl decode: %s:%u: warning: %s\n", c->in.name, line, msg);
	} else {
		c->in.rejected++;
		fprintf(stderr, "mcectl decode: %s:%u: %s\n", c->in.name, line, msg);
	}
}

/* A record read from a ras:* or cxl:* line, out as one JSON line or its summary and fields; then freed. */
static int emit_ras_record(struct decode_ctx *c, struct text_input *in, struct ras_record *r)
{
	c->records++;
	if (c->output == OUTPUT_JSON) {
		size_t done = c->w.len;

		json_writer_next(&c->w);
		ras_record_write_json(r, &c->w);
		json_line_end(c, done);
	} else {
		/* held with the machine checks' text, so written in the same chunks and order */
		decode_print_ras_text(c->text, c->records, in->lineno, r);
		keep_error(c, c->text->error);
	}
	ras_record_done(r);
	return c->error < 0 ? c->error : 1;
}

/*
 * A line holding a cxl:* event, as the kernel traces it (trace_pipe, perf
 * script) or as rasdaemon logs it: the record the daemon would log for it,
 * as one JSON line or its summary and fields.  Other lines go on to the
 * machine-check parser.  Out of line: its frame (a record, a message) is
 * not set up for the lines that name no cxl event.
 */
static _noinline_ int take_cxl_record(struct text_input *in, const char *line, size_t len)
{
	struct decode_ctx *c = (struct decode_ctx *) in;
	const char *form = NULL;
	struct ras_record r;
	char why[256];
	int k;

	k = cxl_text_line_parse(line, len, &r, &form, why, sizeof(why));
	if (k == -ENOENT)
		return 0;
	if (k < 0) {
		in->rejected++;
		fprintf(stderr, "mcectl decode: %s:%u: a %s that does not read: %s\n", in->name, in->lineno,
			form, k == -EINVAL ? why : strerror(-k));
		return 1;
	}
	return emit_ras_record(c, in, &r);
}

/*
 * A line holding ras:non_standard_event as the kernel traces it: the
 * record the daemon would log, its vendor section decoded.  Out of line,
 * as take_cxl_record().
 */
static _noinline_ int take_vendor_section_record(struct text_input *in, const char *line, size_t len)
{
	struct decode_ctx *c = (struct decode_ctx *) in;
	const char *why = NULL;
	struct ras_record r;
	int k;

	k = vendor_section_text_parse(line, len, &r, &why);
	if (k == -ENOENT)
		return 0;
	if (k < 0) {
		in->rejected++;
		fprintf(stderr, "mcectl decode: %s:%u: a non_standard_event that does not read: %s\n", in->name,
			in->lineno, k == -EINVAL ? why : strerror(-k));
		return 1;
	}
	return emit_ras_record(c, in, &r);
}

/* What a line's '_'s show it may be: the cxl and non_standard_event parsers' lines hold one. */
enum underscore_word {
	WORD_CXL = 1 << 0,                /* a word "cxl_...": at the line's start or after a space */
	WORD_NON_STANDARD_EVENT = 1 << 1, /* ": non_standard_event: ", the trace's event name */
};

/* ": non_standard_event: " in the LEN bytes at P, found by its ':'s: a cxl line has few. */
static bool names_non_standard_event(const char *p, size_t len)
{
	static const char event[] = " non_standard_event: ";
	const char *end = p + len;

	while ((p = memchr(p, ':', (size_t) (end - p)))) {
		p++;
		if ((size_t) (end - p) >= sizeof(event) - 1 && p[0] == ' ' && p[1] == 'n' &&
		    !memcmp(p, event, sizeof(event) - 1))
			return true;
	}
	return false;
}

/*
 * One pass over the line's '_'s, from U, the first, for both: each is
 * looked at for the "cxl" before it and for the ": non" of
 * ras:non_standard_event's name.  A JSON line's dozen '_'s cost a memchr
 * each, where a pass for each name and a memchr for each of its thirty
 * ':'s cost four times that (decode-bench's JSON input form).  Past a cxl
 * word, whose line has many '_'s and few ':'s, the event's name is looked
 * for by its ':'s.  Exact: the name's first '_' is one of those looked at,
 * or its ':' lies past the cxl word's '_'; and a "cxl_" word's '_' is the
 * one cxl_text_word_from() stops at.
 */
static unsigned underscore_words(const char *line, size_t len, const char *u)
{
	static const char event[] = ": non_standard_event: ";
	const char *end = line + len;

	do {
		size_t before = (size_t) (u - line);

		if (before >= 3 && u[-1] == 'l' && u[-2] == 'x' && u[-3] == 'c' && (before == 3 || u[-4] == ' '))
			return names_non_standard_event(u, (size_t) (end - u)) ? WORD_NON_STANDARD_EVENT : WORD_CXL;
		if (before >= 5 && u[-1] == 'n' && u[-5] == ':' && (size_t) (end - u) >= sizeof(event) - 1 - 5 &&
		    !memcmp(u - 5, event, sizeof(event) - 1))
			return WORD_NON_STANDARD_EVENT;   /* taken whatever else the line holds */
		u++;
	} while ((u = memchr(u, '_', (size_t) (end - u))));
	return 0;
}

/*
 * A line naming ras:non_standard_event goes to its parser, and, if not,
 * a line with a word "cxl_..." to the cxl parsers.  Out of line: the
 * lines with a '_' are few but in JSON.
 */
static _noinline_ int take_underscored_line(struct text_input *in, const char *line, size_t len, const char *u)
{
	unsigned words = underscore_words(line, len, u);

	if (words & WORD_NON_STANDARD_EVENT)
		return take_vendor_section_record(in, line, len);
	if (words & WORD_CXL)
		return take_cxl_record(in, line, len);
	return 0;
}

/*
 * Offered only the lines holding a '_' (take_mark): the rest, nearly all
 * of a machine-check log, go to its parser without a look.
 */
static int take_cxl_line(struct text_input *in, const char *line, size_t len)
{
	const char *u = memchr(line, '_', len);

	return u ? take_underscored_line(in, line, len, u) : 0;
}

/* marked_line_fn: each line to the parser; an over-long one is an error in its place. */
static int input_line(const char *line, size_t len, bool cut, bool marked, void *userdata)
{
	struct text_input *in = userdata;
	int r;

	if (cut) {
		in->rejected++;
		fprintf(stderr, "mcectl %s: %s:%u: line longer than %u bytes, not read\n", in->verb,
			in->name, in->lineno + 1, LINE_READER_MAX);
		len = 0;   /* the parser still counts the line */
	}
	in->lineno++;
	if (in->take_line && len > 0 && (marked || !in->take_mark)) {
		r = in->take_line(in, line, len);
		if (r < 0)
			return r;
		if (r > 0)
			len = 0;   /* the parser still counts the line */
	}
	in->line = line;
	in->line_len = len;
	r = mce_text_parser_feed(in->parser, line, len);
	in->line = NULL;
	return r;
}

int text_input_read(struct text_input *in, int fd)
{
	int k = read_lines_marked(fd, in->take_mark, input_line, in);

	if (k < 0)
		return k;
	return mce_text_parser_finish(in->parser);
}

int verb_decode(int argc, char *argv[])
{
	enum {
		ARG_STATUS = 0x100, ARG_BANK, ARG_IPID, ARG_ADDR, ARG_MISC, ARG_SYND, ARG_MCGSTATUS,
		ARG_MCGCAP, ARG_APICID,
	};
	static const struct option options[] = {
		{ "output",    required_argument, NULL, 'o' },
		{ "cpu-id",    required_argument, NULL, 'c' },
		{ "help",      no_argument,       NULL, 'h' },
		{ "status",    required_argument, NULL, ARG_STATUS },
		{ "bank",      required_argument, NULL, ARG_BANK },
		{ "ipid",      required_argument, NULL, ARG_IPID },
		{ "addr",      required_argument, NULL, ARG_ADDR },
		{ "misc",      required_argument, NULL, ARG_MISC },
		{ "synd",      required_argument, NULL, ARG_SYND },
		{ "mcgstatus", required_argument, NULL, ARG_MCGSTATUS },
		{ "mcgcap",    required_argument, NULL, ARG_MCGCAP },
		{ "apicid",    required_argument, NULL, ARG_APICID },
		{}
	};
	static const struct { int opt; const char *name; uint32_t have; size_t off; } regs[] = {
		{ ARG_STATUS,    "status",    MCE_HAVE_STATUS,    offsetof(struct mce_record, status) },
		{ ARG_IPID,      "ipid",      MCE_HAVE_IPID,      offsetof(struct mce_record, ipid) },
		{ ARG_ADDR,      "addr",      MCE_HAVE_ADDR,      offsetof(struct mce_record, addr) },
		{ ARG_MISC,      "misc",      MCE_HAVE_MISC,      offsetof(struct mce_record, misc) },
		{ ARG_SYND,      "synd",      MCE_HAVE_SYND,      offsetof(struct mce_record, synd) },
		{ ARG_MCGSTATUS, "mcgstatus", MCE_HAVE_MCGSTATUS, offsetof(struct mce_record, mcgstatus) },
		/* MCG_CAP.SER_P decides whether S/AR mean anything, so recovery needs it */
		{ ARG_MCGCAP,    "mcgcap",    MCE_HAVE_MCGCAP,    offsetof(struct mce_record, mcgcap) },
	};
	struct mce_record reg_rec = { .source = MCE_SOURCE_DECODE };
	struct decode_ctx c = { .out = stdout, .output = OUTPUT_TEXT, .in.verb = "decode" };
	_cleanup_free_ struct decode_text_out *text_out = NULL;
	/* text output's static strings and kept runs: allocated, and zeroed, only for it */
	_cleanup_free_ struct decode_text_known *text_known = NULL;
	enum mce_vendor vendor = MCE_VENDOR_UNKNOWN;
	uint32_t family = 0, model = 0;
	bool have_cpu_id = false;
	_cleanup_close_ int fd = -1;
	struct mce_text_parser *p;
	const char *path = "-";
	int opt, k;

	optind = 0;   /* mcectl's main may have used getopt before */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:c:h", options, NULL)) >= 0) {
		switch (opt) {
		case 'o':
			if (streq(optarg, "text"))
				c.output = OUTPUT_TEXT;
			else if (streq(optarg, "json"))
				c.output = OUTPUT_JSON;
			else {
				fprintf(stderr, "mcectl decode: --output '%s': expected 'text' or 'json'\n",
					optarg);
				return 2;
			}
			break;
		case 'c':
			if (parse_cpu_id_option("decode", optarg, &vendor, &family, &model) < 0)
				return 2;
			have_cpu_id = true;
			break;
		case 'h':
			help();
			return 0;
		case ARG_BANK: {
			uint64_t v;
			char *end;

			errno = 0;
			v = strtoull(optarg, &end, 10);
			if (!*optarg || *optarg == '-' || errno || *end || v > UINT32_MAX) {
				fprintf(stderr, "mcectl decode: --bank '%s': expected a decimal bank number\n",
					optarg);
				return 2;
			}
			reg_rec.bank = (uint32_t) v;
			reg_rec.have |= MCE_HAVE_BANK;
			break;
		}
		case ARG_APICID: {
			/* Diamond Rapids: which memory/IO hub logged a bank is APIC ID bit 2 */
			uint64_t v;

			if (parse_reg(optarg, UINT32_MAX, &v) < 0) {
				fprintf(stderr, "mcectl decode: --apicid '%s': expected a hexadecimal APIC ID such "
					"as 0x1c\n", optarg);
				return 2;
			}
			reg_rec.apicid = (uint32_t) v;
			reg_rec.have |= MCE_HAVE_APICID;
			break;
		}
		case ARG_STATUS: case ARG_IPID: case ARG_ADDR: case ARG_MISC: case ARG_SYND:
		case ARG_MCGSTATUS: case ARG_MCGCAP:
			for (size_t i = 0; i < ELEMENTSOF(regs); i++) {
				uint64_t v;

				if (regs[i].opt != opt)
					continue;
				k = parse_reg(optarg, UINT64_MAX, &v);
				if (k < 0) {
					fprintf(stderr, "mcectl decode: --%s '%s': %s\n", regs[i].name, optarg,
						k == -ERANGE ? "value does not fit in 64 bits"
							     : "expected a hexadecimal register value such as 0x9c2040000000011b");
					return 2;
				}
				memcpy((char *) &reg_rec + regs[i].off, &v, sizeof(v));
				reg_rec.have |= regs[i].have;
			}
			break;
		default:
			return option_error("decode", opt, argv);
		}
	}

	json_writer_init(&c.w);
	if (c.output == OUTPUT_TEXT) {
		text_out = calloc(1, sizeof(*text_out));
		text_known = calloc(1, sizeof(*text_known));
		if (!text_out || !text_known) {
			fprintf(stderr, "mcectl decode: out of memory\n");
			return 1;
		}
		text_out->fd = fileno(c.out);
		text_out->known = text_known;
		c.text = text_out;
	}

	if (reg_rec.have) {
		/* registers on the command line: one record, no input file */
		if (optind < argc) {
			fprintf(stderr, "mcectl decode: give either a FILE or registers, not both\n");
			return 2;
		}
		if (!(reg_rec.have & MCE_HAVE_STATUS)) {
			fprintf(stderr, "mcectl decode: --status is required when decoding registers\n");
			return 2;
		}
		c.in.name = "command line";
		if (have_cpu_id) {
			reg_rec.vendor = vendor;
			reg_rec.family = family;
			reg_rec.model = model;
			reg_rec.have |= MCE_HAVE_VENDOR | MCE_HAVE_CPUID;
		} else
			fprintf(stderr, "mcectl decode: warning: no --cpu-id: decoding architectural "
				"fields only\n");
		emit_record(&c, &reg_rec, 0, 0);
		flush_output(&c);
		json_writer_done(&c.w);
		if (fflush(stdout) != 0 || c.error < 0) {
			fprintf(stderr, "mcectl decode: writing output failed: %s\n", strerror(errno));
			return 1;
		}
		return 0;
	}

	if (optind + 1 < argc) {
		fprintf(stderr, "mcectl decode: more than one FILE given ('%s')\n", argv[optind + 1]);
		return 2;
	}
	if (optind < argc)
		path = argv[optind];
	if (streq(path, "-")) {
		c.in.name = "<stdin>";
		fd = dup(STDIN_FILENO);
	} else {
		c.in.name = path;
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		fprintf(stderr, "mcectl decode: cannot open '%s': %s\n", path, strerror(errno));
		return 1;
	}

	p = mce_text_parser_new(&(struct mce_text_callbacks) { .record = on_record,
							       .diagnostic = on_diag }, &c);
	if (!p) {
		fprintf(stderr, "mcectl decode: out of memory\n");
		return 1;
	}
	mce_text_parser_set_source(p, MCE_SOURCE_DECODE);
	if (have_cpu_id)
		mce_text_parser_set_default_cpu(p, vendor, family, model);
	c.in.parser = p;
	c.in.take_line = take_cxl_line;
	c.in.take_mark = '_';
	k = text_input_read(&c.in, fd);
	p = mce_text_parser_free(p);
	flush_output(&c);
	json_writer_done(&c.w);

	if (fflush(stdout) != 0 || c.error < 0) {
		fprintf(stderr, "mcectl decode: writing output failed: %s\n",
			strerror(c.error < 0 ? -c.error : errno));
		return 1;
	}
	if (k < 0) {
		fprintf(stderr, "mcectl decode: reading '%s' failed: %s\n", path, strerror(-k));
		return 1;
	}
	/* records the parser dropped (no STATUS) count as rejected input */
	if (c.in.rejected > 0 || c.partial_diags > c.partial_records)
		return 1;
	/* Nothing printed and exit 0 would look like success to someone who pasted a log. */
	if (c.records == 0) {
		fprintf(stderr, "mcectl decode: %s: no machine-check record found (%u line%s read)\n",
			c.in.name, c.in.lineno, c.in.lineno == 1 ? "" : "s");
		return 1;
	}
	return 0;
}
