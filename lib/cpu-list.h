/* SPDX-License-Identifier: MIT */
#pragma once

/* CPU list syntax as sysfs prints it ("0-3,8,10-11").  Pure. */

#include <stdbool.h>
#include <stddef.h>

#define CPU_LIST_MAX 8192

/* Sets set[i] for every listed CPU below max.  Returns the count or -EINVAL. */
int cpu_list_parse(const char *s, bool *set, size_t max);
