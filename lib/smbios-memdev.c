/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "smbios-memdev.h"

/* Offsets in the formatted area, DSP0134 7.18 (Table "Memory Device (Type 17) structure"). */
#define OFF_LENGTH        0x01
#define OFF_HANDLE        0x02
#define OFF_ARRAY_HANDLE  0x04
#define OFF_SIZE          0x0c
#define OFF_LOCATOR       0x10
#define OFF_BANK_LOCATOR  0x11
#define OFF_MANUFACTURER  0x17
#define OFF_SERIAL        0x18
#define OFF_PART_NUMBER   0x1a
#define OFF_ATTRIBUTES    0x1b
#define OFF_EXTENDED_SIZE 0x1c
#define MIN_LENGTH        (OFF_BANK_LOCATOR + 1)

#define SIZE_UNKNOWN      0xffff
#define SIZE_IN_KIB       0x8000
#define SIZE_SEE_EXTENDED 0x7fff

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t) (p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

static void problem(struct smbios_memdev *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(struct smbios_memdev *d, const char *fmt, ...)
{
	va_list ap;

	if (d->n_problems++)
		return;
	va_start(ap, fmt);
	vsnprintf(d->problem, sizeof(d->problem), fmt, ap);
	va_end(ap);
}

/*
 * String number k of the set at raw[start..len) into dst: printable ASCII
 * kept, anything else shown as '?', trailing blanks (firmware pads) dropped.
 */
static void get_string(struct smbios_memdev *d, const uint8_t *raw, size_t start, size_t len, uint8_t field_off,
		       char *dst)
{
	unsigned k = raw[field_off];
	size_t at = start, end, n = 0;

	dst[0] = '\0';
	if (k == 0)
		return;
	for (unsigned i = 1;; i++) {
		if (at >= len) {
			problem(d, "string %u named at offset 0x%02x: the string set has no end", k, field_off);
			return;
		}
		if (raw[at] == 0) {
			problem(d, "string %u named at offset 0x%02x: the structure has only %u strings", k, field_off,
				i - 1);
			return;
		}
		for (end = at; end < len && raw[end]; end++)
			;
		if (end >= len) {
			problem(d, "string %u named at offset 0x%02x: string %u runs past the structure's end", k,
				field_off, i);
			return;
		}
		if (i == k)
			break;
		at = end + 1;
	}
	for (; at < end && n < SMBIOS_NAME_MAX; at++)
		dst[n++] = raw[at] >= 0x20 && raw[at] < 0x7f ? (char) raw[at] : '?';
	if (at < end)
		problem(d, "string %u named at offset 0x%02x is longer than %d bytes: cut", k, field_off,
			SMBIOS_NAME_MAX);
	while (n > 0 && dst[n - 1] == ' ')
		n--;
	dst[n] = '\0';
}

int smbios_memdev_parse(const uint8_t *raw, size_t len, struct smbios_memdev *ret)
{
	uint8_t length;
	uint16_t size;

	*ret = (struct smbios_memdev) {};
	if (len < MIN_LENGTH) {
		problem(ret, "%zu bytes: a memory device structure has at least %d", len, MIN_LENGTH);
		return -EINVAL;
	}
	if (raw[0] != SMBIOS_TYPE_MEMORY_DEVICE) {
		problem(ret, "type %u, not a memory device (%d)", raw[0], SMBIOS_TYPE_MEMORY_DEVICE);
		return -EINVAL;
	}
	length = raw[OFF_LENGTH];
	if (length < MIN_LENGTH || length > len) {
		problem(ret, "length %u at offset 0x01: %s", length,
			length < MIN_LENGTH ? "shorter than the bank locator's field" : "past the bytes given");
		return -EINVAL;
	}
	ret->handle = get16(raw + OFF_HANDLE);
	ret->array_handle = get16(raw + OFF_ARRAY_HANDLE);
	get_string(ret, raw, length, len, OFF_LOCATOR, ret->locator);
	get_string(ret, raw, length, len, OFF_BANK_LOCATOR, ret->bank_locator);
	/* SMBIOS 2.3 and later: who made the module and which one it is, for telling modules apart. */
	if (length > OFF_PART_NUMBER) {
		get_string(ret, raw, length, len, OFF_MANUFACTURER, ret->manufacturer);
		get_string(ret, raw, length, len, OFF_SERIAL, ret->serial);
		get_string(ret, raw, length, len, OFF_PART_NUMBER, ret->part_number);
	}

	size = get16(raw + OFF_SIZE);
	if (size == SIZE_UNKNOWN)
		ret->size_known = false;
	else if (size == SIZE_SEE_EXTENDED && length >= OFF_EXTENDED_SIZE + 4) {
		ret->size_known = true;
		ret->size_kib = (uint64_t) (get32(raw + OFF_EXTENDED_SIZE) & 0x7fffffff) << 10;
	} else if (size & SIZE_IN_KIB) {
		ret->size_known = true;
		ret->size_kib = size & 0x7fff;
	} else {
		ret->size_known = true;
		ret->size_kib = (uint64_t) size << 10;
	}
	if (length > OFF_ATTRIBUTES)
		ret->rank = raw[OFF_ATTRIBUTES] & 0x0f;
	return 0;
}
