/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * One SMBIOS "Memory Device" structure (type 17), as Linux exports it raw in
 * /sys/firmware/dmi/entries/17-N/raw: the slot names a technician finds on
 * the board.  Pure.
 *
 * Layout (DMTF DSP0134, System Management BIOS Reference Specification,
 * 7.18 "Memory Device (Type 17)"): a formatted area of Length bytes, then
 * its strings, each NUL-terminated, numbered from 1, the set ending with an
 * extra NUL; a string field holds a string's number, 0 for none.
 *
 *   00h type (17)   01h length   02h handle (WORD)
 *   04h physical memory array handle (WORD)
 *   0Ch size (WORD): 0 no module installed, FFFFh unknown, bit 15 set:
 *       bits 14:0 in KiB, else in MiB; 7FFFh: see extended size
 *   10h device locator (STRING), e.g. "DIMM_A1", "P1-DIMMA1"
 *   11h bank locator (STRING, 2.1+), e.g. "P0_Node0_Channel0_Dimm0"
 *   17h manufacturer, 18h serial number, 1Ah part number (STRINGs, 2.3+)
 *   1Bh attributes (BYTE, 2.6+): bits 3:0 the rank, 0 unknown
 *   1Ch extended size (DWORD, 2.7+): bits 30:0 in MiB
 *
 * A structure shorter than the bank locator's field (12h bytes), of another
 * type, or longer than the bytes given is refused.  A string number past the
 * strings there are, or a string set without its end, leaves that name empty
 * and is counted as a problem, described with its offset.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SMBIOS_TYPE_MEMORY_DEVICE 17
/* Longest name kept; firmware's are a few dozen bytes at most. */
#define SMBIOS_NAME_MAX 64

struct smbios_memdev {
	uint16_t handle;
	uint16_t array_handle;
	char locator[SMBIOS_NAME_MAX + 1];       /* "" when the firmware gives none */
	char bank_locator[SMBIOS_NAME_MAX + 1];
	char manufacturer[SMBIOS_NAME_MAX + 1];  /* "" when the firmware gives none (or before 2.3) */
	char serial[SMBIOS_NAME_MAX + 1];
	char part_number[SMBIOS_NAME_MAX + 1];
	bool size_known;
	uint64_t size_kib;                       /* 0: no module in the slot */
	uint8_t rank;                            /* 0: unknown */
	unsigned n_problems;
	char problem[128];                       /* the first, "" if none */
};

/*
 * Parses raw[0..len).  0, or -EINVAL with *ret's problem saying why (too
 * short, not type 17, the length past the bytes given).
 */
int smbios_memdev_parse(const uint8_t *raw, size_t len, struct smbios_memdev *ret);
