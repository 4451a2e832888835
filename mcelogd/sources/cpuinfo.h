/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * /proc/cpuinfo (x86): the CPU identity a record carries (vendor, family,
 * model, stepping, microcode), the flags the MSR poller needs, and each
 * processor's APIC id and package.  Pure.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"

struct cpuinfo {
	enum mce_vendor vendor;
	uint32_t family;
	uint32_t model;
	uint32_t stepping;
	uint32_t microcode;
	bool have_cpuid;       /* family, model and stepping were all found */
	bool have_microcode;
	bool smca;             /* flag "smca" */
	bool hypervisor;       /* flag "hypervisor" */
	bool intel_pt;         /* flag "intel_pt": CPUID.(EAX=7,ECX=0):EBX[25] */
};

struct cpuinfo_cpu {
	bool known;            /* a "processor : N" block was seen */
	bool have_apicid;
	bool have_package;
	uint32_t apicid;
	uint32_t package;      /* "physical id" */
};

/*
 * Identity from the first processor block (the poller assumes a
 * homogeneous machine, as the kernel's MCA code does); per-CPU fields into
 * cpus[N] for every "processor : N" below max.  Returns 0, or -EINVAL when
 * no processor block with a vendor was found.
 */
int cpuinfo_parse(const char *text, struct cpuinfo *ret, struct cpuinfo_cpu *cpus, size_t max);
