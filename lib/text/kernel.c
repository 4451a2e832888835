/* SPDX-License-Identifier: MIT */
/*
 * The kernel's console lines for a machine check (__print_mce()): "KEY
 * value" lines (kv-line.c) under the hardware-error tag, from the first
 *
 *   mce: [Hardware Error]: CPU 3: Machine Check: 0 Bank 5: bea0000000000108
 *
 * to the last:
 *
 *   mce: [Hardware Error]: PROCESSOR 2:a20f10 TIME 1700000000 SOCKET 0 APIC 6 microcode a201016
 *
 * The same lines copied without their prefixes are read as mcelog's format
 * (mcelog.c), which is where the kernel's came from.
 */
#include "forms.h"

unsigned text_kernel_recognise(const struct mce_text_parser *p, const struct text_line *l,
			       struct span *body)
{
	(void) p;
	*body = l->tagged;
	return l->tagged.p != NULL;
}

int text_kv_record(struct mce_text_parser *p, const struct text_line *l, struct span body,
		   enum open_record open, bool end_at_processor)
{
	struct mce_record r;
	struct kv_line info;
	enum kv_result res;
	int k;

	r = p->open == open ? p->rec : (struct mce_record) { 0 };
	res = text_kv_line(p, body, &r, &info);
	if (res == KV_NOT_OURS) {
		/*
		 * Free text.  The AMD EDAC decoder prints its decoded text
		 * between its register lines, under the same tag.
		 */
		if (p->open == OPEN_EDAC_AMD)
			p->last = p->line;
		return 0;
	}
	if (res == KV_BAD) {
		text_reject(p);
		return 0;
	}
	if (info.names_cpu || p->open != open) {
		k = text_begin(p, open, l->have_time, l->time_usec);
		if (k < 0)
			return k;
		if (!info.names_cpu) {
			/* a continuation line whose first line we never saw */
			r = (struct mce_record) { 0 };
			(void) text_kv_line(p, body, &r, &info);
		}
	}
	p->rec = r;
	p->last = p->line;
	if (info.processor && end_at_processor)
		return text_flush(p);     /* the kernel's last line of a record */
	return 0;
}

int text_kernel_parse(struct mce_text_parser *p, const struct text_line *l, unsigned kind,
		      struct span body)
{
	(void) kind;
	if (text_kernel_noise(body))
		return 0;
	return text_kv_record(p, l, body, OPEN_KERNEL, true);
}
