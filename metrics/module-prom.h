/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The module ledger (rules/module-ledger.h) as Prometheus series, labelled
 * kind ("dimm", "cxl"), slot and serial (mcelogd(8), METRICS):
 *
 *   mcelogd_module_errors_total{...,severity="corrected"|"uncorrected"}
 *   mcelogd_module_pages_retired{...}
 *   mcelogd_module_repairs_total{...,outcome="done"|"refused"|"failed"}
 *   mcelogd_module_verdict{...,verdict,reason} 1
 *
 * The counts are the ledger's lifetime counts, kept in modules.state: they
 * do not start again from zero when the daemon restarts or the machine
 * reboots, so rate() and increase() read them across both.  Exactly one
 * verdict series per module, its current verdict.  A module's repairs
 * appear once it has had one.  Rendered from the ledger at each writing,
 * never counted per record.  Bounded: a module is shown whole or not at all,
 * worst verdict first, within the series the caller has left; the others
 * are counted as dropped.  Pure.
 */

#include <stddef.h>
#include <stdint.h>

struct module_ledger;

/* *ret malloc'ed; returns its length or -ENOMEM.  *ret_dropped: series left out for the bound. */
int module_prom_format(const struct module_ledger *l, size_t max_series, char **ret, uint64_t *ret_dropped);
