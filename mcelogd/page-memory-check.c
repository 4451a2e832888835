/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "file-io.h"
#include "macro.h"
#include "page-identity.h"
#include "page-memory-check.h"
#include "parse-number.h"
#include "rule-state.h"
#include "smbios-memdev.h"

#define SYSFS_MEMORY "/sys/devices/system/memory"
#define SYSFS_CXL "/sys/bus/cxl/devices"
#define PAGE_SHIFT 12

/* Hex digits, "0x" before them or not, as sysfs and the identity write them. */
static int hex_text(const char *text, size_t len, uint64_t *ret)
{
	if (len > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
		return parse_unsigned(text + 2, len - 2, 16, UINT64_MAX, ret);
	return parse_unsigned(text, len, 16, UINT64_MAX, ret);
}

static int read_hex(const char *path, uint64_t *ret)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int r = read_full_file(path, 64, &text, &len);

	if (r < 0)
		return r;
	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	return hex_text(text, len, ret);
}

uint64_t page_memory_block_bytes(const char *sysfs_memory)
{
	char path[4096];
	uint64_t block;

	snprintf(path, sizeof(path), "%s/block_size_bytes", sysfs_memory ? sysfs_memory : SYSFS_MEMORY);
	return read_hex(path, &block) < 0 ? 0 : block;
}

/*
 * The memory block that holds the page (Documentation/admin-guide/mm/
 * memory-hotplug.rst: memoryN covers [N * block_size_bytes, +block_size_bytes)).
 * -ENOENT when no block does; 0 when it does or the kernel cannot say (block 0).
 */
static int memory_block_present(const char *sysfs_memory, uint64_t block, uint64_t pfn)
{
	char path[4096];
	struct stat st;

	if (block == 0)
		return 0;
	snprintf(path, sizeof(path), "%s/memory%" PRIu64, sysfs_memory, (pfn << PAGE_SHIFT) / block);
	return stat(path, &st) == 0 ? 0 : -ENOENT;
}

/* A CXL memdev with this serial in this boot (memN/serial, "0x..." as the kernel prints it). */
static bool cxl_serial_present(const char *sysfs_cxl, uint64_t serial)
{
	_cleanup_closedir_ DIR *d = opendir(sysfs_cxl);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char path[4096];
		uint64_t s;

		if (strncmp(de->d_name, "mem", 3) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/serial", sysfs_cxl, de->d_name);
		if (read_hex(path, &s) >= 0 && s == serial)
			return true;
	}
	return false;
}

/*
 * Whether the CXL region of that name in this boot maps the page's address
 * (regionN/resource and size, as the kernel prints them: "%#llx").  A region
 * destroyed and made again at another address, or another region under the
 * old name, no longer holds the page: other memory is there.
 */
static bool cxl_region_holds(const char *sysfs_cxl, const char *region, uint64_t pfn)
{
	char path[4096];
	uint64_t start, size, addr = pfn << PAGE_SHIFT;

	/* A name from the state file: never a path of its own. */
	if (!region[0] || strchr(region, '/') || region[0] == '.')
		return false;
	snprintf(path, sizeof(path), "%s/%s/resource", sysfs_cxl, region);
	if (read_hex(path, &start) < 0)
		return false;
	snprintf(path, sizeof(path), "%s/%s/size", sysfs_cxl, region);
	if (read_hex(path, &size) < 0)
		return false;
	return addr >= start && addr - start < size;
}

bool page_memory_unchanged(const struct rule_state_page *p, const struct page_memory_now *now, char *why,
			   size_t size)
{
	char want[RULE_STATE_PAGE_IDENTITY_MAX], slot[RULE_STATE_PAGE_IDENTITY_MAX];
	uint64_t serial;

	why[0] = '\0';
	if (p->machine_id[0] && now->machine_id && now->machine_id[0] && !streq(p->machine_id, now->machine_id)) {
		snprintf(why, size, "it was recorded on machine %s, this is %s (a copied state or disk image)",
			 p->machine_id, now->machine_id);
		return false;
	}
	if (memory_block_present(now->sysfs_memory ? now->sysfs_memory : SYSFS_MEMORY, now->memory_block_bytes,
				 p->pfn) < 0) {
		snprintf(why, size, "no memory block holds it in this boot (memory removed, or a CXL region "
			 "not made yet)");
		return false;
	}
	if (page_identity_get(p->identity, "cxl_serial", want, sizeof(want))) {
		if (hex_text(want, strlen(want), &serial) < 0 ||
		    !cxl_serial_present(now->sysfs_cxl ? now->sysfs_cxl : SYSFS_CXL, serial)) {
			snprintf(why, size, "the CXL memory device it was on (serial %s) is not present", want);
			return false;
		}
		if (page_identity_get(p->identity, "region", slot, sizeof(slot)) &&
		    !cxl_region_holds(now->sysfs_cxl ? now->sysfs_cxl : SYSFS_CXL, slot, p->pfn)) {
			snprintf(why, size, "the CXL region that mapped it (%s) is gone or no longer holds its address "
				 "(made again elsewhere: other memory is there now)", slot);
			return false;
		}
	}
	if (page_identity_get(p->identity, "slot", slot, sizeof(slot)) &&
	    page_identity_get(p->identity, "serial", want, sizeof(want)))
		for (size_t i = 0; i < now->n_devs; i++) {
			const struct smbios_memdev *d = &now->devs[i];

			if (!streq(d->locator, slot) || !d->serial[0] || streq(d->serial, want))
				continue;
			snprintf(why, size, "slot %s now holds module serial %s, not %s (the module was replaced)",
				 slot, d->serial, want);
			return false;
		}
	return true;
}
