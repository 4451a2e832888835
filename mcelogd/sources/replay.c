/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "line-reader.h"
#include "log.h"
#include "ras-record-json.h"
#include "record-text.h"
#include "source.h"
#include "sources.h"

struct replay {
	const struct source_host *host;
	const char *name;
	struct mce_text_parser *parser;
	unsigned lineno;
	unsigned rejected;
	unsigned records;
};

static int on_record(const struct mce_record *rec, unsigned first, unsigned last, void *userdata)
{
	struct replay *rp = userdata;
	struct mce_record copy = *rec;

	(void) first;
	(void) last;
	if (copy.source == MCE_SOURCE_UNKNOWN)
		copy.source = MCE_SOURCE_REPLAY;
	rp->records++;
	(void) source_submit(rp->host, &copy);
	return 0;
}

/*
 * A JSON line whose object has an "event" key is a ras record (EDAC, AER,
 * poisoned page, firmware section), logged as such.  Returns true if the
 * line was one (logged or rejected), false to give it to the text parser.
 */
static bool replay_ras_line(struct replay *rp, const char *line, size_t len, unsigned lineno)
{
	struct ras_record rec;
	char why[256];
	size_t i = 0;
	int r;

	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (i >= len || line[i] != '{' || !memmem(line, len, "\"event\"", 7))
		return false;
	r = ras_record_parse_json(line + i, len - i, &rec, why, sizeof(why));
	if (r == -ENOMSG)
		return false;
	if (r < 0) {
		rp->rejected++;
		if (r == -ENOMEM)
			log_error("%s:%u: out of memory; line skipped", rp->name, lineno);
		else
			log_error("%s:%u: %s; line skipped", rp->name, lineno, why);
		return true;
	}
	if (rec.source == MCE_SOURCE_UNKNOWN)
		rec.source = MCE_SOURCE_REPLAY;
	rp->records++;
	(void) source_submit_ras(rp->host, &rec);
	ras_record_done(&rec);
	return true;
}

static void on_diagnostic(enum mce_text_diag kind, unsigned line, const char *msg, void *userdata)
{
	struct replay *rp = userdata;

	switch (kind) {
	case MCE_TEXT_MALFORMED:
		rp->rejected++;
		log_error("%s:%u: %s; line skipped", rp->name, line, msg);
		break;
	case MCE_TEXT_UNKNOWN:
		rp->rejected++;
		log_error("%s:%u: %s; line skipped", rp->name, line, msg);
		break;
	case MCE_TEXT_PARTIAL:
		log_warning("%s:%u: %s", rp->name, line, msg);
		break;
	}
}

/*
 * --replay FILE (or "-" for standard input): every record text form the
 * decode command reads, through the same pipeline as the live sources.  Bad
 * lines are reported with their line number and skipped; the good records
 * around them are still logged, and the run then fails with -EBADMSG.
 */
/* line_fn: a ras record line, or a line for the text parser; an over-long one is an error. */
static int replay_line(const char *line, size_t len, bool cut, void *userdata)
{
	struct replay *rp = userdata;

	rp->lineno++;
	if (cut) {
		rp->rejected++;
		log_error("%s:%u: line longer than %u bytes, not read", rp->name, rp->lineno, LINE_READER_MAX);
		len = 0;
	}
	if (len > 0 && line[len - 1] == '\r')
		len--;
	/* The text parser still sees the line (as a blank one: it ends any record
	 * in progress), so its line numbers stay right. */
	if (len > 0 && replay_ras_line(rp, line, len, rp->lineno))
		len = 0;
	return mce_text_parser_feed(rp->parser, line, len);
}

/*
 * --replay FILE (or "-" for standard input): every record text form the
 * decode command reads, through the same pipeline as the live sources.  Bad
 * lines are reported with their line number and skipped; the good records
 * around them are still logged, and the run then fails with -EBADMSG.  A read
 * error is an error, never the end of the input.
 */
static int replay_open(const struct source_host *h, void **ret)
{
	static const struct mce_text_callbacks cb = {
		.record = on_record,
		.diagnostic = on_diagnostic,
	};
	const char *path = h->paths->replay;
	struct replay rp = { .host = h, .name = streq(path, "-") ? "<stdin>" : path };
	_cleanup_close_ int owned = -1;
	int fd, r;

	*ret = NULL;
	if (streq(path, "-"))
		fd = STDIN_FILENO;
	else {
		owned = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (owned < 0)
			return log_error_errno(negative_errno(), "Failed to open replay input %s: %m", path);
		fd = owned;
	}
	rp.parser = mce_text_parser_new(&cb, &rp);
	if (!rp.parser)
		return log_error_errno(-ENOMEM, "Out of memory");
	mce_text_parser_set_source(rp.parser, MCE_SOURCE_REPLAY);

	r = read_lines(fd, replay_line, &rp);
	if (r < 0 && r != -ENOMEM)
		r = log_error_errno(r, "Failed to read replay input %s at line %u: %m; the %u record(s) "
				    "before it were logged", rp.name, rp.lineno, rp.records);
	if (r >= 0)
		r = mce_text_parser_finish(rp.parser);
	mce_text_parser_free(rp.parser);
	if (r < 0)
		return r;
	log_info("Replayed %u record(s) from %s%s", rp.records, rp.name,
		 rp.rejected ? ", some lines rejected (see above)" : "");
	return rp.rejected > 0 ? -EBADMSG : 0;
}

/* One-shot: the whole input is logged in open. */
const struct source_ops replay_source_ops = {
	.name = "replay",
	.open = replay_open,
};
