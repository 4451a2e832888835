/* SPDX-License-Identifier: MIT */
/*
 * The kernel's ras:non_standard_event as it prints it (tracefs trace and
 * trace_pipe, perf script): include/ras/ras_event.h's
 *
 *   "severity: %d; sec type:%pU; FRU: %pU %s; data len:%d; raw data:%s"
 *
 * with the section bytes by __print_hex() (two hex digits a byte, blank
 * between).  %pU prints the GUID's 16 bytes in memory order, so the text
 * "690dc8da-720a-ba4e-..." is the section type dac80d69-0a72-4eba-... that
 * UEFI writes: the bytes are read back as they were printed and the GUID
 * taken from them, as from the ring.  One line → one struct ras_record
 * with the keys kernel-abi/ras-trace.c gives the same event, the vendor
 * section decoded (decoders/arm-vendor.c), so `mcectl decode` shows what the
 * daemon would have logged.  Pure.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arm-vendor.h"
#include "cper.h"
#include "hex-digits.h"
#include "macro.h"
#include "ras-record.h"
#include "vendor-section-text.h"

#define EVENT "non_standard_event: "
#define MAX_SECTION 4096

static const char *find(const char *p, const char *end, const char *what)
{
	size_t n = strlen(what);

	for (; (size_t) (end - p) >= n; p++)
		if (memcmp(p, what, n) == 0)
			return p + n;
	return NULL;
}

/* Hex digit pairs, blanks between them and not inside; the bytes in ret. */
static bool hex_bytes(const char *p, const char *end, uint8_t *ret, size_t max, size_t *ret_n)
{
	size_t n = 0;

	while (p < end) {
		int hi, lo;

		if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
			p++;
			continue;
		}
		if (end - p < 2 || (hi = hex_digit_value(p[0])) < 0 || (lo = hex_digit_value(p[1])) < 0 || n == max)
			return false;
		ret[n++] = (uint8_t) (hi << 4 | lo);
		p += 2;
	}
	*ret_n = n;
	return true;
}

/* A %pU GUID: 36 characters, its bytes in the order printed. */
static bool guid_bytes(const char *p, const char *end, uint8_t ret[16])
{
	size_t n = 0;

	if (end - p < 36)
		return false;
	for (int i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (p[i] != '-')
				return false;
			continue;
		}
		if (hex_digit_value(p[i]) < 0 || hex_digit_value(p[i + 1]) < 0)
			return false;
		ret[n++] = (uint8_t) (hex_digit_value(p[i]) << 4 | hex_digit_value(p[i + 1]));
		i++;
	}
	return n == 16;
}

static bool number(const char *p, const char *end, unsigned long *ret, const char **ret_end)
{
	unsigned long v = 0;
	const char *q = p;

	while (q < end && *q >= '0' && *q <= '9' && v < 100000000)
		v = v * 10 + (unsigned long) (*q++ - '0');
	if (q == p)
		return false;
	*ret = v;
	*ret_end = q;
	return true;
}

/* ghes_severity() as the event carries it (kernel-abi/ras-trace.c's table). */
static const struct {
	const char *name;
	enum ras_severity severity;
} ghes_severities[] = {
	{ "none", RAS_SEV_INFO }, { "corrected", RAS_SEV_CORRECTED },
	{ "recoverable", RAS_SEV_UNCORRECTED }, { "panic", RAS_SEV_FATAL },
};

/* A full record keeps what it has (-E2BIG); only running out of memory ends it. */
static void added(bool *oom, int k)
{
	if (k == -ENOMEM)
		*oom = true;
}

