/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Which 4 KiB page a machine check's address names, if any: the rules of
 * Linux's mce_usable_address() (arch/x86/kernel/cpu/mce/, per vendor), so
 * that mcelogd never offlines a page the kernel itself would not trust.
 * Without a page the decoded view says why (enum page_absence), so an
 * operator who sees no page action can tell a missing address from one that
 * is not a system physical address.  Pure.
 */

#include "decode.h"

void mce_page_decode(const struct mce_record *rec, struct mce_decoded *d);
