/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "bert-state.h"
#include "cper.h"
#include "file-io.h"
#include "log.h"
#include "ras-record.h"
#include "source.h"
#include "sources.h"

#define BERT_REGION_PATH "/sys/firmware/acpi/tables/data/BERT"
#define BERT_TABLE_PATH  "/sys/firmware/acpi/tables/BERT"

/* Boot error regions are a few KiB; this bounds what a broken one makes us read. */
#define BERT_REGION_MAX (4 * 1024 * 1024)

struct bert_run {
	const struct source_host *host;
	const char *path;
	unsigned n_records;
	unsigned n_unlogged;          /* no sink holds them */
	unsigned n_problems;
	enum mce_vendor vendor;
	uint32_t cpuid_eax;
};

/*
 * The region is read after a reboot on the same machine: a bank record whose
 * section did not name the CPU is decoded for this machine's CPU.
 */
static void local_cpu(enum mce_vendor *ret_vendor, uint32_t *ret_eax)
{
	*ret_vendor = MCE_VENDOR_UNKNOWN;
	*ret_eax = 0;
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char v[13];

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return;
	memcpy(v, &b, 4);
	memcpy(v + 4, &d, 4);
	memcpy(v + 8, &c, 4);
	v[12] = '\0';
	*ret_vendor = mce_vendor_from_string(v);
	if (__get_cpuid(1, &a, &b, &c, &d))
		*ret_eax = a;
#endif
}

static void on_mce(struct mce_record *rec, void *userdata)
{
	struct bert_run *br = userdata;

	if (!(rec->have & MCE_HAVE_VENDOR) && br->vendor != MCE_VENDOR_UNKNOWN) {
		rec->vendor = br->vendor;
		rec->have |= MCE_HAVE_VENDOR;
	}
	/* Scalable MCA is AMD's and Hygon's layout: keep what the CPU really is. */
	if (rec->vendor == MCE_VENDOR_AMD && br->vendor == MCE_VENDOR_HYGON)
		rec->vendor = MCE_VENDOR_HYGON;
	if (!(rec->have & MCE_HAVE_CPUID) && br->cpuid_eax)
		mce_record_set_cpuid(rec, br->cpuid_eax);
	br->n_records++;
	if (source_submit_recovered(br->host, rec) < 0)
		br->n_unlogged++;
}

static void on_ras(struct ras_record *rec, void *userdata)
{
	struct bert_run *br = userdata;

	br->n_records++;
	if (source_submit_ras(br->host, rec) < 0)
		br->n_unlogged++;
}

static void on_problem(size_t offset, const char *what, void *userdata)
{
	struct bert_run *br = userdata;

	br->n_problems++;
	log_error("%s: byte %zu (0x%zx): %s", br->path, offset, offset, what);
}


static int load_state(const char *dir, struct bert_state *ret)
{
	char path[4096], text[1024];
	_cleanup_close_ int fd = -1;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, BERT_STATE_FILE);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return negative_errno();
	n = read(fd, text, sizeof(text));
	if (n < 0)
		return negative_errno();
	if (bert_state_parse(text, (size_t) n, ret) < 0) {
		log_warning("%s is not a state file this version understands; the boot error region "
			    "will be logged again", path);
		return -EINVAL;
	}
	return 0;
}

static int save_state(const char *dir, const struct bert_state *s)
{
	char path[4096], text[256];
	int len;

	snprintf(path, sizeof(path), "%s/%s", dir, BERT_STATE_FILE);
	len = bert_state_format(s, text, sizeof(text));
	return write_file_atomic(path, text, (size_t) len, true);
}

static void unavailable_for(const struct source_host *h, const char *path, bool is_default, int r)
{
	if (r == -ENOENT && is_default && access(BERT_TABLE_PATH, F_OK) < 0) {
		log_debug("No BERT table: firmware provides no boot error record");
		source_set_state(h, MCE_SOURCE_PREVIOUS_BOOT, SOURCE_UNAVAILABLE,
					 "firmware provides no boot error record");
	} else if (r == -ENOENT && is_default) {
		log_warning("Firmware has a BERT table, but the kernel does not expose its region at %s", path);
		source_set_state(h, MCE_SOURCE_PREVIOUS_BOOT, SOURCE_UNAVAILABLE,
					 "the kernel does not expose the boot error region (%s)", path);
	} else if (r == -EACCES || r == -EPERM) {
		log_warning("No permission to read the boot error region %s (it is readable by root only)",
			    path);
		source_set_state(h, MCE_SOURCE_PREVIOUS_BOOT, SOURCE_UNAVAILABLE,
					 "no permission to read %s (root only)", path);
	} else {
		log_error_errno(r, "Failed to read the boot error region %s: %m", path);
		source_set_state(h, MCE_SOURCE_PREVIOUS_BOOT, SOURCE_UNAVAILABLE,
					 "cannot read %s: %s", path, strerror(-r));
	}
}

