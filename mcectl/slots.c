/* SPDX-License-Identifier: MIT */
/*
 * mcectl slots: which board slot each EDAC DIMM is.  Reads the firmware's
 * SMBIOS Memory Device structures (/sys/firmware/dmi/entries/17-N/raw), the
 * EDAC DIMMs' labels (/sys/devices/system/edac/mc/mcN/dimmM/dimm_label) and
 * the administrator's overrides (the .conf files of slots.d), and prints both lists
 * with the slot each DIMM maps to (lib/dimm-slots.h says how).
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dimm-slot-files.h"
#include "dimm-slots.h"
#include "json-writer.h"
#include "macro.h"
#include "options.h"
#include "read-file.h"
#include "smbios-memdev.h"
#include "verbs.h"

#define DMI_DIR_DEFAULT   DMI_ENTRIES_DEFAULT
#define EDAC_DIR_DEFAULT  "/sys/devices/system/edac/mc"
#define SLOTS_SUFFIX      DIMM_SLOTS_SUFFIX
#define MAX_DIMMS         4096

struct edac_dimm {
	char name[64];                 /* "mc0/dimm3" */
	char label[DIMM_LABEL_MAX];
	char location[64];             /* "channel 0 slot 0" */
};

struct slots_ctx {
	struct smbios_memdev *devs;
	size_t n_devs;
	struct edac_dimm *dimms;
	size_t n_dimms;
	struct dimm_slots overrides;
	unsigned problems;
};

static void help(void)
{
	printf("Usage: mcectl slots [OPTIONS]\n"
	       "Show the board slots the firmware names (SMBIOS type 17) and the slot of each\n"
	       "EDAC DIMM.\n\n"
	       "      --dmi-dir DIR      SMBIOS entries (default %s)\n"
	       "      --edac-dir DIR     EDAC memory controllers (default %s)\n"
	       "      --slots-dir DIR    label-to-slot overrides, *%s (default %s)\n"
	       "  -o, --output FORMAT    table (default) or json\n"
	       "  -h, --help             show this help\n",
	       DMI_DIR_DEFAULT, EDAC_DIR_DEFAULT, SLOTS_SUFFIX, SLOTS_DIR_DEFAULT);
}

/* A sysfs attribute's first line, printable, without its newline; "" if unreadable. */
static void read_line(const char *path, char *dst, size_t size)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0, n = 0;

	dst[0] = '\0';
	if (read_whole_file(path, 4096, &text, &len) < 0)
		return;
	for (size_t i = 0; i < len && text[i] != '\n' && n + 1 < size; i++)
		dst[n++] = (unsigned char) text[i] >= 0x20 && (unsigned char) text[i] < 0x7f ? text[i] : '?';
	dst[n] = '\0';
}

static void on_problem(const char *path, unsigned line, const char *what, void *userdata)
{
	struct slots_ctx *c = userdata;

	if (line > 0)
		fprintf(stderr, "mcectl slots: %s:%u: %s\n", path, line, what);
	else
		fprintf(stderr, "mcectl slots: %s: %s\n", path, what);
	c->problems++;
}

static int is_numbered(const struct dirent *e, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(e->d_name, prefix, n) == 0 && e->d_name[n] >= '0' && e->d_name[n] <= '9';
}

static int is_mc(const struct dirent *e)
{
	return is_numbered(e, "mc");
}

/* EDAC names a DIMM "dimmN", or "rankN" where the controller cannot tell DIMMs apart. */
static int is_dimm(const struct dirent *e)
{
	return is_numbered(e, "dimm") || is_numbered(e, "rank");
}

static int read_dimms(struct slots_ctx *c, const char *dir)
{
	struct dirent **mcs = NULL;
	int n = scandir(dir, &mcs, is_mc, versionsort);

	if (n < 0)
		return errno == ENOENT ? 0 : (fprintf(stderr, "mcectl slots: %s: %s\n", dir, strerror(errno)),
					      c->problems++, 0);
	c->dimms = calloc(MAX_DIMMS, sizeof(*c->dimms));
	for (int i = 0; i < n; i++) {
		char mcdir[4096];
		struct dirent **ds = NULL;
		int m;

		snprintf(mcdir, sizeof(mcdir), "%s/%s", dir, mcs[i]->d_name);
		m = c->dimms ? scandir(mcdir, &ds, is_dimm, versionsort) : -1;
		for (int j = 0; j < m; j++) {
			struct edac_dimm *d = &c->dimms[c->n_dimms];
			char path[4096 + 300];

			if (c->n_dimms < MAX_DIMMS) {
				snprintf(d->name, sizeof(d->name), "%.20s/%.20s", mcs[i]->d_name, ds[j]->d_name);
				snprintf(path, sizeof(path), "%s/%s/dimm_label", mcdir, ds[j]->d_name);
				read_line(path, d->label, sizeof(d->label));
				snprintf(path, sizeof(path), "%s/%s/dimm_location", mcdir, ds[j]->d_name);
				read_line(path, d->location, sizeof(d->location));
				c->n_dimms++;
			}
			free(ds[j]);
		}
		free(ds);
		free(mcs[i]);
	}
	free(mcs);
	return c->dimms ? 0 : -ENOMEM;
}

static void size_text(const struct smbios_memdev *d, char *buf, size_t size)
{
	if (!d->size_known)
		snprintf(buf, size, "unknown");
	else if (d->size_kib == 0)
		snprintf(buf, size, "empty");
	else if (d->size_kib % (1 << 20) == 0)
		snprintf(buf, size, "%" PRIu64 " GiB", d->size_kib >> 20);
	else if (d->size_kib % 1024 == 0)
		snprintf(buf, size, "%" PRIu64 " MiB", d->size_kib >> 10);
	else
		snprintf(buf, size, "%" PRIu64 " KiB", d->size_kib);
}

