/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include "cpuinfo.h"
#include "macro.h"
#include "parse-number.h"

/* /proc/cpuinfo's vendor_id strings, as CPUID leaf 0 returns them. */
static const struct {
	const char *id;
	enum mce_vendor vendor;
} vendors[] = {
	{ "GenuineIntel", MCE_VENDOR_INTEL },
	{ "AuthenticAMD", MCE_VENDOR_AMD },
	{ "HygonGenuine", MCE_VENDOR_HYGON },
	{ "  Shanghai  ", MCE_VENDOR_ZHAOXIN },
	{ "CentaurHauls", MCE_VENDOR_CENTAUR },
};

static bool has_word(const char *list, size_t len, const char *word)
{
	size_t wl = strlen(word);

	for (size_t i = 0; i + wl <= len; i++)
		if ((i == 0 || list[i - 1] == ' ') && memcmp(list + i, word, wl) == 0 &&
		    (i + wl == len || list[i + wl] == ' '))
			return true;
	return false;
}

static int number(const char *v, size_t n, uint32_t *ret)
{
	uint64_t x;
	int r = parse_unsigned(v, n, 0, UINT32_MAX, &x);

	if (r >= 0)
		*ret = (uint32_t) x;
	return r;
}

int cpuinfo_parse(const char *text, struct cpuinfo *ret, struct cpuinfo_cpu *cpus, size_t max)
{
	struct cpuinfo c = { .vendor = MCE_VENDOR_UNKNOWN };
	unsigned block = 0, have = 0;
	long cur = -1;
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p);
		const char *colon = memchr(p, ':', (size_t) (end - p));
		const char *k = p, *ke, *v;
		size_t kn, vn;

		p = nl ? nl + 1 : end;
		if (!colon)
			continue;
		ke = colon;
		while (ke > k && (ke[-1] == ' ' || ke[-1] == '\t'))
			ke--;
		kn = (size_t) (ke - k);
		v = colon + 1;
		while (v < end && *v == ' ')
			v++;
		vn = (size_t) (end - v);

#define KEY(s) (kn == strlen(s) && memcmp(k, s, kn) == 0)
		if (KEY("processor")) {
			uint32_t n;

			block++;
			cur = number(v, vn, &n) >= 0 && n < max ? (long) n : -1;
			if (cur >= 0)
				cpus[cur].known = true;
		} else if (KEY("apicid") && cur >= 0) {
			cpus[cur].have_apicid = number(v, vn, &cpus[cur].apicid) >= 0;
		} else if (KEY("physical id") && cur >= 0) {
			cpus[cur].have_package = number(v, vn, &cpus[cur].package) >= 0;
		} else if (block != 1) {
			continue;   /* identity and flags from the first processor only */
		} else if (KEY("vendor_id")) {
			for (size_t i = 0; i < ELEMENTSOF(vendors); i++)
				if (vn == strlen(vendors[i].id) && memcmp(v, vendors[i].id, vn) == 0)
					c.vendor = vendors[i].vendor;
		} else if (KEY("cpu family")) {
			have |= (number(v, vn, &c.family) >= 0) << 0;
		} else if (KEY("model")) {
			have |= (number(v, vn, &c.model) >= 0) << 1;
		} else if (KEY("stepping")) {
			have |= (number(v, vn, &c.stepping) >= 0) << 2;
		} else if (KEY("microcode")) {
			c.have_microcode = number(v, vn, &c.microcode) >= 0;
		} else if (KEY("flags")) {
			c.smca = has_word(v, vn, "smca");
			c.hypervisor = has_word(v, vn, "hypervisor");
			c.intel_pt = has_word(v, vn, "intel_pt");
		}
#undef KEY
	}
	if (block == 0 || c.vendor == MCE_VENDOR_UNKNOWN)
		return -EINVAL;
	c.have_cpuid = have == 7;
	*ret = c;
	return 0;
}
