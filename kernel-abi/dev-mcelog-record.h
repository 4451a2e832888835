/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The records of the legacy /dev/mcelog device: the kernel's struct mce
 * (arch/x86/include/uapi/asm/mce.h).  Its length changed across kernel
 * versions (fields are only ever appended), and the device reports the length
 * it uses (MCE_GET_RECORD_LEN), so a record is read up to that length and a
 * field the length does not cover stays unknown.  Pure.
 */

#include <stddef.h>

#include "record.h"

/* The shortest record we accept: up to and including extcpu (kernel 2.6.31 and later). */
#define DEV_MCELOG_RECORD_MIN 72
/* What we know of; longer records are read up to here. */
#define DEV_MCELOG_RECORD_KNOWN 128

/*
 * Converts one record of record_len bytes.  Returns 0, or -EINVAL when
 * record_len is shorter than DEV_MCELOG_RECORD_MIN.  The record gets source
 * MCE_SOURCE_DEV_MCELOG.
 */
int dev_mcelog_record_parse(const void *p, size_t record_len, struct mce_record *ret);
