/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cpuinfo.h"
#include "file-io.h"
#include "intel-pt-pmu.h"
#include "macro.h"
#include "pt-sysfs.h"

/* Each file of dir/sub through add(); a file that fails is skipped. */
static void read_dir(const char *dir, const char *sub, struct intel_pt_pmu *p,
		     int (*add)(struct intel_pt_pmu *, const char *, const char *))
{
	char path[512];
	_cleanup_closedir_ DIR *d = NULL;
	struct dirent *e;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		_cleanup_free_ char *text = NULL;
		size_t len;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, e->d_name);
		if (read_full_file(path, 4096, &text, &len) < 0)
			continue;
		(void) add(p, e->d_name, text);
	}
}

int intel_pt_sysfs_read(const char *dir, struct intel_pt_pmu *p, char *caps_text, size_t caps_size)
{
	_cleanup_free_ char *type = NULL;
	char path[512];
	size_t len, at = 0;
	int r;

	*p = (struct intel_pt_pmu) {};
	if (caps_size)
		caps_text[0] = '\0';
	snprintf(path, sizeof(path), "%s/type", dir);
	r = read_full_file(path, 64, &type, &len);
	if (r < 0)
		return r;
	r = intel_pt_pmu_set_type(p, type);
	if (r < 0)
		return r;
	read_dir(dir, "caps", p, intel_pt_pmu_add_cap);
	read_dir(dir, "format", p, intel_pt_pmu_add_format);
	for (size_t i = 0; i < p->n_caps && caps_size; i++) {
		int n = snprintf(caps_text + at, caps_size - at, "%s %" PRIx64 "\n", p->caps[i].name,
				 p->caps[i].value);

		if (n < 0 || (size_t) n >= caps_size - at) {
			caps_text[at] = '\0';
			break;
		}
		at += (size_t) n;
	}
	return 0;
}

const char *intel_pt_cpuinfo_unavailable(const char *cpuinfo_text)
{
	struct cpuinfo c;

	if (cpuinfo_parse(cpuinfo_text, &c, NULL, 0) < 0)
		return "not an x86 CPU: Intel PT is an Intel x86 feature";
	if (c.vendor == MCE_VENDOR_AMD || c.vendor == MCE_VENDOR_HYGON)
		return "AMD CPU: no Intel PT";
	if (c.vendor != MCE_VENDOR_INTEL)
		return "not an Intel CPU: no Intel PT";
	if (c.intel_pt)
		return NULL;
	return c.hypervisor ? "virtual machine: its CPU model does not offer Intel PT (no intel_pt flag)"
			    : "this Intel CPU has no Intel PT (no intel_pt flag)";
}

const char *intel_pt_unavailable(void)
{
	_cleanup_free_ char *text = NULL;
	size_t len;

	if (read_full_file("/proc/cpuinfo", 64u << 20, &text, &len) < 0)
		return "cannot read /proc/cpuinfo to tell whether the CPUs have Intel PT";
	return intel_pt_cpuinfo_unavailable(text);
}
