/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>

#include "source.h"

static const char *const source_state_names[_SOURCE_STATE_MAX] = {
	[SOURCE_DISABLED]    = "disabled",
	[SOURCE_UNAVAILABLE] = "unavailable",
	[SOURCE_ACTIVE]      = "active",
};

const char *source_state_to_string(enum source_state s)
{
	if ((unsigned) s >= _SOURCE_STATE_MAX)
		return "unknown";
	return source_state_names[s];
}

_printf_(5, 0)
static void put_state(const struct source_host *h, enum mce_source source, enum source_state state, bool add,
		      const char *reason_fmt, va_list ap)
{
	char reason[256] = "";

	if (reason_fmt)
		vsnprintf(reason, sizeof(reason), reason_fmt, ap);
	if (add && h->add_state)
		h->add_state(h->core, source, state, reason);
	else
		h->set_state(h->core, source, state, reason);
}

void source_set_state(const struct source_host *h, enum mce_source source, enum source_state state,
		      const char *reason_fmt, ...)
{
	va_list ap;

	va_start(ap, reason_fmt);
	put_state(h, source, state, false, reason_fmt, ap);
	va_end(ap);
}

void source_add_state(const struct source_host *h, enum mce_source source, enum source_state state,
		      const char *reason_fmt, ...)
{
	va_list ap;

	va_start(ap, reason_fmt);
	put_state(h, source, state, true, reason_fmt, ap);
	va_end(ap);
}
