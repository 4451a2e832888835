/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
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
 * memory-hotplug.rst: memoryN covers [N * block_size_bytes, +block_size_bytes)),
 * online: the kernel soft-offlines only online pages (drivers/base/memory.c
 * answers EIO for others), and a CXL region's blocks are added before they
 * are onlined.  -ENOENT when no block holds it, -EAGAIN when its block is
 * not online ("offline", "going-offline"), 0 when it is or the kernel cannot
 * say (block 0, or no state file).
 */
static int memory_block_online(const char *sysfs_memory, uint64_t block, uint64_t pfn, char *name, size_t size)
{
	_cleanup_free_ char *text = NULL;
	char path[4096];
	struct stat st;
	size_t len = 0;

	if (block == 0)
		return 0;
	snprintf(name, size, "memory%" PRIu64, (pfn << PAGE_SHIFT) / block);
	snprintf(path, sizeof(path), "%s/%s", sysfs_memory, name);
	if (stat(path, &st) < 0)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%s/state", sysfs_memory, name);
	if (read_full_file(path, 64, &text, &len) < 0)
		return 0;
	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	return len == strlen("online") && memcmp(text, "online", len) == 0 ? 0 : -EAGAIN;
}

/* This boot's CXL memdevs' serials (memN/serial, "0x..." as the kernel prints them), read once per pass. */
static void read_cxl_serials(struct page_memory_now *now)
{
	const char *sysfs_cxl = now->sysfs_cxl ? now->sysfs_cxl : SYSFS_CXL;
	_cleanup_closedir_ DIR *d = opendir(sysfs_cxl);
	struct dirent *de;
	size_t cap = 0;

	now->cxl_serials_read = true;
	while (d && (de = readdir(d))) {
		char path[4096];
		uint64_t s;

		if (strncmp(de->d_name, "mem", 3) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/serial", sysfs_cxl, de->d_name);
		if (read_hex(path, &s) < 0)
			continue;
		if (now->n_cxl_serials == cap) {
			size_t more = cap ? 2 * cap : 16;
			uint64_t *grown = realloc(now->cxl_serials, more * sizeof(*grown));

			/* Out of memory: the serials not kept read as absent, so nothing is offlined wrongly. */
			if (!grown)
				return;
			now->cxl_serials = grown;
			cap = more;
		}
		now->cxl_serials[now->n_cxl_serials++] = s;
	}
}

static bool cxl_serial_present(struct page_memory_now *now, uint64_t serial)
{
	if (!now->cxl_serials_read)
		read_cxl_serials(now);
	for (size_t i = 0; i < now->n_cxl_serials; i++)
		if (now->cxl_serials[i] == serial)
			return true;
	return false;
}

void page_memory_now_done(struct page_memory_now *now)
{
	free(now->cxl_serials);
	now->cxl_serials = NULL;
	now->n_cxl_serials = 0;
	now->cxl_serials_read = false;
}

/*
 * Whether the CXL region of that name in this boot maps the page's address
 * (regionN/resource and size, as the kernel prints them: "%#llx").  Not
 * there, or there without an address yet (resource all ones and size 0
 * until one is allocated, drivers/cxl/core/region.c): absent, it may come.
 * There at another address, or another region under the old name: other
 * memory is at the page's address.
 */
static enum page_memory_verdict cxl_region_holds(const char *sysfs_cxl, const char *region, uint64_t pfn)
{
	char path[4096];
	uint64_t start, size, addr = pfn << PAGE_SHIFT;

	/* A name from the state file: never a path of its own. */
	if (!region[0] || strchr(region, '/') || region[0] == '.')
		return PAGE_MEMORY_CHANGED;
	snprintf(path, sizeof(path), "%s/%s/resource", sysfs_cxl, region);
	if (read_hex(path, &start) < 0)
		return PAGE_MEMORY_ABSENT;
	snprintf(path, sizeof(path), "%s/%s/size", sysfs_cxl, region);
	if (read_hex(path, &size) < 0 || size == 0 || start == UINT64_MAX)
		return PAGE_MEMORY_ABSENT;
	return addr >= start && addr - start < size ? PAGE_MEMORY_SAME : PAGE_MEMORY_CHANGED;
}

enum page_memory_verdict page_memory_check(const struct rule_state_page *p, struct page_memory_now *now,
					   char *why, size_t size)
{
	char want[RULE_STATE_PAGE_IDENTITY_MAX], slot[RULE_STATE_PAGE_IDENTITY_MAX], block[48];
	enum page_memory_verdict v;
	uint64_t serial;
	int r;

	why[0] = '\0';
	if (p->machine_id[0] && now->machine_id && now->machine_id[0] && !streq(p->machine_id, now->machine_id)) {
		snprintf(why, size, "it was recorded on machine %s, this is %s (a copied state or disk image)",
			 p->machine_id, now->machine_id);
		return PAGE_MEMORY_CHANGED;
	}
	r = memory_block_online(now->sysfs_memory ? now->sysfs_memory : SYSFS_MEMORY, now->memory_block_bytes,
				p->pfn, block, sizeof(block));
	if (r == -ENOENT) {
		snprintf(why, size, "no memory block holds it in this boot (memory removed, or a CXL region "
			 "not made yet)");
		return PAGE_MEMORY_ABSENT;
	}
	if (r < 0) {
		snprintf(why, size, "its memory block (%s) is not online in this boot", block);
		return PAGE_MEMORY_ABSENT;
	}
	if (page_identity_get(p->identity, "cxl_serial", want, sizeof(want))) {
		if (hex_text(want, strlen(want), &serial) < 0) {
			snprintf(why, size, "the CXL memory device it was on has a serial that is no number (%s)", want);
			return PAGE_MEMORY_CHANGED;
		}
		if (!cxl_serial_present(now, serial)) {
			snprintf(why, size, "the CXL memory device it was on (serial %s) is not present", want);
			return PAGE_MEMORY_ABSENT;
		}
		if (page_identity_get(p->identity, "region", slot, sizeof(slot))) {
			v = cxl_region_holds(now->sysfs_cxl ? now->sysfs_cxl : SYSFS_CXL, slot, p->pfn);
			if (v == PAGE_MEMORY_ABSENT) {
				snprintf(why, size, "the CXL region that mapped it (%s) is not there in this boot, or has "
					 "no address yet (not made yet, or destroyed)", slot);
				return v;
			}
			if (v == PAGE_MEMORY_CHANGED) {
				snprintf(why, size, "the CXL region that mapped it (%s) no longer holds its address "
					 "(made again elsewhere: other memory is there now)", slot);
				return v;
			}
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
			return PAGE_MEMORY_CHANGED;
		}
	return PAGE_MEMORY_SAME;
}