static int fill(struct ras_record *r, unsigned long sev, const uint8_t type_bytes[16], const uint8_t fru_bytes[16],
		const char *fru_text, size_t fru_len, const uint8_t *d, size_t n)
{
	static const uint8_t zero[16];
	char text[CPER_GUID_STRING_MAX], what[160] = "", problem_text[300];
	struct cper_guid type, fru;
	struct arm_problem problem;
	const char *name;
	bool oom = false;
	int dk;

	if (sev < ELEMENTSOF(ghes_severities)) {
		r->severity = ghes_severities[sev].severity;
		added(&oom, ras_record_add_string(r, "ghes_severity", ghes_severities[sev].name, SIZE_MAX));
	} else {
		r->severity = RAS_SEV_UNCORRECTED;   /* unknown is never harmless */
		added(&oom, ras_record_add_uint(r, "ghes_severity", sev));
	}
	cper_guid_from_bytes(&type, type_bytes);
	cper_guid_to_string(&type, text);
	added(&oom, ras_record_add_string(r, "section_type", text, SIZE_MAX));
	if (memcmp(fru_bytes, zero, 16) != 0) {
		cper_guid_from_bytes(&fru, fru_bytes);
		cper_guid_to_string(&fru, text);
		added(&oom, ras_record_add_string(r, "fru_id", text, SIZE_MAX));
	}
	if (fru_len > 0)
		added(&oom, ras_record_add_string(r, "fru_text", fru_text, fru_len));
	if (n > 0)
		added(&oom, ras_record_add_bytes(r, "data", d, n));
	name = arm_vendor_section_name(&type);
	if (name)
		added(&oom, ras_record_add_string(r, "section_name", name, SIZE_MAX));
	dk = arm_vendor_decode(&type, r, d, n, what, sizeof(what), &problem);
	if (dk == -ENOMEM)
		return -ENOMEM;
	if (dk == -EBADMSG) {
		snprintf(problem_text, sizeof(problem_text), "buf byte %zu: %s", problem.offset, problem.what);
		added(&oom, ras_record_add_string(r, "data_problem", problem_text, SIZE_MAX));
	}
	cper_guid_to_string(&type, text);
	if (what[0])
		snprintf(r->summary, sizeof(r->summary), "%s %s (vendor section %s, %zu bytes)",
			 ras_severity_word(r->severity), what, text, n);
	else
		snprintf(r->summary, sizeof(r->summary), "%s hardware error in a vendor section (type %s, %zu bytes)",
			 ras_severity_word(r->severity), text, n);
	return oom ? -ENOMEM : 0;
}

int vendor_section_text_parse(const char *line, size_t len, struct ras_record *r, const char **ret_why)
{
	const char *end = line + len, *p, *q, *fru_end;
	uint8_t type[16], fru[16], d[MAX_SECTION];
	unsigned long sev, dlen;
	size_t n;
	int k;

	p = find(line, end, EVENT);
	if (!p)
		return -ENOENT;
	*ret_why = "expected 'severity: N; sec type:GUID; FRU: GUID TEXT; data len:N; raw data:HEX'";
	if (!(p = find(p, end, "severity: ")) || !number(p, end, &sev, &q))
		return -EINVAL;
	if (!(p = find(q, end, "; sec type:")) || !guid_bytes(p, end, type))
		return -EINVAL;
	if (!(p = find(p + 36, end, "; FRU: ")) || !guid_bytes(p, end, fru))
		return -EINVAL;
	p += 36;
	if (p < end && *p == ' ')
		p++;
	fru_end = find(p, end, "; data len:");
	if (!fru_end || !number(fru_end, end, &dlen, &q))
		return -EINVAL;
	fru_end -= strlen("; data len:");
	if (!(q = find(q, end, "; raw data:")))
		return -EINVAL;
	if (!hex_bytes(q, end, d, sizeof(d), &n)) {
		*ret_why = "raw data: expected hex bytes, blank between, at most 4096";
		return -EINVAL;
	}
	if (n != dlen) {
		*ret_why = "raw data: not as many bytes as 'data len' says";
		return -EINVAL;
	}
	/* fru_text is often blank: the kernel prints "%pU %s" with an empty string */
	while (fru_end > p && fru_end[-1] == ' ')
		fru_end--;
	ras_record_init(r, RAS_EVENT_VENDOR_SECTION, MCE_SOURCE_RAS_NON_STANDARD_EVENT);
	k = fill(r, sev, type, fru, p, (size_t) (fru_end - p), d, n);
	if (k < 0) {
		ras_record_done(r);
		return k;
	}
	return 0;
}
