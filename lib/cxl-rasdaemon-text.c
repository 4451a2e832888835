/* SPDX-License-Identifier: MIT */
/*
 * rasdaemon's syntax for the cxl:* events: after the trace event's name and
 * the time, "label:value" runs whose values may hold
 * spaces ("memory_event_type:TE State Violation"), flag sets as quoted
 * names ("descriptor:'UNCORRECTABLE EVENT' 'THRESHOLD EVENT' "), the
 * common header's flags as quoted names with no label, numbers in other
 * bases than the kernel's (serial in hex, nibble_mask in decimal) and the
 * s16 device_temp as an unsigned number.  The labels are the ones rasdaemon
 * 0.8.3 printed in the VM rig's Debian 13 guest
 * (tests/data/decode/rasdaemon-cxl.txt, tests/vm/trixie/69-cxl-rasdaemon.sh)
 * and, for fields QEMU's device left invalid there, the format strings of
 * rasdaemon's ras-cxl-handler.c, read for their labels only;
 * each is mapped here to the kernel's name of the same field, whose record
 * key and reading cxl-text-fields.c gives.  A value runs to the next known
 * label, so a label rasdaemon adds later stays inside the value before it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cxl-rasdaemon-text.h"
#include "cxl-text-fields.h"
#include "macro.h"
#include "parse-number.h"
#include "ras-record.h"

/* How rasdaemon's text of a field differs from the kernel's. */
enum adapt {
	AS_PRINTED,     /* the kernel's reading applies */
	SKIP,           /* a label only: where the value before it ends */
	HEX_NUMBER,     /* "0x1f" for a number the kernel prints in decimal */
	DEC_NUMBER,     /* "33" for a number the kernel prints in hex */
	QUOTED_FLAGS,   /* "'A B' 'C' " for the kernel's "A_B|C" */
	QUOTED_LIST,    /* "'A B' 'C' " for the kernel's "A B | C" */
	S16_NUMBER,     /* an s16 printed as unsigned ("65521" for -15) */
	UUID_FLAGS,     /* the header's uuid, then its flags as QUOTED_FLAGS, unlabelled */
};

struct label {
	const char *text;     /* rasdaemon's label, before its ':' */
	const char *trace;    /* the kernel's name of the field; NULL: not a field of the record */
	enum adapt adapt;
};

static const struct label labels[] = {
	/* every event */
	{ "memdev", "memdev", AS_PRINTED }, { "host", "host", AS_PRINTED },
	{ "serial", "serial", HEX_NUMBER },
	/* the common header of the event records */
	{ "log type", "log", AS_PRINTED }, { "hdr_uuid", "flags", UUID_FLAGS },
	{ "hdr_handle", "handle", AS_PRINTED }, { "hdr_related_handle", "related_handle", AS_PRINTED },
	{ "hdr_timestamp", NULL, SKIP }, { "hdr_length", NULL, SKIP },
	{ "hdr_maint_op_class", "maint_op_class", AS_PRINTED },
	{ "hdr_maint_op_sub_class", "maint_op_sub_class", AS_PRINTED },
	{ "hdr_ld_id", NULL, SKIP }, { "hdr_head_id", NULL, SKIP },
	/* general media and DRAM */
	{ "dpa", "dpa", AS_PRINTED }, { "dpa_flags", "dpa_flags", QUOTED_FLAGS },
	{ "descriptor", "descriptor", QUOTED_FLAGS }, { "memory_event_type", "type", AS_PRINTED },
	{ "memory_event_sub_type", NULL, SKIP }, { "transaction_type", "transaction_type", AS_PRINTED },
	{ "hpa", "hpa", AS_PRINTED }, { "hpa_alias0", NULL, SKIP },
	{ "region", "region", AS_PRINTED }, { "region_uuid", "region_uuid", AS_PRINTED },
	{ "channel", "channel", AS_PRINTED }, { "sub_channel", "sub_channel", AS_PRINTED },
	{ "rank", "rank", AS_PRINTED }, { "device", "device", AS_PRINTED },
	{ "nibble_mask", "nibble_mask", DEC_NUMBER }, { "bank_group", "bank_group", AS_PRINTED },
	{ "bank", "bank", AS_PRINTED }, { "row", "row", AS_PRINTED }, { "column", "column", AS_PRINTED },
	{ "correction_mask", NULL, SKIP }, { "comp_id", NULL, SKIP }, { "comp_id_pldm_valid_flags", NULL, SKIP },
	{ "PLDM Entity ID", NULL, SKIP }, { "Resource ID", NULL, SKIP },
	{ "Advanced Programmable CME threshold Event Flags", NULL, SKIP },
	{ "Corrected Memory Error Count", "cme_count", AS_PRINTED }, { "CVME Count", "cvme_count", AS_PRINTED },
	/* memory module */
	{ "event_type", "event_type", AS_PRINTED }, { "event_sub_type", NULL, SKIP },
	{ "health_status", "health_status", QUOTED_FLAGS }, { "media_status", "media_status", AS_PRINTED },
	{ "as_life_used", NULL, SKIP }, { "as_dev_temp", NULL, SKIP },
	{ "as_cor_vol_err_cnt", NULL, SKIP }, { "as_cor_per_err_cnt", NULL, SKIP },
	{ "life_used", "life_used", AS_PRINTED }, { "device_temp", "device_temp", S16_NUMBER },
	{ "dirty_shutdown_cnt", "dirty_shutdown_cnt", AS_PRINTED },
	{ "cor_vol_err_cnt", "cor_vol_err_cnt", AS_PRINTED }, { "cor_per_err_cnt", "cor_per_err_cnt", AS_PRINTED },
	/* poison */
	{ "trace_type", "trace_type", AS_PRINTED }, { "dpa_length", "dpa_length", AS_PRINTED },
	{ "source", "source", AS_PRINTED }, { "flags", NULL, SKIP }, { "overflow timestamp", NULL, SKIP },
	{ "poison list", NULL, SKIP },   /* 0.8.3: "region_uuid: poison list: hpa:0x..." */
	/* AER */
	{ "error status", "status", QUOTED_LIST }, { "first error", "first_error", QUOTED_LIST },
	{ "header log", NULL, SKIP },
};

