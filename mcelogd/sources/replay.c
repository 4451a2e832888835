/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "ras-record-json.h"
#include "record-text.h"
#include "source.h"
#include "sources.h"

struct replay {
	const struct source_host *host;
	const char *name;
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
static int replay_open(const struct source_host *h, void **ret)
{
	const char *path = h->paths->replay;
	static const struct mce_text_callbacks cb = {
		.record = on_record,
		.diagnostic = on_diagnostic,
	};
	struct replay rp = { .host = h, .name = streq(path, "-") ? "<stdin>" : path };

	_cleanup_fclose_ FILE *owned = NULL;
	struct mce_text_parser *parser;
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned lineno = 0;
	FILE *f;
	int r = 0;

	*ret = NULL;

	if (streq(path, "-"))
		f = stdin;
	else {
		owned = fopen(path, "re");
		if (!owned)
			return log_error_errno(negative_errno(), "Failed to open replay input %s: %m", path);
		f = owned;
	}
	parser = mce_text_parser_new(&cb, &rp);
	if (!parser)
		return log_error_errno(-ENOMEM, "Out of memory");
	mce_text_parser_set_source(parser, MCE_SOURCE_REPLAY);

	errno = 0;
	while ((n = getline(&line, &cap, f)) >= 0) {
		size_t len = (size_t) n;

		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			len--;
		/* The text parser still sees the line (as a blank one: it ends any record
		 * in progress), so its line numbers stay right. */
		if (replay_ras_line(&rp, line, len, lineno))
			len = 0;
		r = mce_text_parser_feed(parser, line, len);
		if (r < 0)
			break;
	}
	if (r >= 0 && ferror(f))
		r = log_error_errno(-EIO, "Failed to read replay input %s", rp.name);
	if (r >= 0)
		r = mce_text_parser_finish(parser);
	mce_text_parser_free(parser);
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
