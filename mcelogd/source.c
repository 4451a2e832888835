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

void source_set_state(const struct source_host *h, enum mce_source source, enum source_state state,
		      const char *reason_fmt, ...)
{
	char reason[256] = "";
	va_list ap;

	if (reason_fmt) {
		va_start(ap, reason_fmt);
		vsnprintf(reason, sizeof(reason), reason_fmt, ap);
		va_end(ap);
	}
	h->set_state(h->core, source, state, reason);
}

void source_add_state(const struct source_host *h, enum mce_source source, enum source_state state,
		      const char *reason_fmt, ...)
{
	char reason[256] = "";
	va_list ap;

	if (reason_fmt) {
		va_start(ap, reason_fmt);
		vsnprintf(reason, sizeof(reason), reason_fmt, ap);
		va_end(ap);
	}
	if (h->add_state)
		h->add_state(h->core, source, state, reason);
	else
		h->set_state(h->core, source, state, reason);
}
