/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "manager.h"
#include "record-text.h"
#include "source-replay.h"

struct replay {
	struct manager *manager;
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
	(void) manager_submit_record(rp->manager, &copy);
	return 0;
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

int replay_source_run(struct manager *m, const char *path)
{
	static const struct mce_text_callbacks cb = {
		.record = on_record,
		.diagnostic = on_diagnostic,
	};
	struct replay rp = { .manager = m, .name = streq(path, "-") ? "<stdin>" : path };
	_cleanup_fclose_ FILE *owned = NULL;
	struct mce_text_parser *parser;
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;
	int r = 0;

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

		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			len--;
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
	return (int) rp.rejected;
}
