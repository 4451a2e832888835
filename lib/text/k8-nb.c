/* SPDX-License-Identifier: MIT */
/*
 * The K8 northbridge lines of early x86_64 kernels (2.4 and the first 2.6
 * ones), printed only on AMD family 0Fh.  The exception handler's head,
 * then the condition lines:
 *
 *   Northbridge Machine Check exception b60000010005001b 0
 *   Uncorrectable condition
 *
 * (STATUS of MC4, then the exception's error code, not a register), and
 * the poller's report of the northbridge's own copy of that register:
 *
 *   CPU 1: Silent Northbridge MCE
 *   Northbridge status a60000010005001b
 *   GART TLB error generic level generic
 *   ...
 *   error address 00000000f7fe0008
 *
 * Later versions print the status as "HIGH:LOW" and the address as "NB
 * error address"; the exception path ends with "Address: ADDR".  Between
 * them come the kernel's own readings of the bits, one per line, which are
 * read as part of the record and not kept.  The register is MC4_STATUS,
 * so the record is bank 4 of an AMD CPU; the model is not printed.
 */
#include "forms.h"

enum k8_nb_line {
	SILENT = 1,           /* CPU n: Silent Northbridge MCE */
	EXCEPTION,            /* Northbridge Machine Check exception|timer STATUS CODE */
	NB_STATUS,            /* Northbridge status STATUS */
	ADDRESS,              /* [NB ]error address ADDR, Address: ADDR */
	DETAIL,               /* the kernel's reading of the bits */
};

#define K8_NB_BANK 4

/*
 * The starts of the lines the kernel prints between the status and the
 * address: its names for the extended error code, the MCACOD fields and
 * the status bits.  Seen only inside an open record.
 */
static const char *const detail_starts[] = {
	"Error ", "extended error ", "GART TLB error ", "ECC error syndrome ", "bus error ",
	"link number ", "err cpu", "previous error lost", "error overflow",
	"error uncorrected", "error enable", "misc error valid", "error address valid",
	"processor context corrupt", "corrected ecc error", "uncorrected ecc error",
	"dram scrub error", "res", "Lost at least one NB error condition",
	"Uncorrectable condition", "Unrecoverable condition",
	/* the bus error's transaction and access lines */
	"generic ", "data read", "data write", "instruction fetch", "prefetch", "snoop",
	"memory access", "i/o access", "?",
};

static bool is_detail(struct span s)
{
	for (size_t i = 0; i < ELEMENTSOF(detail_starts); i++)
		if (span_starts(s, detail_starts[i]))
			return true;
	return false;
}

/* "CPU n: Silent Northbridge MCE", the whole line. */
static bool is_silent(struct span s)
{
	struct span t;

	if (!span_eat(&s, "CPU "))
		return false;
	t = span_token(&s);
	if (span_len(t) < 2 || t.end[-1] != ':' || !is_digit(t.p[0]))
		return false;
	span_skip_space(&s);
	return span_eq(s, "Silent Northbridge MCE");
}

/* Past "[NB ]error address " or "Address: ", at the number; false if neither. */
static bool eat_address(struct span *s)
{
	struct span t = *s;

	(void) span_eat(&t, "NB ");
	if (!span_eat(&t, "error address ") && !span_eat(&t, "Address: "))
		return false;
	span_skip_space(&t);
	if (t.p == t.end || span_starts(t, "valid"))
		return false;
	*s = t;
	return true;
}

unsigned text_k8_nb_recognise(const struct mce_text_parser *p, const struct text_line *l,
			      struct span *body)
{
	struct span s = l->msg;
	bool open = p->open == OPEN_K8_NB;

	*body = s;
	switch (s.p[0]) {
	case 'C':
		return is_silent(s) ? SILENT : 0;
	case 'N':
		if (span_starts(s, "Northbridge status "))
			return NB_STATUS;
		if (span_starts(s, "Northbridge Machine Check exception ") ||
		    span_starts(s, "Northbridge Machine Check timer "))
			return EXCEPTION;
		break;
	default:
		break;
	}
	if (!open)
		return 0;
	if (eat_address(&s))
		return ADDRESS;
	return is_detail(s) ? DETAIL : 0;
}

