/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Intel PT streams with known contents, built with libipt's own encoder
 * (pt_enc_next), for the tests of `mcectl pt` (tests/unit/test-pt-decode.c,
 * tests/pt-cli.sh through tests/pt/pt-gen).  What each contains is listed
 * in pt-stream.c next to the packets, and the tests assert exactly that.
 */

#include <stddef.h>
#include <stdint.h>

/* The reference stream: returns its length, or a negative libipt error. */
int pt_stream_reference(uint8_t *buf, size_t cap);
/* A PSB, PSBEND, then two bytes that are no packet (an undefined extended opcode). */
int pt_stream_bad_opcode(uint8_t *buf, size_t cap);
