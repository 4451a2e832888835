/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dimm-slots.h"
#include "macro.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* s[*a..*b) without its leading and trailing blanks. */
static void trim(const char *s, size_t *a, size_t *b)
{
	while (*a < *b && is_blank(s[*a]))
		(*a)++;
	while (*b > *a && is_blank(s[*b - 1]))
		(*b)--;
}

static bool printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char) s[i] < 0x20 || (unsigned char) s[i] >= 0x7f)
			return false;
	return true;
}

static int put(struct dimm_slots *s, const char *label, size_t nl, const char *slot, size_t ns)
{
	struct dimm_slot_override *o = NULL;

	for (size_t i = 0; i < s->n && !o; i++)
		if (strlen(s->o[i].label) == nl && memcmp(s->o[i].label, label, nl) == 0)
			o = &s->o[i];
	if (!o) {
		if (s->n >= DIMM_SLOTS_MAX_OVERRIDES)
			return -E2BIG;
		if (s->n == s->cap) {
			size_t cap = s->cap ? s->cap * 2 : 16;
			struct dimm_slot_override *p = realloc(s->o, cap * sizeof(*p));

			if (!p)
				return -ENOMEM;
			s->o = p;
			s->cap = cap;
		}
		o = &s->o[s->n++];
		memcpy(o->label, label, nl);
		o->label[nl] = '\0';
	}
	memcpy(o->slot, slot, ns);
	o->slot[ns] = '\0';
	return 0;
}

int dimm_slots_parse(struct dimm_slots *s, const char *path, const char *text, size_t len,
		     dimm_slots_problem_fn problem, void *userdata)
{
	unsigned line = 0;
	size_t at = 0;

	while (at < len) {
		size_t start = at, end, eq, la, lb, sa, sb;
		char what[96];
		int k;

		while (at < len && text[at] != '\n')
			at++;
		end = at++;
		line++;
		la = start;
		lb = end;
		trim(text, &la, &lb);
		if (la == lb || text[la] == '#')
			continue;
		/*
		 * The last '=' ends the label: a machine check's place
		 * ("socket=0 mc=0 channel=1 dimm=0", as mcectl dimms shows a
		 * DIMM known only by it) is a label too; no slot name has one.
		 */
		for (eq = lb; eq > la && text[eq - 1] != '='; eq--)
			;
		eq = eq > la ? eq - 1 : lb;
		what[0] = '\0';
		sa = eq + 1;
		sb = lb;
		lb = eq;
		if (eq == sb)
			snprintf(what, sizeof(what), "expected LABEL = SLOT");
		else {
			trim(text, &la, &lb);
			trim(text, &sa, &sb);
			if (la == lb)
				snprintf(what, sizeof(what), "no label before '='");
			else if (sa == sb)
				snprintf(what, sizeof(what), "no slot after '='");
			else if (lb - la >= DIMM_LABEL_MAX)
				snprintf(what, sizeof(what), "label longer than %d bytes", DIMM_LABEL_MAX - 1);
			else if (sb - sa > DIMM_SLOT_MAX)
				snprintf(what, sizeof(what), "slot name longer than %d bytes", DIMM_SLOT_MAX);
			else if (!printable(text + la, lb - la) || !printable(text + sa, sb - sa))
				snprintf(what, sizeof(what), "control or non-ASCII bytes");
		}
		if (what[0]) {
			if (problem)
				problem(path, line, what, userdata);
			continue;
		}
		k = put(s, text + la, lb - la, text + sa, sb - sa);
		if (k == -E2BIG && problem) {
			snprintf(what, sizeof(what), "more than %d overrides", DIMM_SLOTS_MAX_OVERRIDES);
			problem(path, line, what, userdata);
		} else if (k < 0 && k != -E2BIG)
			return k;
	}
	return 0;
}

void dimm_slots_done(struct dimm_slots *s)
{
	free(s->o);
	*s = (struct dimm_slots) {};
}

/* label == "<bank locator> <locator>" */
static bool is_bank_and_locator(const char *label, const struct smbios_memdev *d)
{
	size_t nb = strlen(d->bank_locator);

	return nb && strncmp(label, d->bank_locator, nb) == 0 && label[nb] == ' ' && streq(label + nb + 1, d->locator);
}

struct dimm_slot dimm_slot_find(const struct dimm_slots *s, const struct smbios_memdev *devs, size_t n,
				const char *label)
{
	if (!label || !label[0])
		return (struct dimm_slot) {};
	for (size_t i = 0; s && i < s->n; i++)
		if (streq(s->o[i].label, label)) {
			struct dimm_slot r = { .from = DIMM_SLOT_OVERRIDE, .slot = s->o[i].slot };

			/* The override names a slot; tell its SMBIOS structure too when one has that Locator. */
			for (size_t j = 0; j < n; j++)
				if (streq(devs[j].locator, r.slot))
					r.dev = &devs[j];
			return r;
		}
	for (size_t j = 0; j < n; j++)
		if (devs[j].locator[0] && (streq(label, devs[j].locator) || is_bank_and_locator(label, &devs[j])))
			return (struct dimm_slot) { .from = DIMM_SLOT_SMBIOS, .slot = devs[j].locator, .dev = &devs[j] };
	return (struct dimm_slot) {};
}

static const char *const from_names[] = {
	[DIMM_SLOT_UNKNOWN]  = "unknown",
	[DIMM_SLOT_OVERRIDE] = "override",
	[DIMM_SLOT_SMBIOS]   = "smbios",
};

const char *dimm_slot_from_to_string(enum dimm_slot_from f)
{
	return (unsigned) f < ELEMENTSOF(from_names) ? from_names[f] : "unknown";
}
