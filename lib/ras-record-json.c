/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edac-detail.h"
#include "macro.h"
#include "parse-number.h"
#include "ras-record-json.h"
#include "rfc3339.h"

/*
 * A field's key must outlive the record (struct ras_field.key is static
 * storage), but replayed keys come from the input: they are interned here,
 * once each, for the life of the process.  Every producer has a few dozen
 * keys; the cap keeps hostile input from growing this without bound.
 */
#define INTERN_MAX 512
#define KEY_MAX 64

static char interned[INTERN_MAX][KEY_MAX];
static unsigned n_interned;

static const char *intern(const char *key)
{
	for (unsigned i = 0; i < n_interned; i++)
		if (streq(interned[i], key))
			return interned[i];
	if (n_interned >= INTERN_MAX || strlen(key) >= KEY_MAX)
		return NULL;
	strcpy(interned[n_interned], key);
	return interned[n_interned++];
}

/* The keys the record itself carries; every other key is a field. */
static const char *const common_keys[] = {
	"time", "source", "hostname", "boot_id", "event", "severity", "cpu", "description", "truncated",
};

_printf_(3, 4)
static int fail(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool key_valid(const char *k)
{
	if (!*k)
		return false;
	for (; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= '0' && *k <= '9') || *k == '_'))
			return false;
	return true;
}

static void json_object_putp(struct json_object **o)
{
	if (*o)
		json_object_put(*o);
}

/*
 * Recorded text loses its control characters, which the kernel's text never
 * has once read live (kernel-abi/ras-trace.c): each becomes '?', so that a
 * replayed label cannot add a line to a log, a journal field or a trigger's
 * environment, nor carry a terminal escape.  Other bytes stay (firmware text
 * may be UTF-8; the JSON writer escapes what is not).
 */
static void copy_printable(char *dst, const char *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = (unsigned char) src[i] < 0x20 || src[i] == 0x7f ? '?' : src[i];
	dst[n] = '\0';
}

static int get_string(struct json_object *v, const char *key, char *dst, size_t size, char *why,
		      size_t why_size)
{
	size_t n;

	if (!json_object_is_type(v, json_type_string))
		return fail(why, why_size, "key \"%s\": expected a string", key);
	n = (size_t) json_object_get_string_len(v);
	if (n >= size)
		return fail(why, why_size, "key \"%s\": longer than %zu characters", key, size - 1);
	copy_printable(dst, json_object_get_string(v), n);
	return 0;
}

static int common_key(struct ras_record *r, const char *key, struct json_object *v, char *why,
		      size_t why_size)
{
	if (streq(key, "time")) {
		if (!json_object_is_type(v, json_type_string) ||
		    parse_rfc3339_usec(json_object_get_string(v), &r->time_usec) < 0)
			return fail(why, why_size, "key \"time\": expected an RFC 3339 timestamp");
		r->have_time = true;
	} else if (streq(key, "source")) {
		if (!json_object_is_type(v, json_type_string))
			return fail(why, why_size, "key \"source\": expected a string");
		r->source = mce_source_from_string(json_object_get_string(v));
	} else if (streq(key, "hostname"))
		return get_string(v, key, r->hostname, sizeof(r->hostname), why, why_size);
	else if (streq(key, "boot_id")) {
		int k = get_string(v, key, r->boot_id, sizeof(r->boot_id), why, why_size);

		if (k < 0)
			return k;
		if (strlen(r->boot_id) != MCE_BOOT_ID_LEN ||
		    strspn(r->boot_id, "0123456789abcdef") != MCE_BOOT_ID_LEN)
			return fail(why, why_size, "key \"boot_id\": expected 32 lower-case hex digits");
	} else if (streq(key, "severity")) {
		if (!json_object_is_type(v, json_type_string) ||
		    (r->severity = ras_severity_from_string(json_object_get_string(v))) == _RAS_SEV_INVALID)
			return fail(why, why_size, "key \"severity\": expected corrected, deferred, "
				    "uncorrected, fatal or info");
	} else if (streq(key, "cpu")) {
		int64_t c;

		if (!json_object_is_type(v, json_type_int) || (c = json_object_get_int64(v)) < 0 ||
		    c > UINT32_MAX)
			return fail(why, why_size, "key \"cpu\": expected a CPU number");
		r->have_cpu = true;
		r->cpu = (uint32_t) c;
	} else if (streq(key, "description"))
		return get_string(v, key, r->summary, sizeof(r->summary), why, why_size);
	else if (streq(key, "truncated")) {
		if (!json_object_is_type(v, json_type_boolean))
			return fail(why, why_size, "key \"truncated\": expected true or false");
		r->truncated = json_object_get_boolean(v);
	}
	return 0;
}

