/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The Intel Processor Trace (RTIT) registers of one CPU, decoded: which
 * packets are enabled, the OS/User, CR3 and address-range filters, ToPA or
 * single-range output, and the status bits.  Pure: the daemon reads the MSRs
 * (mcelogd/snapshot/rtit.c) and hands the values here.
 *
 * Source: Intel SDM Vol. 3C, chapter "Intel Processor Trace", section
 * "Trace Configuration / Programming Considerations": the MSR tables
 * "IA32_RTIT_CTL MSR", "IA32_RTIT_STATUS MSR", "IA32_RTIT_OUTPUT_BASE",
 * "IA32_RTIT_OUTPUT_MASK_PTRS", "IA32_RTIT_CR3_MATCH" and "IA32_RTIT_ADDRn_A/B";
 * the MSR addresses from SDM Vol. 4, "Model-Specific Registers", table of
 * architectural MSRs.
 */

#include <stdbool.h>
#include <stdint.h>

struct json_writer;

enum rtit_msr {
	RTIT_OUTPUT_BASE,
	RTIT_OUTPUT_MASK_PTRS,
	RTIT_CTL,
	RTIT_STATUS,
	RTIT_CR3_MATCH,
	RTIT_ADDR0_A, RTIT_ADDR0_B,
	RTIT_ADDR1_A, RTIT_ADDR1_B,
	RTIT_ADDR2_A, RTIT_ADDR2_B,
	RTIT_ADDR3_A, RTIT_ADDR3_B,
	_RTIT_MSR_MAX,
};

#define RTIT_ADDR_RANGES_MAX 4

struct rtit_msr_info {
	uint32_t address;
	const char *name;
};
extern const struct rtit_msr_info rtit_msrs[_RTIT_MSR_MAX];

struct rtit_regs {
	uint64_t v[_RTIT_MSR_MAX];
	uint32_t have;              /* 1u << enum rtit_msr for each register read */
	unsigned n_addr_ranges;     /* from the PT caps (num_address_ranges); 0..4 */
};

/* Writes the decode as keys of the current JSON object.  A register not in
 * `have` is left out, and the parts that depend on it say "not read". */
void rtit_decode_json(const struct rtit_regs *r, struct json_writer *w);
