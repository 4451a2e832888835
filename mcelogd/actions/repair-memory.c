/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "actions.h"
#include "edac-features.h"
#include "file-io.h"
#include "json-writer.h"
#include "macro.h"
#include "parse-number.h"

#define EDAC_DEVICES "/sys/bus/edac/devices"
#define ATTR_FILE_MAX 4096

/* One attribute's first line (edac_feature_parse_value); 0 or negative errno. */
static int read_attr(const char *dir, const char *name, char *buf, size_t size)
{
	_cleanup_free_ char *text = NULL;
	char path[4096];
	size_t len = 0;
	int r;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int) sizeof(path))
		return -ENAMETOOLONG;
	r = read_full_file(path, ATTR_FILE_MAX, &text, &len);
	if (r < 0)
		return r;
	return edac_feature_parse_value(text, len, buf, size);
}

static int read_number(const char *dir, const char *name, uint64_t *ret)
{
	char v[32];
	int r = read_attr(dir, name, v, sizeof(v));

	return r < 0 ? r : parse_unsigned(v, strlen(v), 0, UINT64_MAX, ret);
}

static int read_flag(const char *dir, const char *name)
{
	uint64_t v;

	return read_number(dir, name, &v) < 0 || v > 1 ? -1 : (int) v;
}

/* The control files exist only for what the driver implements (sysfs-edac-memory-repair). */
static bool attr_exists(const char *dir, const char *name)
{
	char path[4096];

	return snprintf(path, sizeof(path), "%s/%s", dir, name) < (int) sizeof(path) && access(path, F_OK) == 0;
}

static void read_offer(const char *dir, struct mem_repair_offer *o)
{
	uint64_t min, max;

	if (read_attr(dir, "repair_type", o->type_text, sizeof(o->type_text)) < 0)
		o->type_text[0] = '\0';
	o->type = mem_repair_type_from_string(o->type_text);
	o->persist_mode = read_flag(dir, "persist_mode");
	o->safe_when_in_use = read_flag(dir, "repair_safe_when_in_use");
	for (unsigned a = 0; a < _MEM_REPAIR_ATTR_MAX; a++)
		o->have_attr[a] = attr_exists(dir, mem_repair_attr_to_string(a));
	if (read_number(dir, "min_dpa", &min) >= 0 && read_number(dir, "max_dpa", &max) >= 0) {
		o->have_dpa_range = true;
		o->min_dpa = min;
		o->max_dpa = max;
	}
}

static int compare_instances(const void *a, const void *b)
{
	const struct mem_repair_offer *x = a, *y = b;

	return x->instance < y->instance ? -1 : x->instance > y->instance;
}

size_t mem_repair_offers_read(const char *devices_dir, const char *device, struct mem_repair_offer *ret,
			      size_t max)
{
	_cleanup_closedir_ DIR *d = NULL;
	struct dirent *de;
	char dir[4096];
	size_t n = 0;

	if (snprintf(dir, sizeof(dir), "%s/%s", devices_dir ? devices_dir : EDAC_DEVICES, device) >=
	    (int) sizeof(dir))
		return 0;
	d = opendir(dir);
	while (d && n < max && (de = readdir(d))) {
		enum edac_feature_kind kind;
		unsigned instance;
		char sub[4096 + 256];

		if (edac_feature_parse_dir(de->d_name, &kind, &instance) < 0 || kind != EDAC_FEATURE_MEM_REPAIR)
			continue;
		ret[n] = (struct mem_repair_offer) { .instance = instance };
		snprintf(ret[n].device, sizeof(ret[n].device), "%s", device);
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		read_offer(sub, &ret[n]);
		n++;
	}
	qsort(ret, n, sizeof(*ret), compare_instances);
	return n;
}

