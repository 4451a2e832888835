/* SPDX-License-Identifier: MIT */
/*
 * UEFI GUIDs as CPER stores them (UEFI 2.10 Appendix A: the first three
 * groups little-endian, the last eight bytes as stored).  A file of its own:
 * the vendor-section table in decoders/ compares GUIDs, and must not pull the
 * whole CPER parser (which calls back into decoders/) into a program.
 */
#include <stdio.h>
#include <string.h>

#include "cper.h"

static uint16_t get16(const uint8_t *p) { return (uint16_t) (p[0] | p[1] << 8); }
static uint32_t get32(const uint8_t *p) { return (uint32_t) get16(p) | (uint32_t) get16(p + 2) << 16; }

void cper_guid_from_bytes(struct cper_guid *g, const uint8_t p[16])
{
	g->a = get32(p);
	g->b = get16(p + 4);
	g->c = get16(p + 6);
	memcpy(g->d, p + 8, 8);
}

void cper_guid_to_string(const struct cper_guid *g, char buf[CPER_GUID_STRING_MAX])
{
	snprintf(buf, CPER_GUID_STRING_MAX, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 g->a, g->b, g->c, g->d[0], g->d[1], g->d[2], g->d[3], g->d[4], g->d[5], g->d[6], g->d[7]);
}

bool cper_guid_equal(const struct cper_guid *a, const struct cper_guid *b)
{
	return a->a == b->a && a->b == b->b && a->c == b->c && memcmp(a->d, b->d, 8) == 0;
}
