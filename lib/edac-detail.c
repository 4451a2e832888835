/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "edac-detail.h"
#include "hex-digits.h"
#include "macro.h"
#include "ras-record.h"

static const char *const loc_names[_EDAC_LOC_MAX] = {
	[EDAC_LOC_SOCKET]            = "socket",
	[EDAC_LOC_MEMORY_CONTROLLER] = "memory_controller",
	[EDAC_LOC_CHANNEL]           = "channel",
	[EDAC_LOC_DIMM]              = "dimm",
	[EDAC_LOC_RANK]              = "rank",
	[EDAC_LOC_CHIP_SELECT]       = "chip_select",
	[EDAC_LOC_BANK_GROUP]        = "bank_group",
	[EDAC_LOC_BANK]              = "bank",
	[EDAC_LOC_ROW]               = "row",
	[EDAC_LOC_COLUMN]            = "column",
	[EDAC_LOC_CARD]              = "card",
	[EDAC_LOC_DEVICE]            = "device",
	[EDAC_LOC_BIT_POSITION]      = "bit_position",
};

const char *edac_loc_to_string(enum edac_loc f)
{
	return (unsigned) f < _EDAC_LOC_MAX ? loc_names[f] : "unknown";
}

/*
 * ghes_edac's "bank:" is the whole CPER bank number, which, when firmware
 * also gives "bank_group:" and "bank_address:", is the two of them packed
 * (group in bits 15:8, UEFI 2.x N.2.5 Memory Error Section): held apart and
 * used only when no bank address is given.
 */
#define LOC_WHOLE_BANK _EDAC_LOC_MAX

/*
 * A 2-level-memory system's firmware (ADXL) decode gives each DRAM
 * coordinate twice: of the far memory ("MemoryControllerId") and of the
 * near memory that caches it ("NmMemoryControllerId"), the names in
 * Intel's ADXL _DSM component list.  skx_common.c prints all of them and
 * takes the near ones when MCACOD, masked with MCACOD_MEM_ERR_MASK (EF80H),
 * is MCACOD_EXT_MEM_ERR (0280H): an error in the near memory
 * (skx_error_source(), skx_adxl_decode(); i10nm_edac and, on Diamond
 * Rapids, imh_edac).  The same rule here: a near-memory spelling is its
 * field or'ed with LOC_NEAR, held apart and used only for such an error.
 */
#define LOC_NEAR 0x100u
#define MCACOD_MEM_ERR_MASK 0xef80u
#define MCACOD_EXT_MEM_ERR  0x0280u