/*
 * Run once at start: each section is logged with source "previous_boot", then
 * the state directory remembers (the boot id, and the region's digest) that
 * it was, so a restart in the same boot, or a later boot while firmware still
 * holds the same region, does not log it again.  See mcelogd(8).
 */
static int bert_open(const struct source_host *h, void **ret)
{
	const char *region = h->paths->bert_region;
	const char *state_dir = h->paths->state_directory;
	const char *path = region ? region : BERT_REGION_PATH;
	const char *dir = state_dir;
	struct bert_run br = { .host = h, .path = path };
	const struct cper_sink sink = { .mce = on_mce, .ras = on_ras, .problem = on_problem, .userdata = &br };
	_cleanup_free_ char *buf = NULL;
	struct bert_state logged, now = {};

	*ret = NULL;
	bool have_logged;
	size_t len;
	int r;

	r = read_full_file(path, BERT_REGION_MAX, &buf, &len);
	if (r < 0) {
		unavailable_for(h, path, !region, r);
		return 0;
	}
	/* Most boots: the table is there and its region holds nothing (or only blocks the
	 * firmware emptied).  Nothing to log, nothing to remember. */
	if (cper_parse_error_region(buf, len, MCE_SOURCE_PREVIOUS_BOOT, &(const struct cper_sink) {}) == 0) {
		log_debug("The boot error region %s holds no error records", path);
		source_set_state(h, MCE_SOURCE_PREVIOUS_BOOT, SOURCE_ACTIVE,
					 "the boot error region holds no error records");
		return 0;
	}
	now.digest = cper_region_digest(buf, len);
	now.length = len;
	snprintf(now.boot_id, sizeof(now.boot_id), "%s", h->boot_id);

	have_logged = load_state(dir, &logged) >= 0;
	switch (bert_state_decide(have_logged ? &logged : NULL, h->boot_id, now.digest, now.length)) {
	case BERT_SKIP_SAME_BOOT:
		log_info("Boot error region already logged in this boot; not logging it again");
		source_set_state(h, MCE_SOURCE_PREVIOUS_BOOT, SOURCE_ACTIVE,
					 "boot error region already logged in this boot");
		return 0;
	case BERT_SKIP_SAME_REGION:
		log_notice("Firmware still holds the boot error region logged in boot %s; not logging it "
			   "again", logged.boot_id);
		source_set_state(h, MCE_SOURCE_PREVIOUS_BOOT, SOURCE_ACTIVE,
					 "boot error region unchanged since boot %s, already logged",
					 logged.boot_id);
		/* Moves the marker to this boot, so a restart now is a same-boot restart. */
		(void) save_state(dir, &now);
		return 0;
	case BERT_LOG:
		break;
	}

	local_cpu(&br.vendor, &br.cpuid_eax);
	r = cper_parse_error_region(buf, len, MCE_SOURCE_PREVIOUS_BOOT, &sink);
	if (r == -ENOMEM)
		log_error("Out of memory decoding the boot error region; %u record(s) logged", br.n_records);
	if (br.n_problems > 0)
		log_error("%s: %u problem(s) in the boot error region; the %u record(s) that could be read "
			  "were logged", path, br.n_problems, br.n_records);
	else
		log_info("Boot error region %s: %u record(s) from the previous boot logged", path, br.n_records);
	source_set_state(h, MCE_SOURCE_PREVIOUS_BOOT, SOURCE_ACTIVE,
				 "%u record(s) from the boot error region logged%s", br.n_records,
				 br.n_problems ? " (region partly malformed)" : "");

	/* The marker says "logged": not while a record of the region is held by no sink. */
	if (br.n_unlogged > 0) {
		log_warning("%u record(s) of the boot error region could not be logged; it is not marked "
			    "as logged, so the next start logs it again", br.n_unlogged);
		return 0;
	}
	r = save_state(dir, &now);
	if (r < 0)
		log_warning_errno(r, "Cannot remember in %s that the boot error region was logged (%m); "
				  "a restart will log it again", dir);
	return 0;
}

/* One-shot: it leaves nothing open. */
const struct source_ops bert_source_ops = {
	.name = "previous_boot",
	.open = bert_open,
};