/* STATUS as 16 hex digits, or as the two 8-digit halves "HIGH:LOW". */
static enum kv_result read_status(struct mce_text_parser *p, struct span t, uint64_t *ret)
{
	const char *colon = memchr(t.p, ':', span_len(t));
	uint64_t hi, lo;

	if (!colon)
		return span_len(t) == 16 ? text_num(p, "STATUS", t, 16, UINT64_MAX, ret)
					 : text_bad(p, "expected the northbridge status as 16 hex digits");
	if (colon - t.p != 8 || t.end - colon != 9)
		return text_bad(p, "expected the northbridge status as HIGH:LOW, 8 hex digits each");
	if (text_num(p, "STATUS", (struct span) { t.p, colon }, 16, UINT32_MAX, &hi) != KV_OK ||
	    text_num(p, "STATUS", (struct span) { colon + 1, t.end }, 16, UINT32_MAX, &lo) != KV_OK)
		return KV_BAD;
	*ret = hi << 32 | lo;
	return KV_OK;
}

static void set_status(struct mce_record *r, uint64_t status)
{
	r->status = status;
	r->bank = K8_NB_BANK;
	r->vendor = MCE_VENDOR_AMD;
	r->have |= MCE_HAVE_STATUS | MCE_HAVE_BANK | MCE_HAVE_VENDOR;
}

static int begin(struct mce_text_parser *p, const struct text_line *l)
{
	return text_begin(p, OPEN_K8_NB, l->have_time, l->time_usec);
}

int text_k8_nb_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
		     struct span s)
{
	struct span t;
	uint64_t v;
	int k;

	switch (kind) {
	case SILENT:
		(void) span_eat(&s, "CPU ");
		t = span_token(&s);
		t.end--;                      /* its ':' */
		if (text_num(p, "CPU", t, 10, UINT32_MAX, &v) != KV_OK) {
			text_reject(p);
			return 0;
		}
		if ((k = begin(p, l)) < 0)
			return k;
		p->rec.cpu = (uint32_t) v;
		p->rec.have |= MCE_HAVE_CPU;
		return 0;
	case EXCEPTION: {
		struct mce_record head = { 0 };

		(void) span_eat(&s, "Northbridge Machine Check ");
		(void) span_token(&s);        /* "exception" or "timer" */
		if (read_status(p, span_token(&s), &v) != KV_OK) {
			text_reject(p);
			return 0;
		}
		/* The handler printed its "CPU n: Machine Check Exception: MCGSTATUS"
		 * head just before: this record is that CPU's, and the head, now
		 * used, is no record of its own without a STATUS. */
		if (p->open == OPEN_PANIC && !p->emitted) {
			head = p->rec;
			p->open = OPEN_NONE;
		}
		if ((k = begin(p, l)) < 0)
			return k;
		p->rec.have = head.have & (MCE_HAVE_CPU | MCE_HAVE_MCGSTATUS);
		p->rec.cpu = head.cpu;
		p->rec.mcgstatus = head.mcgstatus;
		set_status(&p->rec, v);
		return 0;
	}
	case NB_STATUS:
		(void) span_eat(&s, "Northbridge status ");
		if (read_status(p, span_token(&s), &v) != KV_OK) {
			text_reject(p);
			return 0;
		}
		if (p->open != OPEN_K8_NB && (k = begin(p, l)) < 0)
			return k;
		/* Under the exception's head, STATUS came from the same register
		 * the other way (the MSR): that one stays. */
		if (!(p->rec.have & MCE_HAVE_STATUS))
			set_status(&p->rec, v);
		p->last = p->line;
		return 0;
	case ADDRESS:
		(void) eat_address(&s);
		if (text_num(p, "ADDR", span_token(&s), 16, UINT64_MAX, &v) != KV_OK) {
			text_reject(p);
			return 0;
		}
		p->rec.addr = v;
		p->rec.have |= MCE_HAVE_ADDR;
		p->last = p->line;
		return 0;
	default:                              /* DETAIL */
		p->last = p->line;
		return 0;
	}
}
