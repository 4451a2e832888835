/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dimm-slot-files.h"
#include "dropin.h"
#include "macro.h"
#include "read-file.h"

#define SMBIOS_RAW_MAX 4096      /* one structure: 255 formatted bytes and its strings */

static void tell(dimm_slots_problem_fn problem, void *userdata, const char *path, const char *what)
{
	if (problem)
		problem(path, 0, what, userdata);
}

static int is_memdev_entry(const struct dirent *e)
{
	return strncmp(e->d_name, "17-", 3) == 0;
}

/* "17-2" before "17-10": the firmware's order of its structures. */
static int by_instance(const struct dirent **a, const struct dirent **b)
{
	unsigned long x = strtoul((*a)->d_name + 3, NULL, 10), y = strtoul((*b)->d_name + 3, NULL, 10);

	return x < y ? -1 : x > y;
}

int smbios_memdevs_read(const char *dir, struct smbios_memdev **ret, size_t *ret_n,
			dimm_slots_problem_fn problem, void *userdata)
{
	struct dirent **names = NULL;
	struct smbios_memdev *devs;
	size_t n_devs = 0;
	int n = scandir(dir, &names, is_memdev_entry, by_instance);

	*ret = NULL;
	*ret_n = 0;
	if (n < 0) {
		if (errno != ENOENT)
			tell(problem, userdata, dir, strerror(errno));
		return errno == ENOMEM ? -ENOMEM : 0;
	}
	devs = calloc(n > 0 ? (size_t) n : 1, sizeof(*devs));
	for (int i = 0; i < n; i++) {
		char path[4096];
		_cleanup_free_ char *raw = NULL;
		size_t len = 0;
		int r;

		snprintf(path, sizeof(path), "%s/%s/raw", dir, names[i]->d_name);
		free(names[i]);
		if (!devs || n_devs >= SMBIOS_MEMDEVS_MAX)
			continue;
		r = read_whole_file(path, SMBIOS_RAW_MAX, &raw, &len);
		if (r < 0) {
			tell(problem, userdata, path, strerror(-r));
			continue;
		}
		r = smbios_memdev_parse((const uint8_t *) raw, len, &devs[n_devs]);
		if (devs[n_devs].n_problems)
			tell(problem, userdata, path, devs[n_devs].problem);
		if (r == 0)
			n_devs++;
	}
	free(names);
	if (!devs)
		return -ENOMEM;
	if ((size_t) n > SMBIOS_MEMDEVS_MAX) {
		char what[96];

		snprintf(what, sizeof(what), "%d memory devices, only the first %d read", n, SMBIOS_MEMDEVS_MAX);
		tell(problem, userdata, dir, what);
	}
	*ret = devs;
	*ret_n = n_devs;
	return 0;
}

struct read_dir {
	struct dimm_slots *slots;
	dimm_slots_problem_fn problem;
	void *userdata;
};

static int on_file(const char *path, const char *text, size_t len, int error, void *userdata)
{
	struct read_dir *d = userdata;

	if (error < 0) {
		tell(d->problem, d->userdata, path, strerror(-error));
		return 0;
	}
	return dimm_slots_parse(d->slots, path, text, len, d->problem, d->userdata);
}

int dimm_slots_read_dir(struct dimm_slots *s, const char *dir, dimm_slots_problem_fn problem, void *userdata)
{
	struct read_dir d = { .slots = s, .problem = problem, .userdata = userdata };
	int r = dropin_walk(&dir, 1, DIMM_SLOTS_SUFFIX, on_file, &d);

	if (r < 0 && r != -ENOMEM) {
		tell(problem, userdata, dir, strerror(-r));
		return 0;
	}
	return r;
}