/* One write, whole: the kernel takes a sysfs store in one write(2) and answers with its errno. */
static int write_attr(const char *dir, const struct mem_repair_write *w)
{
	char path[4096], line[sizeof(w->value) + 1];
	_cleanup_close_ int fd = -1;
	ssize_t n;
	int len;

	if (snprintf(path, sizeof(path), "%s/%s", dir, w->attr) >= (int) sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return negative_errno();
	len = snprintf(line, sizeof(line), "%s\n", w->value);
	n = write(fd, line, (size_t) len);
	if (n < 0)
		return negative_errno();
	return n == len ? 0 : -EIO;
}

/* Whether attribute text reads as the value written: as numbers where both are ("0x21", "33"). */
static bool same_value(const char *written, const char *read)
{
	uint64_t a, b;

	if (parse_unsigned(written, strlen(written), 0, UINT64_MAX, &a) >= 0 &&
	    parse_unsigned(read, strlen(read), 0, UINT64_MAX, &b) >= 0)
		return a == b;
	return streq(written, read);
}

/* Whether a later write (before the last) sets the same attribute: that one is what it must hold. */
static bool written_again(const struct mem_repair_plan *p, unsigned i, unsigned last)
{
	for (unsigned k = i + 1; k < last; k++)
		if (streq(p->writes[k].attr, p->writes[i].attr))
			return true;
	return false;
}

int mem_repair_execute(const char *devices_dir, const struct mem_repair_plan *p, struct mem_repair_result *ret)
{
	char dir[4096];
	unsigned last;

	*ret = (struct mem_repair_result) { 0 };
	if (!p->offer || p->n_writes == 0)
		return -EINVAL;
	if (snprintf(dir, sizeof(dir), "%s/%s/mem_repair%u", devices_dir ? devices_dir : EDAC_DEVICES,
		     p->offer->device, p->offer->instance) >= (int) sizeof(dir))
		return -ENAMETOOLONG;
	last = p->n_writes - 1;
	/* In order, the trigger last: a value the driver refuses leaves the repair unasked. */
	for (unsigned i = 0; i < last; i++) {
		int r = write_attr(dir, &p->writes[i]);

		if (r < 0) {
			ret->failed = i;
			return r;
		}
	}
	/* What the repair will act on, as the kernel holds it now (review M4: no lock on these files). */
	for (unsigned i = 0; i < last; i++) {
		if (written_again(p, i, last))
			continue;
		if (read_attr(dir, p->writes[i].attr, ret->read_back, sizeof(ret->read_back)) < 0)
			snprintf(ret->read_back, sizeof(ret->read_back), "(unreadable)");
		else if (same_value(p->writes[i].value, ret->read_back))
			continue;
		ret->failed = i;
		return -ESTALE;
	}
	ret->read_back[0] = '\0';
	ret->failed = last;
	return write_attr(dir, &p->writes[last]);
}

void mem_repair_write_json(const struct mem_repair_report *rep, struct json_writer *w)
{
	const struct mem_repair_plan *p = rep->plan;

	json_object_begin(w, "repair");
	json_put_string(w, "outcome", mem_repair_outcome_to_string(rep->outcome));
	if (rep->memdev[0])
		json_put_string(w, "memdev", rep->memdev);
	if (p->offer) {
		json_put_string(w, "device", p->offer->device);
		json_put_u64(w, "instance", p->offer->instance);
		json_put_string(w, "type", p->offer->type_text);
		if (p->offer->persist_mode >= 0)
			json_put_string(w, "persist_mode", p->offer->persist_mode ? "hard" : "soft");
	}
	if (p->location[0])
		json_put_string(w, "location", p->location);
	if (p->unit[0])
		json_put_string(w, "unit", p->unit);
	if (p->refusal != MEM_REPAIR_GO) {
		json_put_string(w, "refused", mem_repair_refusal_to_string(p->refusal));
		json_put_string(w, "reason", p->why);
	}
	if (p->n_writes > 0) {
		json_array_begin(w, "writes");
		for (unsigned i = 0; i < p->n_writes; i++) {
			json_object_begin(w, NULL);
			json_put_string(w, "attribute", p->writes[i].attr);
			json_put_string(w, "value", p->writes[i].value);
			json_object_end(w);
		}
		json_array_end(w);
	}
	if (rep->outcome == MEM_REPAIR_FAILED) {
		json_put_string(w, "failed_attribute", rep->failed_attr ? rep->failed_attr : "");
		json_put_string(w, "error", strerror(-rep->error));
		json_put_i64(w, "errno", -rep->error);
		json_put_bool(w, "counted", rep->counted);
	}
	if (rep->dpa_flags && rep->dpa_flags[0])
		json_put_string(w, "dpa_flags", rep->dpa_flags);
	json_object_end(w);
}
