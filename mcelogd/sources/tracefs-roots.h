/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Where tracefs may be mounted, in the order to try: its own mount point
 * (kernels since 4.1), then under debugfs (older kernels, and systems that
 * mount only debugfs).  The tracepoint readers and the trace instance both
 * look here.
 */
#define TRACEFS_N_ROOTS 2

extern const char *const tracefs_roots[TRACEFS_N_ROOTS];

/* The root whose instances/ exists (the first of tracefs_roots when none
 * does); tracefs_root, when given, wins. */
const char *tracefs_instances_root(const char *tracefs_root);
