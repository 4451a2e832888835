/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * systemd's journal export format, which is also the framing of its native
 * protocol (systemd.io, JOURNAL_EXPORT_FORMAT and JOURNAL_NATIVE_PROTOCOL):
 * "NAME=value\n" for a text field, "NAME\n" + 64-bit little-endian length +
 * bytes + "\n" for a value holding a newline, and an empty line after each
 * entry.  Pure.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

/* Gets one entry's fields ("NAME=value" each); a negative return stops the decoder. */
typedef int (*journal_export_fn)(const struct iovec *iov, unsigned n, void *userdata);

#define JOURNAL_EXPORT_MAX_FIELDS 64

/* The bytes of one entry into buf (at most size are written); returns the length it needs. */
size_t journal_export_encode(const struct iovec *iov, unsigned n, uint8_t *buf, size_t size);

/*
 * Splits data into entries and hands each to send, its fields pointing into
 * data (or into a copy, for binary-framed ones).  *consumed: the bytes of the
 * whole entries taken before send refused, or before a malformed or cut-short
 * entry.  Returns 0 or more when all of data was read or send refused,
 * -EBADMSG for a malformed or cut-short entry, -ENOMEM.
 */
int journal_export_decode(const uint8_t *data, size_t len, journal_export_fn send, void *userdata,
			  size_t *consumed);
