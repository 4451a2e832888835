/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The DRAM location in an EDAC ras:mc_event's driver_detail text.  Pure.
 *
 * The kernel's memory-controller drivers print where an error hit as
 * "key:value" words in the event's free-text detail.  The forms read here
 * (spellings checked against the kernel sources named):
 *
 *   skx_edac / i10nm_edac, firmware (ADXL) decode, drivers/edac/skx_common.c:
 *     "ProcessorSocketId:0x0 MemoryControllerId:0x3 ChannelId:0x0 ...
 *      PhysicalRankId:0x1 DimmSlotId:0x0 Row:0x3b01 Column:0x380 Bank:0x0
 *      BankGroup:0x2 ChipSelect:0x1 ChipId:0x0"
 *   imh_edac (Diamond Rapids), which prints through skx_common.c the same
 *     firmware form; built from that format, as no log of one is published:
 *     " err_code:0x0000:0x009f  SystemAddress:0x2f1a3c0c0 ProcessorSocketId:0x1
 *      MemoryControllerId:0xb ChannelId:0x0 PhysicalRankId:0x1 DimmSlotId:0x0
 *      Row:0x1e2a Column:0x1f0 Bank:0x1 BankGroup:0x5 ChipSelect:0x1"
 *     (its MemoryControllerId runs to 15: eight per memory/IO hub); on a
 *     2-level-memory system the firmware adds the near memory's coordinates
 *     ("NmMemoryControllerId:0x3 NmChannelId:0x0 ... NmRow:... NmCol:..."),
 *     which are the error's when MCACOD says near memory (edac-detail.c);
 *   the same drivers' register decode:
 *     "err_code:0x0000:0x009f ProcessorSocketId:0x0 MemoryControllerId:0x1
 *      PhysicalRankId:0x0 Row:0x1a2f Column:0x3f8 Bank:0x2 BankGroup:0x1"
 *   skx_edac before the ADXL names (4.x kernels):
 *     "err_code:0x0101:0x0091 socket:1 imc:1 rank:0 bg:1 ba:2 row:0x1a2f col:0x3f8"
 *   sb_edac: "area:DRAM err_code:0001:0092 socket:0 ha:0 channel_mask:4 rank:0"
 *   ghes_edac (firmware-first), drivers/firmware/efi/cper.c
 *   cper_mem_err_location() and older ghes_edac.c:
 *     "APEI location: node:0 card:0 module:3 rank:1 bank:513 bank_group:2
 *      bank_address:1 device:4 row:4660 column:96 bit_position:7 ..."
 *     (older: "... row:%d col:%d bit_pos:%d ...")
 *
 * amd64_edac passes an empty detail: its location is in the event's label
 * and layers, not here.
 *
 * Words that are not "key:value" with a known key are skipped (the forms
 * carry addresses, status text and firmware names we do not need).  A known
 * key whose value is missing, not a number or wider than 32 bits is a
 * problem; so is a key given twice with different values (the first is
 * kept).  A negative value (the drivers print -1 for "unknown") leaves the
 * field absent.  Problems are counted and the first is described, with its
 * offset; the fields read before and after it are kept.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum edac_loc {
	EDAC_LOC_SOCKET,
	EDAC_LOC_MEMORY_CONTROLLER,   /* within the socket (skx/i10nm iMC, sb_edac home agent) */
	EDAC_LOC_CHANNEL,
	EDAC_LOC_DIMM,                /* slot on the channel (ghes: the CPER module) */
	EDAC_LOC_RANK,
	EDAC_LOC_CHIP_SELECT,
	EDAC_LOC_BANK_GROUP,
	EDAC_LOC_BANK,                /* within its group when a group is given */
	EDAC_LOC_ROW,
	EDAC_LOC_COLUMN,
	EDAC_LOC_CARD,                /* ghes: the CPER memory card */
	EDAC_LOC_DEVICE,              /* ghes: the DRAM device */
	EDAC_LOC_BIT_POSITION,
	_EDAC_LOC_MAX,
};

struct edac_location {
	uint32_t have;                /* 1u << enum edac_loc */
	uint32_t v[_EDAC_LOC_MAX];
	unsigned n_problems;
	char problem[128];            /* the first problem, "" if none */
};

/* Parses s[0..len) (stops at a NUL).  Returns the number of fields found. */
unsigned edac_detail_parse(const char *s, size_t len, struct edac_location *ret);

static inline bool edac_location_has(const struct edac_location *l, enum edac_loc f)
{
	return (unsigned) f < _EDAC_LOC_MAX && (l->have & (1u << f));
}

/* The record key of each field ("socket", "bank_group", ...): snake_case, static. */
const char *edac_loc_to_string(enum edac_loc f);

struct ras_record;
/*
 * Adds the location in r's "driver_detail" as numeric fields named by
 * edac_loc_to_string(), each only if r does not have it yet, and a
 * "driver_detail_problem" string when the text had a problem.  Returns the
 * number of fields added, or the ras_record_add_*() error.
 */
int ras_record_add_edac_location(struct ras_record *r);
