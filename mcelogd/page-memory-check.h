/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * At start, before a known-bad page of an earlier boot is offlined again:
 * is the memory behind that page frame still the memory that erred?  A page
 * frame is only an address; after a DIMM swap, on a cloned disk image, after
 * a changed interleave or a re-created CXL region it is other, healthy
 * memory.  What the state kept (rules/page-identity.h) is compared with what
 * this boot shows; anything that differs, or a page no memory block holds,
 * keeps the page from being offlined.  What cannot be compared (no serial
 * kept, no SMBIOS) does not stop it: the machine id still binds it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rule_state_page;
struct smbios_memdev;

struct page_memory_now {
	const char *machine_id;            /* this machine's, "" or NULL unknown */
	const char *sysfs_memory;          /* NULL: /sys/devices/system/memory */
	uint64_t memory_block_bytes;       /* page_memory_block_bytes(sysfs_memory); 0: cannot tell */
	const char *sysfs_cxl;             /* NULL: /sys/bus/cxl/devices */
	const struct smbios_memdev *devs;  /* this boot's SMBIOS memory devices */
	size_t n_devs;
};

/* The kernel's memory block size (block_size_bytes), read once per start, not per page; 0 unknown. */
uint64_t page_memory_block_bytes(const char *sysfs_memory);

/* True if p may be offlined again; false with why (always NUL-terminated) if its memory changed. */
bool page_memory_unchanged(const struct rule_state_page *p, const struct page_memory_now *now, char *why,
			   size_t size);
