/* SPDX-License-Identifier: MIT */
/*
 * Values and the record fields they go to: numbers read whole or the line
 * is rejected with a message saying which value was wrong, and the
 * two-part register values several forms print the same way.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "parse-number.h"
#include "scanner.h"

enum kv_result text_bad(struct mce_text_parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
	return KV_BAD;
}

/* Apart from text_num(): its buffer would cost every good number a stack guard. */
static __attribute__((noinline)) enum kv_result num_bad(struct mce_text_parser *p, const char *key,
							struct span v, int base, int k)
{
	char buf[48];

	if (k == -ERANGE)
		return text_bad(p, "%s: value '%s' out of range", key, span_show(v, buf, sizeof(buf)));
	return text_bad(p, "%s: '%s' is not a %s number", key, span_show(v, buf, sizeof(buf)),
			base == 16 ? "hexadecimal" : "decimal");
}

enum kv_result text_num_other(struct mce_text_parser *p, const char *key, struct span v, int base,
			      uint64_t max, uint64_t *ret)
{
	size_t n = span_len(v);
	int k;

	if (n == 0)
		return text_bad(p, "%s: value missing", key);
	k = parse_unsigned(v.p, n, base, max, ret);
	if (k < 0)
		return num_bad(p, key, v, base, k);
	return KV_OK;
}

enum kv_result text_hex_0x(struct mce_text_parser *p, const char *key, struct span t, uint64_t max,
			   uint64_t *ret)
{
	char buf[48];

	if (!span_eat(&t, "0x"))
		return text_bad(p, "%s: expected 0x and hex digits, got '%s'", key,
				span_show(t, buf, sizeof(buf)));
	if (span_starts(t, "0x") || span_len(t) == 0)
		return text_bad(p, "%s: expected hex digits after 0x", key);
	return text_num(p, key, t, 16, max, ret);
}

const struct text_field *text_field_find(const struct text_field *fields, size_t n, struct span key,
					 bool fold_case)
{
	size_t len = span_len(key);

	for (size_t i = 0; i < n; i++) {
		/* lengths first: tables are searched for every token of every line */
		if (len != fields[i].len)
			continue;
		if (fold_case) {
			if (span_eq_case_n(key, fields[i].name, len))
				return &fields[i];
			continue;
		}
		/* by hand: keys are a few bytes, less than a memcmp() call costs */
		size_t j = 0;

		while (j < len && key.p[j] == fields[i].name[j])
			j++;
		if (j == len)
			return &fields[i];
	}
	return NULL;
}

enum kv_result text_field_read(struct mce_text_parser *p, const struct text_field *f, struct span v,
			       int base, struct mce_record *r)
{
	char *dst = (char *) r + f->offset;
	uint64_t max = f->size == 8 ? UINT64_MAX : f->size == 4 ? UINT32_MAX : UINT8_MAX, x;

	if (text_num(p, f->name, v, base, max, &x) != KV_OK)
		return KV_BAD;
	if (f->size == 8)
		memcpy(dst, &x, 8);
	else if (f->size == 4) {
		uint32_t x32 = (uint32_t) x;
		memcpy(dst, &x32, 4);
	} else {
		uint8_t x8 = (uint8_t) x;
		memcpy(dst, &x8, 1);
	}
	r->have |= f->have;
	return KV_OK;
}

/* As "RIP 10:<ffffffff81000000> {sym}" and mcelog print it. */
enum kv_result text_rip(struct mce_text_parser *p, struct span v, struct mce_record *r)
{
	const char *colon = memchr(v.p, ':', span_len(v));
	struct span cs, ip;
	uint64_t c, i;

	if (!colon)
		return text_bad(p, "RIP: expected CS:<IP>");
	cs = (struct span) { v.p, colon };
	ip = (struct span) { colon + 1, v.end };
	span_skip_space(&ip);         /* "10: <ffffffff802cfefe>", copied by hand */
	if (span_eat(&ip, "<")) {
		if (ip.p == ip.end || ip.end[-1] != '>')
			return text_bad(p, "RIP: expected CS:<IP>");
		ip.end--;
	}
	if (text_num(p, "RIP", cs, 16, UINT8_MAX, &c) != KV_OK ||
	    text_num(p, "RIP", ip, 16, UINT64_MAX, &i) != KV_OK)
		return KV_BAD;
	r->cs = (uint8_t) c;
	r->ip = i;
	r->have |= MCE_HAVE_CS | MCE_HAVE_IP;
	return KV_OK;
}

/* "PROCESSOR vendor:cpuid" on the kernel's console, "PROCESSOR: vendor:cpuid" in older trace text. */
enum kv_result text_processor(struct mce_text_parser *p, struct span v, struct mce_record *r)
{
	const char *colon = memchr(v.p, ':', span_len(v));
	uint64_t vendor, eax;

	if (!colon)
		return text_bad(p, "PROCESSOR: expected VENDOR:CPUID");
	if (text_num(p, "PROCESSOR vendor", (struct span) { v.p, colon }, 10, UINT32_MAX,
		     &vendor) != KV_OK ||
	    text_num(p, "PROCESSOR cpuid", (struct span) { colon + 1, v.end }, 16, UINT32_MAX,
		     &eax) != KV_OK)
		return KV_BAD;
	r->vendor = mce_vendor_from_linux_x86((unsigned) vendor);
	r->have |= MCE_HAVE_VENDOR;
	mce_record_set_cpuid(r, (uint32_t) eax);
	return KV_OK;
}
