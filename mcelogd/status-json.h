/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The daemon's state as one JSON document: what `mcectl status` shows.
 * Documented in mcectl(1), STATUS FORMAT.  No I/O: it only reads the manager.
 */

struct manager;

/* Rendered into the manager's status buffer; valid until the next call.  NULL: out of memory. */
const char *status_json_render(struct manager *m);
