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
#include <stdint.h>
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
	size_t len;
	const char *trace;    /* the kernel's name of the field; NULL: not a field of the record */
	enum adapt adapt;
};

#define L(text, trace, adapt) { text, sizeof(text) - 1, trace, adapt }
enum { MEMDEV };   /* labels[]' first */
static const struct label labels[] = {
	/* every event */
	L("memdev", "memdev", AS_PRINTED), L("host", "host", AS_PRINTED),
	L("serial", "serial", HEX_NUMBER),
	/* the common header of the event records */
	L("log type", "log", AS_PRINTED), L("hdr_uuid", "flags", UUID_FLAGS),
	L("hdr_handle", "handle", AS_PRINTED), L("hdr_related_handle", "related_handle", AS_PRINTED),
	L("hdr_timestamp", NULL, SKIP), L("hdr_length", NULL, SKIP),
	L("hdr_maint_op_class", "maint_op_class", AS_PRINTED),
	L("hdr_maint_op_sub_class", "maint_op_sub_class", AS_PRINTED),
	L("hdr_ld_id", NULL, SKIP), L("hdr_head_id", NULL, SKIP),
	/* general media and DRAM */
	L("dpa", "dpa", AS_PRINTED), L("dpa_flags", "dpa_flags", QUOTED_FLAGS),
	L("descriptor", "descriptor", QUOTED_FLAGS), L("memory_event_type", "type", AS_PRINTED),
	L("memory_event_sub_type", NULL, SKIP), L("transaction_type", "transaction_type", AS_PRINTED),
	L("hpa", "hpa", AS_PRINTED), L("hpa_alias0", NULL, SKIP),
	L("region", "region", AS_PRINTED), L("region_uuid", "region_uuid", AS_PRINTED),
	L("channel", "channel", AS_PRINTED), L("sub_channel", "sub_channel", AS_PRINTED),
	L("rank", "rank", AS_PRINTED), L("device", "device", AS_PRINTED),
	L("nibble_mask", "nibble_mask", DEC_NUMBER), L("bank_group", "bank_group", AS_PRINTED),
	L("bank", "bank", AS_PRINTED), L("row", "row", AS_PRINTED), L("column", "column", AS_PRINTED),
	L("correction_mask", NULL, SKIP), L("comp_id", NULL, SKIP), L("comp_id_pldm_valid_flags", NULL, SKIP),
	L("PLDM Entity ID", NULL, SKIP), L("Resource ID", NULL, SKIP),
	L("Advanced Programmable CME threshold Event Flags", NULL, SKIP),
	L("Corrected Memory Error Count", "cme_count", AS_PRINTED), L("CVME Count", "cvme_count", AS_PRINTED),
	/* memory module */
	L("event_type", "event_type", AS_PRINTED), L("event_sub_type", NULL, SKIP),
	L("health_status", "health_status", QUOTED_FLAGS), L("media_status", "media_status", AS_PRINTED),
	L("as_life_used", NULL, SKIP), L("as_dev_temp", NULL, SKIP),
	L("as_cor_vol_err_cnt", NULL, SKIP), L("as_cor_per_err_cnt", NULL, SKIP),
	L("life_used", "life_used", AS_PRINTED), L("device_temp", "device_temp", S16_NUMBER),
	L("dirty_shutdown_cnt", "dirty_shutdown_cnt", AS_PRINTED),
	L("cor_vol_err_cnt", "cor_vol_err_cnt", AS_PRINTED), L("cor_per_err_cnt", "cor_per_err_cnt", AS_PRINTED),
	/* poison */
	L("trace_type", "trace_type", AS_PRINTED), L("dpa_length", "dpa_length", AS_PRINTED),
	L("source", "source", AS_PRINTED), L("flags", NULL, SKIP), L("overflow timestamp", NULL, SKIP),
	L("poison list", NULL, SKIP),   /* 0.8.3: "region_uuid: poison list: hpa:0x..." */
	/* AER */
	L("error status", "status", QUOTED_LIST), L("first error", "first_error", QUOTED_LIST),
	L("header log", NULL, SKIP),
};

/* One "label:value" of the line. */
struct run {
	const struct label *label;
	const char *v;
	size_t vn;
};