/* One "label:value" of the line. */
struct run {
	const struct label *label;
	const char *v;
	size_t vn;
};

/* The label that starts at P (at a word's start, followed by ':'), the longest if several do. */
static const struct label *label_at(const char *p, const char *end)
{
	const struct label *best = NULL;

	for (size_t i = 0; i < ELEMENTSOF(labels); i++) {
		size_t n = strlen(labels[i].text);

		if ((size_t) (end - p) > n && memcmp(p, labels[i].text, n) == 0 && p[n] == ':' &&
		    (!best || n > strlen(best->text)))
			best = &labels[i];
	}
	return best;
}

/* The line's runs, in order, up to MAX; returns how many. */
static size_t split_runs(const char *body, size_t len, struct run *runs, size_t max)
{
	const char *end = body + len;
	size_t n = 0;

	for (const char *p = body; p < end; p++) {
		const struct label *l;

		/* at a word's start, or right after a label whose value is empty
		 * ("dpa_flags:descriptor:'UNCORRECTABLE EVENT' ") */
		if (p > body && p[-1] != ' ' && !(n > 0 && p == runs[n - 1].v))
			continue;
		l = label_at(p, end);
		if (!l)
			continue;
		if (n > 0)
			runs[n - 1].vn = (size_t) (p - runs[n - 1].v);
		if (n == max)
			break;
		runs[n].label = l;
		runs[n].v = p + strlen(l->text) + 1;
		runs[n].vn = (size_t) (end - runs[n].v);
		p = runs[n].v - 1;
		n++;
	}
	for (size_t i = 0; i < n; i++)
		while (runs[i].vn > 0 && runs[i].v[runs[i].vn - 1] == ' ')
			runs[i].vn--;
	return n;
}

/* "'A B' 'C'" → "A_B|C" (UNDERSCORES) or "A B | C". */
static void unquote(const char *v, size_t vn, bool underscores, char *buf, size_t size)
{
	size_t o = 0;
	bool in = false, first = true;

	for (size_t i = 0; i < vn && o + 4 < size; i++) {
		if (v[i] == '\'') {
			if (!in && !first) {
				if (!underscores)
					buf[o++] = ' ';
				buf[o++] = '|';
				if (!underscores)
					buf[o++] = ' ';
			}
			in = !in;
			first = false;
			continue;
		}
		if (in)
			buf[o++] = underscores && v[i] == ' ' ? '_' : v[i];
	}
	buf[o] = '\0';
}

