/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Where in host memory an alert's record points, in words for the alert's
 * message: a CXL record whose HPA the kernel knows names its device and the
 * host address, and a poison record the whole poisoned range.  Pure.
 */

#include <stddef.h>

struct rule_input;

/*
 * Writes "; ... at HPA 0x1000-0x10ff" (or nothing) into buf, always
 * NUL-terminated; returns the length written, 0 when the record names no
 * host address range.
 */
size_t alert_where(const struct rule_input *in, char *buf, size_t size);