/*
 * The labels by length.  No label holds a ':', so the one at a word ends
 * at the first ':' after it: its length is known before any is tried, and
 * only the few of that length are.  Made for each line: far cheaper than
 * trying every label at every word.
 */
#define LABEL_MAX 64   /* longer than any label ("Advanced Programmable CME threshold Event Flags", 47) */
struct label_index {
	uint8_t first[LABEL_MAX];             /* 1 + the first label of this length; 0: none */
	uint8_t next[ELEMENTSOF(labels)];     /* 1 + the next label of the same length; 0: none */
};
_Static_assert(ELEMENTSOF(labels) < UINT8_MAX, "label_index counts labels in a byte");

static void label_index_init(struct label_index *x)
{
	memset(x->first, 0, sizeof(x->first));
	for (size_t i = ELEMENTSOF(labels); i-- > 0;) {
		size_t n = labels[i].len;

		x->next[i] = n < LABEL_MAX ? x->first[n] : 0;
		if (n < LABEL_MAX)
			x->first[n] = (uint8_t) (i + 1);
	}
}

/* The label that is the N bytes at P, which a ':' follows; NULL: none. */
static const struct label *label_at(const struct label_index *x, const char *p, size_t n)
{
	if (n >= LABEL_MAX)
		return NULL;
	for (size_t i = x->first[n]; i; i = x->next[i - 1])
		if (memcmp(p, labels[i - 1].text, n) == 0)
			return &labels[i - 1];
	return NULL;
}

/* The line's runs, in order, up to MAX; returns how many. */
static size_t split_runs(const char *body, size_t len, struct run *runs, size_t max)
{
	const char *end = body + len, *colon = memchr(body, ':', len);
	struct label_index x;
	size_t n = 0;

	if (!colon)
		return 0;   /* no label */
	label_index_init(&x);
	for (const char *p = body; p < end; p++) {
		const struct label *l;

		/* at a word's start, or right after a label whose value is empty
		 * ("dpa_flags:descriptor:'UNCORRECTABLE EVENT' ") */
		if (p > body && p[-1] != ' ' && !(n > 0 && p == runs[n - 1].v))
			continue;
		if (colon < p) {
			colon = memchr(p, ':', (size_t) (end - p));
			if (!colon)
				break;   /* no ':' left: no label either */
		}
		l = label_at(&x, p, (size_t) (colon - p));
		if (!l)
			continue;
		if (n > 0)
			runs[n - 1].vn = (size_t) (p - runs[n - 1].v);
		if (n == max)
			break;
		runs[n].label = l;
		runs[n].v = colon + 1;
		runs[n].vn = (size_t) (end - runs[n].v);
		p = colon;
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

/* rasdaemon's separator after the event's name: its time, or a ':' */
static const char *const rasdaemon_seps[] = { ":", " ", NULL };

const char *const *cxl_rasdaemon_text_seps(void)
{
	return rasdaemon_seps;
}

int cxl_rasdaemon_text_parse(const char *line, size_t len, struct ras_record *r, char *why, size_t why_size)
{
	const char *const *seps = rasdaemon_seps;
	struct cxl_text_named at;

	cxl_text_events_in(line, len, &seps, 1, &at);
	if (!at.event)
		return -ENOENT;
	return cxl_rasdaemon_text_parse_body(at.event, line + at.after, len - at.after, r, why, why_size);
}

int cxl_rasdaemon_text_parse_body(const struct cxl_text_event *e, const char *body, size_t blen, struct ras_record *r,
				  char *why, size_t why_size)
{
	struct run runs[ELEMENTSOF(labels) * 2];
	char buf[256];
	size_t n;
	bool memdev = false;

	/* without "memdev:" no run can be memdev's: not split_runs' label look-ups at every word */
	if (!memmem(body, blen, "memdev:", 7))
		return -ENOENT;
	n = split_runs(body, blen, runs, ELEMENTSOF(runs));
	for (size_t i = 0; i < n; i++)
		memdev = memdev || runs[i].label == &labels[MEMDEV];
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
			char shown[65];

			cxl_text_printable(runs[i].v, runs[i].vn < 64 ? runs[i].vn : 64, shown);
			snprintf(why, why_size, "%s: %s '%s': %s", e->name, l->text, shown, what ?: "too long");
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