/* The run's value as the kernel would print it, in BUF; its length, or -EINVAL. */
static int as_kernel_text(const struct run *run, char *buf, size_t size, const char **why)
{
	uint64_t u;
	size_t skip = run->vn >= 2 && run->v[0] == '0' && (run->v[1] == 'x' || run->v[1] == 'X') ? 2 : 0;
	const char *uuid_end;

	switch (run->label->adapt) {
	case AS_PRINTED: case SKIP:
		if (run->vn >= size)
			return -EINVAL;
		memcpy(buf, run->v, run->vn);
		buf[run->vn] = '\0';
		break;
	case HEX_NUMBER:
		if (parse_unsigned(run->v + skip, run->vn - skip, 16, UINT64_MAX, &u) < 0) {
			*why = "not a hex number";
			return -EINVAL;
		}
		snprintf(buf, size, "%" PRIu64, u);
		break;
	case DEC_NUMBER:
		if (parse_unsigned(run->v, run->vn, 10, UINT64_MAX, &u) < 0) {
			*why = "not a decimal number";
			return -EINVAL;
		}
		snprintf(buf, size, "%" PRIx64, u);
		break;
	case S16_NUMBER:
		/* an s16 as 16 unsigned bits, or sign-extended to 32 or 64 and
		 * printed unsigned ("4294967281" for -15, rasdaemon 0.8.3) */
		if (parse_unsigned(run->v, run->vn, 10, UINT64_MAX, &u) < 0 ||
		    !(u <= UINT16_MAX || (u >= 0xffff8000u && u <= UINT32_MAX) || u >= UINT64_MAX - INT16_MAX)) {
			*why = "not a 16-bit signed number";
			return -EINVAL;
		}
		snprintf(buf, size, "%d", (int) (int16_t) (uint16_t) u);
		break;
	case QUOTED_FLAGS: case QUOTED_LIST:
		unquote(run->v, run->vn, run->label->adapt == QUOTED_FLAGS, buf, size);
		break;
	case UUID_FLAGS:
		uuid_end = memchr(run->v, ' ', run->vn);
		if (!uuid_end) {
			buf[0] = '\0';
			break;
		}
		unquote(uuid_end, run->vn - (size_t) (uuid_end - run->v), true, buf, size);
		break;
	}
	return (int) strlen(buf);
}

int cxl_rasdaemon_text_parse(const char *line, size_t len, struct ras_record *r, char *why, size_t why_size)
{
	const struct cxl_text_event *e;
	struct run runs[ELEMENTSOF(labels) * 2];
	char buf[256];
	size_t after = 0, n;
	bool memdev = false;

	e = cxl_text_event_in(line, len, (const char *const[]) { ":", " ", NULL }, &after);
	if (!e)
		return -ENOENT;
	n = split_runs(line + after, len - after, runs, ELEMENTSOF(runs));
	for (size_t i = 0; i < n; i++)
		memdev = memdev || streq(runs[i].label->text, "memdev");
	if (!memdev)
		return -ENOENT;   /* "memdev=": the kernel's own line, or not an event record */
	ras_record_init(r, e->event, e->source);
	for (size_t i = 0; i < n; i++) {
		const struct label *l = runs[i].label;
		const struct cxl_text_field *f = l->trace ? cxl_text_field_named(e, l->trace) : NULL;
		const char *what = NULL;
		bool again = false;
		int k;

		if (!f)
			continue;   /* a field mcelogd's record has not, or not in this event */
		/* rasdaemon 0.8.3 prints a DRAM event's hpa twice: the first counts */
		for (size_t j = 0; j < i; j++)
			again = again || runs[j].label == l;
		if (again)
			continue;
		k = as_kernel_text(&runs[i], buf, sizeof(buf), &what);
		if (k >= 0)
			k = cxl_text_field_add(r, f, buf, (size_t) k, &what);
		if (k == -EINVAL) {
			snprintf(why, why_size, "%s: %s '%.*s': %s", e->name, l->text, (int) (runs[i].vn < 64 ? runs[i].vn : 64),
				 runs[i].v, what ?: "too long");
			ras_record_done(r);
			return -EINVAL;
		}
		if (k < 0) {
			ras_record_done(r);
			return k;
		}
	}
	cxl_text_record_finish(r, e);
	return 0;
}
