/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * "Log the boot error region once": what the daemon remembers in its state
 * directory after logging a region (the boot it was logged in, and the
 * region's digest and length), and the decision taken at the next start.
 * Pure: the caller reads and writes the file.
 */

#include <stddef.h>
#include <stdint.h>

#define BERT_STATE_FILE "bert-logged"

enum bert_decision {
	BERT_LOG,               /* not logged before */
	BERT_SKIP_SAME_BOOT,    /* a restart in the boot that logged it */
	BERT_SKIP_SAME_REGION,  /* a later boot, but firmware still holds the region already logged */
};

struct bert_state {
	char boot_id[33];
	uint64_t digest;
	uint64_t length;
};

/* Parses the state file's text; -EINVAL when it is not one we wrote (then the region is logged). */
int bert_state_parse(const char *text, size_t len, struct bert_state *ret);
/* The file's text for a state; returns the length written (as snprintf). */
int bert_state_format(const struct bert_state *s, char *buf, size_t size);

enum bert_decision bert_state_decide(const struct bert_state *logged, const char *boot_id,
				     uint64_t digest, uint64_t length);
