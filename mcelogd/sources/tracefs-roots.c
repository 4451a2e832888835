/* SPDX-License-Identifier: MIT */
#include "tracefs-roots.h"

const char *const tracefs_roots[TRACEFS_N_ROOTS] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
