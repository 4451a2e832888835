/* SPDX-License-Identifier: MIT */
#pragma once

/* mcectl decode's human-readable renderer (decode-text.c). */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "decode.h"
#include "macro.h"
#include "record.h"

/*
 * What the text of one record leaves known for the next: the lengths of
 * the static strings records are made of (the decoders' names and
 * descriptions, the renderer's phrases), by their address, as a strlen()
 * and a copy of unknown length each were a fifth of a record's text; and
 * the last time's date.  Zeroed before first use; one per output.
 */
#define DECODE_TEXT_KNOWN_SLOTS 1024
/*
 * Runs kept (decode_text_known.runs): the kinds (decode-text.c's RUN_*),
 * each with places of its own, so that a kind that seldom repeats does
 * not push out the others; the places of a kind, one for each key by its
 * hash, so that inputs that take turns among a dozen kinds of records
 * find them; the most values a key has; the longest text.
 */
#define DECODE_TEXT_RUN_KINDS 3
#define DECODE_TEXT_RUNS 16
#define DECODE_TEXT_RUN_KEY 72
#define DECODE_TEXT_RUN_TEXT 1024
struct decode_text_known {
	struct {
		const char *s;        /* NULL: empty slot */
		uint32_t len;
	} slot[DECODE_TEXT_KNOWN_SLOTS];
	/* the day of the last time printed, "YYYY-MM-DD": records nearly always share it */
	bool time_known;
	int64_t time_day;
	char time_text[10];
	/*
	 * Runs of a record's text kept with all they were printed from (a
	 * record's summary and What line; its CPU, Severity, Detail and
	 * Action lines): records mostly repeat those of one before, and are
	 * then a copy each (decode-text.c's out_run_again()).
	 */
	struct decode_text_run {
		size_t n;             /* the key's values; 0: none kept */
		uint64_t key[DECODE_TEXT_RUN_KEY];
		uint32_t len;
		char text[DECODE_TEXT_RUN_TEXT];
	} runs[DECODE_TEXT_RUN_KINDS][DECODE_TEXT_RUNS];
};

/*
 * mcectl decode's standard output is written here rather than through
 * stdio, whose copy of every record was as much as a fifth of a record's
 * JSON; nothing else goes to it meanwhile.  It is written in whole chunks
 * of DECODE_OUT_CHUNK bytes, as the fully buffered stdout of that size it
 * replaces wrote it, so that what has come out at any moment, and so its
 * order against the messages on stderr, is as it was.
 */
#define DECODE_OUT_CHUNK (1u << 20)

/* All n bytes at buf to fd, past short writes and EINTR: 0 or a negative errno. */
int decode_write_all(int fd, const char *buf, size_t n);

/*
 * The whole chunks of the *n bytes at buf to fd, the rest moved to the
 * start of buf and *n set to its length: 0 or a negative errno.
 */
int decode_write_chunks(int fd, char *buf, size_t *n);

/*
 * Where the records' text is put together before it is written.  The
 * caller sets fd and known and zeroes the rest; decode_print_text()
 * writes the whole chunks it holds after each record, decode_text_flush()
 * all of it; error keeps the first failure (a negative errno).  Room for
 * a chunk and the largest record's text after it.
 */
#define DECODE_TEXT_OUT_SIZE (DECODE_OUT_CHUNK + (64u << 10))
struct decode_text_out {
	int fd;
	int error;
	struct decode_text_known *known;
	unsigned drains;              /* whole chunks written from buf: what was held before moved */
	size_t n;
	char buf[DECODE_TEXT_OUT_SIZE];
};

void decode_text_flush(struct decode_text_out *out);

/* After a record's text: the whole chunks held written, as a fully buffered stdout would have. */
void decode_text_record_end(struct decode_text_out *out);

/*
 * A hardware error other than a machine check (a cxl event's record):
 * its summary, then each field in a column, as printf("  %-28s %s") would
 * print them; index is 1-based, line the input line it came from.
 */
struct ras_record;
void decode_print_ras_text(struct decode_text_out *out, unsigned index, unsigned line, const struct ras_record *r);

/*
 * Print one record as a readable multi-line block: what happened, where,
 * how bad, what to do.  index is 1-based; first/last are input line numbers
 * (0 when the record came from the command line).  snapshot: the record's
 * snapshot summary (snapshot-line.h), or NULL.  The text may stay in out
 * until decode_text_flush(), short of a whole chunk.
 */
void decode_print_text(struct decode_text_out *out, unsigned index, const struct mce_record *r,
		       const struct mce_decoded *d, unsigned first, unsigned last,
		       const char *snapshot);

/* --cpu-id VENDOR:FAMILY:MODEL ("amd:0x19:0x21", "intel:6:143"); 0 or -EINVAL. */
/* The same for a verb's --cpu-id option: a bad value is reported on stderr, naming verb and value. */
int parse_cpu_id_option(const char *verb, const char *s, enum mce_vendor *ret_vendor, uint32_t *ret_family,
			uint32_t *ret_model);
int parse_cpu_id_arg(const char *s, enum mce_vendor *ret_vendor, uint32_t *ret_family,
		     uint32_t *ret_model);

struct mce_text_parser;

/* Text input read line by line into a record parser: mcectl decode and rules --test. */
struct text_input {
	const char *verb;                 /* "decode", "rules": for messages */
	const char *name;                 /* the input's name for messages */
	struct mce_text_parser *parser;
	unsigned lineno;                  /* lines read so far */
	const char *line;                 /* the line being fed, while the parser's callbacks run */
	size_t line_len;
	unsigned rejected;                /* lines that could not be read */
	/*
	 * Optional: offered each line before the parser; > 0 when it took the line
	 * (the parser then counts it as empty), 0 to leave it to the parser, or a
	 * negative errno to stop.  `mcectl rules --test` takes the ras records.
	 */
	int (*take_line)(struct text_input *in, const char *line, size_t len);
	/*
	 * Optional: a byte every line take_line can take holds ('\0': none);
	 * only the lines holding it are offered, the rest go to the parser
	 * without a look.  Found for all lines at once (read_lines_marked()).
	 */
	char take_mark;
};

/*
 * Reads fd to its end into in->parser and finishes the parser; an over-long
 * line is rejected in its place, with a message.  Returns 0, a negative errno
 * of reading, or the parser's callbacks' negative return.
 */
int text_input_read(struct text_input *in, int fd);
