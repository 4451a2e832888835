/* SPDX-License-Identifier: MIT */
/* The intel_pt PMU's sysfs description and its perf_event_attr; see intel-pt-pmu.h. */
#include <ctype.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "intel-pt-pmu.h"
#include "macro.h"

static int copy_name(char dst[PMU_NAME_MAX], const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n >= PMU_NAME_MAX)
		return -EINVAL;
	memcpy(dst, name, n + 1);
	return 0;
}

/* A decimal bit number 0..63 at *p; advances *p. */
static int parse_bit(const char **p, unsigned *ret)
{
	unsigned v = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (unsigned) (*s - '0');
		if (v > 63)
			return -EINVAL;
		s++;
	}
	*p = s;
	*ret = v;
	return 0;
}

int pmu_format_parse(const char *name, const char *text, struct pmu_format *ret)
{
	static const char *const fields[] = { "config:", "config1:", "config2:" };
	struct pmu_format f = {};
	const char *p = NULL;

	if (copy_name(f.name, name) < 0)
		return -EINVAL;
	for (unsigned i = 0; i < ELEMENTSOF(fields); i++)
		if (strncmp(text, fields[i], strlen(fields[i])) == 0) {
			f.config = i;
			p = text + strlen(fields[i]);
			break;
		}
	if (!p)
		return -EINVAL;
	for (;;) {
		unsigned lo, hi;

		if (parse_bit(&p, &lo) < 0)
			return -EINVAL;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_bit(&p, &hi) < 0 || hi < lo)
				return -EINVAL;
		}
		for (unsigned b = lo; b <= hi; b++)
			f.mask |= UINT64_C(1) << b;
		if (*p != ',')
			break;
		p++;
	}
	if (*p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	*ret = f;
	return 0;
}

int pmu_format_put(const struct pmu_format *f, uint64_t value, uint64_t config[3])
{
	uint64_t v = value;

	for (unsigned b = 0; b < 64; b++) {
		if (!(f->mask & (UINT64_C(1) << b)))
			continue;
		if (v & 1)
			config[f->config] |= UINT64_C(1) << b;
		else
			config[f->config] &= ~(UINT64_C(1) << b);
		v >>= 1;
	}
	return v ? -ERANGE : 0;
}

/* A whole text of one number (base 10 or 16), an optional newline after it. */
static int parse_whole(const char *text, int base, uint64_t *ret)
{
	char *end;
	uint64_t v;

	if (!(base == 16 ? isxdigit((unsigned char) *text) : isdigit((unsigned char) *text)))
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, base);
	if (errno)
		return -EINVAL;
	if (*end == '\n')
		end++;
	if (*end)
		return -EINVAL;
	*ret = v;
	return 0;
}

int intel_pt_pmu_set_type(struct intel_pt_pmu *p, const char *text)
{
	uint64_t v;

	if (parse_whole(text, 10, &v) < 0 || v > UINT32_MAX)
		return -EINVAL;
	p->type = (uint32_t) v;
	p->have_type = true;
	return 0;
}

int intel_pt_pmu_add_cap(struct intel_pt_pmu *p, const char *name, const char *text)
{
	struct pmu_cap c = {};

	if (copy_name(c.name, name) < 0 || parse_whole(text, 16, &c.value) < 0)
		return -EINVAL;
	if (p->n_caps == PMU_CAPS_MAX)
		return -E2BIG;
	p->caps[p->n_caps++] = c;
	return 0;
}

int intel_pt_pmu_add_format(struct intel_pt_pmu *p, const char *name, const char *text)
{
	struct pmu_format f;

	if (pmu_format_parse(name, text, &f) < 0)
		return -EINVAL;
	if (p->n_formats == PMU_FORMATS_MAX)
		return -E2BIG;
	p->formats[p->n_formats++] = f;
	return 0;
}

int intel_pt_pmu_cap(const struct intel_pt_pmu *p, const char *name, uint64_t *ret)
{
	for (size_t i = 0; i < p->n_caps; i++)
		if (streq(p->caps[i].name, name)) {
			*ret = p->caps[i].value;
			return 0;
		}
	return -ENOENT;
}

const struct pmu_format *intel_pt_pmu_format(const struct intel_pt_pmu *p, const char *name)
{
	for (size_t i = 0; i < p->n_formats; i++)
		if (streq(p->formats[i].name, name))
			return &p->formats[i];
	return NULL;
}

int intel_pt_build_attr(const struct intel_pt_pmu *p, unsigned psb_period, struct perf_event_attr *attr,
			const char **ret_missing)
{
	/* The fields the recorder needs: "pt" says the config is explicit, so the
	 * kernel takes branch as given instead of its default. */
	static const char *const required[] = { "pt", "tsc", "branch" };
	uint64_t config[3] = {}, cap;
	const struct pmu_format *f;

	if (!p->have_type) {
		*ret_missing = "type";
		return -ENOENT;
	}
	for (size_t i = 0; i < ELEMENTSOF(required); i++) {
		f = intel_pt_pmu_format(p, required[i]);
		if (!f) {
			*ret_missing = required[i];
			return -ENOENT;
		}
		if (pmu_format_put(f, 1, config) < 0)
			return -ERANGE;
	}
	f = intel_pt_pmu_format(p, "psb_period");
	if (f && intel_pt_pmu_cap(p, "psb_cyc", &cap) == 0 && cap) {
		int r = pmu_format_put(f, psb_period, config);

		if (r < 0)
			return r;
	}
	*attr = (struct perf_event_attr) {
		.size = sizeof(*attr),
		.type = p->type,
		.config = config[0],
		.config1 = config[1],
		.config2 = config[2],
	};
	*ret_missing = NULL;
	return 0;
}

