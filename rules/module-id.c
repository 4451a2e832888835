/* SPDX-License-Identifier: MIT */
/* What names a memory module for the ledger (module-ledger.h: the keys and the fallback). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "macro.h"
#include "module-ledger.h"

/*
 * Serials that firmware writes where it has none: seen in dmidecode output
 * of real boards and in the SMBIOS specification's examples.  Compared
 * without case, after trimming blanks.
 */
static const char *const placeholder_serials[] = {
	"Not Specified", "NotSpecified", "Unknown", "Not Available", "N/A", "NA", "None", "No DIMM",
	"NO DIMM", "Serial#", "SerNum0", "To Be Filled By O.E.M.", "Default string", "0", "-",
};

bool module_serial_is_placeholder(const char *serial)
{
	size_t n;
	bool zeros = true, blank = true;

	if (!serial)
		return true;
	while (isspace((unsigned char) *serial))
		serial++;
	n = strlen(serial);
	while (n > 0 && isspace((unsigned char) serial[n - 1]))
		n--;
	for (size_t i = 0; i < n; i++) {
		blank = false;
		/* "00000000" and "0x00000000" alike; "FFFFFFFF" too, erased EEPROM. */
		if (serial[i] != '0' && !(i == 1 && (serial[i] == 'x' || serial[i] == 'X')))
			zeros = false;
	}
	if (blank || zeros)
		return true;
	if (n == 8 && strspn(serial, "Ff") == 8)
		return true;
	for (size_t i = 0; i < ELEMENTSOF(placeholder_serials); i++)
		if (strlen(placeholder_serials[i]) == n && strncasecmp(serial, placeholder_serials[i], n) == 0)
			return true;
	return false;
}

/* Copies s into buf, a key's separator ('|') and control characters made '_'. */
static void copy_name(char *buf, size_t size, const char *s)
{
	size_t i = 0;

	for (; s && *s && i + 1 < size; s++)
		buf[i++] = *s == '|' || (unsigned char) *s < 0x20 ? '_' : *s;
	buf[i] = '\0';
}

/* Appends s to buf at *at; false once it would not fit (NUL-terminated either way). */
static bool key_put(char *buf, size_t size, size_t *at, const char *s)
{
	size_t n = strlen(s);

	if (*at + n >= size) {
		buf[*at] = '\0';
		return false;
	}
	memcpy(buf + *at, s, n + 1);
	*at += n;
	return true;
}

/*
 * Built by hand, not by snprintf(): the key is made for every memory
 * record, and formatting was a third of the ledger's cost per record
 * (the speed gate's DRAM rows, with a state directory).
 */
static int make_key(struct module_id *id, const char *machine_id, const char *what)
{
	char *k = id->key;
	size_t size = sizeof(id->key), at = 0;
	bool ok = key_put(k, size, &at, module_kind_to_string(id->kind));

	if (id->fallback)
		ok = ok && key_put(k, size, &at, "|machine=") &&
		     key_put(k, size, &at, machine_id && machine_id[0] ? machine_id : "unknown") &&
		     key_put(k, size, &at, "|") && key_put(k, size, &at, what) && key_put(k, size, &at, "=") &&
		     key_put(k, size, &at, id->slot) &&
		     (!id->part[0] || (key_put(k, size, &at, "|part=") && key_put(k, size, &at, id->part)));
	else
		ok = ok && key_put(k, size, &at, "|serial=") && key_put(k, size, &at, id->serial) &&
		     key_put(k, size, &at, "|part=") && key_put(k, size, &at, id->part);
	/* A key cut short could be another module's: none rather than a wrong one. */
	return ok ? 0 : -E2BIG;
}

int module_id_dimm(const char *serial, const char *part, const char *slot, const char *machine_id,
		   struct module_id *ret)
{
	struct module_id id = { .kind = MODULE_DIMM };

	if (!slot || !slot[0])
		return -EINVAL;
	copy_name(id.slot, sizeof(id.slot), slot);
	if (!module_serial_is_placeholder(part))
		copy_name(id.part, sizeof(id.part), part);
	id.fallback = module_serial_is_placeholder(serial);
	if (!id.fallback)
		copy_name(id.serial, sizeof(id.serial), serial);
	/* Without a serial the part number at least tells a module of another kind put in the slot. */
	if (make_key(&id, machine_id, "slot") < 0)
		return -E2BIG;
	*ret = id;
	return 0;
}

int module_id_cxl(uint64_t serial, const char *memdev, const char *machine_id, struct module_id *ret)
{
	struct module_id id = { .kind = MODULE_CXL };

	if (!memdev || !memdev[0])
		return -EINVAL;
	copy_name(id.slot, sizeof(id.slot), memdev);
	/* 0 is no serial: QEMU's devices, and devices without a Device Serial Number. */
	id.fallback = serial == 0;
	if (!id.fallback)
		snprintf(id.serial, sizeof(id.serial), "0x%" PRIx64, serial);
	if (make_key(&id, machine_id, "memdev") < 0)
		return -E2BIG;
	*ret = id;
	return 0;
}
