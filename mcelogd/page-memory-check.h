/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Before a known-bad page of an earlier boot is offlined again (at start,
 * or when memory came online later): is the memory behind that page frame
 * still the memory that erred?  A page frame is only an address; after a
 * DIMM swap, on a cloned disk image, after a changed interleave or a
 * re-created CXL region it is other, healthy memory.  What the state kept
 * (rules/page-identity.h) is compared with what this boot shows; anything
 * that differs, or a page no online memory block holds, keeps the page from
 * being offlined (rules/page-hold.h: held for an absence, looked at again
 * when memory comes online, or for good).  What cannot be compared (no
 * serial kept, no SMBIOS) does not stop it: the machine id still binds it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "page-hold.h"

struct rule_state_page;
struct smbios_memdev;

/*
 * What this boot shows, for one pass over the known-bad pages (at start, or
 * when memory came online).  The CXL memdevs' serials are read once per
 * pass, at the first page on CXL memory, not once per page.
 */
struct page_memory_now {
	const char *machine_id;            /* this machine's, "" or NULL unknown */
	const char *sysfs_memory;          /* NULL: /sys/devices/system/memory */
	uint64_t memory_block_bytes;       /* page_memory_block_bytes(sysfs_memory); 0: cannot tell */
	const char *sysfs_cxl;             /* NULL: /sys/bus/cxl/devices */
	const struct smbios_memdev *devs;  /* this boot's SMBIOS memory devices */
	size_t n_devs;
	/* The pass's own: zero before the first page, freed by page_memory_now_done(). */
	bool cxl_serials_read;
	uint64_t *cxl_serials;
	size_t n_cxl_serials;
};

/* The kernel's memory block size (block_size_bytes), read once per start, not per page; 0 unknown. */
uint64_t page_memory_block_bytes(const char *sysfs_memory);

/*
 * Is p's memory the memory that erred?  PAGE_MEMORY_SAME: it may be
 * offlined again; otherwise why says what is absent or changed (always
 * NUL-terminated).  What cannot be compared (no serial kept, no SMBIOS, a
 * block without a state file) does not stop it.
 */
enum page_memory_verdict page_memory_check(const struct rule_state_page *p, struct page_memory_now *now,
					   char *why, size_t size);

/* Ends a pass: what it read is forgotten. */
void page_memory_now_done(struct page_memory_now *now);
