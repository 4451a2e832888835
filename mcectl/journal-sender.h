/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Who sent a collector's journal file.  systemd-journal-remote with
 * --split-mode=host writes each sender's entries to a file it names itself,
 * from the connection, not from anything the sender writes: over HTTPS with
 * --trust=, the distinguished name of the client certificate it verified;
 * otherwise the peer's address.  The entries' own fields, _HOSTNAME, _COMM
 * and _UID included, are whatever the sender's stream said.
 *
 * Pure: it reads the file's name only.
 */

#include <stdbool.h>
#include <stddef.h>

/*
 * The sender named by a file's name ("remote-SENDER.journal", rotated
 * "remote-SENDER@....journal" or a damaged "...journal~"; a directory in the
 * path is ignored), with journal-remote's \xNN escapes undone and, for a
 * certificate's distinguished name, its CN.  False when the name is not one
 * journal-remote gives a sender's file (then nothing vouches for the host).
 */
bool journal_sender_of_file(const char *path, char *buf, size_t size);