static void print_table(const struct slots_ctx *c)
{
	char size[32];

	printf("%-8s %-24s %-32s %-9s %s\n", "HANDLE", "SLOT (LOCATOR)", "BANK LOCATOR", "SIZE", "RANK");
	for (size_t i = 0; i < c->n_devs; i++) {
		const struct smbios_memdev *d = &c->devs[i];

		size_text(d, size, sizeof(size));
		printf("0x%04x   %-24s %-32s %-9s %s%.0u\n", d->handle, d->locator[0] ? d->locator : "-",
		       d->bank_locator[0] ? d->bank_locator : "-", size, d->rank ? "" : "-", d->rank);
	}
	if (c->n_devs == 0)
		printf("-- No SMBIOS memory devices --\n");
	printf("\n%-14s %-32s %-20s %-24s %s\n", "EDAC DIMM", "LABEL", "LOCATION", "SLOT", "FROM");
	for (size_t i = 0; i < c->n_dimms; i++) {
		const struct edac_dimm *e = &c->dimms[i];
		struct dimm_slot s = dimm_slot_find(&c->overrides, c->devs, c->n_devs, e->label);

		printf("%-14s %-32s %-20s %-24s %s\n", e->name, e->label[0] ? e->label : "-",
		       e->location[0] ? e->location : "-", s.slot ? s.slot : "-", dimm_slot_from_to_string(s.from));
	}
	if (c->n_dimms == 0)
		printf("-- No EDAC DIMMs (no EDAC driver loaded) --\n");
}

static void print_json(const struct slots_ctx *c)
{
	struct json_writer w;

	json_writer_init(&w);
	json_object_begin(&w, NULL);
	json_array_begin(&w, "smbios");
	for (size_t i = 0; i < c->n_devs; i++) {
		const struct smbios_memdev *d = &c->devs[i];

		json_object_begin(&w, NULL);
		json_put_hex(&w, "handle", d->handle);
		json_put_string(&w, "locator", d->locator);
		json_put_string(&w, "bank_locator", d->bank_locator);
		/* What names the module for life (the ledger's key, mcectl dimms): the firmware's own words. */
		if (d->serial[0])
			json_put_string(&w, "serial", d->serial);
		if (d->part_number[0])
			json_put_string(&w, "part_number", d->part_number);
		if (d->size_known)
			json_put_u64(&w, "size_kib", d->size_kib);
		if (d->rank)
			json_put_u64(&w, "rank", d->rank);
		json_object_end(&w);
	}
	json_array_end(&w);
	json_array_begin(&w, "edac");
	for (size_t i = 0; i < c->n_dimms; i++) {
		const struct edac_dimm *e = &c->dimms[i];
		struct dimm_slot s = dimm_slot_find(&c->overrides, c->devs, c->n_devs, e->label);

		json_object_begin(&w, NULL);
		json_put_string(&w, "dimm", e->name);
		json_put_string(&w, "label", e->label);
		json_put_string(&w, "location", e->location);
		if (s.slot)
			json_put_string(&w, "slot", s.slot);
		if (s.dev)
			json_put_string(&w, "bank_locator", s.dev->bank_locator);
		json_put_string(&w, "slot_from", dimm_slot_from_to_string(s.from));
		json_object_end(&w);
	}
	json_array_end(&w);
	json_object_end(&w);
	if (json_writer_failed(&w))
		fprintf(stderr, "mcectl slots: out of memory\n");
	else
		printf("%s\n", json_writer_str(&w));
	json_writer_done(&w);
}

enum { ARG_DMI_DIR = 0x100, ARG_EDAC_DIR, ARG_SLOTS_DIR };

int verb_slots(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "dmi-dir",   required_argument, NULL, ARG_DMI_DIR },
		{ "edac-dir",  required_argument, NULL, ARG_EDAC_DIR },
		{ "slots-dir", required_argument, NULL, ARG_SLOTS_DIR },
		{ "output",    required_argument, NULL, 'o' },
		{ "help",      no_argument,       NULL, 'h' },
		{}
	};
	const char *dmi = DMI_DIR_DEFAULT, *edac = EDAC_DIR_DEFAULT, *slots_dir = SLOTS_DIR_DEFAULT;
	struct slots_ctx c = {};
	bool json = false;
	int opt, r;

	while ((opt = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (opt) {
		case ARG_DMI_DIR:   dmi = optarg; break;
		case ARG_EDAC_DIR:  edac = optarg; break;
		case ARG_SLOTS_DIR: slots_dir = optarg; break;
		case 'o':
			if (streq(optarg, "json"))
				json = true;
			else if (!streq(optarg, "table")) {
				fprintf(stderr, "mcectl slots: --output '%s': expected table or json\n", optarg);
				return 2;
			}
			break;
		case 'h':
			help();
			return 0;
		default:
			return option_error("slots", opt, argv);
		}
	}
	if (no_arguments_left("slots", argc, argv))
		return 2;

	if (dimm_slots_read_dir(&c.overrides, slots_dir, on_problem, &c) < 0 ||
	    smbios_memdevs_read(dmi, &c.devs, &c.n_devs, on_problem, &c) < 0 || read_dimms(&c, edac) < 0) {
		fprintf(stderr, "mcectl slots: out of memory\n");
		r = 1;
	} else {
		if (json)
			print_json(&c);
		else
			print_table(&c);
		r = c.problems ? 1 : 0;
	}
	free(c.devs);
	free(c.dimms);
	dimm_slots_done(&c.overrides);
	return r;
}