/* Every spelling of every form (edac-detail.h), matched exactly: "Bank" and "bank" differ. */
static const struct {
	const char *key;
	unsigned loc;
} spellings[] = {
	/* skx_edac / i10nm_edac, firmware (ADXL) and register decode */
	{ "ProcessorSocketId",  EDAC_LOC_SOCKET },
	{ "MemoryControllerId", EDAC_LOC_MEMORY_CONTROLLER },
	{ "ChannelId",          EDAC_LOC_CHANNEL },
	{ "DimmSlotId",         EDAC_LOC_DIMM },
	{ "PhysicalRankId",     EDAC_LOC_RANK },
	{ "ChipSelect",         EDAC_LOC_CHIP_SELECT },
	{ "BankGroup",          EDAC_LOC_BANK_GROUP },
	{ "Bank",               EDAC_LOC_BANK },
	{ "Row",                EDAC_LOC_ROW },
	{ "Column",             EDAC_LOC_COLUMN },
	/* the same drivers' near-memory (2LM) components */
	{ "NmMemoryControllerId", LOC_NEAR | EDAC_LOC_MEMORY_CONTROLLER },
	{ "NmChannelId",          LOC_NEAR | EDAC_LOC_CHANNEL },
	{ "NmDimmSlotId",         LOC_NEAR | EDAC_LOC_DIMM },
	{ "NmPhysicalRankId",     LOC_NEAR | EDAC_LOC_RANK },
	{ "NmChipSelect",         LOC_NEAR | EDAC_LOC_CHIP_SELECT },
	{ "NmBankGroup",          LOC_NEAR | EDAC_LOC_BANK_GROUP },
	{ "NmBank",               LOC_NEAR | EDAC_LOC_BANK },
	{ "NmRow",                LOC_NEAR | EDAC_LOC_ROW },
	{ "NmCol",                LOC_NEAR | EDAC_LOC_COLUMN },
	/* skx_edac before ADXL names; sb_edac */
	{ "socket",             EDAC_LOC_SOCKET },
	{ "imc",                EDAC_LOC_MEMORY_CONTROLLER },
	{ "ha",                 EDAC_LOC_MEMORY_CONTROLLER },
	{ "rank",               EDAC_LOC_RANK },
	{ "bg",                 EDAC_LOC_BANK_GROUP },
	{ "ba",                 EDAC_LOC_BANK },
	{ "row",                EDAC_LOC_ROW },
	{ "col",                EDAC_LOC_COLUMN },
	/* ghes_edac (CPER memory error section) */
	{ "node",               EDAC_LOC_SOCKET },
	{ "card",               EDAC_LOC_CARD },
	{ "module",             EDAC_LOC_DIMM },
	{ "bank",               LOC_WHOLE_BANK },
	{ "bank_group",         EDAC_LOC_BANK_GROUP },
	{ "bank_address",       EDAC_LOC_BANK },
	{ "device",             EDAC_LOC_DEVICE },
	{ "column",             EDAC_LOC_COLUMN },
	{ "bit_position",       EDAC_LOC_BIT_POSITION },
	{ "bit_pos",            EDAC_LOC_BIT_POSITION },
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int lookup(const char *key, size_t n)
{
	for (size_t i = 0; i < ELEMENTSOF(spellings); i++)
		if (strlen(spellings[i].key) == n && memcmp(spellings[i].key, key, n) == 0)
			return (int) spellings[i].loc;
	return -1;
}

enum value_kind { VALUE_OK, VALUE_NEGATIVE, VALUE_EMPTY, VALUE_NOT_NUMBER, VALUE_TOO_WIDE };

/* "0x1f" or "31" (a leading '-' marks the drivers' "unknown"), all of s[0..n). */
static enum value_kind parse_value(const char *s, size_t n, uint32_t *ret)
{
	unsigned base = 10;
	uint64_t v = 0;
	size_t i = 0;

	if (n == 0)
		return VALUE_EMPTY;
	if (s[0] == '-') {
		for (i = 1; i < n; i++)
			if (s[i] < '0' || s[i] > '9')
				return VALUE_NOT_NUMBER;
		return n > 1 ? VALUE_NEGATIVE : VALUE_NOT_NUMBER;
	}
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	for (; i < n; i++) {
		char c = s[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned) (c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned) (c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned) (c - 'A' + 10);
		else
			return VALUE_NOT_NUMBER;
		v = v * base + d;
		if (v > UINT32_MAX)
			return VALUE_TOO_WIDE;
	}
	*ret = (uint32_t) v;
	return VALUE_OK;
}

/* The first problem only, its word quoted printable and short: the detail itself is kept whole elsewhere. */
static void problem(struct edac_location *l, size_t at, const char *word, size_t n, const char *what)
{
	char shown[40];
	size_t k;

	if (l->n_problems++)
		return;
	for (k = 0; k < n && k < sizeof(shown) - 4; k++)
		shown[k] = word[k] >= 0x20 && word[k] < 0x7f ? word[k] : '?';
	if (k < n) {
		memcpy(shown + k, "...", 3);
		k += 3;
	}
	shown[k] = '\0';
	snprintf(l->problem, sizeof(l->problem), "driver_detail at offset %zu: '%s' %s", at, shown, what);
}

static void take(struct edac_location *l, unsigned loc, uint32_t v, uint32_t *whole_bank, bool *have_whole,
		 size_t at, const char *word, size_t n)
{
	uint32_t *slot = loc == LOC_WHOLE_BANK ? whole_bank : &l->v[loc];
	bool had = loc == LOC_WHOLE_BANK ? *have_whole : (l->have & (1u << loc)) != 0;

	if (had) {
		if (*slot != v)
			problem(l, at, word, n, "repeats a key with a different value; the first is kept");
		return;
	}
	*slot = v;
	if (loc == LOC_WHOLE_BANK)
		*have_whole = true;
	else
		l->have |= 1u << loc;
}

/* "err_code:0x0000:0x0280" (skx/i10nm/imh) or "err_code:0001:0092" (sb_edac): MCACOD is the last number, hex. */
static bool err_code_mcacod(const char *v, size_t n, uint32_t *ret)
{
	const char *last = v;
	uint32_t x = 0;

	for (size_t k = 0; k < n; k++)
		if (v[k] == ':')
			last = v + k + 1;
	n -= (size_t) (last - v);
	if (n > 2 && last[0] == '0' && (last[1] == 'x' || last[1] == 'X')) {
		last += 2;
		n -= 2;
	}
	if (n == 0 || n > 4)
		return false;
	for (size_t k = 0; k < n; k++) {
		int d = hex_digit_value(last[k]);

		if (d < 0)
			return false;
		x = x * 16 + (uint32_t) d;
	}
	*ret = x;
	return true;
}

/* A near-memory error: each coordinate the near memory has one for is its, the others unknown. */
static void use_near_memory(struct edac_location *l, const struct edac_location *near)
{
	static const enum edac_loc both[] = {
		EDAC_LOC_MEMORY_CONTROLLER, EDAC_LOC_CHANNEL, EDAC_LOC_DIMM, EDAC_LOC_RANK, EDAC_LOC_CHIP_SELECT,
		EDAC_LOC_BANK_GROUP, EDAC_LOC_BANK, EDAC_LOC_ROW, EDAC_LOC_COLUMN,
	};

	for (size_t k = 0; k < ELEMENTSOF(both); k++) {
		enum edac_loc f = both[k];

		/* Always true; said so that gcc's -Warray-bounds under the sanitizers can see it. */
		if ((unsigned) f >= _EDAC_LOC_MAX)
			continue;
		if (edac_location_has(near, f)) {
			l->v[f] = near->v[f];
			l->have |= 1u << f;
		} else {
			l->v[f] = 0;
			l->have &= ~(1u << f);
		}
	}
}

unsigned edac_detail_parse(const char *s, size_t len, struct edac_location *ret)
{
	struct edac_location near = {};
	uint32_t whole_bank = 0, mcacod = 0;
	bool have_whole = false, have_mcacod = false;
	unsigned n = 0;
	size_t i = 0;

	*ret = (struct edac_location) {};
	if (!s)
		return 0;
	len = strnlen(s, len);
	while (i < len) {
		size_t start, end, colon;
		uint32_t v = 0;
		int loc;

		while (i < len && is_space(s[i]))
			i++;
		start = i;
		while (i < len && !is_space(s[i]))
			i++;
		end = i;
		if (start == end)
			break;
		for (colon = start; colon < end && s[colon] != ':'; colon++)
			;
		if (colon - start == 8 && memcmp(s + start, "err_code", 8) == 0 && colon < end) {
			have_mcacod = err_code_mcacod(s + colon + 1, end - colon - 1, &mcacod);
			continue;
		}
		if (colon == end || (loc = lookup(s + start, colon - start)) < 0)
			continue;
		switch (parse_value(s + colon + 1, end - colon - 1, &v)) {
		case VALUE_OK:
			if ((unsigned) loc & LOC_NEAR)
				take(&near, (unsigned) loc & ~LOC_NEAR, v, &whole_bank, &have_whole, start, s + start,
				     end - start);
			else
				take(ret, (unsigned) loc, v, &whole_bank, &have_whole, start, s + start, end - start);
			break;
		case VALUE_NEGATIVE:
			break;
		case VALUE_EMPTY:
			problem(ret, start, s + start, end - start, "has no value");
			break;
		case VALUE_NOT_NUMBER:
			problem(ret, start, s + start, end - start, "is not a number");
			break;
		case VALUE_TOO_WIDE:
			problem(ret, start, s + start, end - start, "is wider than 32 bits");
			break;
		}
	}
	if (near.n_problems && !ret->n_problems)
		memcpy(ret->problem, near.problem, sizeof(ret->problem));
	ret->n_problems += near.n_problems;
	if (near.have && have_mcacod && (mcacod & MCACOD_MEM_ERR_MASK) == MCACOD_EXT_MEM_ERR)
		use_near_memory(ret, &near);
	if (have_whole && !edac_location_has(ret, EDAC_LOC_BANK)) {
		ret->v[EDAC_LOC_BANK] = edac_location_has(ret, EDAC_LOC_BANK_GROUP) ? whole_bank & 0xff : whole_bank;
		ret->have |= 1u << EDAC_LOC_BANK;
	}
	for (unsigned f = 0; f < _EDAC_LOC_MAX; f++)
		n += edac_location_has(ret, (enum edac_loc) f);
	return n;
}

int ras_record_add_edac_location(struct ras_record *r)
{
	const struct ras_field *detail = ras_record_find(r, "driver_detail");
	struct edac_location l;
	int added = 0, k;

	if (!detail || detail->type != RAS_FIELD_STRING || !detail->data)
		return 0;
	edac_detail_parse(detail->data, detail->len, &l);
	for (unsigned f = 0; f < _EDAC_LOC_MAX; f++) {
		if (!edac_location_has(&l, (enum edac_loc) f) || ras_record_find(r, loc_names[f]))
			continue;
		k = ras_record_add_uint(r, loc_names[f], l.v[f]);
		if (k < 0)
			return k;
		added++;
	}
	if (l.n_problems && !ras_record_find(r, "driver_detail_problem")) {
		k = ras_record_add_string(r, "driver_detail_problem", l.problem, SIZE_MAX);
		if (k < 0)
			return k;
	}
	return added;
}
