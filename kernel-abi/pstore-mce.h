/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The machine checks a panicking kernel saved in ACPI ERST, as pstore shows
 * them in the next boot.  Pure: the daemon reads the directory and the files.
 *
 * On a fatal machine check, mce_panic() calls apei_write_mce()
 * (arch/x86/kernel/cpu/mce/apei.c), which writes to ERST one packed
 * struct cper_mce_record per bank record:
 *
 *   offset   0  CPER record header (128 bytes; creator 75a574e3-5052-4b29-
 *               8a8e-be2c6490b89d, severity fatal, no valid timestamp)
 *   offset 128  one section descriptor (72 bytes; section type
 *               fe08ffbe-95e4-4be7-bc73-4096044a38fc)
 *   offset 200  the kernel's struct mce (arch/x86/include/uapi/asm/mce.h)
 *
 * pstore's ERST backend (erst_reader(), drivers/acpi/apei/erst.c) accepts
 * records of that creator, gives those of that section type
 * PSTORE_TYPE_MCE, and hands pstore only what follows the two headers; pstore
 * (fs/pstore/inode.c, pstore_mkfile()) makes it the file
 * "mce-<backend>-<record id>", here "mce-erst-<id>".  So the file holds the
 * struct mce alone, of the length the kernel that panicked had: fields were
 * only ever appended, as in /dev/mcelog's records (dev-mcelog-record.h).
 * Removing the file clears the record from ERST (pstore_unlink() ->
 * erst_clearer()).
 */

#include <stddef.h>
#include <stdint.h>

#include "record.h"

/* "mce-" BACKEND "-" ID */
#define PSTORE_MCE_PREFIX "mce-"
#define PSTORE_BACKEND_MAX 32
/* No struct mce comes near it: a longer file is not one. */
#define PSTORE_MCE_MAX 4096

struct pstore_mce_name {
	char backend[PSTORE_BACKEND_MAX];  /* "erst" */
	uint64_t id;                       /* the ERST record id */
};

/* A pstore file name of a machine check ("mce-erst-7312..."): 0, or -EINVAL for any other file. */
int pstore_mce_name_parse(const char *name, struct pstore_mce_name *ret);

/*
 * One file's LEN bytes as a record with source SOURCE.  Returns 0, or
 * -EBADMSG when the length cannot be a struct mce (shorter than its oldest
 * layout, not a whole number of its 8-byte units, or longer than
 * PSTORE_MCE_MAX); *ret_why then says why, for the log.
 */
int pstore_mce_parse(const void *buf, size_t len, enum mce_source source, struct mce_record *ret,
		     const char **ret_why);
