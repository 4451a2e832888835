/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * What memory a known-bad page was on, kept with the page in the state
 * (rule-state.h) so that a start on other memory does not offline it: a
 * replaced DIMM, a cloned disk image, a changed interleave or a re-created
 * CXL region all put other memory behind the same page frame.  Pure.
 *
 * The identity is a short text of key=value items separated by ';':
 *   cxl_serial=0x...;dpa=0x...[;region=regionN]
 *                                  a CXL memdev's serial, the device address and the
 *                                  region that mapped it
 *   slot=...;serial=...            the board slot (SMBIOS locator or override)
 *                                  and the module's SMBIOS serial, when known
 *   mc=N;channel=N;dimm=N          the memory controller's own coordinates
 * Values never hold ';' or '=' (replaced by '_').  Empty when the record
 * names none of these: the page is then bound to the machine only.
 */

#include <stdbool.h>
#include <stddef.h>

struct rule_input;

/* The identity of in's memory into buf (always NUL-terminated).  dimm_serial: the slot's module serial or NULL. */
void page_identity_of_record(const struct rule_input *in, const char *dimm_serial, char *buf, size_t size);

/* Copies the value of key in identity into buf; false when identity has no such item. */
bool page_identity_get(const char *identity, const char *key, char *buf, size_t size);