/*
 * The writer renders registers ("0x" and 16 digits) and hex identifiers
 * ("0x1f") as strings: read back, they are numbers again, so that a replayed
 * EDAC address reaches the rules' address and page as a live one does.  Only
 * the writer's exact forms qualify, so the record writes back byte for byte;
 * any other text stays text.
 */
static int add_string_or_register(struct ras_record *r, const char *key, const char *s, size_t n)
{
	uint64_t v;

	if (n > 2 && s[0] == '0' && s[1] == 'x' && strspn(s + 2, "0123456789abcdef") == n - 2 &&
	    parse_unsigned(s, n, 16, UINT64_MAX, &v) == 0) {
		if (n == 18)
			return ras_record_add_hex64(r, key, v);
		if (s[2] != '0' || n == 3)
			return ras_record_add_hex(r, key, v);
	}
	return ras_record_add_string(r, key, s, n);
}

static int field_key(struct ras_record *r, const char *key, struct json_object *v, char *why,
		     size_t why_size)
{
	const char *k;
	int ret;

	if (!key_valid(key))
		return fail(why, why_size, "key \"%s\": keys are lower-case letters, digits and '_'", key);
	k = intern(key);
	if (!k)
		return fail(why, why_size, "key \"%s\": too long, or too many distinct keys", key);
	switch (json_object_get_type(v)) {
	case json_type_boolean:
		ret = ras_record_add_bool(r, k, json_object_get_boolean(v));
		break;
	case json_type_int: {
		/* json-c keeps integers above INT64_MAX as uint64 */
		int64_t i = json_object_get_int64(v);

		if (i < 0)
			ret = ras_record_add_int(r, k, i);
		else
			ret = ras_record_add_uint(r, k, json_object_get_uint64(v));
		break;
	}
	case json_type_string: {
		size_t n = (size_t) json_object_get_string_len(v);
		_cleanup_free_ char *text = malloc(n + 1);

		if (!text)
			return -ENOMEM;
		/* Recorded text is cleaned as live text is, then a register's digits read as one. */
		copy_printable(text, json_object_get_string(v), n);
		ret = add_string_or_register(r, k, text, n);
		break;
	}
	default:
		return fail(why, why_size, "key \"%s\": expected a string, an integer or a boolean", key);
	}
	if (ret == -ENOMEM)
		return ret;
	return 0;   /* -E2BIG: r->truncated is set and the record says so */
}

int ras_record_parse_json(const char *text, size_t len, struct ras_record *ret, char *why,
			  size_t why_size)
{
	_cleanup_(json_object_putp) struct json_object *root = NULL;
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	struct json_object *v;
	enum ras_event event;
	int r = 0;

	if (len > INT_MAX)
		return fail(why, why_size, "record too long");
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	root = json_tokener_parse_ex(tok, text, (int) len);
	jerr = json_tokener_get_error(tok);
	json_tokener_free(tok);
	if (!root || jerr != json_tokener_success)
		return fail(why, why_size, "invalid JSON: %s", json_tokener_error_desc(jerr));
	if (!json_object_is_type(root, json_type_object))
		return fail(why, why_size, "a record must be a JSON object");
	if (!json_object_object_get_ex(root, "event", &v))
		return -ENOMSG;
	if (!json_object_is_type(v, json_type_string) ||
	    (event = ras_event_from_string(json_object_get_string(v))) == _RAS_EVENT_INVALID)
		return fail(why, why_size, "key \"event\": unknown kind of error '%s'", json_object_get_string(v));

	ras_record_init(ret, event, MCE_SOURCE_UNKNOWN);
	json_object_object_foreach(root, key, val) {
		bool common = false;

		for (size_t i = 0; i < ELEMENTSOF(common_keys); i++)
			if (streq(key, common_keys[i]))
				common = true;
		if (streq(key, "event"))
			continue;
		r = common ? common_key(ret, key, val, why, why_size) : field_key(ret, key, val, why, why_size);
		if (r < 0)
			break;
	}
	/* Records written before the EDAC location was read out of driver_detail: read it as live does. */
	if (r == 0 && event == RAS_EVENT_MEMORY_CONTROLLER && ras_record_add_edac_location(ret) == -ENOMEM)
		r = -ENOMEM;
	if (r < 0) {
		ras_record_done(ret);
		return r;
	}
	return 0;
}
