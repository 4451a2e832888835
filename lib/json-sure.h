/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Whether a text is, for sure, a JSON object that json-c's tokener parses
 * (json_tokener_parse_ex() with a default tokener: success, an object),
 * without building it: mcectl query --output json prints MCE_JSON verbatim
 * once it knows that, and building the object only to throw it away was most
 * of its time.
 *
 * Strict RFC 8259 and a little less: a text this is not sure of (a byte
 * under 0x20 in a string, a \u escape, a long number, deep nesting, anything
 * after the object but white space) may still parse, and the caller asks
 * json-c then.  Pure.
 */

#include <stdbool.h>
#include <stddef.h>

bool json_object_text_sure(const char *text, size_t len);
