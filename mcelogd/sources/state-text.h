/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * The small "key=value" files the one-shot sources keep in the state
 * directory (bert-logged, erst-logged): their lines, for each source's own
 * parser.  Pure.
 */

#include <stddef.h>

/* Longer lines are none of ours. */
#define STATE_TEXT_LINE_MAX 128

/*
 * Hands each line that is neither blank nor a '#' comment to fn, as a
 * NUL-terminated copy it may change.  Returns 0, -EINVAL for a line longer
 * than STATE_TEXT_LINE_MAX - 1, or fn's negative return, which stops the walk.
 */
int state_text_lines(const char *text, size_t len, int (*fn)(char *line, void *userdata), void *userdata);
