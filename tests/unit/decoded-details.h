/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * A decoded record's details (struct mce_decoded's name/value/text list),
 * looked up by name, for the model decoders' tests.  Include after
 * <cmocka.h> and "decode.h".
 */

#include <string.h>

static inline const struct mce_detail *detail(const struct mce_decoded *d, const char *name)
{
	for (unsigned i = 0; i < d->n_details; i++)
		if (strcmp(d->details[i].name, name) == 0)
			return &d->details[i];
	return NULL;
}

/* The detail is there with value v, and with text when text is not NULL. */
static inline void assert_detail(const struct mce_decoded *d, const char *name, uint64_t v, const char *text)
{
	const struct mce_detail *x = detail(d, name);

	if (!x)
		fail_msg("no detail %s", name);
	assert_int_equal(x->value, v);
	if (text) {
		assert_non_null(x->text);
		assert_string_equal(x->text, text);
	}
}
