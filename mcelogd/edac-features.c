/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edac-features.h"
#include "file-io.h"
#include "json-writer.h"
#include "macro.h"
#include "parse-number.h"

#define EDAC_DEVICES "/sys/bus/edac/devices"
#define ATTR_FILE_MAX 4096

/*
 * Per kind: the directory prefix and the attributes that say what the device
 * offers and how it is set.  From the kernel's ABI documents (header).
 */
static const struct {
	const char *prefix;
	const char *attrs[EDAC_FEATURE_ATTRS_MAX];
} kinds[_EDAC_FEATURE_KIND_MAX] = {
	/* sysfs-edac-scrub: background (patrol) scrubbing and its cycle, in seconds. */
	[EDAC_FEATURE_SCRUB] = { "scrub", { "enable_background", "current_cycle_duration",
					    "min_cycle_duration", "max_cycle_duration" } },
	/* sysfs-edac-ecs: how DDR5 ECS counts and logs, and its threshold per Gbit. */
	[EDAC_FEATURE_ECS] = { "ecs_fru", { "mode", "log_entry_type", "threshold" } },
	/* sysfs-edac-memory-repair: which repair, soft or hard, and whether it is safe at runtime. */
	[EDAC_FEATURE_MEM_REPAIR] = { "mem_repair", { "repair_type", "persist_mode",
						      "repair_safe_when_in_use" } },
};

const char *edac_feature_kind_to_string(enum edac_feature_kind k)
{
	return (unsigned) k < _EDAC_FEATURE_KIND_MAX ? kinds[k].prefix : NULL;
}

int edac_feature_parse_dir(const char *name, enum edac_feature_kind *ret_kind, unsigned *ret_instance)
{
	for (unsigned k = 0; k < _EDAC_FEATURE_KIND_MAX; k++) {
		size_t n = strlen(kinds[k].prefix), digits;
		uint64_t v;

		if (strncmp(name, kinds[k].prefix, n) != 0)
			continue;
		digits = strspn(name + n, "0123456789");
		/* "scrub" alone, "scrub0x", and the "ecs_fru" that "scrub"'s prefix cannot reach */
		if (digits == 0 || name[n + digits] != '\0' ||
		    parse_unsigned(name + n, digits, 10, 255, &v) < 0)
			return -EINVAL;
		*ret_kind = (enum edac_feature_kind) k;
		*ret_instance = (unsigned) v;
		return 0;
	}
	return -EINVAL;
}

int edac_feature_parse_value(const char *text, size_t len, char *buf, size_t size)
{
	size_t n = 0;

	while (n < len && text[n] != '\n')
		n++;
	if (n == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char) text[i] <= ' ' || (unsigned char) text[i] >= 0x7f)
			return -EINVAL;
	if (n >= size)
		return -E2BIG;
	memcpy(buf, text, n);
	buf[n] = '\0';
	return 0;
}

static void read_attrs(const char *dir, struct edac_feature *f)
{
	const char *const *attrs = kinds[f->kind].attrs;

	for (unsigned i = 0; i < EDAC_FEATURE_ATTRS_MAX && attrs[i]; i++) {
		_cleanup_free_ char *text = NULL;
		char path[4096];
		size_t len = 0;

		if (snprintf(path, sizeof(path), "%s/%s", dir, attrs[i]) >= (int) sizeof(path))
			continue;
		/* Absent: the driver does not implement it.  Unreadable or odd: left out, not guessed. */
		if (read_full_file(path, ATTR_FILE_MAX, &text, &len) < 0 ||
		    edac_feature_parse_value(text, len, f->attrs[f->n_attrs].value,
					     sizeof(f->attrs[0].value)) < 0)
			continue;
		f->attrs[f->n_attrs++].name = attrs[i];
	}
}

static size_t read_device(const char *devices_dir, const char *device, struct edac_feature *ret, size_t max)
{
	char dir[4096];
	_cleanup_closedir_ DIR *d = NULL;
	struct dirent *de;
	size_t n = 0;

	if (strlen(device) >= sizeof(ret->device))
		return 0;
	if (snprintf(dir, sizeof(dir), "%s/%s", devices_dir, device) >= (int) sizeof(dir))
		return 0;
	d = opendir(dir);
	while (d && n < max && (de = readdir(d))) {
		struct edac_feature *f = &ret[n];
		char sub[4096];

		*f = (struct edac_feature) { 0 };
		if (edac_feature_parse_dir(de->d_name, &f->kind, &f->instance) < 0)
			continue;
		snprintf(f->device, sizeof(f->device), "%s", device);
		if (snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name) >= (int) sizeof(sub))
			continue;
		read_attrs(sub, f);
		n++;
	}
	return n;
}

static int compare_features(const void *a, const void *b)
{
	const struct edac_feature *x = a, *y = b;
	int c = strcmp(x->device, y->device);

	if (c != 0)
		return c;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x->instance < y->instance ? -1 : x->instance > y->instance;
}

size_t edac_features_read(const char *devices_dir, struct edac_feature *ret, size_t max)
{
	_cleanup_closedir_ DIR *d = NULL;
	struct dirent *de;
	size_t n = 0;

	devices_dir = devices_dir ? devices_dir : EDAC_DEVICES;
	d = opendir(devices_dir);
	while (d && n < max && (de = readdir(d)))
		if (de->d_name[0] != '.')
			n += read_device(devices_dir, de->d_name, ret + n, max - n);
	qsort(ret, n, sizeof(*ret), compare_features);
	return n;
}

void edac_features_write_json(const struct edac_feature *f, size_t n, struct json_writer *w)
{
	json_array_begin(w, "edac_features");
	for (size_t i = 0; i < n; i++) {
		json_object_begin(w, NULL);
		json_put_string(w, "device", f[i].device);
		json_put_string(w, "feature", edac_feature_kind_to_string(f[i].kind));
		json_put_u64(w, "instance", f[i].instance);
		for (unsigned a = 0; a < f[i].n_attrs; a++)
			json_put_string(w, f[i].attrs[a].name, f[i].attrs[a].value);
		json_object_end(w);
	}
	json_array_end(w);
}
